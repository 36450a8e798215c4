// GF(2^32) = GF(2)[x]/(x^32 + x^7 + x^3 + x^2 + 1) vector products, in the
// same two designs as gf64.cu: one element per thread (one 32x32 carry-less
// product from integer multiplications with holes), and bit-sliced chunks of
// 32 elements x 32 rows multiplied by a warp through a shuffle register cache
// or through shared memory. An element is a 32-bit word whose bit i is the
// coefficient of x^i.

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL_MASK 0xffffffffu

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

// gf32_mul returns a*b mod (x^32 + x^7 + x^3 + x^2 + 1).
__device__ __forceinline__ u32 gf32_mul(u32 a, u32 b) {
    u64 p = clmul32(a, b);
    u32 lo = (u32)p, h = (u32)(p >> 32);
    lo ^= h ^ (h << 2) ^ (h << 3) ^ (h << 7);
    u32 t = (h >> 30) ^ (h >> 29) ^ (h >> 25);
    return lo ^ t ^ (t << 2) ^ (t << 3) ^ (t << 7);
}

extern "C" __global__ void gf32_mul_thread(u32 *dst, const u32 *a, const u32 *b, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf32_mul(a[i], b[i]);
    }
}

extern "C" __global__ void gf32_scale_thread(u32 *dst, const u32 *a, u32 c, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = gf32_mul(a[i], c);
    }
}

extern "C" __global__ void gf32_muladd_thread(u32 *dst, const u32 *a, u32 c, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] ^= gf32_mul(a[i], c);
    }
}

// The _vec kernels: 16-byte loads and stores, four elements per step; every
// pointer must be 16-byte aligned. Thread 0 does the n mod 4 last elements.
extern "C" __global__ void gf32_mul_thread_vec(u32 *dst, const u32 *a, const u32 *b, u64 n) {
    u64 n4 = n >> 2;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (u64)gridDim.x * blockDim.x) {
        uint4 x = ((const uint4 *)a)[i], y = ((const uint4 *)b)[i], r;
        r.x = gf32_mul(x.x, y.x);
        r.y = gf32_mul(x.y, y.y);
        r.z = gf32_mul(x.z, y.z);
        r.w = gf32_mul(x.w, y.w);
        ((uint4 *)dst)[i] = r;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (u64 i = n4 * 4; i < n; i++) dst[i] = gf32_mul(a[i], b[i]);
}

extern "C" __global__ void gf32_scale_thread_vec(u32 *dst, const u32 *a, u32 c, u64 n) {
    u64 n4 = n >> 2;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (u64)gridDim.x * blockDim.x) {
        uint4 x = ((const uint4 *)a)[i], r;
        r.x = gf32_mul(x.x, c);
        r.y = gf32_mul(x.y, c);
        r.z = gf32_mul(x.z, c);
        r.w = gf32_mul(x.w, c);
        ((uint4 *)dst)[i] = r;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (u64 i = n4 * 4; i < n; i++) dst[i] = gf32_mul(a[i], c);
}

extern "C" __global__ void gf32_muladd_thread_vec(u32 *dst, const u32 *a, u32 c, u64 n) {
    u64 n4 = n >> 2;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (u64)gridDim.x * blockDim.x) {
        uint4 x = ((const uint4 *)a)[i], r = ((const uint4 *)dst)[i];
        r.x ^= gf32_mul(x.x, c);
        r.y ^= gf32_mul(x.y, c);
        r.z ^= gf32_mul(x.z, c);
        r.w ^= gf32_mul(x.w, c);
        ((uint4 *)dst)[i] = r;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (u64 i = n4 * 4; i < n; i++) dst[i] ^= gf32_mul(a[i], c);
}

__device__ __forceinline__ u32 transpose32(u32 x, int l) {
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
        const u32 m = s == 16 ? 0x0000ffffu : s == 8 ? 0x00ff00ffu : s == 4 ? 0x0f0f0f0fu : s == 2 ? 0x33333333u : 0x55555555u;
        u32 y = __shfl_xor_sync(FULL_MASK, x, s);
        x = (l & s) ? ((x & ~m) | ((y >> s) & m)) : ((x & m) | ((y & m) << s));
    }
    return x;
}

// gf32_to_chunks writes a[0..n) as ceil(n/32) chunks of 32 rows; missing
// elements are zero. One warp per chunk.
extern "C" __global__ void gf32_to_chunks(u32 *chunks, const u32 *a, u64 n, u64 nchunks) {
    int l = threadIdx.x & 31;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        u64 e = ch * 32 + l;
        u32 v = e < n ? a[e] : 0u;
        chunks[ch * 32 + l] = transpose32(v, l);
    }
}

extern "C" __global__ void gf32_from_chunks(u32 *dst, const u32 *chunks, u64 n, u64 nchunks) {
    int l = threadIdx.x & 31;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        u32 v = transpose32(chunks[ch * 32 + l], l);
        u64 e = ch * 32 + l;
        if (e < n) dst[e] = v;
    }
}

__device__ __forceinline__ void fold(u32 src, u32 &lo, u32 &hi, int l, int e) {
    u32 r = __shfl_sync(FULL_MASK, src, (l - e) & 31);
    if (l >= e) lo ^= r; else hi ^= r;
}

#define MODE_MUL 0
#define MODE_SCALE 1
#define MODE_MULADD 2
#define CHUNK_WARPS 8

// chunk32: lane l holds row l of A and B and accumulates rows l and l+32 of
// the 63-row product (the register-cache ring multiplication of the seed's
// Listing 3, both loops merged), then reduces.
template <int MODE, bool SHARED>
__device__ __forceinline__ void chunk32(u32 *C, const u32 *A, const u32 *B, u32 c, u64 nchunks) {
    __shared__ u32 sA[SHARED ? CHUNK_WARPS : 1][32];
    __shared__ u32 sB[SHARED ? CHUNK_WARPS : 1][32];
    int l = threadIdx.x & 31;
    int w = SHARED ? (threadIdx.x >> 5) : 0;
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u64 warps = ((u64)gridDim.x * blockDim.x) >> 5;
    u32 cb = 0;
    if (MODE != MODE_MUL) cb = ((c >> l) & 1) ? FULL_MASK : 0u;
    for (u64 ch = warp; ch < nchunks; ch += warps) {
        u32 a = A[ch * 32 + l];
        u32 b = MODE == MODE_MUL ? B[ch * 32 + l] : cb;
        if (SHARED) {
            __syncwarp();
            sA[w][l] = a;
            sB[w][l] = b;
            __syncwarp();
        }
        u32 c0 = 0, c1 = 0;
#pragma unroll
        for (int i = 0; i < 32; i++) {
            int s = (l - i) & 31;
            u32 x, y;
            if (SHARED) {
                x = sA[w][i];
                y = sB[w][s];
            } else {
                x = __shfl_sync(FULL_MASK, a, i);
                y = __shfl_sync(FULL_MASK, b, s);
            }
            u32 u = x & y;
            if (i <= l) c0 ^= u; else c1 ^= u;
        }
        // x^32 = x^7 + x^3 + x^2 + 1: fold rows 32..62 into 0..38, then the
        // rows 32..38 that this produced into 0..13.
        u32 t = 0, z = 0;
        fold(c1, c0, t, l, 0); fold(c1, c0, t, l, 2); fold(c1, c0, t, l, 3); fold(c1, c0, t, l, 7);
        fold(t, c0, z, l, 0); fold(t, c0, z, l, 2); fold(t, c0, z, l, 3); fold(t, c0, z, l, 7);
        if (MODE == MODE_MULADD) c0 ^= C[ch * 32 + l];
        C[ch * 32 + l] = c0;
    }
}

extern "C" __global__ void gf32_chunk_mul_reg(u32 *C, const u32 *A, const u32 *B, u64 nchunks) {
    chunk32<MODE_MUL, false>(C, A, B, 0, nchunks);
}
extern "C" __global__ void gf32_chunk_scale_reg(u32 *C, const u32 *A, u32 c, u64 nchunks) {
    chunk32<MODE_SCALE, false>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf32_chunk_muladd_reg(u32 *C, const u32 *A, u32 c, u64 nchunks) {
    chunk32<MODE_MULADD, false>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf32_chunk_mul_shared(u32 *C, const u32 *A, const u32 *B, u64 nchunks) {
    chunk32<MODE_MUL, true>(C, A, B, 0, nchunks);
}
extern "C" __global__ void gf32_chunk_scale_shared(u32 *C, const u32 *A, u32 c, u64 nchunks) {
    chunk32<MODE_SCALE, true>(C, A, 0, c, nchunks);
}
extern "C" __global__ void gf32_chunk_muladd_shared(u32 *C, const u32 *A, u32 c, u64 nchunks) {
    chunk32<MODE_MULADD, true>(C, A, 0, c, nchunks);
}
