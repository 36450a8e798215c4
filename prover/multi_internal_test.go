package prover

import (
	"fmt"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// The parts of the multi-GPU commitment that need no device: how columns
// and rows are split (the levels the host joins above the blocks' subtrees
// are merkle.JoinRoots, tested there).

func TestSplitColumns(t *testing.T) {
	for cols := 1; cols <= 20; cols++ {
		for d := 1; d <= 6; d++ {
			first := splitColumns(cols, d)
			require.Len(t, first, min(cols, d)+1, "%d columns over %d devices", cols, d)
			assert.Equal(t, 0, first[0])
			assert.Equal(t, cols, first[len(first)-1], "%d columns over %d devices: all columns", cols, d)
			lo, hi := cols, 0
			for i := range len(first) - 1 {
				n := first[i+1] - first[i]
				lo, hi = min(lo, n), max(hi, n)
				if i > 0 {
					assert.LessOrEqual(t, n, first[i]-first[i-1], "the first devices take the extra columns")
				}
			}
			assert.GreaterOrEqual(t, lo, 1, "%d columns over %d devices: a device with none", cols, d)
			assert.LessOrEqual(t, hi-lo, 1, "%d columns over %d devices: uneven split", cols, d)
		}
	}
}

func TestHashBlocks(t *testing.T) {
	for logN := 1; logN <= 26; logN++ {
		n := 1 << logN
		for d := 1; d <= 8; d++ {
			b := hashBlocks(n, d)
			name := fmt.Sprintf("2^%d rows, %d devices", logN, d)
			require.Positive(t, b, name)
			assert.Zero(t, b&(b-1), "%s: %d blocks, not a power of two", name, b)
			assert.Zero(t, n%b, name)
			assert.LessOrEqual(t, b, 32, name)
			if d == 1 {
				assert.Equal(t, 1, b, name)
			}
			if b > 1 {
				assert.GreaterOrEqual(t, n/b, 4, "%s: blocks of fewer than 4 rows", name)
			}
			if logN >= 20 && d > 1 {
				assert.GreaterOrEqual(t, b, min(32, 4*d), "%s: too few blocks for a pipeline", name)
			}
		}
	}
}

// countingSource is a Source that is not a Trace, checking that no two
// reads overlap in time.
type countingSource struct {
	tr     Trace[gf64.Element]
	mu     sync.Mutex
	busy   bool
	reads  int
	overlp bool
}

func (s *countingSource) Shape() (int, int, error) { return s.tr.Shape() }

func (s *countingSource) ReadColumns(first int, dst [][]gf64.Element) error {
	s.mu.Lock()
	if s.busy {
		s.overlp = true
	}
	s.busy = true
	s.reads++
	s.mu.Unlock()
	err := s.tr.ReadColumns(first, dst)
	s.mu.Lock()
	s.busy = false
	s.mu.Unlock()
	return err
}

func TestWindow(t *testing.T) {
	tr, err := RandomTrace[gf64.Element](4, 7, 1)
	require.NoError(t, err)
	var mu sync.Mutex
	w := window[gf64.Element](tr, 4, 2, 5, &mu)
	wt, ok := w.(Trace[gf64.Element])
	require.True(t, ok, "a window of a Trace is a Trace")
	testutil.RequireEqualColumns(t, tr[2:5], wt, "the columns of the window")

	src := &countingSource{tr: tr}
	w = window[gf64.Element](src, 4, 3, 7, &mu)
	logRows, cols, err := w.Shape()
	require.NoError(t, err)
	assert.Equal(t, 4, logRows)
	assert.Equal(t, 4, cols)
	dst := [][]gf64.Element{make([]gf64.Element, 16), make([]gf64.Element, 16)}
	require.NoError(t, w.ReadColumns(1, dst))
	testutil.RequireEqualColumns(t, tr[4:6], dst, "columns 1, 2 of the window are the trace's 4, 5")
	require.ErrorIs(t, w.ReadColumns(3, dst), ErrIndex, "past the window")
	require.ErrorIs(t, w.ReadColumns(-1, dst), ErrIndex)

	// Windows of one source read one at a time.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			ww := window[gf64.Element](src, 4, i, i+3, &mu)
			one := [][]gf64.Element{make([]gf64.Element, 16)}
			for range 200 {
				assert.NoError(t, ww.ReadColumns(1, one))
			}
		})
	}
	wg.Wait()
	assert.False(t, src.overlp, "reads of a caller's source overlapped")
}

func TestWithGPUsArgs(t *testing.T) {
	_, err := New[gf64.Element](WithGPUs())
	require.ErrorIs(t, err, ErrConfig, "no device")
	_, err = New[gf64.Element](WithGPUs(nil))
	require.ErrorIs(t, err, ErrConfig, "a nil device")
	assert.Contains(t, err.Error(), "device 0 is nil")
}

func TestOne(t *testing.T) {
	assert.Equal(t, gf64.Element(1), one[gf64.Element]())
	var b babybear.Element
	b.SetUint64(7)
	o := one[babybear.Element]()
	var p babybear.Element
	p.Mul(&b, &o)
	assert.True(t, p.Equal(&b), "one is babybear's identity")
}

// TestEachDeviceRecovers checks that a panic on one device's goroutine
// comes back as that device's error, naming it, and the others still run.
func TestEachDeviceRecovers(t *testing.T) {
	var ran [3]bool
	err := eachDevice(3, func(i int) error {
		ran[i] = true
		if i == 1 {
			panic("source broke")
		}
		return nil
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "device 1 of 3")
	assert.Contains(t, err.Error(), "source broke")
	assert.Equal(t, [3]bool{true, true, true}, ran)
	require.NoError(t, eachDevice(2, func(int) error { return nil }))
}
