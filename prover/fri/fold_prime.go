package fri

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
)

// maxArity is the largest folding arity; arities are 2, 4, 8 and 16.
const maxArity = 16

// parallelGrain is the fewest folded entries one goroutine is given.
const parallelGrain = 1 << 12

// checkArity returns an error wrapping ErrArity unless a is 2, 4, 8 or 16
// and at most n.
func checkArity(a, n int) error {
	if a != 2 && a != 4 && a != 8 && a != 16 {
		return fmt.Errorf("fri: arity %d, want 2, 4, 8 or 16: %w", a, ErrArity)
	}
	if a > n {
		return fmt.Errorf("fri: arity %d larger than the codeword length %d: %w", a, n, ErrArity)
	}
	return nil
}

// checkCoset returns an error unless n is a power of two, shift ≠ 0 and
// omega has order exactly n.
func checkCoset[F, X any](o primeOps[F, X], n int, shift, omega F) error {
	if n <= 0 || n&(n-1) != 0 {
		return fmt.Errorf("fri: codeword length %d is not a power of two: %w", n, ErrLength)
	}
	if o.isZero(shift) {
		return fmt.Errorf("fri: zero coset shift: %w", ErrDomain)
	}
	if !o.isOne(o.exp(omega, uint64(n))) || (n > 1 && o.isOne(o.exp(omega, uint64(n/2)))) {
		return fmt.Errorf("fri: the generator does not have order %d: %w", n, ErrDomain)
	}
	return nil
}

// leafFolder holds what folding one coset of a arity needs: the inverse
// DFT's twiddles tw[i] = ζ^(−i) (ζ = ω^(n/a), i < a/2), the bit reversal
// of log2(a) bits, 1/a, and the challenge.
type leafFolder[F, X any] struct {
	o    primeOps[F, X]
	a    int
	tw   [maxArity / 2]F
	rev  [maxArity]uint8
	ainv F
	beta X
}

func newLeafFolder[F, X any](o primeOps[F, X], a int, zetaInv F, beta X) *leafFolder[F, X] {
	l := &leafFolder[F, X]{o: o, a: a, beta: beta, ainv: o.inv(o.fromUint(uint64(a)))}
	l.tw[0] = o.fromUint(1)
	for i := 1; i < a/2; i++ {
		l.tw[i] = o.mul(l.tw[i-1], zetaInv)
	}
	lg := bits.TrailingZeros(uint(a))
	for t := 0; t < a; t++ {
		l.rev[t] = uint8(bits.Reverse8(uint8(t)) >> (8 - lg))
	}
	return l
}

// fold returns Σ_k β^k·f_k(x^a) from buf[rev[t]] = f(x·ζ^t), t < a, and
// xinv = 1/x; buf is overwritten. With c_k = Σ_t ζ^(−tk)·f(x·ζ^t) =
// a·x^k·f_k(x^a) (an inverse DFT of size a, unnormalised), the result is
// (1/a)·Σ_k c_k·(β/x)^k, by Horner's rule in γ = β·x⁻¹.
func (l *leafFolder[F, X]) fold(buf []X, xinv F) X {
	o, a := l.o, l.a
	buf = buf[:a]
	if a == 2 {
		c0, c1 := o.xadd(buf[0], buf[1]), o.xsub(buf[0], buf[1])
		return o.xscale(o.xadd(c0, o.xmul(c1, o.xscale(l.beta, xinv))), l.ainv)
	}
	for h := 1; h < a; h <<= 1 { // DIT: blocks of 2h, twiddle ζ^(−a/(2h)·i)
		step := a / (2 * h)
		for b := 0; b < a; b += 2 * h {
			u, v := buf[b:b+h], buf[b+h:b+2*h]
			for i := range u {
				w := v[i]
				if i > 0 {
					w = o.xscale(w, l.tw[i*step])
				}
				u[i], v[i] = o.xadd(u[i], w), o.xsub(u[i], w)
			}
		}
	}
	g := o.xscale(l.beta, xinv)
	acc := buf[a-1]
	for k := a - 2; k >= 0; k-- {
		acc = o.xadd(o.xmul(acc, g), buf[k])
	}
	return o.xscale(acc, l.ainv)
}

// FoldCoset folds a codeword over the coset shift·⟨omega⟩ by arity with the
// challenge beta, writing the codeword over shift^arity·⟨omega^arity⟩.
//
// src[i] = f(shift·omega^i), i < n = len(src); n must be a power of two,
// omega of order exactly n, shift ≠ 0, arity ∈ {2, 4, 8, 16} with arity ≤ n,
// and len(dst) = n/arity. Writing f(x) = Σ_{k<arity} x^k·f_k(x^arity),
//
//	dst[j] = Σ_{k<arity} beta^k · f_k(y_j),   y_j = (shift·omega^j)^arity,
//
// computed from the arity entries src[j + t·n/arity], t < arity (one leaf of
// the layer: the coset x_j·⟨ζ⟩, x_j = shift·omega^j, ζ = omega^(n/arity)).
// The result equals arity/2 successive folds by 2 with the challenges
// beta, beta², beta⁴, … (package doc).
//
// dst may be src[:n/arity] (in place); no other overlap is allowed. Work is
// split over GOMAXPROCS goroutines for large codewords. Bad arguments
// return an error wrapping ErrArity, ErrLength, ErrDomain or ErrField, and
// dst is left untouched.
func FoldCoset[F Base, X Ext](dst, src []X, shift, omega F, arity int, beta X) error {
	return foldCoset(dst, src, shift, omega, arity, beta, defaultSplit())
}

func foldCoset[F Base, X Ext](dst, src []X, shift, omega F, arity int, beta X, sp split) error {
	o, err := opsFor[F, X]()
	if err != nil {
		return err
	}
	n := len(src)
	if err := checkCoset(o, n, shift, omega); err != nil {
		return err
	}
	if err := checkArity(arity, n); err != nil {
		return err
	}
	m := n / arity
	if len(dst) != m {
		return fmt.Errorf("fri: destination of %d entries, a fold by %d of %d entries has %d: %w", len(dst), arity, n, m, ErrLength)
	}
	omegaInv := o.inv(omega)
	zetaInv := o.exp(omegaInv, uint64(m))
	l := newLeafFolder(o, arity, zetaInv, beta)
	shiftInv := o.inv(shift)
	stepInv := o.exp(omegaInv, uint64(primeBlock)) // ω^(−B)
	sp.run(m, func(lo, hi int) {
		b := newPrimeBlock(o, l)
		for j0 := lo; j0 < hi; j0 += primeBlock {
			n := min(primeBlock, hi-j0)
			if j0 == lo {
				x := o.mul(shiftInv, o.exp(omegaInv, uint64(lo)))
				for i := range b.xinv {
					b.xinv[i] = x
					x = o.mul(x, omegaInv)
				}
			} else {
				o.bscale(b.xinv, b.xinv, stepInv)
			}
			b.fold(dst[j0:j0+n], src, j0, m)
		}
	})
	return nil
}

// primeBlock is the number of folded entries FoldCoset computes at a time.
const primeBlock = 256

// primeBlock is the scratch of one goroutine of FoldCoset: the a rows of
// the inverse DFT over a block of leaves, x_j⁻¹ and β·x_j⁻¹ of the block.
type primeBlockBuf[F, X any] struct {
	o     primeOps[F, X]
	l     *leafFolder[F, X]
	rows  [][]X // a rows of primeBlock
	tmp   []X
	gamma []X
	xinv  []F
}

func newPrimeBlock[F, X any](o primeOps[F, X], l *leafFolder[F, X]) *primeBlockBuf[F, X] {
	b := &primeBlockBuf[F, X]{o: o, l: l, tmp: make([]X, primeBlock), gamma: make([]X, primeBlock), xinv: make([]F, primeBlock)}
	all := make([]X, l.a*primeBlock)
	for t := 0; t < l.a; t++ {
		b.rows = append(b.rows, all[t*primeBlock:(t+1)*primeBlock])
	}
	return b
}

// fold writes dst[i] = F[j0+i] for i < len(dst) (the leaves j0 …), the
// arithmetic of leafFolder.fold row-wise: the rows of the inverse DFT are
// the vectors src[t·m + j0 …] in bit-reversed order, the first level of
// butterflies read straight from src, and Horner's rule runs on vectors.
// It reads all its inputs before writing dst.
func (b *primeBlockBuf[F, X]) fold(dst, src []X, j0, m int) {
	o, l, n := b.o, b.l, len(dst)
	a := l.a
	row := func(t int) []X { return src[t*m+j0 : t*m+j0+n] }
	for p := 0; p < a; p += 2 {
		u, v := row(int(l.rev[p])), row(int(l.rev[p+1]))
		o.vadd(b.rows[p][:n], u, v)
		o.vsub(b.rows[p+1][:n], u, v)
	}
	tmp := b.tmp[:n]
	for h := 2; h < a; h <<= 1 {
		step := a / (2 * h)
		for blk := 0; blk < a; blk += 2 * h {
			for i := 0; i < h; i++ {
				u, v := b.rows[blk+i][:n], b.rows[blk+h+i][:n]
				if i > 0 {
					o.vscale(tmp, v, l.tw[i*step])
				} else {
					copy(tmp, v)
				}
				o.vsub(v, u, tmp)
				o.vadd(u, u, tmp)
			}
		}
	}
	gamma := b.gamma[:n]
	o.vscaleExt(gamma, b.xinv[:n], l.beta)
	acc := b.rows[a-1][:n]
	for k := a - 2; k >= 0; k-- {
		o.vmul(acc, acc, gamma)
		o.vadd(acc, acc, b.rows[k][:n])
	}
	o.vscale(dst, acc, l.ainv)
}

// split is how a fold spreads over goroutines: up to workers contiguous
// parts of at least grain folded entries each.
type split struct{ workers, grain int }

func defaultSplit() split { return split{runtime.GOMAXPROCS(0), parallelGrain} }

// run runs run over [0, n) in parts, on the calling goroutine when one.
func (sp split) run(n int, run func(lo, hi int)) {
	parts := min(sp.workers, n/max(sp.grain, 1))
	if parts <= 1 {
		run(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(lo, hi)
		}()
	}
	wg.Wait()
}

// FoldCosetAt folds one leaf: the verifier's side of FoldCoset, with the
// same arithmetic. values[t] = f(x_j·ζ^t) for t < arity = len(values),
// where x_j = shift·omega^j, ζ = omega^(n/arity) and omega has order n:
// values[t] is entry j + t·n/arity of the codeword over shift·⟨omega⟩.
// It returns Σ_k beta^k·f_k(x_j^arity), which is entry j of
// FoldCoset's output. It costs one field inversion and a few
// exponentiations on top of the fold; values is not modified.
func FoldCosetAt[F Base, X Ext](values []X, shift, omega F, n, j int, beta X) (X, error) {
	var zero X
	o, err := opsFor[F, X]()
	if err != nil {
		return zero, err
	}
	if err := checkCoset(o, n, shift, omega); err != nil {
		return zero, err
	}
	arity := len(values)
	if err := checkArity(arity, n); err != nil {
		return zero, err
	}
	m := n / arity
	if j < 0 || j >= m {
		return zero, fmt.Errorf("fri: leaf %d of a fold by %d of %d entries (%d leaves): %w", j, arity, n, m, ErrDomain)
	}
	omegaInv := o.inv(omega)
	l := newLeafFolder(o, arity, o.exp(omegaInv, uint64(m)), beta)
	xinv := o.inv(o.mul(shift, o.exp(omega, uint64(j))))
	var buf [maxArity]X
	for t, v := range values {
		buf[l.rev[t]] = v
	}
	return l.fold(buf[:], xinv), nil
}
