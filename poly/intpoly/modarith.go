package intpoly

import "math/bits"

// Scalar modular arithmetic for primes p < 2^62 (both families qualify).
// Values are uint64; "lazy" values may exceed p by the multiple the caller
// tracks.

// mulMod returns a·b mod p for a, b < p.
func mulMod(a, b, p uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi, lo, p)
	return r
}

// powMod returns a^e mod p for a < p.
func powMod(a, e, p uint64) uint64 {
	r := uint64(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulMod(r, a, p)
		}
		a = mulMod(a, a, p)
	}
	return r
}

// invMod returns a^-1 mod the prime p, for 0 < a < p.
func invMod(a, p uint64) uint64 { return powMod(a, p-2, p) }

// shoupQuot returns ⌊w·2^shift/p⌋ for w < p and shift ≤ 64: the companion
// of w in Shoup's multiplication by the fixed operand w.
func shoupQuot(w, p uint64, shift uint) uint64 {
	var hi, lo uint64
	if shift == 64 {
		hi = w
	} else {
		hi, lo = w>>(64-shift), w<<shift
	}
	q, _ := bits.Div64(hi, lo, p)
	return q
}

// shoupMul returns a value ≡ a·w (mod p) in [0, 2p), for any a < 2^64,
// w < p < 2^63 and wq = shoupQuot(w, p, 64). The quotient estimate
// q = ⌊a·wq/2^64⌋ is ⌊a·w/p⌋ or one less, so a·w − q·p lies in [0, 2p) and
// the low 64 bits of the two products give it exactly.
func shoupMul(a, w, wq, p uint64) uint64 {
	q, _ := bits.Mul64(a, wq)
	return a*w - q*p
}

// mont holds the constants of Montgomery multiplication modulo p with
// R = 2^64, used for the pointwise products of two transforms (neither
// operand is fixed there, so Shoup's method does not apply).
type mont struct {
	p    uint64
	pinv uint64 // p^-1 mod 2^64
}

func newMont(p uint64) mont {
	// Newton's iteration for the inverse modulo 2^64: each step doubles
	// the number of correct low bits (p·p ≡ 1 mod 8 for odd p: 3 bits).
	inv := p
	for range 5 {
		inv *= 2 - p*inv
	}
	return mont{p: p, pinv: inv}
}

// mul returns a value ≡ a·b·2^-64 (mod p) in [0, 2p) for a·b < p·2^64.
// With m = lo(a·b)·p^-1 mod 2^64, m·p has the same low word as a·b, so
// (a·b − m·p)/2^64 = hi(a·b) − hi(m·p) exactly, and it lies in (−p, p).
func (m mont) mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	h2, _ := bits.Mul64(lo*m.pinv, m.p)
	return hi - h2 + m.p
}

// r2 returns 2^128 mod p (the constant that brings a value into
// Montgomery form with one Montgomery multiplication).
func r2(p uint64) uint64 {
	r := (-p) % p // 2^64 mod p
	return mulMod(r, r, p)
}

// log2Ceil returns ⌈log2 n⌉ for n ≥ 1.
func log2Ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// quotFn computes Shoup quotients ⌊x·2^shift/p⌋ without a division:
// r = x·2^shift mod p by one Shoup multiplication, then the exact quotient
// (x·2^shift − r)/p, which is below 2^64, as a product with p^−1 mod 2^64.
type quotFn struct {
	p, rs, rsq, pinv uint64
	shift            uint
}

func newQuotFn(p uint64, shift uint) quotFn {
	rs := uint64(1) << (shift % 64) % p // 2^shift mod p
	if shift == 64 {
		rs = (-p) % p
	}
	return quotFn{p: p, rs: rs, rsq: shoupQuot(rs, p, 64), pinv: newMont(p).pinv, shift: shift}
}

// quot returns ⌊x·2^shift/p⌋ for x < p.
func (f quotFn) quot(x uint64) uint64 {
	r := reduce2p(shoupMul(x, f.rs, f.rsq, f.p), f.p)
	var xs uint64
	if f.shift < 64 {
		xs = x << f.shift
	}
	return (xs - r) * f.pinv
}

// wideDot is Σ l[t]·w[2t] mod p for long limb vectors: the products are
// summed exactly in three words and reduced once, with one multiplication
// per limb instead of a Shoup product (three) per limb. Below wideDotMin
// limbs the Shoup sum is cheaper.
const wideDotMin = 6

type wideDot struct {
	one, r1, r2 [2]uint64 // 1, 2^64, 2^128 mod p with Shoup quotients
}

func newWideDot(p uint64) wideDot {
	r1 := (-p) % p
	r2 := mulMod(r1, r1, p)
	return wideDot{
		one: [2]uint64{1, shoupQuot(1, p, 64)},
		r1:  [2]uint64{r1, shoupQuot(r1, p, 64)},
		r2:  [2]uint64{r2, shoupQuot(r2, p, 64)},
	}
}

// wideSum returns a value below 2p ≡ Σ l[t]·w[2t] (mod p), for w[2t] < p
// and 64-bit limbs l (big.Word limbs only where they are 64 bits wide).
func wideSum[T ~uint | ~uint64](d *wideDot, l []T, w []uint64, p uint64) uint64 {
	var lo, hi, top uint64
	for t, v := range l {
		h, m := bits.Mul64(uint64(v), w[2*t])
		var c uint64
		lo, c = bits.Add64(lo, m, 0)
		hi, c = bits.Add64(hi, h, c)
		top += c
	}
	p2 := 2 * p
	acc := shoupMul(lo, d.one[0], d.one[1], p) + shoupMul(hi, d.r1[0], d.r1[1], p)
	if acc >= p2 {
		acc -= p2
	}
	acc += shoupMul(top, d.r2[0], d.r2[1], p)
	if acc >= p2 {
		acc -= p2
	}
	return acc
}
