package fermat

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

// BenchmarkFFT times the forward transform of N = 16^2 … 16^6 elements with
// the data on the device (device events around the benchmark's loop, the
// work queued back to back on one stream; device-ms is the time of one
// transform), and field/fermat's FFT on the host's cores.
func BenchmarkFFT(b *testing.B) {
	for e := 2; e <= 6; e++ {
		n := 1 << (4 * e)
		b.Run(fmt.Sprintf("N=16^%d/gpu", e), func(b *testing.B) {
			tr := transformer(b)
			d := gputest.Device(b)
			buf := gputest.Upload(b, d, randVec(n, uint64(e)))
			s, err := d.NewStream()
			require.NoError(b, err)
			defer s.Close()
			require.NoError(b, tr.FFT(s, buf)) // the plan and its twiddles
			require.NoError(b, s.Synchronize())
			start, err := d.NewEvent()
			require.NoError(b, err)
			defer start.Close()
			end, err := d.NewEvent()
			require.NoError(b, err)
			defer end.Close()
			b.SetBytes(int64(64 * n))
			b.ResetTimer()
			require.NoError(b, start.Record(s))
			for range b.N {
				require.NoError(b, tr.FFT(s, buf))
			}
			require.NoError(b, end.Record(s))
			require.NoError(b, end.Synchronize())
			dt, err := end.Since(start)
			require.NoError(b, err)
			b.ReportMetric(float64(dt.Nanoseconds())/1e6/float64(b.N), "device-ms")
		})
		if e <= 5 {
			b.Run(fmt.Sprintf("N=16^%d/cpu", e), func(b *testing.B) {
				a := randVec(n, uint64(e))
				w := make([]field.Element, n)
				b.SetBytes(int64(64 * n))
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					copy(w, a)
					b.StartTimer()
					require.NoError(b, field.FFT(w))
				}
				b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
			})
		}
	}
}
