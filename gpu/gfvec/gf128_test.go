package gfvec

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// words128 returns n deterministic pseudo-random GF(2^128) elements.
func words128(n int, seed uint64) []gf128.Element {
	w := gputest.Words[gf64.Element](2*n, seed)
	out := make([]gf128.Element, n)
	for i := range out {
		out[i] = gf128.Element{A0: w[2*i], A1: w[2*i+1]}
	}
	return out
}

// edges128 are values that catch carries, reductions and the y² = y + C
// folding: 0, 1, y, y + 1, the top bits, all ones, C.
var edges128 = []gf128.Element{
	{}, gf128.One, gf128.Y, {A0: 1, A1: 1}, {A0: 1 << 63}, {A1: 1 << 63},
	{A0: ^gf64.Element(0), A1: ^gf64.Element(0)}, {A0: gf128.C}, {A0: 0x1b, A1: 0x8000000000000001},
}

func TestGF128Kernels(t *testing.T) {
	d := gputest.Device(t)
	g, err := NewGF128(d)
	require.NoError(t, err)
	sz := []int{1, 2, 31, 32, 33, 1000, 4097, 1 << 20}
	if !testing.Short() {
		sz = append(sz, 1<<22+5)
	}
	for _, n := range sz {
		a, b := words128(n, uint64(n)*7+1), words128(n, uint64(n)*7+2)
		base := gputest.Words[gf64.Element](n, uint64(n)*7+3)
		c := gf128.Element{A0: 0x9e3779b97f4a7c15 ^ gf64.Element(n), A1: 0x0123456789abcdef}
		for i := 0; i < len(edges128) && i < n; i++ {
			a[i] = edges128[i]
			b[n-1-i] = edges128[i]
		}
		if n > 3 {
			base[1] = 0
			base[2] = 1
		}
		// Zeros for BatchInverse, at the front, in the middle and at the end
		// of a thread's chunk.
		inv := append([]gf128.Element(nil), a...)
		for _, i := range []int{0, n / 2, n - 1, 5 * n / 7} {
			if i < n {
				inv[i] = gf128.Zero
			}
		}
		wantMul, wantScale, wantBase, wantInv := make([]gf128.Element, n), make([]gf128.Element, n), make([]gf128.Element, n), make([]gf128.Element, n)
		parallel(n, func(lo, hi int) {
			gf128.MulVec(wantMul[lo:hi], a[lo:hi], b[lo:hi])
			gf128.ScaleVec(wantScale[lo:hi], a[lo:hi], c)
			gf128.MulByBaseVec(wantBase[lo:hi], a[lo:hi], base[lo:hi])
			gf128.BatchInverse(wantInv[lo:hi], inv[lo:hi])
		})
		da, db, dbase, dinv := gputest.Upload(t, d, a), gputest.Upload(t, d, b), gputest.Upload(t, d, base), gputest.Upload(t, d, inv)
		dd := gputest.Alloc[gf128.Element](t, d, n)
		poison := words128(n, 99)
		check := func(op string, want []gf128.Element) {
			t.Helper()
			testutil.RequireEqualSlices(t, want, gputest.Download(t, dd), "GF128 %s n=%d", op, n)
		}
		require.NoError(t, dd.Upload(poison))
		require.NoError(t, g.MulVec(nil, dd, da, db))
		check("MulVec", wantMul)
		require.NoError(t, dd.Upload(poison))
		require.NoError(t, g.ScaleVec(nil, dd, da, c))
		check("ScaleVec", wantScale)
		require.NoError(t, dd.Upload(poison))
		require.NoError(t, g.MulByBaseVec(nil, dd, da, dbase))
		check("MulByBaseVec", wantBase)
		require.NoError(t, dd.Upload(poison))
		require.NoError(t, g.BatchInverse(nil, dd, dinv))
		check("BatchInverse", wantInv)
		// In place.
		require.NoError(t, g.BatchInverse(nil, dinv, dinv))
		testutil.RequireEqualSlices(t, wantInv, gputest.Download(t, dinv), "BatchInverse in place n=%d", n)
		require.NoError(t, dd.Upload(a))
		require.NoError(t, g.MulVec(nil, dd, dd, db))
		check("MulVec in place", wantMul)
		require.NoError(t, dd.Upload(a))
		require.NoError(t, g.MulByBaseVec(nil, dd, dd, dbase))
		check("MulByBaseVec in place", wantBase)
		for _, x := range []*gpu.Buffer[gf128.Element]{da, db, dinv, dd} {
			require.NoError(t, x.Free())
		}
		require.NoError(t, dbase.Free())
	}
}

// TestGF128CombineBase checks CombineBase against gf128.CombineBase for
// column counts around a launch's 32 coefficients and lengths off the block
// size.
func TestGF128CombineBase(t *testing.T) {
	d := gputest.Device(t)
	g, err := NewGF128(d)
	require.NoError(t, err)
	shapes := [][2]int{{1, 1}, {2, 7}, {3, 1}, {31, 1000}, {32, 257}, {33, 4096}, {70, 3000}, {32, 1 << 16}}
	if !testing.Short() {
		shapes = append(shapes, [2]int{32, 1<<20 + 3})
	}
	for _, sh := range shapes {
		ncols, n := sh[0], sh[1]
		x := gputest.Words[gf64.Element](ncols*n, uint64(ncols)*131+uint64(n))
		alpha := words128(ncols, uint64(n))
		for i := 0; i < len(edges128) && i < ncols; i++ {
			alpha[i] = edges128[i]
		}
		cols := make([][]gf64.Element, ncols)
		for j := range cols {
			cols[j] = x[j*n : (j+1)*n]
		}
		want := make([]gf128.Element, n)
		parallel(n, func(lo, hi int) {
			sub := make([][]gf64.Element, ncols)
			for j := range sub {
				sub[j] = cols[j][lo:hi]
			}
			gf128.CombineBase(want[lo:hi], sub, alpha)
		})
		dx, dst := gputest.Upload(t, d, x), gputest.Upload(t, d, words128(n, 5))
		require.NoError(t, g.CombineBase(nil, dst, dx, alpha))
		testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "CombineBase: %d columns of %d", ncols, n)
		require.NoError(t, dx.Free())
		require.NoError(t, dst.Free())
	}
}

func TestGF128Errors(t *testing.T) {
	_, err := NewGF128(nil)
	require.ErrorIs(t, err, gpu.ErrNoDevice)
	d := gputest.Device(t)
	g, err := NewGF128(d)
	require.NoError(t, err)
	a, b := gputest.Alloc[gf128.Element](t, d, 10), gputest.Alloc[gf128.Element](t, d, 11)
	base := gputest.Alloc[gf64.Element](t, d, 11)
	assert.ErrorIs(t, g.MulVec(nil, a, a, b), gpu.ErrLength, "MulVec of lengths 10 and 11")
	assert.ErrorIs(t, g.ScaleVec(nil, b, a, gf128.One), gpu.ErrLength, "ScaleVec of lengths 11 and 10")
	assert.ErrorIs(t, g.MulByBaseVec(nil, a, a, base), gpu.ErrLength, "MulByBaseVec of lengths 10 and 11")
	assert.ErrorIs(t, g.BatchInverse(nil, a, b), gpu.ErrLength, "BatchInverse of lengths 10 and 11")
	assert.Error(t, g.MulVec(nil, a, a, nil), "nil buffer accepted")
	assert.Error(t, g.MulByBaseVec(nil, a, a, nil), "nil buffer accepted")
	e := gputest.Alloc[gf128.Element](t, d, 10)
	require.NoError(t, e.Free())
	assert.ErrorIs(t, g.MulVec(nil, a, a, e), gpu.ErrClosed, "freed buffer")
	assert.ErrorIs(t, g.BatchInverse(nil, e, a), gpu.ErrClosed, "freed buffer")
	z := gputest.Alloc[gf128.Element](t, d, 0)
	assert.NoError(t, g.MulVec(nil, z, z, z), "empty MulVec")
	assert.NoError(t, g.BatchInverse(nil, z, z), "empty BatchInverse")

	// CombineBase: lengths, no coefficients, overlap.
	x := gputest.Alloc[gf64.Element](t, d, 12)
	dst := gputest.Alloc[gf128.Element](t, d, 4)
	require.ErrorIs(t, g.CombineBase(nil, dst, x, make([]gf128.Element, 2)), gpu.ErrLength)
	require.ErrorIs(t, g.CombineBase(nil, dst, x, make([]gf128.Element, 5)), gpu.ErrLength)
	require.ErrorIs(t, g.CombineBase(nil, dst, x, nil), gpu.ErrLength)
	require.ErrorIs(t, g.CombineBase(nil, z, x, make([]gf128.Element, 3)), gpu.ErrLength)
	// A view of the columns: 8 columns of 2.
	big := gputest.Alloc[gf64.Element](t, d, 64)
	v, err := big.View(0, 16)
	require.NoError(t, err)
	two := gputest.Alloc[gf128.Element](t, d, 2)
	require.NoError(t, g.CombineBase(nil, two, v, make([]gf128.Element, 8)))
	x.Free()
	require.ErrorIs(t, g.CombineBase(nil, dst, x, make([]gf128.Element, 3)), gpu.ErrClosed)
	err = g.CombineBase(nil, dst, nil, make([]gf128.Element, 3))
	assert.True(t, err != nil && !errors.Is(err, gpu.ErrNoDevice), "nil columns: %v", err)
}

// TestGF128ClosedDevice checks that a closed device gives no kernels.
func TestGF128ClosedDevice(t *testing.T) {
	gputest.Device(t)
	d, err := gpu.Open(gpu.WithoutCache())
	require.NoError(t, err)
	require.NoError(t, d.Close())
	_, err = NewGF128(d)
	assert.ErrorIs(t, err, gpu.ErrClosed, "NewGF128 on a closed device")
}
