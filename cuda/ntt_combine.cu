// Linear combinations of columns (gpu/primentt's Combine), joined after the
// NTT files into each field's program: dst[i] = Σ_j alpha.c[j]·cols[j·n + i]
// for i < n and j < ncols ≤ COMBINE_MAX, added to dst[i] when acc is set
// (every launch after a batch's first). The coefficients are the second
// operand of the field's mul: plain values for Goldilocks, Montgomery form
// for the others, so that Montgomery data gives Montgomery results. What is
// stored is canonical, as gnark-crypto's elements are.

#define COMBINE_MAX 32

template <class F>
struct CombineCoeffs {
    typename F::E c[COMBINE_MAX];
};

template <class F>
__device__ __forceinline__ void ntt_combine(typename F::E *dst, const typename F::E *cols, u64 n,
                                            const CombineCoeffs<F> &alpha, u32 ncols, u32 acc) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        typename F::E s = {};
        if (acc) {
            s = dst[i];
        }
        for (u32 j = 0; j < ncols; j++) {
            s = F::add(s, F::mul(cols[j * n + i], alpha.c[j]));
        }
        dst[i] = fcanon<F>(s);
    }
}

#define NTT_COMBINE(name, F)                                                                              \
    extern "C" __global__ void ntt_##name##_combine(F::E *dst, const F::E *cols, u64 n,                 \
                                                    CombineCoeffs<F> alpha, u32 ncols, u32 acc) {        \
        ntt_combine<F>(dst, cols, n, alpha, ncols, acc);                                                  \
    }

#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
NTT_COMBINE(babybear, BabyBear)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
NTT_COMBINE(koalabear, KoalaBear)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
NTT_COMBINE(goldilocks, Goldilocks)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
NTT_COMBINE(bn254, BN254)
#endif
