package poly

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// DivMod returns the quotient and remainder of p divided by d: p = q·d + r
// with deg r < deg d. Dividing by the zero polynomial returns an error
// wrapping ErrDivisionByZero.
//
// When the quotient or the divisor is short the method is long division,
// one vector multiply-accumulate per quotient coefficient:
// O((deg p − deg d + 1)·deg d). When that is modelled slower (long quotient
// and long divisor, see BENCHMARKS.md), the reversed quotient is
// the reversed dividend times the inverse of the reversed divisor modulo
// x^(deg q + 1), the inverse computed by Newton iteration (in characteristic
// 2 the step g ← g·(2 − f·g) is g ← f·g²), so the cost is a few
// multiplications by Mul.
func (p Poly) DivMod(d Poly) (q, r Poly, err error) {
	d = d.Normalize()
	if len(d) == 0 {
		return nil, nil, fmt.Errorf("%w: DivMod divisor has degree -1", ErrDivisionByZero)
	}
	p = p.Normalize()
	if len(p) < len(d) {
		return Poly{}, p.Clone(), nil
	}
	if useNewton(len(p)-len(d)+1, len(d)) {
		q, r = divModNewton(p, d)
		return q, r, nil
	}
	q, r = divModLong(p, d)
	return q, r, nil
}

// useNewton reports whether Newton division is modelled cheaper than long
// division for a quotient of k and a divisor of n coefficients. Long
// division costs k·n vector multiply-accumulates; Newton about three
// products of k by k coefficients (the inverse series, a geometric sum of
// about two, and the reversed quotient) and the product q·d.
func useNewton(k, n int) bool {
	if k < karatsubaLeaf {
		return false
	}
	long := costSchool * float64(k) * float64(n)
	_, sq := mulPlan(k, k)
	_, qd := mulPlan(max(k, n), min(k, n))
	return 3*sq+qd < long
}

// divModLong divides normalized p by normalized d, len(p) >= len(d) >= 1.
func divModLong(p, d Poly) (q, r Poly) {
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
	return q.Normalize(), rem[:dd].Normalize()
}

// divModNewton divides normalized p by normalized d, len(p) >= len(d) >= 1.
func divModNewton(p, d Poly) (q, r Poly) {
	k := len(p) - len(d) + 1 // quotient length
	// rev(q) = rev(p)·rev(d)⁻¹ mod x^k, with rev(f) = x^(len f − 1)·f(1/x).
	revD := reversed(d, min(len(d), k))
	inv := inverseSeries(revD, k)
	revP := reversed(p, k)
	revQ := revP.Mul(inv)
	if len(revQ) > k {
		revQ = revQ[:k]
	}
	q = make(Poly, k)
	for i, c := range revQ {
		q[k-1-i] = c
	}
	q = q.Normalize()
	// r = p − q·d on the low len(d) − 1 coefficients (the rest cancel).
	n := len(d) - 1
	r = make(Poly, n)
	copy(r, p[:n])
	qd := q.Mul(d)
	m := min(n, len(qd))
	gf64.AddVec(r[:m], r[:m], qd[:m])
	return q, r.Normalize()
}

// reversed returns the first n coefficients of rev(f) = x^(len f − 1)·f(1/x):
// f's coefficients from the top down.
func reversed(f Poly, n int) Poly {
	out := make(Poly, n)
	for i := range out {
		out[i] = f[len(f)-1-i]
	}
	return out
}

// inverseSeries returns g with f·g ≡ 1 (mod x^k), for f[0] ≠ 0, by Newton
// iteration: g ← f·g² mod x^(2l) doubles the precision l (characteristic 2).
func inverseSeries(f Poly, k int) Poly {
	g := Poly{gf64.Inverse(f[0])}
	for l := 1; l < k; {
		l2 := min(2*l, k)
		// g² = Σ g_i² x^(2i), truncated to l2 coefficients
		sq := make(Poly, min(2*len(g)-1, l2))
		for i, c := range g {
			if 2*i < len(sq) {
				sq[2*i] = gf64.Square(c)
			}
		}
		fl := f[:min(len(f), l2)]
		g = fl.Mul(sq)
		if len(g) > l2 {
			g = g[:l2]
		}
		l = l2
	}
	return g
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
