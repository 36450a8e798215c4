package prover_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover"
)

// TestSpreadLDE: one column's LDE over 1 to 4 devices (logical devices on
// one GPU, or GPUs with -prover.gpus.ordinals) is domain.LDE's.
func TestSpreadLDE(t *testing.T) {
	shapes := [][2]int{{0, 1}, {2, 3}, {3, 5}, {10, 12}, {12, 16}, {16, 18}}
	if !testing.Short() {
		shapes = append(shapes, [2]int{22, 24})
	}
	for _, d := range []int{1, 2, 3, 4} {
		devs := openDevices(t, d)
		s, err := prover.NewSpreadLDE(devs...)
		require.NoError(t, err)
		for _, sh := range shapes {
			k, n := sh[0], sh[1]
			what := fmt.Sprintf("%d devices, 2^%d → 2^%d", d, k, n)
			from, to, err := prover.DefaultBinaryDomains(k, n-k)
			require.NoError(t, err)
			tr, err := prover.RandomTrace[gf64.Element](k, 1, uint64(k))
			require.NoError(t, err)
			want := make([]gf64.Element, to.Size())
			require.NoError(t, domain.LDE(want, tr[0], from, to))
			got := make([]gf64.Element, to.Size())
			require.NoError(t, s.LDE(got, tr[0], from, to), what)
			testutil.RequireEqualSlices(t, want, got, "%s: against domain.LDE (%d parts)", what, s.Parts(k, n))
			clear(got)
			require.NoError(t, s.LDE(got, tr[0], from, to), what)
			testutil.RequireEqualSlices(t, want, got, "%s: again, the tables kept", what)
		}
		from, to, err := prover.DefaultBinaryDomains(4, 2)
		require.NoError(t, err)
		assert.ErrorIs(t, s.LDE(make([]gf64.Element, 63), make([]gf64.Element, 16), from, to), prover.ErrShape)
		assert.ErrorIs(t, s.LDE(make([]gf64.Element, 16), make([]gf64.Element, 64), to, from), prover.ErrShape)
		require.NoError(t, s.Close())
		assert.ErrorIs(t, s.LDE(make([]gf64.Element, 64), make([]gf64.Element, 16), from, to), prover.ErrUnavailable)
	}
	_, err := prover.NewSpreadLDE()
	require.ErrorIs(t, err, prover.ErrConfig)
}

var spreadLog = flag.Int("prover.spread.log", 26, "BenchmarkSpreadLDE's LDE: 2^(log−2) elements to 2^log (30: the issue's 2^30 target, 8 GiB out)")

// BenchmarkSpreadLDE: one GF(2^64) column's LDE at blowup 4, host to host,
// on 1, 2 and 4 devices. On one GPU opened as logical devices this shows the
// overhead of the split (each part repeats the inverse transform), not a
// speed-up; -prover.gpus.ordinals opens physical GPUs (1, 2, 4 … as many as
// -prover.gpus.max allows and the machine has).
func BenchmarkSpreadLDE(b *testing.B) {
	n := *spreadLog
	devs := openUpTo(b, *multiMax)
	from, to, err := prover.DefaultBinaryDomains(n-2, 2)
	require.NoError(b, err)
	src := make([]gf64.Element, from.Size())
	r := rand.New(rand.NewPCG(uint64(n), 1))
	for i := range src {
		src[i] = gf64.Element(r.Uint64())
	}
	dst := make([]gf64.Element, to.Size())
	for _, d := range deviceCounts(devs) {
		b.Run(fmt.Sprintf("2^%d→2^%d/%d", n-2, n, d), func(b *testing.B) {
			s, err := prover.NewSpreadLDE(devs[:d]...)
			require.NoError(b, err)
			defer s.Close()
			require.NoError(b, s.LDE(dst, src, from, to))
			b.SetBytes(int64(8 * to.Size()))
			for b.Loop() {
				require.NoError(b, s.LDE(dst, src, from, to))
			}
		})
	}
}
