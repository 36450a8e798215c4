package intpoly

import (
	"fmt"
	"math/big"
	"sync"
)

// A plan fixes everything about one shape of product: the kernels, the
// transform length 2^logN, the primes (as many as the bound on the
// product's coefficients needs), their twiddle tables, the constants that
// reduce inputs and the CRT constants. Plans are immutable after newPlan and
// safe for concurrent use; the residue buffers belong to each call.
type plan struct {
	ks      *kernels
	logN    int
	primes  []ntPrime
	tw      []*twiddles
	crt     *crtPlan
	scaleB  []uint64 // 2^montShift / N mod p_i: the factor folded into operand b
	workers int
}

// needBitsSigned returns the bits a CRT modulus needs, M ≥ 2^need, to
// recover coefficients of a signed product exactly: the product of
// polynomials with |a_i| < 2^bitsA, |b_j| < 2^bitsB and at most terms
// products per coefficient has |c| < terms·2^(bitsA+bitsB), and the
// symmetric representative recovers values with |c| ≤ (M−1)/2.
func needBitsSigned(bitsA, bitsB, terms int) int {
	return bitsA + bitsB + log2Ceil(terms) + 1
}

// primeCount returns the least k with M = p_0⋯p_(k−1) ≥ 2^need, i.e.
// bitlen(M) − 1 ≥ need.
func primeCount(f *primeFamily, need int) (int, error) {
	// Every prime exceeds 2^(bits−1): k primes meet k·(bits−1) for sure,
	// and the full list is only generated when need comes near its end.
	if need > maxPrimes*int(f.bits-1) && need > f.capBits(maxPrimes) {
		return 0, capacityErr(f, need)
	}
	// The least k with capBits(k) ≥ need, by bisection (capBits grows
	// with k).
	lo, hi := 1, min(maxPrimes, need/int(f.bits-1)+1)
	for lo < hi {
		mid := (lo + hi) / 2
		if f.capBits(mid) >= need {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, nil
}

func capacityErr(f *primeFamily, need int) error {
	return fmt.Errorf("%w: the product's coefficients need a CRT modulus of %d bits; %d primes of %d bits give %d",
		ErrTooLarge, need+1, maxPrimes, f.bits, f.capBits(maxPrimes)+1)
}

// twiddle tables of lengths up to 2^twCacheLog stay cached for the life of
// the process (at most 2^twCacheLog·16 bytes per prime). Of the longer
// ones, those of the most recent length stay too, up to twLargeMax bytes in
// all, and a product of another long length replaces them: repeated
// products of one large size (MulBig of 2^28-bit integers needs 11 tables
// of 2^21 points, 350 MB, which took a tenth of its time to build) reuse
// them; the rest belong to the plan that built them.
const (
	twCacheLog = 16
	twLargeMax = 1 << 30
)

var twLarge struct {
	sync.Mutex
	logN  int
	bytes int
	m     map[twKey]*twiddles
}

type twKey struct {
	ks   *kernels
	p    uint64
	logN int
}

var twCache sync.Map // twKey → *twiddles

func (ks *kernels) twiddlesFor(q ntPrime, logN int) *twiddles {
	if logN > twCacheLog {
		return ks.largeTwiddles(q, logN)
	}
	key := twKey{ks, q.p, logN}
	if t, ok := twCache.Load(key); ok {
		return t.(*twiddles)
	}
	t, _ := twCache.LoadOrStore(key, newTwiddles(q, ks.family.maxLog, logN, ks.shoupShift, ks.soa))
	return t.(*twiddles)
}

// largeTwiddles returns the tables of a transform longer than
// 2^twCacheLog, from twLarge or built (and kept there when the length is
// the most recent one and the bytes allow).
func (ks *kernels) largeTwiddles(q ntPrime, logN int) *twiddles {
	key := twKey{ks, q.p, logN}
	twLarge.Lock()
	t, ok := twLarge.m[key]
	twLarge.Unlock()
	if ok {
		return t
	}
	t = newTwiddles(q, ks.family.maxLog, logN, ks.shoupShift, ks.soa)
	size := 8 * (len(t.fwd) + len(t.inv))
	twLarge.Lock()
	defer twLarge.Unlock()
	if twLarge.m == nil || twLarge.logN != logN {
		twLarge.m, twLarge.logN, twLarge.bytes = map[twKey]*twiddles{}, logN, 0
	}
	if old, ok := twLarge.m[key]; ok {
		return old
	}
	if twLarge.bytes+size <= twLargeMax {
		twLarge.m[key] = t
		twLarge.bytes += size
	}
	return t
}

// newPlan returns the plan of a product whose coefficients need a CRT
// modulus M ≥ 2^need, on transforms of length 2^logN.
func newPlan(ks *kernels, need, logN, workers int) (*plan, error) {
	if logN > ks.family.maxLog {
		return nil, fmt.Errorf("%w: the product needs a transform of length 2^%d; the longest is 2^%d",
			ErrTooLarge, logN, ks.family.maxLog)
	}
	k, err := primeCount(ks.family, need)
	if err != nil && ks != genericKernels {
		// The 62-bit family reaches further: the limits are the same on
		// every path.
		ks = genericKernels
		k, err = primeCount(ks.family, need)
	}
	if err != nil {
		return nil, err
	}
	pl := &plan{ks: ks, logN: logN, primes: ks.family.get(k), workers: workers}
	pl.tw = make([]*twiddles, k)
	pl.scaleB = make([]uint64, k)
	parallelFor(workers, k, func(i int) {
		q := pl.primes[i]
		pl.tw[i] = ks.twiddlesFor(q, logN)
		// 2^montShift·N^−1 mod p.
		s := powMod(2, uint64(ks.montShift), q.p)
		pl.scaleB[i] = mulMod(s, invMod(powMod(2, uint64(logN), q.p), q.p), q.p)
	})
	pl.crt = ks.family.crtFor(k)
	return pl, nil
}

// wordPowers returns, for each prime, the pairs (2^(64t)·s_i mod p_i, Shoup
// quotient) for t < words, followed by the pair for t = words (the weight of
// the sign in a two's-complement number of that many limbs), where s_i is
// scale[i] (1 when scale is nil).
func (pl *plan) wordPowers(words int, scale []uint64) [][]uint64 {
	return pl.powers(words, 64, 64, scale)
}

// digitPowers is wordPowers for digits of db bits, with Shoup quotients
// of the kernels' width (as kernels.sumDigits takes them).
func (pl *plan) digitPowers(digits, db int, scale []uint64) [][]uint64 {
	return pl.powers(digits, db, pl.ks.shoupShift, scale)
}

// powers returns, for each prime, the pairs (2^(db·t)·s_i mod p_i, its
// Shoup quotient of width shift) for t ≤ n.
func (pl *plan) powers(n, db int, shift uint, scale []uint64) [][]uint64 {
	out := make([][]uint64, len(pl.primes))
	for i, q := range pl.primes {
		p := q.p
		r := powMod(2, uint64(db), p) // 2^db mod p
		v := uint64(1)
		if scale != nil {
			v = scale[i]
		}
		pw := make([]uint64, 2*(n+1))
		for t := range n + 1 {
			pw[2*t], pw[2*t+1] = v, shoupQuot(v, p, shift)
			v = mulMod(v, r, p)
		}
		out[i] = pw
	}
	return out
}

// residueBuffers returns k vectors of 2^logN residues for each operand
// (one operand when squaring), from one buffer of residuePool, and a
// function that returns the buffer there. The vectors hold whatever the
// buffer held before: callers write every element before reading it.
func (pl *plan) residueBuffers(square bool) (ra, rb [][]uint64, release func()) {
	n := 1 << pl.logN
	k := len(pl.primes)
	ops := 2
	if square {
		ops = 1
	}
	bp := getResidues(ops * k * n)
	buf := *bp
	ra = make([][]uint64, k)
	for i := range ra {
		ra[i] = buf[i*n : (i+1)*n : (i+1)*n]
	}
	if !square {
		rb = make([][]uint64, k)
		for i := range rb {
			rb[i] = buf[(k+i)*n : (k+i+1)*n : (k+i+1)*n]
		}
	}
	return ra, rb, func() { residuePool.Put(bp) }
}

// residuePool keeps residue buffers between products (Mul and MulBig):
// a large product's buffers (370 MB for 2^28-bit integers) cost more to
// map and fault in afresh than to transform, and the runtime hands large
// fresh allocations back zeroed, serially. The pool lets the garbage
// collector take them back once they go unused for two cycles.
var residuePool sync.Pool // of *[]uint64

// getResidues returns a buffer of n elements, from residuePool when the
// one there is large enough (a smaller one is dropped).
func getResidues(n int) *[]uint64 {
	if bp, ok := residuePool.Get().(*[]uint64); ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]uint64, n)
	adviseHuge(b)
	return &b
}

// reduceChunk is how many coefficients one reduction or CRT task takes.
const reduceChunk = 2048

// reduceBig writes into dst[i] the residues modulo p_i of a[j]·s_i (s_i =
// scale[i], or 1), below 4p, followed by zeros up to pl.inputEnd(len(a)).
// Every |a[j]| has at most words limbs.
func (pl *plan) reduceBig(dst [][]uint64, a []*big.Int, words int, scale []uint64) {
	pw := pl.wordPowers(words, scale)
	n := len(a)
	tasks := (n + reduceChunk - 1) / reduceChunk
	parallelFor(pl.workers, tasks+len(dst), func(t int) {
		if t >= tasks {
			clear(dst[t-tasks][n:pl.inputEnd(n)])
			return
		}
		lo, hi := t*reduceChunk, min(n, (t+1)*reduceChunk)
		for i, q := range pl.primes {
			p, p2 := q.p, 2*q.p
			w := pw[i]
			d := dst[i]
			wd := newWideDot(p)
			for j := lo; j < hi; j++ {
				x := a[j]
				ws := x.Bits()
				var acc uint64
				if nl := nlimbs(ws); nl >= wideDotMin && wordBits == 64 {
					acc = wideSum(&wd, ws, w, p)
				} else {
					for l := range nl {
						acc += shoupMul(limb(ws, l), w[2*l], w[2*l+1], p)
						if acc >= p2 {
							acc -= p2
						}
					}
				}
				if x.Sign() < 0 {
					acc = p2 - acc
				}
				d[j] = acc
			}
		}
	})
}

// outScale returns, per prime, 2^montShift/N mod p and its Shoup quotient:
// the factor a squaring's residues still carry after convolve.
func (pl *plan) outScale() []uint64 {
	u := make([]uint64, 2*len(pl.primes))
	for i, q := range pl.primes {
		u[2*i], u[2*i+1] = pl.scaleB[i], shoupQuot(pl.scaleB[i], q.p, 64)
	}
	return u
}

// recoverBig turns the first m convolution values (residues in res) into
// n *big.Int (the last n−m are zero), each with at most outW limbs.
func (pl *plan) recoverBig(res [][]uint64, n, m, outW int, square bool) []*big.Int {
	store := make([]big.Int, n)
	out := make([]*big.Int, n)
	for i := range out {
		out[i] = &store[i]
	}
	words := make([]big.Word, m*outW*wordsPerLimb)
	var us []uint64
	if square {
		us = pl.outScale()
	}
	const chunk = 16 * crtBlock
	parallelFor(pl.workers, ceilDiv(m, chunk), func(t int) {
		s := pl.crt.newScratch()
		for j := t * chunk; j < min(m, (t+1)*chunk); j++ {
			if j%crtBlock == 0 {
				pl.crt.digitsBlock(res, j, min(m-j, crtBlock), us, s)
			}
			l, neg := pl.crt.coeff(s, j%crtBlock, true)
			if l > outW {
				panic("intpoly: coefficient wider than its bound") // a bug, not bad input
			}
			w := words[j*outW*wordsPerLimb : (j*outW+l)*wordsPerLimb : (j+1)*outW*wordsPerLimb]
			putLimbs(w, s.x[:l])
			store[j].SetBits(w)
			if neg {
				store[j].Neg(&store[j])
			}
		}
	})
	return out
}
