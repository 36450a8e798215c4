package domain

import (
	"math/bits"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// The butterfly network of the Lin–Chung–Han transform. For a polynomial
// D = Σ d_i X_i in the novel basis, level r pairs the positions that differ
// in bit r; block b of level r (positions b·2^(r+1) .. (b+1)·2^(r+1)) uses
// the twiddle c = Ŵ_r(s + Σ_j bit_j(b)·v_{r+1+j}) for all its pairs (u, v):
//
//	forward: u += c·v, then v += u      (levels m-1 down to 0)
//	inverse: v += u,   then u += c·v    (levels 0 up to m-1)
//
// The forward network maps novel coefficients to evaluations in subspace
// order (Lin, Chung, Han, FOCS 2014). Blocks at levels r ≥ L are processed
// depth first, so that each half fits in cache before the levels below it
// run; levels r < L run one chunk of 2^L elements at a time.

func trailingZeros(u uint) int { return bits.TrailingZeros(u) }

// forward applies levels r..0 to a (length 2^(r+1)), whose first element
// has index off.
func (p *plan) forward(a []gf64.Element, off, r int, sc *scratch) {
	if r < p.L {
		p.forwardChunk(a, off, sc)
		return
	}
	h := len(a) >> 1
	gf64.Butterfly(a[:h], a[h:], p.twiddle(r, off>>uint(r+1)))
	p.forward(a[:h], off, r-1, sc)
	p.forward(a[h:], off+h, r-1, sc)
}

// inverse undoes forward.
func (p *plan) inverse(a []gf64.Element, off, r int, sc *scratch) {
	if r < p.L {
		p.inverseChunk(a, off, sc)
		return
	}
	h := len(a) >> 1
	p.inverse(a[:h], off, r-1, sc)
	p.inverse(a[h:], off+h, r-1, sc)
	gf64.InvButterfly(a[:h], a[h:], p.twiddle(r, off>>uint(r+1)))
}

// forwardChunk applies levels k-1..0 to a block a of 2^k ≤ 2^L elements.
func (p *plan) forwardChunk(a []gf64.Element, off int, sc *scratch) {
	k := bits.Len(uint(len(a))) - 1
	for r := k - 1; r >= 0; r-- {
		base := p.twiddle(r, off>>uint(r+1))
		if r < smallLevels {
			p.smallForward(a, r, base, sc)
			continue
		}
		h := 1 << uint(r)
		for b, c := range p.loc[r][:len(a)>>uint(r+1)] {
			i := b << uint(r+1)
			gf64.Butterfly(a[i:i+h], a[i+h:i+2*h], base^c)
		}
	}
}

// inverseChunk undoes forwardChunk.
func (p *plan) inverseChunk(a []gf64.Element, off int, sc *scratch) {
	k := bits.Len(uint(len(a))) - 1
	for r := 0; r < k; r++ {
		base := p.twiddle(r, off>>uint(r+1))
		if r < smallLevels {
			p.smallInverse(a, r, base, sc)
			continue
		}
		h := 1 << uint(r)
		for b, c := range p.loc[r][:len(a)>>uint(r+1)] {
			i := b << uint(r+1)
			gf64.InvButterfly(a[i:i+h], a[i+h:i+2*h], base^c)
		}
	}
}

// smallForward runs level r (2^r < 2^smallLevels) on a chunk: the second
// members of all pairs are gathered and multiplied by their twiddles with one
// vector multiplication.
func (p *plan) smallForward(a []gf64.Element, r int, base gf64.Element, sc *scratch) {
	half := len(a) >> 1
	v, tw := sc.v[:half], sc.tw[:half]
	loc := p.locExp[r][:half]
	h := 1 << uint(r)
	mask := h - 1
	switch r {
	case 0:
		for q := range v {
			v[q] = a[2*q+1]
			tw[q] = base ^ loc[q]
		}
		gf64.MulVec(v, v, tw)
		for q := range v {
			u := a[2*q] ^ v[q]
			a[2*q] = u
			a[2*q+1] ^= u
		}
	default:
		for q := range v {
			i := (q&^mask)<<1 | q&mask
			v[q] = a[i+h]
			tw[q] = base ^ loc[q]
		}
		gf64.MulVec(v, v, tw)
		for q := range v {
			i := (q&^mask)<<1 | q&mask
			u := a[i] ^ v[q]
			a[i] = u
			a[i+h] ^= u
		}
	}
}

// smallInverse undoes smallForward.
func (p *plan) smallInverse(a []gf64.Element, r int, base gf64.Element, sc *scratch) {
	half := len(a) >> 1
	v, tw := sc.v[:half], sc.tw[:half]
	loc := p.locExp[r][:half]
	h := 1 << uint(r)
	mask := h - 1
	for q := range v {
		i := (q&^mask)<<1 | q&mask
		x := a[i+h] ^ a[i]
		a[i+h] = x
		v[q] = x
		tw[q] = base ^ loc[q]
	}
	gf64.MulVec(v, v, tw)
	for q := range v {
		i := (q&^mask)<<1 | q&mask
		a[i] ^= v[q]
	}
}

// forwardTrunc applies the whole forward network (m = p.m) to a, of which
// only the first 2^j entries may be non-zero: the levels r ≥ j only copy
// the first block, so they are replaced by copies.
func (p *plan) forwardTrunc(a []gf64.Element, j int, sc *scratch) {
	bs := 1 << uint(j)
	for i := bs; i < len(a); i += bs {
		copy(a[i:i+bs], a[:bs])
	}
	if j == 0 {
		return
	}
	for i := 0; i < len(a); i += bs {
		p.forward(a[i:i+bs], i, j-1, sc)
	}
}
