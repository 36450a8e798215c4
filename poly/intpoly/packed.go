package intpoly

import (
	"fmt"
	"math/big"
)

// Packed is a polynomial with signed integer coefficients in fixed-width
// limbs, the form Multiplier works on without converting to and from
// *big.Int:
//
//	coefficient i = the two's-complement integer of Width·64 bits whose
//	limbs, least significant first, are Limbs[i·Width : (i+1)·Width]
//
// so Width 1 holds int64 values (as uint64 bit patterns) and Width w holds
// [−2^(64w−1), 2^(64w−1)). The number of coefficients is
// len(Limbs)/Width, which must be a whole number.
type Packed struct {
	Width int
	Limbs []uint64
}

// NewPacked returns n zero coefficients of width limbs each.
func NewPacked(n, width int) Packed {
	return Packed{Width: width, Limbs: make([]uint64, n*width)}
}

// WidthFor returns the Width that holds every integer x with |x| < 2^bits:
// ⌈(bits+1)/64⌉ limbs (one bit for the sign).
func WidthFor(bits int) int { return bits/64 + 1 }

// Len returns the number of coefficients.
func (p Packed) Len() int {
	if p.Width <= 0 {
		return 0
	}
	return len(p.Limbs) / p.Width
}

func (p Packed) check(name string) error {
	if p.Width < 1 {
		return fmt.Errorf("%w: %s.Width is %d, need at least 1", ErrWidth, name, p.Width)
	}
	if len(p.Limbs)%p.Width != 0 {
		return fmt.Errorf("%w: %s has %d limbs, not a multiple of its Width %d", ErrWidth, name, len(p.Limbs), p.Width)
	}
	return nil
}

// Coeff returns coefficient i as a new *big.Int.
func (p Packed) Coeff(i int) *big.Int {
	l := p.Limbs[i*p.Width : (i+1)*p.Width]
	neg := l[len(l)-1]>>63 == 1
	mag := make([]uint64, len(l))
	copy(mag, l)
	if neg {
		negateLimbs(mag)
	}
	ws := make([]big.Word, len(mag)*wordsPerLimb)
	putLimbs(ws, mag)
	z := new(big.Int).SetBits(ws)
	if neg {
		z.Neg(z)
	}
	return z
}

// Big returns every coefficient as a new *big.Int.
func (p Packed) Big() []*big.Int {
	out := make([]*big.Int, p.Len())
	for i := range out {
		out[i] = p.Coeff(i)
	}
	return out
}

// PackBig returns a as a Packed of the given width. It returns an error
// wrapping ErrNil for a nil coefficient and ErrWidth for a width below 1 or
// a coefficient that does not fit.
func PackBig(a []*big.Int, width int) (Packed, error) {
	if width < 1 {
		return Packed{}, fmt.Errorf("%w: width %d, need at least 1", ErrWidth, width)
	}
	p := NewPacked(len(a), width)
	for i, x := range a {
		if x == nil {
			return Packed{}, fmt.Errorf("%w: coefficient %d", ErrNil, i)
		}
		if x.BitLen() > 64*width-1 && !(x.Sign() < 0 && isPow2(x) && x.BitLen() == 64*width) {
			return Packed{}, fmt.Errorf("%w: coefficient %d has %d bits, width %d holds %d", ErrWidth, i, x.BitLen(), width, 64*width-1)
		}
		l := p.Limbs[i*width : (i+1)*width]
		ws := x.Bits()
		for t := range min(width, nlimbs(ws)) {
			l[t] = limb(ws, t)
		}
		if x.Sign() < 0 {
			negateLimbs(l)
		}
	}
	return p, nil
}

// isPow2 reports whether |x| is a power of two.
func isPow2(x *big.Int) bool {
	return x.Sign() != 0 && x.TrailingZeroBits() == uint(x.BitLen()-1)
}

// negateLimbs replaces l by its two's-complement negation.
func negateLimbs(l []uint64) {
	c := uint64(1)
	for t := range l {
		v := ^l[t] + c
		if c == 1 && v != 0 {
			c = 0
		}
		l[t] = v
	}
}

// fitsBits reports whether the two's-complement value l satisfies
// |x| < 2^bits.
func fitsBits(l []uint64, bits int) bool {
	top := len(l) - 1
	sign := uint64(0)
	if l[top]>>63 == 1 {
		sign = ^uint64(0)
	}
	// Bits at positions ≥ bits must all equal the sign.
	for t := top; t >= 0 && 64*t+63 >= bits; t-- {
		v := l[t]
		if 64*t < bits {
			v >>= uint(bits - 64*t)
			if v != sign>>uint(bits-64*t) {
				return false
			}
		} else if v != sign {
			return false
		}
	}
	if sign == 0 {
		return true
	}
	// Negative: x = −2^bits exactly has all bits below bits zero.
	for t := 0; 64*t < bits && t <= top; t++ {
		v := l[t]
		if 64*t+64 > bits {
			v &= 1<<uint(bits-64*t) - 1
		}
		if v != 0 {
			return true
		}
	}
	return false
}
