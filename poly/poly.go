package poly

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Poly is a dense polynomial over GF(2^64): p[i] is the coefficient of x^i.
//
// A Poly may carry trailing zero coefficients; every method treats them as
// absent, and every Poly returned by this package is normalized (its last
// coefficient is non-zero, and the zero polynomial is the empty slice).
type Poly []gf64.Element

// Errors that callers branch on. Returned errors wrap them with %w and name
// the offending argument.
var (
	// ErrDivisionByZero is returned when dividing by the zero polynomial.
	ErrDivisionByZero = errors.New("poly: division by the zero polynomial")
	// ErrDuplicatePoint is returned by Interpolate when two points coincide.
	ErrDuplicatePoint = errors.New("poly: duplicate interpolation point")
	// ErrLength is returned when slice lengths do not fit the operation.
	ErrLength = errors.New("poly: wrong length")
)

// New returns the polynomial with the given coefficients (c_0 first),
// normalized. It copies coeffs.
func New(coeffs ...gf64.Element) Poly {
	return Poly(coeffs).Clone()
}

// Monomial returns c·x^n. It returns the zero polynomial when c = 0 and
// panics when n < 0.
func Monomial(c gf64.Element, n int) Poly {
	if n < 0 {
		panic("poly: Monomial with negative exponent")
	}
	if c == 0 {
		return Poly{}
	}
	p := make(Poly, n+1)
	p[n] = c
	return p
}

// Degree returns the degree of p, or -1 when p is the zero polynomial.
func (p Poly) Degree() int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0 {
			return i
		}
	}
	return -1
}

// IsZero reports whether p is the zero polynomial.
func (p Poly) IsZero() bool { return p.Degree() < 0 }

// Normalize returns p without its trailing zero coefficients. The result
// shares p's backing array.
func (p Poly) Normalize() Poly { return p[:p.Degree()+1] }

// Clone returns a normalized copy of p that shares no memory with it.
func (p Poly) Clone() Poly {
	n := p.Degree() + 1
	out := make(Poly, n)
	copy(out, p[:n])
	return out
}

// Coeff returns the coefficient of x^i (zero beyond the degree or for i < 0).
func (p Poly) Coeff(i int) gf64.Element {
	if i < 0 || i >= len(p) {
		return 0
	}
	return p[i]
}

// Lead returns the leading coefficient of p (zero for the zero polynomial).
func (p Poly) Lead() gf64.Element {
	d := p.Degree()
	if d < 0 {
		return 0
	}
	return p[d]
}

// Equal reports whether p and q are the same polynomial; trailing zeros are
// ignored.
func (p Poly) Equal(q Poly) bool {
	p, q = p.Normalize(), q.Normalize()
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// String formats p as a sum of terms, highest degree first, for example
// "0x0000000000000002*x^2 + 0x0000000000000001". The zero polynomial is "0".
func (p Poly) String() string {
	d := p.Degree()
	if d < 0 {
		return "0"
	}
	var b strings.Builder
	for i := d; i >= 0; i-- {
		if p[i] == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(p[i].String())
		switch i {
		case 0:
		case 1:
			b.WriteString("*x")
		default:
			fmt.Fprintf(&b, "*x^%d", i)
		}
	}
	return b.String()
}

// Eval returns p(x), by Horner's rule.
func (p Poly) Eval(x gf64.Element) gf64.Element {
	var acc gf64.Element
	for i := len(p) - 1; i >= 0; i-- {
		acc = gf64.Mul(acc, x) ^ p[i]
	}
	return acc
}

// EvalPoints sets dst[j] = p(xs[j]) for every j, by Horner's rule run on all
// points at once with vector operations. dst and xs must have the same
// length; dst may be xs.
func (p Poly) EvalPoints(dst, xs []gf64.Element) error {
	if len(dst) != len(xs) {
		return fmt.Errorf("%w: EvalPoints: dst has %d elements, xs has %d", ErrLength, len(dst), len(xs))
	}
	p = p.Normalize()
	if len(p) == 0 {
		clear(dst)
		return nil
	}
	pts := xs
	if len(xs) > 0 && &dst[0] == &xs[0] {
		pts = append([]gf64.Element(nil), xs...)
	}
	for j := range dst {
		dst[j] = p[len(p)-1]
	}
	for i := len(p) - 2; i >= 0; i-- {
		gf64.MulVec(dst, dst, pts)
		c := p[i]
		if c != 0 {
			for j := range dst {
				dst[j] ^= c
			}
		}
	}
	return nil
}

// Add returns p + q. In characteristic 2 this is also p − q.
func (p Poly) Add(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	out := make(Poly, len(p))
	copy(out, p)
	gf64.AddVec(out[:len(q)], out[:len(q)], q)
	return out.Normalize()
}

// Sub returns p − q, which equals p + q in characteristic 2.
func (p Poly) Sub(q Poly) Poly { return p.Add(q) }

// Scale returns c·p.
func (p Poly) Scale(c gf64.Element) Poly {
	if c == 0 {
		return Poly{}
	}
	p = p.Normalize()
	out := make(Poly, len(p))
	gf64.ScaleVec(out, p, c)
	return out
}

// Derivative returns the formal derivative p'. In characteristic 2 the term
// c_i·x^i differentiates to i·c_i·x^(i−1), which is c_i·x^(i−1) for odd i and
// zero for even i.
func (p Poly) Derivative() Poly {
	p = p.Normalize()
	if len(p) <= 1 {
		return Poly{}
	}
	out := make(Poly, len(p)-1)
	for i := 1; i < len(p); i += 2 {
		out[i-1] = p[i]
	}
	return out.Normalize()
}
