package prime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// eachNTT64 runs f as a subtest under every implementation of the
// Goldilocks kernels (internal/ntt64) this machine and build have.
func eachNTT64(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	cpufeat.Each("ntt64", func(name string) { t.Run(name, f) })
}

// TestGoldilocksMatchesGnark: Goldilocks transforms run on the module's own
// kernels; every size 2^0..2^16 (2^0..2^22 under GFPOLY_LONG, 2^0..2^14 with
// -short), every transform and order, under every kernel implementation,
// one column on two workers (so the sizes from 2^14 take the parallel path)
// and one, equal to
// gnark-crypto's Domain.FFT / FFTInverse on the same input. Batches of three
// columns up to 2^12, and a domain without precomputed tables and with
// another coset shift at a few sizes.
func TestGoldilocksMatchesGnark(t *testing.T) {
	f := goldilocksField()
	maxLog := testutil.Sweep(14, 16, 22)
	t.Logf("Goldilocks kernels: %v", cpufeat.Available("ntt64"))
	rng := rand.New(rand.NewPCG(22, 22))
	var shift goldilocks.Element
	shift.SetUint64(1 << 40)
	for logN := 0; logN <= maxLog; logN++ {
		n := 1 << logN
		ncols := 1
		if logN <= 12 {
			ncols = 3
		}
		var s *goldilocks.Element
		pre := true
		if logN%5 == 3 {
			s, pre = &shift, false
		}
		d := f.newDomain(uint64(n), pre, s)
		for _, o := range ops {
			// Natural is DIF followed by a bit reversal: one reference for both.
			for _, ord := range []Order{DIF, DIT} {
				in := randomCols[goldilocks.Element](rng, f, ncols, n)
				want := cloneCols(in)
				for _, c := range want {
					f.gnark(d, c, ord, o.inverse, o.coset)
				}
				var wantNat [][]goldilocks.Element
				if ord == DIF {
					wantNat = cloneCols(want)
					for _, c := range wantNat {
						c2 := permute(c)
						copy(c, c2)
					}
				}
				eachNTT64(t, func(t *testing.T) {
					for _, workers := range []int{2, 1} {
						e, err := NewGoldilocks(d.(*goldilocksfft.Domain), WithWorkers(workers))
						require.NoError(t, err)
						what := fmt.Sprintf("2^%d %s %v cols=%d workers=%d pre=%v", logN, o.name, ord, ncols, workers, pre)
						got := cloneCols(in)
						require.NoError(t, run(t, e, o, got, ord))
						equalCols(t, what, got, want)
						if wantNat != nil {
							got = cloneCols(in)
							require.NoError(t, run(t, e, o, got, Natural))
							equalCols(t, what+" Natural", got, wantNat)
						}
					}
				})
			}
		}
	}
}
