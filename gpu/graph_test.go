package gpu

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestGraph captures two launches and a copy into a graph, queues it three
// times on two streams and checks the result against the same work done
// once per launch; the default stream cannot be captured, f's error
// leaves no graph, and a closed graph is refused.
func TestGraph(t *testing.T) {
	d := testDevice(t)
	m, err := d.LoadModule("addc.cu", testKernel)
	require.NoError(t, err)
	f, err := m.Function("addc")
	require.NoError(t, err)
	const n = 3000
	b, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	defer b.Free()
	c, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	defer c.Free()
	src := randomWords[uint32](n, 5)
	require.NoError(t, b.Upload(src))
	s1, err := d.NewStream()
	require.NoError(t, err)
	defer s1.Close()
	s2, err := d.NewStream()
	require.NoError(t, err)
	defer s2.Close()
	grid, block := Dim3{X: (n + 255) / 256}, Dim3{X: 256}
	work := func(q *Queue) error {
		if err := q.Launch(f, grid, block, 0, b, uint32(7), uint64(n)); err != nil {
			return err
		}
		if err := q.Launch(f, grid, block, 0, b, uint32(9), uint64(n)); err != nil {
			return err
		}
		return q.Copy(c.Ptr(), b.Ptr(), 4*n)
	}
	var g *Graph
	require.NoError(t, d.Do(s1, func(q *Queue) error {
		var err error
		g, err = q.Capture(work)
		return err
	}))
	defer g.Close()
	require.NoError(t, s1.Synchronize())
	got := make([]uint32, n)
	require.NoError(t, b.Download(got))
	testutil.RequireEqualSlices(t, src, got, "capturing queues nothing: the buffer is unchanged")
	for i, s := range []*Stream{s1, s2, s1} {
		require.NoError(t, d.Do(s, func(q *Queue) error { return q.LaunchGraph(g) }))
		require.NoError(t, s.Synchronize())
		require.NoError(t, c.Download(got))
		want := make([]uint32, n)
		for j := range want {
			want[j] = src[j] + uint32(i+1)*16
		}
		testutil.RequireEqualSlices(t, want, got, "after %d launches of the graph", i+1)
	}

	err = d.Do(nil, func(q *Queue) error { _, err := q.Capture(work); return err })
	assert.ErrorIs(t, err, ErrNoGraphs, "capture on the default stream")
	sentinel := errors.New("mine")
	err = d.Do(s1, func(q *Queue) error {
		h, err := q.Capture(func(q *Queue) error { return sentinel })
		assert.Nil(t, h)
		return err
	})
	assert.ErrorIs(t, err, sentinel, "f's error")
	// the stream works after a failed capture
	require.NoError(t, d.Do(s1, work))
	require.NoError(t, s1.Synchronize())
	require.NoError(t, g.Close())
	assert.NoError(t, g.Close(), "second Close")
	err = d.Do(s1, func(q *Queue) error { return q.LaunchGraph(g) })
	assert.ErrorIs(t, err, ErrClosed, "launch of a closed graph")
}
