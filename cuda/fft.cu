// Additive FFT passes over GF(2^64) (package gpu/additive). This file is
// compiled after gf64.cu, in one program (cuda's "fft.cu"): it uses its
// types (u32, u64).
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
//
// Butterfly levels run one per sweep over the tile, or two adjacent ones
// (radix 4) when the Go side sets op flag 1 on the first. A level with op
// flag 2 multiplies through product tables in shared memory instead of
// fft_mul: at local bit lb its 2^(T-1-lb) twiddles are each shared by 2^lb
// butterflies, and the sweep first builds one table per twiddle (see
// fft_tab_build), then multiplies by 16 table lookups.
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

// Product tables. The table of w (2 KiB, 256-byte aligned) holds 16 rows of
// 16 entries: row k, entry v is w * (v x^(4k)), stored in slot v ^ k of the
// row (the swizzle keeps the builder's stores free of bank conflicts). Then
// w*x is the XOR over k of row k at nibble k of x: 16 loads, each row being
// 128 bytes (all 32 banks), so a warp's loads from one row never conflict.

// fft_mulxn returns w * x^n for 0 <= n <= 60 (one fold: the n spilled bits
// times x^4 + x^3 + x + 1 stay below x^64).
__device__ __forceinline__ u64 fft_mulxn(u64 w, unsigned n) {
    if (n == 0) return w;
    u64 hi = w >> (64 - n);
    return (w << n) ^ hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
}

__device__ __forceinline__ u64 fft_xtime(u64 w) {
    return (w << 1) ^ ((u64)((long long)w >> 63) & 0x1bull);
}

// fft_tab_build writes row k of the table of w at tab.
__device__ __forceinline__ void fft_tab_build(char *tab, u64 w, unsigned k) {
    u64 p0 = fft_mulxn(w, 4 * k), p1 = fft_xtime(p0), p2 = fft_xtime(p1), p3 = fft_xtime(p2);
    u64 e[16];
    e[0] = 0;
    e[1] = p0;
    e[2] = p1;
    e[3] = p0 ^ p1;
    e[4] = p2;
    e[5] = p2 ^ p0;
    e[6] = p2 ^ p1;
    e[7] = p2 ^ e[3];
#pragma unroll
    for (unsigned v = 0; v < 8; v++) e[8 + v] = p3 ^ e[v];
    u64 *row = (u64 *)(tab + 128 * k);
#pragma unroll
    for (unsigned v = 0; v < 16; v++) row[v ^ k] = e[v];
}

// fft_tab_mul returns w*x for the table of w at byte offset B (a multiple
// of 256) of shb. Each byte of e0, o0, e1, o1 is the byte offset in its row
// of one nibble's slot, (nibble ^ k) * 8; __byte_perm puts it into the low
// byte of B.
__device__ __forceinline__ u64 fft_tab_mul(const char *shb, unsigned B, u64 x) {
    const u32 xl = (u32)x, xh = (u32)(x >> 32);
    const u32 e0 = ((xl << 3) & 0x78787878u) ^ 0x30201000u; // nibbles 0, 2, 4, 6
    const u32 o0 = ((xl >> 1) & 0x78787878u) ^ 0x38281808u; // 1, 3, 5, 7
    const u32 e1 = ((xh << 3) & 0x78787878u) ^ 0x70605040u; // 8, 10, 12, 14
    const u32 o1 = ((xh >> 1) & 0x78787878u) ^ 0x78685848u; // 9, 11, 13, 15
#define FFT_TL(s, j, k) (*(const u64 *)(shb + __byte_perm((s), B, 0x7650u | (j)) + 128 * (k)))
    u64 r0 = FFT_TL(e0, 0, 0) ^ FFT_TL(o0, 0, 1) ^ FFT_TL(e0, 1, 2) ^ FFT_TL(o0, 1, 3);
    u64 r1 = FFT_TL(e0, 2, 4) ^ FFT_TL(o0, 2, 5) ^ FFT_TL(e0, 3, 6) ^ FFT_TL(o0, 3, 7);
    u64 r2 = FFT_TL(e1, 0, 8) ^ FFT_TL(o1, 0, 9) ^ FFT_TL(e1, 1, 10) ^ FFT_TL(o1, 1, 11);
    u64 r3 = FFT_TL(e1, 2, 12) ^ FFT_TL(o1, 2, 13) ^ FFT_TL(e1, 3, 14) ^ FFT_TL(o1, 3, 15);
#undef FFT_TL
    return (r0 ^ r1) ^ (r2 ^ r3);
}

// MUL is the product the passes use where they have no product table
// (gf64.cu's gf64_mul was slower here: BENCHMARKS.md).
#define MUL(a, b) fft_mul((a), (b))

#define FFT_MAX_OPS 64
#define FFT_THREADS 256
// Launch bounds of FFT_THREADS and no minimum of resident blocks: NVRTC 13.0
// gives fft_pass 80 registers (3 blocks per SM); a minimum of 1 block gave
// 121 (2 blocks), 12% slower, and of 4 blocks 64 registers at the same speed
// (BENCHMARKS.md).
#define FFT_BOUNDS __launch_bounds__(FFT_THREADS)

#define FFT_TAB_BYTES 2048

struct FftOp {
    unsigned kind, bit, lbit, flags; // flags: 1 radix 4 with the next op; 2 tables
    const u64 *lo, *hi;
};

struct FftPass {
    const u64 *in;
    u64 *out;
    u64 inStride, outStride, inMask;
    unsigned T, c, lo, h, nops, flags; // flags: none (0)
    FftOp ops[FFT_MAX_OPS];
};

extern "C" __global__ void FFT_BOUNDS fft_pass(const FftPass P) {
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

    // Product tables start after the tile, 256-byte aligned.
    char *shb = (char *)sh;
    const unsigned tabOff = ((8u << P.T) + 255u) & ~255u;

    for (unsigned o = 0; o < P.nops; o++) {
        const unsigned kind = P.ops[o].kind, bit = P.ops[o].bit, lb = P.ops[o].lbit;
        const u64 *tlo = P.ops[o].lo, *thi = P.ops[o].hi;
        const unsigned hb = 1u << lb;
        if (kind <= 1) {
            // One sweep: level A = op o, and level B = op o+1 when paired
            // (radix 4). Tables: A's 2^(T-1-lbA) first, then B's.
            const bool pair = P.ops[o].flags & 1;
            const unsigned ob = pair ? o + 1 : o;
            const unsigned bitB = P.ops[ob].bit, lbB = P.ops[ob].lbit;
            const u64 *loB = P.ops[ob].lo, *hiB = P.ops[ob].hi;
            const bool tabA = P.ops[o].flags & 2, tabB = pair && (P.ops[ob].flags & 2);
            const unsigned DA = tabA ? 1u << (P.T - 1 - lb) : 0, DB = tabB ? 1u << (P.T - 1 - lbB) : 0;
            if (DA + DB) {
                for (unsigned p = threadIdx.x; p < 16 * (DA + DB); p += blockDim.x) {
                    const unsigned slot = p >> 4, k = p & 15;
                    const bool a = slot < DA;
                    const unsigned d = a ? slot : slot - DA, lx = a ? lb : lbB, rx = a ? bit : bitB;
                    const u64 *xlo = a ? tlo : loB, *xhi = a ? thi : hiB;
                    const u64 b = G(d << (lx + 1)) >> (rx + 1);
                    const u64 w = __ldg(xlo + (b & 1023)) ^ __ldg(xhi + (b >> 10));
                    fft_tab_build(shb + tabOff + FFT_TAB_BYTES * slot, w, k);
                }
                __syncthreads();
            }
            if (pair) {
                // Adjacent levels: forward r then r-1, inverse r then r+1.
                // Each thread takes the quad x0..x3 at local bits lL (x1) and
                // lL+1 (x2); H is the higher level.
                const bool fwd = kind == 0;
                const unsigned rH = fwd ? bit : bitB, lL = fwd ? lbB : lb;
                const u64 *hlo = fwd ? tlo : loB, *hhi = fwd ? thi : hiB;
                const u64 *llo = fwd ? loB : tlo, *lhi = fwd ? hiB : thi;
                const bool tabH = fwd ? tabA : tabB, tabL = fwd ? tabB : tabA;
                const unsigned offH = tabOff + (fwd ? 0 : DA) * FFT_TAB_BYTES;
                const unsigned offL = tabOff + (fwd ? DA : 0) * FFT_TAB_BYTES;
                const unsigned h1 = 1u << lL, h2 = h1 << 1;
                for (unsigned q = threadIdx.x; q < N / 4; q += blockDim.x) {
                    unsigned i0 = ((q >> lL) << (lL + 2)) | (q & (h1 - 1));
                    u64 g0 = G(i0);
                    u64 tH = 0, tL0 = 0, tL1 = 0;
                    if (!tabH) {
                        u64 bH = g0 >> (rH + 1);
                        tH = __ldg(hlo + (bH & 1023)) ^ __ldg(hhi + (bH >> 10));
                    }
                    u64 bL = g0 >> rH; // bit 0 of bL is 0
                    if (!tabL) {
                        tL0 = __ldg(llo + (bL & 1023)) ^ __ldg(lhi + (bL >> 10));
                        tL1 = __ldg(llo + ((bL | 1) & 1023)) ^ __ldg(lhi + (bL >> 10));
                    }
                    const unsigned BH = offH + FFT_TAB_BYTES * (i0 >> (lL + 2));
                    const unsigned BL0 = offL + FFT_TAB_BYTES * (i0 >> (lL + 1)), BL1 = BL0 + FFT_TAB_BYTES;
#define MUL_T(tab, B, t, x) ((tab) ? fft_tab_mul(shb, (B), (x)) : MUL((t), (x)))
                    u64 x0 = sh[i0], x1 = sh[i0 + h1], x2 = sh[i0 + h2], x3 = sh[i0 + h1 + h2];
                    if (fwd) {
                        x0 ^= MUL_T(tabH, BH, tH, x2); x2 ^= x0;
                        x1 ^= MUL_T(tabH, BH, tH, x3); x3 ^= x1;
                        x0 ^= MUL_T(tabL, BL0, tL0, x1); x1 ^= x0;
                        x2 ^= MUL_T(tabL, BL1, tL1, x3); x3 ^= x2;
                    } else {
                        x1 ^= x0; x0 ^= MUL_T(tabL, BL0, tL0, x1);
                        x3 ^= x2; x2 ^= MUL_T(tabL, BL1, tL1, x3);
                        x2 ^= x0; x0 ^= MUL_T(tabH, BH, tH, x2);
                        x3 ^= x1; x1 ^= MUL_T(tabH, BH, tH, x3);
                    }
#undef MUL_T
                    sh[i0] = x0; sh[i0 + h1] = x1; sh[i0 + h2] = x2; sh[i0 + h1 + h2] = x3;
                }
                o++;
            } else {
                for (unsigned q = threadIdx.x; q < N / 2; q += blockDim.x) {
                    unsigned i0 = ((q >> lb) << (lb + 1)) | (q & (hb - 1));
                    u64 u = sh[i0], v = sh[i0 + hb];
                    u64 t = 0;
                    if (!tabA) {
                        u64 b = G(i0) >> (bit + 1);
                        t = __ldg(tlo + (b & 1023)) ^ __ldg(thi + (b >> 10));
                    }
                    const unsigned BA = tabOff + FFT_TAB_BYTES * (i0 >> (lb + 1));
#define MUL_A(x) (tabA ? fft_tab_mul(shb, BA, (x)) : MUL(t, (x)))
                    if (kind == 0) {
                        u ^= MUL_A(v);
                        v ^= u;
                    } else {
                        v ^= u;
                        u ^= MUL_A(v);
                    }
#undef MUL_A
                    sh[i0] = u;
                    sh[i0 + hb] = v;
                }
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
