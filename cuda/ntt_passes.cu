// One-tile NTT passes, bit reversal and the LDE layout step (see
// ntt_fields.cu for the conventions; compiled after it).

// ---------------------------------------------------------------- passes

__device__ __forceinline__ u32 bitrev(u32 i, u32 logn) {
    return logn == 0 ? 0 : __brev(i) >> (32 - logn);
}

// fcanon is what a pass stores: the canonical representative (only
// Goldilocks computes on others).
template <class F>
__device__ __forceinline__ typename F::E fcanon(typename F::E x) { return x; }
template <>
__device__ __forceinline__ u64 fcanon<Goldilocks>(u64 x) { return Goldilocks::canon(x); }

// Flags of ntt_pass.
#define F_DIT 1u        // Cooley–Tukey order (positions upward)
#define F_PRE_COSET 2u  // multiply loads by lo/hi powers of the polynomial index
#define F_POST_CONST 4u // multiply stores by scale[0]
#define F_POST_COSET 8u // multiply stores by lo/hi powers of the polynomial index
#define F_INDEX_REV 16u // the polynomial index of position i is bitrev(i)
#define F_CANON 64u     // FS64: store canonical representatives (a transform's last pass)
#define F_NAT_OUT 256u  // four-step passes: the bottom DIF pass writes natural order (out of place)
#define F_PDL_LATE 128u // let the next kernel start only after this one's last stores (pdl_trigger), not at its start
#define F_TWIST_TAB 512u // four-step passes of the 31-bit fields, up to FS_TWIST_MAX_NST bits: rt is the pass's twist table (fs_pass)

template <class F>
__device__ __forceinline__ typename F::E power(const typename F::E *tab, u32 h, u32 k) {
    // tab: lo table (2^h entries) then hi table
    return F::mul(tab[k & ((1u << h) - 1)], tab[(1u << h) + (k >> h)]);
}

// One pass: bit positions [lo, lo+nst) of columns of n = 2^logn elements.
// A block holds a tile of C = 2^logc groups; dynamic shared memory holds
// C·(2^nst + 1) elements (one pad element per group).
template <class F>
__device__ void ntt_pass(typename F::E *data, u64 colStride, const typename F::E *tw,
                         const typename F::E *pre, const typename F::E *post, u32 tabH,
                         u32 logn, u32 lo, u32 nst, u32 logc, u32 flags) {
    typedef typename F::E E;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sh = reinterpret_cast<E *>(smem_raw);

    E *col = data + (u64)blockIdx.y * colStride;
    const u32 n = 1u << logn;
    const u32 G = 1u << nst;     // group size
    const u32 row = G + 1;       // padded row length in shared memory
    const u32 T = G << logc;     // tile elements
    const u32 a = min(lo, logc); // low o bits that are low index bits
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;

    // index of the element at (o, t)
    auto index = [&](u32 o, u32 t) -> u32 {
        return ((o >> lo) << (lo + nst)) | (t << lo) | (o & lowMask);
    };

    for (u32 u = threadIdx.x; u < T; u += blockDim.x) {
        u32 ol = u & ((1u << a) - 1);
        u32 t = (u >> a) & (G - 1);
        u32 oh = u >> (a + nst);
        u32 olocal = ol | (oh << a);
        u32 i = index(obase + olocal, t);
        E x = col[i];
        if (flags & F_PRE_COSET) {
            u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
            x = F::mul(x, power<F>(pre, tabH, k));
        }
        sh[olocal * row + t] = x;
    }
    __syncthreads();

    const u32 half = G >> 1;
    const u32 nb = half << logc; // butterflies per stage in the tile
    for (u32 s = 0; s < nst; s++) {
        u32 q = (flags & F_DIT) ? s : nst - 1 - s; // t bit of this stage
        u32 p = lo + q;                             // index bit
        const E *twp = tw + (n - (2u << p));
        for (u32 b = threadIdx.x; b < nb; b += blockDim.x) {
            u32 olocal = b >> (nst - 1);
            u32 r = b & (half - 1);
            u32 t1 = ((r >> q) << (q + 1)) | (r & ((1u << q) - 1));
            u32 t2 = t1 + (1u << q);
            u32 j = ((t1 & ((1u << q) - 1)) << lo) | ((obase + olocal) & lowMask);
            E w = twp[j];
            E x = sh[olocal * row + t1];
            E y = sh[olocal * row + t2];
            if (flags & F_DIT) {
                y = F::mul(y, w);
                sh[olocal * row + t1] = F::add(x, y);
                sh[olocal * row + t2] = F::sub(x, y);
            } else {
                sh[olocal * row + t1] = F::add(x, y);
                sh[olocal * row + t2] = F::mul(F::sub(x, y), w);
            }
        }
        __syncthreads();
    }

    for (u32 u = threadIdx.x; u < T; u += blockDim.x) {
        u32 ol = u & ((1u << a) - 1);
        u32 t = (u >> a) & (G - 1);
        u32 oh = u >> (a + nst);
        u32 olocal = ol | (oh << a);
        u32 i = index(obase + olocal, t);
        E x = sh[olocal * row + t];
        if (flags & F_POST_CONST) {
            x = F::mul(x, post[0]);
        } else if (flags & F_POST_COSET) {
            u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
            x = F::mul(x, power<F>(post, tabH, k));
        }
        col[i] = fcanon<F>(x);
    }
}

// The same pass with registers: each thread holds R = 2^RLOG elements and
// runs up to RLOG stages on them between two exchanges through shared
// memory (the first round reads global memory, the last writes it). Round
// bits: a window of RLOG consecutive t bits that contains the round's stage
// bits; the thread's other t bits and its group come from threadIdx.x,
// lowest address bits first so that global accesses coalesce. Needs
// nst >= RLOG and blockDim.x = C·2^nst / R. Shared memory is swizzled
// (t ^ (t >> RLOG) mod R) against bank conflicts.
template <class F, int RLOG, int SLOG>
__device__ void ntt_pass_reg(typename F::E *__restrict__ data, u64 colStride, const typename F::E *__restrict__ tw,
                             const typename F::E *pre, const typename F::E *post, u32 tabH,
                             u32 logn, u32 lo, u32 nst, u32 logc, u32 flags) {
    typedef typename F::E E;
    constexpr u32 R = 1u << RLOG;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sh = reinterpret_cast<E *>(smem_raw);

    E *col = data + (u64)blockIdx.y * colStride;
    const u32 n = 1u << logn;
    const u32 row = (1u << nst) + 1;
    const u32 a = min(lo, logc);
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;
    const bool dit = flags & F_DIT;

    // thread coordinates that do not depend on the round
    const u32 nonw = nst - RLOG;
    u32 tid = threadIdx.x;
    const u32 olo = tid & ((1u << a) - 1);
    const u32 tpart = (tid >> a) & ((1u << nonw) - 1);
    const u32 ohi = tid >> (a + nonw);
    const u32 olocal = olo | (ohi << a);
    const u32 o = obase + olocal;
    const u32 low = o & lowMask;
    const u32 ibase = ((o >> lo) << (lo + nst)) | low;

    E x[R];
    const u32 nr = (nst + RLOG - 1) / RLOG;
    const u32 mbase = nst / nr, mextra = nst % nr;
    u32 done = 0; // stage bits done so far
    for (u32 rd = 0; rd < nr; rd++) {
        const u32 m = mbase + (rd < mextra ? 1 : 0);
        // stage bits of this round: [qb, qb+m)
        const u32 qb = dit ? done : nst - done - m;
        const u32 ws = min(qb, nst - RLOG);
        const u32 tbase = (tpart & ((1u << ws) - 1)) | ((tpart >> ws) << (ws + RLOG));

        // Global accesses of a window at the bottom of a pass at index bit 0
        // would leave each thread's elements contiguous and the warp's
        // accesses strided: those go through shared memory (lo == 0 implies
        // one group per tile).
        const bool staged = lo == 0 && ws < SLOG;
        if (rd == 0 && staged) {
            const u32 G = 1u << nst;
            for (u32 u = threadIdx.x; u < G; u += blockDim.x) {
                u32 i = ibase | u;
                E v = col[i];
                if (flags & F_PRE_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(pre, tabH, k));
                }
                sh[u ^ ((u >> RLOG) & (R - 1))] = v;
            }
            __syncthreads();
        }
        if (rd == 0 && !staged) {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                u32 t = tbase | (e << ws);
                u32 i = ibase | (t << lo);
                E v = col[i];
                if (flags & F_PRE_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(pre, tabH, k));
                }
                x[e] = v;
            }
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                u32 t = tbase | (e << ws);
                x[e] = sh[olocal * row + (t ^ ((t >> RLOG) & (R - 1)))];
            }
        }

        if (dit) {
#pragma unroll
            for (u32 k = 0; k < RLOG; k++) {
                const u32 q = ws + k;
                if (q < qb || q >= qb + m) continue;
                // twiddle index: jb + (e mod 2^k) << (ws + lo)
                const E *twp = tw + (n - (2u << (lo + q))) + (((tbase & ((1u << q) - 1)) << lo) | low);
                const u32 sh_e = ws + lo;
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    if (e & (1u << k)) continue;
                    E y = F::mul(x[e | (1u << k)], twp[(e & ((1u << k) - 1)) << sh_e]);
                    E v = x[e];
                    x[e] = F::add(v, y);
                    x[e | (1u << k)] = F::sub(v, y);
                }
            }
        } else {
#pragma unroll
            for (int kk = RLOG - 1; kk >= 0; kk--) {
                const u32 k = (u32)kk;
                const u32 q = ws + k;
                if (q < qb || q >= qb + m) continue;
                const E *twp = tw + (n - (2u << (lo + q))) + (((tbase & ((1u << q) - 1)) << lo) | low);
                const u32 sh_e = ws + lo;
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    if (e & (1u << k)) continue;
                    E v = x[e], y = x[e | (1u << k)];
                    x[e] = F::add(v, y);
                    x[e | (1u << k)] = F::mul(F::sub(v, y), twp[(e & ((1u << k) - 1)) << sh_e]);
                }
            }
        }
        done += m;

        if (rd == nr - 1 && staged) {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                u32 t = tbase | (e << ws);
                sh[t ^ ((t >> RLOG) & (R - 1))] = x[e];
            }
            __syncthreads();
            const u32 G = 1u << nst;
            for (u32 u = threadIdx.x; u < G; u += blockDim.x) {
                u32 i = ibase | u;
                E v = sh[u ^ ((u >> RLOG) & (R - 1))];
                if (flags & F_POST_CONST) {
                    v = F::mul(v, post[0]);
                } else if (flags & F_POST_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(post, tabH, k));
                }
                col[i] = fcanon<F>(v);
            }
        } else if (rd == nr - 1) {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                u32 t = tbase | (e << ws);
                u32 i = ibase | (t << lo);
                E v = x[e];
                if (flags & F_POST_CONST) {
                    v = F::mul(v, post[0]);
                } else if (flags & F_POST_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(post, tabH, k));
                }
                col[i] = fcanon<F>(v);
            }
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                u32 t = tbase | (e << ws);
                sh[olocal * row + (t ^ ((t >> RLOG) & (R - 1)))] = x[e];
            }
            __syncthreads();
        }
    }
}

// In-place bit-reversal permutation of each column.
template <class F>
__device__ void ntt_bitrev(typename F::E *data, u64 colStride, u32 logn) {
    typedef typename F::E E;
    E *col = data + (u64)blockIdx.y * colStride;
    u32 n = 1u << logn;
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u32 r = bitrev(i, logn);
        if (i < r) {
            E x = col[i];
            col[i] = col[r];
            col[r] = x;
        }
    }
}

// LDE layout step: dst (N = 2^(logn+logb) per column, stride dstStride) gets
// the n coefficients of src (stride srcStride), zero elsewhere, each
// multiplied by g^k (k its polynomial index; g's powers from the lo/hi
// tables pow, split at tabH: the large domain's coset shift) when pow is not
// null, so that the large transform needs no coset pass over N elements.
//   mode 0: dst[j << logb] = src[j]                (stride, keeps src order: k = bitrev_n(j))
//   mode 1: dst[j] = src[bitrev_n(j)] for j < n     (natural, zero-padded: k = j)
//   mode 2: dst[bitrev_n(j) << logb] = src[j]       (reverse, then stride: k = j)
template <class F>
__device__ void ntt_spread(typename F::E *dst, u64 dstStride, const typename F::E *src, u64 srcStride,
                           u32 logn, u32 logb, u32 mode, const typename F::E *pow, u32 tabH) {
    typedef typename F::E E;
    E *d = dst + (u64)blockIdx.y * dstStride;
    const E *s = src + (u64)blockIdx.y * srcStride;
    u32 N = 1u << (logn + logb);
    u32 bmask = (1u << logb) - 1;
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < N; k += gridDim.x * blockDim.x) {
        E x{};
        bool set = false;
        u32 pk = 0;
        if (mode == 1) {
            if (k < (1u << logn)) {
                x = s[bitrev(k, logn)];
                set = true;
                pk = k;
            }
        } else if ((k & bmask) == 0) {
            u32 j = k >> logb;
            x = s[mode == 2 ? bitrev(j, logn) : j];
            set = true;
            pk = bitrev(j, logn);
        }
        if (set && pow != nullptr) x = fcanon<F>(F::mul(x, power<F>(pow, tabH, pk)));
        d[k] = x;
    }
}

// In-place bit-reversal permutation of each column of 2^logn elements,
// logn >= 2·TB, at the copy rate: index i = (h, m, l), h and l of TB bits,
// goes to bitrev(i) = (rev(l), rev(m), rev(h)). A block takes the middle m
// and its reverse m' (m <= m'): it loads both 2^TB × 2^TB tiles of
// elements (·, m, ·) and (·, m', ·) (rows of 2^TB consecutive elements) into
// shared memory, then writes each transposed and reversed into the other's
// place, again in rows. BLOCK threads; shared memory 2·2^TB·(2^TB+1)
// elements (rows padded by one against bank conflicts).
template <class F, int TB, int BLOCK>
__device__ void ntt_bitrev_tiled(typename F::E *data, u64 colStride, u32 logn) {
    typedef typename F::E E;
    constexpr u32 T = 1u << TB, ROW = T + 1, PER = T * T / BLOCK;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sa = reinterpret_cast<E *>(smem_raw);
    E *sb = sa + T * ROW;
    E *col = data + (u64)blockIdx.y * colStride;
    const u32 mbits = logn - 2 * TB;
    const u32 nm = 1u << mbits;
    for (u32 m = blockIdx.x; m < nm; m += gridDim.x) {
        const u32 mr = bitrev(m, mbits);
        if (mr < m) continue; // the pair's other block moves it
        const bool two = mr != m;
#pragma unroll
        for (u32 e = 0; e < PER; e++) {
            const u32 u = threadIdx.x + e * BLOCK;
            const u32 h = u >> TB, l = u & (T - 1);
            const u32 base = (h << (logn - TB)) | l;
            sa[h * ROW + l] = col[base | (m << TB)];
            if (two) sb[h * ROW + l] = col[base | (mr << TB)];
        }
        __syncthreads();
#pragma unroll
        for (u32 e = 0; e < PER; e++) {
            const u32 u = threadIdx.x + e * BLOCK;
            const u32 h2 = u >> TB, l2 = u & (T - 1);
            const u32 base = (h2 << (logn - TB)) | l2;
            const u32 at = (__brev(l2) >> (32 - TB)) * ROW + (__brev(h2) >> (32 - TB));
            col[base | (mr << TB)] = sa[at];
            if (two) col[base | (m << TB)] = sb[at];
        }
        __syncthreads();
    }
}
