package gpu

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

var (
	fftReport    = flag.Bool("gpu.fftreport", false, "run TestFFTReport: the GPU transform tables for BENCHMARKS.md")
	fftReportCPU = flag.Bool("gpu.fftcpu", false, "run TestFFTReportCPU: domain on the CPU for the same rows")
	fftMaxLog    = flag.Int("gpu.fftmaxlog", 29, "TestFFTReport: largest log2 size of the Gao–Mateer row")
	fftVariants  = flag.Bool("gpu.fftvariants", false, "run TestFFTVariants: product-table settings side by side")
	fftTabMinF   = flag.Int("gpu.ffttabmin", -1, "device tests: product tables from this local bit (fftTabMin; -1: default)")
	fftTabMixF   = flag.Int("gpu.fftmix", -1, "device tests: products of table levels sent to fft_mul (fftTabMix; -1: default)")
	fftDefines   = flag.String("gpu.fftdefines", "", "device tests: NAME=VALUE macros defined before fft.cu (build-time choices, e.g. FFT_MIN_BLOCKS=4)")
)

// applyFFTFlags sets the product-table settings from the command line.
func applyFFTFlags() {
	if *fftTabMinF >= 0 {
		fftTabMin = *fftTabMinF
	}
	if *fftTabMixF >= 0 {
		fftTabMix = *fftTabMixF
	}
}

func mib(b int) float64 { return float64(b) / (1 << 20) }

// reportRow prints one table row: time, element rate (output elements),
// effective bandwidth of one read and one write per element, peak memory.
func reportRow(name string, elems int, dt time.Duration, peak int) {
	fmt.Printf("| %s | %.3f ms | %.2f | %.0f | %.0f |\n", name, dt.Seconds()*1e3,
		float64(elems)/dt.Seconds()/1e9, 16*float64(elems)/dt.Seconds()/1e9, mib(peak))
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
	must(t, err)
	defer st.Close()
	r := rand.New(rand.NewPCG(21, 22))
	fmt.Printf("\ndevice: %s\n\n| row | median time | G elements/s | GB/s (r+w) | peak MiB |\n|---|---|---|---|---|\n", d.Info())

	inPlace := func(name string, m, cols, reps int, f func(*Stream, *domain.Subspace, *Buffer[gf64.Element]) error) time.Duration {
		s := randomSubspace(t, r, m, false)
		must(t, tr.Prepare(s))
		buf := mustAlloc[gf64.Element](t, d, cols<<uint(m))
		must(t, buf.Upload(randomWords[gf64.Element](cols<<uint(m), uint64(m))))
		dt := deviceTime(t, d, st, 2, reps, 1, func() error { return f(st, s, buf) })
		reportRow(fmt.Sprintf("%s %d×2^%d", name, cols, m), cols<<uint(m), dt, buf.Bytes()+tr.TableBytes())
		buf.Free()
		tr.Release(s)
		return dt
	}
	for _, m := range []int{20, 22, 24, 26, 28} {
		inPlace("NovelFFT", m, 1, 9, tr.NovelFFT)
	}
	fftNoRadix4 = true
	inPlace("NovelFFT, one level per sweep", 24, 1, 9, tr.NovelFFT)
	fftNoRadix4 = false
	fftGF64Mul = true
	inPlace("NovelFFT, gf64.cu's gf64_mul", 24, 1, 9, tr.NovelFFT)
	fftGF64Mul = false
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
		must(t, tr.Prepare(from))
		must(t, tr.Prepare(to))
		src := mustAlloc[gf64.Element](t, d, cols<<uint(k))
		dst := mustAlloc[gf64.Element](t, d, cols<<uint(n))
		must(t, src.Upload(randomWords[gf64.Element](cols<<uint(k), 5)))
		dt := deviceTime(t, d, st, 2, 9, 1, func() error { return tr.LDE(st, dst, src, from, to) })
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
			src[i] = randomWords[gf64.Element](1<<uint(c.k), uint64(i))
			dst[i] = make([]gf64.Element, 1<<uint(c.n))
		}
		must(t, tr.LDEBatch(dst, src, from, to)) // warm: tables, staging
		if c.cols == 64 {                        // spot check against the CPU
			want := make([]gf64.Element, 1<<uint(c.n))
			must(t, domain.LDE(want, src[63], from, to))
			if !slices.Equal(want, dst[63]) {
				t.Fatalf("host LDE differs from domain")
			}
		}
		wall := medianWall(3, func() { must(t, tr.LDEBatch(dst, src, from, to)) })
		copies := medianWall(3, func() {
			must(t, tr.hostRun("copy", dst, src, 1<<uint(c.k), 1<<uint(c.n), 1<<uint(c.k), false,
				func(*Stream, *Buffer[gf64.Element], *Buffer[gf64.Element], int) error { return nil }))
		})
		fmt.Printf("| LDE %d×2^%d→2^%d | %.2f ms | %.2f ms | %.0f%% | %.2f |\n", c.cols, c.k, c.n,
			wall.Seconds()*1e3, copies.Seconds()*1e3, 100*copies.Seconds()/wall.Seconds(),
			float64(c.cols<<uint(c.n))/wall.Seconds()/1e9)
		tr.Release(from)
		tr.Release(to)
	}
}

// TestFFTVariants times the novel-basis transforms and the LDE under several
// product-table and high-tile settings (fftTabMin, fftMaxTabs; fftTabMin 64 is fft_mul
// alone; fftTabMix), each checked against domain on a 2^20 transform and an LDE first.
func TestFFTVariants(t *testing.T) {
	if !*fftVariants {
		t.Skip("run with -gpu.fftvariants")
	}
	tr := testTransforms(t)
	d := tr.d
	st, err := d.NewStream()
	must(t, err)
	defer st.Close()
	defer func(a, b, c, T, C int) {
		fftTabMin, fftMaxTabs, fftTabMix, fftHighT, fftHighC = a, b, c, T, C
	}(fftTabMin, fftMaxTabs, fftTabMix, fftHighT, fftHighC)
	r := rand.New(rand.NewPCG(25, 26))
	s20, s24, s28 := randomSubspace(t, r, 20, false), randomSubspace(t, r, 24, false), randomSubspace(t, r, 28, false)
	from := randomSubspace(t, r, 24, false)
	to := ldeTargets(t, r, from, 26)["prefix"]
	for _, s := range []*domain.Subspace{s20, s24, s28, from, to} {
		must(t, tr.Prepare(s))
	}
	b20 := mustAlloc[gf64.Element](t, d, 1<<20)
	b24 := mustAlloc[gf64.Element](t, d, 1<<24)
	b28 := mustAlloc[gf64.Element](t, d, 1<<28)
	b26 := mustAlloc[gf64.Element](t, d, 1<<26)
	must(t, b24.Upload(randomWords[gf64.Element](1<<24, 24)))
	must(t, b28.Upload(randomWords[gf64.Element](1<<28, 28)))
	x20 := randomVec(r, 1<<20)
	want20 := slices.Clone(x20)
	must(t, s20.NovelFFT(want20))
	x12 := randomVec(r, 1<<12)
	f12 := randomSubspace(t, r, 12, false)
	t14 := ldeTargets(t, r, f12, 14)["prefix"]
	want14 := make([]gf64.Element, 1<<14)
	must(t, domain.LDE(want14, x12, f12, t14))
	fmt.Printf("\n| setting | NovelFFT 2^24 | NovelIFFT 2^24 | NovelFFT 2^28 | LDE 2^24→2^26 (extended) |\n|---|---|---|---|---|\n")
	for _, c := range []struct{ tabMin, maxTabs, mix, highT, highC int }{{6, 48, 0, 11, 4},
		{6, 48, 0, 11, 6}, {6, 48, 0, 11, 7}, {6, 32, 0, 12, 6}, {6, 32, 0, 12, 7}, {6, 48, 0, 12, 7},
		{7, 48, 0, 12, 6}, {6, 48, 0, 11, 6}, {6, 48, 0, 11, 4}} {
		fftTabMin, fftMaxTabs, fftTabMix, fftHighT, fftHighC = c.tabMin, c.maxTabs, c.mix, c.highT, c.highC
		must(t, b20.Upload(x20))
		must(t, tr.NovelFFT(nil, s20, b20))
		got := make([]gf64.Element, 1<<20)
		must(t, b20.Download(got))
		if i := fftDiff(got, want20); i >= 0 {
			t.Fatalf("%+v: NovelFFT 2^20 element %d differs from domain", c, i)
		}
		src := mustAlloc[gf64.Element](t, d, 1<<12)
		dst := mustAlloc[gf64.Element](t, d, 1<<14)
		must(t, src.Upload(x12))
		must(t, tr.LDE(nil, dst, src, f12, t14))
		got = make([]gf64.Element, 1<<14)
		must(t, dst.Download(got))
		if i := fftDiff(got, want14); i >= 0 {
			t.Fatalf("%+v: LDE 2^12→2^14 element %d differs from domain", c, i)
		}
		src.Free()
		dst.Free()
		name := fmt.Sprintf("tables from local bit %d, at most %d, mix %d; high tiles 2^%d, rows of 2^%d", c.tabMin, c.maxTabs, c.mix, c.highT, c.highC)
		if c.tabMin >= 64 {
			name = "fft_mul only (no tables)"
		}
		ms := func(dt time.Duration) string { return fmt.Sprintf("%.3f ms", dt.Seconds()*1e3) }
		f24 := deviceTime(t, d, st, 2, 9, 1, func() error { return tr.NovelFFT(st, s24, b24) })
		i24 := deviceTime(t, d, st, 2, 9, 1, func() error { return tr.NovelIFFT(st, s24, b24) })
		f28 := deviceTime(t, d, st, 1, 5, 1, func() error { return tr.NovelFFT(st, s28, b28) })
		lde := deviceTime(t, d, st, 2, 9, 1, func() error { return tr.LDE(st, b26, b24, from, to) })
		fmt.Printf("| %s | %s | %s | %s | %s |\n", name, ms(f24), ms(i24), ms(f28), ms(lde))
	}
	for _, b := range []*Buffer[gf64.Element]{b20, b24, b26, b28} {
		b.Free()
	}
	for _, s := range []*domain.Subspace{s20, s24, s28, from, to} {
		tr.Release(s)
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
		row(fmt.Sprintf("NovelFFT 1×2^%d", m), 1<<uint(m), func() { must(t, s.NovelFFT(a)) })
		row(fmt.Sprintf("FFT 1×2^%d", m), 1<<uint(m), func() { must(t, s.FFT(a)) })
	}
	from := randomSubspace(t, r, 24, false)
	to := ldeTargets(t, r, from, 26)["prefix"]
	src, dst := randomVec(r, 1<<24), make([]gf64.Element, 1<<26)
	row("LDE 1×2^24→2^26 (extended)", 1<<26, func() { must(t, domain.LDE(dst, src, from, to)) })
	from = randomSubspace(t, r, 20, false)
	to = ldeTargets(t, r, from, 22)["prefix"]
	srcs, dsts := make([][]gf64.Element, 64), make([][]gf64.Element, 64)
	for i := range srcs {
		srcs[i], dsts[i] = randomVec(r, 1<<20), make([]gf64.Element, 1<<22)
	}
	row("LDE 64×2^20→2^22 (extended)", 64<<22, func() { must(t, domain.LDEBatch(dsts, srcs, from, to)) })
}

// Benchmarks on the device (skipped without one): the time per call is
// host-observed with the stream synchronized; TestFFTReport has the
// device-event medians.

func benchDeviceInPlace(b *testing.B, name string, m, cols int, op func(*Transforms) func(*Stream, *domain.Subspace, *Buffer[gf64.Element]) error) {
	b.Run(fmt.Sprintf("%s/cols=%d/m=%d", name, cols, m), func(b *testing.B) {
		tr := testTransforms(b)
		s := randomSubspace(b, rand.New(rand.NewPCG(uint64(m), 1)), m, false)
		buf := mustAlloc[gf64.Element](b, tr.d, cols<<uint(m))
		defer buf.Free()
		must(b, buf.Upload(randomWords[gf64.Element](cols<<uint(m), 1)))
		f := op(tr)
		must(b, f(nil, s, buf))
		b.SetBytes(int64(8 * buf.Len()))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			must(b, f(nil, s, buf))
		}
		b.ReportMetric(mib(buf.Bytes()+tr.TableBytes()), "peak-MiB")
	})
}

func BenchmarkNovelFFTDevice(b *testing.B) {
	for _, m := range []int{16, 20, 24} {
		benchDeviceInPlace(b, "NovelFFT", m, 1, func(t *Transforms) func(*Stream, *domain.Subspace, *Buffer[gf64.Element]) error {
			return t.NovelFFT
		})
	}
}

func BenchmarkFFTDevice(b *testing.B) {
	for _, m := range []int{16, 20, 24} {
		benchDeviceInPlace(b, "FFT", m, 1, func(t *Transforms) func(*Stream, *domain.Subspace, *Buffer[gf64.Element]) error {
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
			src := mustAlloc[gf64.Element](b, tr.d, c.cols<<uint(c.k))
			defer src.Free()
			dst := mustAlloc[gf64.Element](b, tr.d, c.cols<<uint(c.n))
			defer dst.Free()
			must(b, src.Upload(randomWords[gf64.Element](src.Len(), 3)))
			must(b, tr.LDE(nil, dst, src, from, to))
			b.SetBytes(int64(8 * dst.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				must(b, tr.LDE(nil, dst, src, from, to))
			}
			b.ReportMetric(mib(DeviceBytesLDE(c.k, c.n, c.cols)+tr.TableBytes()), "peak-MiB")
		})
	}
}
