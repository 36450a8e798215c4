// Prime-field NTTs on gnark-crypto's element layouts, for package gpu
// (gpu/ntt*.go). Four fields, one template:
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

typedef unsigned int u32;
typedef unsigned long long u64;

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
// borrow (twice at most). gpu/ntt_ptx_test.go interprets the PTX blocks.
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

struct Fr4 {
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

// The BN254 field again, on 8×32-bit limbs (the same bytes as fr.Element's
// 4×64-bit limbs): the GPU has no 64-bit integer multiplier, so a 64×64
// product costs several 32-bit multiply-adds; the PTX below works on 32-bit
// limbs with the carry flag (mad.lo.cc / madc.hi.cc), CIOS Montgomery with
// R = 2^256 as above. Each operation is one asm block, generated once (the
// carry flag never crosses a block), and checked by gpu/ntt_ptx_test.go,
// which interprets these blocks against math/big.

struct __align__(16) Fr8 {
    u32 l[8];
};

// BEGIN PTX bn254_mul
__device__ __forceinline__ void bn254x32_mul(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<10>, m, s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "mov.u32 t0, 0;\n\t"
        "mov.u32 t1, 0;\n\t"
        "mov.u32 t2, 0;\n\t"
        "mov.u32 t3, 0;\n\t"
        "mov.u32 t4, 0;\n\t"
        "mov.u32 t5, 0;\n\t"
        "mov.u32 t6, 0;\n\t"
        "mov.u32 t7, 0;\n\t"
        "mov.u32 t8, 0;\n\t"
        "mov.u32 t9, 0;\n\t"
        "mad.lo.cc.u32 t0, %8, %16, t0;\n\t"
        "madc.hi.cc.u32 t1, %8, %16, t1;\n\t"
        "madc.lo.cc.u32 t2, %10, %16, t2;\n\t"
        "madc.hi.cc.u32 t3, %10, %16, t3;\n\t"
        "madc.lo.cc.u32 t4, %12, %16, t4;\n\t"
        "madc.hi.cc.u32 t5, %12, %16, t5;\n\t"
        "madc.lo.cc.u32 t6, %14, %16, t6;\n\t"
        "madc.hi.cc.u32 t7, %14, %16, t7;\n\t"
        "addc.cc.u32 t8, t8, 0;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mad.lo.cc.u32 t1, %9, %16, t1;\n\t"
        "madc.hi.cc.u32 t2, %9, %16, t2;\n\t"
        "madc.lo.cc.u32 t3, %11, %16, t3;\n\t"
        "madc.hi.cc.u32 t4, %11, %16, t4;\n\t"
        "madc.lo.cc.u32 t5, %13, %16, t5;\n\t"
        "madc.hi.cc.u32 t6, %13, %16, t6;\n\t"
        "madc.lo.cc.u32 t7, %15, %16, t7;\n\t"
        "madc.hi.cc.u32 t8, %15, %16, t8;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mul.lo.u32 m, t0, 4026531839;\n\t"
        "mad.lo.cc.u32 t0, m, 4026531841, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 4026531841, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 2042196113, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 2042196113, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 2172737629, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 2172737629, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 3778125865, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 3778125865, t7;\n\t"
        "addc.cc.u32 t8, t8, 0;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mad.lo.cc.u32 t1, m, 1138881939, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 1138881939, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 674490440, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 674490440, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 3092268470, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 3092268470, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 811880050, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 811880050, t8;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mov.u32 t0, 0;\n\t"
        "mad.lo.cc.u32 t1, %8, %17, t1;\n\t"
        "madc.hi.cc.u32 t2, %8, %17, t2;\n\t"
        "madc.lo.cc.u32 t3, %10, %17, t3;\n\t"
        "madc.hi.cc.u32 t4, %10, %17, t4;\n\t"
        "madc.lo.cc.u32 t5, %12, %17, t5;\n\t"
        "madc.hi.cc.u32 t6, %12, %17, t6;\n\t"
        "madc.lo.cc.u32 t7, %14, %17, t7;\n\t"
        "madc.hi.cc.u32 t8, %14, %17, t8;\n\t"
        "addc.cc.u32 t9, t9, 0;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mad.lo.cc.u32 t2, %9, %17, t2;\n\t"
        "madc.hi.cc.u32 t3, %9, %17, t3;\n\t"
        "madc.lo.cc.u32 t4, %11, %17, t4;\n\t"
        "madc.hi.cc.u32 t5, %11, %17, t5;\n\t"
        "madc.lo.cc.u32 t6, %13, %17, t6;\n\t"
        "madc.hi.cc.u32 t7, %13, %17, t7;\n\t"
        "madc.lo.cc.u32 t8, %15, %17, t8;\n\t"
        "madc.hi.cc.u32 t9, %15, %17, t9;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mul.lo.u32 m, t1, 4026531839;\n\t"
        "mad.lo.cc.u32 t1, m, 4026531841, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 4026531841, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 2042196113, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 2042196113, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 2172737629, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 2172737629, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 3778125865, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 3778125865, t8;\n\t"
        "addc.cc.u32 t9, t9, 0;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mad.lo.cc.u32 t2, m, 1138881939, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 1138881939, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 674490440, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 674490440, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 3092268470, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 3092268470, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 811880050, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 811880050, t9;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mov.u32 t1, 0;\n\t"
        "mad.lo.cc.u32 t2, %8, %18, t2;\n\t"
        "madc.hi.cc.u32 t3, %8, %18, t3;\n\t"
        "madc.lo.cc.u32 t4, %10, %18, t4;\n\t"
        "madc.hi.cc.u32 t5, %10, %18, t5;\n\t"
        "madc.lo.cc.u32 t6, %12, %18, t6;\n\t"
        "madc.hi.cc.u32 t7, %12, %18, t7;\n\t"
        "madc.lo.cc.u32 t8, %14, %18, t8;\n\t"
        "madc.hi.cc.u32 t9, %14, %18, t9;\n\t"
        "addc.cc.u32 t0, t0, 0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mad.lo.cc.u32 t3, %9, %18, t3;\n\t"
        "madc.hi.cc.u32 t4, %9, %18, t4;\n\t"
        "madc.lo.cc.u32 t5, %11, %18, t5;\n\t"
        "madc.hi.cc.u32 t6, %11, %18, t6;\n\t"
        "madc.lo.cc.u32 t7, %13, %18, t7;\n\t"
        "madc.hi.cc.u32 t8, %13, %18, t8;\n\t"
        "madc.lo.cc.u32 t9, %15, %18, t9;\n\t"
        "madc.hi.cc.u32 t0, %15, %18, t0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mul.lo.u32 m, t2, 4026531839;\n\t"
        "mad.lo.cc.u32 t2, m, 4026531841, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 4026531841, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 2042196113, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 2042196113, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 2172737629, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 2172737629, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 3778125865, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 3778125865, t9;\n\t"
        "addc.cc.u32 t0, t0, 0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mad.lo.cc.u32 t3, m, 1138881939, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 1138881939, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 674490440, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 674490440, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 3092268470, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 3092268470, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 811880050, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 811880050, t0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mov.u32 t2, 0;\n\t"
        "mad.lo.cc.u32 t3, %8, %19, t3;\n\t"
        "madc.hi.cc.u32 t4, %8, %19, t4;\n\t"
        "madc.lo.cc.u32 t5, %10, %19, t5;\n\t"
        "madc.hi.cc.u32 t6, %10, %19, t6;\n\t"
        "madc.lo.cc.u32 t7, %12, %19, t7;\n\t"
        "madc.hi.cc.u32 t8, %12, %19, t8;\n\t"
        "madc.lo.cc.u32 t9, %14, %19, t9;\n\t"
        "madc.hi.cc.u32 t0, %14, %19, t0;\n\t"
        "addc.cc.u32 t1, t1, 0;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mad.lo.cc.u32 t4, %9, %19, t4;\n\t"
        "madc.hi.cc.u32 t5, %9, %19, t5;\n\t"
        "madc.lo.cc.u32 t6, %11, %19, t6;\n\t"
        "madc.hi.cc.u32 t7, %11, %19, t7;\n\t"
        "madc.lo.cc.u32 t8, %13, %19, t8;\n\t"
        "madc.hi.cc.u32 t9, %13, %19, t9;\n\t"
        "madc.lo.cc.u32 t0, %15, %19, t0;\n\t"
        "madc.hi.cc.u32 t1, %15, %19, t1;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mul.lo.u32 m, t3, 4026531839;\n\t"
        "mad.lo.cc.u32 t3, m, 4026531841, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 4026531841, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 2042196113, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 2042196113, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 2172737629, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 2172737629, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 3778125865, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 3778125865, t0;\n\t"
        "addc.cc.u32 t1, t1, 0;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mad.lo.cc.u32 t4, m, 1138881939, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 1138881939, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 674490440, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 674490440, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 3092268470, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 3092268470, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 811880050, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 811880050, t1;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mov.u32 t3, 0;\n\t"
        "mad.lo.cc.u32 t4, %8, %20, t4;\n\t"
        "madc.hi.cc.u32 t5, %8, %20, t5;\n\t"
        "madc.lo.cc.u32 t6, %10, %20, t6;\n\t"
        "madc.hi.cc.u32 t7, %10, %20, t7;\n\t"
        "madc.lo.cc.u32 t8, %12, %20, t8;\n\t"
        "madc.hi.cc.u32 t9, %12, %20, t9;\n\t"
        "madc.lo.cc.u32 t0, %14, %20, t0;\n\t"
        "madc.hi.cc.u32 t1, %14, %20, t1;\n\t"
        "addc.cc.u32 t2, t2, 0;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mad.lo.cc.u32 t5, %9, %20, t5;\n\t"
        "madc.hi.cc.u32 t6, %9, %20, t6;\n\t"
        "madc.lo.cc.u32 t7, %11, %20, t7;\n\t"
        "madc.hi.cc.u32 t8, %11, %20, t8;\n\t"
        "madc.lo.cc.u32 t9, %13, %20, t9;\n\t"
        "madc.hi.cc.u32 t0, %13, %20, t0;\n\t"
        "madc.lo.cc.u32 t1, %15, %20, t1;\n\t"
        "madc.hi.cc.u32 t2, %15, %20, t2;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mul.lo.u32 m, t4, 4026531839;\n\t"
        "mad.lo.cc.u32 t4, m, 4026531841, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 4026531841, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 2042196113, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 2042196113, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 2172737629, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 2172737629, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 3778125865, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 3778125865, t1;\n\t"
        "addc.cc.u32 t2, t2, 0;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mad.lo.cc.u32 t5, m, 1138881939, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 1138881939, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 674490440, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 674490440, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 3092268470, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 3092268470, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 811880050, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 811880050, t2;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mov.u32 t4, 0;\n\t"
        "mad.lo.cc.u32 t5, %8, %21, t5;\n\t"
        "madc.hi.cc.u32 t6, %8, %21, t6;\n\t"
        "madc.lo.cc.u32 t7, %10, %21, t7;\n\t"
        "madc.hi.cc.u32 t8, %10, %21, t8;\n\t"
        "madc.lo.cc.u32 t9, %12, %21, t9;\n\t"
        "madc.hi.cc.u32 t0, %12, %21, t0;\n\t"
        "madc.lo.cc.u32 t1, %14, %21, t1;\n\t"
        "madc.hi.cc.u32 t2, %14, %21, t2;\n\t"
        "addc.cc.u32 t3, t3, 0;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mad.lo.cc.u32 t6, %9, %21, t6;\n\t"
        "madc.hi.cc.u32 t7, %9, %21, t7;\n\t"
        "madc.lo.cc.u32 t8, %11, %21, t8;\n\t"
        "madc.hi.cc.u32 t9, %11, %21, t9;\n\t"
        "madc.lo.cc.u32 t0, %13, %21, t0;\n\t"
        "madc.hi.cc.u32 t1, %13, %21, t1;\n\t"
        "madc.lo.cc.u32 t2, %15, %21, t2;\n\t"
        "madc.hi.cc.u32 t3, %15, %21, t3;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mul.lo.u32 m, t5, 4026531839;\n\t"
        "mad.lo.cc.u32 t5, m, 4026531841, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 4026531841, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 2042196113, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 2042196113, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 2172737629, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 2172737629, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 3778125865, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 3778125865, t2;\n\t"
        "addc.cc.u32 t3, t3, 0;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mad.lo.cc.u32 t6, m, 1138881939, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 1138881939, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 674490440, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 674490440, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 3092268470, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 3092268470, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 811880050, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 811880050, t3;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mov.u32 t5, 0;\n\t"
        "mad.lo.cc.u32 t6, %8, %22, t6;\n\t"
        "madc.hi.cc.u32 t7, %8, %22, t7;\n\t"
        "madc.lo.cc.u32 t8, %10, %22, t8;\n\t"
        "madc.hi.cc.u32 t9, %10, %22, t9;\n\t"
        "madc.lo.cc.u32 t0, %12, %22, t0;\n\t"
        "madc.hi.cc.u32 t1, %12, %22, t1;\n\t"
        "madc.lo.cc.u32 t2, %14, %22, t2;\n\t"
        "madc.hi.cc.u32 t3, %14, %22, t3;\n\t"
        "addc.cc.u32 t4, t4, 0;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mad.lo.cc.u32 t7, %9, %22, t7;\n\t"
        "madc.hi.cc.u32 t8, %9, %22, t8;\n\t"
        "madc.lo.cc.u32 t9, %11, %22, t9;\n\t"
        "madc.hi.cc.u32 t0, %11, %22, t0;\n\t"
        "madc.lo.cc.u32 t1, %13, %22, t1;\n\t"
        "madc.hi.cc.u32 t2, %13, %22, t2;\n\t"
        "madc.lo.cc.u32 t3, %15, %22, t3;\n\t"
        "madc.hi.cc.u32 t4, %15, %22, t4;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mul.lo.u32 m, t6, 4026531839;\n\t"
        "mad.lo.cc.u32 t6, m, 4026531841, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 4026531841, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 2042196113, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 2042196113, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 2172737629, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 2172737629, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 3778125865, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 3778125865, t3;\n\t"
        "addc.cc.u32 t4, t4, 0;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mad.lo.cc.u32 t7, m, 1138881939, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 1138881939, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 674490440, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 674490440, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 3092268470, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 3092268470, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 811880050, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 811880050, t4;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mov.u32 t6, 0;\n\t"
        "mad.lo.cc.u32 t7, %8, %23, t7;\n\t"
        "madc.hi.cc.u32 t8, %8, %23, t8;\n\t"
        "madc.lo.cc.u32 t9, %10, %23, t9;\n\t"
        "madc.hi.cc.u32 t0, %10, %23, t0;\n\t"
        "madc.lo.cc.u32 t1, %12, %23, t1;\n\t"
        "madc.hi.cc.u32 t2, %12, %23, t2;\n\t"
        "madc.lo.cc.u32 t3, %14, %23, t3;\n\t"
        "madc.hi.cc.u32 t4, %14, %23, t4;\n\t"
        "addc.cc.u32 t5, t5, 0;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mad.lo.cc.u32 t8, %9, %23, t8;\n\t"
        "madc.hi.cc.u32 t9, %9, %23, t9;\n\t"
        "madc.lo.cc.u32 t0, %11, %23, t0;\n\t"
        "madc.hi.cc.u32 t1, %11, %23, t1;\n\t"
        "madc.lo.cc.u32 t2, %13, %23, t2;\n\t"
        "madc.hi.cc.u32 t3, %13, %23, t3;\n\t"
        "madc.lo.cc.u32 t4, %15, %23, t4;\n\t"
        "madc.hi.cc.u32 t5, %15, %23, t5;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mul.lo.u32 m, t7, 4026531839;\n\t"
        "mad.lo.cc.u32 t7, m, 4026531841, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 4026531841, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 2042196113, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 2042196113, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 2172737629, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 2172737629, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 3778125865, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 3778125865, t4;\n\t"
        "addc.cc.u32 t5, t5, 0;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mad.lo.cc.u32 t8, m, 1138881939, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 1138881939, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 674490440, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 674490440, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 3092268470, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 3092268470, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 811880050, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 811880050, t5;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mov.u32 t7, 0;\n\t"
        "sub.cc.u32 s0, t8, 4026531841;\n\t"
        "subc.cc.u32 s1, t9, 1138881939;\n\t"
        "subc.cc.u32 s2, t0, 2042196113;\n\t"
        "subc.cc.u32 s3, t1, 674490440;\n\t"
        "subc.cc.u32 s4, t2, 2172737629;\n\t"
        "subc.cc.u32 s5, t3, 3092268470;\n\t"
        "subc.cc.u32 s6, t4, 3778125865;\n\t"
        "subc.cc.u32 s7, t5, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, t8, s0, p;\n\t"
        "selp.b32 %1, t9, s1, p;\n\t"
        "selp.b32 %2, t0, s2, p;\n\t"
        "selp.b32 %3, t1, s3, p;\n\t"
        "selp.b32 %4, t2, s4, p;\n\t"
        "selp.b32 %5, t3, s5, p;\n\t"
        "selp.b32 %6, t4, s6, p;\n\t"
        "selp.b32 %7, t5, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_mul


// The four-step BN254 passes keep values lazily reduced in [0, 2q) between
// operations (q < 2^254, so 4q < 2^256) and multiply by table constants with
// Shoup's method instead of a Montgomery product: for a constant w < q in
// plain form and ws = floor(w·2^256/q), a·w mod q = a·w − Q·q with Q =
// floor(a·ws/2^256) for any 256-bit a. Data in Montgomery form (x·R) times
// plain w gives (x·w)·R, so the data stays in Montgomery form. Q comes from
// the product terms of a·ws in columns ≥ 7 (32-bit columns; the dropped
// terms sum to less than 28·2^224, so Q is exact or one less), a·w and Q·q
// only modulo 2^256: 79 + 64 + 64 = 207 multiply-adds against 264 for
// CIOS, and a·w − Q·q < 3q is brought below 2q by one conditional
// subtraction. Additions and subtractions work modulo 2q; the pass that
// writes the transform's output reduces to [0, q).
//
// The block adds Q·(2^256 − q) into the accumulators of a·w (a·w − Q·q
// modulo 2^256, no separate product and subtraction), and each row of
// products adds into two accumulators, one for the lo/hi pairs that start
// at even columns and one for those at odd columns (summed once at the
// end): every pair is one aligned 64-bit register pair of an IMAD.WIDE, so
// the compiler needs no moves to build them, and the two chains of a row
// are independent. 2^24 FFT DIF on the H100: 4.13 -> 3.83 ms against one
// accumulator per part with Q·q subtracted (SASS of the 8-bit DIF pass:
// 8,646 -> 7,000 instructions, 2,228 -> about 300 moves).

// BEGIN PTX bn254_shoup
__device__ __forceinline__ void bn254x32_shoup(u32 *r, const u32 *a, const u32 *b, const u32 *c) {
    asm("{\n\t"
        ".reg .u32 qe<16>, qo<16>, le<8>, lo<8>, se<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "mov.u32 qe7, 0;\n\t"
        "mov.u32 qo7, 0;\n\t"
        "mov.u32 qe8, 0;\n\t"
        "mov.u32 qo8, 0;\n\t"
        "mov.u32 qe9, 0;\n\t"
        "mov.u32 qo9, 0;\n\t"
        "mov.u32 qe10, 0;\n\t"
        "mov.u32 qo10, 0;\n\t"
        "mov.u32 qe11, 0;\n\t"
        "mov.u32 qo11, 0;\n\t"
        "mov.u32 qe12, 0;\n\t"
        "mov.u32 qo12, 0;\n\t"
        "mov.u32 qe13, 0;\n\t"
        "mov.u32 qo13, 0;\n\t"
        "mov.u32 qe14, 0;\n\t"
        "mov.u32 qo14, 0;\n\t"
        "mov.u32 qe15, 0;\n\t"
        "mov.u32 qo15, 0;\n\t"
        "mad.hi.cc.u32 qe7, %8, %30, qe7;\n\t"
        "addc.u32 qe8, qe8, 0;\n\t"
        "mad.lo.cc.u32 qo7, %8, %31, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %8, %31, qo8;\n\t"
        "addc.u32 qo9, qo9, 0;\n\t"
        "mad.lo.cc.u32 qo7, %9, %30, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %9, %30, qo8;\n\t"
        "addc.u32 qo9, qo9, 0;\n\t"
        "mad.hi.cc.u32 qe7, %9, %29, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %9, %31, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %9, %31, qe9;\n\t"
        "addc.u32 qe10, qe10, 0;\n\t"
        "mad.hi.cc.u32 qe7, %10, %28, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %10, %30, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %10, %30, qe9;\n\t"
        "addc.u32 qe10, qe10, 0;\n\t"
        "mad.lo.cc.u32 qo7, %10, %29, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %10, %29, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %10, %31, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %10, %31, qo10;\n\t"
        "addc.u32 qo11, qo11, 0;\n\t"
        "mad.lo.cc.u32 qo7, %11, %28, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %11, %28, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %11, %30, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %11, %30, qo10;\n\t"
        "addc.u32 qo11, qo11, 0;\n\t"
        "mad.hi.cc.u32 qe7, %11, %27, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %11, %29, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %11, %29, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %11, %31, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %11, %31, qe11;\n\t"
        "addc.u32 qe12, qe12, 0;\n\t"
        "mad.hi.cc.u32 qe7, %12, %26, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %12, %28, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %12, %28, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %12, %30, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %12, %30, qe11;\n\t"
        "addc.u32 qe12, qe12, 0;\n\t"
        "mad.lo.cc.u32 qo7, %12, %27, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %12, %27, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %12, %29, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %12, %29, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %12, %31, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %12, %31, qo12;\n\t"
        "addc.u32 qo13, qo13, 0;\n\t"
        "mad.lo.cc.u32 qo7, %13, %26, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %13, %26, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %13, %28, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %13, %28, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %13, %30, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %13, %30, qo12;\n\t"
        "addc.u32 qo13, qo13, 0;\n\t"
        "mad.hi.cc.u32 qe7, %13, %25, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %13, %27, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %13, %27, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %13, %29, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %13, %29, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %13, %31, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %13, %31, qe13;\n\t"
        "addc.u32 qe14, qe14, 0;\n\t"
        "mad.hi.cc.u32 qe7, %14, %24, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %14, %26, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %14, %26, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %14, %28, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %14, %28, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %14, %30, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %14, %30, qe13;\n\t"
        "addc.u32 qe14, qe14, 0;\n\t"
        "mad.lo.cc.u32 qo7, %14, %25, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %14, %25, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %14, %27, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %14, %27, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %14, %29, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %14, %29, qo12;\n\t"
        "madc.lo.cc.u32 qo13, %14, %31, qo13;\n\t"
        "madc.hi.cc.u32 qo14, %14, %31, qo14;\n\t"
        "addc.u32 qo15, qo15, 0;\n\t"
        "mad.lo.cc.u32 qo7, %15, %24, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %15, %24, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %15, %26, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %15, %26, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %15, %28, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %15, %28, qo12;\n\t"
        "madc.lo.cc.u32 qo13, %15, %30, qo13;\n\t"
        "madc.hi.cc.u32 qo14, %15, %30, qo14;\n\t"
        "addc.u32 qo15, qo15, 0;\n\t"
        "mad.lo.cc.u32 qe8, %15, %25, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %15, %25, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %15, %27, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %15, %27, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %15, %29, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %15, %29, qe13;\n\t"
        "madc.lo.cc.u32 qe14, %15, %31, qe14;\n\t"
        "madc.hi.u32 qe15, %15, %31, qe15;\n\t"
        "add.cc.u32 qe7, qe7, qo7;\n\t"
        "addc.cc.u32 qe8, qe8, qo8;\n\t"
        "addc.cc.u32 qe9, qe9, qo9;\n\t"
        "addc.cc.u32 qe10, qe10, qo10;\n\t"
        "addc.cc.u32 qe11, qe11, qo11;\n\t"
        "addc.cc.u32 qe12, qe12, qo12;\n\t"
        "addc.cc.u32 qe13, qe13, qo13;\n\t"
        "addc.cc.u32 qe14, qe14, qo14;\n\t"
        "addc.u32 qe15, qe15, qo15;\n\t"
        "mov.u32 le0, 0;\n\t"
        "mov.u32 lo0, 0;\n\t"
        "mov.u32 le1, 0;\n\t"
        "mov.u32 lo1, 0;\n\t"
        "mov.u32 le2, 0;\n\t"
        "mov.u32 lo2, 0;\n\t"
        "mov.u32 le3, 0;\n\t"
        "mov.u32 lo3, 0;\n\t"
        "mov.u32 le4, 0;\n\t"
        "mov.u32 lo4, 0;\n\t"
        "mov.u32 le5, 0;\n\t"
        "mov.u32 lo5, 0;\n\t"
        "mov.u32 le6, 0;\n\t"
        "mov.u32 lo6, 0;\n\t"
        "mov.u32 le7, 0;\n\t"
        "mov.u32 lo7, 0;\n\t"
        "mad.lo.cc.u32 le0, %8, %16, le0;\n\t"
        "madc.hi.cc.u32 le1, %8, %16, le1;\n\t"
        "madc.lo.cc.u32 le2, %8, %18, le2;\n\t"
        "madc.hi.cc.u32 le3, %8, %18, le3;\n\t"
        "madc.lo.cc.u32 le4, %8, %20, le4;\n\t"
        "madc.hi.cc.u32 le5, %8, %20, le5;\n\t"
        "madc.lo.cc.u32 le6, %8, %22, le6;\n\t"
        "madc.hi.u32 le7, %8, %22, le7;\n\t"
        "mad.lo.cc.u32 lo1, %8, %17, lo1;\n\t"
        "madc.hi.cc.u32 lo2, %8, %17, lo2;\n\t"
        "madc.lo.cc.u32 lo3, %8, %19, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %8, %19, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %8, %21, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %8, %21, lo6;\n\t"
        "madc.lo.u32 lo7, %8, %23, lo7;\n\t"
        "mad.lo.cc.u32 lo1, %9, %16, lo1;\n\t"
        "madc.hi.cc.u32 lo2, %9, %16, lo2;\n\t"
        "madc.lo.cc.u32 lo3, %9, %18, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %9, %18, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %9, %20, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %9, %20, lo6;\n\t"
        "madc.lo.u32 lo7, %9, %22, lo7;\n\t"
        "mad.lo.cc.u32 le2, %9, %17, le2;\n\t"
        "madc.hi.cc.u32 le3, %9, %17, le3;\n\t"
        "madc.lo.cc.u32 le4, %9, %19, le4;\n\t"
        "madc.hi.cc.u32 le5, %9, %19, le5;\n\t"
        "madc.lo.cc.u32 le6, %9, %21, le6;\n\t"
        "madc.hi.u32 le7, %9, %21, le7;\n\t"
        "mad.lo.cc.u32 le2, %10, %16, le2;\n\t"
        "madc.hi.cc.u32 le3, %10, %16, le3;\n\t"
        "madc.lo.cc.u32 le4, %10, %18, le4;\n\t"
        "madc.hi.cc.u32 le5, %10, %18, le5;\n\t"
        "madc.lo.cc.u32 le6, %10, %20, le6;\n\t"
        "madc.hi.u32 le7, %10, %20, le7;\n\t"
        "mad.lo.cc.u32 lo3, %10, %17, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %10, %17, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %10, %19, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %10, %19, lo6;\n\t"
        "madc.lo.u32 lo7, %10, %21, lo7;\n\t"
        "mad.lo.cc.u32 lo3, %11, %16, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %11, %16, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %11, %18, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %11, %18, lo6;\n\t"
        "madc.lo.u32 lo7, %11, %20, lo7;\n\t"
        "mad.lo.cc.u32 le4, %11, %17, le4;\n\t"
        "madc.hi.cc.u32 le5, %11, %17, le5;\n\t"
        "madc.lo.cc.u32 le6, %11, %19, le6;\n\t"
        "madc.hi.u32 le7, %11, %19, le7;\n\t"
        "mad.lo.cc.u32 le4, %12, %16, le4;\n\t"
        "madc.hi.cc.u32 le5, %12, %16, le5;\n\t"
        "madc.lo.cc.u32 le6, %12, %18, le6;\n\t"
        "madc.hi.u32 le7, %12, %18, le7;\n\t"
        "mad.lo.cc.u32 lo5, %12, %17, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %12, %17, lo6;\n\t"
        "madc.lo.u32 lo7, %12, %19, lo7;\n\t"
        "mad.lo.cc.u32 lo5, %13, %16, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %13, %16, lo6;\n\t"
        "madc.lo.u32 lo7, %13, %18, lo7;\n\t"
        "mad.lo.cc.u32 le6, %13, %17, le6;\n\t"
        "madc.hi.u32 le7, %13, %17, le7;\n\t"
        "mad.lo.cc.u32 le6, %14, %16, le6;\n\t"
        "madc.hi.u32 le7, %14, %16, le7;\n\t"
        "mad.lo.u32 lo7, %14, %17, lo7;\n\t"
        "mad.lo.u32 lo7, %15, %16, lo7;\n\t"
        "mad.lo.cc.u32 le0, qe8, 268435455, le0;\n\t"
        "madc.hi.cc.u32 le1, qe8, 268435455, le1;\n\t"
        "madc.lo.cc.u32 le2, qe8, 2252771182, le2;\n\t"
        "madc.hi.cc.u32 le3, qe8, 2252771182, le3;\n\t"
        "madc.lo.cc.u32 le4, qe8, 2122229666, le4;\n\t"
        "madc.hi.cc.u32 le5, qe8, 2122229666, le5;\n\t"
        "madc.lo.cc.u32 le6, qe8, 516841430, le6;\n\t"
        "madc.hi.u32 le7, qe8, 516841430, le7;\n\t"
        "mad.lo.cc.u32 lo1, qe8, 3156085356, lo1;\n\t"
        "madc.hi.cc.u32 lo2, qe8, 3156085356, lo2;\n\t"
        "madc.lo.cc.u32 lo3, qe8, 3620476855, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe8, 3620476855, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe8, 1202698825, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe8, 1202698825, lo6;\n\t"
        "madc.lo.u32 lo7, qe8, 3483087245, lo7;\n\t"
        "mad.lo.cc.u32 lo1, qe9, 268435455, lo1;\n\t"
        "madc.hi.cc.u32 lo2, qe9, 268435455, lo2;\n\t"
        "madc.lo.cc.u32 lo3, qe9, 2252771182, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe9, 2252771182, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe9, 2122229666, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe9, 2122229666, lo6;\n\t"
        "madc.lo.u32 lo7, qe9, 516841430, lo7;\n\t"
        "mad.lo.cc.u32 le2, qe9, 3156085356, le2;\n\t"
        "madc.hi.cc.u32 le3, qe9, 3156085356, le3;\n\t"
        "madc.lo.cc.u32 le4, qe9, 3620476855, le4;\n\t"
        "madc.hi.cc.u32 le5, qe9, 3620476855, le5;\n\t"
        "madc.lo.cc.u32 le6, qe9, 1202698825, le6;\n\t"
        "madc.hi.u32 le7, qe9, 1202698825, le7;\n\t"
        "mad.lo.cc.u32 le2, qe10, 268435455, le2;\n\t"
        "madc.hi.cc.u32 le3, qe10, 268435455, le3;\n\t"
        "madc.lo.cc.u32 le4, qe10, 2252771182, le4;\n\t"
        "madc.hi.cc.u32 le5, qe10, 2252771182, le5;\n\t"
        "madc.lo.cc.u32 le6, qe10, 2122229666, le6;\n\t"
        "madc.hi.u32 le7, qe10, 2122229666, le7;\n\t"
        "mad.lo.cc.u32 lo3, qe10, 3156085356, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe10, 3156085356, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe10, 3620476855, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe10, 3620476855, lo6;\n\t"
        "madc.lo.u32 lo7, qe10, 1202698825, lo7;\n\t"
        "mad.lo.cc.u32 lo3, qe11, 268435455, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe11, 268435455, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe11, 2252771182, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe11, 2252771182, lo6;\n\t"
        "madc.lo.u32 lo7, qe11, 2122229666, lo7;\n\t"
        "mad.lo.cc.u32 le4, qe11, 3156085356, le4;\n\t"
        "madc.hi.cc.u32 le5, qe11, 3156085356, le5;\n\t"
        "madc.lo.cc.u32 le6, qe11, 3620476855, le6;\n\t"
        "madc.hi.u32 le7, qe11, 3620476855, le7;\n\t"
        "mad.lo.cc.u32 le4, qe12, 268435455, le4;\n\t"
        "madc.hi.cc.u32 le5, qe12, 268435455, le5;\n\t"
        "madc.lo.cc.u32 le6, qe12, 2252771182, le6;\n\t"
        "madc.hi.u32 le7, qe12, 2252771182, le7;\n\t"
        "mad.lo.cc.u32 lo5, qe12, 3156085356, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe12, 3156085356, lo6;\n\t"
        "madc.lo.u32 lo7, qe12, 3620476855, lo7;\n\t"
        "mad.lo.cc.u32 lo5, qe13, 268435455, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe13, 268435455, lo6;\n\t"
        "madc.lo.u32 lo7, qe13, 2252771182, lo7;\n\t"
        "mad.lo.cc.u32 le6, qe13, 3156085356, le6;\n\t"
        "madc.hi.u32 le7, qe13, 3156085356, le7;\n\t"
        "mad.lo.cc.u32 le6, qe14, 268435455, le6;\n\t"
        "madc.hi.u32 le7, qe14, 268435455, le7;\n\t"
        "mad.lo.u32 lo7, qe14, 3156085356, lo7;\n\t"
        "mad.lo.u32 lo7, qe15, 268435455, lo7;\n\t"
        "add.cc.u32 le0, le0, lo0;\n\t"
        "addc.cc.u32 le1, le1, lo1;\n\t"
        "addc.cc.u32 le2, le2, lo2;\n\t"
        "addc.cc.u32 le3, le3, lo3;\n\t"
        "addc.cc.u32 le4, le4, lo4;\n\t"
        "addc.cc.u32 le5, le5, lo5;\n\t"
        "addc.cc.u32 le6, le6, lo6;\n\t"
        "addc.u32 le7, le7, lo7;\n\t"
        "sub.cc.u32 se0, le0, 4026531841;\n\t"
        "subc.cc.u32 se1, le1, 1138881939;\n\t"
        "subc.cc.u32 se2, le2, 2042196113;\n\t"
        "subc.cc.u32 se3, le3, 674490440;\n\t"
        "subc.cc.u32 se4, le4, 2172737629;\n\t"
        "subc.cc.u32 se5, le5, 3092268470;\n\t"
        "subc.cc.u32 se6, le6, 3778125865;\n\t"
        "subc.cc.u32 se7, le7, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, le0, se0, p;\n\t"
        "selp.b32 %1, le1, se1, p;\n\t"
        "selp.b32 %2, le2, se2, p;\n\t"
        "selp.b32 %3, le3, se3, p;\n\t"
        "selp.b32 %4, le4, se4, p;\n\t"
        "selp.b32 %5, le5, se5, p;\n\t"
        "selp.b32 %6, le6, se6, p;\n\t"
        "selp.b32 %7, le7, se7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7]));
}
// END PTX bn254_shoup
// BEGIN PTX bn254_ladd
__device__ __forceinline__ void bn254x32_ladd(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>, s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "add.cc.u32 t0, %8, %16;\n\t"
        "addc.cc.u32 t1, %9, %17;\n\t"
        "addc.cc.u32 t2, %10, %18;\n\t"
        "addc.cc.u32 t3, %11, %19;\n\t"
        "addc.cc.u32 t4, %12, %20;\n\t"
        "addc.cc.u32 t5, %13, %21;\n\t"
        "addc.cc.u32 t6, %14, %22;\n\t"
        "addc.u32 t7, %15, %23;\n\t"
        "sub.cc.u32 s0, t0, 3758096386;\n\t"
        "subc.cc.u32 s1, t1, 2277763879;\n\t"
        "subc.cc.u32 s2, t2, 4084392226;\n\t"
        "subc.cc.u32 s3, t3, 1348980880;\n\t"
        "subc.cc.u32 s4, t4, 50507962;\n\t"
        "subc.cc.u32 s5, t5, 1889569645;\n\t"
        "subc.cc.u32 s6, t6, 3261284435;\n\t"
        "subc.cc.u32 s7, t7, 1623760101;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, t0, s0, p;\n\t"
        "selp.b32 %1, t1, s1, p;\n\t"
        "selp.b32 %2, t2, s2, p;\n\t"
        "selp.b32 %3, t3, s3, p;\n\t"
        "selp.b32 %4, t4, s4, p;\n\t"
        "selp.b32 %5, t5, s5, p;\n\t"
        "selp.b32 %6, t6, s6, p;\n\t"
        "selp.b32 %7, t7, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_ladd
// BEGIN PTX bn254_lsub
__device__ __forceinline__ void bn254x32_lsub(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>, bw, c;\n\t"
        "sub.cc.u32 t0, %8, %16;\n\t"
        "subc.cc.u32 t1, %9, %17;\n\t"
        "subc.cc.u32 t2, %10, %18;\n\t"
        "subc.cc.u32 t3, %11, %19;\n\t"
        "subc.cc.u32 t4, %12, %20;\n\t"
        "subc.cc.u32 t5, %13, %21;\n\t"
        "subc.cc.u32 t6, %14, %22;\n\t"
        "subc.cc.u32 t7, %15, %23;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "and.b32 c, bw, 3758096386;\n\t"
        "add.cc.u32 %0, t0, c;\n\t"
        "and.b32 c, bw, 2277763879;\n\t"
        "addc.cc.u32 %1, t1, c;\n\t"
        "and.b32 c, bw, 4084392226;\n\t"
        "addc.cc.u32 %2, t2, c;\n\t"
        "and.b32 c, bw, 1348980880;\n\t"
        "addc.cc.u32 %3, t3, c;\n\t"
        "and.b32 c, bw, 50507962;\n\t"
        "addc.cc.u32 %4, t4, c;\n\t"
        "and.b32 c, bw, 1889569645;\n\t"
        "addc.cc.u32 %5, t5, c;\n\t"
        "and.b32 c, bw, 3261284435;\n\t"
        "addc.cc.u32 %6, t6, c;\n\t"
        "and.b32 c, bw, 1623760101;\n\t"
        "addc.u32 %7, t7, c;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_lsub
// BEGIN PTX bn254_sub2q
__device__ __forceinline__ void bn254x32_sub2q(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>;\n\t"
        "sub.cc.u32 t0, %8, %16;\n\t"
        "subc.cc.u32 t1, %9, %17;\n\t"
        "subc.cc.u32 t2, %10, %18;\n\t"
        "subc.cc.u32 t3, %11, %19;\n\t"
        "subc.cc.u32 t4, %12, %20;\n\t"
        "subc.cc.u32 t5, %13, %21;\n\t"
        "subc.cc.u32 t6, %14, %22;\n\t"
        "subc.u32 t7, %15, %23;\n\t"
        "add.cc.u32 %0, t0, 3758096386;\n\t"
        "addc.cc.u32 %1, t1, 2277763879;\n\t"
        "addc.cc.u32 %2, t2, 4084392226;\n\t"
        "addc.cc.u32 %3, t3, 1348980880;\n\t"
        "addc.cc.u32 %4, t4, 50507962;\n\t"
        "addc.cc.u32 %5, t5, 1889569645;\n\t"
        "addc.cc.u32 %6, t6, 3261284435;\n\t"
        "addc.u32 %7, t7, 1623760101;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_sub2q
// BEGIN PTX bn254_canon
__device__ __forceinline__ void bn254x32_canon(u32 *r, const u32 *a) {
    asm("{\n\t"
        ".reg .u32 s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "sub.cc.u32 s0, %8, 4026531841;\n\t"
        "subc.cc.u32 s1, %9, 1138881939;\n\t"
        "subc.cc.u32 s2, %10, 2042196113;\n\t"
        "subc.cc.u32 s3, %11, 674490440;\n\t"
        "subc.cc.u32 s4, %12, 2172737629;\n\t"
        "subc.cc.u32 s5, %13, 3092268470;\n\t"
        "subc.cc.u32 s6, %14, 3778125865;\n\t"
        "subc.cc.u32 s7, %15, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, %8, s0, p;\n\t"
        "selp.b32 %1, %9, s1, p;\n\t"
        "selp.b32 %2, %10, s2, p;\n\t"
        "selp.b32 %3, %11, s3, p;\n\t"
        "selp.b32 %4, %12, s4, p;\n\t"
        "selp.b32 %5, %13, s5, p;\n\t"
        "selp.b32 %6, %14, s6, p;\n\t"
        "selp.b32 %7, %15, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
}
// END PTX bn254_canon

// A constant for Shoup's product: w < q in plain form and floor(w·2^256/q).
struct __align__(16) Sh8 {
    Fr8 w, s;
};

// ldSh8 reads a constant from global memory in four 16-byte loads (read
// through a reference by the asm operands, the table entry went as sixteen
// 4-byte loads).
__device__ __forceinline__ Sh8 ldSh8(const Sh8 *p) {
    Sh8 r;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        u32 *o = i < 2 ? r.w.l + 4 * i : r.s.l + 4 * (i - 2);
        asm("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
            : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
            : "l"(reinterpret_cast<const char *>(p) + 16 * i));
    }
    return r;
}

struct BN254x32 {
    typedef Fr8 E;
    // lazily reduced operations of the four-step passes (values below 2q)
    __device__ static __forceinline__ E ladd(const E &a, const E &b) {
        E r;
        bn254x32_ladd(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E lsub(const E &a, const E &b) {
        E r;
        bn254x32_lsub(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E sub2q(const E &a, const E &b) {
        E r;
        bn254x32_sub2q(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E shoup(const E &a, const Sh8 &c) {
        E r;
        bn254x32_shoup(r.l, a.l, c.w.l, c.s.l);
        return r;
    }
    __device__ static __forceinline__ E canon(const E &a) {
        E r;
        bn254x32_canon(r.l, a.l);
        return r;
    }
    __device__ static __forceinline__ E mul(const E &a, const E &b) {
        E r;
        bn254x32_mul(r.l, a.l, b.l);
        return r;
    }
};

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
#define F_TW_TABLE 32u  // four-step passes: every pass twiddle from rt (tests)
#define F_CANON 64u     // ntt_fs64: store canonical representatives (a transform's last pass)

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
// the n coefficients of src (stride srcStride), zero elsewhere.
//   mode 0: dst[j << logb] = src[j]                (stride, keeps src order)
//   mode 1: dst[j] = src[bitrev_n(j)] for j < n     (natural, zero-padded)
//   mode 2: dst[bitrev_n(j) << logb] = src[j]       (reverse, then stride)
template <class F>
__device__ void ntt_spread(typename F::E *dst, u64 dstStride, const typename F::E *src, u64 srcStride,
                           u32 logn, u32 logb, u32 mode) {
    typedef typename F::E E;
    E *d = dst + (u64)blockIdx.y * dstStride;
    const E *s = src + (u64)blockIdx.y * srcStride;
    u32 N = 1u << (logn + logb);
    u32 bmask = (1u << logb) - 1;
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < N; k += gridDim.x * blockDim.x) {
        E x{};
        if (mode == 1) {
            if (k < (1u << logn)) x = s[bitrev(k, logn)];
        } else if ((k & bmask) == 0) {
            u32 j = k >> logb;
            x = s[mode == 2 ? bitrev(j, logn) : j];
        }
        d[k] = x;
    }
}

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
// The passes: ntt_fs31 (BabyBear, KoalaBear), ntt_fs64 (Goldilocks),
// ntt_bn254_fs (BN254).
__host__ __device__ constexpr int fs_rl(int nst, int rlog) { return nst < rlog ? nst : rlog; }
__host__ __device__ constexpr int fs_nr(int nst, int rl) { return (nst + rl - 1) / rl; }
// bits of round rd (stage bits split as evenly as possible)
__host__ __device__ constexpr int fs_m(int nst, int nr, int rd) { return nst / nr + (rd < nst % nr ? 1 : 0); }
// stage bits done before round rd
__host__ __device__ constexpr int fs_done(int nst, int nr, int rd) { return rd == 0 ? 0 : fs_done(nst, nr, rd - 1) + fs_m(nst, nr, rd - 1); }

// ---------------------------------------------------------------- four-step passes, 31-bit fields and Goldilocks

// fs_pass is the four-step pass of BabyBear and KoalaBear (ntt_fs31: p <
// 2^31, one uint32 per element, 16 per thread) and of Goldilocks (ntt_fs64:
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
//     loads (ntt_fs31) or with the first loads of the round that applies
//     them (ntt_fs64: DIT global, DIF shared; earlier, 64 registers spill).
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
    // Shoup product a·c mod p, canonical, for any a < 2^32, w = (c, ⌊c·2^32/p⌋),
    // c < p: a·c − ⌊a·w.y/2^32⌋·p lies in [0, 2p). With c the plain value of a
    // Montgomery constant it equals mul(a, c·2^32 mod p).
    __device__ static __forceinline__ u32 shoup(u32 a, uint2 w) {
        const u32 q = __umulhi(a, w.y);
        const u32 r = a * w.x - q * F::P;
        return min(r, r - F::P);
    }
};

// Programmatic dependent launch (sm_90): a pass launched with the
// programmatic stream serialization attribute may start while the previous
// kernel of the stream finishes; it reads only constant tables before
// fs31_wait, which returns once that kernel has completed and its writes are
// visible. fs31_release lets the next such launch start (its blocks then
// take the places that this grid's last blocks leave). Without the
// attribute both are no-ops.
__device__ __forceinline__ void fs31_release() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void fs31_wait() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

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
// radix-8 twiddles can be shifts (SHL: A has shl; SH8), the layout.
template <class F>
struct FS31 {
    typedef u32 E;
    typedef F31<F> A;
    typedef u32 I;
    static constexpr int RLOG = 4, SLOG = 3;
    static constexpr bool LAZY = true, EARLY = true, CANON = false, SHL = false;
    __device__ static constexpr u32 row(int nst, bool bottom) { return fs31_row(nst, bottom); }
    template <bool BOTTOM>
    __device__ static constexpr u32 pos(u32 t) { return fs31_pos(t); }
    __device__ static __forceinline__ u32 canon(u32 x) { return x; }
};
struct FS64 {
    typedef u64 E;
    typedef Goldilocks A;
    typedef u64 I;
    static constexpr int RLOG = 3, SLOG = 2;
    static constexpr bool LAZY = false, EARLY = false, CANON = true, SHL = true;
    __device__ static constexpr u32 row(int nst, bool bottom) { return fs64_row(nst, bottom); }
    template <bool BOTTOM>
    __device__ static constexpr u32 pos(u32 t) { return fs64_pos<BOTTOM>(t); }
    __device__ static __forceinline__ u64 canon(u64 x) { return A::canon(x); }
};

// BOT: 1 the bottom pass (lo == 0), 0 the others, −1 either (lo decides at
// run time: ntt_fs31).
// V selects measured variants of ntt_fs31 (gpu/ntt.go fs31Variant; 0 is the
// default): bit 1 the programmatic dependent launch (fs31_wait,
// fs31_release), bit 2 Shoup products for the inner transforms' twiddles,
// from the pairs stw (the last 2^stwK − 1 entries of tw as (c, ⌊c·2^32/p⌋),
// c plain), held in shared memory as uint2.
// SH8 > 0 (Goldilocks, ntt_goldilocks_sh_fs*): the table's 8th root of
// unity is 2^SH8 (gpu/ntt.go checks it against the domain), and each round
// is a radix-8 (or radix-4) transform whose twiddles are powers of it,
// applied as shifts (Goldilocks::shl), after (DIF) or before (DIT) one
// product per element by the thread's part of the stage twiddles, Φ(e) =
// ω_(2^(ws+3))^(tb·r(e)): tb = t mod 2^ws, r(e) = Σ_(k in the round) e_k·2^(2−k).
// Their shared table holds all G powers ω_G^j (the second half negated).
template <class P, int NST, bool DIT, int BOT, int V = 0, int SH8 = 0>
__device__ __forceinline__ void fs_pass(typename P::E *__restrict__ data, u64 colStride,
                                        const typename P::E *__restrict__ tw, const typename P::E *__restrict__ rt,
                                        const typename P::E *__restrict__ pre, const typename P::E *__restrict__ post,
                                        u32 tabH, u32 rtH, u32 logn, u32 lo0, u32 logc, u32 flags,
                                        const uint2 *__restrict__ stw = nullptr, u32 stwK = 0) {
    typedef typename P::E E;
    typedef typename P::A A;
    typedef typename P::I I;
    constexpr bool PDL = V & 1, SHOUP = V & 2;
    if constexpr (PDL) fs31_release();
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
    uint2 *twP = reinterpret_cast<uint2 *>(twS); // the same as Shoup pairs (SHOUP; S is even)

    E *col = data + (u64)blockIdx.y * colStride;
    const u32 n = 1u << logn;
    const u32 nthr = (G << logc) >> RL; // == blockDim.x
    const u32 a = min(lo, logc);
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;
    const u32 tid = threadIdx.x;
    const u32 tpart = (tid >> a) & ((G >> RL) - 1);
    const u32 olocal = (tid & ((1u << a) - 1)) | ((tid >> (a + NST - RL)) << a);
    const u32 o = obase + olocal;
    const u32 low = o & lowMask;
    const u32 ibase = ((o >> lo) << (lo + NST)) + low;
    E *shg = sh + olocal * S;
    const u32 psh = logn - lo - NST; // ω_M = ω^(2^psh), M = 2^(lo+NST)
    const bool ITW = !(flags & F_TW_TABLE);
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
    E rW0 = 0, rW1 = 0, rT0 = 0, rT1 = 0;
    auto loadTws = [&]() {
        if (!(ITW && PTW)) return;
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
    // the pass twiddle of element e (ITW) or of position t (tables, tests)
    auto passTw = [&](u32 e, u32 t) -> E {
        if (!ITW) {
            const u32 k1 = __brev(t) >> (32 - NST);
            const u32 ex = (low * k1) << psh;
            return A::mul(rt[ex & ((1u << rtH) - 1)], rt[(1u << rtH) + (ex >> rtH)]);
        }
        const u32 ea = e & ((1u << LA) - 1), eb = e >> LA;
        return eb == 0 ? twA[ea] : A::mul(twA[ea], twB[eb]);
    };
    auto coset = [&](const E *tab, u32 i) -> E {
        const u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
        return A::mul(tab[k & ((1u << tabH) - 1)], tab[(1u << tabH) + (k >> tabH)]);
    };
    const bool canon = P::CANON && (flags & F_CANON);

    if constexpr (SHOUP) {
        for (u32 y = tid; y < G - 1; y += nthr) twP[y] = stw[(1u << stwK) - G + y];
    } else if constexpr (SH8 > 0) {
        for (u32 y = tid; y < G / 2; y += nthr) {
            const E w = tw[n - G + y];
            twS[y] = w;
            twS[y + G / 2] = A::P - w;
        }
    } else {
        for (u32 y = tid; y < G - 1; y += nthr) twS[y] = tw[n - G + y];
    }
    if constexpr (PDL) fs31_wait();

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
        const u32 gs = 1u << (ws + lo);
        E *shb = shg + P::template pos<BOT == 1>(tbase);
        const bool staged = bottom && ws < SLOG;
        if (rd == 0) {
            if (staged) {
                E *cb = col + obase * G;
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    const u32 u = tid + e * nthr;
                    const u32 t = u & (G - 1), ol = u >> NST;
                    E v = cb[u];
                    if (flags & F_PRE_COSET) v = A::mul(v, coset(pre, obase * G + u));
                    sh[ol * S + P::template pos<BOT == 1>(t)] = v;
                }
                __syncthreads();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = shb[P::template pos<BOT == 1>(e << ws)];
            } else {
                if (!DIT && !P::EARLY && NR == 1) loadTws();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = gp[(I)e * gs];
                if (flags & F_PRE_COSET) {
#pragma unroll
                    for (u32 e = 0; e < R; e++)
                        x[e] = A::mul(x[e], coset(pre, ibase + ((tbase + (e << ws)) << lo)));
                }
                if (DIT && PTW) {
                    if (ITW) passTws();
#pragma unroll
                    for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], passTw(e, tbase + (e << ws)));
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
                const uint2 *twq2 = twP + (G - (2u << q)) + (tbase & ((1u << q) - 1));
#pragma unroll
                for (u32 e = 0; e < R; e++) {
                    if (e & (1u << k)) continue;
                    const u32 eo = (e << ws) & ((1u << q) - 1);
                    E y = x[e | (1u << k)];
                    if (!(ws == 0 && eo == 0)) {
                        if constexpr (SHOUP) y = A::shoup(y, twq2[eo]);
                        else y = A::mul(y, twq[eo]);
                    }
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
                const uint2 *twq2 = twP + (G - (2u << q)) + (tbase & ((1u << q) - 1));
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
                        else if constexpr (SHOUP)
                            x[e | (1u << k)] = A::shoup(A::subl(v, y), twq2[eo]);
                        else
                            x[e | (1u << k)] = A::mul(A::subl(v, y), twq[eo]);
                    } else {
                        const E d = A::sub(v, y);
                        x[e | (1u << k)] = (ws == 0 && eo == 0) ? d : A::mul(d, twq[eo]);
                    }
                }
            }
        }

        if (rd == NR - 1 && staged) {
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
            if (!DIT && PTW) {
                if (ITW) passTws();
#pragma unroll
                for (u32 e = 0; e < R; e++) x[e] = A::mul(x[e], passTw(e, tbase + (e << ws)));
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

// ntt_fs31: BabyBear and KoalaBear, lo at run time.
template <class F, int NST, bool DIT, int V = 0>
__device__ __forceinline__ void ntt_fs31(u32 *data, u64 colStride, const u32 *tw, const u32 *rt, const u32 *pre,
                                         const u32 *post, u32 tabH, u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags,
                                         const uint2 *stw = nullptr, u32 stwK = 0) {
    fs_pass<FS31<F>, NST, DIT, -1, V>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags, stw, stwK);
}
// ntt_fs64: Goldilocks, the bottom pass (lo == 0) and the others compiled
// apart.
template <int NST, bool DIT, bool BOTTOM, int SH8 = 0>
__device__ __forceinline__ void ntt_fs64(u64 *data, u64 colStride, const u64 *tw, const u64 *rt, const u64 *pre,
                                         const u64 *post, u32 tabH, u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags) {
    fs_pass<FS64, NST, DIT, BOTTOM ? 1 : 0, 0, SH8>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc,
                                                    flags);
}

#define NTT_FS31(name, F, NST)                                                                                \
    extern "C" __global__ void __launch_bounds__(1024) ntt_##name##_fs##NST(                                 \
        u32 *data, u64 colStride, const u32 *tw, const u32 *rt, const u32 *pre, const u32 *post, u32 tabH,    \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags) {                                                     \
        if (flags & F_DIT)                                                                                    \
            ntt_fs31<F, NST, true>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags);     \
        else                                                                                                  \
            ntt_fs31<F, NST, false>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags);    \
    }
// The measured variants (V as in fs_pass), compiled into their own module
// (gpu/ntt.go, with NTT_FS31_VARIANTS defined, none of the other kernels):
// V = 1 for passes of 7 to 9 bits (2^21 to 2^27 in three passes), V = 3 for
// 8 bits (2^24) only, to keep the compile short (gpu/ntt.go fs31VarNST).
#define NTT_FS31V(name, F, NST, V)                                                                            \
    extern "C" __global__ void __launch_bounds__(1024) ntt_##name##_fs##NST##_v##V(                          \
        u32 *data, u64 colStride, const u32 *tw, const u32 *rt, const u32 *pre, const u32 *post, u32 tabH,    \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags, const uint2 *stw, u32 stwK) {                         \
        if (flags & F_DIT)                                                                                    \
            ntt_fs31<F, NST, true, V>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags, stw, \
                                      stwK);                                                                  \
        else                                                                                                  \
            ntt_fs31<F, NST, false, V>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags, stw, \
                                       stwK);                                                                 \
    }
#define NTT_FS31V_7_9(name, F, V) NTT_FS31V(name, F, 7, V) NTT_FS31V(name, F, 8, V) NTT_FS31V(name, F, 9, V)

#define NTT_FS64(NST)                                                                                          \
    extern "C" __global__ void __launch_bounds__(1024) ntt_goldilocks_fs##NST(                                 \
        u64 *data, u64 colStride, const u64 *tw, const u64 *rt, const u64 *pre, const u64 *post, u32 tabH,     \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags) {                                                      \
        if (lo == 0) {                                                                                         \
            if (flags & F_DIT)                                                                                 \
                ntt_fs64<NST, true, true>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
            else                                                                                               \
                ntt_fs64<NST, false, true>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
        } else {                                                                                               \
            if (flags & F_DIT)                                                                                 \
                ntt_fs64<NST, true, false>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
            else                                                                                               \
                ntt_fs64<NST, false, false>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
        }                                                                                                      \
    }
// The shift variant, compiled for DIF with the forward tables (SH8 = 120)
// only, to keep the module's compile time: gpu/ntt.go takes it for those
// launches and ntt_fs64 for the others.
#define NTT_FS64_SH(NST)                                                                                       \
    extern "C" __global__ void __launch_bounds__(1024) ntt_goldilocks_sh_fs##NST(                              \
        u64 *data, u64 colStride, const u64 *tw, const u64 *rt, const u64 *pre, const u64 *post, u32 tabH,     \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags) {                                                      \
        if (lo == 0)                                                                                           \
            ntt_fs64<NST, false, true, 120>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
        else                                                                                                   \
            ntt_fs64<NST, false, false, 120>(data, colStride, tw, rt, pre, post, tabH, rtH, logn, lo, logc, flags); \
    }

// ---------------------------------------------------------------- entry points

#define NTT_KERNELS(name, F, RLOG, SLOG)                                                                \
    extern "C" __global__ void ntt_##name##_pass_reg(F::E *data, u64 colStride, const F::E *tw,   \
                                                     const F::E *pre, const F::E *post, u32 tabH, \
                                                     u32 logn, u32 lo, u32 nst, u32 logc,         \
                                                     u32 flags) {                                 \
        ntt_pass_reg<F, RLOG, SLOG>(data, colStride, tw, pre, post, tabH, logn, lo, nst, logc, flags);  \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_pass(F::E *data, u64 colStride, const F::E *tw,       \
                                                 const F::E *pre, const F::E *post, u32 tabH,     \
                                                 u32 logn, u32 lo, u32 nst, u32 logc, u32 flags) { \
        ntt_pass<F>(data, colStride, tw, pre, post, tabH, logn, lo, nst, logc, flags);            \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_bitrev(F::E *data, u64 colStride, u32 logn) {         \
        ntt_bitrev<F>(data, colStride, logn);                                                     \
    }                                                                                             \
    extern "C" __global__ void ntt_##name##_spread(F::E *dst, u64 dstStride, const F::E *src,     \
                                                   u64 srcStride, u32 logn, u32 logb, u32 mode) { \
        ntt_spread<F>(dst, dstStride, src, srcStride, logn, logb, mode);                          \
    }

// gpu/ntt.go compiles this file once per field it is asked for, with
// NTT_ONLY and NTT_ONLY_<field> defined, so that a module holds that field's
// kernels only (first-use compile time); undefined, every field's. The
// four-step passes of BabyBear, KoalaBear and Goldilocks are compiled for
// the sizes NTT_FS_MIN to NTT_FS_MAX bits (default 6 to 12): a field's
// module has the sizes it uses by default, and a second module, with
// NTT_FS_ONLY defined (no other kernels), adds larger ones when a
// measurement asks for them.
#ifndef NTT_FS_MIN
#define NTT_FS_MIN 6
#endif
#ifndef NTT_FS_MAX
#define NTT_FS_MAX 12
#endif
#if !defined(NTT_FS31_VARIANTS) && !defined(NTT_FS_ONLY)
#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
NTT_KERNELS(babybear, BabyBear, 4, 3)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
NTT_KERNELS(koalabear, KoalaBear, 4, 3)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
NTT_KERNELS(goldilocks, Goldilocks, 3, 2)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
NTT_KERNELS(bn254, BN254, 2, 0)
#endif
#endif

// Four-step passes (gpu/ntt.go's nttFields says which sizes each field uses;
// transforms of one tile take the passes above). BabyBear and KoalaBear take
// ntt_fs31 (16 elements per thread, 64 registers), Goldilocks ntt_fs64 (8
// per thread: 16 spill at 64 registers and lost with 80 or 128), BN254 its
// own kernels (below). ntt_goldilocks_sh_fs* are ntt_fs64 with the radix-8
// twiddles as shifts (SH8: the forward tables of gnark-crypto's domains,
// ω^(n/8) = 2^120; DIF passes of 6 to 11 bits; nttFieldInfo.fsShift).
#ifndef NTT_FS31_VARIANTS
#if !defined(NTT_ONLY) || defined(NTT_ONLY_babybear)
#define NTT_FS_BB(NST) NTT_FS31(babybear, BabyBear, NST)
#else
#define NTT_FS_BB(NST)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_koalabear)
#define NTT_FS_KB(NST) NTT_FS31(koalabear, KoalaBear, NST)
#else
#define NTT_FS_KB(NST)
#endif
#if !defined(NTT_ONLY) || defined(NTT_ONLY_goldilocks)
#define NTT_FS_GL(NST) NTT_FS64(NST) NTT_FS64_SH(NST)
#define NTT_FS_GL12 NTT_FS64(12)
#else
#define NTT_FS_GL(NST)
#define NTT_FS_GL12
#endif
#define NTT_FS_ALL(NST) NTT_FS_BB(NST) NTT_FS_KB(NST) NTT_FS_GL(NST)
#define NTT_FS_WANT(NST) (NTT_FS_MIN <= (NST) && (NST) <= NTT_FS_MAX)
#if NTT_FS_WANT(6)
NTT_FS_ALL(6)
#endif
#if NTT_FS_WANT(7)
NTT_FS_ALL(7)
#endif
#if NTT_FS_WANT(8)
NTT_FS_ALL(8)
#endif
#if NTT_FS_WANT(9)
NTT_FS_ALL(9)
#endif
#if NTT_FS_WANT(10)
NTT_FS_ALL(10)
#endif
#if NTT_FS_WANT(11)
NTT_FS_ALL(11)
#endif
#if NTT_FS_WANT(12)
NTT_FS_BB(12) NTT_FS_KB(12) NTT_FS_GL12
#endif
#else
NTT_FS31V_7_9(babybear, BabyBear, 1)
NTT_FS31V_7_9(koalabear, KoalaBear, 1)
NTT_FS31V(babybear, BabyBear, 8, 3)
NTT_FS31V(koalabear, KoalaBear, 8, 3)
#endif

// ---------------------------------------------------------------- BN254 four-step passes

// ntt_bn254_fs is the four-step pass for BN254 with lazily reduced values
// and Shoup products (see the PTX blocks above), 2^RL elements per thread,
// no staging; a group's row holds 2^NST + 1 elements, element t at
// t ^ ((t >> RL) mod R).
// Every constant comes from one table pw of Sh8 pairs: pw[x] = ω_K^x for
// x < K = 2^pwK (ω_K = ω^(n/K), pwK = min(16, logn)), then ω^x for x <
// n/K. The inner transforms' twiddle ω_(2^(q+1))^j is pw[j·K/2^(q+1)];
// the pass twiddle ω_M^e (M = 2^(lo+NST)) is pw[e·K/M] when M ≤ K, else
// the product of pw[e'/(n/K)] and pw[K + e' mod (n/K)], e' = e·n/M (two
// Shoup products). Butterflies whose twiddle is 1 at compile time (the
// round window at bit 0) skip the product. Values stay below 2q between
// passes; the pass that writes the output reduces them (or multiplies by
// 1/n or the coset powers, a Montgomery product with a canonical result).
template <int NST, int RL, bool DIT>
__device__ __forceinline__ void ntt_bn254_fs(Fr8 *__restrict__ data, u64 colStride, const Sh8 *__restrict__ pw,
                                             u32 pwK, const Fr8 *__restrict__ pre, const Fr8 *__restrict__ post,
                                             u32 tabH, u32 logn, u32 lo, u32 logc, u32 flags) {
    typedef BN254x32 F;
    typedef Fr8 E;
    constexpr u32 R = 1u << RL;
    constexpr u32 G = 1u << NST;
    constexpr u32 ROW = G + 1;
    constexpr int NR = fs_nr(NST, RL);
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sh = reinterpret_cast<E *>(smem_raw);
    Sh8 *twS = reinterpret_cast<Sh8 *>(sh + (ROW << logc)); // stage q at G − 2^(q+1)

    E *col = data + (u64)blockIdx.y * colStride;
    const u32 nthr = (G << logc) >> RL;
    const u32 a = min(lo, logc);
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;
    const u32 tid = threadIdx.x;
    const u32 tpart = (tid >> a) & ((G >> RL) - 1);
    const u32 olocal = (tid & ((1u << a) - 1)) | ((tid >> (a + NST - RL)) << a);
    const u32 o = obase + olocal;
    const u32 low = o & lowMask;
    const u32 ibase = ((o >> lo) << (lo + NST)) | low;
    const bool last = DIT ? lo + NST == logn : lo == 0; // this pass writes the output
    E *shg = sh + olocal * ROW;
    auto swz = [](u32 t) -> u32 { return t ^ ((t >> RL) & (R - 1)); };
    // v times the pass twiddle ω_M^(low·k1) of position t
    auto passTw = [&](E v, u32 t) -> E {
        const u32 e = low * (__brev(t) >> (32 - NST)); // < M
        if (lo + NST <= pwK) return F::shoup(v, ldSh8(pw + (e << (pwK - lo - NST))));
        const u32 sa = logn - pwK;
        const u32 e2 = e << (logn - lo - NST);
        v = F::shoup(v, ldSh8(pw + (e2 >> sa)));
        return F::shoup(v, ldSh8(pw + (1u << pwK) + (e2 & ((1u << sa) - 1))));
    };

    for (u32 y = tid; y < G - 1; y += nthr) {
        const u32 q = 31 - __clz(G - 1 - y);
        twS[y] = ldSh8(pw + ((y - (G - (2u << q))) << (pwK - 1 - q)));
    }

    E x[R];
#pragma unroll
    for (int rd = 0; rd < NR; rd++) {
        const int m = fs_m(NST, NR, rd);
        const int done = fs_done(NST, NR, rd);
        const int qb = DIT ? done : NST - done - m;
        const int ws = qb < NST - RL ? qb : NST - RL;
        const u32 tbase = (tpart & ((1u << ws) - 1)) | ((tpart >> ws) << (ws + RL));
        if (rd == 0) {
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = col[ibase | ((tbase | (e << ws)) << lo)];
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 t = tbase | (e << ws);
                if (flags & F_PRE_COSET) {
                    u32 i = ibase | (t << lo);
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    x[e] = F::mul(x[e], power<F>(pre, tabH, k));
                }
                if (DIT && lo > 0) x[e] = passTw(x[e], t);
            }
            __syncthreads(); // twS
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = shg[swz(tbase | (e << ws))];
        }

#pragma unroll
        for (int kk = 0; kk < RL; kk++) {
            const int k = DIT ? kk : RL - 1 - kk;
            const int q = ws + k;
            if (q < qb || q >= qb + m) continue;
            const Sh8 *twq = twS + (G - (2u << q));
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                if (e & (1u << k)) continue;
                // the twiddle index; 0 (twiddle 1) known here when the
                // window starts at bit 0
                const u32 j = (tbase | (e << ws)) & ((1u << q) - 1);
                const bool one = q == 0 || (ws == 0 && (e & ((1u << q) - 1)) == 0);
                E v = x[e], y = x[e | (1u << k)];
                if (DIT) {
                    if (!one) y = F::shoup(y, twq[j]);
                    x[e] = F::ladd(v, y);
                    x[e | (1u << k)] = F::lsub(v, y);
                } else {
                    x[e] = F::ladd(v, y);
                    x[e | (1u << k)] = one ? F::lsub(v, y) : F::shoup(F::sub2q(v, y), twq[j]);
                }
            }
        }

        if (rd == NR - 1) {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 t = tbase | (e << ws);
                const u32 i = ibase | (t << lo);
                E v = x[e];
                if (!DIT && lo > 0) v = passTw(v, t);
                if (flags & F_POST_CONST) {
                    v = F::mul(v, post[0]);
                } else if (flags & F_POST_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(post, tabH, k));
                } else if (last) {
                    v = F::canon(v);
                }
                col[i] = v;
            }
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) shg[swz(tbase | (e << ws))] = x[e];
            __syncthreads();
        }
    }
}

// Arguments as the other four-step kernels', then pw and pwK; tw and rt
// are not read. THREADS, MINB: launch bounds (blocks per SM the registers
// must allow); RL: elements per thread (log2).
#define NTT_BN254_FS(THREADS, MINB, RL, NST)                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB) ntt_bn254_fs##NST(                     \
        Fr8 *data, u64 colStride, const Fr8 *tw, const Fr8 *rt, const Fr8 *pre, const Fr8 *post, u32 tabH, \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags, const Sh8 *pw, u32 pwK) {                     \
        if (flags & F_DIT)                                                                            \
            ntt_bn254_fs<NST, RL, true>(data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        else                                                                                          \
            ntt_bn254_fs<NST, RL, false>(data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
    }
// 4 elements per thread, 3 blocks of 256 threads per SM (80 registers;
// H100, TestPrimeVariants, 2^24 FFT DIF, the product of the block
// bn254_shoup): 3.83 ms against 4.20 ms at 2 blocks (128 registers) and
// 4.35 ms at 4 (64 registers, spills); with the product of commit 9eb4b1d
// (one accumulator per part), 3 blocks beat 2 blocks by 8%, 4 blocks and
// 2 elements per thread in blocks of 512 (64 registers) were slower.
#if !defined(NTT_FS31_VARIANTS) && !defined(NTT_FS_ONLY) && (!defined(NTT_ONLY) || defined(NTT_ONLY_bn254))
NTT_BN254_FS(256, 3, 2, 5)
NTT_BN254_FS(256, 3, 2, 6)
NTT_BN254_FS(256, 3, 2, 7)
NTT_BN254_FS(256, 3, 2, 8)
#endif
