// Package clmul is the portable 64×64-bit carry-less product that the
// generic (pure-Go) paths of field/gf64 and field/gf2n build on.
package clmul

import "math/bits"

// Masks selecting every fifth bit, starting at bit 0..4. Splitting both
// operands into these five classes lets an integer multiplication compute a
// carry-less one: a class holds at most 13 bits, so at most 13 partial
// products land on one bit position and their carries (at most 4 bits) never
// reach the next position of the same class.
const (
	m0 = 0x1084210842108421
	m1 = m0 << 1
	m2 = m0 << 2
	m3 = m0 << 3
	m4 = m0 << 4 & 0xffffffffffffffff
)

// Mul64 returns the 128-bit carry-less product a·b as hi, lo, in constant
// time (integer multiplications, no tables).
func Mul64(a, b uint64) (hi, lo uint64) {
	a0, a1, a2, a3, a4 := a&m0, a&m1, a&m2, a&m3, a&m4
	b0, b1, b2, b3, b4 := b&m0, b&m1, b&m2, b&m3, b&m4
	// The product of class i and class j lands in class (i+j) mod 5. The
	// five integer products of each output class are summed with XOR: within
	// a class the sums never carry into the next bit of the same class, so
	// XOR and + agree on the bits that are kept. Bit 64+j of the product has
	// class (j+4) mod 5, so the high word's class-k bits are m_{(k+1) mod 5}.
	h, l := sum5(a0, b0, a1, b4, a2, b3, a3, b2, a4, b1)
	hi, lo = h&m1, l&m0
	h, l = sum5(a0, b1, a1, b0, a2, b4, a3, b3, a4, b2)
	hi, lo = hi|h&m2, lo|l&m1
	h, l = sum5(a0, b2, a1, b1, a2, b0, a3, b4, a4, b3)
	hi, lo = hi|h&m3, lo|l&m2
	h, l = sum5(a0, b3, a1, b2, a2, b1, a3, b0, a4, b4)
	hi, lo = hi|h&m4, lo|l&m3
	h, l = sum5(a0, b4, a1, b3, a2, b2, a3, b1, a4, b0)
	hi, lo = hi|h&m0, lo|l&m4
	return hi, lo
}

// sum5 returns the XOR of the five 128-bit products x_k·y_k.
func sum5(x0, y0, x1, y1, x2, y2, x3, y3, x4, y4 uint64) (hi, lo uint64) {
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
