//go:build amd64 && !purego

package ntt64

import "golang.org/x/sys/cpu"

// The AVX-512 kernels use AVX-512F only (512-bit integer arithmetic,
// unsigned compares into mask registers, VPMINUQ, VPTERNLOGQ, VPERMT2Q).
// x/sys/cpu also checks that the OS saves the registers.
var hasAVX512 = cpu.X86.HasAVX512F

var avx512Kernels = kernelSet{
	name:        "avx512",
	difRadix2:   difRadix2Asm,
	ditRadix2:   ditRadix2Asm,
	difRadix4:   difRadix4Asm,
	ditRadix4:   ditRadix4Asm,
	difTail:     difTailAsm,
	ditHead:     ditHeadAsm,
	replicate:   replicateAsm,
	bitrevTiles: bitrevTilesAsm,
	mulVec:      mulVecAsm,
	scaleVec:    scaleVecAsm,
}

var (
	asmKernels          = []*kernelSet{&avx512Kernels}
	asmKernelsAvailable = []bool{hasAVX512}
)

//go:noescape
func difRadix4AVX512(a []uint64, q, j0, j1 int, tw, tw3 []uint64, neg int)

//go:noescape
func ditRadix4AVX512(a []uint64, q, j0, j1 int, tw, tw3 []uint64, neg int)

//go:noescape
func difRadix2AVX512(a []uint64, m int, tw []uint64)

//go:noescape
func ditRadix2AVX512(a []uint64, m int, tw []uint64)

//go:noescape
func difTailAVX512(a []uint64, inv int)

//go:noescape
func ditHeadAVX512(a []uint64, inv, skip int)

//go:noescape
func replicateAVX512(dst, src []uint64, logB int)

//go:noescape
func bitrevTilesAVX512(x, y *uint64, stride int)

//go:noescape
func mulVecAVX512(a, b []uint64)

//go:noescape
func scaleVecAVX512(a []uint64, c uint64)

// The wrappers hand the assembly the shapes it handles (multiples of 8, and
// twiddle tables long enough, which the slicing checks) and the rest to the
// generic kernels.

// omega4Sign returns 0 when tw[3] = ω_4 is 2^48 (the forward root), 1 when
// it is −2^48 (the inverse one), and −1 otherwise (a table the assembly
// does not know).
func omega4Sign(tw []uint64) int {
	switch tw[3] {
	case 1 << 48:
		return 0
	case P - 1<<48:
		return 1
	}
	return -1
}

func difRadix4Asm(a []uint64, q, j0, j1 int, tw, tw3 []uint64) {
	neg := omega4Sign(tw)
	if q%8 != 0 || j0%8 != 0 || j1%8 != 0 || j1 > q || j0 >= j1 || neg < 0 {
		difRadix4Generic(a, q, j0, j1, tw, tw3)
		return
	}
	difRadix4AVX512(a[:len(a)/(4*q)*(4*q)], q, j0, j1, tw[:4*q], tw3[:2*q], neg)
}

func ditRadix4Asm(a []uint64, q, j0, j1 int, tw, tw3 []uint64) {
	neg := omega4Sign(tw)
	if q%8 != 0 || j0%8 != 0 || j1%8 != 0 || j1 > q || j0 >= j1 || neg < 0 {
		ditRadix4Generic(a, q, j0, j1, tw, tw3)
		return
	}
	ditRadix4AVX512(a[:len(a)/(4*q)*(4*q)], q, j0, j1, tw[:4*q], tw3[:2*q], neg)
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

// smallRoots returns 0 when tw[3], tw[5..7] are the forward roots the
// 8-point kernels have built in (ω_4 = 2^48, ω_8 = −2^24, ω_8^2 = 2^48,
// ω_8^3 = −2^72), 1 for the inverse ones, −1 for any other table.
func smallRoots(tw []uint64) int {
	switch [4]uint64{tw[3], tw[5], tw[6], tw[7]} {
	case smallRootsFwd:
		return 0
	case smallRootsInv:
		return 1
	}
	return -1
}

var (
	smallRootsFwd = [4]uint64{1 << 48, P - 1<<24, 1 << 48, P - exp(2, 72)}
	smallRootsInv = [4]uint64{P - 1<<48, exp(2, 72), P - 1<<48, 1 << 24}
)

func difTailAsm(a, tw []uint64) {
	inv := smallRoots(tw)
	m := len(a) &^ 63
	if inv < 0 {
		m = 0
	}
	if m != 0 {
		difTailAVX512(a[:m], inv)
	}
	difTailGeneric(a[m:], tw)
}

func ditHeadAsm(a, tw []uint64, skip int) {
	inv := smallRoots(tw)
	m := len(a) &^ 63
	if inv < 0 || skip < 0 || skip > 2 {
		m = 0
	}
	if m != 0 {
		ditHeadAVX512(a[:m], inv, skip)
	}
	ditHeadGeneric(a[m:], tw, skip)
}

func replicateAsm(dst, src []uint64, logB int) {
	if logB < 1 || logB > 4 || len(src)<<logB&7 != 0 {
		replicateGeneric(dst, src, logB)
		return
	}
	replicateAVX512(dst[:len(src)<<logB], src, logB)
}

func bitrevTilesAsm(x, y []uint64, stride int) {
	// the slicing checks that both tiles are inside their slices
	_, _ = x[7*stride+7], y[7*stride+7]
	bitrevTilesAVX512(&x[0], &y[0], stride)
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
