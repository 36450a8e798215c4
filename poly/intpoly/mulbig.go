package intpoly

import (
	"fmt"
	"math/big"
	"math/bits"
)

// mulBigCrossover, when not 0, replaces the kernels' crossover
// (kernels.crossover): a variable only so that tests can move it.
var mulBigCrossover = 0

// crossover returns the size, in bits of the smaller operand, from which
// MulBig multiplies by transforms.
func crossover() int {
	if mulBigCrossover != 0 {
		return mulBigCrossover
	}
	return activeKernels().crossover
}

// MulBig returns the exact product x·y as a new *big.Int; x and y are not
// modified. When both operands have at least the crossover's bits (about
// 2^16 with IFMA, 2^17.6 in pure Go) it cuts |x| and |y| into chunks of b bits, multiplies the chunk
// polynomials modulo k primes by transforms, recovers each convolution
// coefficient by CRT and adds them at their offsets; below that it calls
// big.Int.Mul. The chunk size, the number of primes and the transform
// length minimise a cost model (doc.go). It returns an error wrapping ErrNil
// for a nil operand and ErrTooLarge past the longest transform.
func MulBig(x, y *big.Int, opts ...Option) (*big.Int, error) {
	if x == nil || y == nil {
		return nil, fmt.Errorf("%w: MulBig operand", ErrNil)
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if min(x.BitLen(), y.BitLen()) < crossover() {
		return new(big.Int).Mul(x, y), nil
	}
	xl, yl := natLimbs(x), natLimbs(y)
	ws := make([]big.Word, (len(xl)+len(yl))*wordsPerLimb)
	z := limbsOf(ws)
	if cfg.acc != nil {
		if err := cfg.acc.MulNat(z, xl, yl); err != nil {
			return nil, fmt.Errorf("intpoly: MulBig on the accelerator: %w", err)
		}
	} else if err := mulNat(z, xl, yl, x.BitLen(), y.BitLen(), x == y, cfg.workers); err != nil {
		return nil, err
	}
	if wordBits != 64 {
		putLimbs(ws, z)
	}
	r := new(big.Int).SetBits(ws)
	if x.Sign()*y.Sign() < 0 {
		r.Neg(r)
	}
	return r, nil
}

// natLimbs returns |x| as 64-bit limbs: x's own words on 64-bit platforms
// (read only), a copy on 32-bit ones.
func natLimbs(x *big.Int) []uint64 {
	ws := x.Bits()
	if wordBits == 64 {
		return limbsOf(ws)
	}
	out := make([]uint64, nlimbs(ws))
	for t := range out {
		out[t] = limb(ws, t)
	}
	return out
}

// intPlanFor chooses the chunk size b and the plan of a product of
// integers of bx and by bits: for each number of primes k it takes the
// largest b for which a convolution coefficient (below
// min(nx, ny)·2^(2b), nx = ⌈bx/b⌉) fits under M, and keeps the k whose
// transform length N and CRT cost are cheapest by the model
//
//	N·(c·k·(1.5·log2 N + 2) + 0.75·k² + d)   (in scalar Shoup products)
//
// where c is the kernels' cost of a butterfly and d that of the
// per-coefficient work besides the CRT (chunking, carries). The constants
// come from timing forced choices of k on the development machine: in pure
// Go c = 1, d = 40 (at 2^20 and 2^24 bits, where the model's pick was the
// fastest or within 10% of it); for IFMA c = 0.18, d = 18, fitted to the
// phases' times at 2^28 bits (two cores: 6 primes 0.40 s against 0.45 s for
// the 11 of the earlier constants), and 6 primes are also the fastest or
// within 10% of it at 2^20 and 2^24 bits.
func intPlanFor(ks *kernels, bx, by, workers int) (*plan, int, error) {
	bestCost, bestK, bestB, bestLog := 0.0, 0, 0, 0
	for k := 2; k <= 24; k++ {
		capBits := ks.family.capBits(k)
		b := capBits / 2
		for b > 0 && 2*b+log2Ceil(min(ceilDiv(bx, b), ceilDiv(by, b))) > capBits {
			b--
		}
		if b == 0 {
			continue
		}
		logN := log2Ceil(ceilDiv(bx, b) + ceilDiv(by, b) - 1)
		n := float64(int(1) << logN)
		cost := n * (ks.bflyCost*float64(k)*(1.5*float64(logN)+2) + 0.75*float64(k*k) + ks.coefCost)
		if bestK == 0 || cost < bestCost {
			bestCost, bestK, bestB, bestLog = cost, k, b, logN
		}
	}
	// The plan's own prime count for need = capacity of bestK primes.
	need := 2*bestB + log2Ceil(min(ceilDiv(bx, bestB), ceilDiv(by, bestB)))
	pl, err := newPlan(ks, need, bestLog, workers)
	return pl, bestB, err
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// mulNat sets z to x·y (z zeroed, len(z) = len(x)+len(y)) through chunk
// polynomials.
func mulNat(z, x, y []uint64, bx, by int, square bool, workers int) error {
	pl, b, err := intPlanFor(activeKernels(), bx, by, workers)
	if err != nil {
		return err
	}
	nx, ny := ceilDiv(bx, b), ceilDiv(by, b)
	ra, rb, release := pl.residueBuffers(square)
	defer release()
	pl.reduceChunks(ra, x, nx, b, nil)
	if !square {
		pl.reduceChunks(rb, y, ny, b, pl.scaleB)
	}
	pl.convolve(ra, rb, nx, ny)
	pl.carry(z, ra, nx+ny-1, b, square)
	return nil
}

// reduceChunks writes into dst[i] the residues of the n chunks of b bits
// of the limbs x (chunk j = bits [j·b, (j+1)·b)), times scale[i] (or 1).
// A task cuts its chunks into digits of the kernels' digitBits once, digit
// by digit, then sums the digits times their weights prime by prime.
func (pl *plan) reduceChunks(dst [][]uint64, x []uint64, n, b int, scale []uint64) {
	ks := pl.ks
	db := int(ks.digitBits)
	pieces := ceilDiv(b, db)
	pw := pl.digitPowers(pieces, db, scale)
	tasks := ceilDiv(n, reduceChunk)
	scratch := make([][]uint64, min(pl.workers, tasks+len(dst)))
	parallelForW(pl.workers, tasks+len(dst), func(w, t int) {
		if t >= tasks {
			clear(dst[t-tasks][n:pl.inputEnd(n)])
			return
		}
		lo, hi := t*reduceChunk, min(n, (t+1)*reduceChunk)
		cnt := hi - lo
		if scratch[w] == nil {
			scratch[w] = make([]uint64, pieces*(reduceChunk+1))
		}
		// pcs[l·cnt + j] is digit l of chunk lo+j.
		pcs := scratch[w][:pieces*cnt]
		piece := scratch[w][pieces*reduceChunk:][:pieces]
		for j := range cnt {
			chunkAt(piece, x, (lo+j)*b, b, db)
			for l, v := range piece {
				pcs[l*cnt+j] = v
			}
		}
		for i, q := range pl.primes {
			ks.sumDigits(dst[i][lo:hi], pcs, pw[i], q.p)
		}
	})
}

// sumDigitsGeneric is kernels.sumDigits with 64-bit digits and Shoup
// quotients.
func sumDigitsGeneric(d, dg, w []uint64, p uint64) {
	n := len(d)
	pieces := len(dg) / n
	p2 := 2 * p
	for j, v := range dg[:n] {
		d[j] = shoupMul(v, w[0], w[1], p)
	}
	// Each product is below 2p: where pieces of them fit in 64 bits (the
	// 50-bit primes), they are summed without reductions and the sum
	// reduced once, by a Shoup product with 1; otherwise each partial sum
	// is brought below 2p.
	lazy := uint64(pieces) <= ^uint64(0)/p2
	for l := 1; l < pieces; l++ {
		wl, ql := w[2*l], w[2*l+1]
		src := dg[l*n : (l+1)*n]
		if lazy {
			for j, v := range src {
				d[j] += shoupMul(v, wl, ql, p)
			}
			continue
		}
		for j, v := range src {
			a := d[j] + shoupMul(v, wl, ql, p)
			if a >= p2 {
				a -= p2
			}
			d[j] = a
		}
	}
	if lazy && pieces > 1 {
		one, oneQ := uint64(1), shoupQuot(1, p, 64)
		for j, v := range d {
			d[j] = shoupMul(v, one, oneQ, p)
		}
	}
}

// chunkAt sets piece to the b bits of x starting at bit off, as digits
// of db ≤ 64 bits (bits past the end of x are zero).
func chunkAt(piece, x []uint64, off, b, db int) {
	for l := range piece {
		o := off + db*l
		w, s := o/64, uint(o%64)
		var v uint64
		if w < len(x) {
			v = x[w] >> s
		}
		if s != 0 && w+1 < len(x) {
			v |= x[w+1] << (64 - s)
		}
		if rest := min(db, b-db*l); rest < 64 {
			v &= 1<<uint(rest) - 1
		}
		piece[l] = v
	}
}

// carry recovers the m convolution coefficients in res by CRT and sets z
// (zeroed on entry) to the sum of coefficient j·2^(j·b0). Task t recovers
// the coefficients [lo, hi) into a private sum that starts at limb
// base = ⌊lo·b0/64⌋, stores its limbs below the next task's base into z
// (only it writes those) and keeps the few above as its tail; the tails
// are added in afterwards.
func (pl *plan) carry(z []uint64, res [][]uint64, m, b0 int, square bool) {
	var us []uint64
	if square {
		us = pl.outScale()
	}
	k := len(pl.primes)
	const chunk = 4 * reduceChunk
	tasks := ceilDiv(m, chunk)
	baseOf := func(t int) int { return min(m, t*chunk) * b0 / 64 }
	accLen := (chunk*b0+64*(k+1))/64 + 2
	accs := make([][]uint64, min(pl.workers, tasks))
	scratch := make([]*crtScratch, len(accs))
	for w := range accs {
		accs[w] = make([]uint64, accLen)
		scratch[w] = pl.crt.newScratch()
	}
	tails := make([][]uint64, tasks)
	parallelForW(pl.workers, tasks, func(w, t int) {
		lo, hi := t*chunk, min(m, (t+1)*chunk)
		base, next := baseOf(t), baseOf(t+1)
		acc := accs[w][:((hi-1)*b0+64*(k+1))/64-base+2]
		clear(acc)
		s := scratch[w]
		for b := lo; b < hi; b += crtBlock {
			e := min(hi, b+crtBlock)
			pl.crt.digitsBlock(res, b, e-b, us, s)
			for j := b; j < e; j++ {
				l, _ := pl.crt.coeff(s, j-b, false)
				addShifted(acc, s.x[:l], j*b0-base*64)
			}
		}
		n := len(acc)
		for n > 0 && acc[n-1] == 0 {
			n--
		}
		if base+n > len(z) {
			panic("intpoly: integer product wider than its operands") // a bug
		}
		if t == tasks-1 {
			next = base + n
		}
		own := min(n, next-base)
		copy(z[base:base+own], acc[:own])
		tails[t] = append([]uint64(nil), acc[own:n]...)
	})
	for t, tail := range tails {
		var c uint64
		i := baseOf(t + 1)
		for _, v := range tail {
			z[i], c = bits.Add64(z[i], v, c)
			i++
		}
		for ; c != 0; i++ {
			z[i], c = bits.Add64(z[i], 0, c)
		}
	}
}

// addShifted adds v·2^off into acc (which has room for it and its carry).
func addShifted(acc, v []uint64, off int) {
	w, s := off/64, uint(off%64)
	var c uint64
	var prev uint64
	for i, x := range v {
		y := x << s
		if s != 0 {
			y |= prev >> (64 - s)
		}
		prev = x
		acc[w+i], c = bits.Add64(acc[w+i], y, c)
	}
	i := w + len(v)
	if s != 0 {
		acc[i], c = bits.Add64(acc[i], prev>>(64-s), c)
		i++
	}
	for ; c != 0; i++ {
		acc[i], c = bits.Add64(acc[i], 0, c)
	}
}
