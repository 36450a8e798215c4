// GF(2^128) = GF(2^64)[y]/(y^2 + y + C), C = x^63: the challenge field of
// GF(2^64) traces (field/gf128). An element a0 + a1·y is 16 bytes, a0 then
// a1 (a ulonglong2: x = a0, y = a1), each a GF(2^64) element of gf64.cu.
// This file is joined after gf64.cu (clmul32, gf64_clmul, gf64_reduce,
// gf64_mul).
//
// Kernels: element-wise products, products by a constant and by base
// elements, batch inversion (Montgomery's trick over a thread's chunk), the
// combination of base columns with extension coefficients, and the
// evaluation of columns at extension points by the additive barycentric
// formula (weights, inner products by table lookup, the finishing sum).

// u2 returns the ulonglong2 (x, y): the element x + y·y of GF(2^128).
__device__ __forceinline__ ulonglong2 u2(u64 x, u64 y) {
    ulonglong2 r;
    r.x = x;
    r.y = y;
    return r;
}

// gf64_mulC returns a·x^63 (a·C).
__device__ __forceinline__ u64 gf64_mulC(u64 a) { return gf64_reduce(a << 63, a >> 1); }

// spread32 returns x with a zero inserted above each bit (bit i to bit 2i):
// its carry-less square.
__device__ __forceinline__ u64 spread32(u32 x) {
    u64 v = x;
    v = (v | (v << 16)) & 0x0000ffff0000ffffull;
    v = (v | (v << 8)) & 0x00ff00ff00ff00ffull;
    v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0full;
    v = (v | (v << 2)) & 0x3333333333333333ull;
    v = (v | (v << 1)) & 0x5555555555555555ull;
    return v;
}

// gf64_sqr returns a² in GF(2^64).
__device__ __forceinline__ u64 gf64_sqr(u64 a) { return gf64_reduce(spread32((u32)a), spread32((u32)(a >> 32))); }

__device__ __forceinline__ u64 gf64_sqrn(u64 a, int n) {
    for (int i = 0; i < n; i++) a = gf64_sqr(a);
    return a;
}

// gf64_inv returns a^(2^64-2): a⁻¹, and 0 for 0 (field/gf64's Inverse, the
// same Itoh–Tsujii chain).
__device__ __noinline__ u64 gf64_inv(u64 a) {
    u64 x2 = gf64_mul(gf64_sqr(a), a);
    u64 x3 = gf64_mul(gf64_sqr(x2), a);
    u64 x6 = gf64_mul(gf64_sqrn(x3, 3), x3);
    u64 x7 = gf64_mul(gf64_sqr(x6), a);
    u64 x14 = gf64_mul(gf64_sqrn(x7, 7), x7);
    u64 x15 = gf64_mul(gf64_sqr(x14), a);
    u64 x30 = gf64_mul(gf64_sqrn(x15, 15), x15);
    u64 x31 = gf64_mul(gf64_sqr(x30), a);
    u64 x62 = gf64_mul(gf64_sqrn(x31, 31), x31);
    u64 x63 = gf64_mul(gf64_sqr(x62), a);
    return gf64_sqr(x63);
}

// gf128_mul returns a·b: Karatsuba, (m0 + C·m1) + (m2 + m0)·y with m0 = a0b0,
// m1 = a1b1, m2 = (a0+a1)(b0+b1).
__device__ __forceinline__ ulonglong2 gf128_mul(ulonglong2 a, ulonglong2 b) {
    u64 m0 = gf64_mul(a.x, b.x), m1 = gf64_mul(a.y, b.y), m2 = gf64_mul(a.x ^ a.y, b.x ^ b.y);
    return u2(m0 ^ gf64_mulC(m1), m2 ^ m0);
}

// gf128_inv returns a⁻¹ = conj(a)/N(a), conj(a) = (a0+a1) + a1·y,
// N(a) = a0² + a0a1 + C·a1²; 0 for 0.
__device__ __forceinline__ ulonglong2 gf128_inv(ulonglong2 a) {
    u64 n = gf64_sqr(a.x) ^ gf64_mul(a.x, a.y) ^ gf64_mulC(gf64_sqr(a.y));
    u64 ni = gf64_inv(n);
    return u2(gf64_mul(a.x ^ a.y, ni), gf64_mul(a.y, ni));
}

extern "C" __global__ void gf128_mul_thread(ulonglong2 *dst, const ulonglong2 *a, const ulonglong2 *b, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf128_mul(a[i], b[i]);
    }
}

extern "C" __global__ void gf128_scale_thread(ulonglong2 *dst, const ulonglong2 *a, u64 c0, u64 c1, u64 n) {
    const ulonglong2 c = u2(c0, c1);
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf128_mul(a[i], c);
    }
}

// gf128_mulbase_thread sets dst[i] = a[i]·b[i] for b[i] in GF(2^64).
extern "C" __global__ void gf128_mulbase_thread(ulonglong2 *dst, const ulonglong2 *a, const u64 *b, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        ulonglong2 x = a[i];
        u64 c = b[i];
        dst[i] = u2(gf64_mul(x.x, c), gf64_mul(x.y, c));
    }
}

// gf128_batchinv sets dst[i] = a[i]⁻¹ (0 for 0). Thread g < G inverts the
// chunk i = g + j·G, j < GF128_INV_CH, with Montgomery's trick: prefix
// products, one inversion, and a backward pass; zeros are skipped. dst may
// be a: a thread reads a[i] before it writes dst[i], and no other thread
// touches i.
#define GF128_INV_CH 32
extern "C" __global__ void gf128_batchinv(ulonglong2 *dst, const ulonglong2 *a, u64 n, u64 G) {
    u64 g = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= G) return;
    ulonglong2 pre[GF128_INV_CH];
    ulonglong2 acc = u2(1, 0);
    int m = 0;
    for (int j = 0; j < GF128_INV_CH; j++) {
        u64 i = g + (u64)j * G;
        if (i >= n) break;
        ulonglong2 v = a[i];
        pre[j] = acc;
        if (v.x | v.y) acc = gf128_mul(acc, v);
        m = j + 1;
    }
    ulonglong2 inv = gf128_inv(acc);
    for (int j = m - 1; j >= 0; j--) {
        u64 i = g + (u64)j * G;
        ulonglong2 v = a[i];
        if (v.x | v.y) {
            dst[i] = gf128_mul(inv, pre[j]);
            inv = gf128_mul(inv, v);
        } else {
            dst[i] = u2(0, 0);
        }
    }
}

// Evaluation at points z outside the subspace S = shift + span(β_0..β_{k-1})
// of the columns' first n = 2^k rows (x_i = shift + Σ bit_j(i)·β_j):
//   p(z) = Z(z)/Z' · Σ_i f_i·w_i,  w_i = 1/(z + x_i),
// Z(z)/Z' computed by the host. Three kernels: gf128_eval_weights writes
// the w_i of every point (and zeroes the sums), gf128_eval_dot adds
// f_i·w_i over a block's rows for 32 columns into the sums (XOR atomics:
// the order does not change an exact sum), gf128_eval_finish scales them.
#define EVAL_MAX_DIM 48
#define EVAL_MAX_POINTS 32
#define EVAL_MAX_CH 32

struct eval_basis {
    u64 b[EVAL_MAX_DIM];
};
// z[p] = (z0, z1) and k[p] = C·z1², the constant of the norm below.
struct eval_points {
    u64 z[EVAL_MAX_POINTS][2];
    u64 k[EVAL_MAX_POINTS];
};

// gf128_eval_weights sets w[p·n + i] = 1/(z_p + x_i) for i < n and point
// p = blockIdx.y, and zeroes the ncols sums sum[p·ncols + c]. With
// d = z + x_i = d0 + z1·y, 1/d = conj(d)/N(d) where N(d) = d0(d0 + z1) +
// C·z1² is in GF(2^64) and never 0 (z is not in S), so only the norms are
// inverted, by Montgomery's trick over the chunk i = g + j·G (j < 2^logCH,
// G = n/2^logCH = 2^logG) of thread g.
extern "C" __global__ void gf128_eval_weights(ulonglong2 *w, ulonglong2 *sum, u32 ncols, u64 n, u32 logG, u32 logCH, u64 shift,
                                              eval_basis basis, u32 dim, eval_points pts) {
    const u32 p = blockIdx.y;
    if (blockIdx.x == 0) {
        for (u32 c = threadIdx.x; c < ncols; c += blockDim.x) sum[(u64)p * ncols + c] = u2(0, 0);
    }
    const u64 G = 1ull << logG;
    const u64 g = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= G) return;
    const int ch = 1 << logCH;
    const u64 z0 = pts.z[p][0], z1 = pts.z[p][1], K = pts.k[p];
    u64 xg = shift;
    for (u32 b = 0; b < logG; b++) {
        if ((g >> b) & 1) xg ^= basis.b[b];
    }
    u64 dd[EVAL_MAX_CH], nrm[EVAL_MAX_CH], pre[EVAL_MAX_CH];
    u64 acc = 1;
    int m = 0;
    for (int j = 0; j < ch; j++) {
        const u64 i = g + ((u64)j << logG);
        if (i >= n) break;
        u64 x = xg;
        for (u32 b = 0; b < logCH && logG + b < dim; b++) {
            if ((j >> b) & 1) x ^= basis.b[logG + b];
        }
        const u64 d0 = z0 ^ x;
        const u64 v = gf64_mul(d0, d0 ^ z1) ^ K;
        dd[j] = d0;
        nrm[j] = v;
        pre[j] = acc;
        acc = gf64_mul(acc, v);
        m = j + 1;
    }
    u64 inv = gf64_inv(acc);
    ulonglong2 *wp = w + (u64)p * n;
    for (int j = m - 1; j >= 0; j--) {
        const u64 i = g + ((u64)j << logG);
        const u64 d0 = dd[j];
        const u64 ni = gf64_mul(inv, pre[j]);
        inv = gf64_mul(inv, nrm[j]);
        wp[i] = u2(gf64_mul(d0 ^ z1, ni), gf64_mul(z1, ni));
    }
}

// mulsmall returns a·v in GF(2^64) for v < 16.
__device__ __forceinline__ u64 mulsmall(u64 a, u32 v) {
    u64 lo = 0, hi = 0;
#pragma unroll
    for (int b = 0; b < 4; b++) {
        if ((v >> b) & 1) {
            lo ^= a << b;
            if (b) hi ^= a >> (64 - b);
        }
    }
    return lo ^ hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
}

// mulx4 returns a·x^4 in GF(2^64).
__device__ __forceinline__ u64 mulx4(u64 a) {
    u64 t = a >> 60;
    return (a << 4) ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
}

// gf128_combine sets dst[i] = Σ_j α_j·cols[j·n + i] for i < n and j < ncols
// (at most GF128_COMBINE_MAX a launch), adding to dst[i] when acc is set:
// base columns held end to end combined with extension coefficients. No
// multiplication per element, as in eval_dot: x = Σ_b v_b·x^{4b} with v_b
// its 4-bit windows, so Σ_j α_j·x_j = Σ_b x^{4b}·Σ_j α_j·v_{j,b}. A block
// writes the tables T_j[v] = α_j·v (v < 16; a0 and a1 halves in two arrays
// of 8-byte entries, so that the 16 entries of a half fall in distinct
// banks and a warp's lookups, all in the same column's table, do not
// conflict) to shared memory, each thread adds T_j[v_b(x_j)] into the
// accumulator of window b over the columns, and Σ_b x^{4b}·acc_b is formed
// by Horner's rule once per element. alpha.a[j] = (a0, a1) of α_j.
#define GF128_COMBINE_MAX 32
struct gf128_coeffs {
    u64 a[GF128_COMBINE_MAX][2];
};
extern "C" __global__ void gf128_combine(ulonglong2 *dst, const u64 *__restrict__ cols, u64 n, gf128_coeffs alpha, u32 ncols,
                                         u32 acc) {
    __shared__ u64 tab[GF128_COMBINE_MAX][2][16];
    for (u32 e = threadIdx.x; e < ncols * 32; e += blockDim.x) {
        const u32 j = e >> 5, h = (e >> 4) & 1, v = e & 15;
        tab[j][h][v] = mulsmall(alpha.a[j][h], v);
    }
    __syncthreads();
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u64 a0[16], a1[16];
#pragma unroll
        for (int b = 0; b < 16; b++) a0[b] = a1[b] = 0;
#pragma unroll 4
        for (u32 j = 0; j < ncols; j++) {
            const u64 x = __ldg(cols + (u64)j * n + i);
#pragma unroll
            for (int b = 0; b < 16; b++) {
                const u32 v = (u32)(x >> (4 * b)) & 15;
                a0[b] ^= tab[j][0][v];
                a1[b] ^= tab[j][1][v];
            }
        }
        u64 r0 = a0[15], r1 = a1[15];
#pragma unroll
        for (int b = 14; b >= 0; b--) {
            r0 = mulx4(r0) ^ a0[b];
            r1 = mulx4(r1) ^ a1[b];
        }
        ulonglong2 out = u2(r0, r1);
        if (acc) {
            const ulonglong2 d = dst[i];
            out.x ^= d.x;
            out.y ^= d.y;
        }
        dst[i] = out;
    }
}

// gf128_eval_dot sums f_i·w_i over rows for 32 columns, lane l of each warp
// taking column 32·blockIdx.y + l, for point blockIdx.z (weights w + z·n).
// No multiplication: f = Σ_b v_b·x^{4b} with v_b its 4-bit windows, so
// f·w = Σ_b x^{4b}·(v_b·w). For each group of R rows a warp writes the
// tables T_r[v] = v·w_r (v < 16; the a0 and a1 halves in two arrays of
// 8-byte entries, so that the 16 entries fall in distinct banks and a
// warp's lookups do not conflict) to shared memory, each lane adds
// T_r[v_b(f)] into the accumulator of window b, and at the end
// Σ_b x^{4b}·acc_b is formed by Horner's rule. The next group's column
// values and weights are loaded while the current one is looked up. The
// warps' sums are added and each block adds its 32 columns' sums to
// sum[z·ncols + column] with XOR atomics.
#define EVAL_WARPS 8
template <int R>
__device__ __forceinline__ void eval_dot(ulonglong2 *sum, const u64 *cols, const ulonglong2 *w, u64 n, u64 stride, u32 ncols) {
    // Entries a warp's lanes build per group: R·16 of them, E per lane.
    constexpr int E = R * 16 / 32;
    __shared__ u64 tab[EVAL_WARPS][R][2][16];
    __shared__ ulonglong2 red[EVAL_WARPS][32];
    const int lane = threadIdx.x & 31, wq = threadIdx.x >> 5;
    const u32 col = blockIdx.y * 32 + lane;
    const bool live = col < ncols;
    const u64 *cp = cols + (u64)(live ? col : 0) * stride;
    const ulonglong2 *wz = w + (u64)blockIdx.z * n;
    u64 a0[16], a1[16];
#pragma unroll
    for (int b = 0; b < 16; b++) a0[b] = a1[b] = 0;
    const u64 groups = (n + R - 1) / R;
    const u64 step = (u64)gridDim.x * EVAL_WARPS;
    u64 gi = (u64)blockIdx.x * EVAL_WARPS + wq;
    // Lane l builds entries e = l + 32k: row e >> 4, value e & 15.
    u64 f[R];
    ulonglong2 wr[E];
    auto load = [&](u64 g, u64 *fo, ulonglong2 *wo) {
        const u64 i0 = g * R;
#pragma unroll
        for (int r = 0; r < R; r++) fo[r] = (live && g < groups && i0 + r < n) ? __ldg(cp + i0 + r) : 0;
#pragma unroll
        for (int k = 0; k < E; k++) {
            const u64 i = i0 + ((lane + 32 * k) >> 4);
            wo[k] = (g < groups && i < n) ? wz[i] : u2(0, 0);
        }
    };
    load(gi, f, wr);
    for (; gi < groups; gi += step) {
        u64 fn[R];
        ulonglong2 wn[E];
        load(gi + step, fn, wn);
#pragma unroll
        for (int k = 0; k < E; k++) {
            const int e = lane + 32 * k, r = e >> 4;
            const u32 v = e & 15;
            tab[wq][r][0][v] = mulsmall(wr[k].x, v);
            tab[wq][r][1][v] = mulsmall(wr[k].y, v);
        }
        __syncwarp();
#pragma unroll
        for (int r = 0; r < R; r++) {
            const u64 x = f[r];
#pragma unroll
            for (int b = 0; b < 16; b++) {
                const u32 v = (u32)(x >> (4 * b)) & 15;
                a0[b] ^= tab[wq][r][0][v];
                a1[b] ^= tab[wq][r][1][v];
            }
        }
        __syncwarp();
#pragma unroll
        for (int r = 0; r < R; r++) f[r] = fn[r];
#pragma unroll
        for (int k = 0; k < E; k++) wr[k] = wn[k];
    }
    u64 r0 = a0[15], r1 = a1[15];
#pragma unroll
    for (int b = 14; b >= 0; b--) {
        r0 = mulx4(r0) ^ a0[b];
        r1 = mulx4(r1) ^ a1[b];
    }
    red[wq][lane] = u2(r0, r1);
    __syncthreads();
    if (wq == 0 && live) {
#pragma unroll
        for (int k = 1; k < EVAL_WARPS; k++) {
            ulonglong2 o = red[k][lane];
            r0 ^= o.x;
            r1 ^= o.y;
        }
        u64 *q = (u64 *)(sum + (u64)blockIdx.z * ncols + col);
        atomicXor(q, r0);
        atomicXor(q + 1, r1);
    }
}

extern "C" __global__ void __launch_bounds__(EVAL_WARPS * 32, 2)
gf128_eval_dot(ulonglong2 *sum, const u64 *cols, const ulonglong2 *w, u64 n, u64 stride, u32 ncols) {
    eval_dot<4>(sum, cols, w, n, stride, ncols);
}

// gf128_eval_finish writes dst[p·ncols + c] for p < npts, c < ncols: for a
// point outside S (row[p] = ~0), scale[p]·sum[slot[p]·ncols + c]; for a
// point of S, element row[p] of S, the column's value there.
struct eval_finish {
    u64 scale[EVAL_MAX_POINTS][2];
    u64 row[EVAL_MAX_POINTS];
    u32 slot[EVAL_MAX_POINTS];
};
extern "C" __global__ void gf128_eval_finish(ulonglong2 *dst, const ulonglong2 *sum, const u64 *cols, u64 stride, u32 ncols, u32 npts, eval_finish fin) {
    const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (u64)npts * ncols) return;
    const u32 p = (u32)(t / ncols), c = (u32)(t % ncols);
    if (fin.row[p] != ~0ull) {
        dst[t] = u2(cols[(u64)c * stride + fin.row[p]], 0);
        return;
    }
    dst[t] = gf128_mul(sum[(u64)fin.slot[p] * ncols + c], u2(fin.scale[p][0], fin.scale[p][1]));
}
