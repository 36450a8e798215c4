// Vector arithmetic over a trace field on the device (package
// gpu/fieldvec): sums, products, constants, batch inversion, indexed
// scaling, points of a coset or a subspace and linear combinations of
// columns, the passes a prover runs over an LDE to evaluate its
// constraints. It is compiled into each field's FRI program after fri.cu
// (cuda.FRIProgram), whose arithmetic it uses.
//
// Every kernel takes n, the length of its vectors, and runs a grid-stride
// loop; every value it stores is canonical, so results equal the host's
// field arithmetic bit for bit. The prime fields are in Montgomery form as
// gnark-crypto stores them; GF(2^64) is field/gf64's.

#define FV_TAB 32  // entries of an indexed scaling's table
#define FV_COMB 32 // columns of one linear combination
#define FV_K 8     // elements per thread of a batch inversion

// FvTab is ScaleIndexed's table: dst[i] = a[i]·v[(i >> shift) & mask].
template <class B>
struct FvTab {
    B v[FV_TAB];
    u32 shift, mask, pad[2];
};

// FvPow is a table of points: Geometric's x_0 and ratio^(2^b), or Span's
// shift and basis (FRI_POW entries).
template <class B>
struct FvPow {
    B p[FRI_POW];
};

template <class B>
struct FvComb {
    B c[FV_COMB];
};

#define FV_LOOP(i, n) for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (u64)gridDim.x * blockDim.x)

// fv_inv: dst[i] = 1/a[i], 0 for 0. Thread t of a block takes the FV_K
// elements (b·FV_K + k)·blockDim + t, inverted together (Montgomery's
// trick) with zeros set aside.
template <class F>
__device__ __forceinline__ void fv_inv(typename F::B *dst, const typename F::B *__restrict__ a, u64 n) {
    typedef typename F::B B;
    const u64 T = blockDim.x;
    for (u64 base = (u64)blockIdx.x * (FV_K * T); base < n; base += (u64)gridDim.x * (FV_K * T)) {
        B v[FV_K], pre[FV_K];
        bool z[FV_K];
#pragma unroll
        for (int k = 0; k < FV_K; k++) {
            u64 i = base + (u64)k * T + threadIdx.x;
            v[k] = F::one();
            z[k] = true;
            if (i < n) {
                B x = a[i];
                z[k] = F::is_zero(x);
                if (!z[k]) v[k] = x;
            }
            pre[k] = k > 0 ? F::mul(pre[k - 1], v[k]) : v[k];
        }
        B inv = F::inv(pre[FV_K - 1]);
#pragma unroll
        for (int k = FV_K - 1; k >= 0; k--) {
            B q = k > 0 ? F::mul(inv, pre[k - 1]) : inv;
            if (k > 0) inv = F::mul(inv, v[k]);
            u64 i = base + (u64)k * T + threadIdx.x;
            if (i < n) dst[i] = z[k] ? F::zero() : F::canon(q);
        }
    }
}

// fv_geometric: dst[i] = p[0]·Π_{bit b of i} p[1+b] (x_0·r^i with
// p[1+b] = r^(2^b)); fv_span: dst[i] = p[0] + Σ_{bit b of i} p[1+b].
template <class F>
__device__ __forceinline__ typename F::B fv_geometric(const FvPow<typename F::B> &t, u64 i) {
    typename F::B x = t.p[0];
#pragma unroll 1
    for (int b = 0; b < FRI_POW - 1; b++) {
        if ((i >> b) & 1ull) x = F::mul(x, t.p[1 + b]);
    }
    return F::canon(x);
}

template <class F>
__device__ __forceinline__ typename F::B fv_span(const FvPow<typename F::B> &t, u64 i) {
    typename F::B x = t.p[0];
#pragma unroll 1
    for (int b = 0; b < FRI_POW - 1; b++) {
        if ((i >> b) & 1ull) x = F::add(x, t.p[1 + b]);
    }
    return F::canon(x);
}

#define FV_KERNELS(name, F)                                                                                    \
    extern "C" __global__ void fv_##name##_add(F::B *dst, const F::B *a, const F::B *b, u64 n) {               \
        FV_LOOP(i, n) dst[i] = F::canon(F::add(a[i], b[i]));                                                   \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_sub(F::B *dst, const F::B *a, const F::B *b, u64 n) {               \
        FV_LOOP(i, n) dst[i] = F::canon(F::sub(a[i], b[i]));                                                   \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_mul(F::B *dst, const F::B *a, const F::B *b, u64 n) {               \
        FV_LOOP(i, n) dst[i] = F::canon(F::mul(a[i], b[i]));                                                   \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_addc(F::B *dst, const F::B *a, F::B c, u64 n) {                     \
        FV_LOOP(i, n) dst[i] = F::canon(F::add(a[i], c));                                                      \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_subc(F::B *dst, const F::B *a, F::B c, u64 n) {                     \
        FV_LOOP(i, n) dst[i] = F::canon(F::sub(a[i], c));                                                      \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_scale(F::B *dst, const F::B *a, F::B c, u64 n) {                    \
        FV_LOOP(i, n) dst[i] = F::canon(F::mul(a[i], c));                                                      \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_scaleidx(F::B *dst, const F::B *a, FvTab<F::B> t, u64 n) {          \
        FV_LOOP(i, n) dst[i] = F::canon(F::mul(a[i], t.v[(i >> t.shift) & t.mask]));                           \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_inv(F::B *dst, const F::B *a, u64 n) { fv_inv<F>(dst, a, n); }      \
    extern "C" __global__ void fv_##name##_geometric(F::B *dst, FvPow<F::B> t, u64 n) {                        \
        FV_LOOP(i, n) dst[i] = fv_geometric<F>(t, i);                                                          \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_span(F::B *dst, FvPow<F::B> t, u64 n) {                             \
        FV_LOOP(i, n) dst[i] = fv_span<F>(t, i);                                                               \
    }                                                                                                          \
    extern "C" __global__ void fv_##name##_combine(F::B *dst, const F::B *cols, FvComb<F::B> c, u32 k, u32 acc, \
                                                   u64 n) {                                                    \
        FV_LOOP(i, n) {                                                                                        \
            F::B s = F::mul(cols[i], c.c[0]);                                                                  \
            if (acc) s = F::add(s, dst[i]);                                                                    \
            for (u32 j = 1; j < k; j++) s = F::add(s, F::mul(cols[(u64)j * n + i], c.c[j]));                   \
            dst[i] = F::canon(s);                                                                              \
        }                                                                                                      \
    }

#ifdef FRI_PRIME

// FvSmall: BabyBear and KoalaBear (ntt_fields.cu's Montgomery products,
// canonical results; the inverse is Ext4's binv).
template <class Fd, u32 W>
struct FvSmall {
    typedef u32 B;
    __device__ static __forceinline__ B zero() { return 0u; }
    __device__ static __forceinline__ B one() { return (u32)((((u64)1) << 32) % Fd::P); } // R mod p
    __device__ static __forceinline__ bool is_zero(B a) { return a == 0u; }
    __device__ static __forceinline__ B canon(B a) { return a; }
    __device__ static __forceinline__ B add(B a, B b) { return Fd::add(a, b); }
    __device__ static __forceinline__ B sub(B a, B b) { return Fd::sub(a, b); }
    __device__ static __forceinline__ B mul(B a, B b) { return Fd::mul(a, b); }
    __device__ static __forceinline__ B inv(B a) { return Ext4<Fd, W>::binv(a); }
};

// FvGold: Goldilocks with FriG2's Montgomery products; sums and products
// may leave any 64-bit representative, made canonical when stored.
struct FvGold {
    typedef u64 B;
    __device__ static __forceinline__ B zero() { return 0ull; }
    __device__ static __forceinline__ B one() { return 0xffffffffull; } // 2^64 mod p
    __device__ static __forceinline__ bool is_zero(B a) { return Goldilocks::canon(a) == 0ull; }
    __device__ static __forceinline__ B canon(B a) { return Goldilocks::canon(a); }
    __device__ static __forceinline__ B add(B a, B b) { return Goldilocks::add(a, b); }
    __device__ static __forceinline__ B sub(B a, B b) { return Goldilocks::sub(a, b); }
    __device__ static __forceinline__ B mul(B a, B b) { return FriG2::bmul(a, b); }
    __device__ static __forceinline__ B inv(B a) { return FriG2::binv(Goldilocks::canon(a)); }
};

// FvBN: BN254 (ntt_bn254's Montgomery products, canonical results).
struct FvBN {
    typedef Fr4 B;
    __device__ static __forceinline__ B zero() {
        B r = {{0ull, 0ull, 0ull, 0ull}};
        return r;
    }
    // one: R mod q, gnark-crypto's fr.One().
    __device__ static __forceinline__ B one() {
        B r = {{0xac96341c4ffffffbull, 0x36fc76959f60cd29ull, 0x666ea36f7879462eull, 0x0e0a77c19a07df2full}};
        return r;
    }
    __device__ static __forceinline__ bool is_zero(const B &a) { return (a.l[0] | a.l[1] | a.l[2] | a.l[3]) == 0ull; }
    __device__ static __forceinline__ B canon(const B &a) { return a; }
    __device__ static __forceinline__ B add(const B &a, const B &b) { return BN254::add(a, b); }
    __device__ static __forceinline__ B sub(const B &a, const B &b) { return BN254::sub(a, b); }
    __device__ static __forceinline__ B mul(const B &a, const B &b) { return BN254::mul(a, b); }
    __device__ static __forceinline__ B inv(const B &a) { return BN254Ext1::inv(a); }
};

#if defined(NTT_ONLY_babybear)
typedef FvSmall<BabyBear, 11u> FvBabyBear;
FV_KERNELS(babybear, FvBabyBear)
#endif
#if defined(NTT_ONLY_koalabear)
typedef FvSmall<KoalaBear, 3u> FvKoalaBear;
FV_KERNELS(koalabear, FvKoalaBear)
#endif
#if defined(NTT_ONLY_goldilocks)
FV_KERNELS(goldilocks, FvGold)
#endif
#if defined(NTT_ONLY_bn254)
FV_KERNELS(bn254, FvBN)
#endif

#endif // FRI_PRIME

#ifdef FRI_BINARY

// FvGF: GF(2^64) (gf64.cu's product, gf128.cu's inverse).
struct FvGF {
    typedef u64 B;
    __device__ static __forceinline__ B zero() { return 0ull; }
    __device__ static __forceinline__ B one() { return 1ull; }
    __device__ static __forceinline__ bool is_zero(B a) { return a == 0ull; }
    __device__ static __forceinline__ B canon(B a) { return a; }
    __device__ static __forceinline__ B add(B a, B b) { return a ^ b; }
    __device__ static __forceinline__ B sub(B a, B b) { return a ^ b; }
    __device__ static __forceinline__ B mul(B a, B b) { return gf64_mul(a, b); }
    __device__ static __forceinline__ B inv(B a) { return gf64_inv(a); }
};

FV_KERNELS(gf64, FvGF)

#endif // FRI_BINARY
