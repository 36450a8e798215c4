package intpoly

import (
	"fmt"
	"math/big"
)

// Multiplier multiplies Packed polynomials of bounded lengths and
// coefficient sizes. It fixes its plan once (the primes, the transform
// length and the twiddle tables) and keeps its residue buffers between
// calls, so a caller multiplying many polynomials of one shape pays for
// neither again. A Multiplier is not safe for concurrent use; make one per
// goroutine (they share the primes and the cached tables).
type Multiplier struct {
	maxLenA, maxLenB int
	bitsA, bitsB     int
	outW             int
	pl               *plan
	acc              Accelerator
	buf              []uint64
}

// NewMultiplier returns a Multiplier for products of a polynomial of at
// most maxLenA coefficients with |a_i| < 2^bitsA by one of at most maxLenB
// coefficients with |b_j| < 2^bitsB. It returns an error wrapping
// ErrTooLarge when that product is past the package's limits.
func NewMultiplier(maxLenA, maxLenB, bitsA, bitsB int, opts ...Option) (*Multiplier, error) {
	if maxLenA < 1 || maxLenB < 1 || bitsA < 0 || bitsB < 0 {
		return nil, fmt.Errorf("intpoly: NewMultiplier(%d, %d, %d, %d): lengths must be at least 1 and bit sizes at least 0",
			maxLenA, maxLenB, bitsA, bitsB)
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	need := needBitsSigned(bitsA, bitsB, min(maxLenA, maxLenB))
	m := &Multiplier{maxLenA: maxLenA, maxLenB: maxLenB, bitsA: bitsA, bitsB: bitsB,
		outW: (need + 63) / 64, acc: cfg.acc}
	if m.acc != nil {
		return m, nil
	}
	m.pl, err = newPlan(activeKernels(), need, log2Ceil(maxLenA+maxLenB-1), cfg.workers)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// OutWidth returns the Width a destination needs: the product's
// coefficients satisfy |c| < 2^(bitsA+bitsB+⌈log2 min(maxLenA, maxLenB)⌉).
func (m *Multiplier) OutWidth() int { return m.outW }

// Primes returns the primes the Multiplier's products are computed modulo,
// largest first (nil when it runs on an Accelerator).
func (m *Multiplier) Primes() []uint64 {
	if m.pl == nil {
		return nil
	}
	ps := make([]uint64, len(m.pl.primes))
	for i, q := range m.pl.primes {
		ps[i] = q.p
	}
	return ps
}

// TransformLen returns the length of its transforms (0 on an
// Accelerator).
func (m *Multiplier) TransformLen() int {
	if m.pl == nil {
		return 0
	}
	return 1 << m.pl.logN
}

// MulPacked sets dst to the exact product a·b. a and b must be within the
// Multiplier's lengths and bounds, and dst must have a.Len()+b.Len()−1
// coefficients (0 when a or b has none) of Width at least OutWidth();
// anything else returns an error wrapping ErrWidth before dst is written.
// dst must not share memory with a or b.
func (m *Multiplier) MulPacked(dst, a, b Packed) error {
	for _, x := range []struct {
		name string
		p    Packed
	}{{"dst", dst}, {"a", a}, {"b", b}} {
		if err := x.p.check(x.name); err != nil {
			return err
		}
	}
	la, lb := a.Len(), b.Len()
	if la > m.maxLenA || lb > m.maxLenB {
		return fmt.Errorf("%w: lengths %d and %d, the Multiplier takes at most %d and %d", ErrWidth, la, lb, m.maxLenA, m.maxLenB)
	}
	n := 0
	if la > 0 && lb > 0 {
		n = la + lb - 1
	}
	if dst.Len() != n {
		return fmt.Errorf("%w: dst has %d coefficients, the product has %d", ErrWidth, dst.Len(), n)
	}
	if dst.Width < m.outW {
		return fmt.Errorf("%w: dst.Width is %d, the product needs %d", ErrWidth, dst.Width, m.outW)
	}
	if err := checkBound(a, m.bitsA, "a"); err != nil {
		return err
	}
	if err := checkBound(b, m.bitsB, "b"); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if m.acc != nil {
		if err := mulOnAccel(m.acc, dst, a, b); err != nil {
			return fmt.Errorf("intpoly: MulPacked on the accelerator: %w", err)
		}
		return nil
	}
	pl := m.pl
	square := la == lb && a.Width == b.Width && &a.Limbs[0] == &b.Limbs[0]
	k, N := len(pl.primes), 1<<pl.logN
	if len(m.buf) < 2*k*N {
		m.buf = make([]uint64, 2*k*N)
	}
	ra, rb := make([][]uint64, k), make([][]uint64, k)
	for i := range k {
		ra[i] = m.buf[i*N : (i+1)*N : (i+1)*N]
		rb[i] = m.buf[(k+i)*N : (k+i+1)*N : (k+i+1)*N]
	}
	pl.reducePacked(ra, a, nil)
	if square {
		rb = nil
	} else {
		pl.reducePacked(rb, b, pl.scaleB)
	}
	pl.convolve(ra, rb, la, lb)
	pl.recoverPacked(dst, ra, square)
	return nil
}

// checkBound checks |x_i| < 2^bits for every coefficient.
func checkBound(x Packed, bits int, name string) error {
	w := x.Width
	for i := range x.Len() {
		if !fitsBits(x.Limbs[i*w:(i+1)*w], bits) {
			return fmt.Errorf("%w: %s coefficient %d is not below 2^%d in magnitude, the Multiplier's bound", ErrWidth, name, i, bits)
		}
	}
	return nil
}

// reducePacked is reduceBig for two's-complement limbs.
func (pl *plan) reducePacked(dst [][]uint64, a Packed, scale []uint64) {
	W := a.Width
	pw := pl.wordPowers(W, scale)
	n := a.Len()
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
			top := w[2*W] // 2^(64W)·s mod p: the weight of the sign
			wd := newWideDot(p)
			d := dst[i]
			for j := lo; j < hi; j++ {
				l := a.Limbs[j*W : (j+1)*W]
				var acc uint64
				if W >= wideDotMin {
					acc = wideSum(&wd, l, w, p)
				} else {
					for t, v := range l {
						acc += shoupMul(v, w[2*t], w[2*t+1], p)
						if acc >= p2 {
							acc -= p2
						}
					}
				}
				if l[W-1]>>63 == 1 {
					acc += p2 - top
					if acc >= p2 {
						acc -= p2
					}
				}
				d[j] = acc
			}
		}
	})
}

// recoverPacked writes the dst.Len() convolution values in res into dst,
// as two's complement of dst.Width limbs.
func (pl *plan) recoverPacked(dst Packed, res [][]uint64, square bool) {
	var us []uint64
	if square {
		us = pl.outScale()
	}
	W := dst.Width
	m := dst.Len()
	const chunk = 16 * crtBlock
	parallelFor(pl.workers, ceilDiv(m, chunk), func(t int) {
		s := pl.crt.newScratch()
		for j := t * chunk; j < min(m, (t+1)*chunk); j++ {
			if j%crtBlock == 0 {
				pl.crt.digitsBlock(res, j, min(m-j, crtBlock), us, s)
			}
			l, neg := pl.crt.coeff(s, j%crtBlock, true)
			if l > W {
				panic("intpoly: coefficient wider than its bound") // a bug, not bad input
			}
			out := dst.Limbs[j*W : (j+1)*W]
			copy(out, s.x[:l])
			clear(out[l:])
			if neg {
				negateLimbs(out)
			}
		}
	})
}

// Accelerator runs products somewhere other than this process's CPU
// cores, such as a GPU; the GPU operations layer implements it (this
// package cannot import it: it sits below). Results must equal this
// package's bit for bit (they are exact, so any correct method does).
type Accelerator interface {
	// MulPacked sets dst to a·b. dst has a.Len()+b.Len()−1 coefficients,
	// of a Width that holds them; a and b are left untouched.
	MulPacked(dst, a, b Packed) error
	// MulNat sets z to x·y, for non-negative integers as little-endian
	// 64-bit limbs with len(z) = len(x)+len(y); x and y are left untouched.
	MulNat(z, x, y []uint64) error
}

// WithAccelerator makes Mul, MulBig and Multiplier.MulPacked run their
// products on a. An error from a is returned wrapped; nothing falls back
// to the CPU by itself. MulBig still multiplies operands below its
// crossover with math/big.
func WithAccelerator(a Accelerator) Option {
	return func(c *config) error {
		if a == nil {
			return fmt.Errorf("intpoly: WithAccelerator(nil)")
		}
		c.acc = a
		return nil
	}
}

// mulAccel is Mul on an Accelerator, through the packed form.
func mulAccel(acc Accelerator, a, b []*big.Int, n, la, lb, bitsA, bitsB int) ([]*big.Int, error) {
	pa, err := PackBig(a[:la], WidthFor(bitsA))
	if err != nil {
		return nil, err
	}
	pb, err := PackBig(b[:lb], WidthFor(bitsB))
	if err != nil {
		return nil, err
	}
	dst := NewPacked(la+lb-1, (needBitsSigned(bitsA, bitsB, min(la, lb))+63)/64)
	if err := mulOnAccel(acc, dst, pa, pb); err != nil {
		return nil, fmt.Errorf("intpoly: Mul on the accelerator: %w", err)
	}
	out := dst.Big()
	for len(out) < n {
		out = append(out, new(big.Int))
	}
	return out, nil
}
