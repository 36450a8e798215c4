// The FFT over the generalized Fermat prime p = r^8 + 1, r = 2^63 + 2^34
// (package gpu/fermat, the GPU twin of field/fermat; seed 001, Mohajerani).
// Program "fermat.cu".
//
// An element is field/fermat's radix-r form: eight u64 digits, digit i of
// r^i, value sum d[i]*r^i, canonical (every digit below r, or the single
// element p-1 = (0, ..., 0, r)). A vector of n elements is n*8 u64 words,
// element-major, exactly as []fermat.Element lies in host memory: element
// i is words 8i..8i+7. Every kernel reads and writes canonical elements,
// so results equal the CPU's bit for bit (the canonical form is unique).
//
// The transform is field/fermat's Stockham FFT, pass for pass: a first
// pass of radix 2, 4 or 8 when log2 n is not a multiple of 4
// (fermat_pass2/4/8: one thread per small DFT, no twiddles), then radix-16
// passes (fermat_pass16). A radix-16 pass over sub-transforms of length ns
// takes, for each j < n/16 with m = j mod ns, the 16 inputs
// src[j + t*n/16] times w^(t*m*n/(16 ns)), runs a DFT-16 on them and
// writes output t to dst[(j/ns)*16ns + m + t*ns]. The twiddle w^E is
// r^(E div n/16) * tw[E mod n/16]: one general product (fr_mul) by an
// entry of the table of n/16 powers of w, then a digit shift by a run-time
// power of r (fr_mul_rpow). Inside the DFT-16 every product is by a power
// of r: four radix-2 levels of decimation in frequency whose twiddles are
// digit shifts, (a - b)*r^s done as one subtraction of merged digits
// (fr_submul_rpow).
//
// Threads: a block of 256 threads (8 warps) does 32 DFT-16s (32
// consecutive j, one per lane) in shared memory, digit-major
// sm[digit][slot t][lane] so that a warp's accesses are 32 consecutive
// words. Each thread holds two of a DFT's 16 elements at a time; warp q
// holds the pair (t, t + h) of each level (h = 8, 4, 2, 1), so the level's
// shift r^s depends on q alone and no warp diverges. The shift is applied
// at run time (digits rotated by three-step barrels of selects, no register
// array indexed at run time), so every warp runs the same code: a version
// with one compile-time shift per case of a warp-uniform switch (8 copies
// of the butterfly, each warp in its own) ran 1.3-1.5x slower on an H100
// (BENCHMARKS.md). Loads: for a fixed t, the warp reads 32 consecutive
// elements (2 KiB). Stores: the block's outputs are staged in shared memory
// and written in 16-byte pieces in output order (16 runs of 32 elements
// when ns >= 32, one run of 512 when ns < 32), so consecutive threads write
// consecutive addresses.
//
// General products (fr_mul) are the seed's Algorithm 3.3 as field/fermat's
// Mul does it: the negacyclic product of the digit polynomials by product
// scanning (three-word accumulators, a bias that is a multiple of p keeps
// them positive), carries in radix r by division by r through a
// precomputed reciprocal (Moller-Granlund; r has its top bit set), then the
// carry out of r^8 subtracted (r^8 = -1).
//
// Big-integer products (fermat_from_chunks, fermat_mulvec,
// fermat_to_words, fermat_gather) cut the operands into b-bit chunks, one
// per element, and add the product's coefficients back at their bit
// offsets as 128-bit sums per 64-bit word; the last carries run on the
// host.

typedef unsigned long long u64;
typedef unsigned int u32;

#define FR_R 0x8000000400000000ULL    // r = 2^63 + 2^34
#define FR_RINV 0xfffffff00000007fULL // floor((2^128 - 1) / r) - 2^64

struct fe {
    u64 d[8];
};

// fr_divr returns floor((hi*2^64 + lo) / r) and the remainder, hi < r
// (Moller-Granlund division by a precomputed reciprocal; field/fermat's
// divR).
__device__ __forceinline__ u64 fr_divr(u64 hi, u64 lo, u64 &rem) {
    u64 q0 = FR_RINV * hi;
    u64 q1 = __umul64hi(FR_RINV, hi);
    u64 t = q0 + lo;
    u64 c = t < q0 ? 1 : 0;
    q0 = t;
    q1 = q1 + hi + c;
    q1++;
    u64 rm = lo - ((q1 << 63) + (q1 << 34)); // lo - q1*r mod 2^64
    if (rm > q0) {
        q1--;
        rm += FR_R;
    }
    if (rm >= FR_R) {
        q1++;
        rm -= FR_R;
    }
    rem = rm;
    return q1;
}

// fr_addone adds 1 to d (digits below r); r^8 becomes p-1's form.
__device__ __forceinline__ void fr_addone(fe &d) {
    u64 c = 1;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        u64 s = d.d[i] + c;
        u64 w = s == FR_R ? 1 : 0;
        d.d[i] = w ? 0 : s;
        c = w;
    }
    if (c)
        d.d[7] = FR_R;
}

// fr_finish sets d to the canonical form of D - (c1*r + c0) mod p, every
// digit of d below r and c0, c1 < r.
__device__ __forceinline__ void fr_finish(fe &d, u64 c0, u64 c1) {
    if ((c0 | c1) == 0)
        return;
    u64 s = d.d[0] - c0;
    u64 b = d.d[0] < c0 ? 1 : 0;
    d.d[0] = b ? s + FR_R : s;
    u64 t = c1 + b;
    s = d.d[1] - t;
    b = d.d[1] < t ? 1 : 0;
    d.d[1] = b ? s + FR_R : s;
    if (b) {
#pragma unroll
        for (int i = 2; i < 8; i++) {
            u64 z = d.d[i] == 0 ? 1 : 0;
            d.d[i] = b ? (z ? FR_R - 1 : d.d[i] - 1) : d.d[i];
            b = b & z;
        }
        if (b)
            fr_addone(d);
    }
}

// fr_add sets z = x + y mod p.
__device__ __forceinline__ void fr_add(fe &z, const fe &x, const fe &y) {
    fe d;
    u64 c = 0;
#pragma unroll
    for (int i = 0; i < 7; i++) {
        u64 s = x.d[i] + y.d[i];
        u64 co = s < x.d[i] ? 1 : 0;
        u64 s2 = s + c;
        co |= s2 < s ? 1 : 0;
        u64 t = s2 - FR_R;
        u64 ge = s2 >= FR_R ? 1 : 0;
        c = co | ge;
        d.d[i] = c ? t : s2;
    }
    u64 s = x.d[7] + y.d[7];
    u64 co = s < x.d[7] ? 1 : 0;
    u64 s2 = s + c;
    co += s2 < s ? 1 : 0;
    s = s2;
    u64 k = 0;
#pragma unroll
    for (int it = 0; it < 2; it++) {
        if (co != 0 || s >= FR_R) {
            u64 b = s < FR_R ? 1 : 0;
            s -= FR_R;
            co -= b;
            k++;
        }
    }
    d.d[7] = s;
    fr_finish(d, k, 0);
    z = d;
}

// fr_sub sets z = x - y mod p.
__device__ __forceinline__ void fr_sub(fe &z, const fe &x, const fe &y) {
    fe d;
    u64 b = 0;
#pragma unroll
    for (int i = 0; i < 7; i++) {
        u64 yb = y.d[i] + b;
        u64 s = x.d[i] - yb;
        b = x.d[i] < yb ? 1 : 0;
        d.d[i] = b ? s + FR_R : s;
    }
    u64 yb = y.d[7] + b;
    u64 s = x.d[7] - yb;
    if (x.d[7] < yb) { // value D - r^8 = D + 1
        d.d[7] = s + FR_R;
        fr_addone(d);
    } else if (s >= FR_R) { // only r - 0: value D + r^8 = D - 1
        d.d[7] = s - FR_R;
        fr_finish(d, 1, 0);
    } else {
        d.d[7] = s;
    }
    z = d;
}

// fr_mul_rpow sets z = x * r^i for 0 <= i < 16 (a run-time or constant
// i): the digits rotated up s = i mod 8 places, those that wrapped past r^8
// subtracted (added when i >= 8). The rotation is a three-step barrel of
// selects, so no register array is indexed at run time.
__device__ __forceinline__ void fr_mul_rpow(fe &z, const fe &x, u32 i) {
    i &= 15;
    u32 neg = i >= 8 ? 1 : 0;
    u32 s = i & 7;
    if (x.d[7] == FR_R) { // x = -1: the result is -+ r^s
        fe e, zero;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            e.d[k] = (u32)k == s ? 1 : 0;
            zero.d[k] = 0;
        }
        if (neg)
            z = e;
        else
            fr_sub(z, zero, e);
        return;
    }
    fe t = x, u;
#pragma unroll
    for (int k = 0; k < 8; k++)
        u.d[k] = (s & 4) ? t.d[(k + 4) & 7] : t.d[k];
#pragma unroll
    for (int k = 0; k < 8; k++)
        t.d[k] = (s & 2) ? u.d[(k + 6) & 7] : u.d[k];
#pragma unroll
    for (int k = 0; k < 8; k++)
        u.d[k] = (s & 1) ? t.d[(k + 7) & 7] : t.d[k];
    // u.d[k] = x.d[(k - s) mod 8]
    fe a, b;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        u64 up = (u32)k >= s ? u.d[k] : 0;
        u64 dn = (u32)k < s ? u.d[k] : 0;
        a.d[k] = neg ? dn : up;
        b.d[k] = neg ? up : dn;
    }
    fr_sub(z, a, b);
}

// fr_mul sets z = x * y mod p (field/fermat's Mul).
__device__ __forceinline__ void fr_mul(fe &z, const fe &x, const fe &y) {
    fe d;
    u64 c0 = 0, c1 = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        // bias: 2^67 (r+1) for k = 0, 2^67 (r-1) otherwise; sum * r^k = 2^67 p
        u64 a0 = 0, a1 = k == 0 ? 0x2000000008ULL : 0x1ffffffff8ULL, a2 = 4;
#pragma unroll
        for (int i = 0; i <= k; i++) {
            u64 lo = x.d[i] * y.d[k - i];
            u64 hi = __umul64hi(x.d[i], y.d[k - i]);
            a0 += lo;
            u64 t = hi + (a0 < lo ? 1 : 0);
            a1 += t;
            a2 += a1 < t ? 1 : 0;
        }
#pragma unroll
        for (int i = k + 1; i < 8; i++) {
            u64 lo = x.d[i] * y.d[k + 8 - i];
            u64 hi = __umul64hi(x.d[i], y.d[k + 8 - i]);
            u64 t = hi + (a0 < lo ? 1 : 0);
            a0 -= lo;
            u64 bb = a1 < t ? 1 : 0;
            a1 -= t;
            a2 -= bb;
        }
        a0 += c0;
        u64 t = c1 + (a0 < c0 ? 1 : 0);
        a1 += t;
        a2 += a1 < t ? 1 : 0;
        u64 rem, dig;
        u64 q1 = fr_divr(a2, a1, rem);
        u64 q0 = fr_divr(rem, a0, dig);
        d.d[k] = dig;
        c0 = q0;
        c1 = q1;
    }
    // value = D + C r^8 = D - C, C = c1 2^64 + c0 < 2^70 < r^2
    u64 rem;
    u64 q = fr_divr(c1, c0, rem);
    fr_finish(d, rem, q);
    z = d;
}

// fr_submul_rpow sets z = (x - y) * r^s for 0 <= s < 8 with one
// subtraction: x*r^s = X_up - X_down (digits moved up s places, minus the s
// that wrap past r^8), so (x - y)*r^s = (X_up + Y_down) - (Y_up + X_down),
// each sum a merge of digits at disjoint places. x and y are rotated by s
// with three-step barrels of selects: s may be a run-time value, and no
// register array is indexed at run time. It falls back to fr_sub and
// fr_mul_rpow when x or y is p-1 (digit r).
__device__ __forceinline__ void fr_submul_rpow(fe &z, const fe &x, const fe &y, u32 s) {
    if (x.d[7] == FR_R || y.d[7] == FR_R) {
        fe d;
        fr_sub(d, x, y);
        fr_mul_rpow(z, d, s);
        return;
    }
    fe u = x, v = y, t, w;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        t.d[k] = (s & 4) ? u.d[(k + 4) & 7] : u.d[k];
        w.d[k] = (s & 4) ? v.d[(k + 4) & 7] : v.d[k];
    }
#pragma unroll
    for (int k = 0; k < 8; k++) {
        u.d[k] = (s & 2) ? t.d[(k + 6) & 7] : t.d[k];
        v.d[k] = (s & 2) ? w.d[(k + 6) & 7] : w.d[k];
    }
#pragma unroll
    for (int k = 0; k < 8; k++) {
        t.d[k] = (s & 1) ? u.d[(k + 7) & 7] : u.d[k];
        w.d[k] = (s & 1) ? v.d[(k + 7) & 7] : v.d[k];
    }
    // t.d[k] = x.d[(k - s) mod 8], w likewise for y
    fe a, b;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        a.d[k] = (u32)k >= s ? t.d[k] : w.d[k];
        b.d[k] = (u32)k >= s ? w.d[k] : t.d[k];
    }
    fr_sub(z, a, b);
}

// fr_bfly is the butterfly of decimation in frequency with the twiddle
// r^s, s < 8: (a, b) -> (a + b, (a - b) r^s).
__device__ __forceinline__ void fr_bfly(fe &a, fe &b, u32 s) {
    fe d;
    fr_submul_rpow(d, a, b, s);
    fr_add(a, a, b);
    b = d;
}

// fr_bfly0 is the butterfly without twiddle: (a, b) -> (a + b, a - b).
__device__ __forceinline__ void fr_bfly0(fe &a, fe &b) {
    fe d;
    fr_sub(d, a, b);
    fr_add(a, a, b);
    b = d;
}

__device__ __forceinline__ void fr_load(fe &x, const u64 *p) {
#ifdef __CUDA_ARCH__
    const ulonglong2 *v = (const ulonglong2 *)p;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        ulonglong2 w = v[k];
        x.d[2 * k] = w.x;
        x.d[2 * k + 1] = w.y;
    }
#else
    for (int k = 0; k < 8; k++)
        x.d[k] = p[k];
#endif
}

__device__ __forceinline__ void fr_store(u64 *p, const fe &x) {
#ifdef __CUDA_ARCH__
    ulonglong2 *v = (ulonglong2 *)p;
#pragma unroll
    for (int k = 0; k < 4; k++)
    {
        ulonglong2 w;
        w.x = x.d[2 * k];
        w.y = x.d[2 * k + 1];
        v[k] = w;
    }
#else
    for (int k = 0; k < 8; k++)
        p[k] = x.d[k];
#endif
}

// fr_rev4 reverses the 4 low bits of t.
__device__ __forceinline__ u32 fr_rev4(u32 t) {
    return ((t & 1) << 3) | ((t & 2) << 1) | ((t & 4) >> 1) | ((t & 8) >> 3);
}

// A first pass of radix 2^LR (LR = 1, 2, 3) over sub-transforms of length
// 1: DFT j < n/R takes src[j + t n/R] and writes dst[j R + t] (bit-reversed
// from the levels' order). One thread per DFT, no twiddles.
template <int LR> __device__ __forceinline__ void fr_pass_small(u64 *dst, const u64 *src, u32 logn) {
    const int R = 1 << LR;
    u64 nj = 1ULL << (logn - LR);
    u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nj)
        return;
    fe v[R];
#pragma unroll
    for (int t = 0; t < R; t++)
        fr_load(v[t], src + 8 * (j + t * nj));
#pragma unroll
    for (int m = R; m >= 2; m >>= 1) {
        const int h = m >> 1, step = 16 / m;
#pragma unroll
        for (int base = 0; base < R; base += m) {
#pragma unroll
            for (int jj = 0; jj < h; jj++)
                fr_bfly(v[base + jj], v[base + jj + h], jj * step);
        }
    }
#pragma unroll
    for (int t = 0; t < R; t++) {
        u32 rt = fr_rev4(t) >> (4 - LR);
        fr_store(dst + 8 * (j * R + t), v[rt]);
    }
}

extern "C" __global__ void fermat_pass2(u64 *dst, const u64 *src, u32 logn) { fr_pass_small<1>(dst, src, logn); }
extern "C" __global__ void fermat_pass4(u64 *dst, const u64 *src, u32 logn) { fr_pass_small<2>(dst, src, logn); }
extern "C" __global__ void fermat_pass8(u64 *dst, const u64 *src, u32 logn) { fr_pass_small<3>(dst, src, logn); }

// fr_twiddle multiplies x by w^e, 0 <= e < n: r^(e >> lq) * tw[e mod 2^lq],
// lq = log2(n/16).
__device__ __forceinline__ void fr_twiddle(fe &x, u64 e, u32 lq, const u64 *tw) {
    u64 rem = e & ((1ULL << lq) - 1);
    u32 q = (u32)(e >> lq);
    if (rem != 0) {
        fe w;
        fr_load(w, tw + 8 * rem);
        fr_mul(x, x, w);
    }
    if (q != 0)
        fr_mul_rpow(x, x, q);
}

__device__ __forceinline__ void fr_st_sm(u64 (*sm)[16][32], u32 t, u32 lane, const fe &x) {
#pragma unroll
    for (int g = 0; g < 8; g++)
        sm[g][t][lane] = x.d[g];
}

__device__ __forceinline__ void fr_ld_sm(fe &x, u64 (*sm)[16][32], u32 t, u32 lane) {
#pragma unroll
    for (int g = 0; g < 8; g++)
        x.d[g] = sm[g][t][lane];
}

// fermat_pass16 is one radix-16 Stockham pass over sub-transforms of
// length ns = 2^logns (see the file comment). Blocks of 256 threads, 32
// DFT-16s each: grid = ceil(n/16 / 32).
extern "C" __global__ void __launch_bounds__(256) fermat_pass16(u64 *dst, const u64 *src, const u64 *tw, u32 logn, u32 logns) {
    __shared__ u64 sm[8][16][32];
    u32 q = threadIdx.x >> 5, lane = threadIdx.x & 31;
    u64 nj = 1ULL << (logn - 4);
    u64 j0 = (u64)blockIdx.x * 32;
    u64 j = j0 + lane;
    bool act = j < nj;
    fe a, b;
    if (act) {
        fr_load(a, src + 8 * (j + q * nj));
        fr_load(b, src + 8 * (j + (q + 8) * nj));
        if (logns > 0) {
            u64 m = j & ((1ULL << logns) - 1);
            u32 ls = logn - 4 - logns; // log2 of n/(16 ns)
            fr_twiddle(a, ((u64)q * m) << ls, logn - 4, tw);
            fr_twiddle(b, ((u64)(q + 8) * m) << ls, logn - 4, tw);
        }
    } else {
#pragma unroll
        for (int g = 0; g < 8; g++)
            a.d[g] = b.d[g] = 0;
    }
    // level h = 8: pair (q, q+8), twiddle r^q
    fr_bfly(a, b, q);
    fr_st_sm(sm, q, lane, a);
    fr_st_sm(sm, q + 8, lane, b);
    __syncthreads();
    // level h = 4: pair (t, t+4), t = (q mod 4) + 8 (q / 4), twiddle r^(2 (q mod 4))
    u32 t = (q & 3) + 8 * (q >> 2);
    fr_ld_sm(a, sm, t, lane);
    fr_ld_sm(b, sm, t + 4, lane);
    fr_bfly(a, b, 2 * (q & 3));
    fr_st_sm(sm, t, lane, a);
    fr_st_sm(sm, t + 4, lane, b);
    __syncthreads();
    // level h = 2: pair (t, t+2), t = (q mod 2) + 4 (q / 2), twiddle r^(4 (q mod 2))
    t = (q & 1) + 4 * (q >> 1);
    fr_ld_sm(a, sm, t, lane);
    fr_ld_sm(b, sm, t + 2, lane);
    fr_bfly(a, b, 4 * (q & 1));
    fr_st_sm(sm, t, lane, a);
    fr_st_sm(sm, t + 2, lane, b);
    __syncthreads();
    // level h = 1: pair (2q, 2q+1)
    t = 2 * q;
    fr_ld_sm(a, sm, t, lane);
    fr_ld_sm(b, sm, t + 1, lane);
    fr_bfly0(a, b);
    fr_st_sm(sm, t, lane, a);
    fr_st_sm(sm, t + 1, lane, b);
    __syncthreads();
    // Output t of DFT j is in slot rev4(t); it goes to
    // dst[(j/ns) 16 ns + (j mod ns) + t ns]. Piece c (16 bytes) of the
    // block's 512 outputs: output k = c/4, digits 2 (c mod 4) and the next.
    u64 ns = 1ULL << logns;
    for (u32 c = threadIdx.x; c < 2048; c += 256) {
        u32 k = c >> 2, part = c & 3;
        u32 to, dk;
        if (logns >= 5) {
            to = k >> 5;
            dk = k & 31;
        } else {
            to = (k >> logns) & 15;
            dk = ((k >> (logns + 4)) << logns) | (k & (u32)(ns - 1));
        }
        u64 jj = j0 + dk;
        if (jj < nj) {
            u64 pos = ((jj >> logns) << (logns + 4)) + (jj & (ns - 1)) + ((u64)to << logns);
            u32 slot = fr_rev4(to);
            u64 *p = dst + 8 * pos + 2 * part;
#ifdef __CUDA_ARCH__
            ulonglong2 w;
            w.x = sm[2 * part][slot][dk];
            w.y = sm[2 * part + 1][slot][dk];
            *(ulonglong2 *)p = w;
#else
            p[0] = sm[2 * part][slot][dk];
            p[1] = sm[2 * part + 1][slot][dk];
#endif
        }
    }
}

// fermat_revscale finishes the inverse transform: dst[i] = src[-i mod n] *
// inv for every i (inv = 1/n). Thread i < n/2 + 1 handles the pair (i,
// n - i), so dst may be src.
extern "C" __global__ void fermat_revscale(u64 *dst, const u64 *src, u32 logn, const u64 *inv) {
    u64 n = 1ULL << logn;
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n / 2)
        return;
    u64 ni = (n - i) & (n - 1);
    fe c, x, y;
    fr_load(c, inv);
    fr_load(x, src + 8 * i);
    fr_load(y, src + 8 * ni);
    fr_mul(x, x, c);
    fr_mul(y, y, c);
    fr_store(dst + 8 * i, y);
    fr_store(dst + 8 * ni, x);
}

// fermat_mulvec sets z[i] = x[i] * y[i], i < n (z may be x or y).
extern "C" __global__ void fermat_mulvec(u64 *z, const u64 *x, const u64 *y, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        fe a, b;
        fr_load(a, x + 8 * i);
        fr_load(b, y + 8 * i);
        fr_mul(a, a, b);
        fr_store(z + 8 * i, a);
    }
}

// fr_bits_at returns the 64 bits of w (nw words) from bit off (zeros past
// the end).
__device__ __forceinline__ u64 fr_bits_at(const u64 *w, u64 nw, u64 off) {
    u64 qw = off >> 6;
    u32 s = (u32)(off & 63);
    u64 lo = qw < nw ? w[qw] : 0;
    u64 hi = qw + 1 < nw ? w[qw + 1] : 0;
    return s == 0 ? lo : (lo >> s) | (hi << (64 - s));
}

// fermat_from_chunks sets element i < n to bits [i b, (i+1) b) of the
// integer w (nw little-endian words; b <= 252), in radix r, for i < count,
// and to 0 for count <= i < n.
extern "C" __global__ void fermat_from_chunks(u64 *out, const u64 *w, u64 nw, u64 count, u32 b, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        fe e;
#pragma unroll
        for (int k = 0; k < 8; k++)
            e.d[k] = 0;
        if (i < count) {
            u64 v[4];
            u64 off = i * b;
#pragma unroll
            for (int k = 0; k < 4; k++) {
                int lo = 64 * k;
                u64 x = (u32)lo < b ? fr_bits_at(w, nw, off + lo) : 0;
                if ((u32)lo < b && b - lo < 64)
                    x &= (1ULL << (b - lo)) - 1;
                v[k] = x;
            }
            // v < 2^252 < r^4: four divisions by r
#pragma unroll
            for (int dg = 0; dg < 4; dg++) {
                u64 rem = 0;
#pragma unroll
                for (int k = 3; k >= 0; k--)
                    v[k] = fr_divr(rem, v[k], rem);
                e.d[dg] = rem;
            }
        }
        fr_store(out + 8 * i, e);
    }
}

// fermat_to_words rewrites each of the n elements at e as its value's 8
// little-endian words (Horner's rule in radix r), in place.
extern "C" __global__ void fermat_to_words(u64 *e, u64 n) {
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        fe x, w;
        fr_load(x, e + 8 * i);
#pragma unroll
        for (int k = 0; k < 8; k++)
            w.d[k] = 0;
#pragma unroll
        for (int dg = 7; dg >= 0; dg--) {
            u64 carry = x.d[dg];
#pragma unroll
            for (int k = 0; k < 8; k++) {
                u64 lo = w.d[k] * FR_R;
                u64 hi = __umul64hi(w.d[k], FR_R);
                lo += carry;
                carry = hi + (lo < carry ? 1 : 0);
                w.d[k] = lo;
            }
        }
        fr_store(e + 8 * i, w);
    }
}

// fermat_gather sums, for each word u < nz of the product, the words of
// the count coefficients (8 words each at c, coefficient i shifted left by
// i b bits) that land on it: a 128-bit sum, low word to lo[u], high to
// hi[u]. The host adds the carries.
extern "C" __global__ void fermat_gather(u64 *lo, u64 *hi, const u64 *c, u64 count, u32 b, u64 nz) {
    for (u64 u = (u64)blockIdx.x * blockDim.x + threadIdx.x; u < nz; u += (u64)gridDim.x * blockDim.x) {
        // coefficient i touches word u when 64u - i b lies in (-64, 512)
        u64 top = 64 * u + 63; // i b <= 64u + 63
        u64 ihi = top / b;
        if (ihi >= count)
            ihi = count - 1;
        u64 ilo = 64 * u >= 512 ? (64 * u - 512) / b + 1 : 0;
        u64 s0 = 0, s1 = 0;
        for (u64 i = ilo; i <= ihi && i < count; i++) {
            long long off = (long long)(64 * u) - (long long)(i * b); // bits of C_i at word u: from off
            const u64 *ci = c + 8 * i;
            u64 v;
            if (off >= 0) {
                v = fr_bits_at(ci, 8, (u64)off);
            } else {
                v = ci[0] << (u32)(-off);
            }
            s0 += v;
            s1 += s0 < v ? 1 : 0;
        }
        lo[u] = s0;
        hi[u] = s1;
    }
}
