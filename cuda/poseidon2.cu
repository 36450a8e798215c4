// Poseidon2 permutations and Merkle trees over rows of field elements
// (gpu/poseidon2 and gpu/rowhash's field trees).
//
// One module per field: P2_BABYBEAR, P2_KOALABEAR or P2_GOLDILOCKS is
// defined in front of this file. A state is one thread's: Width elements in
// registers, the width a template parameter, the round numbers, constants
// and matrices a kernel parameter (P2Perm, in the constant bank), so that
// one kernel serves every preset of a width.
//
// Element forms. BabyBear and KoalaBear states stay in gnark-crypto's
// Montgomery form (R = 2^32) from load to store; the constants are given in
// it. Goldilocks states are canonical or not (any 64-bit value standing for
// its residue, as Plonky3 keeps them), read from the Montgomery form
// (R = 2^64) and written back in it; the constants are canonical.
//
// The permutation (Grassi, Khovratovich, Schofnegger, eprint 2023/323, as
// package poseidon2's Params spells it out):
//
//	x <- M_E x
//	rf/2 full rounds:  x <- M_E (x + c_r)^d
//	rp partial rounds: x_0 <- (x_0 + k_r)^d, x <- M_I x     (M_I = J + diag(V))
//	rf/2 full rounds:  x <- M_E (x + c_r)^d
//
// M_E = circ(2 M4, M4, ..., M4), M4 Plonky3's MDSMat4 or (hl) the paper's
// appendix-B matrix.
//
// Row trees. A row's leaf is the sponge over its elements (overwrite mode,
// no padding: each block of rate elements overwrites the front of the state,
// which is permuted; a last shorter block too), absorbed a group of columns
// at a time into a per-row state that stays on the device (structure of
// arrays: element k of row r at st[k * rows + r]); a node is the
// compression of its children (truncate: P(l || r || 0)[0:out]; feed
// forward: P(l || r)[out:2 out] + r). Digests leave the kernels as bytes:
// each element canonical and big-endian, the form of package merkle's
// field trees, so that the node buffer is laid out as gpu/rowhash's SHA-256
// one (level 1, level 2, ..., the root last).

typedef unsigned int u32;
typedef unsigned long long u64;

#define P2_RF_MAX 8
#define P2_RP_MAX 32

__device__ __forceinline__ u32 p2_bswap(u32 x) { return __byte_perm(x, 0, 0x0123); }

#if defined(P2_BABYBEAR) || defined(P2_KOALABEAR)

typedef u32 F;
#if defined(P2_BABYBEAR)
#define P2_Q 2013265921u
#define P2_QINV 2013265919u // -q^-1 mod 2^32
#define P2_R2 1172168163u   // 2^64 mod q
#define P2_SBOX 7
#else
#define P2_Q 2130706433u
#define P2_QINV 2130706431u
#define P2_R2 402124772u
#define P2_SBOX 3
#endif
#define P2_ELEM_WORDS 1

__device__ __forceinline__ F f_add(F a, F b) {
    u32 r = a + b;
    return min(r, r - P2_Q);
}
__device__ __forceinline__ F f_dbl(F a) { return f_add(a, a); }
// Montgomery product a b R^-1 of a, b < q: below q.
__device__ __forceinline__ F f_mul(F a, F b) {
    u64 t = (u64)a * b;
    u32 m = (u32)t * P2_QINV;
    u32 r = (u32)((t + (u64)m * P2_Q) >> 32);
    return min(r, r - P2_Q);
}
// From memory (gnark-crypto's form) and back: the same words.
__device__ __forceinline__ F f_in(F x) { return x; }
__device__ __forceinline__ F f_out(F x) { return x; }
// A digest element's canonical value, and an element from one.
__device__ __forceinline__ u32 f_canon(F x) { return f_mul(x, 1u); }
__device__ __forceinline__ F f_from_canon(u32 c) { return f_mul(c, P2_R2); }
// Digest bytes: element i's canonical value, big-endian, at word i.
__device__ __forceinline__ void f_put(u32 *w, int i, F x) { w[i] = p2_bswap(f_canon(x)); }
__device__ __forceinline__ F f_get(const u32 *w, int i) { return f_from_canon(p2_bswap(w[i])); }

#elif defined(P2_GOLDILOCKS)

typedef u64 F;
#define P2_P 18446744069414584321ull
#define P2_EPS 4294967295ull // 2^64 mod p
#define P2_SBOX 7
#define P2_ELEM_WORDS 2

// a + b mod p for any 64-bit a, b, as a 64-bit value.
__device__ __forceinline__ F f_add(F a, F b) {
    u64 s = a + b;
    u64 s2 = s + (s < a ? P2_EPS : 0);
    return s2 + (s2 < s ? P2_EPS : 0);
}
__device__ __forceinline__ F f_dbl(F a) { return f_add(a, a); }
// hi 2^64 + lo mod p, as a 64-bit value (2^64 = eps, 2^96 = -1).
__device__ __forceinline__ F f_reduce128(u64 lo, u64 hi) {
    u64 hh = hi >> 32, hl = hi & 0xffffffffull;
    u64 t0 = lo - hh;
    if (lo < hh) t0 -= P2_EPS;
    u64 t1 = hl * P2_EPS;
    u64 t2 = t0 + t1;
    if (t2 < t1) t2 += P2_EPS;
    return t2;
}
__device__ __forceinline__ F f_mul(F a, F b) { return f_reduce128(a * b, __umul64hi(a, b)); }
__device__ __forceinline__ u64 f_canon(F x) { return x >= P2_P ? x - P2_P : x; }
// Montgomery form (R = 2^64) in: z R^-1 mod p, gnark-crypto's fromMont.
__device__ __forceinline__ F f_in(u64 z) {
    const u64 qInvNeg = 18446744069414584319ull;
    u64 m = z * qInvNeg;
    u64 lo = m * P2_P, hi = __umul64hi(m, P2_P);
    u64 s = lo + z;
    u64 c = hi + (s < lo);
    return c >= P2_P ? c - P2_P : c;
}
// Out: canonical x R mod p = x 2^64 mod p.
__device__ __forceinline__ u64 f_out(F x) { return f_canon(f_reduce128(0, f_canon(x))); }
__device__ __forceinline__ F f_from_canon(u64 c) { return c; }
__device__ __forceinline__ void f_put(u32 *w, int i, F x) {
    u64 c = f_canon(x);
    w[2 * i] = p2_bswap((u32)(c >> 32));
    w[2 * i + 1] = p2_bswap((u32)c);
}
__device__ __forceinline__ F f_get(const u32 *w, int i) {
    return ((u64)p2_bswap(w[2 * i]) << 32) | p2_bswap(w[2 * i + 1]);
}

#else
#error "define P2_BABYBEAR, P2_KOALABEAR or P2_GOLDILOCKS"
#endif

// One permutation's parameters, as gpu/poseidon2 lays them out.
template <int W> struct P2Perm {
    u32 rf, rp, hl, pad;
    F ext[P2_RF_MAX * W]; // rf rows: the initial rounds', then the final rounds'
    F in[P2_RP_MAX];
    F diag[W];
};

__device__ __forceinline__ F p2_sbox(F x) {
#if P2_SBOX == 3
    return f_mul(f_mul(x, x), x);
#else
    F x2 = f_mul(x, x);
    F x3 = f_mul(x2, x);
    F x4 = f_mul(x2, x2);
    return f_mul(x3, x4);
#endif
}

// M4 on x[0..4).
__device__ __forceinline__ void p2_m4(F *x, u32 hl) {
    if (!hl) {
        F t01 = f_add(x[0], x[1]), t23 = f_add(x[2], x[3]);
        F t0123 = f_add(t01, t23);
        F t01123 = f_add(t0123, x[1]), t01233 = f_add(t0123, x[3]);
        F y3 = f_add(t01233, f_dbl(x[0]));
        F y1 = f_add(t01123, f_dbl(x[2]));
        x[0] = f_add(t01123, t01);
        x[2] = f_add(t01233, t23);
        x[1] = y1;
        x[3] = y3;
    } else {
        F t0 = f_add(x[0], x[1]), t1 = f_add(x[2], x[3]);
        F t2 = f_add(f_dbl(x[1]), t1), t3 = f_add(f_dbl(x[3]), t0);
        F t4 = f_add(f_dbl(f_dbl(t1)), t3), t5 = f_add(f_dbl(f_dbl(t0)), t2);
        x[0] = f_add(t3, t5);
        x[1] = t5;
        x[2] = f_add(t2, t4);
        x[3] = t4;
    }
}

template <int W> __device__ __forceinline__ void p2_external(F *x, u32 hl) {
#pragma unroll
    for (int b = 0; b < W; b += 4) p2_m4(x + b, hl);
    F s[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
        s[j] = x[j];
#pragma unroll
        for (int b = 4; b < W; b += 4) s[j] = f_add(s[j], x[b + j]);
    }
#pragma unroll
    for (int k = 0; k < W; k++) x[k] = f_add(x[k], s[k & 3]);
}

template <int W> __device__ __forceinline__ void p2_internal(F *x, const F *diag) {
    F s = x[0];
#pragma unroll
    for (int k = 1; k < W; k++) s = f_add(s, x[k]);
#pragma unroll
    for (int k = 0; k < W; k++) x[k] = f_add(f_mul(x[k], diag[k]), s);
}

template <int W> __device__ __forceinline__ void p2_full(F *x, const P2Perm<W> &p, u32 r) {
#pragma unroll
    for (int k = 0; k < W; k++) x[k] = p2_sbox(f_add(x[k], p.ext[r * W + k]));
    p2_external<W>(x, p.hl);
}

template <int W> __device__ __forceinline__ void p2_permute(F *x, const P2Perm<W> &p) {
    p2_external<W>(x, p.hl);
    u32 half = p.rf / 2;
#pragma unroll 1
    for (u32 r = 0; r < half; r++) p2_full<W>(x, p, r);
#pragma unroll 1
    for (u32 r = 0; r < p.rp; r++) {
        x[0] = p2_sbox(f_add(x[0], p.in[r]));
        p2_internal<W>(x, p.diag);
    }
#pragma unroll 1
    for (u32 r = half; r < p.rf; r++) p2_full<W>(x, p, r);
}

// Grid-stride loop bounds.
#define P2_TID ((u64)blockIdx.x * blockDim.x + threadIdx.x)
#define P2_STRIDE ((u64)gridDim.x * blockDim.x)

// p2_permute_w<W>: n states laid end to end (state i at states[i W]), in
// memory's element form, permuted in place.
template <int W> __device__ void p2_permute_batch(F *states, u64 n, const P2Perm<W> &p) {
    for (u64 i = P2_TID; i < n; i += P2_STRIDE) {
        F x[W];
        F *s = states + i * W;
#pragma unroll
        for (int k = 0; k < W; k++) x[k] = f_in(s[k]);
        p2_permute<W>(x, p);
#pragma unroll
        for (int k = 0; k < W; k++) s[k] = f_out(x[k]);
    }
}

// p2_absorb_w<W>: appends ncols columns to the rows' sponges: column c is
// rows elements at cols + c stride (memory's element form). pos is the
// number of elements already in the current block (the same for every
// row), fresh says the states are new (all zero, not read).
template <int W>
__device__ void p2_absorb(F *st, u64 rows, const F *cols, u64 stride, u32 ncols, u32 pos, u32 rate, u32 fresh,
                          const P2Perm<W> &p) {
    for (u64 i = P2_TID; i < rows; i += P2_STRIDE) {
        F x[W];
#pragma unroll
        for (int k = 0; k < W; k++) x[k] = fresh ? (F)0 : st[k * rows + i];
        u32 q = pos;
#pragma unroll 1
        for (u32 c = 0; c < ncols; c++) {
            F v = f_in(cols[c * stride + i]);
#pragma unroll
            for (int k = 0; k < W; k++)
                if (k == q) x[k] = v;
            if (++q == rate) {
                p2_permute<W>(x, p);
                q = 0;
            }
        }
#pragma unroll
        for (int k = 0; k < W; k++) st[k * rows + i] = x[k];
    }
}

// The digest of a node: children l and r of out elements, in x's front.
template <int WN> __device__ __forceinline__ void p2_compress(F *l, const F *r, u32 out, u32 ff, const P2Perm<WN> &p) {
    F x[WN];
#pragma unroll
    for (int k = 0; k < WN; k++) x[k] = 0;
#pragma unroll
    for (int k = 0; k < WN; k++) {
        if (k < out) x[k] = l[k];
        else if (k < 2 * out) x[k] = r[k - out];
    }
    p2_permute<WN>(x, p);
#pragma unroll
    for (int k = 0; k < WN / 2; k++) {
        if (k < out) {
            F y = x[k];
            if (ff) {
                // x[out + k]: out is a kernel parameter, so select.
                y = x[WN / 2 + k];
            }
            l[k] = ff ? f_add(y, r[k]) : y;
        }
    }
}

// p2_finish_w<WL>_n<WN>: the leaves (the pending block permuted where the
// last absorb left one) and level 1 of the tree, rows/2 digests.
template <int WL, int WN>
__device__ void p2_finish(const F *st, u64 rows, u32 pending, u32 out, u32 ff, const P2Perm<WL> &pl,
                          const P2Perm<WN> &pn, u32 *dst) {
    const int dw = (WN / 2) * P2_ELEM_WORDS;
    for (u64 j = P2_TID; j < rows / 2; j += P2_STRIDE) {
        F d[2][WN / 2];
#pragma unroll
        for (int h = 0; h < 2; h++) {
            F x[WL];
#pragma unroll
            for (int k = 0; k < WL; k++) x[k] = st[k * rows + 2 * j + h];
            if (pending) p2_permute<WL>(x, pl);
#pragma unroll
            for (int k = 0; k < WN / 2; k++) d[h][k] = k < WL ? x[k] : 0;
        }
        p2_compress<WN>(d[0], d[1], out, ff, pn);
        u32 *o = dst + j * (out * P2_ELEM_WORDS);
#pragma unroll
        for (int k = 0; k < WN / 2; k++)
            if (k < out) f_put(o, k, d[0][k]);
        (void)dw;
    }
}

// p2_level_n<WN>: n parents from the 2n digests at in.
template <int WN> __device__ void p2_level(const u32 *in, u64 n, u32 out, u32 ff, const P2Perm<WN> &pn, u32 *dst) {
    const u32 dw = out * P2_ELEM_WORDS;
    for (u64 j = P2_TID; j < n; j += P2_STRIDE) {
        F d[2][WN / 2];
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const u32 *c = in + (2 * j + h) * dw;
#pragma unroll
            for (int k = 0; k < WN / 2; k++) d[h][k] = k < out ? f_get(c, k) : 0;
        }
        p2_compress<WN>(d[0], d[1], out, ff, pn);
        u32 *o = dst + j * dw;
#pragma unroll
        for (int k = 0; k < WN / 2; k++)
            if (k < out) f_put(o, k, d[0][k]);
    }
}

#define P2_BLOCK 128

#define P2_WIDTH(W)                                                                                                  \
    extern "C" __global__ void __launch_bounds__(P2_BLOCK) p2_permute_w##W(F *states, u64 n,                        \
                                                                           const __grid_constant__ P2Perm<W> p) {   \
        p2_permute_batch<W>(states, n, p);                                                                         \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(P2_BLOCK)                                                          \
        p2_absorb_w##W(F *st, u64 rows, const F *cols, u64 stride, u32 ncols, u32 pos, u32 rate, u32 fresh,        \
                       const __grid_constant__ P2Perm<W> p) {                                                      \
        p2_absorb<W>(st, rows, cols, stride, ncols, pos, rate, fresh, p);                                          \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(P2_BLOCK)                                                          \
        p2_level_n##W(const u32 *in, u64 n, u32 out, u32 ff, const __grid_constant__ P2Perm<W> p, u32 *dst) {     \
        p2_level<W>(in, n, out, ff, p, dst);                                                                       \
    }

#define P2_FINISH(WL, WN)                                                                                            \
    extern "C" __global__ void __launch_bounds__(P2_BLOCK)                                                          \
        p2_finish_w##WL##_n##WN(const F *st, u64 rows, u32 pending, u32 out, u32 ff,                               \
                                const __grid_constant__ P2Perm<WL> pl, const __grid_constant__ P2Perm<WN> pn,      \
                                u32 *dst) {                                                                        \
        p2_finish<WL, WN>(st, rows, pending, out, ff, pl, pn, dst);                                                \
    }

#if defined(P2_GOLDILOCKS)
P2_WIDTH(8)
P2_WIDTH(12)
P2_FINISH(8, 8)
P2_FINISH(12, 8)
P2_FINISH(8, 12)
P2_FINISH(12, 12)
#else
P2_WIDTH(16)
P2_WIDTH(24)
P2_FINISH(16, 16)
P2_FINISH(24, 16)
P2_FINISH(16, 24)
P2_FINISH(24, 24)
#endif
