//go:build amd64 && !purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

//go:noescape
func net16FwdAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[6]gf64.Element)

//go:noescape
func net16InvAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[6]gf64.Element)

//go:noescape
func net64FwdAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3, loc4, loc5 *gf64.Element, base *[6]gf64.Element)

//go:noescape
func net64InvAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3, loc4, loc5 *gf64.Element, base *[6]gf64.Element)

// The wrappers below run the AVX-512 kernels where the AVX-512 kernel set
// is active (useAVX512), else their generic twins: the plan takes the
// kernels only then (tuning.net), and a test that forces tuning.net on a
// machine without AVX-512 gets the generic code, not an illegal
// instruction.

// net16Fwd runs levels 3..0 on the len(a)/16 groups of a (len(a) a
// multiple of 16); the tables must cover them.
func net16Fwd(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	if !useAVX512 {
		net16Generic(a, loc0, loc1, loc2, loc3, base)
		return
	}
	g := len(a) / 16
	if g == 0 {
		return
	}
	_, _, _, _ = loc0[8*g-1], loc1[8*g-1], loc2[8*g-1], loc3[g-1]
	net16FwdAVX512(&a[0], g, &loc0[0], &loc1[0], &loc2[0], &loc3[0], base)
}

// net16Inv undoes net16Fwd.
func net16Inv(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	if !useAVX512 {
		net16InvGeneric(a, loc0, loc1, loc2, loc3, base)
		return
	}
	g := len(a) / 16
	if g == 0 {
		return
	}
	_, _, _, _ = loc0[8*g-1], loc1[8*g-1], loc2[8*g-1], loc3[g-1]
	net16InvAVX512(&a[0], g, &loc0[0], &loc1[0], &loc2[0], &loc3[0], base)
}

// net64Fwd runs levels 5..0 on the len(a)/64 groups of a (len(a) a
// multiple of 64); the tables must cover them.
func net64Fwd(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	if !useAVX512 {
		net64Generic(a, loc0, loc1, loc2, loc3, loc4, loc5, base)
		return
	}
	g := len(a) / 64
	if g == 0 {
		return
	}
	_, _, _, _ = loc0[32*g-1], loc1[32*g-1], loc2[32*g-1], loc3[4*g-1]
	_, _ = loc4[2*g-1], loc5[g-1]
	net64FwdAVX512(&a[0], g, &loc0[0], &loc1[0], &loc2[0], &loc3[0], &loc4[0], &loc5[0], base)
}

// net64Inv undoes net64Fwd.
func net64Inv(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	if !useAVX512 {
		net64InvGeneric(a, loc0, loc1, loc2, loc3, loc4, loc5, base)
		return
	}
	g := len(a) / 64
	if g == 0 {
		return
	}
	_, _, _, _ = loc0[32*g-1], loc1[32*g-1], loc2[32*g-1], loc3[4*g-1]
	_, _ = loc4[2*g-1], loc5[g-1]
	net64InvAVX512(&a[0], g, &loc0[0], &loc1[0], &loc2[0], &loc3[0], &loc4[0], &loc5[0], base)
}

//go:noescape
func radix8FwdAVX512(dst, src *gf64.Element, st, cols int, tw *[7]gf64.Element)

//go:noescape
func radix8InvAVX512(dst, src *gf64.Element, st, cols int, tw *[7]gf64.Element)

// radix8Fwd runs three levels on the eight slices of a (len(a) = 8·st, st
// a multiple of 8).
func radix8Fwd(a []gf64.Element, tw *[7]gf64.Element) {
	if !useAVX512 {
		radix8Generic(a, tw)
		return
	}
	if len(a) == 0 {
		return
	}
	radix8FwdAVX512(&a[0], &a[0], len(a)/8, len(a)/8, tw)
}

// radix8FwdFrom is radix8Fwd on a copy of src written to dst (same length,
// not overlapping).
func radix8FwdFrom(dst, src []gf64.Element, tw *[7]gf64.Element) {
	if !useAVX512 {
		copy(dst, src)
		radix8Generic(dst, tw)
		return
	}
	if len(dst) == 0 {
		return
	}
	src = src[:len(dst)]
	radix8FwdAVX512(&dst[0], &src[0], len(dst)/8, len(dst)/8, tw)
}

// radix8Inv undoes radix8Fwd.
func radix8Inv(a []gf64.Element, tw *[7]gf64.Element) {
	if !useAVX512 {
		radix8InvGeneric(a, tw)
		return
	}
	if len(a) == 0 {
		return
	}
	radix8InvAVX512(&a[0], &a[0], len(a)/8, len(a)/8, tw)
}

// radix8Cols is radix8Fwd (inv: radix8Inv) on columns [lo, hi) of the
// eight slices, read from src and written to dst (the same slice, or of the
// same length and not overlapping); lo, hi multiples of 8.
func radix8Cols(dst, src []gf64.Element, lo, hi int, tw *[7]gf64.Element, inv bool) {
	if !useAVX512 {
		radix8ColsGeneric(dst, src, lo, hi, tw, inv)
		return
	}
	st := len(dst) / 8
	if hi <= lo {
		return
	}
	_, _ = dst[7*st+hi-1], src[7*st+hi-1]
	if inv {
		radix8InvAVX512(&dst[lo], &src[lo], st, hi-lo, tw)
	} else {
		radix8FwdAVX512(&dst[lo], &src[lo], st, hi-lo, tw)
	}
}
