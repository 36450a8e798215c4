package intpoly

import (
	"math/big"
	"math/bits"
)

// crtPlan holds the constants of Chinese remaindering over the primes
// p_0 > p_1 > … > p_(k−1) of a plan, by Garner's mixed-radix method: the
// residues r_i give digits α_i < p_i with
//
//	X = α_0 + p_0·(α_1 + p_1·(α_2 + … + p_(k−2)·α_(k−1)))
//
// where α_i = (…((r_i − α_0)·c_0i − α_1)·c_1i − … − α_(i−1))·c_(i−1)i mod p_i
// and c_ji = p_j^−1 mod p_i. X is the unique value in [0, M), M = Π p_i,
// with those residues; a signed result is X, or X − M when X > (M−1)/2.
type crtPlan struct {
	k     int
	p     []uint64
	c, cq []uint64 // c[i·k+j] = p_j^−1 mod p_i (j < i) and its Shoup quotient
	m     []uint64 // M in k limbs
	half  []uint64 // (M−1)/2 in k limbs
	mBits int      // bit length of M
}

func newCRTPlan(primes []ntPrime) *crtPlan {
	k := len(primes)
	c := &crtPlan{k: k, p: make([]uint64, k), c: make([]uint64, k*k), cq: make([]uint64, k*k)}
	for i, q := range primes {
		c.p[i] = q.p
		for j := range i {
			v := invMod(primes[j].p%q.p, q.p)
			c.c[i*k+j], c.cq[i*k+j] = v, shoupQuot(v, q.p, 64)
		}
	}
	m := big.NewInt(1)
	for _, q := range primes {
		m.Mul(m, new(big.Int).SetUint64(q.p))
	}
	c.mBits = m.BitLen()
	c.m = limbsOf(m, k)
	h := new(big.Int).Sub(m, big.NewInt(1))
	c.half = limbsOf(h.Rsh(h, 1), k)
	return c
}

// limbsOf returns |x| as n little-endian 64-bit limbs (x must fit).
func limbsOf(x *big.Int, n int) []uint64 {
	out := make([]uint64, n)
	ws := x.Bits()
	for t := range n {
		if t < nlimbs(ws) {
			out[t] = limb(ws, t)
		}
	}
	return out
}

// digits sets alpha to the mixed-radix digits of the residues r[i] < 2p_i.
func (c *crtPlan) digits(r, alpha []uint64) {
	k := c.k
	alpha[0] = reduce2p(r[0], c.p[0])
	for i := 1; i < k; i++ {
		p := c.p[i]
		p2 := 2 * p
		t := r[i] // < 2p throughout
		ci, cqi := c.c[i*k:i*k+i], c.cq[i*k:i*k+i]
		for j, a := range alpha[:i] {
			// a < p_j < 2^bits ≤ 2p (the primes share their top bit), so
			// t − a + 2p lies in (0, 4p).
			t = shoupMul(t-a+p2, ci[j], cqi[j], p)
		}
		alpha[i] = reduce2p(t, p)
	}
}

// value sets x (k limbs) to X from the digits and returns how many limbs
// are significant.
func (c *crtPlan) value(alpha, x []uint64) int {
	k := c.k
	x[0] = alpha[k-1]
	n := 1
	for i := k - 2; i >= 0; i-- {
		// x = x·p_i + α_i
		carry := alpha[i]
		p := c.p[i]
		for t := range n {
			hi, lo := bits.Mul64(x[t], p)
			var cc uint64
			lo, cc = bits.Add64(lo, carry, 0)
			x[t] = lo
			carry = hi + cc
		}
		if carry != 0 {
			x[n] = carry
			n++
		}
	}
	for n > 0 && x[n-1] == 0 {
		n--
	}
	return n
}

// signed turns x (n significant limbs of k) into its symmetric
// representative: when X > (M−1)/2 it sets x to M − X and reports true.
// It returns the new significant length.
func (c *crtPlan) signed(x []uint64, n int) (int, bool) {
	if !greater(x[:n], c.half) {
		return n, false
	}
	var b uint64
	for t := range c.k {
		var xt uint64
		if t < n {
			xt = x[t]
		}
		x[t], b = bits.Sub64(c.m[t], xt, b)
	}
	n = c.k
	for n > 0 && x[n-1] == 0 {
		n--
	}
	return n, true
}

// greater reports whether a > b, as little-endian limbs; a is normalized
// (no zero top limb), b may have zero top limbs.
func greater(a, b []uint64) bool {
	nb := len(b)
	for nb > 0 && b[nb-1] == 0 {
		nb--
	}
	if len(a) != nb {
		return len(a) > nb
	}
	for t := nb - 1; t >= 0; t-- {
		if a[t] != b[t] {
			return a[t] > b[t]
		}
	}
	return false
}
