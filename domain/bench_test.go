package domain

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
)

var benchSizes = []int{16, 20, 22}

func benchTransform(b *testing.B, name string, f func(s *Subspace) func([]gf64.Element) error) {
	for _, m := range benchSizes {
		b.Run(fmt.Sprintf("%s/m=%d", name, m), func(b *testing.B) {
			r := newRand(b, uint64(m))
			s := randSubspace(b, r, m, 0)
			a := randVec(r, s.Size())
			op := f(s)
			require.NoError(b, op(a)) // build the plan
			b.SetBytes(int64(8 * len(a)))
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuTime()
			for b.Loop() {
				_ = op(a)
			}
			reportCPU(b, c0)
		})
	}
}

func BenchmarkFFT(b *testing.B) {
	benchTransform(b, "FFT", func(s *Subspace) func([]gf64.Element) error { return s.FFT })
}

func BenchmarkIFFT(b *testing.B) {
	benchTransform(b, "IFFT", func(s *Subspace) func([]gf64.Element) error { return s.IFFT })
}

func BenchmarkNovelFFT(b *testing.B) {
	benchTransform(b, "NovelFFT", func(s *Subspace) func([]gf64.Element) error { return s.NovelFFT })
}

func BenchmarkNovelIFFT(b *testing.B) {
	benchTransform(b, "NovelIFFT", func(s *Subspace) func([]gf64.Element) error { return s.NovelIFFT })
}

// BenchmarkLDE extends 2^k evaluations to 2^(k+2) over the basis extended
// by two elements (the fast case) and over an unrelated subspace.
func BenchmarkLDE(b *testing.B) {
	for _, k := range []int{16, 20} {
		r := newRand(b, uint64(k))
		from := randSubspace(b, r, k, 0)
		ext, err := from.Extend(randElem(r), randElem(r))
		require.NoError(b, err)
		other := randSubspace(b, r, k+2, 0)
		for _, tc := range []struct {
			name string
			to   *Subspace
		}{{"extended", ext}, {"unrelated", other}} {
			b.Run(fmt.Sprintf("%s/%d->%d", tc.name, k, k+2), func(b *testing.B) {
				src := randVec(r, from.Size())
				dst := make([]gf64.Element, tc.to.Size())
				require.NoError(b, LDE(dst, src, from, tc.to))
				b.SetBytes(int64(8 * len(dst)))
				b.ReportAllocs()
				b.ResetTimer()
				c0 := cpuTime()
				for b.Loop() {
					_ = LDE(dst, src, from, tc.to)
				}
				reportCPU(b, c0)
			})
		}
	}
}

// BenchmarkFFTBatch runs FFT on 8 columns of 2^16.
func BenchmarkFFTBatch(b *testing.B) {
	r := newRand(b, 99)
	s := randSubspace(b, r, 16, 0)
	cols := make([][]gf64.Element, 8)
	for i := range cols {
		cols[i] = randVec(r, s.Size())
	}
	_ = s.FFTBatch(cols)
	b.SetBytes(int64(8 * s.Size() * len(cols)))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		_ = s.FFTBatch(cols)
	}
	reportCPU(b, c0)
}

// reportCPU adds the process CPU time per operation since c0 (all
// goroutines together) as the metric cpu-ns/op.
func reportCPU(b *testing.B, c0 time.Duration) {
	if d := cpuTime() - c0; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
