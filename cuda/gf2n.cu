// GF(2^n) = GF(2)[x]/(x^n + x^e1 + x^e2 + x^e3 + 1) batched products, n =
// 128 ... 2048 (package gpu/gf2n, the GPU twin of field/gf2n). The program
// defines GF2N_W, the 64-bit words of one element (n/64); the exponents
// e1 > e2 > e3 (all below 32) are kernel arguments, taken from field/gf2n's
// polynomial. An element is GF2N_W words, least significant first: bit j
// of word i is the coefficient of x^(64i+j); a batch is the elements end to
// end. Every pointer must be 16-byte aligned.
//
// Four designs, one kernel each:
//   - gf2n_mul_thread: one element per thread. Karatsuba on 64-bit words
//     down to single words, each 64x64 carry-less product three 32x32 ones
//     (Karatsuba again) built from integer multiplications of operands with
//     holes; then the reduction by shifts of the high words. The smallest
//     levels (GF2N_REGW words) are unrolled in registers; above, each level
//     is a non-inlined function over local arrays, so the code stays small.
//   - gf2n_mul_reg, gf2n_mul_shared, gf2n_mul_regkara: bit-sliced, the design
//     of Ben-Sasson, Hamilis, Silberstein and Tromer. A warp takes a chunk of
//     32 elements and transposes it (warp shuffles) into n rows of 32-bit
//     words in shared memory, row r holding bit r of the 32 elements. The
//     rows form m = n/32 blocks of 32, and the product of two blocks is the
//     warp's n = 32 product (mult32): lane l holds row l of each operand and
//     receives the rows it needs from the other lanes by shuffles (the
//     register cache, _reg) or reads them from shared memory (the seed's
//     baseline, _shared). The large product is built on it like the seed's
//     hybrid: by schoolbook over the m x m pairs of blocks (_reg, _shared),
//     or by Karatsuba over the blocks (_regkara: 3^log2(m) block products
//     instead of m^2, the seed's open problem). The 2n-row product is
//     reduced in place (each high row folds onto four lower rows, one shuffle
//     per exponent) and transposed back.

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL_MASK 0xffffffffu

#ifndef GF2N_W
#error "GF2N_W must be defined (the words of one element)"
#endif
#define GF2N_M (2 * GF2N_W) // 32-bit blocks of one element

// ---- One element per thread -------------------------------------------

// gf2n_clmul32 returns the 64-bit carry-less product of x and y: each
// operand split into four classes of every fourth bit; a class holds 8 bits,
// so at most 8 partial products meet at one bit and their carries stay below
// the next bit of the same class.
__device__ __forceinline__ u64 gf2n_clmul32(u32 x, u32 y) {
    const u32 m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    u32 x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    u32 y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    u64 z0 = ((u64)x0 * y0) ^ ((u64)x1 * y3) ^ ((u64)x2 * y2) ^ ((u64)x3 * y1);
    u64 z1 = ((u64)x0 * y1) ^ ((u64)x1 * y0) ^ ((u64)x2 * y3) ^ ((u64)x3 * y2);
    u64 z2 = ((u64)x0 * y2) ^ ((u64)x1 * y1) ^ ((u64)x2 * y0) ^ ((u64)x3 * y3);
    u64 z3 = ((u64)x0 * y3) ^ ((u64)x1 * y2) ^ ((u64)x2 * y1) ^ ((u64)x3 * y0);
    return (z0 & 0x1111111111111111ull) ^ (z1 & 0x2222222222222222ull) ^
           (z2 & 0x4444444444444444ull) ^ (z3 & 0x8888888888888888ull);
}

// gf2n_clmul64 sets lo, hi to the 128-bit carry-less product of a and b.
__device__ __forceinline__ void gf2n_clmul64(u64 a, u64 b, u64 &lo, u64 &hi) {
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 l = gf2n_clmul32(a0, b0);
    u64 h = gf2n_clmul32(a1, b1);
    u64 m = gf2n_clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    lo = l ^ (m << 32);
    hi = h ^ (m >> 32);
}

template <int W> __device__ __forceinline__ void gf2n_kara(u64 *p, const u64 *a, const u64 *b);

// gf2n_kara_step is one Karatsuba level: p (2W words) = a·b (W words each).
// With a = a0 + a1·X, X = x^(32W): a·b = P0 + (P0 + P1 + P2)·X + P1·X^2,
// P0 = a0·b0, P1 = a1·b1, P2 = (a0 + a1)·(b0 + b1).
template <int W> __device__ __forceinline__ void gf2n_kara_step(u64 *p, const u64 *a, const u64 *b) {
    if constexpr (W == 1) {
        gf2n_clmul64(a[0], b[0], p[0], p[1]);
    } else {
        constexpr int H = W / 2;
        u64 sa[H], sb[H], m[W];
        gf2n_kara<H>(p, a, b);
        gf2n_kara<H>(p + W, a + H, b + H);
#pragma unroll
        for (int i = 0; i < H; i++) {
            sa[i] = a[i] ^ a[H + i];
            sb[i] = b[i] ^ b[H + i];
        }
        gf2n_kara<H>(m, sa, sb);
#pragma unroll
        for (int i = 0; i < W; i++) m[i] ^= p[i] ^ p[W + i];
#pragma unroll
        for (int i = 0; i < W; i++) p[H + i] ^= m[i];
    }
}

// Large levels are functions of their own over local arrays: inlining all
// of n = 2048 would make a kernel of some 10^5 instructions.
template <int W> __device__ __noinline__ void gf2n_kara_big(u64 *p, const u64 *a, const u64 *b) {
    gf2n_kara_step<W>(p, a, b);
}

// GF2N_REGW is the largest level unrolled in registers, in words: 4 at
// n = 256, 2 at larger n, where the larger unrolled levels spill and run
// slower than the calls (TestReportRegisterLevels, BENCHMARKS.md).
#ifndef GF2N_REGW
#define GF2N_REGW (GF2N_W == 4 ? 4 : 2)
#endif

template <int W> __device__ __forceinline__ void gf2n_kara(u64 *p, const u64 *a, const u64 *b) {
    if constexpr (W <= GF2N_REGW) {
        gf2n_kara_step<W>(p, a, b);
    } else {
        gf2n_kara_big<W>(p, a, b);
    }
}

// gf2n_mul_thread sets z[i] = x[i]·y[i] for count elements, one per thread.
// z may be x or y.
extern "C" __global__ void gf2n_mul_thread(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    constexpr int W = GF2N_W;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
        u64 a[W], b[W], p[2 * W];
        const ulonglong2 *xa = (const ulonglong2 *)(x + i * W);
        const ulonglong2 *ya = (const ulonglong2 *)(y + i * W);
#pragma unroll
        for (int k = 0; k < W / 2; k++) {
            ulonglong2 u = xa[k], v = ya[k];
            a[2 * k] = u.x;
            a[2 * k + 1] = u.y;
            b[2 * k] = v.x;
            b[2 * k + 1] = v.y;
        }
        gf2n_kara<W>(p, a, b);
        // x^n = x^e1 + x^e2 + x^e3 + 1: each high word t at position W+k
        // adds t·(x^e1 + x^e2 + x^e3 + 1) at position k, spilling into k+1;
        // from the top down, so the spill of the top word into word W is
        // folded in its turn.
#pragma unroll
        for (int k = 2 * W - 1; k >= W; k--) {
            u64 t = p[k];
            p[k - W] ^= t ^ (t << e1) ^ (t << e2) ^ (t << e3);
            p[k - W + 1] ^= (t >> (64 - e1)) ^ (t >> (64 - e2)) ^ (t >> (64 - e3));
        }
        ulonglong2 *za = (ulonglong2 *)(z + i * W);
#pragma unroll
        for (int k = 0; k < W / 2; k++) {
            ulonglong2 u;
            u.x = p[2 * k];
            u.y = p[2 * k + 1];
            za[k] = u;
        }
    }
}

// ---- Bit-sliced: chunks of 32 elements ----------------------------------

// gf2n_transpose32 transposes the 32x32 bit matrix held by a warp, lane l
// holding row l (bit j is column j): afterwards lane l holds column l.
__device__ __forceinline__ u32 gf2n_transpose32(u32 x, int l) {
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
        const u32 m = s == 16 ? 0x0000ffffu : s == 8 ? 0x00ff00ffu : s == 4 ? 0x0f0f0f0fu : s == 2 ? 0x33333333u : 0x55555555u;
        u32 y = __shfl_xor_sync(FULL_MASK, x, s);
        x = (l & s) ? ((x & ~m) | ((y >> s) & m)) : ((x & m) | ((y & m) << s));
    }
    return x;
}

// gf2n_mult32_reg is the register-cache n = 32 product: lane l holds row l
// of a and of b and gets rows l and 32+l of the 63-row product. In step i
// every lane takes row i of a and row (l−i) mod 32 of b; their AND lands on
// row l when i <= l, else on row 32+l.
__device__ __forceinline__ void gf2n_mult32_reg(u32 a, u32 b, int l, u32 &lo, u32 &hi) {
    lo = 0;
    hi = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        u32 x = __shfl_sync(FULL_MASK, a, i);
        u32 y = __shfl_sync(FULL_MASK, b, (l - i) & 31);
        u32 t = x & y;
        lo ^= i <= l ? t : 0u;
        hi ^= i <= l ? 0u : t;
    }
}

// gf2n_mult32_shared is the same product with the rows read from shared
// memory (sa, sb: 32 rows each) instead of other lanes' registers.
__device__ __forceinline__ void gf2n_mult32_shared(const u32 *sa, const u32 *sb, int l, u32 &lo, u32 &hi) {
    lo = 0;
    hi = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        u32 t = sa[i] & sb[(l - i) & 31];
        lo ^= i <= l ? t : 0u;
        hi ^= i <= l ? 0u : t;
    }
}

// gf2n_fold adds the high row v (lane l holding row 32k+l, k >= m) times
// x^e at 32(k−m): lane l receives row l−e, which lands on block k−m for
// l >= e and on the block above for l < e.
__device__ __forceinline__ void gf2n_fold(u32 *lo, u32 *up, u32 v, int l, int e) {
    u32 r = __shfl_sync(FULL_MASK, v, (l - e) & 31);
    if (l >= e) *lo ^= r; else *up ^= r;
}

#define GF2N_SCHOOL 0 // block products by schoolbook, register cache
#define GF2N_SHARED 1 // schoolbook, rows from shared memory
#define GF2N_KARA 2   // block products by Karatsuba, register cache

// gf2n_chunks multiplies chunks of 32 elements, one warp per chunk. Each
// warp's shared memory holds the chunk of x (m blocks of 32 rows), of y, and
// the 2m blocks of the product: 16n bytes. Lane l owns row l of every block;
// only the shared-memory product reads other lanes' rows.
template <int MODE>
__device__ __forceinline__ void gf2n_chunks(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    constexpr int M = GF2N_M;
    extern __shared__ u32 gf2n_smem[];
    const int l = threadIdx.x & 31;
    u32 *sA = gf2n_smem + (threadIdx.x >> 5) * (4 * 32 * M);
    u32 *sB = sA + 32 * M;
    u32 *sC = sB + 32 * M;
    const u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    const u64 nchunks = (count + 31) / 32;
    for (u64 ch = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; ch < nchunks; ch += warps) {
        const u64 e = ch * 32 + l; // this lane's element
        __syncwarp();
        // Load: word j of element e, transposed, is row 32j+l of the chunk.
        const uint4 *xe = (const uint4 *)(x + e * GF2N_W);
        const uint4 *ye = (const uint4 *)(y + e * GF2N_W);
#pragma unroll 4
        for (int j = 0; j < M; j += 4) {
            uint4 u = {0u, 0u, 0u, 0u}, v = {0u, 0u, 0u, 0u};
            if (e < count) {
                u = xe[j / 4];
                v = ye[j / 4];
            }
            sA[32 * j + l] = gf2n_transpose32(u.x, l);
            sA[32 * (j + 1) + l] = gf2n_transpose32(u.y, l);
            sA[32 * (j + 2) + l] = gf2n_transpose32(u.z, l);
            sA[32 * (j + 3) + l] = gf2n_transpose32(u.w, l);
            sB[32 * j + l] = gf2n_transpose32(v.x, l);
            sB[32 * (j + 1) + l] = gf2n_transpose32(v.y, l);
            sB[32 * (j + 2) + l] = gf2n_transpose32(v.z, l);
            sB[32 * (j + 3) + l] = gf2n_transpose32(v.w, l);
        }
        for (int k = 0; k < 2 * M; k++) sC[32 * k + l] = 0;
        __syncwarp();

        if (MODE == GF2N_KARA) {
            // Karatsuba unrolled over the log2(m) levels: one product per
            // ternary string t (digit b: 0 low half, 1 high half, 2 both at
            // level b), written as the bits hi (digits 1) and sum (digits 2).
            // Its operand is the sum of the blocks i that agree with t; it
            // adds at 2^(number of digits 0 and 1) offsets: per level, digit
            // 0 at 0 or 2^b, digit 1 at 2^b or 2^(b+1), digit 2 at 2^b.
            for (u32 sum = 0; sum < M; sum++) {
                const u32 comp = (M - 1) & ~sum;
                for (u32 hi = comp;; hi = (hi - 1) & comp) {
                    u32 a = 0, b = 0;
                    for (u32 s = sum;; s = (s - 1) & sum) {
                        a ^= sA[32 * (hi | s) + l];
                        b ^= sB[32 * (hi | s) + l];
                        if (s == 0) break;
                    }
                    u32 plo, phi;
                    gf2n_mult32_reg(a, b, l, plo, phi);
                    for (u32 s = comp;; s = (s - 1) & comp) {
                        const u32 p = hi + sum + s;
                        sC[32 * p + l] ^= plo;
                        sC[32 * (p + 1) + l] ^= phi;
                        if (s == 0) break;
                    }
                    if (hi == 0) break;
                }
            }
        } else {
            for (int i = 0; i < M; i++) {
                const u32 a = sA[32 * i + l];
                for (int j = 0; j < M; j++) {
                    u32 plo, phi;
                    if (MODE == GF2N_SHARED) {
                        gf2n_mult32_shared(sA + 32 * i, sB + 32 * j, l, plo, phi);
                    } else {
                        gf2n_mult32_reg(a, sB[32 * j + l], l, plo, phi);
                    }
                    sC[32 * (i + j) + l] ^= plo;
                    sC[32 * (i + j + 1) + l] ^= phi;
                }
            }
        }

        // Reduce: from the top block down, block k >= m adds at k−m times
        // x^0, x^e1, x^e2, x^e3; the top block spills into block m, which is
        // folded in its turn.
        for (int k = 2 * M - 1; k >= M; k--) {
            const u32 v = sC[32 * k + l];
            u32 *lo = sC + 32 * (k - M) + l, *up = lo + 32;
            *lo ^= v;
            gf2n_fold(lo, up, v, l, e1);
            gf2n_fold(lo, up, v, l, e2);
            gf2n_fold(lo, up, v, l, e3);
        }

        // Store: row block j, transposed, is word j of element e.
        uint4 *ze = (uint4 *)(z + e * GF2N_W);
#pragma unroll 4
        for (int j = 0; j < M; j += 4) {
            uint4 u;
            u.x = gf2n_transpose32(sC[32 * j + l], l);
            u.y = gf2n_transpose32(sC[32 * (j + 1) + l], l);
            u.z = gf2n_transpose32(sC[32 * (j + 2) + l], l);
            u.w = gf2n_transpose32(sC[32 * (j + 3) + l], l);
            if (e < count) ze[j / 4] = u;
        }
    }
}

extern "C" __global__ void gf2n_mul_reg(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    gf2n_chunks<GF2N_SCHOOL>(z, x, y, count, e1, e2, e3);
}
extern "C" __global__ void gf2n_mul_shared(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    gf2n_chunks<GF2N_SHARED>(z, x, y, count, e1, e2, e3);
}
extern "C" __global__ void gf2n_mul_regkara(u64 *z, const u64 *x, const u64 *y, u64 count, int e1, int e2, int e3) {
    gf2n_chunks<GF2N_KARA>(z, x, y, count, e1, e2, e3);
}
