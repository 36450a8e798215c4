// Package gputest holds what the tests of gfpoly's GPU packages share: one
// device per test binary (skipping a test, with the reason, where the
// machine has none), deterministic random words, buffers freed when the test
// ends, and the device-time measurement that the report tables use.
//
// It is imported by _test.go files only; no library package depends on it.
// Package gpu's own tests cannot use it (gputest imports gpu) and keep
// equivalents of their own.
package gputest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
)

var (
	devOnce sync.Once
	dev     *gpu.Device
	devErr  error
)

// Device returns the device shared by the tests of this test binary, opened
// on first use (and printed, with the time Open took). Where the machine has
// no usable GPU it skips t with the reason; any other failure of Open fails
// t.
func Device(t testing.TB) *gpu.Device {
	t.Helper()
	devOnce.Do(func() {
		t0 := time.Now()
		dev, devErr = gpu.Open()
		if devErr == nil {
			fmt.Fprintln(os.Stderr, "gpu: opened", dev.Info().String(), "in", time.Since(t0).String())
		}
	})
	if errors.Is(devErr, gpu.ErrNoDevice) {
		t.Skipf("no GPU: %v", devErr)
	}
	require.NoError(t, devErr, "gpu.Open")
	return dev
}

// Main runs the tests and closes the shared device, failing the binary if
// Close fails. A GPU package's TestMain calls it.
func Main(m *testing.M) {
	code := m.Run()
	if dev != nil {
		if err := dev.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "gpu: Close:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// Words returns n deterministic pseudo-random words, the same for the same
// seed, generated on all cores.
func Words[T ~uint32 | ~uint64](n int, seed uint64) []T {
	out := make([]T, n)
	parallel(n, func(lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(lo)))
		for i := lo; i < hi; i++ {
			out[i] = T(r.Uint64())
		}
	})
	return out
}

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
		wg.Go(func() { f(lo, min(lo+step, n)) })
	}
	wg.Wait()
}

// Alloc allocates a device buffer of n values, freed when the test ends; a
// failure stops the test.
func Alloc[T any](t testing.TB, d *gpu.Device, n int) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Alloc[T](d, n)
	require.NoError(t, err, "Alloc of %d values", n)
	t.Cleanup(func() { b.Free() })
	return b
}

// Upload allocates a device buffer holding host's values, freed when the
// test ends.
func Upload[T any](t testing.TB, d *gpu.Device, host []T) *gpu.Buffer[T] {
	t.Helper()
	b := Alloc[T](t, d, len(host))
	require.NoError(t, b.Upload(host), "Upload")
	return b
}

// Download returns the buffer's values.
func Download[T any](t testing.TB, b *gpu.Buffer[T]) []T {
	t.Helper()
	out := make([]T, b.Len())
	require.NoError(t, b.Download(out), "Download")
	return out
}

// DeviceTime returns the median device time of one call of f: reps samples,
// after warm calls, each timed with events on stream s around inner
// back-to-back calls (so that the host's submission latency stays out of
// the numbers).
func DeviceTime(t testing.TB, d *gpu.Device, s *gpu.Stream, warm, reps, inner int, f func() error) time.Duration {
	t.Helper()
	for range warm {
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
		for range inner {
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

// MiB returns b bytes in MiB.
func MiB(b int) float64 { return float64(b) / (1 << 20) }
