//go:build amd64 && !purego

package gf128

import (
	"golang.org/x/sys/cpu"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// CPU support, read once. The PCLMULQDQ kernels use SSE2, SSSE3 (PSHUFB) and
// PCLMULQDQ; the AVX-512 kernels use AVX-512F, AVX-512BW (VPSHUFB) and
// VPCLMULQDQ on 512-bit registers. x/sys/cpu also checks that the OS saves
// the registers.
var (
	hasPCLMULQDQ = cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSSE3
	hasAVX512    = hasPCLMULQDQ && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VPCLMULQDQ
)

var implAvailable = [numImpls]bool{implGeneric: true, implPCLMULQDQ: hasPCLMULQDQ, implAVX512: hasAVX512}

// reduceTable[t] = (t ^ t>>1 ^ t>>3)·0x1b for t < 16: for a high half H
// whose top four bits are t, the part of H·x^64 that spills past x^63 in
// H·0x1b, reduced once more (gf64 uses the same table). The kernels look it
// up with PSHUFB. TestReduceTable recomputes it.
var reduceTable = [16]byte{
	0x00, 0x1b, 0x2d, 0x36, 0x5a, 0x41, 0x77, 0x6c,
	0xaf, 0xb4, 0x82, 0x99, 0xf5, 0xee, 0xd8, 0xc3,
}

// cTimes holds x^63 = C and x^127 mod (x^64 + x^4 + x^3 + x + 1): for a
// carry-less product m = h·x^64 + l, C·m ≡ l·x^63 + h·(x^127 mod P), two
// carry-less products that the kernels add to a0b0 before its one
// reduction. TestCTimes recomputes it.
var cTimes = [2]uint64{1 << 63, 0x80000000000000af}

//go:noescape
func mulPCLMUL(a, b Element) Element

//go:noescape
func mulVecPCLMUL(dst, a, b []Element)

//go:noescape
func scaleVecPCLMUL(dst, a []Element, c, k Element)

//go:noescape
func mulByBaseVecPCLMUL(dst, a []Element, b []gf64.Element)

//go:noescape
func combineBasePCLMUL(dst []Element, cols [][]gf64.Element, coeffs []Element, off int, add bool)

//go:noescape
func mulVecAVX512(dst, a, b []Element)

//go:noescape
func scaleVecAVX512(dst, a []Element, c, k Element)

//go:noescape
func mulByBaseVecAVX512(dst, a []Element, b []gf64.Element)

//go:noescape
func combineBaseAVX512(dst []Element, cols [][]gf64.Element, coeffs []Element, off int, add bool)

// The dispatchers below are called with slices of equal length (checked by
// the exported functions). Scalar Mul uses PCLMULQDQ on both assembly paths:
// a single product gains nothing from 512-bit registers. The AVX-512 kernels
// take a multiple of avx512Block elements (rows, for combineBase); the
// PCLMULQDQ kernels do the rest, and all of a shorter vector.

const avx512Block = 8

func mul(a, b Element) Element {
	if impl.Index() != implGeneric {
		return mulPCLMUL(a, b)
	}
	return mulGeneric(a, b)
}

func mulVec(dst, a, b []Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ (avx512Block - 1)
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

// scaleConst returns the second constant of the by-c kernels,
// (C·c1) + (c0 + c1)·y read as a pair: a·c = (a0c0 + a1·C c1) + (a0c1 +
// a1(c0 + c1)) y, four carry-less products and two reductions.
func scaleConst(c Element) Element { return Element{mulByC(c.A1), c.A0 ^ c.A1} }

func scaleVec(dst, a []Element, c Element) {
	switch impl.Index() {
	case implAVX512:
		k := scaleConst(c)
		m := len(dst) &^ (avx512Block - 1)
		if m != 0 {
			scaleVecAVX512(dst[:m], a[:m], c, k)
		}
		if m != len(dst) {
			scaleVecPCLMUL(dst[m:], a[m:], c, k)
		}
	case implPCLMULQDQ:
		scaleVecPCLMUL(dst, a, c, scaleConst(c))
	default:
		scaleVecGeneric(dst, a, c)
	}
}

func mulByBaseVec(dst, a []Element, b []gf64.Element) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ (avx512Block - 1)
		if m != 0 {
			mulByBaseVecAVX512(dst[:m], a[:m], b[:m])
		}
		if m != len(dst) {
			mulByBaseVecPCLMUL(dst[m:], a[m:], b[m:])
		}
	case implPCLMULQDQ:
		mulByBaseVecPCLMUL(dst, a, b)
	default:
		mulByBaseVecGeneric(dst, a, b)
	}
}

// combineBase needs at least one column. The kernels compute rows off to
// len(dst)−1 (reading the same rows of every column); the AVX-512 kernel takes
// the rows below a multiple of avx512Block and the PCLMULQDQ kernel the rest.
func combineBase(dst []Element, cols [][]gf64.Element, coeffs []Element, add bool) {
	switch impl.Index() {
	case implAVX512:
		m := len(dst) &^ (avx512Block - 1)
		if m != 0 {
			combineBaseAVX512(dst[:m], cols, coeffs, 0, add)
		}
		if m != len(dst) {
			combineBasePCLMUL(dst, cols, coeffs, m, add)
		}
	case implPCLMULQDQ:
		combineBasePCLMUL(dst, cols, coeffs, 0, add)
	default:
		combineBaseGeneric(dst, cols, coeffs, add)
	}
}

// spreadIdx are the VPERMQ indices that spread eight GF(2^64) values b0..b7
// over two registers of four 128-bit lanes, b_i in the low qword of lane
// i mod 4 (the high qword, unused, gets a copy).
var spreadIdx = [16]uint64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7}

// interleaveIdx are the VPERMT2Q indices that put the results of CombineBase's
// even rows (first table, lanes r, r+2, r+4, r+6) and odd rows (second table)
// back in row order, four rows per register.
var interleaveIdx = [16]uint64{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15}
