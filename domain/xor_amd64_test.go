//go:build amd64 && !purego

package domain

import (
	"slices"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func TestXorKernels(t *testing.T) {
	r := newRand(t, 20)
	kernels := map[string]func(dst, src []gf64.Element){"sse2": xorSSE2}
	if useAVX512 {
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
				if !slices.Equal(dst, want) {
					t.Fatalf("%s: n=%d off=%d differs from xorGeneric", name, n, off)
				}
			}
		}
	}
}
