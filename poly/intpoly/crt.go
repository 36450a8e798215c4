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
	hd    []uint64 // the digits of (M−1)/2
	// step and cq52 (52-bit Shoup quotients of c) run the digits' inner
	// loop on vectors, where the primes are below 2^50 and step is set.
	step func(a, prev []uint64, c, cq52, p uint64)
	cq52 []uint64
}

func newCRTPlan(primes []ntPrime, step func(a, prev []uint64, c, cq52, p uint64)) *crtPlan {
	k := len(primes)
	c := &crtPlan{k: k, p: make([]uint64, k), c: make([]uint64, k*k), cq: make([]uint64, k*k)}
	if step != nil {
		c.step, c.cq52 = step, make([]uint64, k*k)
	}
	for i, q := range primes {
		c.p[i] = q.p
		for j := range i {
			v := invMod(primes[j].p%q.p, q.p)
			c.c[i*k+j], c.cq[i*k+j] = v, shoupQuot(v, q.p, 64)
			if step != nil {
				c.cq52[i*k+j] = shoupQuot(v, q.p, 52)
			}
		}
	}
	m := big.NewInt(1)
	for _, q := range primes {
		m.Mul(m, new(big.Int).SetUint64(q.p))
	}
	h := new(big.Int).Sub(m, big.NewInt(1))
	h.Rsh(h, 1)
	r := make([]uint64, k)
	var t big.Int
	for i, p := range c.p {
		r[i] = t.Mod(h, t.SetUint64(p)).Uint64()
	}
	c.hd = make([]uint64, k)
	c.digits(r, c.hd)
	return c
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

// crtBlock is how many coefficients the CRT takes at once: the digits are
// computed prime by prime over the block, in tight loops.
const crtBlock = 256

// crtScratch is one goroutine's working space for the CRT.
type crtScratch struct {
	alpha []uint64 // alpha[i·crtBlock + j]: digit i of coefficient j
	x     []uint64 // k+1 limbs
}

func (c *crtPlan) newScratch() *crtScratch {
	return &crtScratch{alpha: make([]uint64, c.k*crtBlock), x: make([]uint64, c.k+1)}
}

// digitsBlock computes the digits of the coefficients lo … lo+n−1 (n ≤
// crtBlock) from their residues res[i][·] < 2p_i, first multiplied by
// us[2i] (Shoup quotient us[2i+1]) when us is not nil.
func (c *crtPlan) digitsBlock(res [][]uint64, lo, n int, us []uint64, s *crtScratch) {
	k := c.k
	for i := range k {
		p := c.p[i]
		p2 := 2 * p
		a := s.alpha[i*crtBlock : i*crtBlock+n]
		copy(a, res[i][lo:lo+n])
		if us != nil {
			u, uq := us[2*i], us[2*i+1]
			for j, v := range a {
				a[j] = shoupMul(v, u, uq, p)
			}
		}
		for jj := range i {
			// alpha_jj < p_jj < 2^bits ≤ 2p, so a − alpha_jj + 2p lies in (0, 4p).
			cc, cq := c.c[i*k+jj], c.cq[i*k+jj]
			prev := s.alpha[jj*crtBlock : jj*crtBlock+n]
			if c.step != nil {
				c.step(a, prev, cc, c.cq52[i*k+jj], p)
				continue
			}
			for j, v := range a {
				a[j] = shoupMul(v-prev[j]+p2, cc, cq, p)
			}
		}
		for j, v := range a {
			a[j] = min(v, v-p) // v − p wraps around when v < p
		}
	}
}

// coeff sets s.x to |X| for coefficient j of the block and returns its
// number of significant limbs and, when signed, whether the symmetric
// representative X − M is taken (X > (M−1)/2). Mixed-radix digits compare
// like positional ones, most significant (α_(k−1)) first, so the sign comes
// from the digits of (M−1)/2; and M−1−X has the digits p_i−1−α_i (no
// borrows), so |X − M| = M − X has those digits plus one.
func (c *crtPlan) coeff(s *crtScratch, j int, signed bool) (int, bool) {
	k := c.k
	neg := false
	if signed {
		for i := k - 1; i >= 0; i-- {
			a := s.alpha[i*crtBlock+j]
			if a != c.hd[i] {
				neg = a > c.hd[i]
				break
			}
		}
	}
	digit := func(i int) uint64 {
		a := s.alpha[i*crtBlock+j]
		if !neg {
			return a
		}
		if i == 0 {
			return c.p[0] - a
		}
		return c.p[i] - 1 - a
	}
	x := s.x
	x[0] = digit(k - 1)
	n := 1
	for i := k - 2; i >= 0; i-- {
		carry := digit(i)
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
	return n, neg
}
