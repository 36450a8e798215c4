package rowhash_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/consensys/gnark-crypto/field/babybear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

// TestGather checks GatherRows against the columns on the host and
// GatherPaths against the node buffer read back whole.
func TestGather(t *testing.T) {
	d := gputest.Device(t)
	const rows, cols = 64, 5
	m := gputest.Words[gf64.Element](rows*cols, 3)
	dm := gputest.Upload(t, d, m)
	idx := []int{0, 63, 17, 17, 40}
	got, err := rowhash.GatherRows(nil, dm, rows, idx)
	require.NoError(t, err)
	for k, i := range idx {
		for c := range cols {
			assert.Equal(t, m[c*rows+i], got[k][c], "row %d column %d", i, c)
		}
	}
	_, err = rowhash.GatherRows(nil, dm, rows, []int{rows})
	require.ErrorIs(t, err, gpu.ErrLength)
	_, err = rowhash.GatherRows(nil, dm, 7, idx)
	require.ErrorIs(t, err, gpu.ErrLength)

	h, err := rowhash.New[gf64.Element](d, rows, 0, 1)
	require.NoError(t, err)
	defer h.Close()
	require.NoError(t, h.Absorb(nil, dm))
	nodes := gputest.Alloc[byte](t, d, (rows-1)*rowhash.DigestSize)
	require.NoError(t, h.Tree(nil, nodes))
	all := gputest.Download(t, nodes)
	paths, err := rowhash.GatherPaths(nil, nodes, rows, idx)
	require.NoError(t, err)
	for k, i := range idx {
		require.Len(t, paths[k], 5, "levels above the leaves' parents")
		off, width := 0, rows/2
		for j, p := range paths[k] {
			sib := (i >> (j + 1)) ^ 1
			assert.Equal(t, all[(off+sib)*32:(off+sib+1)*32], p, "leaf %d level %d", i, j+1)
			off += width
			width /= 2
		}
	}
	_, err = rowhash.GatherPaths(nil, nodes, rows/2, idx)
	require.ErrorIs(t, err, gpu.ErrLength)
}

// TestGatherBatch reads rows of two matrices (one of them a view inside
// a larger allocation, the other allocated after it) and the paths of a
// tree in one Gather, against the single reads; and checks the handles'
// and Run's errors.
func TestGatherBatch(t *testing.T) {
	d := gputest.Device(t)
	const rows = 32
	big := gputest.Upload(t, d, babyWords(3*rows*4+7, 5))
	a, err := big.View(7, rows*4) // 4 columns, at an odd offset
	require.NoError(t, err)
	b := gputest.Upload(t, d, babyWords(rows*3, 6))
	h, err := rowhash.New[babybear.Element](d, rows, 0, 1)
	require.NoError(t, err)
	defer h.Close()
	require.NoError(t, h.Absorb(nil, b))
	nodes := gputest.Alloc[byte](t, d, (rows-1)*rowhash.DigestSize)
	require.NoError(t, h.Tree(nil, nodes))

	ia, ib := []int{3, 31, 0, 3}, []int{9, 16}
	g := rowhash.NewGather(d)
	ra, err := rowhash.AddRows(g, a, rows, ia)
	require.NoError(t, err)
	pb, err := g.AddPaths(nodes, rows, ib)
	require.NoError(t, err)
	rb, err := rowhash.AddRows(g, b, rows, ib)
	require.NoError(t, err)
	empty, err := rowhash.AddRows(g, b, rows, nil)
	require.NoError(t, err)
	_, err = ra.Get()
	require.Error(t, err, "Get before Run")
	require.NoError(t, g.Run(nil))
	require.ErrorIs(t, g.Run(nil), gpu.ErrClosed, "Run twice")
	_, err = rowhash.AddRows(g, b, rows, ib)
	require.ErrorIs(t, err, gpu.ErrClosed, "Add after Run")

	wantA, err := rowhash.GatherRows(nil, a, rows, ia)
	require.NoError(t, err)
	wantB, err := rowhash.GatherRows(nil, b, rows, ib)
	require.NoError(t, err)
	wantP, err := rowhash.GatherPaths(nil, nodes, rows, ib)
	require.NoError(t, err)
	host := gputest.Download(t, big)
	for k, i := range ia {
		for c := range 4 {
			require.Equal(t, host[7+c*rows+i], wantA[k][c])
		}
	}
	got, err := ra.Get()
	require.NoError(t, err)
	assert.Equal(t, wantA, got)
	got, err = rb.Get()
	require.NoError(t, err)
	assert.Equal(t, wantB, got)
	paths, err := pb.Get()
	require.NoError(t, err)
	assert.Equal(t, wantP, paths)
	none, err := empty.Get()
	require.NoError(t, err)
	assert.Empty(t, none)

	// A buffer freed between Add and Run, and one on no device of the
	// Gather's.
	c, err := gpu.Alloc[babybear.Element](d, rows)
	require.NoError(t, err)
	g = rowhash.NewGather(d)
	rc, err := rowhash.AddRows(g, c, rows, []int{1})
	require.NoError(t, err)
	require.NoError(t, c.Free())
	require.ErrorIs(t, g.Run(nil), gpu.ErrClosed)
	_, err = rc.Get()
	require.ErrorIs(t, err, gpu.ErrClosed)
	_, err = rowhash.AddRows(rowhash.NewGather(nil), b, rows, []int{1})
	require.ErrorIs(t, err, gpu.ErrClosed)
	_, err = rowhash.AddRows(rowhash.NewGather(d), b, rows, []int{rows})
	require.ErrorIs(t, err, gpu.ErrLength)
	_, err = rowhash.NewGather(d).AddPaths(nodes, rows, []int{-1})
	require.ErrorIs(t, err, gpu.ErrLength)
}

// babyWords returns n BabyBear elements from gputest.Words.
func babyWords(n int, seed uint64) []babybear.Element {
	w := gputest.Words[uint32](n, seed)
	out := make([]babybear.Element, n)
	for i, x := range w {
		out[i].SetUint64(uint64(x))
	}
	return out
}
