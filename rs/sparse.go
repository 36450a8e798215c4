package rs

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// ReconstructAt sets dst (2^n elements) to the codeword whose symbol at
// position positions[i] is values[i] for every i: Reconstruct for callers
// that hold (position, value) pairs, such as the answers to a verifier's
// queries, instead of a whole word and a mask. The positions must be distinct
// and in [0, 2^n) (else ErrPosition, naming the entry); at least 2^k pairs
// are needed (else ErrTooFewSymbols) and when more are given they must lie on
// one codeword (else ErrNotCodeword). dst must not overlap values; positions
// and values are not modified. A call that fails its checks leaves dst
// untouched; after ErrNotCodeword dst's contents are unspecified. Apart from
// pooled scratch it allocates nothing.
func (c *Code) ReconstructAt(dst []gf64.Element, positions []int, values []gf64.Element) error {
	if err := c.checkLen("ReconstructAt", "dst", len(dst), 1<<c.n); err != nil {
		return err
	}
	mp := c.mbufs.Get().(*[]bool)
	defer c.mbufs.Put(mp)
	present := *mp
	if err := c.scatter("ReconstructAt", dst, present, positions, values); err != nil {
		return err
	}
	return c.Reconstruct(dst, dst, present)
}

// DecodeAt sets msg (2^k elements) to the message whose codeword has symbol
// values[i] at position positions[i] for every i, with ReconstructAt's rules
// and errors. positions and values are not modified.
func (c *Code) DecodeAt(msg []gf64.Element, positions []int, values []gf64.Element) error {
	if err := c.checkLen("DecodeAt", "msg", len(msg), 1<<c.k); err != nil {
		return err
	}
	mp := c.mbufs.Get().(*[]bool)
	defer c.mbufs.Put(mp)
	wp := c.vbufs.Get().(*[]gf64.Element)
	defer c.vbufs.Put(wp)
	present, word := *mp, *wp
	if err := c.scatter("DecodeAt", word, present, positions, values); err != nil {
		return err
	}
	return c.Decode(msg, word, present)
}

// scatter writes values into word at positions and marks them in present
// (both 2^n long; present is cleared first), after checking all the pairs,
// so that word is untouched when they are bad.
func (c *Code) scatter(op string, word []gf64.Element, present []bool, positions []int, values []gf64.Element) error {
	if len(positions) != len(values) {
		return fmt.Errorf("%w: %s: %d positions but %d values", ErrLength, op, len(positions), len(values))
	}
	N, K := 1<<c.n, 1<<c.k
	if len(positions) < K {
		return fmt.Errorf("%w: %s: %d of %d positions given, need at least %d", ErrTooFewSymbols, op, len(positions), N, K)
	}
	clear(present)
	for i, p := range positions {
		if p < 0 || p >= N {
			return fmt.Errorf("%w: %s: positions[%d] = %d is outside [0, %d)", ErrPosition, op, i, p, N)
		}
		if present[p] {
			return fmt.Errorf("%w: %s: positions[%d] = %d repeats an earlier position", ErrPosition, op, i, p)
		}
		present[p] = true
	}
	for i, p := range positions {
		word[p] = values[i]
	}
	return nil
}
