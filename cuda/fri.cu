// FRI's prover kernels on the device (package prover/fri, Open on a
// commitment kept there): the DEEP quotient of a batch over its codeword
// domain and the fold of a layer by its arity, writing each codeword in the
// leaf layout of the layer tree that hashes it.
//
// A prime field's program joins ntt_fields.cu, ntt_ext.cu (the challenge
// fields' arithmetic) and this file, with FRI_PRIME and the field's
// NTT_ONLY defines (cuda.FRIProgram); GF(2^64)'s joins gf64.cu, gf128.cu
// and this file with FRI_BINARY.
//
// Layout. A codeword of n entries of the challenge field X, each d
// coordinates of the base field B (d = 4 for E4, 2 for E2 and GF(2^128), 1
// for BN254), about to be folded by a = 2^logA is stored as the column-major
// matrix of its layer tree: m = n/a rows (the leaves), a·d columns of m
// base elements each; leaf j holds the a entries of one fold, entry t's
// coordinates in columns t·d … t·d + d − 1. Entry i is leaf j, slot t with
// (i = j + t·m, strided: the cosets of the prime fields) or (i = j·a + t,
// contiguous: the subspaces of GF(2^64)). a = 1 (logA = 0) is the codeword
// coordinate by coordinate, what goes back to the host.
//
// Arithmetic is exact and every value stored is canonical, so results
// equal the host's (prover/fri) bit for bit whatever the order of the
// operations. The prime fields compute in Montgomery form as gnark-crypto
// stores them; Goldilocks' products are Montgomery products here (its
// ntt_fields.cu mul is the plain product, times 2^−64 mod p), so every
// constant the host passes is an element's stored words.

#define FRI_MAXP 8 // opening points of one DEEP launch
#define FRI_POW 36 // a power table: x_0, then ω^(2^b) for b < 35
#define FRI_K 4    // rows per thread of a DEEP launch (one inversion)
#define FRI_T 256  // threads per block
#define FRI_LOGT 8 // log2 FRI_T
#define FRI_KB 4   // rows per thread of GF(2^64)'s DEEP launch (one GF(2^64) inversion; 8 measured slower: 254 registers, 12.5% occupancy)

struct FriLayout {
    u32 logM, logA, strided, pad;
};

// fri_addr returns where coordinate c of entry i lies in layout L.
__device__ __forceinline__ u64 fri_addr(const FriLayout &L, u64 i, u32 c, u32 d) {
    u64 t, j;
    if (L.strided) {
        t = i >> L.logM;
        j = i & ((1ull << L.logM) - 1);
    } else {
        t = i & ((1ull << L.logA) - 1);
        j = i >> L.logA;
    }
    return ((t * d + c) << L.logM) + j;
}

template <class X>
__device__ __forceinline__ void fri_store(typename X::B *dst, const FriLayout &L, u64 i, typename X::V v) {
    typedef typename X::B B;
    const u32 d = sizeof(typename X::V) / sizeof(B);
    v = X::canon(v);
    const B *c = reinterpret_cast<const B *>(&v);
#pragma unroll
    for (u32 k = 0; k < d; k++) dst[fri_addr(L, i, k, d)] = c[k];
}

template <class X>
__device__ __forceinline__ typename X::V fri_load(const typename X::B *src, const FriLayout &L, u64 i) {
    typedef typename X::B B;
    const u32 d = sizeof(typename X::V) / sizeof(B);
    typename X::V v;
    B *c = reinterpret_cast<B *>(&v);
#pragma unroll
    for (u32 k = 0; k < d; k++) c[k] = src[fri_addr(L, i, k, d)];
    return v;
}

// FriDeep is a DEEP launch's fraction: with D(x) = Π_p (x − z_p) (D[0…P],
// D[P] = 1), A and B of degree < P (A[0…P−1], B[0…P−1]), the quotient of
// the batch at x is q(x) = (G(x)·A(x) − B(x))/D(x) (prover/fri's
// deepFraction; the host has multiplied A and B by the launch's scale), and
// the launch stores q, or adds it where acc is set. pw (prime fields) is
// the coset: pw[0] = x_0, pw[1+b] = ω^(2^b). GF(2^64)'s launch takes the
// points z_p themselves in D[0…P−1] (FriDeepB) and sub, the subspace:
// sub[0] its shift, sub[1+b] basis vector b.
template <class V, class P>
struct FriDeep {
    V A[FRI_MAXP], Bq[FRI_MAXP], D[FRI_MAXP + 1];
    P pw[FRI_POW];
};

// fri_deep: dst (layout L) gets q(x_i) or dst + q(x_i) for i < n from G,
// the batch's combination Σ_j α^j·col_j (natural order, n entries). Thread
// t of a block takes the K rows i = (b·K + k)·T + t, x_i = x_(i−T)·ω^T; the
// K denominators are inverted together (Montgomery's trick).
template <class X, class Pt>
__device__ __forceinline__ void fri_deep(typename X::B *dst, const typename X::V *__restrict__ G, u64 n, FriLayout L,
                                         const FriDeep<typename X::V, typename X::P> &f, u32 P, u32 acc) {
    typedef typename X::V V;
    const typename X::P wT = f.pw[1 + FRI_LOGT]; // ω^T
    for (u64 base = (u64)blockIdx.x * (FRI_K * FRI_T); base < n; base += (u64)gridDim.x * (FRI_K * FRI_T)) {
        V num[FRI_K], den[FRI_K];
        typename X::P x = Pt::point(f.pw, base + threadIdx.x);
#pragma unroll
        for (int k = 0; k < FRI_K; k++) {
            u64 i = base + (u64)k * FRI_T + threadIdx.x;
            if (k > 0) x = X::bmul(x, wT);
            V Ax = f.A[P - 1], Bx = f.Bq[P - 1], Dx = f.D[P];
            for (int e = (int)P - 1; e >= 0; e--) {
                Dx = X::add(X::mul_base(Dx, x), f.D[e]);
                if (e < (int)P - 1) {
                    Ax = X::add(X::mul_base(Ax, x), f.A[e]);
                    Bx = X::add(X::mul_base(Bx, x), f.Bq[e]);
                }
            }
            den[k] = Dx;
            num[k] = X::zero();
            if (i < n) num[k] = X::sub(X::mul(G[i], Ax), Bx);
        }
        V pre[FRI_K];
        pre[0] = den[0];
#pragma unroll
        for (int k = 1; k < FRI_K; k++) pre[k] = X::mul(pre[k - 1], den[k]);
        V inv = X::inv(pre[FRI_K - 1]);
#pragma unroll
        for (int k = FRI_K - 1; k >= 0; k--) {
            V q = k > 0 ? X::mul(inv, pre[k - 1]) : inv;
            if (k > 0) inv = X::mul(inv, den[k]);
            q = X::mul(num[k], q);
            u64 i = base + (u64)k * FRI_T + threadIdx.x;
            if (i < n) {
                if (acc) q = X::add(q, fri_load<X>(dst, L, i));
                fri_store<X>(dst, L, i, q);
            }
        }
    }
}

#ifdef FRI_PRIME

// FriE4, FriG2, FriBN: the challenge fields of ntt_ext.cu with subtraction
// and the coordinate count, in Montgomery form.
template <class F, u32 W>
struct FriE4 : Ext4<F, W> {
    typedef Ext4<F, W> X;
    typedef u32 P;
    __device__ static __forceinline__ typename X::V sub(typename X::V a, typename X::V b) {
#pragma unroll
        for (int i = 0; i < 4; i++) a.m[i] = F::sub(a.m[i], b.m[i]);
        return a;
    }
};

struct FriG2 {
    typedef Goldilocks F;
    typedef u64 B;
    typedef u64 P;
    typedef G2 V;
    static constexpr u64 RINV = 0xfffffffe00000001ull; // 2^−64 mod p
    __device__ static __forceinline__ B bmul(B a, B b) { return F::mul(F::mul(a, b), RINV); }
    __device__ static __forceinline__ V zero() {
        V r = {{0ull, 0ull}};
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
    __device__ static __forceinline__ V sub(V a, V b) {
        a.c[0] = F::sub(a.c[0], b.c[0]);
        a.c[1] = F::sub(a.c[1], b.c[1]);
        return a;
    }
    __device__ static __forceinline__ V mul_base(V a, B x) {
        a.c[0] = bmul(a.c[0], x);
        a.c[1] = bmul(a.c[1], x);
        return a;
    }
    // mul: (a0 + a1·u)(b0 + b1·u), u² = 7 (a plain product by 7).
    __device__ static __forceinline__ V mul(V a, V b) {
        V r;
        r.c[0] = F::add(bmul(a.c[0], b.c[0]), F::mul(bmul(a.c[1], b.c[1]), 7ull));
        r.c[1] = F::add(bmul(a.c[0], b.c[1]), bmul(a.c[1], b.c[0]));
        return r;
    }
    __device__ static B binv(B a) {
        const u64 e = F::P - 2;
        B r = a;
        for (int b = 62; b >= 0; b--) {
            r = bmul(r, r);
            if ((e >> b) & 1ull) r = bmul(r, a);
        }
        return r;
    }
    __device__ static V inv(V a) {
        B n = F::sub(bmul(a.c[0], a.c[0]), F::mul(bmul(a.c[1], a.c[1]), 7ull));
        B ni = binv(F::canon(n));
        V r;
        r.c[0] = bmul(a.c[0], ni);
        r.c[1] = F::sub(0ull, bmul(a.c[1], ni));
        return r;
    }
};

struct FriBN : BN254Ext1 {
    typedef Fr4 P;
    __device__ static __forceinline__ V sub(const V &a, const V &b) { return BN254::sub(a, b); }
};

// CosetPoint: x_i = pw[0]·Π_{bit b of i} pw[1+b].
template <class X>
struct CosetPoint {
    __device__ static __forceinline__ typename X::P point(const typename X::P *pw, u64 i) {
        typename X::P x = pw[0];
#pragma unroll 1
        for (int b = 0; b < FRI_POW - 1; b++) {
            if ((i >> b) & 1ull) x = X::bmul(x, pw[1 + b]);
        }
        return x;
    }
};

// FriFoldP is a prime fold's constants: the challenge, the inverse points'
// table (pw[0] = 1/shift, pw[1+b] = ω^(−2^b)), the inverse DFT's twiddles
// ζ^(−i) (i < a/2, ζ = ω^(n/a)) and 1/a.
template <class V, class B>
struct FriFoldP {
    V beta;
    B pw[FRI_POW];
    B tw[8];
    B ainv, pad[3];
};

// fri_fold_p: leaf j < m of src (layout (log m, LA, strided)) folded by
// a = 2^LA into entry j of dst (layout L): with buf[rev(t)] = f(x_j·ζ^t),
// the inverse DFT c_k = Σ_t ζ^(−tk)·f(x_j·ζ^t), then (1/a)·Σ_k c_k·(β/x_j)^k
// by Horner's rule (prover/fri's leafFolder.fold).
template <class X, int LA>
__device__ __forceinline__ void fri_fold_p(typename X::B *dst, const typename X::B *__restrict__ src, u64 m, u32 logM,
                                           FriLayout L, const FriFoldP<typename X::V, typename X::B> &f) {
    typedef typename X::V V;
    typedef typename X::B B;
    const int A = 1 << LA;
    const FriLayout S = {logM, (u32)LA, 1u, 0u};
    for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += (u64)gridDim.x * blockDim.x) {
        V buf[A];
#pragma unroll
        for (int t = 0; t < A; t++) {
            int r = (int)(__brev((u32)t) >> (32 - LA));
            buf[r] = fri_load<X>(src, S, j + ((u64)t << logM));
        }
#pragma unroll
        for (int h = 1; h < A; h <<= 1) {
            const int step = A / (2 * h);
#pragma unroll
            for (int b = 0; b < A; b += 2 * h) {
#pragma unroll
                for (int i = 0; i < h; i++) {
                    V w = buf[b + h + i];
                    if (i > 0) w = X::mul_base(w, f.tw[i * step]);
                    V u = buf[b + i];
                    buf[b + i] = X::add(u, w);
                    buf[b + h + i] = X::sub(u, w);
                }
            }
        }
        B xinv = CosetPoint<X>::point(f.pw, j);
        V g = X::mul_base(f.beta, xinv);
        V acc = buf[A - 1];
#pragma unroll
        for (int k = A - 2; k >= 0; k--) acc = X::add(X::mul(acc, g), buf[k]);
        fri_store<X>(dst, L, j, X::mul_base(acc, f.ainv));
    }
}

#define FRI_PRIME_KERNELS(name, X)                                                                                   \
    extern "C" __global__ void __launch_bounds__(FRI_T)                                                              \
        fri_##name##_deep(X::B *dst, const X::V *G, u64 n, FriLayout L, FriDeep<X::V, X::P> f, u32 P, u32 acc) {    \
        fri_deep<X, CosetPoint<X>>(dst, G, n, L, f, P, acc);                                                         \
    }                                                                                                                \
    extern "C" __global__ void fri_##name##_fold1(X::B *dst, const X::B *src, u64 m, u32 logM, FriLayout L,         \
                                                  FriFoldP<X::V, X::B> f) {                                          \
        fri_fold_p<X, 1>(dst, src, m, logM, L, f);                                                                   \
    }                                                                                                                \
    extern "C" __global__ void fri_##name##_fold2(X::B *dst, const X::B *src, u64 m, u32 logM, FriLayout L,         \
                                                  FriFoldP<X::V, X::B> f) {                                          \
        fri_fold_p<X, 2>(dst, src, m, logM, L, f);                                                                   \
    }                                                                                                                \
    extern "C" __global__ void fri_##name##_fold3(X::B *dst, const X::B *src, u64 m, u32 logM, FriLayout L,         \
                                                  FriFoldP<X::V, X::B> f) {                                          \
        fri_fold_p<X, 3>(dst, src, m, logM, L, f);                                                                   \
    }                                                                                                                \
    extern "C" __global__ void fri_##name##_fold4(X::B *dst, const X::B *src, u64 m, u32 logM, FriLayout L,         \
                                                  FriFoldP<X::V, X::B> f) {                                          \
        fri_fold_p<X, 4>(dst, src, m, logM, L, f);                                                                   \
    }

#if defined(NTT_ONLY_babybear)
typedef FriE4<BabyBear, 11u> FriBabyBear;
FRI_PRIME_KERNELS(babybear, FriBabyBear)
#endif
#if defined(NTT_ONLY_koalabear)
typedef FriE4<KoalaBear, 3u> FriKoalaBear;
FRI_PRIME_KERNELS(koalabear, FriKoalaBear)
#endif
#if defined(NTT_ONLY_goldilocks)
FRI_PRIME_KERNELS(goldilocks, FriG2)
#endif
#if defined(NTT_ONLY_bn254)
FRI_PRIME_KERNELS(bn254, FriBN)
#endif

#endif // FRI_PRIME

#ifdef FRI_BINARY

// GF(2^128) over GF(2^64) (gf128.cu), as FRI's challenge field.
struct FriGF {
    typedef u64 B;
    typedef u64 P;
    typedef ulonglong2 V;
    __device__ static __forceinline__ V zero() { return u2(0, 0); }
    __device__ static __forceinline__ V canon(V a) { return a; }
    __device__ static __forceinline__ V add(V a, V b) { return u2(a.x ^ b.x, a.y ^ b.y); }
    __device__ static __forceinline__ V sub(V a, V b) { return u2(a.x ^ b.x, a.y ^ b.y); }
    __device__ static __forceinline__ V mul(V a, V b) { return gf128_mul(a, b); }
    __device__ static __forceinline__ V mul_base(V a, B x) { return u2(gf64_mul(a.x, x), gf64_mul(a.y, x)); }
    __device__ static __forceinline__ V inv(V a) { return gf128_inv(a); }
};

// SubspacePoint: x_i = sub[0] + Σ_{bit b of i} sub[1+b].
struct SubspacePoint {
    __device__ static __forceinline__ u64 point(const u64 *sub, u64 i) {
        u64 x = sub[0];
#pragma unroll 1
        for (int b = 0; b < FRI_POW - 1; b++) {
            if ((i >> b) & 1ull) x ^= sub[1 + b];
        }
        return x;
    }
};

// fri_gf64_deep is fri_deep for GF(2^64) with the points z_p = s_p + t_p·y
// (f.D[p]) in place of D's coefficients: x − z_p = (x + s_p) + t_p·y has
// the inverse conj_p/N_p, conj_p = (x + s_p + t_p) + t_p·y and the norm
// N_p = (x + s_p)(x + s_p + t_p) + C·t_p² in GF(2^64), so that
// 1/D(x) = Π_p conj_p / Π_p N_p and the K rows of a thread share one
// GF(2^64) inversion (Montgomery's trick) instead of one in GF(2^128). N_p
// is not zero: x is in the domain and z_p is not. Rows i = (b·K + k)·T + t,
// x_i = x_(b·K·T + t) + Σ_(bit c of k) sub[1 + log T + c].
extern "C" __global__ void __launch_bounds__(FRI_T)
    fri_gf64_deep(u64 *dst, const ulonglong2 *__restrict__ G, u64 n, FriLayout L, FriDeep<ulonglong2, u64> f, u32 P,
                  u32 acc) {
    for (u64 base = (u64)blockIdx.x * (FRI_KB * FRI_T); base < n; base += (u64)gridDim.x * (FRI_KB * FRI_T)) {
        const u64 x0 = SubspacePoint::point(f.pw, base + threadIdx.x);
        ulonglong2 num[FRI_KB];
        u64 nrm[FRI_KB];
#pragma unroll
        for (int k = 0; k < FRI_KB; k++) {
            const u64 i = base + (u64)k * FRI_T + threadIdx.x;
            u64 x = x0;
#pragma unroll
            for (int c = 0; (1 << c) < FRI_KB; c++) {
                if ((k >> c) & 1) x ^= f.pw[1 + FRI_LOGT + c];
            }
            ulonglong2 Ax = f.A[P - 1], Bx = f.Bq[P - 1], cj = u2(1, 0);
            u64 N = 1;
            for (int e = (int)P - 1; e >= 0; e--) {
                if (e < (int)P - 1) {
                    Ax = FriGF::add(FriGF::mul_base(Ax, x), f.A[e]);
                    Bx = FriGF::add(FriGF::mul_base(Bx, x), f.Bq[e]);
                }
                const u64 s = x ^ f.D[e].x, t = f.D[e].y;
                const u64 Ne = gf64_mul(s, s ^ t) ^ gf64_mulC(gf64_sqr(t));
                const ulonglong2 ce = u2(s ^ t, t);
                if (e == (int)P - 1) {
                    N = Ne;
                    cj = ce;
                } else {
                    N = gf64_mul(N, Ne);
                    cj = gf128_mul(cj, ce);
                }
            }
            num[k] = u2(0, 0);
            nrm[k] = 1;
            if (i < n) {
                num[k] = gf128_mul(FriGF::sub(gf128_mul(G[i], Ax), Bx), cj);
                nrm[k] = N;
            }
        }
        u64 pre[FRI_KB];
        pre[0] = nrm[0];
#pragma unroll
        for (int k = 1; k < FRI_KB; k++) pre[k] = gf64_mul(pre[k - 1], nrm[k]);
        u64 inv = gf64_inv(pre[FRI_KB - 1]);
#pragma unroll
        for (int k = FRI_KB - 1; k >= 0; k--) {
            const u64 ni = k > 0 ? gf64_mul(inv, pre[k - 1]) : inv;
            if (k > 0) inv = gf64_mul(inv, nrm[k]);
            const u64 i = base + (u64)k * FRI_T + threadIdx.x;
            if (i < n) {
                ulonglong2 q = FriGF::mul_base(num[k], ni);
                if (acc) q = FriGF::add(q, fri_load<FriGF>(dst, L, i));
                fri_store<FriGF>(dst, L, i, q);
            }
        }
    }
}

#define FRI_BIN_NEXT 40 // basis vectors of a level (a subspace of 2^41 points at most)

// FriFoldB is a binary fold's levels (prover/fri's binLevel): level r's
// challenge β^(2^r)/β_0, shift/β_0 and β_(i+1)/β_0 (β the level's basis).
struct FriFoldB {
    ulonglong2 beta[4];
    u64 shift[4];
    u64 next[4][FRI_BIN_NEXT];
};

// fri_fold_b: leaf j < m of src (layout (log m, LA, contiguous)) folded by
// 2^LA into entry j of dst (layout L): LA folds by 2, pair p of level r at
// x = x_(2J)/β_0, J = j·2^(LA−1−r) + p: v + ((x + β)/β_0)·(v + w).
template <int LA>
__device__ __forceinline__ void fri_fold_b(u64 *dst, const u64 *__restrict__ src, u64 m, u32 logM, FriLayout L,
                                           const FriFoldB &f) {
    const int A = 1 << LA;
    const FriLayout S = {logM, (u32)LA, 0u, 0u};
    for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += (u64)gridDim.x * blockDim.x) {
        ulonglong2 buf[A];
#pragma unroll
        for (int t = 0; t < A; t++) buf[t] = fri_load<FriGF>(src, S, (j << LA) + t);
#pragma unroll
        for (int r = 0; r < LA; r++) {
            const int cnt = A >> (r + 1);
#pragma unroll
            for (int p = 0; p < cnt; p++) {
                u64 J = j * cnt + p;
                u64 x = f.shift[r];
#pragma unroll 1
                for (int b = 0; b < FRI_BIN_NEXT; b++) {
                    if ((J >> b) & 1ull) x ^= f.next[r][b];
                }
                ulonglong2 v = buf[2 * p], w = buf[2 * p + 1];
                ulonglong2 s = gf128_mul(u2(v.x ^ w.x, v.y ^ w.y), u2(x ^ f.beta[r].x, f.beta[r].y));
                buf[p] = u2(v.x ^ s.x, v.y ^ s.y);
            }
        }
        fri_store<FriGF>(dst, L, j, buf[0]);
    }
}

extern "C" __global__ void fri_gf64_fold1(u64 *dst, const u64 *src, u64 m, u32 logM, FriLayout L, FriFoldB f) {
    fri_fold_b<1>(dst, src, m, logM, L, f);
}
extern "C" __global__ void fri_gf64_fold2(u64 *dst, const u64 *src, u64 m, u32 logM, FriLayout L, FriFoldB f) {
    fri_fold_b<2>(dst, src, m, logM, L, f);
}
extern "C" __global__ void fri_gf64_fold3(u64 *dst, const u64 *src, u64 m, u32 logM, FriLayout L, FriFoldB f) {
    fri_fold_b<3>(dst, src, m, logM, L, f);
}
extern "C" __global__ void fri_gf64_fold4(u64 *dst, const u64 *src, u64 m, u32 logM, FriLayout L, FriFoldB f) {
    fri_fold_b<4>(dst, src, m, logM, L, f);
}

#endif // FRI_BINARY
