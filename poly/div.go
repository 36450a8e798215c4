package poly

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// DivMod returns the quotient and remainder of p divided by d: p = q·d + r
// with deg r < deg d. Dividing by the zero polynomial returns an error
// wrapping ErrDivisionByZero. The method is long division, one vector
// multiply-accumulate per quotient coefficient: O((deg p − deg d + 1)·deg d).
func (p Poly) DivMod(d Poly) (q, r Poly, err error) {
	d = d.Normalize()
	if len(d) == 0 {
		return nil, nil, fmt.Errorf("%w: DivMod divisor has degree -1", ErrDivisionByZero)
	}
	p = p.Normalize()
	if len(p) < len(d) {
		return Poly{}, p.Clone(), nil
	}
	rem := p.Clone()
	dd := len(d) - 1
	q = make(Poly, len(p)-dd)
	lead := d[dd]
	if lead == gf64.One {
		for k := len(rem) - 1; k >= dd; k-- {
			t := rem[k]
			if t == 0 {
				continue
			}
			q[k-dd] = t
			gf64.MulAddVec(rem[k-dd:k], d[:dd], t)
		}
	} else {
		inv := gf64.Inverse(lead)
		for k := len(rem) - 1; k >= dd; k-- {
			t := rem[k]
			if t == 0 {
				continue
			}
			t = gf64.Mul(t, inv)
			q[k-dd] = t
			gf64.MulAddVec(rem[k-dd:k], d[:dd], t)
		}
	}
	return q.Normalize(), rem[:dd].Normalize(), nil
}

// Div returns the quotient of p divided by d (see DivMod).
func (p Poly) Div(d Poly) (Poly, error) {
	q, _, err := p.DivMod(d)
	return q, err
}

// Mod returns the remainder of p divided by d (see DivMod).
func (p Poly) Mod(d Poly) (Poly, error) {
	_, r, err := p.DivMod(d)
	return r, err
}
