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
    unsigned T, c, lo, h, nops, flags; // flags bit 0: no radix-4 sweeps
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
                        x0 ^= gf64_mul(tH, x2); x2 ^= x0;
                        x1 ^= gf64_mul(tH, x3); x3 ^= x1;
                        x0 ^= gf64_mul(tL0, x1); x1 ^= x0;
                        x2 ^= gf64_mul(tL1, x3); x3 ^= x2;
                    } else {
                        x1 ^= x0; x0 ^= gf64_mul(tL0, x1);
                        x3 ^= x2; x2 ^= gf64_mul(tL1, x3);
                        x2 ^= x0; x0 ^= gf64_mul(tH, x2);
                        x3 ^= x1; x1 ^= gf64_mul(tH, x3);
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
                    u ^= gf64_mul(t, v);
                    v ^= u;
                } else {
                    v ^= u;
                    u ^= gf64_mul(t, v);
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
                if (e >> 10) f = gf64_mul(f, __ldg(thi + (e >> 10)));
                sh[l] = gf64_mul(sh[l], f);
            }
        }
        __syncthreads();
    }

    for (unsigned l = threadIdx.x; l < N; l += blockDim.x) out[G(l)] = sh[l];
#undef G
}
