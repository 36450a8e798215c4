package intpoly

import (
	"math/big"
	"sync"
)

// A primeFamily is an ordered list of NTT-friendly primes p = c·2^maxLog + 1
// just below 2^bits, largest first: the moduli of the multi-modular
// products. Each prime supports transforms of every length 2^L, L ≤ maxLog.
// The list grows on demand (a product needs as many primes as its
// coefficient bound asks for) and is the same on every machine: the primes
// are found by a deterministic descending search, with
// big.Int.ProbablyPrime(0), which is exact (Baillie–PSW) below 2^64.
type primeFamily struct {
	bits   uint // every prime lies in (2^(bits−1), 2^bits)
	maxLog int  // 2^maxLog divides p−1

	mu     sync.Mutex
	primes []ntPrime
	next   uint64 // the next c to try, descending
	// prefixBits[i] = bitlen(p_0⋯p_i) − 1, and prod that product.
	prefixBits []int
	prod       *big.Int

	crts sync.Map // k → *crtPlan over the first k primes

	// garnerStep, when not nil, runs one step of the CRT digits on a
	// vector (as crtPlan.digitsBlock's inner loop does, with 52-bit Shoup
	// quotients): the IFMA kernels set it for the 50-bit family.
	garnerStep func(a, prev []uint64, c, cq52, p uint64)
}

// crtFor returns the CRT constants of the first k primes, computed once.
func (f *primeFamily) crtFor(k int) *crtPlan {
	if c, ok := f.crts.Load(k); ok {
		return c.(*crtPlan)
	}
	c, _ := f.crts.LoadOrStore(k, newCRTPlan(f.get(k), f.garnerStep))
	return c.(*crtPlan)
}

// capBits returns bitlen(p_0⋯p_(k−1)) − 1: the need (M ≥ 2^need) that k
// primes meet.
func (f *primeFamily) capBits(k int) int {
	f.get(k)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prefixBits[k-1]
}

// ntPrime is one modulus with a primitive 2^maxLog-th root of unity.
type ntPrime struct {
	p    uint64
	root uint64 // of order exactly 2^maxLog
}

// maxPrimes bounds how many primes a product may use (and so the CRT
// capacity: about maxPrimes·(bits−1) bits for the coefficients of the
// product).
const maxPrimes = 512

// The two families. Transform lengths go up to 2^28 in both.
var (
	// primes62 serves the pure-Go kernels: p < 2^62 keeps Harvey's lazy
	// butterflies (values below 4p) inside 64 bits.
	primes62 = newPrimeFamily(62, 28)
	// primes50 serves the AVX-512 IFMA kernels: p < 2^50 keeps values
	// below 4p inside the 52 bits that VPMADD52LUQ/HUQ multiply.
	primes50 = newPrimeFamily(50, 28)
)

func newPrimeFamily(bits uint, maxLog int) *primeFamily {
	return &primeFamily{bits: bits, maxLog: maxLog, next: (uint64(1)<<bits - 1) >> maxLog}
}

// get returns the first n primes of the family (n ≤ maxPrimes).
func (f *primeFamily) get(n int) []ntPrime {
	f.mu.Lock()
	defer f.mu.Unlock()
	var x big.Int
	for len(f.primes) < n {
		c := f.next
		f.next--
		p := c<<f.maxLog + 1
		if p>>(f.bits-1) == 0 {
			panic("intpoly: prime family exhausted") // unreachable for maxPrimes
		}
		if !x.SetUint64(p).ProbablyPrime(0) {
			continue
		}
		f.primes = append(f.primes, ntPrime{p: p, root: twoAdicRoot(p, f.maxLog)})
		if f.prod == nil {
			f.prod = big.NewInt(1)
		}
		f.prod.Mul(f.prod, &x)
		f.prefixBits = append(f.prefixBits, f.prod.BitLen()-1)
	}
	return f.primes[:n:n]
}

// twoAdicRoot returns an element of order exactly 2^k modulo the prime p,
// where 2^k divides p−1: g^((p−1)/2^k) for the least g that is not a square
// (then the power has order 2^k, since its 2^(k−1)-th power is −1).
func twoAdicRoot(p uint64, k int) uint64 {
	for g := uint64(2); ; g++ {
		if powMod(g, (p-1)/2, p) == p-1 {
			return powMod(g, (p-1)>>k, p)
		}
	}
}

// rootOfUnity returns the primitive 2^logN-th root of unity that transforms
// of length 2^logN use modulo q: the family's root raised to
// 2^(maxLog−logN), so that the roots of all lengths are powers of one another.
func (q ntPrime) rootOfUnity(logN, maxLog int) uint64 {
	w := q.root
	for range maxLog - logN {
		w = mulMod(w, w, q.p)
	}
	return w
}
