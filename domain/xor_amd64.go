//go:build amd64 && !purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// useAVX512 is read once: gf64 reports whether the CPU and OS support its
// AVX-512 kernels (AVX-512F among them), which the XOR kernel also needs.
var useAVX512 = avx512Available()

func avx512Available() bool {
	for _, im := range gf64.Implementations() {
		if im.Name == "avx512" {
			return im.Available
		}
	}
	return false
}

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
