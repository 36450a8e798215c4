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
	return foldCoset(dst, src, shift, omega, arity, beta, runtime.GOMAXPROCS(0))
}

func foldCoset[F Base, X Ext](dst, src []X, shift, omega F, arity int, beta X, workers int) error {
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
	l := newLeafFolder(o, arity, o.exp(omegaInv, uint64(m)), beta)
	shiftInv := o.inv(shift)
	run := func(lo, hi int) {
		var buf [maxArity]X
		xinv := o.mul(shiftInv, o.exp(omegaInv, uint64(lo)))
		for j := lo; j < hi; j++ {
			for t := 0; t < arity; t++ {
				buf[l.rev[t]] = src[j+t*m]
			}
			dst[j] = l.fold(buf[:], xinv)
			xinv = o.mul(xinv, omegaInv)
		}
	}
	parallel(m, workers, run)
	return nil
}

// parallel runs run over [0, n) split into up to workers contiguous parts
// of at least parallelGrain entries, on the calling goroutine when one part.
func parallel(n, workers int, run func(lo, hi int)) {
	parts := min(workers, n/parallelGrain)
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
