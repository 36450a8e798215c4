package additive

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	fftReport    = flag.Bool("gpu.fftreport", false, "run TestFFTReport: the GPU transform tables for BENCHMARKS.md")
	fftReportCPU = flag.Bool("gpu.fftcpu", false, "run TestFFTReportCPU: domain on the CPU for the same rows")
	fftMaxLog    = flag.Int("gpu.fftmaxlog", 29, "TestFFTReport: largest log2 size of the Gao–Mateer row")
)

// reportRow prints one table row: time, element rate (output elements),
// effective bandwidth of one read and one write per element, peak memory.
func reportRow(name string, elems int, dt time.Duration, peak int) {
	fmt.Printf("| %s | %.3f ms | %.2f | %.0f | %.0f |\n", name, dt.Seconds()*1e3,
		float64(elems)/dt.Seconds()/1e9, 16*float64(elems)/dt.Seconds()/1e9, gputest.MiB(peak))
}

// TestFFTReport prints the rows of BENCHMARKS.md's GPU transform section:
// device events around each call after warm-up, median; data on the device
// unless the row says host.
func TestFFTReport(t *testing.T) {
	if !*fftReport {
		t.Skip("run with -gpu.fftreport")
	}
	tr := testTransforms(t)
	d := tr.d
	st, err := d.NewStream()
	require.NoError(t, err)
	defer st.Close()
	r := rand.New(rand.NewPCG(21, 22))
	fmt.Printf("\ndevice: %s\n\n| row | median time | G elements/s | GB/s (r+w) | peak MiB |\n|---|---|---|---|---|\n", d.Info())

	inPlace := func(name string, m, cols, reps int, f func(*gpu.Stream, *domain.Subspace, *gpu.Buffer[gf64.Element]) error) time.Duration {
		s := randomSubspace(t, r, m, false)
		require.NoError(t, tr.Prepare(s))
		buf := gputest.Alloc[gf64.Element](t, d, cols<<uint(m))
		require.NoError(t, buf.Upload(gputest.Words[gf64.Element](cols<<uint(m), uint64(m))))
		dt := gputest.DeviceTime(t, d, st, 2, reps, 1, func() error { return f(st, s, buf) })
		reportRow(fmt.Sprintf("%s %d×2^%d", name, cols, m), cols<<uint(m), dt, buf.Bytes()+tr.TableBytes())
		buf.Free()
		tr.Release(s)
		return dt
	}
	for _, m := range []int{20, 22, 24, 26, 28} {
		inPlace("NovelFFT", m, 1, 9, tr.NovelFFT)
	}
	inPlace("NovelIFFT", 24, 1, 9, tr.NovelIFFT)
	inPlace("NovelFFT", 20, 64, 9, tr.NovelFFT)
	for _, m := range []int{20, 24} {
		inPlace("FFT (Gao–Mateer)", m, 1, 5, tr.FFT)
		inPlace("IFFT", m, 1, 5, tr.IFFT)
	}
	if *fftMaxLog >= 26 {
		inPlace("FFT (Gao–Mateer)", *fftMaxLog, 1, 3, tr.FFT)
	}

	lde := func(k, n, cols int, prefix bool) time.Duration {
		from := randomSubspace(t, r, k, false)
		var to *domain.Subspace
		if prefix {
			to = ldeTargets(t, r, from, n)["prefix"]
		} else {
			to = randomSubspace(t, r, n, false)
		}
		require.NoError(t, tr.Prepare(from))
		require.NoError(t, tr.Prepare(to))
		src := gputest.Alloc[gf64.Element](t, d, cols<<uint(k))
		dst := gputest.Alloc[gf64.Element](t, d, cols<<uint(n))
		require.NoError(t, src.Upload(gputest.Words[gf64.Element](cols<<uint(k), 5)))
		dt := gputest.DeviceTime(t, d, st, 2, 9, 1, func() error { return tr.LDE(st, dst, src, from, to) })
		kind := "extended"
		if !prefix {
			kind = "unrelated"
		}
		reportRow(fmt.Sprintf("LDE %d×2^%d→2^%d (%s)", cols, k, n, kind), cols<<uint(n), dt,
			DeviceBytesLDE(k, n, cols)+tr.TableBytes())
		src.Free()
		dst.Free()
		tr.Release(from)
		tr.Release(to)
		return dt
	}
	one := lde(24, 26, 1, true)
	lde(24, 26, 1, false)
	lde(20, 22, 1, true)
	batch := lde(20, 22, 64, true)
	lde(20, 22, 64, false)
	fmt.Printf("\nbatch 64×2^20→2^22 rate / single 2^24→2^26 rate: %.2f\n",
		(float64(64<<22)/batch.Seconds())/(float64(1<<26)/one.Seconds()))

	// Host to host through pinned memory: wall time of LDEBatch, and of the
	// same pipeline with the transform left out (copies only).
	fmt.Printf("\n| host to host | wall time (median of 3) | copies only | copy share | G output elements/s |\n|---|---|---|---|---|\n")
	for _, c := range []struct{ k, n, cols int }{{24, 26, 1}, {20, 22, 64}, {20, 22, 16}} {
		from := randomSubspace(t, r, c.k, false)
		to := ldeTargets(t, r, from, c.n)["prefix"]
		src, dst := make([][]gf64.Element, c.cols), make([][]gf64.Element, c.cols)
		for i := range src {
			src[i] = gputest.Words[gf64.Element](1<<uint(c.k), uint64(i))
			dst[i] = make([]gf64.Element, 1<<uint(c.n))
		}
		require.NoError(t, tr.LDEBatch(dst, src, from, to)) // warm: tables, staging
		if c.cols == 64 {                                   // spot check against the CPU
			want := make([]gf64.Element, 1<<uint(c.n))
			require.NoError(t, domain.LDE(want, src[63], from, to))
			testutil.RequireEqualSlices(t, want, dst[63], "host LDE against domain")
		}
		wall := medianWall(3, func() { require.NoError(t, tr.LDEBatch(dst, src, from, to)) })
		copies := medianWall(3, func() {
			require.NoError(t, tr.hostRun("copy", dst, src, 1<<uint(c.k), 1<<uint(c.n), 1<<uint(c.k), false,
				func(*gpu.Stream, *gpu.Buffer[gf64.Element], *gpu.Buffer[gf64.Element], int) error { return nil }))
		})
		fmt.Printf("| LDE %d×2^%d→2^%d | %.2f ms | %.2f ms | %.0f%% | %.2f |\n", c.cols, c.k, c.n,
			wall.Seconds()*1e3, copies.Seconds()*1e3, 100*copies.Seconds()/wall.Seconds(),
			float64(c.cols<<uint(c.n))/wall.Seconds()/1e9)
		tr.Release(from)
		tr.Release(to)
	}
}

func medianWall(reps int, f func()) time.Duration {
	ts := make([]time.Duration, reps)
	for i := range ts {
		t0 := time.Now()
		f()
		ts[i] = time.Since(t0)
	}
	slices.Sort(ts)
	return ts[reps/2]
}

// TestFFTReportCPU times package domain on this machine's CPU for the rows of
// TestFFTReport that fit in its time (median of 3 wall times).
func TestFFTReportCPU(t *testing.T) {
	if !*fftReportCPU {
		t.Skip("run with -gpu.fftcpu")
	}
	r := rand.New(rand.NewPCG(23, 24))
	fmt.Printf("\n| CPU row | median time | G elements/s |\n|---|---|---|\n")
	row := func(name string, elems int, f func()) {
		f()
		dt := medianWall(3, f)
		fmt.Printf("| %s | %.1f ms | %.4f |\n", name, dt.Seconds()*1e3, float64(elems)/dt.Seconds()/1e9)
	}
	for _, m := range []int{20, 24} {
		s := randomSubspace(t, r, m, false)
		a := randomVec(r, 1<<uint(m))
		row(fmt.Sprintf("NovelFFT 1×2^%d", m), 1<<uint(m), func() { require.NoError(t, s.NovelFFT(a)) })
		row(fmt.Sprintf("FFT 1×2^%d", m), 1<<uint(m), func() { require.NoError(t, s.FFT(a)) })
	}
	from := randomSubspace(t, r, 24, false)
	to := ldeTargets(t, r, from, 26)["prefix"]
	src, dst := randomVec(r, 1<<24), make([]gf64.Element, 1<<26)
	row("LDE 1×2^24→2^26 (extended)", 1<<26, func() { require.NoError(t, domain.LDE(dst, src, from, to)) })
	from = randomSubspace(t, r, 20, false)
	to = ldeTargets(t, r, from, 22)["prefix"]
	srcs, dsts := make([][]gf64.Element, 64), make([][]gf64.Element, 64)
	for i := range srcs {
		srcs[i], dsts[i] = randomVec(r, 1<<20), make([]gf64.Element, 1<<22)
	}
	row("LDE 64×2^20→2^22 (extended)", 64<<22, func() { require.NoError(t, domain.LDEBatch(dsts, srcs, from, to)) })
}

// Benchmarks on the device (skipped without one): the time per call is
// host-observed with the stream synchronized; TestFFTReport has the
// device-event medians.

func benchDeviceInPlace(b *testing.B, name string, m, cols int, op func(*Transforms) func(*gpu.Stream, *domain.Subspace, *gpu.Buffer[gf64.Element]) error) {
	b.Run(fmt.Sprintf("%s/cols=%d/m=%d", name, cols, m), func(b *testing.B) {
		tr := testTransforms(b)
		s := randomSubspace(b, rand.New(rand.NewPCG(uint64(m), 1)), m, false)
		buf := gputest.Alloc[gf64.Element](b, tr.d, cols<<uint(m))
		defer buf.Free()
		require.NoError(b, buf.Upload(gputest.Words[gf64.Element](cols<<uint(m), 1)))
		f := op(tr)
		require.NoError(b, f(nil, s, buf))
		b.SetBytes(int64(8 * buf.Len()))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			require.NoError(b, f(nil, s, buf))
		}
		b.ReportMetric(gputest.MiB(buf.Bytes()+tr.TableBytes()), "peak-MiB")
	})
}

func BenchmarkNovelFFTDevice(b *testing.B) {
	for _, m := range []int{16, 20, 24} {
		benchDeviceInPlace(b, "NovelFFT", m, 1, func(t *Transforms) func(*gpu.Stream, *domain.Subspace, *gpu.Buffer[gf64.Element]) error {
			return t.NovelFFT
		})
	}
}

func BenchmarkFFTDevice(b *testing.B) {
	for _, m := range []int{16, 20, 24} {
		benchDeviceInPlace(b, "FFT", m, 1, func(t *Transforms) func(*gpu.Stream, *domain.Subspace, *gpu.Buffer[gf64.Element]) error {
			return t.FFT
		})
	}
}

func BenchmarkLDEDevice(b *testing.B) {
	for _, c := range []struct{ k, n, cols int }{{20, 22, 1}, {24, 26, 1}, {20, 22, 64}} {
		b.Run(fmt.Sprintf("cols=%d/%d->%d", c.cols, c.k, c.n), func(b *testing.B) {
			tr := testTransforms(b)
			r := rand.New(rand.NewPCG(uint64(c.k), 2))
			from := randomSubspace(b, r, c.k, false)
			to := ldeTargets(b, r, from, c.n)["prefix"]
			src := gputest.Alloc[gf64.Element](b, tr.d, c.cols<<uint(c.k))
			defer src.Free()
			dst := gputest.Alloc[gf64.Element](b, tr.d, c.cols<<uint(c.n))
			defer dst.Free()
			require.NoError(b, src.Upload(gputest.Words[gf64.Element](src.Len(), 3)))
			require.NoError(b, tr.LDE(nil, dst, src, from, to))
			b.SetBytes(int64(8 * dst.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				require.NoError(b, tr.LDE(nil, dst, src, from, to))
			}
			b.ReportMetric(gputest.MiB(DeviceBytesLDE(c.k, c.n, c.cols)+tr.TableBytes()), "peak-MiB")
		})
	}
}
