package prime

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
)

// LDE is the low-degree extension from a small domain of size n to a large
// domain of size N = blowup·n (blowup 2, 4, 8 or 16): each column holds the
// evaluations of a polynomial p of degree < n on the small subgroup ⟨ω_n⟩,
// and the result is p's evaluations on the large domain's coset g·⟨ω_N⟩, g
// the large domain's FrMultiplicativeGen (gnark-crypto's default: the field's
// multiplicative generator; set another one with fft.WithShift). The coset is
// disjoint from ⟨ω_n⟩ whenever g is not in ⟨ω_N⟩, so the extension never
// repeats the input.
//
// The result equals, bit for bit, small.FFTInverse(col, ·) followed by
// large.FFT(coeffs zero-padded to N, ·, fft.OnCoset()). It is immutable and
// safe for concurrent use.
type LDE[E Element] struct {
	small, large fieldOps[E]
	logBlowup    int
	workers      int
	// natural, when not nil, is the field's own Natural-order extension
	// (Goldilocks: ntt64.Extender), used instead of the composition in
	// encode.
	natural func(dst, src []E, tasks int)

	cosetOnce sync.Once
	coset     []E // g^rev_n(t), t < n, g = the large domain's shift
}

// NewLDE returns the LDE from small to large, both gnark-crypto *fft.Domain of
// E's field. Errors wrap ErrDomain or ErrField as New's do, and ErrBlowup when
// large's cardinality is not 2, 4, 8 or 16 times small's.
func NewLDE[E Element](small, large any, opts ...Option) (*LDE[E], error) {
	s, err := opsFor[E](small)
	if err != nil {
		return nil, fmt.Errorf("small domain: %w", err)
	}
	l, err := opsFor[E](large)
	if err != nil {
		return nil, fmt.Errorf("large domain: %w", err)
	}
	n, bigN := s.cardinality(), l.cardinality()
	if bigN%n != 0 || bigN/n < 2 || bigN/n > 16 {
		return nil, fmt.Errorf("%w: large domain %d / small domain %d; want a blowup of 2, 4, 8 or 16", ErrBlowup, bigN, n)
	}
	c := newConfig(opts)
	lde := &LDE[E]{small: s, large: l, logBlowup: bits.TrailingZeros64(bigN / n), workers: c.workers}
	if gs, ok := any(s).(*goldilocksOps); ok {
		f, err := goldilocksNatural[E](gs, any(l).(*goldilocksOps))
		if err != nil {
			return nil, err
		}
		lde.natural = f
	}
	return lde, nil
}

// NewBN254LDE is NewLDE for the BN254 scalar field.
func NewBN254LDE(small, large *bn254fft.Domain, opts ...Option) (*LDE[fr.Element], error) {
	return NewLDE[fr.Element](small, large, opts...)
}

// NewGoldilocksLDE is NewLDE for Goldilocks.
func NewGoldilocksLDE(small, large *goldilocksfft.Domain, opts ...Option) (*LDE[goldilocks.Element], error) {
	return NewLDE[goldilocks.Element](small, large, opts...)
}

// NewBabyBearLDE is NewLDE for BabyBear.
func NewBabyBearLDE(small, large *babybearfft.Domain, opts ...Option) (*LDE[babybear.Element], error) {
	return NewLDE[babybear.Element](small, large, opts...)
}

// NewKoalaBearLDE is NewLDE for KoalaBear.
func NewKoalaBearLDE(small, large *koalabearfft.Domain, opts ...Option) (*LDE[koalabear.Element], error) {
	return NewLDE[koalabear.Element](small, large, opts...)
}

// SmallSize returns n, the length of an input column.
func (l *LDE[E]) SmallSize() int { return int(l.small.cardinality()) }

// LargeSize returns N, the length of an output column.
func (l *LDE[E]) LargeSize() int { return int(l.large.cardinality()) }

// Blowup returns N / n.
func (l *LDE[E]) Blowup() int { return 1 << l.logBlowup }

// Encode writes the extension of src[i] (n evaluations) into dst[i] (N
// evaluations) for every column i. o gives the orders: DIF reads src in
// natural order and writes dst bit-reversed; DIT reads src bit-reversed and
// writes dst in natural order; Natural reads and writes natural order (the
// cheapest: it needs no permutation).
//
// src is not modified. src[i] may overlap dst[i] (for instance src[i] may be
// dst[i][:n]: in-place extension); a column must not overlap another
// column's dst. Encode allocates nothing for the columns.
func (l *LDE[E]) Encode(dst, src [][]E, o Order) error {
	if !o.valid() {
		return fmt.Errorf("%w: LDE got %v", ErrOrder, o)
	}
	if len(dst) != len(src) {
		return fmt.Errorf("%w: LDE has %d dst columns and %d src columns", ErrSize, len(dst), len(src))
	}
	n, bigN := l.small.cardinality(), l.large.cardinality()
	for i := range src {
		if uint64(len(src[i])) != n {
			return fmt.Errorf("%w: LDE src column %d has %d elements, the small %s domain has %d",
				ErrSize, i, len(src[i]), l.small.name(), n)
		}
		if uint64(len(dst[i])) != bigN {
			return fmt.Errorf("%w: LDE dst column %d has %d elements, the large %s domain has %d",
				ErrSize, i, len(dst[i]), l.large.name(), bigN)
		}
	}
	forEach(len(src), l.workers, func(i, tasks int) {
		l.encode(dst[i], src[i], o, tasks)
	})
	return nil
}

// cosetTable returns g^rev_n(t) for t < n, g the large domain's shift,
// built on first use.
func (l *LDE[E]) cosetTable() []E {
	l.cosetOnce.Do(func() {
		t := make([]E, l.small.cardinality())
		l.large.expTable(l.large.cosetShift(), t)
		l.small.bitReverse(t, l.workers)
		l.coset = t
	})
	return l.coset
}

// encode is one column of Encode.
//
// Natural: INTT DIF (natural in) gives the n coefficients bit-reversed over
// log n bits; coefficient j sits at rev_n(j), and rev_N(j) = rev_n(j)·blowup,
// so spreading them with stride blowup gives the zero-padded coefficients in
// bit-reversed order over log N bits, which the coset DIT transform takes to
// natural-order evaluations. The coset DIT would multiply position i by
// g^rev_N(i); only the spread positions t·blowup are non-zero, and
// rev_N(t·blowup) = rev_n(t), so the n coefficients are multiplied by
// g^rev_n(t) before the spread and the large transform is a plain DIT: n
// products instead of N, read in order (gnark-crypto's coset DIT reads its
// coset table in bit-reversed order, a cache miss per element for BN254).
//
// DIF: INTT DIF, bit-reverse the n coefficients to natural order, zero-pad,
// coset DIF (bit-reversed out).
//
// DIT: INTT DIT (bit-reversed in) gives natural coefficients; bit-reverse
// them, multiply by g^rev_n(t), spread with stride blowup, DIT (natural
// out).
func (l *LDE[E]) encode(dst, src []E, o Order, tasks int) {
	if o == Natural && l.natural != nil {
		l.natural(dst, src, tasks)
		return
	}
	n := len(src)
	copy(dst[:n], src)
	head := dst[:n]
	var zero E
	switch o {
	case Natural:
		l.small.transform(head, DIF, true, false, tasks)
		l.small.mulVec(head, l.cosetTable())
		spread(dst, n, l.logBlowup)
		l.large.transform(dst, DIT, false, false, tasks)
	case DIF:
		l.small.transform(head, DIF, true, false, tasks)
		l.small.bitReverse(head, tasks)
		for j := n; j < len(dst); j++ {
			dst[j] = zero
		}
		l.large.transform(dst, DIF, false, true, tasks)
	case DIT:
		l.small.transform(head, DIT, true, false, tasks)
		l.small.bitReverse(head, tasks)
		l.small.mulVec(head, l.cosetTable())
		spread(dst, n, l.logBlowup)
		l.large.transform(dst, DIT, false, false, tasks)
	}
}

// spread moves dst[j] to dst[j<<logB] for j < n, from the top down so that no
// value is overwritten before it moves, and zeroes every other position.
func spread[E any](dst []E, n, logB int) {
	var zero E
	b := 1 << logB
	for j := n - 1; j >= 1; j-- {
		dst[j<<logB] = dst[j]
		for k := (j << logB) + 1; k < (j<<logB)+b; k++ {
			dst[k] = zero
		}
	}
	for k := 1; k < b; k++ {
		dst[k] = zero
	}
}
