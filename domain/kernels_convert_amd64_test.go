//go:build amd64 && !purego

package domain

import (
	"slices"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestXorKernels(t *testing.T) {
	r := newRand(t, 20)
	kernels := map[string]func(dst, src []gf64.Element){"sse2": xorSSE2}
	if avx512Available {
		kernels["avx512"] = xorAVX512
	}
	for name, k := range kernels {
		t.Logf("XOR kernel %s", name)
		for n := 0; n <= 140; n++ {
			for off := 0; off < 3; off++ {
				dst, src := randVec(r, n+off), randVec(r, n+off)
				want := slices.Clone(dst)
				xorGeneric(want[off:], src[off:])
				k(dst[off:], src[off:])
				testutil.RequireEqualSlices(t, want, dst, "%s: n=%d off=%d against xorGeneric", name, n, off)
			}
		}
	}
}

func TestTaylor3Kernels(t *testing.T) {
	if !avx512Available {
		t.Skip("no AVX-512 on this machine: the generic code ran in every test")
	}
	r := newRand(t, 21)
	for _, seg := range []int{8, 16, 64, 256} {
		for _, w := range []int{8, 16, seg} {
			for o := 0; o+w <= seg; o += max(8, seg/2) {
				a := randVec(r, 16*seg)
				want := slices.Clone(a)
				taylor3Generic(want, o, w)
				got := slices.Clone(a)
				taylor3AVX512(&got[o], seg, w)
				testutil.RequireEqualSlices(t, want, got, "taylor3AVX512 seg=%d o=%d w=%d against taylor3Generic", seg, o, w)
				untaylor3AVX512(&got[o], seg, w)
				testutil.RequireEqualSlices(t, a, got, "untaylor3AVX512 seg=%d o=%d w=%d undoes taylor3AVX512", seg, o, w)
			}
		}
	}
}

func TestTaylorLowKernels(t *testing.T) {
	if !avx512Available {
		t.Skip("no AVX-512 on this machine: the generic code ran in every test")
	}
	r := newRand(t, 22)
	for _, blocks := range []int{1, 3} {
		for s := 1; s <= 2*lowN; s *= 2 {
			a := randVec(r, blocks*lowN)
			want := slices.Clone(a)
			taylorLowGeneric(want, s)
			got := slices.Clone(a)
			taylorLowAVX512(&got[0], blocks, s)
			testutil.RequireEqualSlices(t, want, got, "taylorLowAVX512 blocks=%d s=%d against taylorLowGeneric", blocks, s)
			untaylorLowAVX512(&got[0], blocks, s)
			testutil.RequireEqualSlices(t, a, got, "untaylorLowAVX512 blocks=%d s=%d undoes taylorLowAVX512", blocks, s)
		}
	}
}

func TestGatherKernels(t *testing.T) {
	if !avx512Available {
		t.Skip("no AVX-512 on this machine: the generic code ran in every test")
	}
	r := newRand(t, 23)
	for _, stride := range []int{32, 64, 96, 1024} {
		for _, rows := range []int{1, 2, 17} {
			a := randVec(r, (rows-1)*stride+32)
			want := make([]gf64.Element, 32*rows)
			gatherRowsGeneric(want, a, stride)
			got := make([]gf64.Element, 32*rows)
			gatherAVX512(&got[0], &a[0], rows, stride)
			testutil.RequireEqualSlices(t, want, got, "gatherAVX512 rows=%d stride=%d against gatherRowsGeneric", rows, stride)
			b := randVec(r, 32*rows)
			wantA, gotA := slices.Clone(a), slices.Clone(a)
			scatterRowsGeneric(wantA, b, stride)
			scatterAVX512(&gotA[0], &b[0], rows, stride)
			testutil.RequireEqualSlices(t, wantA, gotA, "scatterAVX512 rows=%d stride=%d against scatterRowsGeneric", rows, stride)
		}
	}
}
