package gf2n

import "github.com/gfpoly/gfpoly/internal/clmul"

// This file holds the generic pure-Go implementation. It is always compiled,
// it is what -tags purego runs, and it is what the assembly is tested against
// (itself tested against the bit-by-bit reference of the tests).

// maxWords is the number of words of an element of the largest field.
const maxWords = 2048 / 64

// karatsuba sets p (2m words) to the carry-less product of a and b (m words
// each, m a power of two). t is scratch space of at least 4m words. p must
// not overlap a, b or t.
//
// With a = a0 + a1·X and b = b0 + b1·X, X = x^(64m/2): a·b = P0 + (P1 − P0 −
// P2)·X + P2·X², where P0 = a0·b0, P2 = a1·b1 and P1 = (a0+a1)·(b0+b1).
func karatsuba(p, a, b, t []uint64) {
	m := len(a)
	switch m {
	case 1:
		p[1], p[0] = clmul.Mul64(a[0], b[0])
		return
	case 2:
		h0, l0 := clmul.Mul64(a[0], b[0])
		h2, l2 := clmul.Mul64(a[1], b[1])
		h1, l1 := clmul.Mul64(a[0]^a[1], b[0]^b[1])
		h1 ^= h0 ^ h2
		l1 ^= l0 ^ l2
		p[0], p[1], p[2], p[3] = l0, h0^l1, l2^h1, h2
		return
	}
	h := m / 2
	karatsuba(p[:m], a[:h], b[:h], t)
	karatsuba(p[m:], a[h:], b[h:], t)
	sa, sb, p1, rest := t[:h], t[h:m], t[m:2*m], t[2*m:]
	for i := range h {
		sa[i] = a[i] ^ a[h+i]
		sb[i] = b[i] ^ b[h+i]
	}
	karatsuba(p1, sa, sb, rest)
	for i := range m {
		p1[i] ^= p[i] ^ p[m+i]
	}
	for i := range m {
		p[h+i] ^= p1[i]
	}
}

// reduceGeneric sets z (w words) to p (2w words) modulo x^n + r, n = 64w,
// and overwrites the high half of p. x^n ≡ r, so each high word t at word
// position w+i is replaced by t·r at position i: for every exponent e of r,
// t shifted left by e, spread over words i and i+1. Working down from the
// top, the bits that land in word w again (from the top word, at most 63 of
// them) are folded when word w's turn comes.
func (f *Field) reduceGeneric(z, p []uint64) {
	w := f.words
	for i := 2*w - 1; i >= w; i-- {
		t := p[i]
		p[i-w] ^= t
		for _, e := range f.exps {
			p[i-w] ^= t << e
			p[i-w+1] ^= t >> (64 - e)
		}
	}
	copy(z, p[:w])
}

// mulGeneric sets z = x·y for one element; z may alias x or y.
func (f *Field) mulGeneric(z, x, y []uint64) { f.mulVecGeneric(z, x, y, 1) }

// mulVecGeneric sets z = x·y for count elements.
func (f *Field) mulVecGeneric(z, x, y []uint64, count int) {
	var p [2 * maxWords]uint64
	var t [4 * maxWords]uint64
	w := f.words
	for i := range count {
		a, b := i*w, (i+1)*w
		karatsuba(p[:2*w], x[a:b], y[a:b], t[:4*w])
		f.reduceGeneric(z[a:b], p[:2*w])
	}
}

// spread interleaves a zero bit above each of the 32 bits of v.
func spread(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x
}

// squareGeneric sets z = x² for one element; z may alias x. Squaring is
// GF(2)-linear: the square of Σ x_i·x^i is Σ x_i·x^(2i).
func (f *Field) squareGeneric(z, x []uint64) {
	var p [2 * maxWords]uint64
	for i, v := range x[:f.words] {
		p[2*i] = spread(uint32(v))
		p[2*i+1] = spread(uint32(v >> 32))
	}
	f.reduceGeneric(z, p[:2*f.words])
}
