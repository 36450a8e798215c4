// The challenge fields of the prime fields and the kernels of gpu/primentt
// that compute in them: CombineExt (linear combinations of base columns
// with extension coefficients) and EvalCoset (columns held as evaluations
// on a coset, evaluated at extension points by the barycentric formula).
// Compiled after ntt_fields.cu, one small program per field
// (cuda.ExtProgram):
//
//   babybear    E4 = E2[v]/(v² − u), E2 = F[u]/(u² − 11)   (gnark-crypto
//   koalabear   E4 = E2[v]/(v² − u), E2 = F[u]/(u² − 3)     field/*/extensions)
//   goldilocks  E2 = F[u]/(u² − 7)
//   bn254       the base field itself
//
// An E4 is stored as gnark-crypto stores it, B0.A0, B0.A1, B1.A0, B1.A1,
// Montgomery coordinates; in the power basis of v (v⁴ = W, the E2
// non-residue) that is a0 + a2·v² + a1·v + a3·v³ with (a0, a1, a2, a3) =
// (B0.A0, B1.A0, B0.A1, B1.A1). An E2 is A0, A1. Arithmetic is exact, so
// any correct formula gives gnark-crypto's result once values are
// canonical, which everything stored is.
//
// Representations. The 31-bit fields and BN254 compute on Montgomery
// values with Montgomery products (aR·bR/R = abR), as they are stored.
// Goldilocks' mul is the plain product a·c mod p (ntt_fields.cu), so its
// extension computes on plain values: the host passes g, ω, z and the
// scale factors in plain form, the weights are plain, and a stored
// (Montgomery) column value times a plain weight is the Montgomery
// product's value, as stored. Both are rings with the same formulas, so one
// template serves them: only constants differ (a small integer W times a
// value is the same product in both).

#define EXT_COMBINE_MAX 32 // coefficients a CombineExt launch takes
#define EVAL_MAX 8         // points an EvalCoset launch takes
#define EVAL_LOG_THREADS 8
#define EVAL_THREADS (1 << EVAL_LOG_THREADS)
#define EVAL_POW 32 // g and ω^(2^b), b < 31

// ---------------------------------------------------------------- 31-bit fields

// mont_wide returns t·2^−32 mod p, as a value below 2^32 + p, for any
// t < 2^64 (a Montgomery reduction of a sum of up to four products of
// canonical values, which may exceed p·2^32): with m = −t·p^−1 mod 2^32,
// t + m·p is a multiple of 2^32 whose low words sum to 0 or exactly 2^32.
template <class F>
__device__ __forceinline__ u64 mont_wide(u64 t) {
    u32 m = (u32)t * F::QINV;
    u64 u = (u64)m * F::P;
    return (t >> 32) + (u >> 32) + ((u32)t != 0u);
}

struct __align__(16) U4 {
    u32 m[4]; // B0.A0, B0.A1, B1.A0, B1.A1
};

template <class F, u32 W>
struct Ext4 {
    typedef u32 B;
    typedef U4 V;
    __device__ static __forceinline__ B bmul(B a, B b) { return F::mul(a, b); }
    __device__ static __forceinline__ B bmulW(B a) { return (u32)(((u64)a * W) % F::P); }
    __device__ static __forceinline__ V zero() {
        V r = {{0u, 0u, 0u, 0u}};
        return r;
    }
    __device__ static __forceinline__ V lift(B a) {
        V r = {{a, 0u, 0u, 0u}};
        return r;
    }
    __device__ static __forceinline__ V canon(V a) { return a; }
    __device__ static __forceinline__ V add(V a, V b) {
        V r;
#pragma unroll
        for (int i = 0; i < 4; i++) r.m[i] = F::add(a.m[i], b.m[i]);
        return r;
    }
    __device__ static __forceinline__ V sub_base(V z, B x) {
        z.m[0] = F::sub(z.m[0], x);
        return z;
    }
    __device__ static __forceinline__ V mul_base(V a, B x) {
        V r;
#pragma unroll
        for (int i = 0; i < 4; i++) r.m[i] = F::mul(a.m[i], x);
        return r;
    }
    // mul: the product in the power basis, d_k = Σ_{i+j=k} a_i·b_j (at most
    // four products, below 2^64), each reduced once, then v⁴ = W.
    __device__ static __forceinline__ V mul(V x, V y) {
        u64 a0 = x.m[0], a1 = x.m[2], a2 = x.m[1], a3 = x.m[3];
        u64 b0 = y.m[0], b1 = y.m[2], b2 = y.m[1], b3 = y.m[3];
        u64 r0 = mont_wide<F>(a0 * b0);
        u64 r1 = mont_wide<F>(a0 * b1 + a1 * b0);
        u64 r2 = mont_wide<F>(a0 * b2 + a1 * b1 + a2 * b0);
        u64 r3 = mont_wide<F>(a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0);
        u64 r4 = mont_wide<F>(a1 * b3 + a2 * b2 + a3 * b1);
        u64 r5 = mont_wide<F>(a2 * b3 + a3 * b2);
        u64 r6 = mont_wide<F>(a3 * b3);
        V r;
        r.m[0] = (u32)((r0 + W * r4) % F::P);
        r.m[2] = (u32)((r1 + W * r5) % F::P);
        r.m[1] = (u32)((r2 + W * r6) % F::P);
        r.m[3] = (u32)(r3 % F::P);
        return r;
    }
    // binv: a^(p−2) (0 for 0).
    __device__ static B binv(B a) {
        const u32 e = F::P - 2;
        B r = a;
        for (int b = 30 - __clz(e) /* below the top bit */; b >= 0; b--) {
            r = F::mul(r, r);
            if ((e >> b) & 1u) r = F::mul(r, a);
        }
        return r;
    }
    // inv: through the norm to E2, t = B0² − u·B1², and its norm to F,
    // t0² − W·t1², as gnark-crypto's E4.Inverse and E2.Inverse.
    __device__ static V inv(V a) {
        B b00 = a.m[0], b01 = a.m[1], b10 = a.m[2], b11 = a.m[3];
        // B0² = (b00² + W·b01², 2·b00·b01); B1² likewise; u·(c0 + c1·u) = W·c1 + c0·u
        B s0 = F::add(F::mul(b00, b00), bmulW(F::mul(b01, b01)));
        B s1 = F::mul(b00, b01);
        s1 = F::add(s1, s1);
        B q0 = F::add(F::mul(b10, b10), bmulW(F::mul(b11, b11)));
        B q1 = F::mul(b10, b11);
        q1 = F::add(q1, q1);
        B t0 = F::sub(s0, bmulW(q1));
        B t1 = F::sub(s1, q0);
        B n = F::sub(F::mul(t0, t0), bmulW(F::mul(t1, t1)));
        B ni = binv(n);
        B i0 = F::mul(t0, ni), i1 = F::sub(0u, F::mul(t1, ni)); // t^−1
        // B0·t^−1 and −B1·t^−1 in E2
        V r;
        r.m[0] = F::add(F::mul(b00, i0), bmulW(F::mul(b01, i1)));
        r.m[1] = F::add(F::mul(b00, i1), F::mul(b01, i0));
        r.m[2] = F::sub(0u, F::add(F::mul(b10, i0), bmulW(F::mul(b11, i1))));
        r.m[3] = F::sub(0u, F::add(F::mul(b10, i1), F::mul(b11, i0)));
        return r;
    }
    __device__ static __forceinline__ V shfl_xor(V a, int m) {
#pragma unroll
        for (int i = 0; i < 4; i++) a.m[i] = __shfl_xor_sync(0xffffffffu, a.m[i], m);
        return a;
    }
    // Acc sums products of base values by E4 values lazily: raw 64-bit
    // products, at most four between flushes, each flush one wide
    // Montgomery reduction per coordinate (below 2^33), one modular
    // reduction at the end (up to 2^31 flushes).
    struct Acc {
        u64 t[4], s[4];
        __device__ __forceinline__ void init() {
#pragma unroll
            for (int i = 0; i < 4; i++) t[i] = s[i] = 0;
        }
        __device__ __forceinline__ void add(B f, const V &w) {
#pragma unroll
            for (int i = 0; i < 4; i++) t[i] += (u64)f * w.m[i];
        }
        __device__ __forceinline__ void flush() {
#pragma unroll
            for (int i = 0; i < 4; i++) {
                s[i] += mont_wide<F>(t[i]);
                t[i] = 0;
            }
        }
        __device__ __forceinline__ V get() {
            flush();
            V r;
#pragma unroll
            for (int i = 0; i < 4; i++) r.m[i] = (u32)(s[i] % F::P);
            return r;
        }
    };
};

// ---------------------------------------------------------------- Goldilocks E2

struct __align__(16) G2 {
    u64 c[2]; // A0, A1
};

struct GoldilocksExt2 {
    typedef Goldilocks F;
    typedef u64 B;
    typedef G2 V;
    __device__ static __forceinline__ B bmul(B a, B b) { return F::mul(a, b); }
    __device__ static __forceinline__ V zero() {
        V r = {{0ull, 0ull}};
        return r;
    }
    __device__ static __forceinline__ V lift(B a) {
        V r = {{a, 0ull}};
        return r;
    }
    __device__ static __forceinline__ V canon(V a) {
        a.c[0] = F::canon(a.c[0]);
        a.c[1] = F::canon(a.c[1]);
        return a;
    }
    __device__ static __forceinline__ V add(V a, V b) {
        a.c[0] = F::add(a.c[0], b.c[0]);
        a.c[1] = F::add(a.c[1], b.c[1]);
        return a;
    }
    __device__ static __forceinline__ V sub_base(V z, B x) {
        z.c[0] = F::sub(z.c[0], x);
        return z;
    }
    __device__ static __forceinline__ V mul_base(V a, B x) {
        a.c[0] = F::mul(x, a.c[0]);
        a.c[1] = F::mul(x, a.c[1]);
        return a;
    }
    __device__ static __forceinline__ V mul(V a, V b) {
        V r;
        r.c[0] = F::add(F::mul(a.c[0], b.c[0]), F::mul(F::mul(a.c[1], b.c[1]), 7ull));
        r.c[1] = F::add(F::mul(a.c[0], b.c[1]), F::mul(a.c[1], b.c[0]));
        return r;
    }
    __device__ static B binv(B a) {
        const u64 e = F::P - 2;
        B r = a;
        for (int b = 62; b >= 0; b--) {
            r = F::mul(r, r);
            if ((e >> b) & 1ull) r = F::mul(r, a);
        }
        return r;
    }
    __device__ static V inv(V a) {
        B n = F::sub(F::mul(a.c[0], a.c[0]), F::mul(F::mul(a.c[1], a.c[1]), 7ull));
        B ni = binv(n);
        V r;
        r.c[0] = F::mul(a.c[0], ni);
        r.c[1] = F::sub(0ull, F::mul(a.c[1], ni));
        return r;
    }
    __device__ static __forceinline__ V shfl_xor(V a, int m) {
        a.c[0] = __shfl_xor_sync(0xffffffffu, a.c[0], m);
        a.c[1] = __shfl_xor_sync(0xffffffffu, a.c[1], m);
        return a;
    }
    // Acc: stored (Montgomery) values times plain weights, summed as they
    // come.
    struct Acc {
        V s;
        __device__ __forceinline__ void init() { s = zero(); }
        __device__ __forceinline__ void add(B f, const V &w) { s = GoldilocksExt2::add(s, mul_base(w, f)); }
        __device__ __forceinline__ void flush() {}
        __device__ __forceinline__ V get() { return canon(s); }
    };
};

// ---------------------------------------------------------------- BN254

// BN254Ext1: BN254 points are field elements; the same kernels with the
// base field as its own extension.
struct BN254Ext1 {
    typedef BN254 F;
    typedef Fr4 B;
    typedef Fr4 V;
    __device__ static __forceinline__ B bmul(const B &a, const B &b) { return F::mul(a, b); }
    __device__ static __forceinline__ V zero() {
        V r = {{0ull, 0ull, 0ull, 0ull}};
        return r;
    }
    __device__ static __forceinline__ V lift(const B &a) { return a; }
    __device__ static __forceinline__ V canon(const V &a) { return a; }
    __device__ static __forceinline__ V add(const V &a, const V &b) { return F::add(a, b); }
    __device__ static __forceinline__ V sub_base(const V &z, const B &x) { return F::sub(z, x); }
    __device__ static __forceinline__ V mul_base(const V &a, const B &x) { return F::mul(a, x); }
    __device__ static __forceinline__ V mul(const V &a, const V &b) { return F::mul(a, b); }
    // inv: a^(q−2), square and multiply over the 254 bits of q − 2.
    __device__ static V inv(const V &a) {
        V r = a;
        for (int b = 252; b >= 0; b--) {
            r = F::mul(r, r);
            u64 e = F::q(b >> 6) - (b < 64 ? 2ull : 0ull); // q's low limb is odd and above 2: no borrow
            if ((e >> (b & 63)) & 1ull) r = F::mul(r, a);
        }
        return r;
    }
    __device__ static __forceinline__ V shfl_xor(V a, int m) {
#pragma unroll
        for (int i = 0; i < 4; i++) a.l[i] = __shfl_xor_sync(0xffffffffu, a.l[i], m);
        return a;
    }
    struct Acc {
        V s;
        __device__ __forceinline__ void init() { s = zero(); }
        __device__ __forceinline__ void add(const B &f, const V &w) { s = F::add(s, F::mul(f, w)); }
        __device__ __forceinline__ void flush() {}
        __device__ __forceinline__ V get() { return s; }
    };
};

// ---------------------------------------------------------------- CombineExt

template <class X>
struct ExtCoeffs {
    typename X::V c[EXT_COMBINE_MAX];
};

// ext_combine: dst[i] = Σ_j alpha.c[j]·cols[j·n + i] for i < n, j < ncols,
// added to dst[i] when acc is set, with the coefficients in the form of the
// field's products (Montgomery for the 31-bit fields, plain for
// Goldilocks), four columns between flushes of the accumulator.
template <class X>
__device__ __forceinline__ void ext_combine(typename X::V *__restrict__ dst, const typename X::B *__restrict__ cols, u64 n,
                                            const ExtCoeffs<X> &alpha, u32 ncols, u32 acc) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        typename X::Acc a;
        a.init();
        for (u32 j = 0; j < ncols; j += 4) {
#pragma unroll
            for (u32 q = 0; q < 4; q++) {
                if (j + q < ncols) a.add(cols[(u64)(j + q) * n + i], alpha.c[j + q]);
            }
            a.flush();
        }
        typename X::V s = a.get();
        if (acc) s = X::add(s, dst[i]);
        dst[i] = X::canon(s);
    }
}

// ---------------------------------------------------------------- EvalCoset

template <class X>
struct EvalPow {
    typename X::B p[EVAL_POW]; // g, then ω^(2^b) for b < 31
};
template <class X>
struct EvalPoints {
    typename X::V z[EVAL_MAX];
};
// EvalIndex says what ext_eval_sum does for each point of a launch: for a
// point on the coset, j is its index on the coset (the row is copied);
// otherwise j is 0xffffffff and slot is the point's place among the
// partial sums (the points of eval_partial's launch).
struct EvalIndex {
    u32 j[EVAL_MAX];
    u32 slot[EVAL_MAX];
};

template <class X>
__device__ __forceinline__ typename X::V warp_sum(typename X::V a) {
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) a = X::add(a, X::shfl_xor(a, m));
    return a;
}

// eval_partial: block b of blockIdx.y takes the points pts.z[NP·blockIdx.y
// + p], p < NP (those below m; a caller repeats the last one to fill a
// block), and the K·T points x_j = g·ω^j of the coset with j in
// [b·K·T, (b+1)·K·T) (T = EVAL_THREADS), thread t those with j = b·K·T +
// t + k·T, k < K (so that a warp reads consecutive rows). Each thread
// computes x_j from g·ω^j0 (the table's powers) and, for each of its block's
// points z, the weights w_j = x_j/(z − x_j), one inversion for its K points
// (Montgomery's trick); then, for every column, the sums of f_j·w_j over its
// points (rows j·step of the column, columns colStride apart), reading each
// column once for the NP points and the next column's rows while it sums
// the current one's. Block sums go to part[(slot·ncols + c)·gridDim.x + b].
// Points j ≥ n weigh 0.
template <class X, int K, int NP>
__device__ __forceinline__ void eval_partial(const typename X::B *__restrict__ cols, u64 colStride, u64 step, u32 n,
                                             u32 ncols, const EvalPow<X> &pw, const EvalPoints<X> &pts, u32 m,
                                             typename X::V *__restrict__ part) {
    typedef typename X::B B;
    typedef typename X::V V;
    __shared__ V red[NP][EVAL_THREADS / 32][32];
    u32 t = threadIdx.x, lane = t & 31, warp = t >> 5;
    u32 j0 = blockIdx.x * (K * EVAL_THREADS) + t;
    V w[NP][K]; // prefix products, then the weights
    {
        B x = pw.p[0];
#pragma unroll 1
        for (int b = 0; b < 31; b++) {
            if ((j0 >> b) & 1u) x = X::bmul(x, pw.p[1 + b]);
        }
        B xs[K];
#pragma unroll
        for (int k = 0; k < K; k++) {
            xs[k] = x;
            x = X::bmul(x, pw.p[1 + EVAL_LOG_THREADS]);
        }
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const V z = pts.z[blockIdx.y * NP + p];
#pragma unroll
            for (int k = 0; k < K; k++) {
                V d = X::sub_base(z, xs[k]);
                w[p][k] = k == 0 ? d : X::mul(w[p][k - 1], d);
            }
            V inv = X::inv(w[p][K - 1]);
#pragma unroll
            for (int k = K - 1; k > 0; k--) {
                V ik = X::mul(inv, w[p][k - 1]);
                inv = X::mul(inv, X::sub_base(z, xs[k]));
                w[p][k] = X::mul_base(ik, xs[k]);
            }
            w[p][0] = X::mul_base(inv, xs[0]);
        }
    }
    B f[K], g[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        u32 j = j0 + k * EVAL_THREADS;
        if (j < n) f[k] = cols[(u64)j * step];
    }
    for (u32 c = 0; c < ncols; c++) {
        if (c + 1 < ncols) {
            const B *col = cols + (u64)(c + 1) * colStride;
#pragma unroll
            for (int k = 0; k < K; k++) {
                u32 j = j0 + k * EVAL_THREADS;
                if (j < n) g[k] = col[(u64)j * step];
            }
        }
#pragma unroll
        for (int p = 0; p < NP; p++) {
            typename X::Acc a;
            a.init();
#pragma unroll
            for (int k = 0; k < K; k++) {
                if (j0 + k * EVAL_THREADS < n) a.add(f[k], w[p][k]);
                if ((k & 3) == 3) a.flush();
            }
            V s = warp_sum<X>(a.get());
            if (lane == 0) red[p][warp][c & 31] = s;
        }
#pragma unroll
        for (int k = 0; k < K; k++) f[k] = g[k];
        if ((c & 31) == 31 || c + 1 == ncols) {
            u32 c0 = c & ~31u, cn = c - c0 + 1;
            __syncthreads();
            if (t < NP * 32) {
                u32 p = t >> 5, cc = t & 31, pt = blockIdx.y * NP + p;
                if (cc < cn && pt < m) {
                    V s = red[p][0][cc];
#pragma unroll
                    for (int i = 1; i < EVAL_THREADS / 32; i++) s = X::add(s, red[p][i][cc]);
                    part[((u64)pt * ncols + c0 + cc) * gridDim.x + blockIdx.x] = X::canon(s);
                }
            }
            __syncthreads();
        }
    }
}

// eval_sum: dst[blockIdx.y·ncols + c] for column c = blockIdx.x: the sum
// of the column's nb block partials of the point's slot times the point's
// scale factor (z^n − g^n)/(n·g^n), or the column's row idx.j·step for a
// point on the coset (lifted to the extension). EVAL_THREADS threads.
template <class X>
__device__ __forceinline__ void eval_sum(typename X::V *__restrict__ dst, const typename X::V *__restrict__ part, u32 nb,
                                         u32 ncols, const EvalPoints<X> &scale, const EvalIndex &idx,
                                         const typename X::B *__restrict__ cols, u64 colStride, u64 step) {
    typedef typename X::V V;
    __shared__ V red[EVAL_THREADS / 32];
    u32 c = blockIdx.x, pt = blockIdx.y, t = threadIdx.x;
    u64 o = (u64)pt * ncols + c;
    if (idx.j[pt] != 0xffffffffu) {
        if (t == 0) dst[o] = X::canon(X::lift(cols[(u64)c * colStride + (u64)idx.j[pt] * step]));
        return;
    }
    const V *src = part + ((u64)idx.slot[pt] * ncols + c) * nb;
    V s = X::zero();
    for (u32 b = t; b < nb; b += EVAL_THREADS) s = X::add(s, src[b]);
    s = warp_sum<X>(s);
    if ((t & 31) == 0) red[t >> 5] = s;
    __syncthreads();
    if (t == 0) {
        s = red[0];
#pragma unroll
        for (int i = 1; i < EVAL_THREADS / 32; i++) s = X::add(s, red[i]);
        dst[o] = X::canon(X::mul(s, scale.z[pt]));
    }
}

// K: coset points per thread in eval_partial (one inversion each per
// extension point); eval_partial1 takes one extension point a block. Two
// points a block (NP = 2: one read of the columns for both) ran slower on
// the H200, one block of 256 threads per SM instead of two (BabyBear, 32
// columns of 2^20, two points: 0.45 against 0.35 ms; TestExtReport).
#define NTT_EXT(name, X, K)                                                                                         \
    extern "C" __global__ void ntt_##name##_combine_ext(X::V *dst, const X::B *cols, u64 n, ExtCoeffs<X> alpha,   \
                                                        u32 ncols, u32 acc) {                                      \
        ext_combine<X>(dst, cols, n, alpha, ncols, acc);                                                           \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(EVAL_THREADS)                                                     \
        ntt_##name##_eval_partial1(const X::B *cols, u64 colStride, u64 step, u32 n, u32 ncols, EvalPow<X> pw,     \
                                   EvalPoints<X> pts, u32 m, X::V *part) {                                         \
        eval_partial<X, K, 1>(cols, colStride, step, n, ncols, pw, pts, m, part);                                  \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(EVAL_THREADS)                                                     \
        ntt_##name##_eval_sum(X::V *dst, const X::V *part, u32 nb, u32 ncols, EvalPoints<X> scale, EvalIndex idx,  \
                              const X::B *cols, u64 colStride, u64 step) {                                         \
        eval_sum<X>(dst, part, nb, ncols, scale, idx, cols, colStride, step);                                      \
    }

typedef Ext4<BabyBear, 11u> BabyBearExt4;
typedef Ext4<KoalaBear, 3u> KoalaBearExt4;

#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
NTT_EXT(babybear, BabyBearExt4, 8)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
NTT_EXT(koalabear, KoalaBearExt4, 8)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
NTT_EXT(goldilocks, GoldilocksExt2, 8)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
NTT_EXT(bn254, BN254Ext1, 8)
#endif
