package gfvec

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	report     = flag.Bool("gpu.report", false, "run TestReport: the GPU benchmark tables for BENCHMARKS.md")
	reportMax  = flag.Int("gpu.maxlog", 28, "TestReport: largest log2 size")
	reportReps = flag.Int("gpu.reps", 15, "TestReport: timed repetitions per row (median reported)")
)

// chunkOp runs only the chunk multiplication of a bit-sliced design on data
// already in chunk form (nch chunks of rows words each): C = A·B. For the
// report's rows of the seed's kernel alone.
func (k *kernels) chunkOp(s *gpu.Stream, C, A, B gpu.DevicePtr, nch int) error {
	return k.d.Do(s, func(q *gpu.Queue) error {
		return q.Launch(k.mul, k.grid(nch, chunkWarps), gpu.Dim3{X: chunkBlock}, 0, C, A, B, uint64(nch))
	})
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
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	fmt.Printf("\ndevice: %s\n", d.Info())
	reps := *reportReps

	// GF(2^64): every design and operation, data on the device.
	fmt.Printf("\n| field | design | op | n | time | G products/s |\n|---|---|---|---|---|---|\n")
	for lg := 20; lg <= *reportMax; lg += 2 {
		n := 1 << lg
		a, b, c := gputest.Alloc[gf64.Element](t, d, n), gputest.Alloc[gf64.Element](t, d, n), gputest.Alloc[gf64.Element](t, d, n)
		require.NoError(t, a.Upload(gputest.Words[gf64.Element](n, 1)))
		require.NoError(t, b.Upload(gputest.Words[gf64.Element](n, 2)))
		require.NoError(t, c.Upload(gputest.Words[gf64.Element](n, 3)))
		for _, design := range Designs {
			k, err := NewGF64(d, design)
			require.NoError(t, err)
			for _, op := range []string{"MulVec", "ScaleVec", "MulAddVec"} {
				f := map[string]func() error{
					"MulVec":    func() error { return k.MulVec(s, c, a, b) },
					"ScaleVec":  func() error { return k.ScaleVec(s, c, a, 0x1234567890abcdef) },
					"MulAddVec": func() error { return k.MulAddVec(s, c, a, 0x1234567890abcdef) },
				}[op]
				dt := gputest.DeviceTime(t, d, s, 3, reps, innerFor(n), f)
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
		a, b, c := gputest.Alloc[uint32](t, d, n), gputest.Alloc[uint32](t, d, n), gputest.Alloc[uint32](t, d, n)
		require.NoError(t, a.Upload(gputest.Words[uint32](n, 1)))
		require.NoError(t, b.Upload(gputest.Words[uint32](n, 2)))
		for _, design := range Designs {
			k, err := NewGF32(d, design)
			require.NoError(t, err)
			for _, op := range []string{"MulVec", "ScaleVec"} {
				f := map[string]func() error{
					"MulVec":   func() error { return k.MulVec(s, c, a, b) },
					"ScaleVec": func() error { return k.ScaleVec(s, c, a, 0x12345678) },
				}[op]
				dt := gputest.DeviceTime(t, d, s, 3, reps, innerFor(n), f)
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
			A, B := gputest.Alloc[uint32](t, d, words), gputest.Alloc[uint32](t, d, words)
			require.NoError(t, A.Upload(gputest.Words[uint32](words, 4)))
			require.NoError(t, B.Upload(gputest.Words[uint32](words, 5)))
			var rate [numDesigns]float64
			for _, design := range []Design{SharedMemory, RegisterCache} {
				var k *kernels
				if field == 64 {
					g, err := NewGF64(d, design)
					require.NoError(t, err)
					k = g.k
				} else {
					g, err := NewGF32(d, design)
					require.NoError(t, err)
					k = g.k
				}
				dt := gputest.DeviceTime(t, d, s, 3, reps, innerFor(n), func() error { return k.chunkOp(s, B.Ptr(), A.Ptr(), B.Ptr(), n/32) })
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
	hb, err := gpu.AllocHost[gf64.Element](d, copyN)
	require.NoError(t, err)
	db := gputest.Alloc[gf64.Element](t, d, copyN)
	dd := gputest.Alloc[gf64.Element](t, d, copyN)
	h2d := gputest.DeviceTime(t, d, s, 2, 7, 1, func() error { return db.UploadAsync(s, hb) })
	d2h := gputest.DeviceTime(t, d, s, 2, 7, 1, func() error { return db.DownloadAsync(s, hb) })
	d2d := gputest.DeviceTime(t, d, s, 2, 7, 1, func() error { return dd.CopyFrom(s, db) })
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
func hostToHost(t *testing.T, d *gpu.Device, design Design, n, part int) (time.Duration, bool) {
	const nstreams = 4
	k, err := NewGF64(d, design)
	require.NoError(t, err)
	ha, err := gpu.AllocHost[gf64.Element](d, n)
	require.NoError(t, err)
	defer ha.Free()
	hb, err := gpu.AllocHost[gf64.Element](d, n)
	require.NoError(t, err)
	defer hb.Free()
	hc, err := gpu.AllocHost[gf64.Element](d, n)
	require.NoError(t, err)
	defer hc.Free()
	copy(ha.Slice(), gputest.Words[gf64.Element](n, 11))
	copy(hb.Slice(), gputest.Words[gf64.Element](n, 12))
	type lane struct {
		s       *gpu.Stream
		a, b, c *gpu.Buffer[gf64.Element]
	}
	lanes := make([]lane, nstreams)
	for i := range lanes {
		s, err := d.NewStream()
		require.NoError(t, err)
		lanes[i] = lane{s, gputest.Alloc[gf64.Element](t, d, part), gputest.Alloc[gf64.Element](t, d, part), gputest.Alloc[gf64.Element](t, d, part)}
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
	require.NoError(t, run())
	times := make([]time.Duration, 3)
	for i := range times {
		t0 := time.Now()
		require.NoError(t, run())
		times[i] = time.Since(t0)
	}
	slices.Sort(times)
	want := make([]gf64.Element, n)
	parallel(n, func(lo, hi int) { gf64.MulVec(want[lo:hi], ha.Slice()[lo:hi], hb.Slice()[lo:hi]) })
	return times[1], slices.Equal(hc.Slice(), want)
}

func bitLen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

func benchmarkGF64(b *testing.B, design Design, n int) {
	d := gputest.Device(b)
	k, err := NewGF64(d, design)
	require.NoError(b, err)
	x, y, z := gputest.Alloc[gf64.Element](b, d, n), gputest.Alloc[gf64.Element](b, d, n), gputest.Alloc[gf64.Element](b, d, n)
	defer x.Free()
	defer y.Free()
	defer z.Free()
	require.NoError(b, x.Upload(gputest.Words[gf64.Element](n, 1)))
	require.NoError(b, y.Upload(gputest.Words[gf64.Element](n, 2)))
	s, err := d.NewStream()
	require.NoError(b, err)
	defer s.Close()
	for i := 0; i < 3; i++ {
		require.NoError(b, k.MulVec(s, z, x, y))
	}
	start, _ := d.NewEvent()
	end, _ := d.NewEvent()
	defer start.Close()
	defer end.Close()
	b.SetBytes(int64(24 * n))
	b.ReportAllocs()
	b.ResetTimer()
	require.NoError(b, start.Record(s))
	for i := 0; i < b.N; i++ {
		require.NoError(b, k.MulVec(s, z, x, y))
	}
	require.NoError(b, end.Record(s))
	require.NoError(b, end.Synchronize())
	dt, err := end.Since(start)
	require.NoError(b, err)
	b.ReportMetric(float64(n)*float64(b.N)/dt.Seconds()/1e9, "Gproducts/s")
}

func BenchmarkGF64MulVec(b *testing.B) {
	for _, design := range Designs {
		for _, lg := range []int{20, 24} {
			b.Run(fmt.Sprintf("%v/n=2^%d", design, lg), func(b *testing.B) { benchmarkGF64(b, design, 1<<lg) })
		}
	}
}

// clmulVariants are alternative per-thread GF(2^64) products, measured by
// TestClmulVariants against each other: C bit classes per 32-bit operand,
// partial products combined with XOR (C = 4) or partly with integer adds
// (C = 5: pairs; C = 6: all), which moves work from the logic units to the
// multiply-add units.
const clmulVariants = `
typedef unsigned int u32;
typedef unsigned long long u64;

template <int C> __device__ __forceinline__ u64 clmulC(u32 x, u32 y) {
    u32 xm[C], ym[C];
#pragma unroll
    for (int r = 0; r < C; r++) {
        u32 m = 0;
#pragma unroll
        for (int i = r; i < 32; i += C) m |= 1u << i;
        xm[r] = x & m;
        ym[r] = y & m;
    }
    u64 res = 0;
#pragma unroll
    for (int k = 0; k < C; k++) {
        u64 z = 0;
        if (C == 4) {
#pragma unroll
            for (int i = 0; i < C; i++) z ^= (u64)xm[i] * ym[(k - i + C) % C];
        } else if (C == 5) {
            u64 s0 = (u64)xm[0] * ym[k % 5] + (u64)xm[1] * ym[(k + 4) % 5];
            u64 s1 = (u64)xm[2] * ym[(k + 3) % 5] + (u64)xm[3] * ym[(k + 2) % 5];
            z = s0 ^ s1 ^ ((u64)xm[4] * ym[(k + 1) % 5]);
        } else {
#pragma unroll
            for (int i = 0; i < C; i++) z += (u64)xm[i] * ym[(k - i + C) % C];
        }
        u64 M = 0;
#pragma unroll
        for (int p = k; p < 64; p += C) M |= 1ull << p;
        res ^= z & M;
    }
    return res;
}

template <int C> __device__ __forceinline__ u64 mulC(u64 a, u64 b) {
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 l = clmulC<C>(a0, b0), h = clmulC<C>(a1, b1);
    u64 m = clmulC<C>(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    u64 lo = l ^ (m << 32), hi = h ^ (m >> 32);
    lo ^= hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    u64 t = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    return lo ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
}

template <int C> __device__ void mulvec(u64 *dst, const u64 *a, const u64 *b, u64 n) {
    u64 n2 = n >> 1;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += (u64)gridDim.x * blockDim.x) {
        ulonglong2 x = ((const ulonglong2 *)a)[i], y = ((const ulonglong2 *)b)[i], r;
        r.x = mulC<C>(x.x, y.x);
        r.y = mulC<C>(x.y, y.y);
        ((ulonglong2 *)dst)[i] = r;
    }
}

extern "C" __global__ void mul4(u64 *d, const u64 *a, const u64 *b, u64 n) { mulvec<4>(d, a, b, n); }
extern "C" __global__ void mul5(u64 *d, const u64 *a, const u64 *b, u64 n) { mulvec<5>(d, a, b, n); }
extern "C" __global__ void mul6(u64 *d, const u64 *a, const u64 *b, u64 n) { mulvec<6>(d, a, b, n); }
`

// TestClmulVariants times the per-thread product variants (with
// -gpu.report) and checks them against field/gf64.
func TestClmulVariants(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := gputest.Device(t)
	m, err := d.LoadModule("variants.cu", clmulVariants)
	require.NoError(t, err)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	const n = 1 << 26
	a, b := gputest.Words[gf64.Element](n, 21), gputest.Words[gf64.Element](n, 22)
	want := make([]gf64.Element, n)
	parallel(n, func(lo, hi int) { gf64.MulVec(want[lo:hi], a[lo:hi], b[lo:hi]) })
	da, db, dc := gputest.Alloc[gf64.Element](t, d, n), gputest.Alloc[gf64.Element](t, d, n), gputest.Alloc[gf64.Element](t, d, n)
	defer da.Free()
	defer db.Free()
	defer dc.Free()
	require.NoError(t, da.Upload(a))
	require.NoError(t, db.Upload(b))
	got := make([]gf64.Element, n)
	fmt.Printf("\n| per-thread product variant | n | G products/s |\n|---|---|---|\n")
	for _, name := range []string{"mul4", "mul5", "mul6"} {
		f, err := m.Function(name)
		require.NoError(t, err)
		cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: d.Info().Multiprocessors * 32}, Block: gpu.Dim3{X: 256}, Stream: s}
		launch := func() error { return f.Launch(cfg, dc, da, db, uint64(n)) }
		dt := gputest.DeviceTime(t, d, s, 3, 15, 1, launch)
		require.NoError(t, s.Synchronize())
		require.NoError(t, dc.Download(got))
		ok := testutil.EqualSlices(t, want, got, "%s against gf64.MulVec", name)
		fmt.Printf("| %s (correct: %v) | 2^26 | %.2f |\n", name, ok, gps(n, dt))
	}
}
