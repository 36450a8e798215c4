// Exact integer polynomial products by number-theoretic transforms modulo
// several primes below 2^31 and Chinese remaindering (package gpu/intntt,
// the GPU twin of poly/intpoly; seed 004). Program "intntt.cu".
//
// Residues are u32, one array of N per prime, the k arrays end to end
// (prime i at res + i*N); blockIdx.y selects the prime. Arithmetic is
// Montgomery with R = 2^32: mont(a, b) = a*b/R mod p for any a < 2^32 and
// b < p, every value kept below p. Twiddles are in Montgomery form
// (w^m * R mod p), so mont(x, tw) = x * w^m leaves x in plain form:
// residues are plain throughout.
//
// The forward transform is decimation in frequency (natural order in,
// bit-reversed out): at stride s the butterfly (u, v) -> (u + v,
// (u - v) * w^(j*N/(2s))), j the position within its half block. The
// inverse is decimation in time (bit-reversed in, natural out, times N):
// (u, v) -> (u + v*w^-e, u - v*w^-e). Strides of 2^lb/2 and below run in
// shared memory on tiles of 2^lb elements (intntt_fwd_tile,
// intntt_inv_tile); larger ones as passes over global memory, two levels
// a pass (intntt_fwd2, intntt_inv2) or one (intntt_fwd1, intntt_inv1).
//
// Chinese remaindering is Garner's mixed-radix method: digit
//   a_i = E[i][0]*(r_i - a_0) - sum_{0<j<i} E[i][j]*a_j  (mod p_i),
// E[i][j] = prod_{l=j}^{i-1} p_l^-1 mod p_i (Montgomery form), then
// X = a_0 + p_0*(a_1 + p_1*(...)) by Horner's rule in 32-bit limbs; signed
// results take X - M when X > (M-1)/2.

typedef unsigned int u32;
typedef unsigned long long u64;

#define INTNTT_MAXK 256 // most primes of a product
#define INTNTT_MAXL (INTNTT_MAXK + 2) // most 32-bit limbs of X
#define INTNTT_TILE_LOG 12          // largest shared-memory tile, log2
#define INTNTT_TILE_THREADS 512

__device__ __forceinline__ u32 mont(u32 a, u32 b, u32 p, u32 pinv) {
    u64 t = (u64)a * b;
    u32 m = (u32)t * pinv;
    u32 u = (u32)((t + (u64)m * p) >> 32);
    return u >= p ? u - p : u;
}

__device__ __forceinline__ u32 addm(u32 a, u32 b, u32 p) {
    u32 s = a + b;
    return s >= p ? s - p : s;
}

__device__ __forceinline__ u32 subm(u32 a, u32 b, u32 p) {
    u32 s = a + p - b;
    return s >= p ? s - p : s;
}

// intntt_reduce writes the residues of n coefficients of W 64-bit limbs
// each (limbs past nl read as zero; two's complement when sgn) modulo
// every prime, and zeros up to N. pw holds, per prime, 2W+1 words: R*2^(64t)
// and R*2^(64t+32) mod p for each limb t, then 2^(64W) mod p.
extern "C" __global__ void intntt_reduce(u32 *res, const u64 *limbs, u64 nl, u32 W, u32 sgn,
                                         u64 n, u64 N, const u32 *P, const u32 *PI, const u32 *pw) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    const u32 *w = pw + (u64)i * (2 * W + 1);
    u32 *r = res + (u64)i * N;
    for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < N; j += (u64)gridDim.x * blockDim.x) {
        u32 acc = 0;
        if (j < n) {
            u64 top = 0;
            for (u32 t = 0; t < W; t++) {
                u64 at = j * W + t;
                u64 v = at < nl ? limbs[at] : 0;
                top = v;
                acc = addm(acc, mont((u32)v, w[2 * t], p, pinv), p);
                acc = addm(acc, mont((u32)(v >> 32), w[2 * t + 1], p, pinv), p);
            }
            if (sgn && (top >> 63))
                acc = subm(acc, w[2 * W], p);
        }
        r[j] = acc;
    }
}

// intntt_twiddles writes tw[(z*k + i)*half + m] = (w_i^(+-1))^m * R mod p_i
// for m < half, z = 0 (forward, root roots[2i]) or 1 (inverse, roots[2i+1]);
// roots are in Montgomery form, one[i] = R mod p_i.
extern "C" __global__ void intntt_twiddles(u32 *tw, u64 half, u32 k, const u32 *P, const u32 *PI,
                                           const u32 *roots, const u32 *one) {
    u32 i = blockIdx.y, z = blockIdx.z;
    u32 p = P[i], pinv = PI[i];
    for (u64 m = (u64)blockIdx.x * blockDim.x + threadIdx.x; m < half; m += (u64)gridDim.x * blockDim.x) {
        u32 r = one[i], b = roots[2 * i + z];
        for (u64 e = m; e; e >>= 1) {
            if (e & 1)
                r = mont(r, b, p, pinv);
            b = mont(b, b, p, pinv);
        }
        tw[((u64)z * k + i) * half + m] = r;
    }
}

// One forward level at stride 2^ls: N/2 butterflies.
extern "C" __global__ void intntt_fwd1(u32 *res, u64 N, u32 logN, u32 ls, const u32 *tw,
                                       const u32 *P, const u32 *PI) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 *x = res + (u64)i * N;
    const u32 *w = tw + (u64)i * (N / 2);
    u64 s = (u64)1 << ls;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < N / 2; t += (u64)gridDim.x * blockDim.x) {
        u64 j = t & (s - 1);
        u64 a = ((t >> ls) << (ls + 1)) | j;
        u32 u = x[a], v = x[a + s];
        x[a] = addm(u, v, p);
        x[a + s] = mont(subm(u, v, p), w[j << (logN - 1 - ls)], p, pinv);
    }
}

// Two forward levels, strides 2^ls and 2^(ls-1): N/4 radix-4 groups.
extern "C" __global__ void intntt_fwd2(u32 *res, u64 N, u32 logN, u32 ls, const u32 *tw,
                                       const u32 *P, const u32 *PI) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 *x = res + (u64)i * N;
    const u32 *w = tw + (u64)i * (N / 2);
    u64 s = (u64)1 << ls, q = s >> 1;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < N / 4; t += (u64)gridDim.x * blockDim.x) {
        u64 j = t & (q - 1);
        u64 a = ((t >> (ls - 1)) << (ls + 1)) | j;
        u32 x0 = x[a], x1 = x[a + q], x2 = x[a + s], x3 = x[a + s + q];
        u32 sh = logN - 1 - ls;
        u32 y0 = addm(x0, x2, p), y2 = mont(subm(x0, x2, p), w[j << sh], p, pinv);
        u32 y1 = addm(x1, x3, p), y3 = mont(subm(x1, x3, p), w[(j + q) << sh], p, pinv);
        u32 wq = w[j << (sh + 1)];
        x[a] = addm(y0, y1, p);
        x[a + q] = mont(subm(y0, y1, p), wq, p, pinv);
        x[a + s] = addm(y2, y3, p);
        x[a + s + q] = mont(subm(y2, y3, p), wq, p, pinv);
    }
}

// One inverse level at stride 2^ls.
extern "C" __global__ void intntt_inv1(u32 *res, u64 N, u32 logN, u32 ls, const u32 *tw,
                                       const u32 *P, const u32 *PI) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 *x = res + (u64)i * N;
    const u32 *w = tw + (u64)i * (N / 2);
    u64 s = (u64)1 << ls;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < N / 2; t += (u64)gridDim.x * blockDim.x) {
        u64 j = t & (s - 1);
        u64 a = ((t >> ls) << (ls + 1)) | j;
        u32 u = x[a], v = mont(x[a + s], w[j << (logN - 1 - ls)], p, pinv);
        x[a] = addm(u, v, p);
        x[a + s] = subm(u, v, p);
    }
}

// Two inverse levels, strides 2^(ls-1) then 2^ls.
extern "C" __global__ void intntt_inv2(u32 *res, u64 N, u32 logN, u32 ls, const u32 *tw,
                                       const u32 *P, const u32 *PI) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 *x = res + (u64)i * N;
    const u32 *w = tw + (u64)i * (N / 2);
    u64 s = (u64)1 << ls, q = s >> 1;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < N / 4; t += (u64)gridDim.x * blockDim.x) {
        u64 j = t & (q - 1);
        u64 a = ((t >> (ls - 1)) << (ls + 1)) | j;
        u32 x0 = x[a], x1 = x[a + q], x2 = x[a + s], x3 = x[a + s + q];
        u32 sh = logN - 1 - ls;
        u32 wq = w[j << (sh + 1)];
        u32 v1 = mont(x1, wq, p, pinv), v3 = mont(x3, wq, p, pinv);
        u32 y0 = addm(x0, v1, p), y1 = subm(x0, v1, p);
        u32 y2 = addm(x2, v3, p), y3 = subm(x2, v3, p);
        u32 v2 = mont(y2, w[j << sh], p, pinv), w3 = mont(y3, w[(j + q) << sh], p, pinv);
        x[a] = addm(y0, v2, p);
        x[a + s] = subm(y0, v2, p);
        x[a + q] = addm(y1, w3, p);
        x[a + s + q] = subm(y1, w3, p);
    }
}

// The forward levels of strides 2^(lb-1) ... 1 on tiles of 2^lb elements in
// shared memory, one tile a block (blockIdx.x), INTNTT_TILE_THREADS threads
// or fewer.
extern "C" __global__ void intntt_fwd_tile(u32 *res, u64 N, u32 logN, u32 lb, const u32 *tw,
                                           const u32 *P, const u32 *PI) {
    __shared__ u32 sx[1 << INTNTT_TILE_LOG];
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 B = 1u << lb;
    u32 *x = res + (u64)i * N + (u64)blockIdx.x * B;
    const u32 *w = tw + (u64)i * (N / 2);
    for (u32 t = threadIdx.x; t < B; t += blockDim.x)
        sx[t] = x[t];
    __syncthreads();
    for (int ls = (int)lb - 1; ls >= 0; ls--) {
        u32 s = 1u << ls;
        for (u32 t = threadIdx.x; t < B / 2; t += blockDim.x) {
            u32 j = t & (s - 1);
            u32 a = ((t >> ls) << (ls + 1)) | j;
            u32 u = sx[a], v = sx[a + s];
            sx[a] = addm(u, v, p);
            sx[a + s] = mont(subm(u, v, p), w[(u64)j << (logN - 1 - ls)], p, pinv);
        }
        __syncthreads();
    }
    for (u32 t = threadIdx.x; t < B; t += blockDim.x)
        x[t] = sx[t];
}

// The inverse levels of strides 1 ... 2^(lb-1) on tiles of 2^lb elements.
extern "C" __global__ void intntt_inv_tile(u32 *res, u64 N, u32 logN, u32 lb, const u32 *tw,
                                           const u32 *P, const u32 *PI) {
    __shared__ u32 sx[1 << INTNTT_TILE_LOG];
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i];
    u32 B = 1u << lb;
    u32 *x = res + (u64)i * N + (u64)blockIdx.x * B;
    const u32 *w = tw + (u64)i * (N / 2);
    for (u32 t = threadIdx.x; t < B; t += blockDim.x)
        sx[t] = x[t];
    __syncthreads();
    for (u32 ls = 0; ls < lb; ls++) {
        u32 s = 1u << ls;
        for (u32 t = threadIdx.x; t < B / 2; t += blockDim.x) {
            u32 j = t & (s - 1);
            u32 a = ((t >> ls) << (ls + 1)) | j;
            u32 u = sx[a], v = mont(sx[a + s], w[(u64)j << (logN - 1 - ls)], p, pinv);
            sx[a] = addm(u, v, p);
            sx[a + s] = subm(u, v, p);
        }
        __syncthreads();
    }
    for (u32 t = threadIdx.x; t < B; t += blockDim.x)
        x[t] = sx[t];
}

// intntt_pointwise sets a = a*b*S/R^2 mod p, S[i] = R^2/N mod p_i: the
// product of the transforms with the inverse transform's 1/N folded in.
extern "C" __global__ void intntt_pointwise(u32 *a, const u32 *b, u64 N, const u32 *P, const u32 *PI,
                                            const u32 *S) {
    u32 i = blockIdx.y;
    u32 p = P[i], pinv = PI[i], s = S[i];
    u32 *x = a + (u64)i * N;
    const u32 *y = b + (u64)i * N;
    for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < N; j += (u64)gridDim.x * blockDim.x)
        x[j] = mont(mont(x[j], y[j], p, pinv), s, p, pinv);
}

// intntt_crt writes coefficient j < n of the product, from its residues
// res[i*N + j], as W 64-bit limbs of out (two's complement when sgn: the
// symmetric representative modulo M). E is k*k words (row i, column j < i),
// M and H = (M-1)/2 are L 32-bit limbs.
extern "C" __global__ void intntt_crt(u64 *out, u32 W, u64 n, const u32 *res, u64 N, u32 k,
                                      const u32 *P, const u32 *PI, const u32 *E, const u32 *M,
                                      const u32 *H, u32 L, u32 sgn) {
    u32 dg[INTNTT_MAXK];
    u32 X[INTNTT_MAXL];
    for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (u64)gridDim.x * blockDim.x) {
        dg[0] = res[j];
        for (u32 i = 1; i < k; i++) {
            u32 p = P[i], pinv = PI[i];
            const u32 *e = E + (u64)i * k;
            u32 a = subm(mont(res[(u64)i * N + j], e[0], p, pinv), mont(dg[0], e[0], p, pinv), p);
            for (u32 l = 1; l < i; l++)
                a = subm(a, mont(dg[l], e[l], p, pinv), p);
            dg[i] = a;
        }
        u32 len = 1;
        X[0] = dg[k - 1];
        for (int i = (int)k - 2; i >= 0; i--) {
            u64 p = P[i];
            u64 c = dg[i];
            for (u32 t = 0; t < len; t++) {
                u64 v = (u64)X[t] * p + c;
                X[t] = (u32)v;
                c = v >> 32;
            }
            if (c)
                X[len++] = (u32)c;
        }
        for (u32 t = len; t < L; t++)
            X[t] = 0;
        u32 fill = 0;
        if (sgn) {
            int gt = 0;
            for (int t = (int)L - 1; t >= 0; t--) {
                if (X[t] != H[t]) {
                    gt = X[t] > H[t];
                    break;
                }
            }
            if (gt) {
                u32 br = 0;
                for (u32 t = 0; t < L; t++) {
                    u64 d = (u64)X[t] - M[t] - br;
                    X[t] = (u32)d;
                    br = (u32)(d >> 63);
                }
                fill = 0xffffffffu;
            }
        }
        u64 *o = out + j * W;
        for (u32 t = 0; t < W; t++) {
            u32 lo = 2 * t < L ? X[2 * t] : fill;
            u32 hi = 2 * t + 1 < L ? X[2 * t + 1] : fill;
            o[t] = (u64)lo | ((u64)hi << 32);
        }
    }
}

// intntt_gather sums, for each limb m < nz of an integer product, the
// limbs of the n coefficients (Wc limbs each, coefficient j weighted by
// 2^(64*c*j)) that land on it: lo[m] + 2^64*hi[m].
extern "C" __global__ void intntt_gather(u64 *lo, u64 *hi, const u64 *co, u64 n, u32 Wc, u32 c, u64 nz) {
    for (u64 m = (u64)blockIdx.x * blockDim.x + threadIdx.x; m < nz; m += (u64)gridDim.x * blockDim.x) {
        u64 jmax = m / c;
        if (jmax > n - 1)
            jmax = n - 1;
        u64 jmin = m + 1 > Wc ? (m + 1 - Wc + c - 1) / c : 0;
        u64 s = 0, h = 0;
        for (u64 j = jmin; j <= jmax && j < n; j++) {
            u64 v = co[j * Wc + (m - c * j)];
            s += v;
            h += s < v;
        }
        lo[m] = s;
        hi[m] = h;
    }
}

// Carries of an integer product, on the device. After intntt_gather, the
// product is sum_m (lo[m] + 2^64*hi[m]) * 2^(64m): the sum of L =
// sum lo[m]*2^(64m) and H = sum hi[m]*2^(64(m+1)), added with carry
// lookahead. Limb m's sum s = lo[m] + hi[m-1] generates a carry (g) when
// it overflows and propagates one (p) when s = 2^64-1 (never both); the
// carry into limb m is OR over j < m of g_j AND p_(j+1) ... p_(m-1). With
// a warp's g and p as 32-bit masks, the carries into its lanes are
// ((g|p) + g + cin) ^ p, bit 32 the carry out: the carries of adding a =
// g|p and b = g, whose generate and propagate masks are g and p. A block of
// INTNTT_CARRY_THREADS threads resolves as many limbs in two such steps
// (lanes, then warps); intntt_carry_blocks writes each block's summary
// (0 kills a carry, 1 propagates it, 2 generates one), intntt_carry_scan
// turns the summaries into the carry into each block (one block, chunk by
// chunk, the final carry out after them), intntt_carry_apply writes
// z[m] = s + carry (z may be lo).

#define INTNTT_CARRY_THREADS 1024

__device__ __forceinline__ u64 carry_limb(const u64 *lo, const u64 *hi, u64 m, u64 nz, bool *g, bool *p) {
    if (m >= nz) { // past the end: propagate, so that the carry out is exact
        *g = false;
        *p = true;
        return 0;
    }
    u64 a = lo[m], v = a + (m ? hi[m - 1] : 0);
    *g = v < a;
    *p = v == ~0ull;
    return v;
}

// block_carry returns the carry into the calling thread's limb given cin,
// the carry into the block's first; *cout (shared) receives the carry out
// of the block. All INTNTT_CARRY_THREADS threads call it.
__device__ u32 block_carry(bool g, bool p, u32 cin, u32 *cout) {
    __shared__ u32 wg[32], wp[32], wc[32];
    u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u32 G = __ballot_sync(0xffffffffu, g), P = __ballot_sync(0xffffffffu, p);
    __syncthreads(); // an earlier call's readers are done with wc
    if (lane == 0) {
        wg[warp] = (u32)((((u64)(G | P)) + G) >> 32);
        wp[warp] = P == 0xffffffffu;
    }
    __syncthreads();
    if (warp == 0) {
        u32 GG = __ballot_sync(0xffffffffu, wg[lane] != 0), PP = __ballot_sync(0xffffffffu, wp[lane] != 0);
        u64 s = (u64)(GG | PP) + GG + cin;
        wc[lane] = (((u32)s ^ PP) >> lane) & 1;
        if (lane == 0)
            *cout = (u32)(s >> 32);
    }
    __syncthreads();
    u64 s = (u64)(G | P) + G + wc[warp];
    return (((u32)s ^ P) >> lane) & 1;
}

extern "C" __global__ void __launch_bounds__(INTNTT_CARRY_THREADS)
intntt_carry_blocks(const u64 *lo, const u64 *hi, u64 nz, u32 *agg) {
    __shared__ u32 cout;
    bool g, p;
    carry_limb(lo, hi, (u64)blockIdx.x * INTNTT_CARRY_THREADS + threadIdx.x, nz, &g, &p);
    block_carry(g, p, 0, &cout);
    int allp = __syncthreads_and(p);
    if (threadIdx.x == 0)
        agg[blockIdx.x] = allp ? 1 : (cout ? 2 : 0);
}

// One block: agg[b] (b < nb) becomes the carry into block b, agg[nb] the
// carry out of the last.
extern "C" __global__ void __launch_bounds__(INTNTT_CARRY_THREADS)
intntt_carry_scan(u32 *agg, u64 nb) {
    __shared__ u32 cout, run;
    if (threadIdx.x == 0)
        run = 0;
    __syncthreads();
    for (u64 base = 0; base < nb; base += INTNTT_CARRY_THREADS) {
        u64 b = base + threadIdx.x;
        u32 st = b < nb ? agg[b] : 1;
        u32 c = block_carry(st == 2, st == 1, run, &cout);
        if (b < nb)
            agg[b] = c;
        __syncthreads();
        if (threadIdx.x == 0)
            run = cout;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        agg[nb] = run;
}

extern "C" __global__ void __launch_bounds__(INTNTT_CARRY_THREADS)
intntt_carry_apply(u64 *z, const u64 *lo, const u64 *hi, u64 nz, const u32 *agg) {
    __shared__ u32 cout;
    bool g, p;
    u64 m = (u64)blockIdx.x * INTNTT_CARRY_THREADS + threadIdx.x;
    u64 v = carry_limb(lo, hi, m, nz, &g, &p);
    u32 c = block_carry(g, p, agg[blockIdx.x], &cout);
    if (m < nz)
        z[m] = v + c;
}
