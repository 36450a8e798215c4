package additive

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var fftCeiling = flag.Bool("gpu.fftceiling", false, "run TestFFTProductCeiling: the fastest rate of each GF(2^64) product of fft.cu, data in registers")

// ceilingSrc is compiled after gf64.cu and fft.cu. Each thread runs four
// independent chains x = w*x ^ 1 for iters steps, with no memory traffic
// but the result: the rate of fft.cu's two products at full occupancy.
// probe_tab multiplies by one w per block through its product table in
// shared memory (every lane of a warp reads the same table, as in the
// FFT's table levels); probe_int by a w of its own per chain through
// fft_mul (as in the levels without tables).
const ceilingSrc = `
extern "C" __global__ void probe_tab(u64 *out, const u64 *w, int iters) {
    __shared__ __align__(256) char tab[FFT_TAB_BYTES];
    const u64 wb = w[blockIdx.x];
    if (threadIdx.x < 16) fft_tab_build(tab, wb, threadIdx.x);
    __syncthreads();
    const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    u64 x0 = id, x1 = id + 1, x2 = id + 2, x3 = id + 3;
    for (int i = 0; i < iters; i++) {
        x0 = fft_tab_mul(tab, 0, x0) ^ 1;
        x1 = fft_tab_mul(tab, 0, x1) ^ 1;
        x2 = fft_tab_mul(tab, 0, x2) ^ 1;
        x3 = fft_tab_mul(tab, 0, x3) ^ 1;
    }
    out[4 * id] = x0; out[4 * id + 1] = x1; out[4 * id + 2] = x2; out[4 * id + 3] = x3;
}

extern "C" __global__ void probe_int(u64 *out, const u64 *w, int iters) {
    const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    const u64 w0 = w[4 * id], w1 = w[4 * id + 1], w2 = w[4 * id + 2], w3 = w[4 * id + 3];
    u64 x0 = id, x1 = id + 1, x2 = id + 2, x3 = id + 3;
    for (int i = 0; i < iters; i++) {
        x0 = fft_mul(w0, x0) ^ 1;
        x1 = fft_mul(w1, x1) ^ 1;
        x2 = fft_mul(w2, x2) ^ 1;
        x3 = fft_mul(w3, x3) ^ 1;
    }
    out[4 * id] = x0; out[4 * id + 1] = x1; out[4 * id + 2] = x2; out[4 * id + 3] = x3;
}
`

// TestFFTProductCeiling measures how many GF(2^64) products per second the
// FFT's two products reach with data in registers (no loads, stores,
// twiddle lookups, index arithmetic or barriers), checks the results
// against field/gf64, and prints the time a transform's products alone
// would take at that rate: a novel-basis transform of 2^m points does
// m·2^(m−1) products. Run with -gpu.fftceiling.
func TestFFTProductCeiling(t *testing.T) {
	if !*fftCeiling {
		t.Skip("run with -gpu.fftceiling")
	}
	d := gputest.Device(t)
	src, err := cuda.Program("fft.cu")
	require.NoError(t, err)
	m, err := d.LoadModule("fft_ceiling.cu", src+"\n"+ceilingSrc)
	require.NoError(t, err)
	st, err := d.NewStream()
	require.NoError(t, err)
	defer st.Close()
	const block, iters = 256, 256
	blocks := 8 * d.Info().Multiprocessors
	threads := blocks * block
	products := 4 * threads * iters
	fmt.Printf("\ndevice: %s\n\n| product | G products/s | 2^24 transform's products alone | 2^28 |\n|---|---|---|---|\n", d.Info())
	for _, k := range []struct {
		name, fn string
		ws       int // twiddles: one per block or one per chain
	}{{"table (fft_tab_mul, 16 lookups)", "probe_tab", blocks}, {"integer (fft_mul, Karatsuba, classes with holes)", "probe_int", 4 * threads}} {
		f, err := m.Function(k.fn)
		require.NoError(t, err)
		ws := gputest.Words[gf64.Element](k.ws, 5)
		wb := gputest.Alloc[gf64.Element](t, d, len(ws))
		require.NoError(t, wb.Upload(ws))
		out := gputest.Alloc[gf64.Element](t, d, 4*threads)
		cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: blocks}, Block: gpu.Dim3{X: block}, Stream: st}
		dt := gputest.DeviceTime(t, d, st, 2, 7, 1, func() error { return f.Launch(cfg, out, wb, int32(iters)) })
		// Check a sample of the chains against field/gf64.
		got := make([]gf64.Element, 4*threads)
		require.NoError(t, out.Download(got))
		for _, id := range []int{0, 1, block - 1, block, threads/2 + 7, threads - 1} {
			for c := range 4 {
				w := ws[id/block]
				if k.fn == "probe_int" {
					w = ws[4*id+c]
				}
				x := gf64.Element(id + c)
				for range iters {
					x = gf64.Mul(w, x) ^ 1
				}
				require.Equal(t, x, got[4*id+c], "%s: thread %d chain %d against gf64.Mul", k.fn, id, c)
			}
		}
		rate := float64(products) / dt.Seconds()
		fmt.Printf("| %s | %.1f | %.3f ms | %.2f ms |\n", k.name, rate/1e9,
			float64(24<<23)/rate*1e3, float64(28<<27)/rate*1e3)
		wb.Free()
		out.Free()
	}
}
