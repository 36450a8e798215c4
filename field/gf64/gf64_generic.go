package gf64

import "github.com/gfpoly/gfpoly/internal/clmul"

// This file holds the generic pure-Go implementations. They are always
// compiled, are what -tags purego runs, and are the reference the assembly is
// tested against.

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
	hi, lo := clmul.Mul64(uint64(a), uint64(b))
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
