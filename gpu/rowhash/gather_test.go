package rowhash_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
