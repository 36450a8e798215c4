// Four-step NTT passes of BabyBear, KoalaBear and Goldilocks, and the
// entry points (see ntt_fields.cu; compiled after ntt_passes.cu).

// ---------------------------------------------------------------- four-step passes

// A four-step pass is one pass of the transform as a sequence of smaller
// transforms (the "four-step" split, applied recursively): for a pass on
// index bits [lo, lo+NST) the higher bits have been done (DIF) or are still
// to do (DIT), so every column splits into independent sub-transforms of
// size M = 2^(lo+NST), of which the pass runs a size-2^NST transform over
// bits [lo, lo+NST) for each value of the low bits j2 = i mod 2^lo, then
// multiplies by the twiddle ω_M^(j2·k1) (DIF, after) or before (DIT), k1 =
// bitrev_NST of the pass's position; ω_M = ω^(n/M). The low bits are then
// the next pass's business. The inner transforms take their twiddles from
// the small end of the per-position table tw (the 2^(q+1)-th roots at
// offset n − 2^(q+1)); the pass twiddle comes from two small tables of
// powers of ω (rt: lo[e mod 2^rtH], hi[e >> rtH]). The results are the same
// field elements as the radix-2 passes', so bit for bit those of
// gnark-crypto.
//
// A block holds C = 2^logc groups (values of the index outside the pass's
// bits) of 2^NST elements in shared memory, loaded and stored with
// consecutive threads on consecutive addresses; in between, each thread
// takes R = 2^RL elements of one group at a time into registers and runs up
// to RL stages on them (rounds). blockDim.x = C·2^NST / R. A thread's index
// holds a low group bits (a = min(lo, logc)), the pass bits outside the
// round's window, then the other group bits (lowest address bits first, so
// that global accesses coalesce). In the bottom pass (lo == 0: a group is
// 2^NST consecutive elements) a window at the lowest bits leaves each
// thread's elements contiguous and the warp's accesses strided: those go
// through shared memory in address order (staged).
//
// The pass twiddles of the thread's R positions t = tbase | (e << ws) come
// at once: bitrev(t) = bitrev(tbase) + Σ_k e_k·2^(NST−1−ws−k), so the
// twiddle is T0 · Π_{e_k=1} W_k with W_k = ω_M^(low·2^(NST−1−ws−k)) and
// W_k = W_{k+1}^2. Two table products and RL−1 squarings instead of R
// table products: the table reads are gathers (lanes on different lines).
// The twiddle of e is A[e mod 2^LA]·B[e >> LA] (B[0] = 1).
//
// The passes: FS31 (BabyBear, KoalaBear), FS64 (Goldilocks),
// ntt_bn254_fs (BN254).
// A pass's loads and stores (IO): in place (src unread), out of place
// (src to data: a natural-order transform's first DIF pass), out of place
// writing natural order (its last, the bottom pass; F_NAT_OUT). The
// out-of-place passes are kernels of their own (the entry points below).
#define FS_IN_PLACE 0
#define FS_OUT_OF_PLACE 1
#define FS_NATURAL 2
// The largest pass whose pass twiddles can come from a twist table
// (F_TWIST_TAB, ntt_<name>_tw_fs*; gpu/primentt's twistMaxNST).
#define FS_TWIST_MAX_NST 8
__host__ __device__ constexpr int fs_rl(int nst, int rlog) { return nst < rlog ? nst : rlog; }
__host__ __device__ constexpr int fs_nr(int nst, int rl) { return (nst + rl - 1) / rl; }
// bits of round rd (stage bits split as evenly as possible)
__host__ __device__ constexpr int fs_m(int nst, int nr, int rd) { return nst / nr + (rd < nst % nr ? 1 : 0); }
// stage bits done before round rd
__host__ __device__ constexpr int fs_done(int nst, int nr, int rd) { return rd == 0 ? 0 : fs_done(nst, nr, rd - 1) + fs_m(nst, nr, rd - 1); }

// ---------------------------------------------------------------- four-step passes, 31-bit fields and Goldilocks

// fs_pass is the four-step pass of BabyBear and KoalaBear (FS31: p <
// 2^31, one uint32 per element, 16 per thread) and of Goldilocks (FS64:
// 8 elements per thread), written for few integer instructions (the passes
// are issue-bound, not DRAM-bound):
//   - shared memory pads the rows instead of swizzling (fs31_row, fs64_row
//     below), so that every shared access of a round is a thread base plus
//     a compile-time offset and the global ones one address per thread and
//     round plus multiples of a stride (no per-element swizzle or index
//     arithmetic), bank-conflict-free above the bottom pass (TestFS31Layout,
//     TestFS64Layout);
//   - the inner twiddles of a stage are one base per round plus constant
//     offsets, and products by twiddles that are 1 at compile time are
//     skipped;
//   - the four table reads of the pass twiddles are issued with the first
//     loads (FS31) or with the first loads of the round that applies
//     them (FS64: DIT global, DIF shared; earlier, 64 registers spill).
// BabyBear and KoalaBear (F31):
//   - add and sub pick the smaller of the two candidates (s and s − p, d and
//     d + p) instead of compare-and-select; the Montgomery product accepts
//     any 32-bit a (a·b + m·p < 2^33·p < 2^64) and returns a canonical value;
//     so DIF feeds a − b + p unreduced into the twiddle product, and the last
//     stage before a product (pass twiddle, 1/n, coset) leaves a + b and
//     a − b + p unreduced.
// Goldilocks:
//   - values stay non-canonical across passes: only a launch with F_CANON
//     (the transform's last) stores canonical representatives.
template <class F>
struct F31 {
    __device__ static __forceinline__ u32 add(u32 a, u32 b) {
        const u32 s = a + b;
        return min(s, s - F::P);
    }
    __device__ static __forceinline__ u32 sub(u32 a, u32 b) {
        const u32 d = a - b;
        return min(d, d + F::P);
    }
    // unreduced, in [0, 2p): only as the first operand of mul
    __device__ static __forceinline__ u32 addl(u32 a, u32 b) { return a + b; }
    __device__ static __forceinline__ u32 subl(u32 a, u32 b) { return a + (F::P - b); }
    // a·b/2^32 mod p, canonical, for any a < 2^32 and b < p
    __device__ static __forceinline__ u32 mul(u32 a, u32 b) {
        const u64 t = (u64)a * b;
        const u32 m = (u32)t * F::QINV;
        const u32 r = (u32)((t + (u64)m * F::P) >> 32);
        return min(r, r - F::P);
    }
};

// Row stride (elements) of one group in shared memory and the position of
// element t in its row: 31-bit fields t + t/16 in rows of 2^nst + 2^nst/16
// (+2 above the bottom pass); Goldilocks (8-byte words) t + t/8 in rows of
// 2^nst + 2^nst/8 + 2 above the bottom pass, t + t/16 in rows of 2^nst +
// 2^nst/16 in it.
__host__ __device__ constexpr u32 fs31_row(int nst, bool bottom) { return (1u << nst) + (1u << nst >> 4) + (bottom ? 0 : 2); }
__host__ __device__ constexpr u32 fs31_pos(u32 t) { return t + (t >> 4); }
__host__ __device__ constexpr u32 fs64_row(int nst, bool bottom) {
    return bottom ? (1u << nst) + (1u << nst >> 4) : (1u << nst) + (1u << nst >> 3) + 2;
}
template <bool BOTTOM>
__host__ __device__ constexpr u32 fs64_pos(u32 t) { return BOTTOM ? t + (t >> 4) : t + (t >> 3); }

// What fs_pass takes from its field: the element E, the arithmetic A, the
// type of a thread's global offsets I, elements per thread (log2), the
// window below which the bottom pass goes through shared memory, whether
// differences and the last DIF stage stay unreduced (LAZY: A has addl and
// subl), whether the pass-twiddle table reads come first (EARLY), whether
// F_CANON applies (CANON; canon: the stored representative), whether
// radix-8 twiddles can be shifts (SHL: A has shl; SH8), whether the pass
// twiddles can come from a twist table (TWTAB: F_TWIST_TAB), the layout.
template <class F, int RLOG_ = 4, bool TW = false>
struct FS31 {
    typedef u32 E;
    typedef F31<F> A;
    typedef u32 I;
    static constexpr int RLOG = RLOG_, SLOG = 3;
    static constexpr bool LAZY = true, EARLY = true, CANON = false, SHL = false, TWTAB = TW;
    __device__ static constexpr u32 row(int nst, bool bottom) { return fs31_row(nst, bottom); }
    template <bool BOTTOM>
    __device__ static constexpr u32 pos(u32 t) { return fs31_pos(t); }
    __device__ static __forceinline__ u32 canon(u32 x) { return x; }
};
template <int RLOG_ = 3>
struct FS64 {
    typedef u64 E;
    typedef Goldilocks A;
    typedef u64 I;
    static constexpr int RLOG = RLOG_, SLOG = 2;
    static constexpr bool LAZY = false, EARLY = false, CANON = true, SHL = true, TWTAB = false;
    __device__ static constexpr u32 row(int nst, bool bottom) { return fs64_row(nst, bottom); }
    template <bool BOTTOM>
    __device__ static constexpr u32 pos(u32 t) { return fs64_pos<BOTTOM>(t); }
    __device__ static __forceinline__ u64 canon(u64 x) { return A::canon(x); }
};

// BOT: 1 the bottom pass (lo == 0), 0 the others, −1 either (lo decides at
// run time: FS31).
// SH8 > 0 (Goldilocks, ntt_goldilocks_sh_fs*): the table's 8th root of
// unity is 2^SH8 (gpu/primentt checks it against the domain), and each round
// is a radix-8 (or radix-4) transform whose twiddles are powers of it,
// applied as shifts (Goldilocks::shl), after (DIF) or before (DIT) one
// product per element by the thread's part of the stage twiddles, Φ(e) =
// ω_(2^(ws+3))^(tb·r(e)): tb = t mod 2^ws, r(e) = Σ_(k in the round) e_k·2^(2−k).
// Their shared table holds all G powers ω_G^j (the second half negated).
template <class P, int NST, bool DIT, int BOT, int SH8 = 0, int IO = FS_IN_PLACE>
__device__ __forceinline__ void fs_pass(typename P::E *__restrict__ data, const typename P::E *__restrict__ src,
                                        u64 colStride,
                                        const typename P::E *__restrict__ tw, const typename P::E *__restrict__ rt,
                                        const typename P::E *__restrict__ pre, const typename P::E *__restrict__ post,
                                        u32 tabH, u32 rtH, u32 logn, u32 lo0, u32 logc, u32 flags) {
    typedef typename P::E E;
    typedef typename P::A A;
    typedef typename P::I I;
    constexpr int RL = fs_rl(NST, P::RLOG);
    constexpr u32 R = 1u << RL;
    constexpr u32 G = 1u << NST;
    constexpr int NR = fs_nr(NST, RL);
    constexpr int SLOG = P::SLOG; // bottom-pass windows below this go through shared memory
    const u32 lo = BOT == 1 ? 0 : lo0;
    const bool bottom = BOT < 0 ? lo == 0 : BOT == 1;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sh = reinterpret_cast<E *>(smem_raw);
    const u32 S = BOT < 0 ? (lo == 0 ? P::row(NST, true) : P::row(NST, false)) : P::row(NST, BOT == 1);

    E *twS = sh + (S << logc); // the inner transforms' twiddles: stage q at G − 2^(q+1)

    E *col = data + (u64)blockIdx.y * colStride; // stores
    const E *scol = IO == FS_IN_PLACE ? col : src + (u64)blockIdx.y * colStride; // loads
    const u32 n = 1u << logn;
    const u32 nthr = (G << logc) >> RL; // == blockDim.x
    const u32 a = min(lo, logc);
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;
    const u32 tid = threadIdx.x;
    const u32 tpart = (tid >> a) & ((G >> RL) - 1);
    const u32 olocal = (tid & ((1u << a) - 1)) | ((tid >> (a + NST - RL)) << a);
    // FS_NATURAL (F_NAT_OUT: the bottom DIF pass writes natural order): the
    // block's rows are blockIdx.x + ol·2^(logn−NST−logc), so that its
    // groups' outputs bitrev_n(row·2^NST + t) of one position t are 2^logc
    // consecutive elements: rev_NST(t)·2^(logn−NST) + rev(blockIdx.x)·2^logc
    // + rev_logc(ol).
    constexpr bool nat = IO == FS_NATURAL && !DIT && BOT != 0;
    auto rowOf = [&](u32 ol) -> u32 { return nat ? (ol << (logn - NST - logc)) | blockIdx.x : obase + ol; };
    const u32 o = rowOf(olocal);
    const u32 low = o & lowMask;
    const u32 ibase = ((o >> lo) << (lo + NST)) + low;
    E *shg = sh + olocal * S;
    const u32 psh = logn - lo - NST; // ω_M = ω^(2^psh), M = 2^(lo+NST)
    const bool PTW = BOT < 0 ? lo > 0 : BOT == 0; // pass twiddles

    // Window and thread base of round rd.
    auto wsOf = [](int rd) -> int {
        const int m = fs_m(NST, NR, rd), done = fs_done(NST, NR, rd);
        const int qb = DIT ? done : NST - done - m;
        return qb < NST - RL ? qb : NST - RL;
    };
    auto tbaseOf = [&](int ws) -> u32 { return (tpart & ((1u << ws) - 1)) | ((tpart >> ws) << (ws + RL)); };

    // Pass twiddles of the thread's R positions t = tbase | (e << ws) in
    // the round that applies them (DIT: first, DIF: last; window 0 both),
    // as above (four-step passes): T0 · Π_{e_k=1} W_k, W_k = W_{k+1}^2,
    // A[e mod 2^LA]·B[e >> LA]. loadTws reads the four table entries, used
    // later (EARLY: right here, with the thread base of window 0 taken
    // among the thread's constants).
    const u32 tb0 = P::EARLY ? tbaseOf(0) : 0;
    const bool twTab = P::TWTAB && NST <= FS_TWIST_MAX_NST && (flags & F_TWIST_TAB);
    E rW0 = 0, rW1 = 0, rT0 = 0, rT1 = 0;
    auto loadTws = [&]() {
        if (!PTW || twTab) return;
        const u32 mask = (1u << rtH) - 1;
        const u32 e1 = (low << (NST - RL)) << psh;
        const u32 e0 = (low * (__brev(P::EARLY ? tb0 : tbaseOf(0)) >> (32 - NST))) << psh;
        rW0 = rt[e1 & mask];
        rW1 = rt[(1u << rtH) + (e1 >> rtH)];
        rT0 = rt[e0 & mask];
        rT1 = rt[(1u << rtH) + (e0 >> rtH)];
    };
    if (DIT || P::EARLY) loadTws();
    constexpr int LA = (RL + 1) / 2, LBB = RL - LA;
    E twA[1 << LA], twB[1 << LBB];
    auto passTws = [&]() {
        E W[RL];
        W[RL - 1] = A::mul(rW0, rW1);
#pragma unroll
        for (int k = RL - 2; k >= 0; k--) W[k] = A::mul(W[k + 1], W[k + 1]);
        twA[0] = A::mul(rT0, rT1);
#pragma unroll
        for (int k = 0; k < LA; k++)
#pragma unroll
            for (int e = 0; e < (1 << k); e++) twA[e | (1 << k)] = A::mul(twA[e], W[k]);
        twB[0] = 0; // unused: e >> LA == 0 takes twA alone
#pragma unroll
        for (int k = 0; k < LBB; k++) {
            twB[1 << k] = W[LA + k];
#pragma unroll
            for (int e = 1; e < (1 << k); e++) twB[e | (1 << k)] = A::mul(twB[e], W[LA + k]);
        }
    };
    // With F_TWIST_TAB (TWTAB, passes of up to FS_TWIST_MAX_NST bits) the
    // pass twiddles come from the pass's twist table rt instead
    // (gpu/primentt's twistTable), whose entry i mod M = (t << lo) | low is
    // ω_M^(low·bitrev_NST(t)): the entries of a thread's elements lie as
    // its elements do, 2^lo apart from tabAt(tbase), so a warp's reads
    // coalesce as its data's (the table, M entries, stays in L2). The
    // kernels with TWTAB (ntt_<name>_tw_fs*, up to 8 bits: above, they
    // spill) keep the built twiddles' path beside it: compiled for the
    // middle passes alone (BOT = 0) they measured slower at 2^20, 2^23 and
    // 2^24 on the H200; the path in every kernel slowed the 31-bit fields'
    // two-pass transforms (2^12..2^18) by 3-10%.
    auto tabAt = [&](u32 tbase) -> const E * { return rt + ((tbase << lo) + low); };
    // the pass twiddle of element e
    auto passTw = [&](u32 e) -> E {
        const u32 ea = e & ((1u << LA) - 1), eb = e >> LA;
        return eb == 0 ? twA[ea] : A::mul(twA[ea], twB[eb]);
    };
    auto coset = [&](const E *tab, u32 i) -> E {
        const u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
        return A::mul(tab[k & ((1u << tabH) - 1)], tab[(1u << tabH) + (k >> tabH)]);
    };
    const bool canon = P::CANON && (flags & F_CANON);

    if constexpr (SH8 > 0) {
        for (u32 y = tid; y < G / 2; y += nthr) {
            const E w = tw[n - G + y];
            twS[y] = w;
            twS[y + G / 2] = A::P - w;
        }
    } else {
        for (u32 y = tid; y < G - 1; y += nthr) twS[y] = tw[n - G + y];
    }

    E x[R];
#pragma unroll
    for (int rd = 0; rd < NR; rd++) {
        const int m = fs_m(NST, NR, rd);
        const int done = fs_done(NST, NR, rd);
        const int qb = DIT ? done : NST - done - m;
        const int ws = wsOf(rd);
        const u32 tbase = tbaseOf(ws);
        // the thread's elements: global gp[e·gs], shared shb[pos(e << ws)]
        E *gp = col + (ibase + (tbase << lo));
        const E *gr = scol + (ibase + (tbase << lo));
        const u32 gs = 1u << (ws + lo);
        E *shb = shg + P::template pos<BOT == 1>(tbase);
        const bool staged = bottom && ws < SLOG;
        if (rd == 0) {
            if (staged) {
                const E *cb = scol + obase * G;
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    const u32 u = tid + e * nthr;
                    const u32 t = u & (G - 1), ol = u >> NST;
                    E v;
                    if constexpr (nat) {
                        v = scol[rowOf(ol) * G + t]; // no coset: not the first pass
                    } else {
                        v = cb[u];
                        if (flags & F_PRE_COSET) v = A::mul(v, coset(pre, obase * G + u));
                    }
                    sh[ol * S + P::template pos<BOT == 1>(t)] = v;
                }
                __syncthreads();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = shb[P::template pos<BOT == 1>(e << ws)];
            } else {
                if (!DIT && !P::EARLY && NR == 1) loadTws();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = gr[(I)e * gs];
                if (flags & F_PRE_COSET) {
#pragma unroll
                    for (u32 e = 0; e < R; e++)
                        x[e] = A::mul(x[e], coset(pre, ibase + ((tbase + (e << ws)) << lo)));
                }
                if (DIT && PTW && twTab) {
                    const E *tp = tabAt(tbase);
#pragma unroll
                    for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], tp[(I)e << lo]);
                } else if (DIT && PTW) {
                    passTws();
#pragma unroll
                    for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], passTw(e));
                }
                __syncthreads(); // twS
            }
        } else {
            if (!DIT && !P::EARLY && rd == NR - 1) loadTws();
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = shb[P::template pos<BOT == 1>(e << ws)];
        }

        // Butterflies of stage bits [qb, qb+m): bit q = ws + k of t is bit k
        // of e. The twiddle of pair e at stage q is twq[(t mod 2^q)], t =
        // tbase + (e << ws): tbase's part is per round, e's a constant, and
        // with ws == 0 it is 0 (twiddle 1) when e mod 2^q == 0.
        // SH8: Φ(e) (1 in window 0) and the shifts 2^sa of the radix-8
        // twiddles, sa = (e mod 2^k)·2^(2−k)·SH8 mod 192 (sa ≥ 96: minus 2^(sa−96)).
        if constexpr (P::SHL) {
            auto phi = [&]() {
                if (ws == 0) return;
                const u32 u = (tbase & ((1u << ws) - 1)) << (NST - ws - 3);
#pragma unroll
                for (u32 e = 1; e < R; e++) {
                    u32 r = 0;
#pragma unroll
                    for (int k = 0; k < RL; k++)
                        if (ws + k >= qb && ws + k < qb + m && (e >> k & 1)) r |= 4u >> k;
                    if (r) x[e] = A::mul(x[e], twS[u * r]);
                }
            };
            if (SH8 > 0 && DIT) {
                phi();
#pragma unroll
                for (int k = 0; k < RL; k++) {
                    const int q = ws + k;
                    if (q < qb || q >= qb + m) continue;
#pragma unroll
                    for (u32 e = 0; e < R; e++) {
                        if (e & (1u << k)) continue;
                        const int sa = ((int)(e & ((1u << k) - 1)) << (2 - k)) * SH8 % 192;
                        const E v = x[e], y = x[e | (1u << k)];
                        if (sa == 0) {
                            x[e] = A::add(v, y);
                            x[e | (1u << k)] = A::sub(v, y);
                        } else if (sa < 96) {
                            const E z = A::shl(y, sa);
                            x[e] = A::add(v, z);
                            x[e | (1u << k)] = A::sub(v, z);
                        } else {
                            const E z = A::shl(y, sa - 96);
                            x[e] = A::sub(v, z);
                            x[e | (1u << k)] = A::add(v, z);
                        }
                    }
                }
            } else if (SH8 > 0) {
#pragma unroll
                for (int k = RL - 1; k >= 0; k--) {
                    const int q = ws + k;
                    if (q < qb || q >= qb + m) continue;
#pragma unroll
                    for (u32 e = 0; e < R; e++) {
                        if (e & (1u << k)) continue;
                        const int sa = ((int)(e & ((1u << k) - 1)) << (2 - k)) * SH8 % 192;
                        const E v = x[e], y = x[e | (1u << k)];
                        x[e] = A::add(v, y);
                        if (sa == 0) x[e | (1u << k)] = A::sub(v, y);
                        else if (sa < 96) x[e | (1u << k)] = A::shl(A::sub(v, y), sa);
                        else x[e | (1u << k)] = A::shl(A::sub(y, v), sa - 96);
                    }
                }
                phi();
            }
        }
        if (SH8 == 0 && DIT) {
#pragma unroll
            for (int k = 0; k < RL; k++) {
                const int q = ws + k;
                if (q < qb || q >= qb + m) continue;
                const E *twq = twS + (G - (2u << q)) + (tbase & ((1u << q) - 1));
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    if (e & (1u << k)) continue;
                    const u32 eo = (e << ws) & ((1u << q) - 1);
                    E y = x[e | (1u << k)];
                    if (!(ws == 0 && eo == 0)) y = A::mul(y, twq[eo]);
                    const E v = x[e];
                    x[e] = A::add(v, y);
                    x[e | (1u << k)] = A::sub(v, y);
                }
            }
        } else if (SH8 == 0) {
            const bool lazyEnd = rd == NR - 1 && (lo > 0 || (flags & (F_POST_CONST | F_POST_COSET)));
#pragma unroll
            for (int k = RL - 1; k >= 0; k--) {
                const int q = ws + k;
                if (q < qb || q >= qb + m) continue;
                const E *twq = twS + (G - (2u << q)) + (tbase & ((1u << q) - 1));
                if constexpr (P::LAZY) {
                    if (q == 0 && lazyEnd) {
#pragma unroll
                        for (u32 e = 0; e < R; e += 2) {
                            const E v = x[e], y = x[e | 1];
                            x[e] = A::addl(v, y);
                            x[e | 1] = A::subl(v, y);
                        }
                        continue;
                    }
                }
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    if (e & (1u << k)) continue;
                    const u32 eo = (e << ws) & ((1u << q) - 1);
                    const E v = x[e], y = x[e | (1u << k)];
                    x[e] = A::add(v, y);
                    if constexpr (P::LAZY) { // a − b + p unreduced into the product
                        if (ws == 0 && eo == 0)
                            x[e | (1u << k)] = A::sub(v, y);
                        else
                            x[e | (1u << k)] = A::mul(A::subl(v, y), twq[eo]);
                    } else {
                        const E d = A::sub(v, y);
                        x[e | (1u << k)] = (ws == 0 && eo == 0) ? d : A::mul(d, twq[eo]);
                    }
                }
            }
        }

        if (rd == NR - 1 && staged && nat) {
            // the natural-order layout: element t of group ol at u =
            // rev_NST(t)·2^logc + rev_logc(ol), padded by one per 32 (fits the
            // rows: 2^NST/32 ≤ 2^NST/16), so that thread u stores output
            // rev_NST(t)·2^(logn−NST) + rev(blockIdx.x)·2^logc + rev_logc(ol)
            // with consecutive threads on consecutive addresses
            // 1/n is applied in registers, before the exchange (the
            // inverse coset powers after it, by the natural index): with
            // the product in the store loop, NVRTC 13.0's BabyBear
            // kernels stored wrong values for e >= 5 at NST = 6 on the
            // H100 (TestPrimeNaturalPlans), though their PTX reads right.
            if (flags & F_POST_CONST) {
                const E c = post[0];
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], c);
            }
            __syncthreads(); // every thread's reads of its row are done
            const u32 ro = bitrev(olocal, logc);
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 u = (bitrev(tbase | (e << ws), NST) << logc) | ro;
                sh[u + (u >> 5)] = x[e];
            }
            __syncthreads();
            const u32 qb0 = bitrev(blockIdx.x, logn - NST - logc) << logc;
            const u32 cm = (1u << logc) - 1;
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 u = tid + e * nthr;
                const u32 q = ((u >> logc) << (logn - NST)) | qb0 | (u & cm);
                E v = sh[u + (u >> 5)];
                if (flags & F_POST_COSET) v = A::mul(v, coset(post, q));
                col[q] = canon ? P::canon(v) : v;
            }
        } else if (rd == NR - 1 && staged) {
#pragma unroll
            for (u32 e = 0; e < R; e++) shb[P::template pos<BOT == 1>(e << ws)] = x[e];
            __syncthreads();
            E *cb = col + obase * G;
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 u = tid + e * nthr;
                const u32 t = u & (G - 1), ol = u >> NST;
                E v = sh[ol * S + P::template pos<BOT == 1>(t)];
                if (flags & F_POST_CONST) {
                    v = A::mul(v, post[0]);
                } else if (flags & F_POST_COSET) {
                    v = A::mul(v, coset(post, obase * G + u));
                }
                cb[u] = canon ? P::canon(v) : v;
            }
        } else if (rd == NR - 1) {
            if (!DIT && PTW && twTab) {
                const E *tp = tabAt(tbase);
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], tp[(I)e << lo]);
            } else if (!DIT && PTW) {
                passTws();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], passTw(e));
            }
            if (flags & F_POST_CONST) {
                const E c = post[0];
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], c);
            } else if (flags & F_POST_COSET) {
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], coset(post, ibase + ((tbase + (e << ws)) << lo)));
            }
            if (canon) {
#pragma unroll
                for (u32 e = 0; e < R; e++) gp[(I)e * gs] = P::canon(x[e]);
            } else {
#pragma unroll
                for (u32 e = 0; e < R; e++) gp[(I)e * gs] = x[e];
            }
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) shb[P::template pos<BOT == 1>(e << ws)] = x[e];
            __syncthreads();
        }
    }
}

// The entry points of fs_pass. In place: ntt_<kind>fs<NST>, both
// directions (DIT on F_DIT), or DIF only (DIFONLY). SPLIT compiles the
// bottom pass (lo == 0) and the others apart (Goldilocks); without it lo
// decides at run time (BOT = -1: BabyBear, KoalaBear). Out of place, DIF
// only: ntt_<kind>oop_fs<NST>, the pass above the bottom from src to data
// or the bottom pass writing natural order (F_NAT_OUT implied), kernels of
// their own so that the in-place ones keep their code and size (as one
// kernel, Goldilocks' in-place DIF passes of 2^13..2^18 ran 30-40% slower
// on the H100). The pass P comes last, as the macros' variadic argument
// (its template arguments hold commas).
#define FS_PARAMS(E)                                                                                           \
    u64 colStride, const E *tw, const E *rt, const E *pre, const E *post, u32 tabH, u32 rtH, u32 logn, u32 lo, \
        u32 logc, u32 flags
#define FS_ARGS colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags
template <class P, int NST, int SH8, bool SPLIT, bool DIFONLY>
__device__ __forceinline__ void fs_in_place(typename P::E *data, FS_PARAMS(typename P::E)) {
    if constexpr (!SPLIT) {
        if (flags & F_DIT)
            fs_pass<P, NST, true, -1, SH8>(data, data, FS_ARGS);
        else
            fs_pass<P, NST, false, -1, SH8>(data, data, FS_ARGS);
    } else if constexpr (DIFONLY) {
        if (lo == 0)
            fs_pass<P, NST, false, 1, SH8>(data, data, FS_ARGS);
        else
            fs_pass<P, NST, false, 0, SH8>(data, data, FS_ARGS);
    } else {
        if (lo == 0) {
            if (flags & F_DIT)
                fs_pass<P, NST, true, 1, SH8>(data, data, FS_ARGS);
            else
                fs_pass<P, NST, false, 1, SH8>(data, data, FS_ARGS);
        } else {
            if (flags & F_DIT)
                fs_pass<P, NST, true, 0, SH8>(data, data, FS_ARGS);
            else
                fs_pass<P, NST, false, 0, SH8>(data, data, FS_ARGS);
        }
    }
}
template <class P, int NST, int SH8>
__device__ __forceinline__ void fs_out_of_place(typename P::E *data, const typename P::E *src, FS_PARAMS(typename P::E)) {
    if (lo == 0)
        fs_pass<P, NST, false, 1, SH8, FS_NATURAL>(data, src, FS_ARGS);
    else
        fs_pass<P, NST, false, 0, SH8, FS_OUT_OF_PLACE>(data, src, FS_ARGS);
}
#define NTT_FS_IP(KIND, E, NST, SH8, SPLIT, DIFONLY, ...)                                                     \
    extern "C" __global__ void __launch_bounds__(1024) ntt_##KIND##fs##NST(E *data, FS_PARAMS(E)) {          \
        pdl_begin(flags);                                                                                     \
        fs_in_place<__VA_ARGS__, NST, SH8, SPLIT, DIFONLY>(data, FS_ARGS);                                    \
        pdl_end(flags);                                                                                       \
    }
#define NTT_FS_OOP(KIND, E, NST, SH8, ...)                                                                    \
    extern "C" __global__ void __launch_bounds__(1024) ntt_##KIND##oop_fs##NST(E *data, const E *src,        \
                                                                               FS_PARAMS(E)) {                \
        pdl_begin(flags);                                                                                     \
        fs_out_of_place<__VA_ARGS__, NST, SH8>(data, src, FS_ARGS);                                           \
        pdl_end(flags);                                                                                       \
    }
// BabyBear and KoalaBear: ntt_<name>_fs*, 16 elements per thread;
// ntt_<name>_r3_fs*, 8, twice the threads of a tile, for small transforms
// (gpu/primentt's lonePlans: 2^12..2^20 up to 1.3x faster on the H100;
// capping their registers at 48 or 40 for more warps per multiprocessor
// measured no faster); ntt_<name>_tw_fs6..8, 16, the middle passes with a
// twist table (F_TWIST_TAB; gpu/primentt's twistKeys).
#define NTT_FS31_TW(name, F, NST) NTT_FS_IP(name##_tw_, u32, NST, 0, false, false, FS31<F, 4, true>)
#define NTT_FS31(name, F, NST)                                                                                \
    NTT_FS_IP(name##_, u32, NST, 0, false, false, FS31<F, 4>)                                                 \
    NTT_FS_OOP(name##_, u32, NST, 0, FS31<F, 4>)                                                              \
    NTT_FS_IP(name##_r3_, u32, NST, 0, false, false, FS31<F, 3>)                                              \
    NTT_FS_OOP(name##_r3_, u32, NST, 0, FS31<F, 3>)
// Goldilocks: ntt_goldilocks_fs*, 8 elements per thread, in place;
// ntt_goldilocks_r2_fs*, 4 (twice the threads of a tile, for small
// transforms), in place and out of place, on any table (no shifts). The
// shift variants, compiled for DIF only, to keep the module's compile time:
// ntt_goldilocks_sh_fs* for the forward tables (SH8 = 120),
// ntt_goldilocks_shi_fs* for the inverse ones (SH8 = 72), in place and out
// of place; gpu/primentt takes them for those launches and ntt_goldilocks_fs*
// for the others (DIT). Natural order on other roots of unity takes the
// r2_ kernels or the bit reversal.
#define NTT_FS64(NST)                                                                                         \
    NTT_FS_IP(goldilocks_, u64, NST, 0, true, false, FS64<3>)                                                 \
    NTT_FS_IP(goldilocks_r2_, u64, NST, 0, true, false, FS64<2>)                                              \
    NTT_FS_OOP(goldilocks_r2_, u64, NST, 0, FS64<2>)                                                          \
    NTT_FS_IP(goldilocks_sh_, u64, NST, 120, true, true, FS64<3>)                                             \
    NTT_FS_OOP(goldilocks_sh_, u64, NST, 120, FS64<3>)                                                        \
    NTT_FS_IP(goldilocks_shi_, u64, NST, 72, true, true, FS64<3>)                                             \
    NTT_FS_OOP(goldilocks_shi_, u64, NST, 72, FS64<3>)

// ---------------------------------------------------------------- entry points

#define NTT_KERNELS(name, F, RLOG, SLOG, TB)                                                            \
    extern "C" __global__ void ntt_##name##_pass_reg(F::E *data, u64 colStride, const F::E *tw,   \
                                                     const F::E *pre, const F::E *post, u32 tabH, \
                                                     u32 logn, u32 lo, u32 nst, u32 logc,         \
                                                     u32 flags) {                                 \
        pdl_begin(flags);                                                                         \
        ntt_pass_reg<F, RLOG, SLOG>(data, colStride, tw, pre, post, tabH, logn, lo, nst, logc, flags);  \
        pdl_end(flags);                                                                           \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_pass(F::E *data, u64 colStride, const F::E *tw,       \
                                                 const F::E *pre, const F::E *post, u32 tabH,     \
                                                 u32 logn, u32 lo, u32 nst, u32 logc, u32 flags) { \
        pdl_begin(flags);                                                                         \
        ntt_pass<F>(data, colStride, tw, pre, post, tabH, logn, lo, nst, logc, flags);            \
        pdl_end(flags);                                                                           \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_bitrev(F::E *data, u64 colStride, u32 logn) {         \
        pdl_begin();                                                                              \
        ntt_bitrev<F>(data, colStride, logn);                                                     \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_spread(F::E *dst, u64 dstStride, const F::E *src,     \
                                                   u64 srcStride, u32 logn, u32 logb, u32 mode,   \
                                                   const F::E *pow, u32 tabH) {                   \
        pdl_begin();                                                                              \
        ntt_spread<F>(dst, dstStride, src, srcStride, logn, logb, mode, pow, tabH);               \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(256) ntt_##name##_bitrev_tiled(F::E *data,       \
                                                   u64 colStride, u32 logn) {                     \
        pdl_begin();                                                                              \
        ntt_bitrev_tiled<F, TB, 256>(data, colStride, logn);                                      \
    }

// gpu/primentt compiles these files once per field (the programs
// cuda.NTTProgram names), with NTT_ONLY and NTT_ONLY_<field> defined, so
// that a module holds that field's kernels only (first-use compile time);
// undefined, every field's. The four-step passes of BabyBear, KoalaBear and
// Goldilocks are compiled for 6 bits up to NTT_FS_MAX bits, the largest
// pass the field's plans take (gpu/primentt's nttFields; the program
// defines it).
#ifndef NTT_FS_MAX
#define NTT_FS_MAX 11
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
NTT_KERNELS(babybear, BabyBear, 4, 3, 5)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
NTT_KERNELS(koalabear, KoalaBear, 4, 3, 5)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
NTT_KERNELS(goldilocks, Goldilocks, 3, 2, 5)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
NTT_KERNELS(bn254, BN254, 2, 0, 5)
#endif

// Four-step passes (gpu/primentt's nttFields says which sizes each field
// uses; transforms of one tile take the passes above). BabyBear and
// KoalaBear take FS31 (16 elements per thread, 64 registers; 8 in
// ntt_<name>_r3_fs*), Goldilocks FS64 (8 per thread: 16 spill at 64
// registers and lost with 80 or 128; 4 in ntt_goldilocks_r2_fs*), BN254
// its own kernels (ntt_bn254.cu). ntt_goldilocks_sh_fs* are FS64 with the
// radix-8 twiddles as shifts (SH8: the forward tables of gnark-crypto's
// domains, ω^(n/8) = 2^120; DIF passes of 6 to 11 bits;
// nttFieldInfo.fsShift).
#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
#define NTT_FS_BB(NST) NTT_FS31(babybear, BabyBear, NST)
#define NTT_FS_BB_TW(NST) NTT_FS31_TW(babybear, BabyBear, NST)
#else
#define NTT_FS_BB(NST)
#define NTT_FS_BB_TW(NST)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
#define NTT_FS_KB(NST) NTT_FS31(koalabear, KoalaBear, NST)
#define NTT_FS_KB_TW(NST) NTT_FS31_TW(koalabear, KoalaBear, NST)
#else
#define NTT_FS_KB(NST)
#define NTT_FS_KB_TW(NST)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
#define NTT_FS_GL(NST) NTT_FS64(NST)
#else
#define NTT_FS_GL(NST)
#endif
#define NTT_FS_ALL(NST) NTT_FS_BB(NST) NTT_FS_KB(NST) NTT_FS_GL(NST)
// the twist-table kernels, up to FS_TWIST_MAX_NST bits
#define NTT_FS_TW(NST) NTT_FS_BB_TW(NST) NTT_FS_KB_TW(NST)
NTT_FS_ALL(6)
NTT_FS_TW(6)
#if NTT_FS_MAX >= 7
NTT_FS_ALL(7)
NTT_FS_TW(7)
#endif
#if NTT_FS_MAX >= 8
NTT_FS_ALL(8)
NTT_FS_TW(8)
#endif
#if NTT_FS_MAX >= 9
NTT_FS_ALL(9)
#endif
#if NTT_FS_MAX >= 10
NTT_FS_ALL(10)
#endif
#if NTT_FS_MAX >= 11
NTT_FS_ALL(11)
#endif
