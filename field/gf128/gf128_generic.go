package gf128

import (
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/clmul"
)

// This file holds the generic pure-Go implementations. They are always
// compiled, are what -tags purego runs, and are the reference the assembly is
// tested against. They build on the portable carry-less product of
// internal/clmul, not on gf64.Mul, so that the generic path stays pure Go
// whichever gf64 implementation is active.

// reduce returns (hi·x^64 + lo) mod (x^64 + x^4 + x^3 + x + 1).
func reduce(hi, lo uint64) gf64.Element {
	// x^64 = x^4 + x^3 + x + 1: fold hi down once; the bits that spill past
	// x^63 (at most 4 of them) fold down a second time.
	lo ^= hi ^ hi<<1 ^ hi<<3 ^ hi<<4
	t := hi>>63 ^ hi>>61 ^ hi>>60
	return gf64.Element(lo ^ t ^ t<<1 ^ t<<3 ^ t<<4)
}

// mulByC returns C·r = x^63·r: the 127-bit product hi = r>>1, lo = r<<63,
// reduced.
func mulByC(r gf64.Element) gf64.Element { return reduce(uint64(r)>>1, uint64(r)<<63) }

func mulGeneric(a, b Element) Element {
	h0, l0 := clmul.Mul64(uint64(a.A0), uint64(b.A0))
	h1, l1 := clmul.Mul64(uint64(a.A1), uint64(b.A1))
	h2, l2 := clmul.Mul64(uint64(a.A0^a.A1), uint64(b.A0^b.A1))
	r1 := uint64(reduce(h1, l1))
	// C·m1 = x^63·r1 = (r1>>1)·x^64 + r1<<63, added before the one reduction.
	return Element{reduce(h0^r1>>1, l0^r1<<63), reduce(h2^h0, l2^l0)}
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
	for i := range dst {
		dst[i] = mulGeneric(a[i], c)
	}
}

func mulByBaseVecGeneric(dst, a []Element, b []gf64.Element) {
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	_ = b[len(dst)-1]
	for i := range dst {
		v := uint64(b[i])
		h0, l0 := clmul.Mul64(uint64(a[i].A0), v)
		h1, l1 := clmul.Mul64(uint64(a[i].A1), v)
		dst[i] = Element{reduce(h0, l0), reduce(h1, l1)}
	}
}

// combineBaseGeneric sets dst[i] = Σ_j coeffs[j]·cols[j][i], or adds that sum
// to dst[i] when add is set. It needs at least one column, every column of
// len(dst) elements and one coefficient per column. Each row's products are
// summed as 128-bit carry-less values and reduced once per coefficient.
func combineBaseGeneric(dst []Element, cols [][]gf64.Element, coeffs []Element, add bool) {
	coeffs = coeffs[:len(cols)]
	for i := range dst {
		var h0, l0, h1, l1 uint64
		for j, col := range cols {
			v := uint64(col[i])
			h, l := clmul.Mul64(v, uint64(coeffs[j].A0))
			h0, l0 = h0^h, l0^l
			h, l = clmul.Mul64(v, uint64(coeffs[j].A1))
			h1, l1 = h1^h, l1^l
		}
		r := Element{reduce(h0, l0), reduce(h1, l1)}
		if add {
			r = Add(r, dst[i])
		}
		dst[i] = r
	}
}
