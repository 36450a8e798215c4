package gpu

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gfpoly/gfpoly/field/gf64"
)

var (
	report     = flag.Bool("gpu.report", false, "run TestReport: the GPU benchmark tables for BENCHMARKS.md")
	reportMax  = flag.Int("gpu.maxlog", 28, "TestReport: largest log2 size")
	reportReps = flag.Int("gpu.reps", 15, "TestReport: timed repetitions per row (median reported)")
)

// deviceTime returns the median device time of one call of f: reps samples,
// after warm calls, each sample timed with events around inner back-to-back
// calls (so that the host's submission latency stays out of the numbers).
func deviceTime(t testing.TB, d *Device, s *Stream, warm, reps, inner int, f func() error) time.Duration {
	t.Helper()
	for i := 0; i < warm; i++ {
		must(t, f())
	}
	start, err := d.NewEvent()
	must(t, err)
	defer start.Close()
	end, err := d.NewEvent()
	must(t, err)
	defer end.Close()
	times := make([]time.Duration, reps)
	for i := range times {
		must(t, start.Record(s))
		for j := 0; j < inner; j++ {
			must(t, f())
		}
		must(t, end.Record(s))
		must(t, end.Synchronize())
		times[i], err = end.Since(start)
		must(t, err)
		times[i] /= time.Duration(inner)
	}
	slices.Sort(times)
	return times[reps/2]
}

// innerFor returns how many calls on n elements make one timed sample.
func innerFor(n int) int { return max(1, (1<<25)/n) }

func gps(n int, dt time.Duration) float64 { return float64(n) / dt.Seconds() / 1e9 }

// TestReport prints the tables of BENCHMARKS.md's GPU section. Run with
// -gpu.report on a GPU machine.
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := testDevice(t)
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	fmt.Printf("\ndevice: %s\n", d.Info())
	reps := *reportReps

	// GF(2^64): every design and operation, data on the device.
	fmt.Printf("\n| field | design | op | n | time | G products/s |\n|---|---|---|---|---|---|\n")
	for lg := 20; lg <= *reportMax; lg += 2 {
		n := 1 << lg
		a, b, c := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
		must(t, a.Upload(randomWords[gf64.Element](n, 1)))
		must(t, b.Upload(randomWords[gf64.Element](n, 2)))
		must(t, c.Upload(randomWords[gf64.Element](n, 3)))
		for _, design := range Designs {
			k, err := d.GF64(design)
			must(t, err)
			for _, op := range []string{"MulVec", "ScaleVec", "MulAddVec"} {
				f := map[string]func() error{
					"MulVec":    func() error { return k.MulVec(s, c, a, b) },
					"ScaleVec":  func() error { return k.ScaleVec(s, c, a, 0x1234567890abcdef) },
					"MulAddVec": func() error { return k.MulAddVec(s, c, a, 0x1234567890abcdef) },
				}[op]
				dt := deviceTime(t, d, s, 3, reps, innerFor(n), f)
				fmt.Printf("| GF(2^64) | %v | %s | 2^%d | %.3f ms | %.2f |\n", design, op, lg, dt.Seconds()*1e3, gps(n, dt))
			}
		}
		a.Free()
		b.Free()
		c.Free()
	}
	// GF(2^32).
	for lg := 20; lg <= *reportMax; lg += 2 {
		n := 1 << lg
		a, b, c := mustAlloc[uint32](t, d, n), mustAlloc[uint32](t, d, n), mustAlloc[uint32](t, d, n)
		must(t, a.Upload(randomWords[uint32](n, 1)))
		must(t, b.Upload(randomWords[uint32](n, 2)))
		for _, design := range Designs {
			k, err := d.GF32(design)
			must(t, err)
			for _, op := range []string{"MulVec", "ScaleVec"} {
				f := map[string]func() error{
					"MulVec":   func() error { return k.MulVec(s, c, a, b) },
					"ScaleVec": func() error { return k.ScaleVec(s, c, a, 0x12345678) },
				}[op]
				dt := deviceTime(t, d, s, 3, reps, innerFor(n), f)
				fmt.Printf("| GF(2^32) | %v | %s | 2^%d | %.3f ms | %.2f |\n", design, op, lg, dt.Seconds()*1e3, gps(n, dt))
			}
		}
		a.Free()
		b.Free()
		c.Free()
	}

	// The seed's kernel alone: data already in chunk form.
	fmt.Printf("\n| field | chunk kernel | n | G products/s | register-cache speedup |\n|---|---|---|---|---|\n")
	for _, field := range []int{64, 32} {
		for lg := 20; lg <= *reportMax; lg += 4 {
			if lg > 24 && lg < *reportMax {
				continue
			}
			n := 1 << lg
			words := n / 32 * field
			A, B := mustAlloc[uint32](t, d, words), mustAlloc[uint32](t, d, words)
			must(t, A.Upload(randomWords[uint32](words, 4)))
			must(t, B.Upload(randomWords[uint32](words, 5)))
			var rate [numDesigns]float64
			for _, design := range []Design{SharedMemory, RegisterCache} {
				var k *fieldKernels
				if field == 64 {
					g, err := d.GF64(design)
					must(t, err)
					k = g.k
				} else {
					g, err := d.GF32(design)
					must(t, err)
					k = g.k
				}
				dt := deviceTime(t, d, s, 3, reps, innerFor(n), func() error { return k.chunkOp(s, B.ptr, A.ptr, B.ptr, nil, n/32) })
				rate[design] = gps(n, dt)
			}
			fmt.Printf("| GF(2^%d) | shared-memory | 2^%d | %.2f | |\n", field, lg, rate[SharedMemory])
			fmt.Printf("| GF(2^%d) | register-cache | 2^%d | %.2f | %.2f× |\n", field, lg, rate[RegisterCache], rate[RegisterCache]/rate[SharedMemory])
			A.Free()
			B.Free()
		}
	}

	// Copies and host to host through pinned memory.
	const copyN = 1 << 27 // 1 GiB of gf64 elements
	hb, err := AllocHost[gf64.Element](d, copyN)
	must(t, err)
	db := mustAlloc[gf64.Element](t, d, copyN)
	dd := mustAlloc[gf64.Element](t, d, copyN)
	h2d := deviceTime(t, d, s, 2, 7, 1, func() error { return db.UploadAsync(s, hb) })
	d2h := deviceTime(t, d, s, 2, 7, 1, func() error { return db.DownloadAsync(s, hb) })
	d2d := deviceTime(t, d, s, 2, 7, 1, func() error { return dd.CopyFrom(s, db) })
	gbs := func(bytes int, dt time.Duration) float64 { return float64(bytes) / dt.Seconds() / 1e9 }
	h2dBW := gbs(copyN*8, h2d)
	fmt.Printf("\n| copy | GB/s |\n|---|---|\n| pinned host to device | %.1f |\n| device to pinned host | %.1f |\n| device to device (read+write) | %.0f |\n",
		h2dBW, gbs(copyN*8, d2h), gbs(2*copyN*8, d2d))
	hb.Free()
	db.Free()
	dd.Free()

	fmt.Printf("\n| host to host GF(2^64) MulVec | n | G products/s | input GB/s | ratio to pinned H2D |\n|---|---|---|---|---|\n")
	for _, c := range []struct {
		design Design
		part   int
	}{{PerThread, 1 << 21}, {PerThread, 1 << 22}, {PerThread, 1 << 24}, {RegisterCache, 1 << 22}, {SharedMemory, 1 << 22}} {
		n := 1 << 26
		dt, ok := hostToHost(t, d, c.design, n, c.part)
		in := float64(16*n) / dt.Seconds() / 1e9
		fmt.Printf("| %v, parts of 2^%d (correct: %v) | 2^26 | %.2f | %.1f | %.2f |\n", c.design, bitLen(c.part)-1, ok, gps(n, dt), in, in/h2dBW)
	}
}

// hostToHost multiplies pinned host vectors of n elements on the device,
// pipelining copies and kernels over 4 streams; it returns the median wall
// time of 3 runs and whether the result was right.
func hostToHost(t *testing.T, d *Device, design Design, n, part int) (time.Duration, bool) {
	const nstreams = 4
	k, err := d.GF64(design)
	must(t, err)
	ha, err := AllocHost[gf64.Element](d, n)
	must(t, err)
	defer ha.Free()
	hb, err := AllocHost[gf64.Element](d, n)
	must(t, err)
	defer hb.Free()
	hc, err := AllocHost[gf64.Element](d, n)
	must(t, err)
	defer hc.Free()
	copy(ha.Slice(), randomWords[gf64.Element](n, 11))
	copy(hb.Slice(), randomWords[gf64.Element](n, 12))
	type lane struct {
		s       *Stream
		a, b, c *Buffer[gf64.Element]
	}
	lanes := make([]lane, nstreams)
	for i := range lanes {
		s, err := d.NewStream()
		must(t, err)
		lanes[i] = lane{s, mustAlloc[gf64.Element](t, d, part), mustAlloc[gf64.Element](t, d, part), mustAlloc[gf64.Element](t, d, part)}
	}
	defer func() {
		for _, l := range lanes {
			l.s.Close()
			l.a.Free()
			l.b.Free()
			l.c.Free()
		}
	}()
	run := func() error {
		for i, off := 0, 0; off < n; i, off = i+1, off+part {
			l := lanes[i%nstreams]
			m := min(part, n-off)
			va, _ := ha.View(off, m)
			vb, _ := hb.View(off, m)
			vc, _ := hc.View(off, m)
			da, _ := l.a.View(0, m)
			db, _ := l.b.View(0, m)
			dc, _ := l.c.View(0, m)
			if err := da.UploadAsync(l.s, va); err != nil {
				return err
			}
			if err := db.UploadAsync(l.s, vb); err != nil {
				return err
			}
			if err := k.MulVec(l.s, dc, da, db); err != nil {
				return err
			}
			if err := dc.DownloadAsync(l.s, vc); err != nil {
				return err
			}
		}
		for _, l := range lanes {
			if err := l.s.Synchronize(); err != nil {
				return err
			}
		}
		return nil
	}
	must(t, run())
	times := make([]time.Duration, 3)
	for i := range times {
		t0 := time.Now()
		must(t, run())
		times[i] = time.Since(t0)
	}
	slices.Sort(times)
	want := make([]gf64.Element, n)
	parallel(n, func(lo, hi int) { gf64.MulVec(want[lo:hi], ha.Slice()[lo:hi], hb.Slice()[lo:hi]) })
	return times[1], firstDiff(hc.Slice(), want) < 0
}

func bitLen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

func benchmarkGF64(b *testing.B, design Design, n int) {
	d := testDevice(b)
	k, err := d.GF64(design)
	must(b, err)
	x, y, z := mustAlloc[gf64.Element](b, d, n), mustAlloc[gf64.Element](b, d, n), mustAlloc[gf64.Element](b, d, n)
	defer x.Free()
	defer y.Free()
	defer z.Free()
	must(b, x.Upload(randomWords[gf64.Element](n, 1)))
	must(b, y.Upload(randomWords[gf64.Element](n, 2)))
	s, err := d.NewStream()
	must(b, err)
	defer s.Close()
	for i := 0; i < 3; i++ {
		must(b, k.MulVec(s, z, x, y))
	}
	start, _ := d.NewEvent()
	end, _ := d.NewEvent()
	defer start.Close()
	defer end.Close()
	b.SetBytes(int64(24 * n))
	b.ReportAllocs()
	b.ResetTimer()
	must(b, start.Record(s))
	for i := 0; i < b.N; i++ {
		must(b, k.MulVec(s, z, x, y))
	}
	must(b, end.Record(s))
	must(b, end.Synchronize())
	dt, err := end.Since(start)
	must(b, err)
	b.ReportMetric(float64(n)*float64(b.N)/dt.Seconds()/1e9, "Gproducts/s")
}

func BenchmarkGF64MulVec(b *testing.B) {
	for _, design := range Designs {
		for _, lg := range []int{20, 24} {
			b.Run(fmt.Sprintf("%v/n=2^%d", design, lg), func(b *testing.B) { benchmarkGF64(b, design, 1<<lg) })
		}
	}
}
