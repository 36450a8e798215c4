package fermat

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/gpu/intntt"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

var (
	report     = flag.Bool("fermat.report", false, "run TestReport: the GPU tables of BENCHMARKS.md (transforms, and products against gpu/intntt)")
	reportReps = flag.Int("fermat.reps", 11, "TestReport: timed repetitions per row (median reported)")
	reportMaxE = flag.Int("fermat.maxe", 6, "TestReport: largest e of N = 16^e")
	variants   = flag.String("fermat.variants", "", "TestReport: kernel variants to check and time beside the default, ';'-separated lists of NAME=VALUE defines put before cuda/fermat.cu (for experiments; the shipped file reads none)")
)

// variant is a Transformer on cuda/fermat.cu as shipped ("default") or
// compiled with defines in front.
type variant struct {
	name string
	t    *Transformer
}

// reportVariants returns the default Transformer and one per
// -fermat.variants entry.
func reportVariants(t *testing.T) []variant {
	vs := []variant{{"default", transformer(t)}}
	if *variants == "" {
		return vs
	}
	d := gputest.Device(t)
	src, err := cuda.Program(cuda.FermatProgram)
	require.NoError(t, err)
	for _, v := range strings.Split(*variants, ";") {
		var defs strings.Builder
		for _, kv := range strings.Split(v, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
			require.True(t, ok, "variant %q: NAME=VALUE", kv)
			fmt.Fprintf(&defs, "#define %s %s\n", name, val)
		}
		t0 := time.Now()
		mod, err := d.LoadModule("fermat_variant_"+strings.NewReplacer("=", "", ",", "_").Replace(v)+".cu", defs.String()+src)
		require.NoError(t, err, v)
		tr, err := newWith(d, mod)
		require.NoError(t, err, v)
		t.Cleanup(func() { tr.Close() })
		fmt.Printf("variant %s: compiled and loaded in %v\n", v, time.Since(t0).Round(time.Millisecond))
		vs = append(vs, variant{v, tr})
	}
	return vs
}

// hostTime returns the median wall time of reps calls of f after one warm
// call.
func hostTime(t *testing.T, reps int, f func() error) time.Duration {
	t.Helper()
	require.NoError(t, f())
	ts := make([]time.Duration, reps)
	for i := range ts {
		t0 := time.Now()
		require.NoError(t, f())
		ts[i] = time.Since(t0)
	}
	slices.Sort(ts)
	return ts[reps/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.4g", float64(d.Nanoseconds())/1e6) }

// TestReport prints the tables of BENCHMARKS.md: the transforms with data
// on the device (device events, median of -fermat.reps after warm-up)
// against field/fermat on the host's cores and the seed's GTX 760M; then
// the seed's comparison: the same product of two integers of N/2·240 bits
// by the Fermat-prime FFT (this package) and by gpu/intntt (31-bit primes
// and CRT, poly/intpoly's accelerator), host to host and on the device.
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("the report runs with -fermat.report")
	}
	tr := transformer(t)
	vs := reportVariants(t)
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	reps := *reportReps
	// Every variant against the CPU at lengths that take each first pass
	// (radix 2, 4, 8, 16) and both output layouts of the radix-16 pass.
	for _, k := range []int{1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21} {
		a := randVec(1<<k, uint64(200+k))
		want := append([]field.Element(nil), a...)
		require.NoError(t, field.FFT(want))
		wantI := append([]field.Element(nil), a...)
		require.NoError(t, field.IFFT(wantI))
		buf := gputest.Upload(t, d, a)
		for _, v := range vs {
			require.NoError(t, buf.Upload(a))
			require.NoError(t, v.t.FFT(nil, buf))
			got := gputest.Download(t, buf)
			assert.True(t, equal(want, got), "%s, 2^%d: GPU FFT differs from the CPU's at %d", v.name, k, firstDiff(want, got))
			require.NoError(t, buf.Upload(a))
			require.NoError(t, v.t.IFFT(nil, buf))
			got = gputest.Download(t, buf)
			assert.True(t, equal(wantI, got), "%s, 2^%d: GPU IFFT differs from the CPU's at %d", v.name, k, firstDiff(wantI, got))
		}
		require.NoError(t, buf.Free())
	}
	seed := map[int]string{2: "0.038", 3: "0.384", 4: "22.4", 5: "468"}
	target := map[int]string{4: "≤ 0.1", 5: "≤ 2", 6: "≤ 50"}
	fmt.Printf("\n%s; host %d cores (GOMAXPROCS)\n", d.Info().String(), runtime.GOMAXPROCS(0))
	fmt.Println("| N | kernels | GPU FFT ms | GPU IFFT ms | target ms | seed GTX 760M ms | CPU FFT ms (host cores) | CPU / GPU FFT |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for e := 2; e <= *reportMaxE; e++ {
		n := 1 << (4 * e)
		a := randVec(n, uint64(100+e))
		cr := 3
		if e >= 6 {
			cr = 1
		}
		var want []field.Element
		cpu := hostTime(t, cr, func() error {
			want = append(want[:0], a...)
			return field.FFT(want)
		})
		buf := gputest.Upload(t, d, a)
		inner := max(1, min(50, (1<<20)/n))
		for _, v := range vs {
			fft := gputest.DeviceTime(t, d, s, 2, reps, inner, func() error { return v.t.FFT(s, buf) })
			ifft := gputest.DeviceTime(t, d, s, 2, reps, inner, func() error { return v.t.IFFT(s, buf) })
			require.NoError(t, s.Synchronize())
			// The device result of a forward transform equals the CPU's.
			require.NoError(t, buf.Upload(a))
			require.NoError(t, v.t.FFT(nil, buf))
			got := gputest.Download(t, buf)
			assert.True(t, equal(want, got), "%s, 16^%d: GPU FFT differs from the CPU's at %d", v.name, e, firstDiff(want, got))
			fmt.Printf("| 16^%d | %s | %s | %s | %s | %s | %s | %.1f |\n", e, v.name, ms(fft), ms(ifft), or(target[e], "–"), or(seed[e], "–"), ms(cpu), float64(cpu)/float64(fft))
		}
		require.NoError(t, buf.Free())
	}

	acc, err := intntt.New(d)
	require.NoError(t, err)
	defer acc.Close()
	fmt.Println()
	fmt.Println("| N | bits | fermat GPU device ms | intntt GPU device ms | fermat / intntt device | fermat GPU host to host ms | intntt GPU host to host ms | intpoly CPU ms | fermat CPU ms |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	r := rand.New(rand.NewPCG(21, 22))
	for e := 2; e <= *reportMaxE; e++ {
		N := 1 << (4 * e)
		bits := N / 2 * 240
		x, y := randBig(r, bits), randBig(r, bits)
		hr := 3
		if e >= 6 {
			hr = 1
		}
		// Host to host.
		var pf, pi *big.Int
		fh := hostTime(t, hr, func() error {
			var err error
			pf, err = tr.MulBig(x, y)
			return err
		})
		ih, ierr := "–", ""
		if _, err := intpoly.MulBig(x, y, intpoly.WithAccelerator(acc)); err != nil {
			ierr = err.Error()
		} else {
			ih = ms(hostTime(t, hr, func() error {
				var err error
				pi, err = intpoly.MulBig(x, y, intpoly.WithAccelerator(acc))
				return err
			}))
			assert.Zero(t, pf.Cmp(pi), "16^%d: fermat and intntt products differ", e)
		}
		cpuI, cpuF := "–", "–"
		if e <= 5 {
			var pc *big.Int
			t0 := time.Now()
			pc, err = intpoly.MulBig(x, y)
			require.NoError(t, err)
			cpuI = ms(time.Since(t0))
			assert.Zero(t, pf.Cmp(pc), "16^%d: GPU product differs from intpoly's CPU product", e)
			t0 = time.Now()
			_, err = field.MulBig(x, y)
			require.NoError(t, err)
			cpuF = ms(time.Since(t0))
		} else {
			pc, err := intpoly.MulBig(x, y)
			require.NoError(t, err)
			assert.Zero(t, pf.Cmp(pc), "16^%d: GPU product differs from intpoly's CPU product", e)
		}
		// On the device: the operands already there.
		xw, yw := words(x), words(y)
		sh, err := newShape(x.BitLen(), y.BitLen(), len(xw), len(yw))
		require.NoError(t, err)
		require.Equal(t, 4*e, sh.k, "transform length")
		dx, dy := gputest.Upload(t, d, xw), gputest.Upload(t, d, yw)
		var fd time.Duration
		var fdv []string
		for _, v := range vs {
			dt := gputest.DeviceTime(t, d, s, 1, reps, 1, func() error {
				_, err := v.t.mulWordsDevice(s, dx, dy, sh, false)
				return err
			})
			if v.t == tr {
				fd = dt
			} else {
				fdv = append(fdv, v.name+": "+ms(dt))
			}
			if e <= 5 { // the variant's product equals the default's
				lohi, err := v.t.mulWordsDevice(s, dx, dy, sh, false)
				require.NoError(t, err)
				require.NoError(t, s.Synchronize())
				lh := gputest.Download(t, lohi)
				zb, z := newWords(sh.nz)
				require.Zero(t, carryPass(z, lh[:sh.nz], lh[sh.nz:]))
				assert.Zero(t, fromWords(zb, z).Cmp(pf), "%s, 16^%d: device product", v.name, e)
			}
		}
		if len(fdv) > 0 {
			fmt.Printf("variants' device products, 16^%d: %s ms\n", e, strings.Join(fdv, ", "))
		}
		// intntt: the same product as polynomials of N/2 coefficients of
		// 240 bits (width 4), product coefficients of 8 words.
		m := N / 2
		px, py := chunks240(xw, m), chunks240(yw, m)
		ipx, ipy := gputest.Upload(t, d, px), gputest.Upload(t, d, py)
		ipd := gputest.Alloc[uint64](t, d, (2*m-1)*8)
		shI := intntt.Shape{WidthA: 4, WidthB: 4, WidthDst: 8, BitsA: 240, BitsB: 240}
		idv, ratio := "–", "–"
		if err := acc.MulPackedDevice(s, ipd, ipx, ipy, shI); err != nil {
			idv = "error: " + err.Error()
		} else {
			id := gputest.DeviceTime(t, d, s, 1, reps, 1, func() error { return acc.MulPackedDevice(s, ipd, ipx, ipy, shI) })
			idv = ms(id)
			ratio = fmt.Sprintf("%.2f", float64(fd)/float64(id))
		}
		if ierr != "" {
			ih = "error: " + ierr
		}
		fmt.Printf("| 16^%d | %d | %s | %s | %s | %s | %s | %s | %s |\n", e, bits, ms(fd), idv, ratio, ms(fh), ih, cpuI, cpuF)
	}
}

func or(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// chunks240 cuts the integer w into m coefficients of 240 bits, 4 words
// each (intpoly.Packed's layout, width 4, all non-negative).
func chunks240(w []uint64, m int) []uint64 {
	out := make([]uint64, 4*m)
	for i := range m {
		off := 240 * i
		for j := range 4 {
			if lo := 64 * j; lo < 240 {
				v := bitsAt(w, off+lo)
				if 240-lo < 64 {
					v &= 1<<(240-lo) - 1
				}
				out[4*i+j] = v
			}
		}
	}
	return out
}

// bitsAt returns the 64 bits of w from bit off (zeros past the end).
func bitsAt(w []uint64, off int) uint64 {
	q, s := off/64, uint(off%64)
	var lo, hi uint64
	if q < len(w) {
		lo = w[q]
	}
	if q+1 < len(w) {
		hi = w[q+1]
	}
	if s == 0 {
		return lo
	}
	return lo>>s | hi<<(64-s)
}
