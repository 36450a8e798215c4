package gpu

import (
	"fmt"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

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
	d := testDevice(t)
	m, err := d.LoadModule("variants.cu", clmulVariants)
	must(t, err)
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	const n = 1 << 26
	a, b := randomWords[gf64.Element](n, 21), randomWords[gf64.Element](n, 22)
	want := make([]gf64.Element, n)
	parallel(n, func(lo, hi int) { gf64.MulVec(want[lo:hi], a[lo:hi], b[lo:hi]) })
	da, db, dc := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
	defer da.Free()
	defer db.Free()
	defer dc.Free()
	must(t, da.Upload(a))
	must(t, db.Upload(b))
	got := make([]gf64.Element, n)
	fmt.Printf("\n| per-thread product variant | n | G products/s |\n|---|---|---|\n")
	for _, name := range []string{"mul4", "mul5", "mul6"} {
		f, err := m.Function(name)
		must(t, err)
		cfg := LaunchConfig{Grid: Dim3{X: d.Info().Multiprocessors * 32}, Block: Dim3{X: 256}, Stream: s}
		launch := func() error { return f.Launch(cfg, dc, da, db, uint64(n)) }
		dt := deviceTime(t, d, s, 3, 15, 1, launch)
		must(t, s.Synchronize())
		must(t, dc.Download(got))
		ok := firstDiff(got, want) < 0
		fmt.Printf("| %s (correct: %v) | 2^26 | %.2f |\n", name, ok, gps(n, dt))
		if !ok {
			t.Errorf("%s differs from gf64.MulVec", name)
		}
	}
}
