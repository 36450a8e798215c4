package gf64

import "math/bits"

// This file holds the generic pure-Go implementations. They are always
// compiled, are what -tags purego runs, and are the reference the assembly is
// tested against.

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

// clmulGeneric returns the 128-bit carry-less product a·b as hi, lo.
func clmulGeneric(a, b uint64) (hi, lo uint64) {
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

// reduce returns (hi·x^64 + lo) mod (x^64 + x^4 + x^3 + x + 1).
func reduce(hi, lo uint64) Element {
	// x^64 = x^4 + x^3 + x + 1: fold hi down once; the bits that spill past
	// x^63 (at most 4 of them) fold down a second time.
	lo ^= hi ^ hi<<1 ^ hi<<3 ^ hi<<4
	t := hi>>63 ^ hi>>61 ^ hi>>60
	lo ^= t ^ t<<1 ^ t<<3 ^ t<<4
	return Element(lo)
}

func mulGeneric(a, b Element) Element {
	hi, lo := clmulGeneric(uint64(a), uint64(b))
	return reduce(hi, lo)
}

// spread interleaves zero bits above each of the 32 bits of x.
func spread(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	v = (v | v<<8) & 0x00ff00ff00ff00ff
	v = (v | v<<4) & 0x0f0f0f0f0f0f0f0f
	v = (v | v<<2) & 0x3333333333333333
	v = (v | v<<1) & 0x5555555555555555
	return v
}

// squareGeneric uses that squaring is linear over GF(2): the square of
// Σ a_i x^i is Σ a_i x^(2i).
func squareGeneric(a Element) Element {
	return reduce(spread(uint32(a>>32)), spread(uint32(a)))
}

func squareNGeneric(a Element, n int) Element {
	for ; n > 0; n-- {
		a = squareGeneric(a)
	}
	return a
}

func mulVecGeneric(dst, a, b []Element) {
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	_ = b[len(dst)-1]
	for i := range dst {
		dst[i] = mulGeneric(a[i], b[i])
	}
}

func scaleVecGeneric(dst, a []Element, c Element) {
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	switch {
	case len(dst) >= byteTableMin:
		var t byteTable
		t.init(c)
		for i := range dst {
			dst[i] = t.mul(a[i])
		}
	default:
		for i := range dst {
			dst[i] = mulGeneric(a[i], c)
		}
	}
}

func mulAddVecGeneric(dst, a []Element, c Element) {
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	switch {
	case len(dst) >= byteTableMin:
		var t byteTable
		t.init(c)
		for i := range dst {
			dst[i] ^= t.mul(a[i])
		}
	default:
		for i := range dst {
			dst[i] ^= mulGeneric(a[i], c)
		}
	}
}

func addVecGeneric(dst, a, b []Element) {
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	_ = b[len(dst)-1]
	for i := range dst {
		dst[i] = a[i] ^ b[i]
	}
}

func butterflyGeneric(u, v []Element, c Element) {
	if len(u) == 0 {
		return
	}
	_ = v[len(u)-1]
	switch {
	case len(u) >= byteTableMin:
		var t byteTable
		t.init(c)
		for i := range u {
			x := u[i] ^ t.mul(v[i])
			u[i] = x
			v[i] ^= x
		}
	default:
		for i := range u {
			x := u[i] ^ mulGeneric(v[i], c)
			u[i] = x
			v[i] ^= x
		}
	}
}

func invButterflyGeneric(u, v []Element, c Element) {
	if len(u) == 0 {
		return
	}
	_ = v[len(u)-1]
	switch {
	case len(u) >= byteTableMin:
		var t byteTable
		t.init(c)
		for i := range u {
			y := v[i] ^ u[i]
			v[i] = y
			u[i] ^= t.mul(y)
		}
	default:
		for i := range u {
			y := v[i] ^ u[i]
			v[i] = y
			u[i] ^= mulGeneric(y, c)
		}
	}
}
