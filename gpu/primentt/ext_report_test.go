package primentt

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var extReport = flag.Bool("gpu.extreport", false, "run TestExtReport: the CombineExt and EvalCoset rows for BENCHMARKS.md")

// TestExtReport prints BENCHMARKS.md's rows of the extension-field
// kernels: device times (events, 2 warm calls, median of 9 samples of 8
// calls) of CombineExt on 32 columns of 2^22 (with the base Combine of the
// same columns for comparison) and of EvalCoset on 32 columns of 2^20
// points, read with steps 1 and 4 (an LDE of 2^22 rows with blowup 4), at
// one and two points, the data on the device. GB/s counts the bytes the
// call needs (each column element it reads once, the results), not the
// sectors a step above 1 touches. Every EvalCoset row's first column at its
// first point is checked against the CPU formula where that costs under a
// second. Run with -gpu.extreport on a GPU machine.
func TestExtReport(t *testing.T) {
	if !*extReport {
		t.Skip("run with -gpu.extreport")
	}
	d := gputest.Device(t)
	fmt.Println("| operation | field | columns × rows | points | step | device time | GB/s |")
	fmt.Println("|---|---|---|---|---|---|---|")
	extReportField(t, d, babybearExt(), true)
	extReportField(t, d, koalabearExt(), false)
	extReportField(t, d, goldilocksExt(), false)
	extReportField(t, d, bn254Ext(), false)
}

func extReportField[E Element, X Ext](t *testing.T, d *gpu.Device, c extCase[E, X], base bool) {
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	es, xs := int(unsafe.Sizeof(*new(E))), int(unsafe.Sizeof(*new(X)))
	const ncols = 32
	logN := 22
	if es == 32 {
		logN = 20 // BN254: 1 GiB of columns
	}
	N := 1 << logN
	host := primeRandom(c.base, ncols*N, 44)
	cols := gputest.Upload(t, d, host)
	r := func(ns float64, bytes int) string {
		return fmt.Sprintf("%.3f ms | %.0f", ns/1e6, float64(bytes)/ns)
	}
	dev := func(f func() error) float64 {
		return float64(gputest.DeviceTime(t, d, s, 2, 9, 8, f).Nanoseconds())
	}
	if es != 32 {
		dst := gputest.Alloc[X](t, d, N)
		alpha := make([]X, ncols)
		rr := newRand(1)
		for j := range alpha {
			alpha[j] = c.random(rr)
		}
		ns := dev(func() error { return CombineExt(s, dst, cols, alpha) })
		fmt.Printf("| CombineExt | %s | %d × 2^%d | — | — | %s |\n", c.base.name, ncols, logN, r(ns, ncols*N*es+N*xs))
		if base {
			bdst := gputest.Alloc[E](t, d, N)
			balpha := make([]E, ncols)
			for j := range balpha {
				balpha[j] = c.base.random(rr)
			}
			ns := dev(func() error { return Combine(s, bdst, cols, balpha) })
			fmt.Printf("| Combine (base coefficients) | %s | %d × 2^%d | — | — | %s |\n", c.base.name, ncols, logN, r(ns, ncols*N*es+N*es))
		}
	}
	m, err := d.Module(cuda.ExtProgram(c.base.name))
	require.NoError(t, err)
	for _, k := range []string{"combine_ext", "eval_partial1", "eval_partial2", "eval_sum"} {
		fn, err := m.Function("ntt_" + c.base.name + "_" + k)
		require.NoError(t, err)
		b, err := fn.MaxActiveBlocksPerSM(256, 0)
		require.NoError(t, err)
		fmt.Printf("<!-- %s %s: %d blocks of 256 per SM -->\n", c.base.name, k, b)
	}
	for _, step := range []int{1, 4} {
		n := 1 << 20
		if es == 32 && step > 1 {
			continue
		}
		cs, err := LDECoset[E](c.base.domain(uint64(n*step), nil), step)
		require.NoError(t, err)
		view, err := cols.View(0, ncols*n*step)
		require.NoError(t, err)
		rr := newRand(uint64(step))
		for _, npts := range []int{1, 2} {
			pts := make([]X, npts)
			for k := range pts {
				pts[k] = c.random(rr)
			}
			dst := gputest.Alloc[X](t, d, npts*ncols)
			ns := dev(func() error { return EvalCoset(s, dst, view, ncols, cs, pts) })
			fmt.Printf("| EvalCoset | %s | %d × 2^20 | %d | %d | %s |\n", c.base.name, ncols, npts, step, r(ns, npts*ncols*n*es))
			if npts == 1 && es != 32 {
				xsC := c.refCoset(cs)
				w, _ := c.refWeights(cs, xsC, pts[0])
				var want X
				for i := range n {
					want = c.add(want, c.mulBase(w[i], host[i*step]))
				}
				got := gputest.Download(t, dst)
				testutil.RequireEqualSlices(t, []X{want}, got[:1], "%s 2^20 step %d", c.base.name, step)
			}
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }
