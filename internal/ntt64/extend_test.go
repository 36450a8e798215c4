package ntt64

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestExtend: the extension equals the small inverse transform, the
// coefficients zero-padded, and the large forward coset transform (each
// checked against the definition in plan_test.go), for every blowup 2..16,
// sizes up to 2^14 (extensions to 2^15..2^18: past parallelMinLog and two
// levels of radix-4 passes above the leaves; 2^16 under GFPOLY_LONG, 2^12
// with -short), every implementation, one and four tasks.
func TestExtend(t *testing.T) {
	maxLog := testutil.Sweep(12, 14, 16)
	rng := rand.New(rand.NewPCG(13, 14))
	for logN := 0; logN <= maxLog; logN++ {
		small, err := NewPlan(logN, 3)
		require.NoError(t, err)
		for logB := 1; logB <= 4; logB++ {
			large, err := NewPlan(logN+logB, 7+uint64(logB))
			require.NoError(t, err)
			x, err := NewExtender(small, large)
			require.NoError(t, err)
			in := randVec(rng, 1<<logN)
			want := make([]uint64, 1<<(logN+logB))
			func() {
				defer cpufeat.Select("ntt64", "generic")()
				coef := append([]uint64(nil), in...)
				small.Transform(coef, false, true, false, 1)
				bitReverse(coef)
				copy(want, coef)
				large.Transform(want, false, false, true, 1)
				bitReverse(want)
			}()
			eachImpl(t, func(t *testing.T) {
				for _, tasks := range []int{1, 4} {
					a := make([]uint64, len(want))
					for i := range a {
						a[i] = rng.Uint64N(P) // garbage the extension must overwrite
					}
					copy(a[len(a)-len(in):], in)
					x.Extend(a, tasks)
					testutil.EqualSlices(t, want, a, "2^%d ×%d tasks=%d", logN, 1<<logB, tasks)
				}
			})
		}
	}
	p4, _ := NewPlan(4, 7)
	p9, _ := NewPlan(9, 7)
	for _, pair := range [][2]*Plan{{p4, p4}, {p9, p4}, {p4, p9}} {
		_, err := NewExtender(pair[0], pair[1])
		require.ErrorIs(t, err, ErrPlan, "2^%d -> 2^%d", pair[0].logN, pair[1].logN)
	}
}
