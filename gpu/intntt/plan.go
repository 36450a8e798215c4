package intntt

import (
	"fmt"
	"math/big"
	"math/bits"
	"sync"

	"github.com/gfpoly/gfpoly/poly/intpoly"
)

const (
	maxPrimes = 256 // INTNTT_MAXK in cuda/intntt.cu
	tileLog   = 12  // INTNTT_TILE_LOG
	tileThr   = 512 // INTNTT_TILE_THREADS
	maxLog    = 27  // longest transform, log2
	r32       = uint64(1) << 32
)

// primeList returns the primes p < 2^31 with p ≡ 1 mod 2^logN, largest
// first, at most maxPrimes of them (cached per logN).
func primeList(logN int) []uint32 {
	primeMu.Lock()
	defer primeMu.Unlock()
	if ps, ok := primeCache[logN]; ok {
		return ps
	}
	var ps []uint32
	step := uint64(1) << logN
	for c := (uint64(1)<<31 - 2) >> logN; c >= 1 && len(ps) < maxPrimes; c-- {
		p := c*step + 1
		if p > 2 && big.NewInt(int64(p)).ProbablyPrime(0) {
			ps = append(ps, uint32(p))
		}
	}
	primeCache[logN] = ps
	return ps
}

var (
	primeMu    sync.Mutex
	primeCache = map[int][]uint32{}
)

func powMod(b, e, p uint64) uint64 {
	r := uint64(1)
	b %= p
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % p
		}
		b = b * b % p
	}
	return r
}

// rootOf returns a primitive 2^logN-th root of unity modulo p.
func rootOf(p uint64, logN int) uint64 {
	// Prime factors of p−1.
	var fs []uint64
	m := p - 1
	for q := uint64(2); q*q <= m; q++ {
		if m%q == 0 {
			fs = append(fs, q)
			for m%q == 0 {
				m /= q
			}
		}
	}
	if m > 1 {
		fs = append(fs, m)
	}
	for g := uint64(2); ; g++ {
		ok := true
		for _, q := range fs {
			if powMod(g, (p-1)/q, p) == 1 {
				ok = false
				break
			}
		}
		if ok {
			return powMod(g, (p-1)>>logN, p)
		}
	}
}

// consts are the constants of one plan: transforms of 2^logN points modulo
// the k largest primes of primeList(logN), the fewest whose product M
// satisfies M ≥ 2^need.
type consts struct {
	logN, k int
	p, pinv []uint32 // primes, −p^−1 mod 2^32
	one     []uint32 // R mod p
	s       []uint32 // R²/N mod p (pointwise)
	roots   []uint32 // per prime: w·R, w^−1·R mod p
	e       []uint32 // k×k: e[i*k+j] = R·∏_{l=j}^{i−1} p_l^−1 mod p_i, j < i
	m, h    []uint32 // M and (M−1)/2 in l 32-bit limbs
	l       int
}

// newConsts returns the constants of products of 2^logN points whose
// coefficients need need bits (sign included), or an error wrapping
// intpoly.ErrTooLarge naming the limit.
func newConsts(logN, need int) (*consts, error) {
	ps, err := primesFor(logN, need)
	if err != nil {
		return nil, err
	}
	k := len(ps)
	c := &consts{logN: logN, k: k, p: ps}
	M := big.NewInt(1)
	for _, p := range ps {
		M.Mul(M, new(big.Int).SetUint64(uint64(p)))
	}
	N := uint64(1) << logN
	for i := range k {
		p := uint64(c.p[i])
		c.pinv = append(c.pinv, uint32(-inv32(uint32(p))))
		R := r32 % p
		c.one = append(c.one, uint32(R))
		ninv := powMod(N, p-2, p)
		c.s = append(c.s, uint32(R*R%p*ninv%p))
		w := rootOf(p, logN)
		wi := powMod(w, p-2, p)
		c.roots = append(c.roots, uint32(w*R%p), uint32(wi*R%p))
	}
	c.e = make([]uint32, k*k)
	for i := 1; i < k; i++ {
		p := uint64(c.p[i])
		prod := r32 % p
		for j := i - 1; j >= 0; j-- {
			prod = prod * powMod(uint64(c.p[j])%p, p-2, p) % p
			c.e[i*k+j] = uint32(prod)
		}
	}
	c.l = (M.BitLen()+31)/32 + 1
	H := new(big.Int).Rsh(new(big.Int).Sub(M, big.NewInt(1)), 1)
	c.m, c.h = limbs32(M, c.l), limbs32(H, c.l)
	return c, nil
}

// primesFor returns the primes (largest first) whose product exceeds
// 2^need, for transforms of 2^logN points, or an error wrapping
// intpoly.ErrTooLarge naming the limit.
func primesFor(logN, need int) ([]uint32, error) {
	if logN > maxLog {
		return nil, fmt.Errorf("%w: a transform of 2^%d points, the GPU's longest is 2^%d", intpoly.ErrTooLarge, logN, maxLog)
	}
	ps := primeList(logN)
	M := big.NewInt(1)
	k := 0
	for M.BitLen() <= need {
		if k == len(ps) {
			return nil, fmt.Errorf("%w: coefficients of %d bits at 2^%d points, the GPU's %d primes p ≡ 1 mod 2^%d below 2^31 hold %d",
				intpoly.ErrTooLarge, need, logN, len(ps), logN, M.BitLen()-1)
		}
		M.Mul(M, new(big.Int).SetUint64(uint64(ps[k])))
		k++
	}
	return ps[:k:k], nil
}

// inv32 returns p^−1 mod 2^32 for odd p.
func inv32(p uint32) uint32 {
	x := p // correct to 3 bits
	for range 4 {
		x *= 2 - p*x
	}
	return x
}

func limbs32(x *big.Int, l int) []uint32 {
	out := make([]uint32, l)
	b := x.Bytes()
	for i := range b {
		byteIdx := len(b) - 1 - i
		out[i/4] |= uint32(b[byteIdx]) << (8 * (i % 4))
	}
	return out
}

// pw returns the reduction table of operands of W limbs: per prime, R·2^(64t)
// and R·2^(64t+32) mod p for t < W, then 2^(64W) mod p.
func (c *consts) pw(W int) []uint32 {
	out := make([]uint32, 0, c.k*(2*W+1))
	for _, q := range c.p {
		p := uint64(q)
		x := r32 % p // R·2^0
		for range 2 * W {
			out = append(out, uint32(x))
			x = x * (r32 % p) % p
		}
		out = append(out, uint32(x*powMod(r32%p, p-2, p)%p)) // 2^(64W)
	}
	return out
}

// passKind is one kind of transform launch.
type passKind int

const (
	fwd1 passKind = iota
	fwd2
	fwdTile
	inv1
	inv2
	invTile
)

var passNames = [...]string{"intntt_fwd1", "intntt_fwd2", "intntt_fwd_tile", "intntt_inv1", "intntt_inv2", "intntt_inv_tile"}

// pass is one launch: levels at stride 2^arg (fwd1, inv1), 2^arg and
// 2^(arg−1) (fwd2, inv2), or every stride below 2^arg on tiles of 2^arg.
type pass struct {
	kind passKind
	arg  int
}

// forwardPasses returns the launches of a forward transform of 2^logN
// points: two global levels a pass from the top while more than the tile
// remains, then the tile.
func forwardPasses(logN int) []pass {
	var out []pass
	lb := min(logN, tileLog)
	ls := logN - 1
	for ; ls-1 >= lb; ls -= 2 {
		out = append(out, pass{fwd2, ls})
	}
	if ls >= lb {
		out = append(out, pass{fwd1, ls})
	}
	if lb > 0 {
		out = append(out, pass{fwdTile, lb})
	}
	return out
}

// inversePasses returns the launches of an inverse transform: the tile,
// then global levels upward.
func inversePasses(logN int) []pass {
	var out []pass
	lb := min(logN, tileLog)
	if lb > 0 {
		out = append(out, pass{invTile, lb})
	}
	ls := lb
	for ; ls+1 <= logN-1; ls += 2 {
		out = append(out, pass{inv2, ls + 1})
	}
	if ls <= logN-1 {
		out = append(out, pass{inv1, ls})
	}
	return out
}

// log2Ceil returns ⌈log2 n⌉ for n ≥ 1.
func log2Ceil(n int) int { return bits.Len(uint(n - 1)) }

// natShape chooses how MulNat cuts operands of lx and ly limbs (both ≥ 1):
// chunks of c limbs, transforms of 2^logN points, the bits of a
// convolution coefficient, the plan's constants, the least of the model
// N·k·(3·log2 N + k) over c = 1 … 4.
func natShape(lx, ly int) (c int, cs *consts, err error) {
	best := 0.0
	for cc := 1; cc <= 4; cc++ {
		nx, ny := (lx+cc-1)/cc, (ly+cc-1)/cc
		logN := log2Ceil(nx + ny - 1)
		need := 128*cc + log2Ceil(min(nx, ny))
		k, e := newConsts(logN, need)
		if e != nil {
			if err == nil {
				err = e
			}
			continue
		}
		cost := float64(uint64(1)<<logN) * float64(k.k) * float64(3*logN+k.k)
		if cs == nil || cost < best {
			best, c, cs = cost, cc, k
		}
	}
	if cs != nil {
		return c, cs, nil
	}
	return 0, nil, err
}

// maxBits returns the largest bit length of |x| over the coefficients of
// p, exactly.
func maxBits(p intpoly.Packed) int {
	W := p.Width
	n := p.Len()
	out := 0
	parallel(n, 1<<14, func(lo, hi int) int {
		m := 0
		for j := lo; j < hi; j++ {
			m = max(m, coeffBits(p.Limbs[j*W:(j+1)*W]))
		}
		return m
	}, func(v int) { out = max(out, v) })
	return out
}

// coeffBits returns the bit length of |x| for the two's-complement x in l.
func coeffBits(l []uint64) int {
	sign := uint64(0)
	if l[len(l)-1]>>63 == 1 {
		sign = ^uint64(0)
	}
	t := len(l) - 1
	for t >= 0 && l[t] == sign {
		t--
	}
	if sign == 0 {
		if t < 0 {
			return 0
		}
		return 64*t + bits.Len64(l[t])
	}
	// x < 0: |x| = v + 1 with v = ^x; its length is v's, plus one when v
	// is all ones below its length (then |x| is a power of two).
	if t < 0 {
		return 1 // x = −1
	}
	v := ^l[t]
	ones := v&(v+1) == 0
	for u := 0; u < t && ones; u++ {
		ones = l[u] == 0 // ^l[u] all ones
	}
	n := 64*t + bits.Len64(v)
	if ones {
		n++
	}
	return n
}

// parallel runs f over [0, n) in ranges of at least grain on all cores and
// hands each range's result to join, one at a time.
func parallel(n, grain int, f func(lo, hi int) int, join func(int)) {
	w := min(workers(), max(n/grain, 1))
	if w <= 1 {
		join(f(0, n))
		return
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	step := (n + w - 1) / w
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		wg.Go(func() {
			v := f(lo, hi)
			mu.Lock()
			join(v)
			mu.Unlock()
		})
	}
	wg.Wait()
}
