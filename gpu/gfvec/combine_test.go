package gfvec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/gfvec"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestCombine checks GF64.Combine against gf64.ScaleVec and MulAddVec on
// the CPU, for column counts around a launch's 32 coefficients, lengths
// off the block size, and its errors.
func TestCombine(t *testing.T) {
	d := gputest.Device(t)
	g, err := gfvec.NewGF64(d, gfvec.PerThread)
	require.NoError(t, err)
	for _, sh := range [][2]int{{1, 1}, {2, 7}, {31, 1000}, {32, 257}, {33, 4096}, {70, 3000}} {
		cols, n := sh[0], sh[1]
		x := gputest.Words[gf64.Element](cols*n, uint64(cols))
		alpha := gputest.Words[gf64.Element](cols, uint64(n))
		alpha[0] = 0 // a zero coefficient
		if cols > 1 {
			alpha[1] = 1
		}
		want := make([]gf64.Element, n)
		for j := range cols {
			gf64.MulAddVec(want, x[j*n:(j+1)*n], alpha[j])
		}
		dx, dst := gputest.Upload(t, d, x), gputest.Alloc[gf64.Element](t, d, n)
		require.NoError(t, g.Combine(nil, dst, dx, alpha))
		testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "%d columns of %d", cols, n)
	}
	x := gputest.Alloc[gf64.Element](t, d, 12)
	dst := gputest.Alloc[gf64.Element](t, d, 4)
	require.ErrorIs(t, g.Combine(nil, dst, x, make([]gf64.Element, 2)), gpu.ErrLength)
	require.ErrorIs(t, g.Combine(nil, dst, x, nil), gpu.ErrLength)
	v, err := x.View(0, 4)
	require.NoError(t, err)
	big, err := x.View(0, 8)
	require.NoError(t, err)
	require.ErrorIs(t, g.Combine(nil, v, big, make([]gf64.Element, 2)), gpu.ErrLength, "overlap")
}
