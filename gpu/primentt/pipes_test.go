package primentt

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var pipeProbe = flag.Bool("gpu.pipes", false, "run TestBN254Pipes: BN254's Shoup product beside 52-bit partial products on the FP64 pipe")

// pipeSrc is compiled after the BN254 program. Each thread runs two
// independent chains x = x·w mod q by Shoup's product (bn254_shoup, the
// four-step passes' product; w one constant per launch) and, in the same
// loop, P partial products of 52-bit integers held in doubles, as a product
// in radix 2^52 would compute them on the FP64 pipe: h = fma(a, b, 2^104)
// rounds a·b to a multiple of 2^52, hs = h − 2^104 is that high part
// exactly, l = fma(a, b, −hs) the exact low part, and both are summed as
// 64-bit integers (their bit patterns, as the column sums of such a product
// are kept). The kernels use the passes' launch bounds (256 threads, 3
// blocks per multiprocessor), so the time shows whether the partial
// products run beside the Shoup products, which keep the FMA-heavy pipe
// busy (IMAD.WIDE), or take their time from them.
const pipeSrc = `
template <bool PROD, int P>
__device__ __forceinline__ void pipe_probe(Fr8 *x, const Sh8 *c, const double *ab, unsigned long long *acc, int iters) {
    const u32 id = blockIdx.x * blockDim.x + threadIdx.x;
    Fr8 x0 = x[2 * id], x1 = x[2 * id + 1];
    const Sh8 w = c[0];
    double a[4];
    unsigned long long s[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        a[k] = ab[4 * id + k];
        s[k] = 0;
    }
    double b = ab[4 * (gridDim.x * blockDim.x) + id];
    const double c1 = 20282409603651670423947251286016.0; // 2^104
    for (int i = 0; i < iters; i++) {
        if (PROD) {
            Fr8 y0, y1;
            bn254x32_shoup(y0.l, x0.l, w.w.l, w.s.l);
            bn254x32_shoup(y1.l, x1.l, w.w.l, w.s.l);
            x0 = y0;
            x1 = y1;
        }
#pragma unroll
        for (int j = 0; j < P / 4; j++) {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const double h = __fma_rn(a[k], b, c1);
                const double hs = __dsub_rn(h, c1);
                const double l = __fma_rn(a[k], b, -hs);
                s[k] += (unsigned long long)__double_as_longlong(h) + (unsigned long long)__double_as_longlong(l);
            }
            b = __dadd_rn(b, 1.0);
        }
    }
    if (PROD) {
        x[2 * id] = x0;
        x[2 * id + 1] = x1;
    }
#pragma unroll
    for (int k = 0; k < 4; k++) acc[4 * id + k] = s[k];
}
#define PIPE_PROBE(NAME, PROD, P)                                                                 \
    extern "C" __global__ void __launch_bounds__(256, 3) NAME(Fr8 *x, const Sh8 *c, const double *ab, \
                                                              unsigned long long *acc, int iters) { \
        pipe_probe<PROD, P>(x, c, ab, acc, iters);                                                \
    }
PIPE_PROBE(pipe_p0, true, 0)
PIPE_PROBE(pipe_p16, true, 16)
PIPE_PROBE(pipe_p32, true, 32)
PIPE_PROBE(pipe_p48, true, 48)
PIPE_PROBE(pipe_p64, true, 64)
PIPE_PROBE(pipe_f32, false, 32)
PIPE_PROBE(pipe_f64, false, 64)
`

// pipePartials computes on the host what pipe_probe's partial products sum
// to for one thread: the same IEEE operations (math.FMA rounds once, as
// the device's fma does).
func pipePartials(a [4]float64, b float64, p, iters int) [4]uint64 {
	const c1 = 1 << 104
	var s [4]uint64
	for range iters {
		for range p / 4 {
			for k := range 4 {
				h := math.FMA(a[k], b, c1)
				hs := h - c1
				l := math.FMA(a[k], b, -hs)
				s[k] += math.Float64bits(h) + math.Float64bits(l)
			}
			b++
		}
	}
	return s
}

// TestBN254Pipes measures the rate of Shoup's BN254 product at the
// passes' occupancy with and without 52-bit partial products on the FP64
// pipe in the same loop, checks the products against math/big and the
// partial products against the host's IEEE arithmetic, and prints one
// table. Run with -gpu.pipes.
func TestBN254Pipes(t *testing.T) {
	if !*pipeProbe {
		t.Skip("run with -gpu.pipes")
	}
	d := gputest.Device(t)
	src, err := cuda.Program(cuda.NTTProgram("bn254"))
	require.NoError(t, err)
	m, err := d.LoadModule("bn254_pipes.cu", src+"\n"+pipeSrc)
	require.NoError(t, err)
	st, err := d.NewStream()
	require.NoError(t, err)
	defer st.Close()

	const block, iters = 256, 128
	blocks := 3 * 4 * d.Info().Multiprocessors
	threads := blocks * block

	// x: 2 chains per thread; c: the constant w (plain) and floor(w·2^256/q)
	xs := make([]fr.Element, 2*threads)
	for i := range xs {
		xs[i].SetUint64(uint64(i) + 1)
		xs[i] = fr.Element(xs[i].Bits())
	}
	var w fr.Element
	_, err = w.SetString("1234567890123456789012345678901234567890")
	require.NoError(t, err)
	var z bn254Shoup
	cw, cs := z.pair(w)
	cb := gputest.Upload(t, d, []fr.Element{cw, cs})
	ab := make([]float64, 5*threads)
	for i := range ab {
		// 52-bit integers, as a radix-2^52 product's limbs
		ab[i] = float64(uint64(i)*0x9e3779b97f4a7c15>>12 | 1<<51)
	}
	abb := gputest.Upload(t, d, ab)
	acc := gputest.Alloc[uint64](t, d, 4*threads)
	xb := gputest.Alloc[fr.Element](t, d, 2*threads)

	fmt.Printf("\ndevice: %s\n%d blocks of %d threads (3 per multiprocessor), %d iterations\n\n", d.Info(), blocks, block, iters)
	fmt.Printf("| kernel | Shoup products per iteration | 52-bit partial products per iteration | time | G Shoup products/s | G partial products/s | time against no partial products |\n|---|---|---|---|---|---|---|\n")
	var base float64
	for _, k := range []struct {
		fn       string
		prod     bool
		partials int
	}{{"pipe_p0", true, 0}, {"pipe_p16", true, 16}, {"pipe_p32", true, 32}, {"pipe_p48", true, 48}, {"pipe_p64", true, 64}, {"pipe_f32", false, 32}, {"pipe_f64", false, 64}} {
		f, err := m.Function(k.fn)
		require.NoError(t, err)
		cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: blocks}, Block: gpu.Dim3{X: block}, Stream: st}
		run := func() error { return f.Launch(cfg, xb, cb, abb, acc, int32(iters)) }
		sec := gputest.DeviceTime(t, d, st, 1, 7, 1, run).Seconds()

		// check one launch from the start: both chains of a sample of
		// threads, and their partial sums
		require.NoError(t, xb.Upload(xs))
		require.NoError(t, run())
		require.NoError(t, st.Synchronize())
		gotX := gputest.Download(t, xb)
		gotS := gputest.Download(t, acc)
		var wi, q big.Int
		w.BigInt(&wi)
		q.Set(fr.Modulus())
		wn := new(big.Int).Exp(&wi, big.NewInt(iters), &q)
		for _, id := range []int{0, 1, block - 1, block, threads/2 + 7, threads - 1} {
			for c := range 2 {
				x0 := new(big.Int).SetUint64(uint64(2*id+c) + 1)
				want := new(big.Int).Mul(x0, wn)
				want.Mod(want, &q)
				got := limbsBig32(limbs32(gotX[2*id+c]))
				if k.prod {
					require.True(t, got.Cmp(new(big.Int).Lsh(&q, 1)) < 0, "%s: thread %d chain %d above 2q", k.fn, id, c)
					require.Zero(t, want.Cmp(got.Mod(got, &q)), "%s: thread %d chain %d: x·w^%d", k.fn, id, c, iters)
				}
			}
			var a [4]float64
			copy(a[:], ab[4*id:4*id+4])
			want := pipePartials(a, ab[4*threads+id], k.partials, iters)
			require.Equal(t, want[:], gotS[4*id:4*id+4], "%s: thread %d partial products", k.fn, id)
		}

		prods := 0
		if k.prod {
			prods = 2
		}
		if k.fn == "pipe_p0" {
			base = sec
		}
		rate := func(per int) string {
			if per == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f", float64(threads*iters*per)/sec/1e9)
		}
		fmt.Printf("| %s | %d | %d | %.3f ms | %s | %s | %.2f× |\n", k.fn, prods, k.partials, sec*1e3, rate(prods), rate(k.partials), sec/base)
	}
}
