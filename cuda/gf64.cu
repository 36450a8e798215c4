// GF(2^64) = GF(2)[x]/(x^64 + x^4 + x^3 + x + 1) vector products.
// An element is a 64-bit word whose bit i is the coefficient of x^i.
//
// Two designs:
//   - one element per thread (gf64_*_thread): the 64x64 carry-less product is
//     three 32x32 products (Karatsuba), each built from 16 integer
//     multiplications of operands with holes;
//   - bit-sliced (gf64_chunk_*): 32 elements are stored as a chunk of 64 rows
//     of 32-bit words, row r holding bit r of each element (bit j of the word
//     is element j). A warp multiplies two chunks with bitwise AND/XOR,
//     exchanging rows through warp shuffles (register cache) or through shared
//     memory (the baseline), then reduces with the 2-gapped polynomial.
//
// Kernels are extern "C" so that the Go side finds them by name.

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL_MASK 0xffffffffu

// clmul32 returns the 64-bit carry-less product of x and y. Each operand is
// split into four classes of bits (every fourth bit); a class holds 8 bits, so
// at most 8 partial products meet at one bit position and their carries stay
// within the 3 positions above it, below the next bit of the same class.
__device__ __forceinline__ u64 clmul32(u32 x, u32 y) {
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

// gf64_clmul returns the 128-bit carry-less product of a and b in (lo, hi):
// Karatsuba on 32-bit halves.
__device__ __forceinline__ void gf64_clmul(u64 a, u64 b, u64 &lo, u64 &hi) {
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 l = clmul32(a0, b0);
    u64 h = clmul32(a1, b1);
    u64 m = clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    lo = l ^ (m << 32);
    hi = h ^ (m >> 32);
}

// gf64_reduce returns lo + hi·x^64 mod (x^64 + x^4 + x^3 + x + 1).
__device__ __forceinline__ u64 gf64_reduce(u64 lo, u64 hi) {
    // x^64 = x^4 + x^3 + x + 1: fold hi once, then the <= 4 bits that spill.
    lo ^= hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    u64 t = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    return lo ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
}

// gf64_mul returns a*b mod (x^64 + x^4 + x^3 + x + 1).
__device__ __forceinline__ u64 gf64_mul(u64 a, u64 b) {
    u64 lo, hi;
    gf64_clmul(a, b, lo, hi);
    return gf64_reduce(lo, hi);
}

extern "C" __global__ void gf64_mul_thread(u64 *dst, const u64 *a, const u64 *b, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf64_mul(a[i], b[i]);
    }
}

extern "C" __global__ void gf64_scale_thread(u64 *dst, const u64 *a, u64 c, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf64_mul(a[i], c);
    }
}

extern "C" __global__ void gf64_muladd_thread(u64 *dst, const u64 *a, u64 c, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] ^= gf64_mul(a[i], c);
    }
}

// The _vec kernels do the same with 16-byte loads and stores, two elements
// per step; every pointer must be 16-byte aligned. The odd last element, if
// any, is done by thread 0.
extern "C" __global__ void gf64_mul_thread_vec(u64 *dst, const u64 *a, const u64 *b, u64 n) {
    u64 n2 = n >> 1;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += (u64)gridDim.x * blockDim.x) {
        ulonglong2 x = ((const ulonglong2 *)a)[i], y = ((const ulonglong2 *)b)[i], r;
        r.x = gf64_mul(x.x, y.x);
        r.y = gf64_mul(x.y, y.y);
        ((ulonglong2 *)dst)[i] = r;
    }
    if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) dst[n - 1] = gf64_mul(a[n - 1], b[n - 1]);
}

extern "C" __global__ void gf64_scale_thread_vec(u64 *dst, const u64 *a, u64 c, u64 n) {
    u64 n2 = n >> 1;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += (u64)gridDim.x * blockDim.x) {
        ulonglong2 x = ((const ulonglong2 *)a)[i], r;
        r.x = gf64_mul(x.x, c);
        r.y = gf64_mul(x.y, c);
        ((ulonglong2 *)dst)[i] = r;
    }
    if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) dst[n - 1] = gf64_mul(a[n - 1], c);
}

extern "C" __global__ void gf64_muladd_thread_vec(u64 *dst, const u64 *a, u64 c, u64 n) {
    u64 n2 = n >> 1;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += (u64)gridDim.x * blockDim.x) {
        ulonglong2 x = ((const ulonglong2 *)a)[i], r = ((const ulonglong2 *)dst)[i];
        r.x ^= gf64_mul(x.x, c);
        r.y ^= gf64_mul(x.y, c);
        ((ulonglong2 *)dst)[i] = r;
    }
    if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) dst[n - 1] ^= gf64_mul(a[n - 1], c);
}

// transpose32 transposes the 32x32 bit matrix held by a warp, lane l holding
// row l (bit j is column j): afterwards lane l holds column l. Five stages of
// block swaps, each one shuffle.
__device__ __forceinline__ u32 transpose32(u32 x, int l) {
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
        const u32 m = s == 16 ? 0x0000ffffu : s == 8 ? 0x00ff00ffu : s == 4 ? 0x0f0f0f0fu : s == 2 ? 0x33333333u : 0x55555555u;
        u32 y = __shfl_xor_sync(FULL_MASK, x, s);
        x = (l & s) ? ((x & ~m) | ((y >> s) & m)) : ((x & m) | ((y & m) << s));
    }
    return x;
}

// gf64_to_chunks writes elements a[0..n) as ceil(n/32) chunks of 64 words;
// the missing elements of the last chunk are zero. One warp per chunk.
extern "C" __global__ void gf64_to_chunks(u32 *chunks, const u64 *a, u64 n, u64 nchunks) {
    int l = threadIdx.x & 31;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        u64 e = ch * 32 + l;
        u64 v = e < n ? a[e] : 0;
        u32 lo = transpose32((u32)v, l);
        u32 hi = transpose32((u32)(v >> 32), l);
        chunks[ch * 64 + l] = lo;
        chunks[ch * 64 + 32 + l] = hi;
    }
}

// gf64_from_chunks is the inverse of gf64_to_chunks for the first n elements.
extern "C" __global__ void gf64_from_chunks(u64 *dst, const u32 *chunks, u64 n, u64 nchunks) {
    int l = threadIdx.x & 31;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        u32 lo = transpose32(chunks[ch * 64 + l], l);
        u32 hi = transpose32(chunks[ch * 64 + 32 + l], l);
        u64 e = ch * 32 + l;
        if (e < n) dst[e] = (u64)lo | ((u64)hi << 32);
    }
}

// fold adds row (k) of the rows src (row m + base in lane m) into the rows
// k - e: lanes l >= e receive into lo, lanes l < e into hi (the row one warp
// width higher).
__device__ __forceinline__ void fold(u32 src, u32 &lo, u32 &hi, int l, int e) {
    u32 r = __shfl_sync(FULL_MASK, src, (l - e) & 31);
    if (l >= e) lo ^= r; else hi ^= r;
}

// Modes of the chunk kernels.
#define MODE_MUL 0    // C = A*B
#define MODE_SCALE 1  // C = A*c
#define MODE_MULADD 2 // C ^= A*c

#define CHUNK_WARPS 8

// chunk64 multiplies chunks: lane l of a warp holds rows l and l+32 of A and
// B and accumulates rows l, l+32, l+64, l+96 of the 127-row product, then
// reduces it to 64 rows. SHARED selects the shared-memory baseline, which
// reads the rows it needs from shared memory instead of other lanes'
// registers. C may be the same array as A or B.
template <int MODE, bool SHARED>
__device__ __forceinline__ void chunk64(u32 *C, const u32 *A, const u32 *B, u64 c, u64 nchunks) {
    __shared__ u32 sA[SHARED ? CHUNK_WARPS : 1][64];
    __shared__ u32 sB[SHARED ? CHUNK_WARPS : 1][64];
    int l = threadIdx.x & 31;
    int w = SHARED ? (threadIdx.x >> 5) : 0;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    u32 cb0 = 0, cb1 = 0;
    if (MODE != MODE_MUL) {
        cb0 = ((c >> l) & 1) ? FULL_MASK : 0u;
        cb1 = ((c >> (l + 32)) & 1) ? FULL_MASK : 0u;
    }
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        const u32 *Ap = A + ch * 64;
        u32 a0 = Ap[l], a1 = Ap[32 + l];
        u32 b0 = cb0, b1 = cb1;
        if (MODE == MODE_MUL) {
            const u32 *Bp = B + ch * 64;
            b0 = Bp[l];
            b1 = Bp[32 + l];
        }
        if (SHARED) {
            __syncwarp();
            sA[w][l] = a0; sA[w][32 + l] = a1;
            sB[w][l] = b0; sB[w][32 + l] = b1;
            __syncwarp();
        }
        u32 c0 = 0, c1 = 0, c2 = 0, c3 = 0;
#pragma unroll
        for (int i = 0; i < 32; i++) {
            int s = (l - i) & 31;
            u32 x0, x1, y0, y1;
            if (SHARED) {
                x0 = sA[w][i]; x1 = sA[w][32 + i];
                y0 = sB[w][s]; y1 = sB[w][32 + s];
            } else {
                x0 = __shfl_sync(FULL_MASK, a0, i);
                x1 = __shfl_sync(FULL_MASK, a1, i);
                y0 = __shfl_sync(FULL_MASK, b0, s);
                y1 = __shfl_sync(FULL_MASK, b1, s);
            }
            // x0&y0 lands on row i+s, the cross terms 32 higher, x1&y1 64 higher;
            // i+s is l when i <= l and l+32 otherwise.
            u32 u = x0 & y0, v = (x0 & y1) ^ (x1 & y0), t = x1 & y1;
            bool p = i <= l;
            c0 ^= p ? u : 0u;
            c1 ^= p ? v : u;
            c2 ^= p ? t : v;
            c3 ^= p ? 0u : t;
        }
        // x^64 = x^4 + x^3 + x + 1: fold rows 96..126 into 32..66, then rows
        // 64..95 into 0..35.
        fold(c3, c1, c2, l, 0); fold(c3, c1, c2, l, 1); fold(c3, c1, c2, l, 3); fold(c3, c1, c2, l, 4);
        fold(c2, c0, c1, l, 0); fold(c2, c0, c1, l, 1); fold(c2, c0, c1, l, 3); fold(c2, c0, c1, l, 4);
        u32 *Cp = C + ch * 64;
        if (MODE == MODE_MULADD) {
            c0 ^= Cp[l];
            c1 ^= Cp[32 + l];
        }
        Cp[l] = c0;
        Cp[32 + l] = c1;
    }
}

extern "C" __global__ void gf64_chunk_mul_reg(u32 *C, const u32 *A, const u32 *B, u64 nchunks) {
    chunk64<MODE_MUL, false>(C, A, B, 0, nchunks);
}
extern "C" __global__ void gf64_chunk_scale_reg(u32 *C, const u32 *A, u64 c, u64 nchunks) {
    chunk64<MODE_SCALE, false>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf64_chunk_muladd_reg(u32 *C, const u32 *A, u64 c, u64 nchunks) {
    chunk64<MODE_MULADD, false>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf64_chunk_mul_shared(u32 *C, const u32 *A, const u32 *B, u64 nchunks) {
    chunk64<MODE_MUL, true>(C, A, B, 0, nchunks);
}
extern "C" __global__ void gf64_chunk_scale_shared(u32 *C, const u32 *A, u64 c, u64 nchunks) {
    chunk64<MODE_SCALE, true>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf64_chunk_muladd_shared(u32 *C, const u32 *A, u64 c, u64 nchunks) {
    chunk64<MODE_MULADD, true>(C, A, 0, c, nchunks);
}

// gf64_combine sets dst[i] = Σ_j α_j·cols[j·n + i] for i < n and j < ncols
// (at most GF64_COMBINE_MAX columns a launch), adding to dst[i] when acc is
// set: a linear combination of columns held end to end. Every step of
// gf64_mul but the integer products is linear over XOR, the masks of
// clmul32 included ((a & m) ^ (b & m) = (a ^ b) & m), so the products'
// twelve partial sums (three Karatsuba parts × four bit classes) are
// accumulated over the columns, and masked, recombined and reduced once per
// element. The host splits each coefficient as clmul32 splits its first
// operand: alpha.m[j][4p + k] = part p of α_j (low half, high half, their
// XOR) & the class-k mask (every fourth bit from bit k).
#define GF64_COMBINE_MAX 32
struct gf64_coeffs {
    u32 m[GF64_COMBINE_MAX][12];
};
extern "C" __global__ void gf64_combine(u64 *dst, const u64 *cols, u64 n, gf64_coeffs alpha, u32 ncols, u32 acc) {
    const u32 m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u64 z[3][4] = {};
        for (u32 j = 0; j < ncols; j++) {
            const u64 x = cols[j * n + i];
            const u32 h[3] = {(u32)x, (u32)(x >> 32), (u32)x ^ (u32)(x >> 32)};
#pragma unroll
            for (int p = 0; p < 3; p++) {
                const u32 *a = alpha.m[j] + 4 * p;
                const u32 y0 = h[p] & m0, y1 = h[p] & m1, y2 = h[p] & m2, y3 = h[p] & m3;
                z[p][0] ^= ((u64)a[0] * y0) ^ ((u64)a[1] * y3) ^ ((u64)a[2] * y2) ^ ((u64)a[3] * y1);
                z[p][1] ^= ((u64)a[0] * y1) ^ ((u64)a[1] * y0) ^ ((u64)a[2] * y3) ^ ((u64)a[3] * y2);
                z[p][2] ^= ((u64)a[0] * y2) ^ ((u64)a[1] * y1) ^ ((u64)a[2] * y0) ^ ((u64)a[3] * y3);
                z[p][3] ^= ((u64)a[0] * y3) ^ ((u64)a[1] * y2) ^ ((u64)a[2] * y1) ^ ((u64)a[3] * y0);
            }
        }
        u64 c[3];
#pragma unroll
        for (int p = 0; p < 3; p++) {
            c[p] = (z[p][0] & 0x1111111111111111ull) ^ (z[p][1] & 0x2222222222222222ull) ^
                   (z[p][2] & 0x4444444444444444ull) ^ (z[p][3] & 0x8888888888888888ull);
        }
        const u64 mid = c[2] ^ c[0] ^ c[1];
        u64 r = gf64_reduce(c[0] ^ (mid << 32), c[1] ^ (mid >> 32));
        dst[i] = acc ? dst[i] ^ r : r;
    }
}
