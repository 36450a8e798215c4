package gf2n

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	field "github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	report     = flag.Bool("gpu.report", false, "run TestReport: the GPU tables of BENCHMARKS.md")
	reportLog  = flag.Int("gpu.log", 23, "TestReport, BenchmarkCPUMulVec: log2 of the batch (the seed's 2^23)")
	reportReps = flag.Int("gpu.reps", 5, "TestReport: timed repetitions per row (median reported)")
)

func gps(count int, dt time.Duration) float64 { return float64(count) / dt.Seconds() / 1e9 }

func ms(dt time.Duration) float64 { return dt.Seconds() * 1e3 }

// TestReport prints, for every field, each design's products per second on
// a batch already on the device (checked against field/gf2n first), and the
// host-to-host call of the fastest design with its copies timed apart. Run
// with -gpu.report on a GPU machine.
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	count := 1 << *reportLog
	fmt.Printf("\ndevice: %s; host: %d CPUs (GOMAXPROCS %d); field/gf2n: %v\n", d.Info(), runtime.NumCPU(), runtime.GOMAXPROCS(0), field.Implementations())
	fmt.Printf("batch 2^%d, median of %d device-timed calls after one warm-up\n\n", *reportLog, *reportReps)
	fmt.Printf("| n | design | time | G products/s | = CPU |\n|---|---|---|---|---|\n")
	type hostRow struct {
		n                      int
		design                 Design
		wall, kernel, up, down time.Duration
		ok                     bool
	}
	var hosts []hostRow
	for _, f := range fields(t) {
		x, y := operands(f, count, uint64(f.N()))
		want := make([]uint64, len(x))
		require.NoError(t, f.MulVec(want, x, y))
		dx, dy := gputest.Upload(t, d, x), gputest.Upload(t, d, y)
		dz := gputest.Alloc[uint64](t, d, len(x))
		best, bestDT := PerThread, time.Duration(1<<62)
		got := make([]uint64, len(x))
		for _, design := range Designs {
			m, err := New(d, f, design)
			require.NoError(t, err)
			require.NoError(t, m.MulVec(nil, dz, dx, dy))
			require.NoError(t, dz.Download(got))
			ok := testutil.EqualSlices(t, want, got, "GF(2^%d) %v: the 2^%d batch differs from the CPU", f.N(), design, *reportLog)
			dt := gputest.DeviceTime(t, d, s, 1, *reportReps, 1, func() error { return m.MulVec(s, dz, dx, dy) })
			fmt.Printf("| %d | %v | %.3f ms | %.3f | %v |\n", f.N(), design, ms(dt), gps(count, dt), ok)
			if dt < bestDT {
				best, bestDT = design, dt
			}
		}
		// Per-thread schoolbook on 64-bit words, for comparison (not shipped).
		school, err := schoolKernel(d, f)
		require.NoError(t, err)
		run := func(st *gpu.Stream) error {
			return school.Launch(gpu.LaunchConfig{Grid: gpu.Dim3{X: min((count+threadBlock-1)/threadBlock, d.Info().Multiprocessors*16)}, Block: gpu.Dim3{X: threadBlock}, Stream: st},
				dz, dx, dy, uint64(count), int32(f.Poly()[1]), int32(f.Poly()[2]), int32(f.Poly()[3]))
		}
		require.NoError(t, run(nil))
		require.NoError(t, dz.Download(got))
		ok := testutil.EqualSlices(t, want, got, "GF(2^%d) per-thread schoolbook: the 2^%d batch differs from the CPU", f.N(), *reportLog)
		dt := gputest.DeviceTime(t, d, s, 1, *reportReps, 1, func() error { return run(s) })
		fmt.Printf("| %d | per-thread schoolbook (test only) | %.3f ms | %.3f | %v |\n", f.N(), ms(dt), gps(count, dt), ok)

		// The copies alone, pinned memory, one operand each way.
		hb, err := gpu.AllocHost[uint64](d, len(x))
		require.NoError(t, err)
		up := gputest.DeviceTime(t, d, s, 1, 3, 1, func() error { return dx.UploadAsync(s, hb) })
		down := gputest.DeviceTime(t, d, s, 1, 3, 1, func() error { return dz.DownloadAsync(s, hb) })
		require.NoError(t, hb.Free())
		for _, b := range []*gpu.Buffer[uint64]{dx, dy, dz} {
			require.NoError(t, b.Free())
		}
		// Host to host with the fastest design: median wall time of 3 calls
		// after one that allocates the staging.
		m, err := New(d, f, best)
		require.NoError(t, err)
		z := make([]uint64, len(x))
		require.NoError(t, m.MulVecHost(z, x, y))
		walls := make([]time.Duration, 3)
		for i := range walls {
			t0 := time.Now()
			require.NoError(t, m.MulVecHost(z, x, y))
			walls[i] = time.Since(t0)
		}
		slices.Sort(walls)
		ok = testutil.EqualSlices(t, want, z, "GF(2^%d) MulVecHost differs from the CPU", f.N())
		require.NoError(t, m.Close())
		hosts = append(hosts, hostRow{f.N(), best, walls[1], bestDT, up, down, ok})
	}
	fmt.Printf("\nHost to host (MulVecHost, Go slices, 2 streams, parts of 32 MiB per operand), and the device's parts of it timed apart:\n\n")
	fmt.Printf("| n | design | wall | G products/s | product on device | 2 uploads + 1 download (pinned) | copies / (copies + product) | = CPU |\n|---|---|---|---|---|---|---|---|\n")
	for _, h := range hosts {
		cp := 2*h.up + h.down
		fmt.Printf("| %d | %v | %.1f ms | %.3f | %.2f ms | %.1f ms | %.0f%% | %v |\n", h.n, h.design, ms(h.wall), gps(count, h.wall),
			ms(h.kernel), ms(cp), 100*cp.Seconds()/(cp+h.kernel).Seconds(), h.ok)
	}
}

// BenchmarkCPUMulVec runs field/gf2n's MulVec on all cores on the batch
// size TestReport uses, for the same table: the CPU the GPU is compared
// with on its own host.
func BenchmarkCPUMulVec(b *testing.B) {
	count := 1 << *reportLog
	for _, f := range fields(b) {
		b.Run(fmt.Sprintf("n=%d", f.N()), func(b *testing.B) {
			x, y := operands(f, count, 1)
			z := make([]uint64, len(x))
			b.SetBytes(int64(8 * len(x)))
			b.ReportAllocs()
			for b.Loop() {
				_ = f.MulVec(z, x, y)
			}
			b.ReportMetric(float64(b.N)*float64(count)/b.Elapsed().Seconds()/1e6, "Mprod/s")
		})
	}
}

// schoolSource is a per-thread kernel that multiplies by schoolbook on
// 64-bit words (W² products of gf2n.cu's gf2n_clmul64) instead of
// Karatsuba, with the same reduction: the comparison TestReport prints.
const schoolSource = `
extern "C" __global__ void gf2n_mul_thread_school(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    constexpr int W = GF2N_W;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
        u64 a[W], b[W], p[2 * W];
        for (int k = 0; k < W; k++) { a[k] = x[i * W + k]; b[k] = y[i * W + k]; }
        for (int k = 0; k < 2 * W; k++) p[k] = 0;
        for (int j = 0; j < W; j++) {
#pragma unroll
            for (int k = 0; k < W; k++) {
                u64 lo, hi;
                gf2n_clmul64(a[j], b[k], lo, hi);
                p[j + k] ^= lo;
                p[j + k + 1] ^= hi;
            }
        }
        for (int k = 2 * W - 1; k >= W; k--) {
            u64 t = p[k];
            p[k - W] ^= t ^ (t << e1) ^ (t << e2) ^ (t << e3);
            p[k - W + 1] ^= (t >> (64 - e1)) ^ (t >> (64 - e2)) ^ (t >> (64 - e3));
        }
        for (int k = 0; k < W; k++) z[i * W + k] = p[k];
    }
}
`

// schoolKernel compiles the field's program with schoolSource appended.
func schoolKernel(d *gpu.Device, f *field.Field) (*gpu.Function, error) {
	src, err := cuda.Program(cuda.GF2nProgram(f.N()))
	if err != nil {
		return nil, err
	}
	m, err := d.LoadModule(fmt.Sprintf("gf2n_school_%d.cu", f.N()), src+schoolSource)
	if err != nil {
		return nil, err
	}
	return m.Function("gf2n_mul_thread_school")
}

// TestReportRegisterLevels prints the per-thread design's products per
// second for each largest Karatsuba level kept in registers (GF2N_REGW):
// above it each level is a function over local arrays. Run with
// -gpu.report.
func TestReportRegisterLevels(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	count := 1 << *reportLog
	fmt.Printf("\n| n | words in registers | time | G products/s | = CPU |\n|---|---|---|---|---|\n")
	for _, f := range fields(t) {
		x, y := operands(f, count, uint64(f.N()))
		want := make([]uint64, len(x))
		require.NoError(t, f.MulVec(want, x, y))
		dx, dy := gputest.Upload(t, d, x), gputest.Upload(t, d, y)
		dz := gputest.Alloc[uint64](t, d, len(x))
		got := make([]uint64, len(x))
		src, err := cuda.Program(cuda.GF2nProgram(f.N()))
		require.NoError(t, err)
		for _, regw := range []int{2, 4, 8} {
			if regw > f.Words() {
				continue
			}
			mod, err := d.LoadModule(fmt.Sprintf("gf2n_%d_regw%d.cu", f.N(), regw), fmt.Sprintf("#define GF2N_REGW %d\n", regw)+src)
			require.NoError(t, err)
			fn, err := mod.Function("gf2n_mul_thread")
			require.NoError(t, err)
			run := func(st *gpu.Stream) error {
				return fn.Launch(gpu.LaunchConfig{Grid: gpu.Dim3{X: min((count+threadBlock-1)/threadBlock, d.Info().Multiprocessors*16)}, Block: gpu.Dim3{X: threadBlock}, Stream: st},
					dz, dx, dy, uint64(count), int32(f.Poly()[1]), int32(f.Poly()[2]), int32(f.Poly()[3]))
			}
			require.NoError(t, run(nil))
			require.NoError(t, dz.Download(got))
			ok := testutil.EqualSlices(t, want, got, "GF(2^%d) GF2N_REGW %d differs from the CPU", f.N(), regw)
			dt := gputest.DeviceTime(t, d, s, 1, *reportReps, 1, func() error { return run(s) })
			fmt.Printf("| %d | %d | %.3f ms | %.3f | %v |\n", f.N(), regw, ms(dt), gps(count, dt), ok)
		}
		for _, b := range []*gpu.Buffer[uint64]{dx, dy, dz} {
			require.NoError(t, b.Free())
		}
	}
}
