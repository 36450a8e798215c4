// SHA-256 Merkle trees over the rows of column-major data (gpu/rowhash).
//
// A leaf is H(leafTag ‖ row), the row being the concatenation of its
// elements' byte encodings; a node is H(nodeTag ‖ left ‖ right). Columns
// arrive in groups (rh_absorb), so that a row's leaf is hashed while the
// columns of a large trace pass through the device a few at a time: each row
// keeps a streaming state between groups, and rh_finish pads the messages
// and writes the first level of nodes; rh_level builds each level above.
//
// Every element encoding is a whole number of 32-bit words, so a row is a
// stream of words x[0..R) (each the big-endian reading of 4 bytes). The one
// tag byte in front shifts it by one byte: message word j is
// (x[j-1] << 24) | (x[j] >> 8), with x[-1] the tag, x[R] = 0x80000000 (the
// padding byte 0x80) and zeros after it, and the bit length in the last two
// words of the last block.
//
// Row state, structure of arrays (word w of row r at st[w * rows + r]):
// words 0..7 the chaining value, 8..22 the message words of the partial
// block, 23 the last row word absorbed. How many row words are absorbed
// (J) is the same for every row and is a kernel parameter.

typedef unsigned int u32;
typedef unsigned long long u64;

__constant__ u32 RH_K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

__device__ __forceinline__ u32 rh_rotr(u32 x, u32 n) { return __funnelshift_r(x, x, n); }
__device__ __forceinline__ u32 rh_bswap(u32 x) { return __byte_perm(x, 0, 0x0123); }

__device__ __forceinline__ void rh_iv(u32 h[8]) {
    h[0] = 0x6a09e667u; h[1] = 0xbb67ae85u; h[2] = 0x3c6ef372u; h[3] = 0xa54ff53au;
    h[4] = 0x510e527fu; h[5] = 0x9b05688cu; h[6] = 0x1f83d9abu; h[7] = 0x5be0cd19u;
}

// rh_compress runs the SHA-256 compression function on the block w (which
// it overwrites with the message schedule). Four rounds of 16 steps: each
// step's word index is a constant (w stays in registers), and one copy of
// the 16 steps keeps the code and the first-use compile small.
__device__ __forceinline__ void rh_compress(u32 h[8], u32 w[16]) {
    u32 a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
#pragma unroll 1
    for (int r = 0; r < 64; r += 16) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
            if (r > 0) {
                u32 w1 = w[(j + 1) & 15], w14 = w[(j + 14) & 15];
                u32 s0 = rh_rotr(w1, 7) ^ rh_rotr(w1, 18) ^ (w1 >> 3);
                u32 s1 = rh_rotr(w14, 17) ^ rh_rotr(w14, 19) ^ (w14 >> 10);
                w[j] += s0 + w[(j + 9) & 15] + s1;
            }
            u32 t1 = k + (rh_rotr(e, 6) ^ rh_rotr(e, 11) ^ rh_rotr(e, 25)) + ((e & f) ^ (~e & g)) + RH_K[r + j] + w[j];
            u32 t2 = (rh_rotr(a, 2) ^ rh_rotr(a, 13) ^ rh_rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            k = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

// Element encodings: how an element in device memory becomes row words.
#define RH_GF64 0      // GF(2^64): the 8 bytes little-endian (2 words)
#define RH_GOLDILOCKS 1 // gnark-crypto Montgomery form; canonical, big-endian (2)
#define RH_BABYBEAR 2   // the same, 31-bit (1 word)
#define RH_KOALABEAR 3
#define RH_BN254 4      // BN254 scalar field, 4 limbs (8 words)

template <int ENC> struct RhEnc;

template <> struct RhEnc<RH_GF64> {
    static const int W = 2, B = 8;
    __device__ static void load(const char *p, u32 *x) {
        u64 v = *(const u64 *)p;
        x[0] = rh_bswap((u32)v);
        x[1] = rh_bswap((u32)(v >> 32));
    }
};

// Montgomery reductions (z * R^-1 mod q for a reduced z), as gnark-crypto's
// fromMont: one CIOS step per limb, then a conditional subtraction.
template <> struct RhEnc<RH_GOLDILOCKS> {
    static const int W = 2, B = 8;
    __device__ static void load(const char *p, u32 *x) {
        const u64 q = 18446744069414584321ull, qInvNeg = 18446744069414584319ull;
        u64 z = *(const u64 *)p;
        u64 m = z * qInvNeg;
        u64 lo = m * q, hi = __umul64hi(m, q);
        u64 s = lo + z;
        u64 c = hi + (s < lo);
        if (c >= q) c -= q;
        x[0] = (u32)(c >> 32);
        x[1] = (u32)c;
    }
};

template <u32 Q, u32 QINV> struct RhEnc31 {
    static const int W = 1, B = 4;
    __device__ static void load(const char *p, u32 *x) {
        u32 z = *(const u32 *)p;
        u32 m = z * QINV;
        u32 c = (u32)(((u64)m * Q + z) >> 32);
        if (c >= Q) c -= Q;
        x[0] = c;
    }
};
template <> struct RhEnc<RH_BABYBEAR> : RhEnc31<2013265921u, 2013265919u> {};
template <> struct RhEnc<RH_KOALABEAR> : RhEnc31<2130706433u, 2130706431u> {};

template <> struct RhEnc<RH_BN254> {
    static const int W = 8, B = 32;
    __device__ static void load(const char *p, u32 *x) {
        const u64 q[4] = {4891460686036598785ull, 2896914383306846353ull, 13281191951274694749ull,
                          3486998266802970665ull};
        const u64 qInvNeg = 14042775128853446655ull;
        const u64 *s = (const u64 *)p;
        u64 z[4] = {s[0], s[1], s[2], s[3]};
#pragma unroll
        for (int i = 0; i < 4; i++) {
            u64 m = z[0] * qInvNeg;
            // C, _ = m*q0 + z0; then C, z[j-1] = m*q[j] + z[j] + C.
            u64 lo = m * q[0];
            u64 C = __umul64hi(m, q[0]) + (lo + z[0] < lo);
#pragma unroll
            for (int j = 1; j < 4; j++) {
                u64 l = m * q[j], h = __umul64hi(m, q[j]);
                u64 t = l + z[j];
                h += t < l;
                u64 t2 = t + C;
                h += t2 < t;
                z[j - 1] = t2;
                C = h;
            }
            z[3] = C;
        }
        // z >= q: subtract (gnark-crypto's smallerThanModulus, then Sub).
        bool ge = z[3] > q[3] ||
                  (z[3] == q[3] && (z[2] > q[2] || (z[2] == q[2] && (z[1] > q[1] || (z[1] == q[1] && z[0] >= q[0])))));
        if (ge) {
            u64 b = 0;
#pragma unroll
            for (int j = 0; j < 4; j++) {
                u64 d = z[j] - q[j];
                u64 b1 = z[j] < q[j];
                u64 d2 = d - b;
                b = b1 | (d < b);
                z[j] = d2;
            }
        }
#pragma unroll
        for (int j = 0; j < 4; j++) {
            x[2 * j] = (u32)(z[3 - j] >> 32);
            x[2 * j + 1] = (u32)z[3 - j];
        }
    }
};

// RhCols yields row r's words of ncols columns (column c at base + c*stride
// bytes), element by element.
template <int ENC> struct RhCols {
    typedef RhEnc<ENC> E;
    const char *p;
    u64 stride;
    u32 x[E::W];
    int left;
    __device__ RhCols(const char *base, u64 stride_, u64 r) : p(base + r * E::B), stride(stride_), left(0) {}
    __device__ __forceinline__ u32 next() {
        if (left == 0) {
            E::load(p, x);
            p += stride;
            left = E::W;
        }
        u32 w = x[0];
#pragma unroll
        for (int i = 0; i + 1 < E::W; i++) x[i] = x[i + 1];
        left--;
        return w;
    }
};

// RhPad yields nothing: the padding after the last row word.
struct RhPad {
    __device__ __forceinline__ u32 next() { return 0; }
};

// rh_run feeds message words J .. J+n-1 (n > 0) to the state: h, the np = J
// mod 16 words pend of the partial block and prev = x[J-1]. Word j in [J,
// J+n) takes x[j] from src while j < R and the padding after it; when fin is
// set, J+n is the end of the message and the last block gets the length L
// bytes. Complete blocks are compressed; the words of a final partial block
// go back to pend.
template <class Src>
__device__ __forceinline__ void rh_run(u32 h[8], u32 pend[15], u32 &prev, u64 J, u64 n, u64 R, Src &src,
                                       bool fin, u64 L) {
    const u64 end = J + n;
    for (u64 b0 = J - (J & 15); b0 < end; b0 += 16) {
        u32 w[16];
#pragma unroll
        for (int k = 0; k < 16; k++) {
            const u64 j = b0 + k;
            if (j < J) {
                w[k] = pend[k < 15 ? k : 0];
            } else if (j < end) {
                u32 x = j < R ? src.next() : (j == R ? 0x80000000u : 0u);
                w[k] = (prev << 24) | (x >> 8);
                prev = x;
            } else {
                w[k] = 0;
            }
        }
        if (b0 + 16 <= end) {
            if (fin && b0 + 16 == end) {
                w[14] = (u32)((8 * L) >> 32);
                w[15] = (u32)(8 * L);
            }
            rh_compress(h, w);
        } else {
#pragma unroll
            for (int k = 0; k < 15; k++) pend[k] = w[k];
        }
    }
}

// rh_load and rh_store move row r's state.
__device__ __forceinline__ void rh_load(const u32 *st, u64 rows, u64 r, u32 h[8], u32 pend[15], u32 &prev, u32 np) {
#pragma unroll
    for (int i = 0; i < 8; i++) h[i] = st[i * rows + r];
#pragma unroll
    for (int i = 0; i < 15; i++) pend[i] = i < (int)np ? st[(8 + i) * rows + r] : 0;
    prev = st[23 * rows + r];
}

__device__ __forceinline__ void rh_store(u32 *st, u64 rows, u64 r, const u32 h[8], const u32 pend[15], u32 prev,
                                         u32 np) {
#pragma unroll
    for (int i = 0; i < 8; i++) st[i * rows + r] = h[i];
#pragma unroll
    for (int i = 0; i < 15; i++)
        if (i < (int)np) st[(8 + i) * rows + r] = pend[i];
    st[23 * rows + r] = prev;
}

// rh_absorb appends ncols columns to every row's message: J row words are
// in already (J = 0: a new message starting with the byte tag).
template <int ENC>
__device__ void rh_absorb(u32 *st, u64 rows, const char *cols, u64 stride, u32 ncols, u64 J, u32 tag) {
    for (u64 r = blockIdx.x * (u64)blockDim.x + threadIdx.x; r < rows; r += (u64)gridDim.x * blockDim.x) {
        u32 h[8], pend[15], prev;
        if (J == 0) {
            rh_iv(h);
#pragma unroll
            for (int i = 0; i < 15; i++) pend[i] = 0;
            prev = tag;
        } else {
            rh_load(st, rows, r, h, pend, prev, (u32)(J & 15));
        }
        const u64 n = (u64)ncols * RhEnc<ENC>::W;
        RhCols<ENC> src(cols, stride, r);
        rh_run(h, pend, prev, J, n, J + n, src, false, 0);
        rh_store(st, rows, r, h, pend, prev, (u32)((J + n) & 15));
    }
}

#define RH_ABSORB(name, ENC)                                                                                 \
    extern "C" __global__ void __launch_bounds__(128) rh_absorb_##name(u32 *st, u64 rows, const char *cols, \
                                                                       u64 stride, u32 ncols, u64 J, u32 tag) { \
        rh_absorb<ENC>(st, rows, cols, stride, ncols, J, tag);                                               \
    }
// gpu/rowhash loads one module per element type, with RH_ONLY_<name> defined, so
// that a first use compiles one absorb kernel (NVRTC time).
#if !defined(RH_ONLY) || defined(RH_ONLY_gf64)
RH_ABSORB(gf64, RH_GF64)
#endif
#if !defined(RH_ONLY) || defined(RH_ONLY_goldilocks)
RH_ABSORB(goldilocks, RH_GOLDILOCKS)
#endif
#if !defined(RH_ONLY) || defined(RH_ONLY_babybear)
RH_ABSORB(babybear, RH_BABYBEAR)
#endif
#if !defined(RH_ONLY) || defined(RH_ONLY_koalabear)
RH_ABSORB(koalabear, RH_KOALABEAR)
#endif
#if !defined(RH_ONLY) || defined(RH_ONLY_bn254)
RH_ABSORB(bn254, RH_BN254)
#endif

// rh_digest writes a digest's bytes (big-endian words) at out.
__device__ __forceinline__ void rh_digest(u32 *out, const u32 h[8]) {
#pragma unroll
    for (int i = 0; i < 8; i++) out[i] = rh_bswap(h[i]);
}

// rh_leaf finishes row r's message of R row words and returns its digest.
__device__ __forceinline__ void rh_leaf(const u32 *st, u64 rows, u64 r, u64 R, u32 d[8]) {
    u32 pend[15], prev;
    rh_load(st, rows, r, d, pend, prev, (u32)(R & 15));
    const u64 L = 1 + 4 * R;
    const u64 total = 16 * ((L + 9 + 63) / 64);
    RhPad pad;
    rh_run(d, pend, prev, R, total - R, R, pad, true, L);
}

// rh_node sets h to H(tag ‖ l ‖ r) for digests l and r given as their
// eight big-endian words: 65 bytes, two blocks.
__device__ __forceinline__ void rh_node(const u32 l[8], const u32 r[8], u32 tag, u32 h[8]) {
    u32 w[16];
    w[0] = (tag << 24) | (l[0] >> 8);
#pragma unroll
    for (int k = 1; k < 8; k++) w[k] = (l[k - 1] << 24) | (l[k] >> 8);
    w[8] = (l[7] << 24) | (r[0] >> 8);
#pragma unroll
    for (int k = 9; k < 16; k++) w[k] = (r[k - 9] << 24) | (r[k - 8] >> 8);
    rh_iv(h);
    rh_compress(h, w);
    w[0] = (r[7] << 24) | 0x00800000u;
#pragma unroll
    for (int k = 1; k < 15; k++) w[k] = 0;
    w[15] = 65 * 8;
    rh_compress(h, w);
}

// rh_finish finishes the leaves of rows 2i and 2i+1 (R row words each) and
// writes their parent H(nodeTag ‖ leaf ‖ leaf) to out[i] (8 words).
extern "C" __global__ void __launch_bounds__(128) rh_finish(const u32 *st, u64 rows, u64 R, u32 nodeTag, u32 *out) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < rows / 2; i += (u64)gridDim.x * blockDim.x) {
        u32 a[8], b[8], h[8];
        rh_leaf(st, rows, 2 * i, R, a);
        rh_leaf(st, rows, 2 * i + 1, R, b);
        rh_node(a, b, nodeTag, h);
        rh_digest(out + 8 * i, h);
    }
}

// rh_level writes out[i] = H(tag ‖ in[2i] ‖ in[2i+1]) for i < n.
extern "C" __global__ void __launch_bounds__(128) rh_level(const u32 *in, u64 n, u32 tag, u32 *out) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u32 l[8], r[8], h[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            l[k] = rh_bswap(in[16 * i + k]);
            r[k] = rh_bswap(in[16 * i + 8 + k]);
        }
        rh_node(l, r, tag, h);
        rh_digest(out + 8 * i, h);
    }
}

// rh_gather copies 32-bit words, dst[i] = src[idx[i]] for i < n: the rows
// and path digests that an opening of a commitment kept on the device reads.
extern "C" __global__ void __launch_bounds__(128) rh_gather(u32 *dst, const u32 *src, const u64 *idx, u64 n) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        dst[i] = src[idx[i]];
    }
}

// RhBlock is one SHA-256 message block, big-endian words.
struct RhBlock {
    u32 w[16];
};

// rh_grind is the proof-of-work search of package prover/transcript's Grind
// with SHA-256: the message 0x04 ‖ state ‖ u8(bits) ‖ le64(nonce) of 42
// bytes is one block, blk with the nonce's bytes (34 … 41) zero, its
// padding and length set. Nonces start + i, i < count, are tried; *best
// gets the smallest whose digest starts with bits (1 … 32) zero bits.
extern "C" __global__ void __launch_bounds__(128) rh_grind(RhBlock blk, u32 bits, u64 start, u64 count, unsigned long long *best) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
        u64 n = start + i;
        u32 w[16];
#pragma unroll
        for (int k = 0; k < 16; k++) w[k] = blk.w[k];
        w[8] |= (((u32)n & 0xffu) << 8) | (((u32)n >> 8) & 0xffu);
        w[9] = ((u32)(n >> 16) & 0xffu) << 24 | ((u32)(n >> 24) & 0xffu) << 16 | ((u32)(n >> 32) & 0xffu) << 8 | ((u32)(n >> 40) & 0xffu);
        w[10] |= ((u32)(n >> 48) & 0xffu) << 24 | ((u32)(n >> 56) & 0xffu) << 16;
        u32 h[8];
        rh_iv(h);
        rh_compress(h, w);
        if ((bits == 32 ? h[0] : h[0] >> (32 - bits)) == 0u) atomicMin(best, (unsigned long long)n);
    }
}
