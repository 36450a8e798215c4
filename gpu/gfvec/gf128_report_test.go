package gfvec

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

func ms(dt time.Duration) float64 { return dt.Seconds() * 1e3 }

// TestVanishingScale checks the host's Z(z)/Z' (the linearized recursion)
// against the plain products over the subspace. No GPU needed.
func TestVanishingScale(t *testing.T) {
	for k := range 11 {
		sub := randomSubspace(t, k, uint64(k)+100)
		v := newVanishing(sub)
		for i, z := range words128(4, uint64(k)) {
			if i == 1 {
				z.A1 = 0
			}
			Z := gf128.One
			for _, x := range sub.Elements() {
				Z = gf128.Mul(Z, gf128.Add(z, gf128.Embed(x)))
			}
			zp := gf64.Element(1)
			for _, x := range sub.Elements()[1:] {
				zp = gf64.Mul(zp, x^sub.Shift())
			}
			require.Equal(t, gf128.MulByBase(Z, gf64.Inverse(zp)), v.scale(z), "k=%d point %d", k, i)
		}
	}
}

// TestEvalRef checks the test's CPU formula against the monomial
// coefficients (domain's IFFT and Horner's rule). No GPU needed.
func TestEvalRef(t *testing.T) {
	for k := range 9 {
		sub := randomSubspace(t, k, uint64(k)+200)
		n := sub.Size()
		cols := gputest.Words[gf64.Element](3*n+1, uint64(k))
		pts := words128(3, uint64(k)+1)
		pts[2] = gf128.Embed(sub.Element(n / 3))
		got := evalRef(cols, n+1, 2, sub, pts)
		for p, z := range pts {
			for c := range 2 {
				require.Equal(t, horner(t, cols[c*(n+1):], sub, z), got[p*2+c], "k=%d point %d column %d", k, p, c)
			}
		}
	}
}

// TestGF128Report prints the GF(2^128) rows of BENCHMARKS.md's GPU section,
// times measured with device events. Run with -gpu.report on a GPU machine.
func TestGF128Report(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	g, err := NewGF128(d)
	require.NoError(t, err)
	g64, err := NewGF64(d, PerThread)
	require.NoError(t, err)
	reps := *reportReps
	fmt.Printf("\ndevice: %s\n", d.Info())

	fmt.Printf("\n| GF(2^128) op | n | time | G elements/s |\n|---|---|---|---|\n")
	for _, lg := range []int{22, 24} {
		n := 1 << lg
		a, b, c := gputest.Upload(t, d, words128(n, 1)), gputest.Upload(t, d, words128(n, 2)), gputest.Alloc[gf128.Element](t, d, n)
		base := gputest.Upload(t, d, gputest.Words[gf64.Element](n, 3))
		k := gf128.Element{A0: 0x1234567890abcdef, A1: 0xfedcba0987654321}
		for _, op := range []struct {
			name string
			f    func() error
		}{
			{"MulVec", func() error { return g.MulVec(s, c, a, b) }},
			{"ScaleVec", func() error { return g.ScaleVec(s, c, a, k) }},
			{"MulByBaseVec", func() error { return g.MulByBaseVec(s, c, a, base) }},
			{"BatchInverse", func() error { return g.BatchInverse(s, c, a) }},
		} {
			dt := gputest.DeviceTime(t, d, s, 2, reps, 1, op.f)
			fmt.Printf("| %s | 2^%d | %.3f ms | %.2f |\n", op.name, lg, ms(dt), gps(n, dt))
		}
		for _, x := range []*gpu.Buffer[gf128.Element]{a, b, c} {
			x.Free()
		}
		base.Free()
	}

	fmt.Printf("\n| combination | columns × rows | time | column GB/s | target |\n|---|---|---|---|---|\n")
	for _, lg := range []int{20, 22} {
		const ncols = 32
		n := 1 << lg
		cols := gputest.Upload(t, d, gputest.Words[gf64.Element](ncols*n, 7))
		dst := gputest.Alloc[gf128.Element](t, d, n)
		dst64 := gputest.Alloc[gf64.Element](t, d, n)
		alpha := words128(ncols, 8)
		alpha64 := gputest.Words[gf64.Element](ncols, 9)
		dt := gputest.DeviceTime(t, d, s, 2, reps, 1, func() error { return g.CombineBase(s, dst, cols, alpha) })
		dt64 := gputest.DeviceTime(t, d, s, 2, reps, 1, func() error { return g64.Combine(s, dst64, cols, alpha64) })
		target := ""
		if lg == 22 {
			target = "≤ 3.5 ms"
		}
		gb := func(dt time.Duration) float64 { return float64(8*ncols*n) / dt.Seconds() / 1e9 }
		fmt.Printf("| GF128.CombineBase | 32 × 2^%d | %.3f ms | %.0f | %s |\n", lg, ms(dt), gb(dt), target)
		fmt.Printf("| GF64.Combine (baseline) | 32 × 2^%d | %.3f ms | %.0f | ratio %.2f× |\n", lg, ms(dt64), gb(dt64), dt.Seconds()/dt64.Seconds())
		cols.Free()
		dst.Free()
		dst64.Free()
	}

	fmt.Printf("\n| EvalSubspace | columns × rows (stride) | points | time | per point | target |\n|---|---|---|---|---|---|\n")
	for _, c := range []struct{ lg, ncols, npts int }{{20, 32, 1}, {20, 32, 2}, {20, 32, 8}, {20, 1, 1}, {20, 8, 1}, {22, 32, 1}, {16, 32, 1}} {
		n := 1 << c.lg
		stride := 4 * n
		sub := randomSubspace(t, c.lg, 3)
		cols := gputest.Upload(t, d, gputest.Words[gf64.Element]((c.ncols-1)*stride+n, 11))
		pts := words128(c.npts, 12)
		dst := gputest.Alloc[gf128.Element](t, d, c.npts*c.ncols)
		dt := gputest.DeviceTime(t, d, s, 2, reps, 1, func() error { return g.EvalSubspace(s, dst, cols, stride, sub, pts) })
		target := ""
		if c.lg == 20 && c.ncols == 32 && c.npts == 1 {
			target = "≤ 0.5 ms"
		}
		fmt.Printf("| GF128.EvalSubspace | %d × 2^%d (4·2^%d) | %d | %.3f ms | %.3f ms | %s |\n", c.ncols, c.lg, c.lg, c.npts, ms(dt), ms(dt)/float64(c.npts), target)
		cols.Free()
		dst.Free()
	}
}

// TestGF128EvalParts times EvalSubspace's kernels one by one on buffers
// allocated once (with -gpu.report): the weights for each chunk of rows per
// inversion, the inner products, the finishing pass, the scratch
// allocation, and the whole call for each chunk.
func TestGF128EvalParts(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.report")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	g, err := NewGF128(d)
	require.NoError(t, err)
	reps := *reportReps
	const ncols = 32
	do := func(f func(q *gpu.Queue) error) func() error { return func() error { return d.Do(s, f) } }
	fmt.Printf("\n| EvalSubspace part | n | time |\n|---|---|---|\n")
	for _, lg := range []int{16, 20, 22} {
		n := 1 << lg
		sub := randomSubspace(t, lg, 3)
		basis := make([]byte, 8*evalMaxDim)
		for j, v := range sub.Basis() {
			binary.LittleEndian.PutUint64(basis[8*j:], uint64(v))
		}
		z := words128(1, 4)[0]
		pts := make([]byte, 768)
		binary.LittleEndian.PutUint64(pts[0:], uint64(z.A0))
		binary.LittleEndian.PutUint64(pts[8:], uint64(z.A1))
		binary.LittleEndian.PutUint64(pts[512:], uint64(gf64.Mul(gf128.C, gf64.Square(z.A1))))
		fin := make([]byte, 896)
		binary.LittleEndian.PutUint64(fin[0:], 1)
		binary.LittleEndian.PutUint64(fin[512:], ^uint64(0))
		w, sum, out := gputest.Alloc[gf128.Element](t, d, n), gputest.Alloc[gf128.Element](t, d, ncols), gputest.Alloc[gf128.Element](t, d, ncols)
		cols := gputest.Upload(t, d, gputest.Words[gf64.Element](ncols*n, 5))
		for lc := 2; lc <= 5; lc++ {
			dt := gputest.DeviceTime(t, d, s, 2, reps, 1, do(func(q *gpu.Queue) error {
				return g.evalWeights(q, w.Ptr(), sum.Ptr(), ncols, lg, lc, 1, sub.Shift(), basis, pts)
			}))
			auto := ""
			if lc == g.evalLogChunk(n) {
				auto = " (chosen)"
			}
			fmt.Printf("| weights, %d rows per inversion%s | 2^%d | %.3f ms |\n", 1<<lc, auto, lg, ms(dt))
		}
		dt := gputest.DeviceTime(t, d, s, 2, reps, 1, do(func(q *gpu.Queue) error {
			return g.evalDot(q, sum.Ptr(), cols.Ptr(), w.Ptr(), n, n, ncols, 1)
		}))
		fmt.Printf("| inner products, 32 columns | 2^%d | %.3f ms |\n", lg, ms(dt))
		dt = gputest.DeviceTime(t, d, s, 2, reps, 1, do(func(q *gpu.Queue) error {
			if err := g.evalWeights(q, w.Ptr(), sum.Ptr(), ncols, lg, g.evalLogChunk(n), 1, sub.Shift(), basis, pts); err != nil {
				return err
			}
			if err := g.evalDot(q, sum.Ptr(), cols.Ptr(), w.Ptr(), n, n, ncols, 1); err != nil {
				return err
			}
			return g.evalFinish(q, out.Ptr(), sum.Ptr(), cols.Ptr(), n, ncols, 1, fin)
		}))
		fmt.Printf("| the three kernels, no scratch | 2^%d | %.3f ms |\n", lg, ms(dt))
		dt = gputest.DeviceTime(t, d, s, 2, reps, 1, do(func(q *gpu.Queue) error {
			return g.evalFinish(q, out.Ptr(), sum.Ptr(), cols.Ptr(), n, ncols, 1, fin)
		}))
		fmt.Printf("| finish, 32 columns | 2^%d | %.3f ms |\n", lg, ms(dt))
		dt = gputest.DeviceTime(t, d, s, 2, reps, 1, do(func(q *gpu.Queue) error {
			return q.Scratch(16*n+16*ncols, func(p gpu.DevicePtr) error {
				return g.evalFinish(q, out.Ptr(), sum.Ptr(), cols.Ptr(), n, ncols, 0, fin)
			})
		}))
		fmt.Printf("| scratch of 16·n bytes and an empty launch | 2^%d | %.3f ms |\n", lg, ms(dt))
		for lc := 2; lc <= 5; lc++ {
			g.logChunk = lc
			dt = gputest.DeviceTime(t, d, s, 2, reps, 1, func() error { return g.EvalSubspace(s, out, cols, n, sub, []gf128.Element{z}) })
			fmt.Printf("| EvalSubspace, 32 columns, %d rows per inversion | 2^%d | %.3f ms |\n", 1<<lc, lg, ms(dt))
		}
		g.logChunk = 0
		for _, x := range []*gpu.Buffer[gf128.Element]{w, sum, out} {
			x.Free()
		}
		cols.Free()
	}
}

func benchmarkEval(b *testing.B, lg, ncols, npts int) {
	d := gputest.Device(b)
	g, err := NewGF128(d)
	require.NoError(b, err)
	n := 1 << lg
	sub := randomSubspace(b, lg, 3)
	cols := gputest.Upload(b, d, gputest.Words[gf64.Element](ncols*n, 11))
	pts := words128(npts, 12)
	dst := gputest.Alloc[gf128.Element](b, d, npts*ncols)
	s, err := d.NewStream()
	require.NoError(b, err)
	defer s.Close()
	b.SetBytes(int64(8 * ncols * n))
	b.ReportAllocs()
	dt := gputest.DeviceTime(b, d, s, 2, max(1, b.N), 1, func() error { return g.EvalSubspace(s, dst, cols, n, sub, pts) })
	b.ReportMetric(dt.Seconds()*1e3, "device-ms/op")
}

func BenchmarkGF128EvalSubspace(b *testing.B) {
	for _, c := range []struct{ lg, ncols, npts int }{{20, 32, 1}, {20, 32, 4}} {
		b.Run(fmt.Sprintf("cols=%d/n=2^%d/points=%d", c.ncols, c.lg, c.npts), func(b *testing.B) { benchmarkEval(b, c.lg, c.ncols, c.npts) })
	}
}

func BenchmarkGF128CombineBase(b *testing.B) {
	d := gputest.Device(b)
	g, err := NewGF128(d)
	require.NoError(b, err)
	const ncols, n = 32, 1 << 22
	cols := gputest.Upload(b, d, gputest.Words[gf64.Element](ncols*n, 7))
	dst := gputest.Alloc[gf128.Element](b, d, n)
	alpha := words128(ncols, 8)
	s, err := d.NewStream()
	require.NoError(b, err)
	defer s.Close()
	b.SetBytes(int64(8 * ncols * n))
	b.ReportAllocs()
	dt := gputest.DeviceTime(b, d, s, 2, max(1, b.N), 1, func() error { return g.CombineBase(s, dst, cols, alpha) })
	b.ReportMetric(dt.Seconds()*1e3, "device-ms/op")
}
