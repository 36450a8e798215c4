// Additive FFT passes over GF(2^64) (package gpu, fft*.go). This file is
// compiled after gf64.cu, in one program: it uses u64 and gf64_mul from there.
//
// A pass loads a tile of 2^T elements of one column into shared memory, runs
// a list of steps on it and stores it back. Tile-local index l maps to the
// column index
//
//   G(l) = (l & (2^c - 1)) | ((l >> c) << lo) | tb,
//
// where tb holds the tile number's bits in the index bits [c, lo) and
// [lo + h, ...) (h = T - c). Steps (the Go side's fftOpKind):
//
//   0 fwd(r):      pairs at local bit lb; twiddle t of block G(i0) >> (r+1);
//                  u ^= t*v; v ^= u
//   1 inv(r):      v ^= u; u ^= t*v
//   2 taylor(p):   quartets at local bits lb, lb+1: x2 ^= x3; x1 ^= x2
//   3 untaylor(p): x1 ^= x2; x2 ^= x3
//   4 twist(r):    a[l] *= beta^(G(l) >> r)
//   5 untwist(r):  the same with the inverse's powers
//
// Tables: a value indexed by x < 2^k is lo[x & 1023] ^ hi[x >> 10] for the
// twiddles and lo[x & 1023] * hi[x >> 10] for the powers.
// The first pass may read another array (in) than it writes (out); element
// G(l) reads in[G(l) & inMask], which replicates a short column over a long
// one (the low-degree extension).

// fft_mul is gf64_mul with the 32x32-bit products written as PTX
// mul.wide.u32: from the C++ form (u64)x * y NVRTC 13.0 emits an extra
// integer add per product next to each IMAD.WIDE.U32 (44 per
// multiplication), which this form avoids. Same classes-with-holes carry-less
// products, Karatsuba and 2-gapped reduction.
__device__ __forceinline__ u64 fft_mulw(u32 a, u32 b) {
    u64 r;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
}

__device__ __forceinline__ u64 fft_clmul32(u32 x, u32 y) {
    const u32 m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    u32 x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    u32 y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    u64 z0 = fft_mulw(x0, y0) ^ fft_mulw(x1, y3) ^ fft_mulw(x2, y2) ^ fft_mulw(x3, y1);
    u64 z1 = fft_mulw(x0, y1) ^ fft_mulw(x1, y0) ^ fft_mulw(x2, y3) ^ fft_mulw(x3, y2);
    u64 z2 = fft_mulw(x0, y2) ^ fft_mulw(x1, y1) ^ fft_mulw(x2, y0) ^ fft_mulw(x3, y3);
    u64 z3 = fft_mulw(x0, y3) ^ fft_mulw(x1, y2) ^ fft_mulw(x2, y1) ^ fft_mulw(x3, y0);
    return (z0 & 0x1111111111111111ull) ^ (z1 & 0x2222222222222222ull) ^
           (z2 & 0x4444444444444444ull) ^ (z3 & 0x8888888888888888ull);
}

__device__ __forceinline__ u64 fft_mul(u64 a, u64 b) {
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 l = fft_clmul32(a0, b0);
    u64 h = fft_clmul32(a1, b1);
    u64 m = fft_clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    u64 lo = l ^ (m << 32);
    u64 hi = h ^ (m >> 32);
    lo ^= hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    u64 t = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    return lo ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
}

// MUL is the product the passes use: fft_mul, or gf64_mul when flags bit 1
// is set (for benchmarks of the difference).
#define MUL(a, b) ((P.flags & 2) ? gf64_mul((a), (b)) : fft_mul((a), (b)))

#define FFT_MAX_OPS 64
#define FFT_THREADS 256

struct FftOp {
    unsigned kind, bit, lbit, pad;
    const u64 *lo, *hi;
};

struct FftPass {
    const u64 *in;
    u64 *out;
    u64 inStride, outStride, inMask;
    unsigned T, c, lo, h, nops, flags; // bit 0: no radix-4 sweeps; bit 1: gf64_mul
    FftOp ops[FFT_MAX_OPS];
};

extern "C" __global__ void __launch_bounds__(FFT_THREADS) fft_pass(const FftPass P) {
    extern __shared__ u64 sh[];
    const unsigned N = 1u << P.T;
    const u64 col = blockIdx.y;
    const u64 *in = P.in + col * P.inStride;
    u64 *out = P.out + col * P.outStride;
    const u64 tile = blockIdx.x;
    const unsigned c = P.c, lo = P.lo;
    const unsigned gap = lo - c;
    const u64 tb = ((tile & ((1ull << gap) - 1)) << c) | ((tile >> gap) << (lo + P.h));
    const u64 cmask = (1ull << c) - 1;
#define G(l) ((((u64)(l)) & cmask) | (((u64)((l) >> c)) << lo) | tb)

    for (unsigned l = threadIdx.x; l < N; l += blockDim.x) sh[l] = in[G(l) & P.inMask];
    __syncthreads();

    for (unsigned o = 0; o < P.nops; o++) {
        const unsigned kind = P.ops[o].kind, bit = P.ops[o].bit, lb = P.ops[o].lbit;
        const u64 *tlo = P.ops[o].lo, *thi = P.ops[o].hi;
        const unsigned hb = 1u << lb;
        if (kind <= 1 && !(P.flags & 1) && o + 1 < P.nops && P.ops[o + 1].kind == kind) {
            // Two butterfly levels at adjacent bits in one sweep (radix 4):
            // forward r then r-1, inverse r then r+1. Each thread takes the
            // quad x0..x3 at local bits lL (x1) and lL+1 (x2).
            const unsigned bit2 = P.ops[o + 1].bit, lb2 = P.ops[o + 1].lbit;
            const bool fwd = kind == 0;
            if ((fwd && bit2 + 1 == bit && lb2 + 1 == lb) || (!fwd && bit2 == bit + 1 && lb2 == lb + 1)) {
                const unsigned rH = fwd ? bit : bit2, lL = fwd ? lb2 : lb;
                const u64 *hlo = fwd ? tlo : P.ops[o + 1].lo, *hhi = fwd ? thi : P.ops[o + 1].hi;
                const u64 *llo = fwd ? P.ops[o + 1].lo : tlo, *lhi = fwd ? P.ops[o + 1].hi : thi;
                const unsigned h1 = 1u << lL, h2 = h1 << 1;
                for (unsigned q = threadIdx.x; q < N / 4; q += blockDim.x) {
                    unsigned i0 = ((q >> lL) << (lL + 2)) | (q & (h1 - 1));
                    u64 g0 = G(i0);
                    u64 bH = g0 >> (rH + 1), bL = g0 >> rH; // bit 0 of bL is 0
                    u64 tH = __ldg(hlo + (bH & 1023)) ^ __ldg(hhi + (bH >> 10));
                    u64 tL0 = __ldg(llo + (bL & 1023)) ^ __ldg(lhi + (bL >> 10));
                    u64 tL1 = __ldg(llo + ((bL | 1) & 1023)) ^ __ldg(lhi + (bL >> 10));
                    u64 x0 = sh[i0], x1 = sh[i0 + h1], x2 = sh[i0 + h2], x3 = sh[i0 + h1 + h2];
                    if (fwd) {
                        x0 ^= MUL(tH, x2); x2 ^= x0;
                        x1 ^= MUL(tH, x3); x3 ^= x1;
                        x0 ^= MUL(tL0, x1); x1 ^= x0;
                        x2 ^= MUL(tL1, x3); x3 ^= x2;
                    } else {
                        x1 ^= x0; x0 ^= MUL(tL0, x1);
                        x3 ^= x2; x2 ^= MUL(tL1, x3);
                        x2 ^= x0; x0 ^= MUL(tH, x2);
                        x3 ^= x1; x1 ^= MUL(tH, x3);
                    }
                    sh[i0] = x0; sh[i0 + h1] = x1; sh[i0 + h2] = x2; sh[i0 + h1 + h2] = x3;
                }
                o++;
                __syncthreads();
                continue;
            }
        }
        if (kind <= 1) {
            for (unsigned q = threadIdx.x; q < N / 2; q += blockDim.x) {
                unsigned i0 = ((q >> lb) << (lb + 1)) | (q & (hb - 1));
                u64 b = G(i0) >> (bit + 1);
                u64 t = __ldg(tlo + (b & 1023)) ^ __ldg(thi + (b >> 10));
                u64 u = sh[i0], v = sh[i0 + hb];
                if (kind == 0) {
                    u ^= MUL(t, v);
                    v ^= u;
                } else {
                    v ^= u;
                    u ^= MUL(t, v);
                }
                sh[i0] = u;
                sh[i0 + hb] = v;
            }
        } else if (kind <= 3) {
            for (unsigned q = threadIdx.x; q < N / 4; q += blockDim.x) {
                unsigned i0 = ((q >> lb) << (lb + 2)) | (q & (hb - 1));
                u64 x1 = sh[i0 + hb], x2 = sh[i0 + 2 * hb], x3 = sh[i0 + 3 * hb];
                if (kind == 2) {
                    x2 ^= x3;
                    x1 ^= x2;
                } else {
                    x1 ^= x2;
                    x2 ^= x3;
                }
                sh[i0 + hb] = x1;
                sh[i0 + 2 * hb] = x2;
            }
        } else {
            for (unsigned l = threadIdx.x; l < N; l += blockDim.x) {
                u64 e = G(l) >> bit;
                u64 f = __ldg(tlo + (e & 1023));
                if (e >> 10) f = MUL(f, __ldg(thi + (e >> 10)));
                sh[l] = MUL(sh[l], f);
            }
        }
        __syncthreads();
    }

    for (unsigned l = threadIdx.x; l < N; l += blockDim.x) out[G(l)] = sh[l];
#undef G
}
