package domain

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestEveryGF64Impl runs the transforms under every gf64 implementation and
// every kernel set of this package (cpufeat "domain") this machine supports
// and checks them against Horner's rule and each other.
func TestEveryGF64Impl(t *testing.T) {
	r := newRand(t, 30)
	s := randSubspace(t, r, 11, 0)
	from, err := s.Sub(9)
	require.NoError(t, err)
	c := randVec(r, s.Size())
	var ref [][]gf64.Element // FFT, NovelFFT and LDE under the first implementation
	cpufeat.Each("gf64", func(g string) {
		cpufeat.Each("domain", func(d string) {
			name := "gf64=" + g + " domain=" + d
			t.Logf("implementations %s", name)
			a := slices.Clone(c)
			require.NoError(t, s.FFT(a))
			for range 32 {
				i := r.IntN(len(a))
				require.Equal(t, horner(c, s.Element(i)), a[i], "%s: FFT[%d] against Horner's rule", name, i)
			}
			got := [][]gf64.Element{slices.Clone(a)}
			require.NoError(t, s.IFFT(a))
			testutil.RequireEqualSlices(t, c, a, "%s: IFFT(FFT(c))", name)
			b := slices.Clone(c)
			require.NoError(t, s.NovelFFT(b))
			dst := slices.Clone(c)
			require.NoError(t, LDE(dst, c[:from.Size()], from, s))
			got = append(got, b, dst)
			if ref == nil {
				ref = got
			} else {
				testutil.RequireEqualColumns(t, ref, got, "%s: FFT, NovelFFT and LDE against the first implementation", name)
			}
		})
	})
}
