package primentt

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	extReport   = flag.Bool("gpu.extreport", false, "run TestExtReport: the CombineExt and EvalCoset rows for BENCHMARKS.md")
	extFieldsF  = flag.String("gpu.extfields", "babybear,koalabear,goldilocks,bn254", "TestExtReport: fields")
	extVariantF = flag.Bool("gpu.extvariants", false, "TestExtReport: time variants of EvalCoset's partial-sum kernel (BabyBear)")
)

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
	for _, f := range strings.Split(*extFieldsF, ",") {
		switch f {
		case "babybear":
			extReportField(t, d, babybearExt(), true)
		case "koalabear":
			extReportField(t, d, koalabearExt(), false)
		case "goldilocks":
			extReportField(t, d, goldilocksExt(), false)
		case "bn254":
			extReportField(t, d, bn254Ext(), false)
		}
	}
	if *extVariantF {
		extVariants(t, d)
	}
}

// extVariants times variants of eval_partial on BabyBear, 32 columns of
// 2^20 points read with steps 1 and 4: K coset points per thread, NP
// extension points per block, and launch bounds asking for minB blocks per
// multiprocessor; the kernel alone, the partial sums checked against
// EvalCoset's results.
func extVariants(t *testing.T, d *gpu.Device) {
	c := babybearExt()
	type variant struct{ k, np, minB int }
	vs := []variant{{8, 1, 0}, {4, 1, 0}, {16, 1, 0}, {8, 1, 3}, {4, 2, 0}, {8, 2, 2}, {4, 2, 2}}
	src, err := cuda.Program(cuda.ExtProgram("babybear"))
	require.NoError(t, err)
	for _, v := range vs {
		lb := "EVAL_THREADS"
		if v.minB > 0 {
			lb = fmt.Sprintf("EVAL_THREADS, %d", v.minB)
		}
		src += fmt.Sprintf(`
extern "C" __global__ void __launch_bounds__(%s) t_partial_%d_%d_%d(const u32 *cols, u64 colStride, u64 step, u32 n, u32 ncols,
    EvalPow<BabyBearExt4> pw, EvalPoints<BabyBearExt4> pts, u32 m, U4 *part) {
    eval_partial<BabyBearExt4, %d, %d>(cols, colStride, step, n, ncols, pw, pts, m, part);
}
`, lb, v.k, v.np, v.minB, v.k, v.np)
	}
	m, err := d.LoadModule("ext_variants_babybear.cu", src)
	require.NoError(t, err)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	const ncols, n = 32, 1 << 20
	host := primeRandom(c.base, ncols*n*4, 45)
	cols := gputest.Upload(t, d, host)
	fmt.Println("| eval_partial variant (BabyBear, 32 × 2^20) | step | blocks/SM | kernel time | per point |")
	fmt.Println("|---|---|---|---|---|")
	for _, step := range []int{1, 4} {
		cs, err := LDECoset[babybear.Element](c.base.domain(uint64(n*step), nil), step)
		require.NoError(t, err)
		view, err := cols.View(0, ncols*n*step)
		require.NoError(t, err)
		r := newRand(uint64(10 + step))
		pts := []bbext.E4{c.random(r), c.random(r)}
		want := gputest.Alloc[bbext.E4](t, d, 2*ncols)
		require.NoError(t, EvalCoset(nil, want, view, ncols, cs, pts))
		wantH := gputest.Download(t, want)
		plan, err := planArgs(2*ncols, ncols*n*step, ncols, cs, pts)
		require.NoError(t, err)
		z := append(extOperand(pts[0]), extOperand(pts[1])...)
		z = append(z, make([]byte, 16*(evalMax-2))...)
		for _, v := range vs {
			fn, err := m.Function(fmt.Sprintf("t_partial_%d_%d_%d", v.k, v.np, v.minB))
			require.NoError(t, err)
			occ, err := fn.MaxActiveBlocksPerSM(evalThreads, 0)
			require.NoError(t, err)
			nb := (n + v.k*evalThreads - 1) / (v.k * evalThreads)
			part := gputest.Alloc[bbext.E4](t, d, v.np*ncols*nb)
			cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: nb, Y: 1}, Block: gpu.Dim3{X: evalThreads}, Stream: s}
			ns := float64(gputest.DeviceTime(t, d, s, 2, 9, 8, func() error {
				return fn.Launch(cfg, view, uint64(n*step), uint64(step), uint32(n), uint32(ncols), plan.pow, z, uint32(v.np), part)
			}).Nanoseconds())
			ph := gputest.Download(t, part)
			for p := range v.np {
				for col := range ncols {
					var sum bbext.E4
					for b := range nb {
						sum = c.add(sum, ph[(p*ncols+col)*nb+b])
					}
					require.Equal(t, wantH[p*ncols+col], c.mul(sum, plan.scale[p]), "K=%d NP=%d step %d point %d column %d", v.k, v.np, step, p, col)
				}
			}
			fmt.Printf("| K=%d NP=%d minBlocks=%d | %d | %d | %.3f ms | %.3f ms |\n", v.k, v.np, v.minB, step, occ, ns/1e6, ns/1e6/float64(v.np))
		}
	}
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
	for _, k := range []string{"combine_ext", "eval_partial1", "eval_sum"} {
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
