//go:build amd64 && !purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// avx512Available: gf64 reports whether the CPU and OS support its AVX-512
// kernels (AVX-512F, AVX-512BW and VPCLMULQDQ among them), which these
// kernels and those of kernels_network_amd64.s also need.
var avx512Available = func() bool {
	for _, im := range gf64.Implementations() {
		if im.Name == "avx512" {
			return im.Available
		}
	}
	return false
}()

//go:noescape
func xorSSE2(dst, src []gf64.Element)

//go:noescape
func xorAVX512(dst, src []gf64.Element)

// xorLong sets dst[i] ^= src[i]; len(src) ≥ len(dst).
func xorLong(dst, src []gf64.Element) {
	src = src[:len(dst)]
	if useAVX512 {
		xorAVX512(dst, src)
	} else {
		xorSSE2(dst, src)
	}
}

//go:noescape
func taylor3AVX512(base *gf64.Element, seg, w int)

//go:noescape
func untaylor3AVX512(base *gf64.Element, seg, w int)

// taylor3 runs the three fused Taylor levels (fusedOps) on columns [o,
// o+w) of the 16 segments of a; w is a multiple of 8 or the generic code
// runs.
func taylor3(a []gf64.Element, o, w int) {
	seg := len(a) / 16
	if useAVX512 && w%8 == 0 && w > 0 {
		_ = a[15*seg+o+w-1]
		taylor3AVX512(&a[o], seg, w)
		return
	}
	taylor3Generic(a, o, w)
}

// untaylor3 undoes taylor3.
func untaylor3(a []gf64.Element, o, w int) {
	seg := len(a) / 16
	if useAVX512 && w%8 == 0 && w > 0 {
		_ = a[15*seg+o+w-1]
		untaylor3AVX512(&a[o], seg, w)
		return
	}
	untaylor3Generic(a, o, w)
}

//go:noescape
func taylorLowAVX512(a *gf64.Element, n, s int)

//go:noescape
func untaylorLowAVX512(a *gf64.Element, n, s int)

// taylorLow runs taylor(block, s) on each lowN-element block of a (len(a) a
// multiple of lowN, s ≤ lowN/4).
func taylorLow(a []gf64.Element, s int) {
	if useAVX512 && len(a) >= lowN {
		taylorLowAVX512(&a[0], len(a)/lowN, s)
		return
	}
	taylorLowGeneric(a, s)
}

// untaylorLow undoes taylorLow.
func untaylorLow(a []gf64.Element, s int) {
	if useAVX512 && len(a) >= lowN {
		untaylorLowAVX512(&a[0], len(a)/lowN, s)
		return
	}
	untaylorLowGeneric(a, s)
}

//go:noescape
func gatherAVX512(dst, src *gf64.Element, rows, stride int)

//go:noescape
func scatterAVX512(dst, src *gf64.Element, rows, stride int)

// gatherRows sets b[t·32+u] = a[t·stride+u] for t < len(b)/32, u < 32.
func gatherRows(b, a []gf64.Element, stride int) {
	rows := len(b) / 32
	if useAVX512 && rows > 0 {
		_ = a[(rows-1)*stride+31]
		gatherAVX512(&b[0], &a[0], rows, stride)
		return
	}
	gatherRowsGeneric(b, a, stride)
}

// scatterRows undoes gatherRows: a[t·stride+u] = b[t·32+u].
func scatterRows(a, b []gf64.Element, stride int) {
	rows := len(b) / 32
	if useAVX512 && rows > 0 {
		_ = a[(rows-1)*stride+31]
		scatterAVX512(&a[0], &b[0], rows, stride)
		return
	}
	scatterRowsGeneric(a, b, stride)
}
