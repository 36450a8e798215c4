package ntt64

import "math/bits"

// P is the Goldilocks prime 2^64 − 2^32 + 1.
const P uint64 = 0xffffffff00000001

// eps = 2^64 − P = 2^32 − 1: 2^64 ≡ eps (mod P).
const eps uint64 = 0xffffffff

// MaxLog is the field's 2-adicity: P − 1 = 2^32 · (2^32 − 1), so transforms
// have at most 2^32 points.
const MaxLog = 32

// Root is a primitive 2^32-th root of unity, the one gnark-crypto's
// goldilocks.Generator raises to get every smaller order: the n-point
// transforms use RootOfUnity(log2 n) = Root^(2^(32 − log2 n)).
const Root uint64 = 1753635133440165772

// add returns a + b mod P for canonical a, b (< P); the result is canonical.
// a + b = a − (P − b): no borrow means a + b ≥ P and the difference is the
// reduced sum; a borrow means a + b < P and adding P back (mod 2^64) gives it.
func add(a, b uint64) uint64 {
	d, br := bits.Sub64(a, P-b, 0)
	return d + (P & -br)
}

// sub returns a − b mod P for canonical a, b; the result is canonical.
func sub(a, b uint64) uint64 {
	d, br := bits.Sub64(a, b, 0)
	return d + (P & -br)
}

// reduce returns hi·2^64 + lo mod P, canonical, for any hi, lo. With
// 2^64 ≡ 2^32 − 1 and 2^96 ≡ −1, writing hi = hh·2^32 + hl:
// x ≡ lo − hh + hl·(2^32 − 1).
func reduce(hi, lo uint64) uint64 {
	hh := hi >> 32
	hl := hi & eps
	t0, br := bits.Sub64(lo, hh, 0)
	// A borrow left t0 = lo − hh + 2^64; subtracting eps makes it lo − hh + P,
	// which is positive since hh < 2^32.
	t0 -= eps & -br
	t1 := hl * eps // < P − 2^32
	r, c := bits.Add64(t0, t1, 0)
	// A carry dropped 2^64 ≡ eps; r + eps cannot wrap since t0 + t1 < 2^65 − 2^33.
	r += eps & -c
	if r >= P {
		r -= P
	}
	return r
}

// mul returns a·b mod P, canonical, for any a, b.
func mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return reduce(hi, lo)
}

// exp returns a^e mod P.
func exp(a, e uint64) uint64 {
	r := uint64(1)
	for ; e != 0; e >>= 1 {
		if e&1 == 1 {
			r = mul(r, a)
		}
		a = mul(a, a)
	}
	return r
}

// inverse returns a^(P−2), the inverse of a non-zero a (0 for 0).
func inverse(a uint64) uint64 { return exp(a, P-2) }

// RootOfUnity returns the primitive 2^logN-th root of unity the n = 2^logN
// point transforms use, Root^(2^(32 − logN)), canonical and not in
// Montgomery form. It panics unless 0 ≤ logN ≤ MaxLog.
func RootOfUnity(logN int) uint64 {
	if logN < 0 || logN > MaxLog {
		panic("ntt64: RootOfUnity: log size out of range")
	}
	return exp(Root, 1<<(MaxLog-logN))
}
