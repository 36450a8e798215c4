//go:build amd64 && !purego

package ntt64

import "golang.org/x/sys/cpu"

// The AVX-512 kernels use AVX-512F only (512-bit integer arithmetic,
// unsigned compares into mask registers, VPMINUQ, VPTERNLOGQ, VPERMT2Q).
// x/sys/cpu also checks that the OS saves the registers.
var hasAVX512 = cpu.X86.HasAVX512F

var avx512Kernels = kernelSet{
	name:      "avx512",
	difRadix2: difRadix2Asm, ditRadix2: ditRadix2Asm,
	difRadix4: difRadix4Asm, ditRadix4: ditRadix4Asm,
	difTail: difTailAsm, ditHead: ditHeadAsm,
	mulVec: mulVecAsm, scaleVec: scaleVecAsm,
}

var (
	asmKernels          = []*kernelSet{&avx512Kernels}
	asmKernelsAvailable = []bool{hasAVX512}
)

//go:noescape
func difRadix4AVX512(a []uint64, q, j0, j1 int, tw []uint64)

//go:noescape
func ditRadix4AVX512(a []uint64, q, j0, j1 int, tw []uint64)

//go:noescape
func difRadix2AVX512(a []uint64, m int, tw []uint64)

//go:noescape
func ditRadix2AVX512(a []uint64, m int, tw []uint64)

//go:noescape
func difTailAVX512(a, tw []uint64)

//go:noescape
func ditHeadAVX512(a, tw []uint64)

//go:noescape
func mulVecAVX512(a, b []uint64)

//go:noescape
func scaleVecAVX512(a []uint64, c uint64)

// The wrappers hand the assembly the shapes it handles (multiples of 8, and
// twiddle tables long enough, which the slicing checks) and the rest to the
// generic kernels.

func difRadix4Asm(a []uint64, q, j0, j1 int, tw []uint64) {
	if q%8 != 0 || j0%8 != 0 || j1%8 != 0 || j1 > q || j0 >= j1 {
		difRadix4Generic(a, q, j0, j1, tw)
		return
	}
	difRadix4AVX512(a[:len(a)/(4*q)*(4*q)], q, j0, j1, tw[:4*q])
}

func ditRadix4Asm(a []uint64, q, j0, j1 int, tw []uint64) {
	if q%8 != 0 || j0%8 != 0 || j1%8 != 0 || j1 > q || j0 >= j1 {
		ditRadix4Generic(a, q, j0, j1, tw)
		return
	}
	ditRadix4AVX512(a[:len(a)/(4*q)*(4*q)], q, j0, j1, tw[:4*q])
}

func difRadix2Asm(a []uint64, m int, tw []uint64) {
	if m%8 != 0 {
		difRadix2Generic(a, m, tw)
		return
	}
	difRadix2AVX512(a[:len(a)/(2*m)*(2*m)], m, tw[:2*m])
}

func ditRadix2Asm(a []uint64, m int, tw []uint64) {
	if m%8 != 0 {
		ditRadix2Generic(a, m, tw)
		return
	}
	ditRadix2AVX512(a[:len(a)/(2*m)*(2*m)], m, tw[:2*m])
}

func difTailAsm(a, tw []uint64) {
	m := len(a) &^ 15
	if m != 0 {
		difTailAVX512(a[:m], tw[:8])
	}
	difTailGeneric(a[m:], tw)
}

func ditHeadAsm(a, tw []uint64) {
	m := len(a) &^ 15
	if m != 0 {
		ditHeadAVX512(a[:m], tw[:8])
	}
	ditHeadGeneric(a[m:], tw)
}

func mulVecAsm(a, b []uint64) {
	b = b[:len(a)]
	m := len(a) &^ 7
	if m != 0 {
		mulVecAVX512(a[:m], b[:m])
	}
	mulVecGeneric(a[m:], b[m:])
}

func scaleVecAsm(a []uint64, c uint64) {
	m := len(a) &^ 7
	if m != 0 {
		scaleVecAVX512(a[:m], c)
	}
	scaleVecGeneric(a[m:], c)
}
