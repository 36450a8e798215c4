// Prime-field NTTs on gnark-crypto's element layouts, for package
// gpu/primentt. Four fields, one template:
//
//   bn254       BN254 scalar field, 4×64-bit limbs little-endian, Montgomery
//               form with R = 2^256 (fr.Element); CIOS multiplication (the
//               four-step passes: lazily reduced values, Shoup products).
//   goldilocks  p = 2^64 − 2^32 + 1, one uint64, Montgomery form with
//               R = 2^64 (goldilocks.Element). The NTT is linear, so the data
//               stays in Montgomery form while it is multiplied by constants
//               (twiddles, coset powers) that the host passes in plain form,
//               with the special reduction 2^64 ≡ 2^32 − 1.
//   babybear    p = 15·2^27 + 1, one uint32, Montgomery with R = 2^32.
//   koalabear   p = 2^31 − 2^24 + 1, one uint32, Montgomery with R = 2^32.
//
// Every operation returns the canonical representative in [0, p) (Goldilocks:
// any representative, made canonical by the last pass of a transform), so the results
// equal gnark-crypto's bit for bit whatever the order of operations.
//
// A transform of n = 2^L elements is a sequence of passes. A pass runs the
// butterflies of the bit positions [lo, lo+nst) of the index on tiles held in
// shared memory: a tile is C groups of 2^nst elements whose indices differ
// only in those bits (C·2^nst = the tile size), loaded so that consecutive
// threads read consecutive addresses. DIF (natural in, bit-reversed out) runs
// the positions from L−1 down to 0 (Gentleman–Sande: butterfly, then the
// twiddle on the difference); DIT (bit-reversed in, natural out) runs them from
// 0 up to L−1 (Cooley–Tukey: twiddle, then butterfly). The butterfly at
// position p pairs i and i+2^p and uses the twiddle w^((i mod 2^p)·2^(L−1−p)),
// read from a table tw holding, for each p, the 2^p powers at offset
// n − 2^(p+1). Columns of a batch lie one after the other, colStride
// elements apart; blockIdx.y is the column.
//
// The first pass may multiply what it loads by the coset powers g^k and the
// last may multiply what it stores by a constant or by g^−k/n, k the
// polynomial index of the position (k = i in natural order, bit-reverse(i)
// in bit-reversed order); powers come from two tables, lo[k mod 2^h] ·
// hi[k >> h].

// The kernels are split over four files, joined in this order into one
// program per field (cuda.NTTProgram):
//
//   ntt_fields.cu    the fields' arithmetic (this file)
//   ntt_passes.cu    the one-tile passes (radix-2 and registers), bit
//                    reversal and the LDE's zero-padding
//   ntt_fourstep.cu  the four-step passes of BabyBear, KoalaBear and
//                    Goldilocks, and every field's entry points but BN254's
//                    four-step passes
//   ntt_bn254.cu     BN254 on 32-bit limbs in PTX carry chains and its
//                    four-step passes (the BN254 program only)

typedef unsigned int u32;
typedef unsigned long long u64;

// Programmatic dependent launch (Hopper; gpu's Queue.LaunchDependent):
// gpu/primentt launches every kernel of these programs so that it may start
// while the kernel ahead of it on the stream still runs. pdl_trigger lets
// the next kernel start (once every block of this one has called it);
// pdl_wait returns once the kernel ahead has finished and its writes are
// visible, and must come before the first access to memory it writes or
// reads. Both are no-ops in an ordinary launch and before sm_90.
__device__ __forceinline__ void pdl_trigger() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void pdl_wait() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
// pdl_begin is both, at a kernel's start; pdl_begin(flags) and
// pdl_end(flags) trigger at the start, or at the end where flags has
// F_PDL_LATE (ntt_passes.cu).
__device__ __forceinline__ void pdl_begin() {
    pdl_trigger();
    pdl_wait();
}
__device__ __forceinline__ void pdl_begin(u32 flags) {
    if (!(flags & 128u)) pdl_trigger();
    pdl_wait();
}
__device__ __forceinline__ void pdl_end(u32 flags) {
    if (flags & 128u) pdl_trigger();
}

// ---------------------------------------------------------------- fields

struct BabyBear {
    typedef u32 E;
    static constexpr u32 P = 2013265921u;
    static constexpr u32 QINV = 2013265919u; // -p^-1 mod 2^32
    __device__ static __forceinline__ E add(E a, E b) {
        u32 s = a + b;
        return s >= P ? s - P : s;
    }
    __device__ static __forceinline__ E sub(E a, E b) {
        return a >= b ? a - b : a + P - b;
    }
    __device__ static __forceinline__ E mul(E a, E b) {
        u64 t = (u64)a * b;
        u32 m = (u32)t * QINV;
        u64 u = (t + (u64)m * P) >> 32;
        u32 r = (u32)u;
        return r >= P ? r - P : r;
    }
};

struct KoalaBear {
    typedef u32 E;
    static constexpr u32 P = 2130706433u;
    static constexpr u32 QINV = 2130706431u;
    __device__ static __forceinline__ E add(E a, E b) {
        u32 s = a + b;
        return s >= P ? s - P : s;
    }
    __device__ static __forceinline__ E sub(E a, E b) {
        return a >= b ? a - b : a + P - b;
    }
    __device__ static __forceinline__ E mul(E a, E b) {
        u64 t = (u64)a * b;
        u32 m = (u32)t * QINV;
        u64 u = (t + (u64)m * P) >> 32;
        u32 r = (u32)u;
        return r >= P ? r - P : r;
    }
};

// Goldilocks values inside a transform are any 64-bit representative of
// their class mod p (add, sub and mul take and return any u64); a pass makes
// them canonical when it stores them (fcanon), so that what reaches memory
// is gnark-crypto's representation. With EPS = 2^64 − p = 2^32 − 1, a wrap
// of 2^64 is worth EPS: add adds EPS on a carry (and once more on a second
// carry, which only a sum above 2^65 − 2^32 can give), sub subtracts it on a
// borrow (twice at most). gpu/primentt/ptx_test.go interprets the PTX blocks.
struct Goldilocks {
    typedef u64 E;
    static constexpr u64 P = 0xffffffff00000001ull;
    __device__ static __forceinline__ E pack(u32 lo, u32 hi) { return ((u64)hi << 32) | lo; }
    __device__ static __forceinline__ E add(E a, E b) {
        u32 lo, hi;
        // BEGIN PTX goldilocks_add
        asm("{\n\t.reg .u32 s0, s1, c;\n\t"
            "add.cc.u32 s0, %2, %4;\n\t"
            "addc.cc.u32 s1, %3, %5;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "mad.lo.cc.u32 s0, c, 0xffffffff, s0;\n\t"
            "madc.hi.cc.u32 s1, c, 0xffffffff, s1;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "mad.lo.cc.u32 %0, c, 0xffffffff, s0;\n\t"
            "madc.hi.u32 %1, c, 0xffffffff, s1;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)), "r"((u32)b), "r"((u32)(b >> 32)));
        // END PTX goldilocks_add
        return pack(lo, hi);
    }
    __device__ static __forceinline__ E sub(E a, E b) {
        u32 lo, hi;
        // BEGIN PTX goldilocks_sub
        asm("{\n\t.reg .u32 d0, d1, c;\n\t"
            "sub.cc.u32 d0, %2, %4;\n\t"
            "subc.cc.u32 d1, %3, %5;\n\t"
            "subc.u32 c, 0, 0;\n\t"
            "sub.cc.u32 d0, d0, c;\n\t"
            "subc.cc.u32 d1, d1, 0;\n\t"
            "subc.u32 c, 0, 0;\n\t"
            "sub.cc.u32 %0, d0, c;\n\t"
            "subc.u32 %1, d1, 0;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)), "r"((u32)b), "r"((u32)(b >> 32)));
        // END PTX goldilocks_sub
        return pack(lo, hi);
    }
    // mul returns a·c mod p (any representative) for c in plain form:
    // Montgomery data stays Montgomery. The 128-bit product is four 32×32
    // partial products on one carry chain, r0 + r1·2^32 + r2·2^64 + r3·2^96,
    // reduced with 2^64 ≡ EPS and 2^96 ≡ −1 to (r0 + r1·2^32) + r2·EPS − r3
    // = (r0, r1) + h·2^64 with h in {−1, 0, 1} (the value lies in
    // (−2^32, 2^65 − 2^33]), then h·2^64 ≡ h·EPS is added as (−h, h >> 31):
    // no further wrap. Products by EPS and additions of c·EPS are written as
    // mad by 0xffffffff, which ptxas issues on the multiply-add pipe (these
    // kernels are bound by the integer ALU pipe).
    __device__ static __forceinline__ E mul(E a, E c) {
        u32 lo, hi;
        // BEGIN PTX goldilocks_mul
        asm("{\n\t.reg .u32 r0, r1, r2, r3, h, e, s;\n\t"
            "mul.lo.u32 r0, %2, %4;\n\t"
            "mul.hi.u32 r1, %2, %4;\n\t"
            "mad.lo.cc.u32 r1, %3, %4, r1;\n\t"
            "madc.hi.u32 r2, %3, %4, 0;\n\t"
            "mad.lo.cc.u32 r1, %2, %5, r1;\n\t"
            "madc.hi.cc.u32 r2, %2, %5, r2;\n\t"
            "addc.u32 r3, 0, 0;\n\t"
            "mad.lo.cc.u32 r2, %3, %5, r2;\n\t"
            "madc.hi.u32 r3, %3, %5, r3;\n\t"
            "mad.lo.cc.u32 r0, r2, 0xffffffff, r0;\n\t"
            "madc.hi.cc.u32 r1, r2, 0xffffffff, r1;\n\t"
            "addc.u32 h, 0, 0;\n\t"
            "sub.cc.u32 r0, r0, r3;\n\t"
            "subc.cc.u32 r1, r1, 0;\n\t"
            "subc.u32 h, h, 0;\n\t"
            "mul.lo.u32 e, h, 0xffffffff;\n\t"
            "shr.s32 s, h, 31;\n\t"
            "add.cc.u32 %0, r0, e;\n\t"
            "addc.u32 %1, r1, s;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)), "r"((u32)c), "r"((u32)(c >> 32)));
        // END PTX goldilocks_mul
        return pack(lo, hi);
    }
    // shl24, shl48 and shl72 return a·2^s mod p (any representative) for
    // s = 24, 48, 72, from any u64 a: the products by the 8th and 4th roots
    // of unity, ±2^24, ±2^48, ±2^72 (2^96 ≡ −1: the caller negates by
    // swapping a subtraction's operands). a·2^s is cut into 32-bit limbs
    // r_i of weight 2^(32i) and reduced with 2^64 ≡ EPS, 2^96 ≡ −1,
    // 2^128 ≡ −2^32, as in mul.
    __device__ static __forceinline__ E shl24(E a) {
        u32 lo, hi;
        // r0 = a0 << 24, r1 = a >> 8 (low word), r2 = a1 >> 8 < 2^24:
        // (r0, r1) + r2·EPS < 2^64 + 2^56, one wrap at most, after which
        // the value is below 2^56 and adding EPS cannot carry.
        // BEGIN PTX goldilocks_shl24
        asm("{\n\t.reg .u32 r0, r1, r2, c;\n\t"
            "shl.b32 r0, %2, 24;\n\t"
            "shf.l.clamp.b32 r1, %2, %3, 24;\n\t"
            "shr.u32 r2, %3, 8;\n\t"
            "mad.lo.cc.u32 r0, r2, 0xffffffff, r0;\n\t"
            "madc.hi.cc.u32 r1, r2, 0xffffffff, r1;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "mad.lo.cc.u32 %0, c, 0xffffffff, r0;\n\t"
            "madc.hi.u32 %1, c, 0xffffffff, r1;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)));
        // END PTX goldilocks_shl24
        return pack(lo, hi);
    }
    __device__ static __forceinline__ E shl48(E a) {
        u32 lo, hi;
        // r1 = a0 << 16, r2 = a >> 16 (low word), r3 = a1 >> 16:
        // (0, r1) + r2·EPS − r3 lies in (−2^16, 2^65), reduced as in mul.
        // BEGIN PTX goldilocks_shl48
        asm("{\n\t.reg .u32 r0, r1, r2, r3, h, e, s;\n\t"
            "shl.b32 r1, %2, 16;\n\t"
            "shf.l.clamp.b32 r2, %2, %3, 16;\n\t"
            "shr.u32 r3, %3, 16;\n\t"
            "mul.lo.u32 r0, r2, 0xffffffff;\n\t"
            "mad.hi.cc.u32 r1, r2, 0xffffffff, r1;\n\t"
            "addc.u32 h, 0, 0;\n\t"
            "sub.cc.u32 r0, r0, r3;\n\t"
            "subc.cc.u32 r1, r1, 0;\n\t"
            "subc.u32 h, h, 0;\n\t"
            "mul.lo.u32 e, h, 0xffffffff;\n\t"
            "shr.s32 s, h, 31;\n\t"
            "add.cc.u32 %0, r0, e;\n\t"
            "addc.u32 %1, r1, s;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)));
        // END PTX goldilocks_shl48
        return pack(lo, hi);
    }
    __device__ static __forceinline__ E shl72(E a) {
        u32 lo, hi;
        // r2 = a0 << 8, r3 = a >> 24 (low word), r4 = a1 >> 24:
        // r2·EPS − (r3 + r4·2^32) lies in (−2^41, 2^64); a borrow (h = −1)
        // adds −EPS = (1, 0xffffffff), which cannot wrap again.
        // BEGIN PTX goldilocks_shl72
        asm("{\n\t.reg .u32 r2, r3, r4, t0, t1, h, e;\n\t"
            "shl.b32 r2, %2, 8;\n\t"
            "shf.l.clamp.b32 r3, %2, %3, 8;\n\t"
            "shr.u32 r4, %3, 24;\n\t"
            "mul.lo.u32 t0, r2, 0xffffffff;\n\t"
            "mul.hi.u32 t1, r2, 0xffffffff;\n\t"
            "sub.cc.u32 t0, t0, r3;\n\t"
            "subc.cc.u32 t1, t1, r4;\n\t"
            "subc.u32 h, 0, 0;\n\t"
            "and.b32 e, h, 1;\n\t"
            "add.cc.u32 %0, t0, e;\n\t"
            "addc.u32 %1, t1, h;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)));
        // END PTX goldilocks_shl72
        return pack(lo, hi);
    }
    // shl is a·2^s for s = 0, 24, 48 or 72, a constant once the
    // callers' loops are unrolled.
    __device__ static __forceinline__ E shl(E a, int s) {
        return s == 24 ? shl24(a) : s == 48 ? shl48(a) : s == 72 ? shl72(a) : a;
    }
    // canon returns the representative in [0, p): a − p = a + EPS − 2^64
    // where a + EPS carries, i.e. where a ≥ p.
    __device__ static __forceinline__ E canon(E a) {
        u32 lo, hi;
        // BEGIN PTX goldilocks_canon
        asm("{\n\t.reg .u32 t0, t1, c;\n\t"
            "add.cc.u32 t0, %2, 0xffffffff;\n\t"
            "addc.cc.u32 t1, %3, 0;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "mad.lo.cc.u32 %0, c, 0xffffffff, %2;\n\t"
            "madc.hi.u32 %1, c, 0xffffffff, %3;\n\t"
            "}"
            : "=r"(lo), "=r"(hi)
            : "r"((u32)a), "r"((u32)(a >> 32)));
        // END PTX goldilocks_canon
        return pack(lo, hi);
    }
};

struct __align__(16) Fr4 { // 16: loads and stores of two 16-byte words
    u64 l[4];
};

struct BN254 {
    typedef Fr4 E;
    __device__ static __forceinline__ u64 q(int i) {
        const u64 Q[4] = {0x43e1f593f0000001ull, 0x2833e84879b97091ull,
                          0xb85045b68181585dull, 0x30644e72e131a029ull};
        return Q[i];
    }
    static constexpr u64 QINV = 0xc2e1f593efffffffull; // -q^-1 mod 2^64

    // (r, carry) = a + b + c
    __device__ static __forceinline__ u64 adc(u64 a, u64 b, u64 &c) {
        u64 s = a + b;
        u64 c1 = s < a;
        u64 t = s + c;
        c = c1 + (t < s);
        return t;
    }
    // (r, borrow) = a - b - br
    __device__ static __forceinline__ u64 sbb(u64 a, u64 b, u64 &br) {
        u64 d = a - b;
        u64 b1 = a < b;
        u64 t = d - br;
        br = b1 + (d < br);
        return t;
    }
    // returns lo of a + b*c + d, hi in h
    __device__ static __forceinline__ u64 mac(u64 a, u64 b, u64 c, u64 d, u64 &h) {
        u64 lo, hi;
        asm("mad.lo.cc.u64 %0, %2, %3, %4;\n\t"
            "madc.hi.u64 %1, %2, %3, 0;\n\t"
            "add.cc.u64 %0, %0, %5;\n\t"
            "addc.u64 %1, %1, 0;"
            : "=&l"(lo), "=&l"(hi)
            : "l"(b), "l"(c), "l"(a), "l"(d));
        h = hi;
        return lo;
    }
    __device__ static __forceinline__ E reduce(E r) {
        // r < 2q: subtract q if r >= q
        u64 br = 0;
        E t;
        t.l[0] = sbb(r.l[0], q(0), br);
        t.l[1] = sbb(r.l[1], q(1), br);
        t.l[2] = sbb(r.l[2], q(2), br);
        t.l[3] = sbb(r.l[3], q(3), br);
        return br ? r : t;
    }
    __device__ static __forceinline__ E add(const E &a, const E &b) {
        u64 c = 0;
        E r;
        r.l[0] = adc(a.l[0], b.l[0], c);
        r.l[1] = adc(a.l[1], b.l[1], c);
        r.l[2] = adc(a.l[2], b.l[2], c);
        r.l[3] = adc(a.l[3], b.l[3], c);
        return reduce(r); // q < 2^254: no carry out
    }
    __device__ static __forceinline__ E sub(const E &a, const E &b) {
        u64 br = 0;
        E r;
        r.l[0] = sbb(a.l[0], b.l[0], br);
        r.l[1] = sbb(a.l[1], b.l[1], br);
        r.l[2] = sbb(a.l[2], b.l[2], br);
        r.l[3] = sbb(a.l[3], b.l[3], br);
        if (br) {
            u64 c = 0;
            r.l[0] = adc(r.l[0], q(0), c);
            r.l[1] = adc(r.l[1], q(1), c);
            r.l[2] = adc(r.l[2], q(2), c);
            r.l[3] = adc(r.l[3], q(3), c);
        }
        return r;
    }
    // Montgomery product a·b/R mod q (CIOS; q < 2^254 keeps t below 2^256·2).
    __device__ static __forceinline__ E mul(const E &a, const E &b) {
        u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            u64 bi = b.l[i], c;
            t0 = mac(t0, a.l[0], bi, 0, c);
            t1 = mac(t1, a.l[1], bi, c, c);
            t2 = mac(t2, a.l[2], bi, c, c);
            t3 = mac(t3, a.l[3], bi, c, c);
            t4 = t4 + c; // t < 2q·2^64 + ...: fits, q < 2^254
            u64 m = t0 * QINV;
            u64 h;
            mac(t0, m, q(0), 0, h);
            c = h;
            t0 = mac(t1, m, q(1), c, c);
            t1 = mac(t2, m, q(2), c, c);
            t2 = mac(t3, m, q(3), c, c);
            t3 = t4 + c;
            t4 = 0;
        }
        E r;
        r.l[0] = t0;
        r.l[1] = t1;
        r.l[2] = t2;
        r.l[3] = t3;
        return reduce(r);
    }
};
