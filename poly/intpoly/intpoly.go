package intpoly

import (
	"errors"
	"fmt"
	"math/big"
)

// Errors that callers branch on. Returned errors wrap them with %w and say
// what was wrong.
var (
	// ErrNil is returned when an operand or a coefficient is a nil *big.Int.
	ErrNil = errors.New("intpoly: nil operand")
	// ErrTooLarge is returned when a product needs a transform longer than
	// the longest one (2^28) or a CRT modulus wider than maxPrimes primes
	// give; the message names the limit.
	ErrTooLarge = errors.New("intpoly: product too large")
	// ErrWidth is returned when a Packed value's shape does not fit the
	// operation: a Width below 1, limbs not a multiple of Width, a
	// destination too short or too narrow for the product, or a
	// coefficient past the bound a Multiplier was built for.
	ErrWidth = errors.New("intpoly: packed shape does not fit")
)

// Option configures Mul, MulBig and NewMultiplier.
type Option func(*config) error

type config struct {
	workers int
	acc     Accelerator
}

func newConfig(opts []Option) (*config, error) {
	c := &config{workers: defaultWorkers()}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithWorkers sets how many goroutines a product spreads over (the
// calling one included); n must be at least 1. Without it a product uses
// runtime.GOMAXPROCS(0), read at each call (or at NewMultiplier).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("intpoly: WithWorkers(%d): need at least 1 worker", n)
		}
		c.workers = n
		return nil
	}
}

// Mul returns the exact product of the polynomials a and b with signed
// integer coefficients (a[i] is the coefficient of x^i): a slice of
// len(a)+len(b)−1 new *big.Int (empty when a or b is empty). The inputs
// are not modified. It returns an error wrapping ErrNil for a nil
// coefficient and ErrTooLarge for a product past the package's limits.
//
// The product is computed by number-theoretic transforms modulo as many
// primes as the coefficient bound needs and Chinese remaindering (doc.go).
func Mul(a, b []*big.Int, opts ...Option) ([]*big.Int, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	for _, s := range [2][]*big.Int{a, b} {
		for i, x := range s {
			if x == nil {
				return nil, fmt.Errorf("%w: coefficient %d", ErrNil, i)
			}
		}
	}
	if len(a) == 0 || len(b) == 0 {
		return []*big.Int{}, nil
	}
	n := len(a) + len(b) - 1
	la, bitsA := shape(a)
	lb, bitsB := shape(b)
	square := len(a) == len(b) && &a[0] == &b[0]
	if la == 0 || lb == 0 {
		return zeros(n), nil
	}
	if cfg.acc != nil {
		return mulAccel(cfg.acc, a, b, n, la, lb, bitsA, bitsB)
	}
	need := needBitsSigned(bitsA, bitsB, min(la, lb))
	pl, err := newPlan(activeKernels(), need, log2Ceil(la+lb-1), cfg.workers)
	if err != nil {
		return nil, err
	}
	ra, rb, release := pl.residueBuffers(square)
	defer release()
	pl.reduceBig(ra, a[:la], (bitsA+63)/64, nil)
	if !square {
		pl.reduceBig(rb, b[:lb], (bitsB+63)/64, pl.scaleB)
	}
	pl.convolve(ra, rb, la, lb)
	return pl.recoverBig(ra, n, la+lb-1, (need-1+63)/64, square), nil
}

// shape returns the length of s without its trailing zeros and the largest
// bit length of |s[i]|.
func shape(s []*big.Int) (n, maxBits int) {
	for i, x := range s {
		if x.Sign() != 0 {
			n = i + 1
			maxBits = max(maxBits, x.BitLen())
		}
	}
	return n, maxBits
}

func zeros(n int) []*big.Int {
	store := make([]big.Int, n)
	out := make([]*big.Int, n)
	for i := range out {
		out[i] = &store[i]
	}
	return out
}
