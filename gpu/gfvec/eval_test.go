package gfvec

import (
	"encoding/binary"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// randomSubspace returns a k-dimensional affine subspace with a random
// shift and basis.
func randomSubspace(t testing.TB, k int, seed uint64) *domain.Subspace {
	for try := uint64(0); ; try++ {
		w := gputest.Words[gf64.Element](k+1, seed*1000+try)
		s, err := domain.New(w[k], w[:k]...)
		if err == nil {
			return s
		}
		require.Less(t, try, uint64(10), "no independent basis")
	}
}

// evalRef is the barycentric formula on the CPU, with Z(z) and Z' as the
// plain products over the subspace; a point of the subspace gives the
// stored values.
func evalRef(cols []gf64.Element, stride, ncols int, sub *domain.Subspace, points []gf128.Element) []gf128.Element {
	n := sub.Size()
	xs := sub.Elements()
	out := make([]gf128.Element, len(points)*ncols)
	for p, z := range points {
		if i, ok := sub.Index(z.A0); ok && z.A1 == 0 {
			for c := range ncols {
				out[p*ncols+c] = gf128.Embed(cols[c*stride+i])
			}
			continue
		}
		w := make([]gf128.Element, n)
		Z := gf128.One
		for i, x := range xs {
			d := gf128.Add(z, gf128.Embed(x))
			w[i] = gf128.Inverse(d)
			Z = gf128.Mul(Z, d)
		}
		zp := gf64.Element(1)
		for _, x := range xs[1:] {
			zp = gf64.Mul(zp, x^sub.Shift())
		}
		sc := gf128.MulByBase(Z, gf64.Inverse(zp))
		var wg sync.WaitGroup
		for c := range ncols {
			wg.Go(func() {
				var acc gf128.Element
				for i := range n {
					acc = gf128.Add(acc, gf128.MulByBase(w[i], cols[c*stride+i]))
				}
				out[p*ncols+c] = gf128.Mul(acc, sc)
			})
		}
		wg.Wait()
	}
	return out
}

// horner evaluates at z the polynomial taking the values col[:n] on sub,
// through its monomial coefficients (domain's IFFT): an evaluation that
// shares nothing with the barycentric formula.
func horner(t testing.TB, col []gf64.Element, sub *domain.Subspace, z gf128.Element) gf128.Element {
	c := append([]gf64.Element(nil), col[:sub.Size()]...)
	require.NoError(t, sub.IFFT(c))
	var r gf128.Element
	for i := len(c) - 1; i >= 0; i-- {
		r = gf128.Add(gf128.Mul(r, z), gf128.Embed(c[i]))
	}
	return r
}

func TestGF128EvalSubspace(t *testing.T) {
	d := gputest.Device(t)
	g, err := NewGF128(d)
	require.NoError(t, err)
	type shape struct{ k, ncols, extra, npts int }
	shapes := []shape{{0, 1, 0, 2}, {0, 3, 5, 3}, {1, 2, 1, 3}, {2, 5, 6, 4}, {3, 1, 0, 3}, {4, 7, 3, 3},
		{5, 32, 0, 3}, {6, 33, 2, 3}, {7, 9, 128, 40}, {10, 32, 1024, 3}, {12, 70, 7, 2}, {13, 31, 0, 5}}
	if !testing.Short() {
		shapes = append(shapes, shape{16, 32, 1 << 16, 2}, shape{20, 32, 3 << 20, 1})
	}
	for si, sh := range shapes {
		sub := randomSubspace(t, sh.k, uint64(si)+1)
		n := sub.Size()
		stride := n + sh.extra
		// The columns' buffer ends with the last column's n rows.
		cols := gputest.Words[gf64.Element]((sh.ncols-1)*stride+n, uint64(si)+77)
		pts := words128(sh.npts, uint64(si)+55)
		// A point of the subspace, a base-field point outside it, an
		// extension point with A0 in the subspace, the shift itself.
		r := gputest.Words[uint64](4, uint64(si))
		in := int(r[0] % uint64(n))
		pts[0] = gf128.Embed(sub.Element(in))
		if sh.npts > 1 {
			for v := gf64.Element(r[1]); ; v++ {
				if !sub.Contains(v) {
					pts[1] = gf128.Embed(v)
					break
				}
			}
		}
		if sh.npts > 2 {
			pts[2] = gf128.Element{A0: sub.Element(n - 1), A1: gf64.Element(r[2]) | 1}
		}
		if sh.npts > 3 {
			pts[3] = gf128.Embed(sub.Shift())
		}
		if sh.npts > 35 {
			pts[35] = gf128.Embed(sub.Element(n / 2))
		}
		want := evalRef(cols, stride, sh.ncols, sub, pts)
		// The formula itself, against the monomial coefficients.
		if sh.k <= 13 {
			for _, c := range []int{0, sh.ncols - 1} {
				for p, z := range pts[:min(len(pts), 4)] {
					require.Equal(t, horner(t, cols[c*stride:], sub, z), want[p*sh.ncols+c], "reference formula, k=%d column %d point %d", sh.k, c, p)
				}
			}
		}
		dc := gputest.Upload(t, d, cols)
		dst := gputest.Alloc[gf128.Element](t, d, len(want))
		// Every chunk of rows per inversion: the size's own, 2 and 32.
		for _, lc := range []int{0, 1, 5} {
			g.logChunk = lc
			require.NoError(t, dst.Upload(words128(len(want), 3)))
			require.NoError(t, g.EvalSubspace(nil, dst, dc, stride, sub, pts))
			testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "EvalSubspace k=%d, %d columns, stride %d, %d points, chunk 2^%d",
				sh.k, sh.ncols, stride, sh.npts, lc)
		}
		g.logChunk = 0
		require.NoError(t, dc.Free())
		require.NoError(t, dst.Free())
	}
}

func TestGF128EvalSubspaceErrors(t *testing.T) {
	d := gputest.Device(t)
	g, err := NewGF128(d)
	require.NoError(t, err)
	sub := randomSubspace(t, 3, 9) // n = 8
	cols := gputest.Alloc[gf64.Element](t, d, 2*10+8)
	dst := gputest.Alloc[gf128.Element](t, d, 6)
	pts := words128(2, 1)
	require.NoError(t, g.EvalSubspace(nil, dst, cols, 10, sub, pts), "3 columns of stride 10")
	require.NoError(t, g.EvalSubspace(nil, dst, cols, 8, sub, pts), "3 columns of stride 8")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, 11, sub, pts), gpu.ErrLength, "third column past the end")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, 7, sub, pts), gpu.ErrLength, "stride below n")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, 0, sub, pts), gpu.ErrLength, "stride 0")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, -8, sub, pts), gpu.ErrLength, "negative stride")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, 10, sub, nil), gpu.ErrLength, "no points")
	require.ErrorIs(t, g.EvalSubspace(nil, dst, cols, 10, sub, words128(4, 1)), gpu.ErrLength, "6 results for 4 points")
	empty := gputest.Alloc[gf128.Element](t, d, 0)
	require.ErrorIs(t, g.EvalSubspace(nil, empty, cols, 10, sub, pts), gpu.ErrLength, "no results")
	short := gputest.Alloc[gf64.Element](t, d, 7)
	one := gputest.Alloc[gf128.Element](t, d, 1)
	require.ErrorIs(t, g.EvalSubspace(nil, one, short, 8, sub, pts[:1]), gpu.ErrLength, "columns shorter than n")
	assert.Error(t, g.EvalSubspace(nil, dst, cols, 10, nil, pts), "nil subspace")
	assert.Error(t, g.EvalSubspace(nil, nil, cols, 10, sub, pts), "nil dst")
	assert.Error(t, g.EvalSubspace(nil, dst, nil, 10, sub, pts), "nil columns")
	freed := gputest.Alloc[gf64.Element](t, d, 28)
	require.NoError(t, freed.Free())
	require.ErrorIs(t, g.EvalSubspace(nil, dst, freed, 10, sub, pts), gpu.ErrClosed, "freed columns")
}

// FuzzGF128EvalSubspace checks EvalSubspace on caller-shaped input: the
// bytes give the dimension, the column count, the stride's excess, the
// buffer's length off the columns' end, the points and the column values.
// Shapes that fit must match the CPU; the others must fail with
// gpu.ErrLength.
func FuzzGF128EvalSubspace(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{0, 1, 0, 0, 1})
	f.Add([]byte{6, 40, 3, 0xff, 3})
	f.Add([]byte{5, 1, 0, 1, 33})
	d := gputest.Device(f)
	g, err := NewGF128(d)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		k, ncols, extra, delta, npts := int(data[0]%9), int(data[1]%40)+1, int(data[2]%5), int(int8(data[3])), int(data[4]%36)
		rest := data[5:]
		sub := randomSubspace(t, k, uint64(data[0])+1)
		n := sub.Size()
		stride := n + extra
		size := (ncols-1)*stride + n
		length := max(0, size+delta%3)
		cols := make([]gf64.Element, length)
		for i := range cols {
			if 8*i+8 <= len(rest) {
				cols[i] = gf64.Element(binary.LittleEndian.Uint64(rest[8*i:]))
			} else {
				cols[i] = gf64.Element(i*0x9e3779b9 + 1)
			}
		}
		pts := words128(npts, uint64(len(data)))
		if npts > 0 && len(rest) > 0 {
			pts[0] = gf128.Embed(sub.Element(int(rest[0]) % n))
		}
		dc := gputest.Upload(t, d, cols)
		dst := gputest.Alloc[gf128.Element](t, d, npts*ncols)
		err := g.EvalSubspace(nil, dst, dc, stride, sub, pts)
		if npts == 0 || length < size {
			require.ErrorIs(t, err, gpu.ErrLength, "k=%d ncols=%d stride=%d len=%d npts=%d", k, ncols, stride, length, npts)
			return
		}
		require.NoError(t, err)
		testutil.RequireEqualSlices(t, evalRef(cols, stride, ncols, sub, pts), gputest.Download(t, dst), "k=%d ncols=%d stride=%d npts=%d", k, ncols, stride, npts)
	})
}
