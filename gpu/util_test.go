package gpu

import (
	"github.com/stretchr/testify/require"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// parallel runs f over [0, n) split into one range per CPU.
func parallel(n int, f func(lo, hi int)) {
	p := runtime.NumCPU()
	if n < 1<<14 || p == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + p - 1) / p
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// randomWords returns n deterministic pseudo-random words.
func randomWords[T ~uint32 | ~uint64](n int, seed uint64) []T {
	out := make([]T, n)
	parallel(n, func(lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(lo)))
		for i := lo; i < hi; i++ {
			out[i] = T(r.Uint64())
		}
	})
	return out
}

// deviceTime returns the median device time of one call of f: reps samples,
// after warm calls, each sample timed with events around inner back-to-back
// calls (so that the host's submission latency stays out of the numbers).
func deviceTime(t testing.TB, d *Device, s *Stream, warm, reps, inner int, f func() error) time.Duration {
	t.Helper()
	for i := 0; i < warm; i++ {
		require.NoError(t, f())
	}
	start, err := d.NewEvent()
	require.NoError(t, err)
	defer start.Close()
	end, err := d.NewEvent()
	require.NoError(t, err)
	defer end.Close()
	times := make([]time.Duration, reps)
	for i := range times {
		require.NoError(t, start.Record(s))
		for j := 0; j < inner; j++ {
			require.NoError(t, f())
		}
		require.NoError(t, end.Record(s))
		require.NoError(t, end.Synchronize())
		times[i], err = end.Since(start)
		require.NoError(t, err)
		times[i] /= time.Duration(inner)
	}
	slices.Sort(times)
	return times[reps/2]
}

// mustAlloc allocates a device buffer; a failure stops the test.
func mustAlloc[T any](t testing.TB, d *Device, n int) *Buffer[T] {
	t.Helper()
	b, err := Alloc[T](d, n)
	require.NoError(t, err, "Alloc(%d)", n)
	return b
}
