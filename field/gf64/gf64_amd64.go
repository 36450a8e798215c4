//go:build amd64 && !purego

package gf64

import "golang.org/x/sys/cpu"

// CPU support, read once. The PCLMULQDQ kernels use SSE2, SSSE3 (PSHUFB) and
// PCLMULQDQ; the AVX-512 kernels use AVX-512F, AVX-512BW (VPSHUFB) and
// VPCLMULQDQ on 512-bit registers. x/sys/cpu also checks that the OS saves
// the registers.
var (
	hasPCLMULQDQ = cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSSE3
	hasAVX512    = hasPCLMULQDQ && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VPCLMULQDQ
)

// reduceTable[t] = (t ^ t>>1 ^ t>>3)·0x1b for t < 16: for a high half H whose
// top four bits are t, the part of H·x^64 that spills past x^63 in H·0x1b,
// reduced once more. The PCLMULQDQ kernels look it up with PSHUFB.
// TestReduceTable recomputes it.
var reduceTable = [16]byte{
	0x00, 0x1b, 0x2d, 0x36, 0x5a, 0x41, 0x77, 0x6c,
	0xaf, 0xb4, 0x82, 0x99, 0xf5, 0xee, 0xd8, 0xc3,
}

var implAvailable = [numImpls]bool{implGeneric: true, implPCLMULQDQ: hasPCLMULQDQ, implAVX512: hasAVX512}

//go:noescape
func mulPCLMUL(a, b Element) Element

//go:noescape
func squareNPCLMUL(a Element, n int) Element

//go:noescape
func mulVecPCLMUL(dst, a, b []Element)

//go:noescape
func scaleVecPCLMUL(dst, a []Element, c Element)

//go:noescape
func mulAddVecPCLMUL(dst, a []Element, c Element)

//go:noescape
func butterflyPCLMUL(u, v []Element, c Element)

//go:noescape
func invButterflyPCLMUL(u, v []Element, c Element)

//go:noescape
func mulVecAVX512(dst, a, b []Element)

//go:noescape
func scaleVecAVX512(dst, a []Element, c Element)

//go:noescape
func mulAddVecAVX512(dst, a []Element, c Element)

//go:noescape
func butterflyAVX512(u, v []Element, c Element)

//go:noescape
func invButterflyAVX512(u, v []Element, c Element)

// The dispatchers below are called with slices of equal length (checked by
// the exported functions). Scalar Mul uses PCLMULQDQ on both assembly paths: a
// single product gains nothing from 512-bit registers. The AVX-512 kernels
// take a multiple of eight elements; the PCLMULQDQ kernels do the last one to
// seven, and all of a vector shorter than eight.

func mul(a, b Element) Element {
	if impl.Index() != implGeneric {
		return mulPCLMUL(a, b)
	}
	return mulGeneric(a, b)
}

// squareN returns a^(2^n). The assembly loop keeps the chain of squarings in
// one register: about twice as fast as the generic squaring, which matters
// for Inverse and Sqrt (63 squarings each).
func squareN(a Element, n int) Element {
	if impl.Index() != implGeneric {
		return squareNPCLMUL(a, n)
	}
	return squareNGeneric(a, n)
}

func mulVec(dst, a, b []Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ 7
		if m != 0 {
			mulVecAVX512(dst[:m], a[:m], b[:m])
		}
		if m != len(dst) {
			mulVecPCLMUL(dst[m:], a[m:], b[m:])
		}
	case implPCLMULQDQ:
		mulVecPCLMUL(dst, a, b)
	default:
		mulVecGeneric(dst, a, b)
	}
}

func scaleVec(dst, a []Element, c Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ 7
		if m != 0 {
			scaleVecAVX512(dst[:m], a[:m], c)
		}
		if m != len(dst) {
			scaleVecPCLMUL(dst[m:], a[m:], c)
		}
	case implPCLMULQDQ:
		scaleVecPCLMUL(dst, a, c)
	default:
		scaleVecGeneric(dst, a, c)
	}
}

func mulAddVec(dst, a []Element, c Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ 7
		if m != 0 {
			mulAddVecAVX512(dst[:m], a[:m], c)
		}
		if m != len(dst) {
			mulAddVecPCLMUL(dst[m:], a[m:], c)
		}
	case implPCLMULQDQ:
		mulAddVecPCLMUL(dst, a, c)
	default:
		mulAddVecGeneric(dst, a, c)
	}
}

func butterfly(u, v []Element, c Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(u) &^ 7
		if m != 0 {
			butterflyAVX512(u[:m], v[:m], c)
		}
		if m != len(u) {
			butterflyPCLMUL(u[m:], v[m:], c)
		}
	case implPCLMULQDQ:
		butterflyPCLMUL(u, v, c)
	default:
		butterflyGeneric(u, v, c)
	}
}

func invButterfly(u, v []Element, c Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(u) &^ 7
		if m != 0 {
			invButterflyAVX512(u[:m], v[:m], c)
		}
		if m != len(u) {
			invButterflyPCLMUL(u[m:], v[m:], c)
		}
	case implPCLMULQDQ:
		invButterflyPCLMUL(u, v, c)
	default:
		invButterflyGeneric(u, v, c)
	}
}
