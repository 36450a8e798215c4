package gf2n

import "math/bits"

// This file holds the generic pure-Go implementation. It is always compiled,
// it is what -tags purego runs, and it is what the assembly is tested against
// (itself tested against the bit-by-bit reference of the tests).

// maxWords is the number of words of an element of the largest field.
const maxWords = 2048 / 64

// Masks selecting every fifth bit, starting at bit 0..4. Splitting both
// operands of a 64×64-bit carry-less product into these five classes lets
// integer multiplications compute it: a class holds at most 13 bits, so at
// most 13 partial products meet on one bit position and their carries (4
// bits) never reach the next position of the same class.
const (
	cls0 = 0x1084210842108421
	cls1 = cls0 << 1
	cls2 = cls0 << 2
	cls3 = cls0 << 3
	cls4 = cls0 << 4 & 0xffffffffffffffff
)

// clmul64 returns the 128-bit carry-less product a·b as hi, lo.
func clmul64(a, b uint64) (hi, lo uint64) {
	a0, a1, a2, a3, a4 := a&cls0, a&cls1, a&cls2, a&cls3, a&cls4
	b0, b1, b2, b3, b4 := b&cls0, b&cls1, b&cls2, b&cls3, b&cls4
	// Class i times class j lands in class (i+j) mod 5. Bit 64+j has class
	// (j+4) mod 5, so in the high word class k sits under mask cls(k+1).
	h, l := xorMul5(a0, b0, a1, b4, a2, b3, a3, b2, a4, b1)
	hi, lo = h&cls1, l&cls0
	h, l = xorMul5(a0, b1, a1, b0, a2, b4, a3, b3, a4, b2)
	hi, lo = hi|h&cls2, lo|l&cls1
	h, l = xorMul5(a0, b2, a1, b1, a2, b0, a3, b4, a4, b3)
	hi, lo = hi|h&cls3, lo|l&cls2
	h, l = xorMul5(a0, b3, a1, b2, a2, b1, a3, b0, a4, b4)
	hi, lo = hi|h&cls4, lo|l&cls3
	h, l = xorMul5(a0, b4, a1, b3, a2, b2, a3, b1, a4, b0)
	hi, lo = hi|h&cls0, lo|l&cls4
	return hi, lo
}

// xorMul5 returns the XOR of the five 128-bit integer products x_k·y_k.
func xorMul5(x0, y0, x1, y1, x2, y2, x3, y3, x4, y4 uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(x0, y0)
	h, l := bits.Mul64(x1, y1)
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x2, y2)
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x3, y3)
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x4, y4)
	return hi ^ h, lo ^ l
}

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
		p[1], p[0] = clmul64(a[0], b[0])
		return
	case 2:
		h0, l0 := clmul64(a[0], b[0])
		h2, l2 := clmul64(a[1], b[1])
		h1, l1 := clmul64(a[0]^a[1], b[0]^b[1])
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
