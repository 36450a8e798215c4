package poly

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Linearized is an affine linearized polynomial over GF(2^64):
//
//	L(x) = c_0·x + c_1·x² + c_2·x⁴ + … + c_m·x^(2^m) + e,
//
// whose part without e is GF(2)-linear: L(x + y) = L(x) + L(y) + e. The
// vanishing polynomial of an affine subspace has this form (see Vanishing).
// Because the linear part is linear over GF(2), a Linearized evaluates at a
// point with eight table lookups (one 256-entry table per byte of the
// point), built once on creation. A Linearized is immutable and safe for
// concurrent use.
type Linearized struct {
	coeffs   []gf64.Element // c_i, the coefficient of x^(2^i)
	constant gf64.Element   // e
	table    *[8][256]gf64.Element
}

// NewLinearized returns the polynomial Σ_i coeffs[i]·x^(2^i) + constant.
// It copies coeffs; at most 64 coefficients are accepted (x^(2^64) = x on
// GF(2^64), but as polynomials they differ, so longer inputs are refused).
func NewLinearized(constant gf64.Element, coeffs ...gf64.Element) (*Linearized, error) {
	if len(coeffs) > 64 {
		return nil, fmt.Errorf("%w: NewLinearized takes at most 64 coefficients, got %d", ErrLength, len(coeffs))
	}
	n := len(coeffs)
	for n > 0 && coeffs[n-1] == 0 {
		n--
	}
	l := &Linearized{coeffs: append([]gf64.Element(nil), coeffs[:n]...), constant: constant}
	l.buildTable()
	return l, nil
}

// vanishing returns W(x) = Π_{v ∈ s+span(basis)} (x − v). basis must be
// linearly independent over GF(2) (the caller checks). With W_0(x) = x and
// V_j = span(β_0..β_{j−1}),
//
//	W_{j+1}(x) = W_j(x)·W_j(x + β_j) = W_j(x)² + W_j(β_j)·W_j(x),
//
// which on the linearized coefficients is c'_i = c_{i−1}² + W_j(β_j)·c_i.
// The affine shift enters as W_{s+V}(x) = W_V(x − s) = W_V(x) − W_V(s).
func vanishing(shift gf64.Element, basis []gf64.Element) *Linearized {
	m := len(basis)
	c := make([]gf64.Element, 1, m+1)
	c[0] = gf64.One
	for _, b := range basis {
		w := evalLinear(c, b)
		c = append(c, 0)
		for i := len(c) - 1; i >= 0; i-- {
			var prev gf64.Element
			if i > 0 {
				prev = gf64.Square(c[i-1])
			}
			c[i] = prev ^ gf64.Mul(w, c[i])
		}
	}
	l := &Linearized{coeffs: c, constant: evalLinear(c, shift)}
	l.buildTable()
	return l
}

// evalLinear returns Σ c_i·x^(2^i).
func evalLinear(c []gf64.Element, x gf64.Element) gf64.Element {
	var acc gf64.Element
	for _, ci := range c {
		acc ^= gf64.Mul(ci, x)
		x = gf64.Square(x)
	}
	return acc
}

// buildTable fills table[k][v] = L₀(v·x^(8k)) for the linear part L₀.
func (l *Linearized) buildTable() {
	t := new([8][256]gf64.Element)
	for k := range 8 {
		for bit := range 8 {
			v := evalLinear(l.coeffs, gf64.Element(1)<<(8*k+bit))
			step := 1 << bit
			for j := 0; j < step; j++ {
				t[k][j|step] = t[k][j] ^ v
			}
		}
	}
	l.table = t
}

// Dim returns m, the position of the highest non-zero coefficient (the
// degree of L is 2^m); it returns -1 when the linear part is zero.
func (l *Linearized) Dim() int { return len(l.coeffs) - 1 }

// Coeffs returns a copy of c_0 … c_m, the coefficients of x, x², …, x^(2^m).
func (l *Linearized) Coeffs() []gf64.Element { return append([]gf64.Element(nil), l.coeffs...) }

// Constant returns e, the constant term.
func (l *Linearized) Constant() gf64.Element { return l.constant }

// Eval returns L(x), with eight table lookups.
func (l *Linearized) Eval(x gf64.Element) gf64.Element {
	t := l.table
	return l.constant ^
		t[0][byte(x)] ^ t[1][byte(x>>8)] ^ t[2][byte(x>>16)] ^ t[3][byte(x>>24)] ^
		t[4][byte(x>>32)] ^ t[5][byte(x>>40)] ^ t[6][byte(x>>48)] ^ t[7][byte(x>>56)]
}

// EvalVec sets dst[i] = L(xs[i]). dst and xs must have the same length; dst
// may be xs.
func (l *Linearized) EvalVec(dst, xs []gf64.Element) error {
	if len(dst) != len(xs) {
		return fmt.Errorf("%w: EvalVec: dst has %d elements, xs has %d", ErrLength, len(dst), len(xs))
	}
	for i, x := range xs {
		dst[i] = l.Eval(x)
	}
	return nil
}

// maxDenseDim bounds Poly: the dense form of a degree-2^m polynomial takes
// 2^m + 1 coefficients.
const maxDenseDim = 32

// Poly returns L as a dense polynomial (2^m + 1 coefficients). It refuses
// m > 32.
func (l *Linearized) Poly() (Poly, error) {
	m := l.Dim()
	if m > maxDenseDim {
		return nil, fmt.Errorf("%w: Linearized.Poly: degree 2^%d is too large for a dense polynomial (limit 2^%d)", ErrLength, m, maxDenseDim)
	}
	if m < 0 {
		return New(l.constant), nil
	}
	p := make(Poly, 1<<m+1)
	p[0] = l.constant
	for i, c := range l.coeffs {
		p[1<<i] ^= c
	}
	return p.Normalize(), nil
}

// DivModLinearized returns the quotient and remainder of p divided by the
// linearized polynomial l of degree 2^m: p = q·l + r with deg r < 2^m. l is
// sparse (at most m + 2 terms), so this costs O((deg p − 2^m + 1)·m)
// multiplications, in vector operations of 2^(m−1) elements; dividing by a
// subspace's vanishing polynomial (Vanishing) is the main use. A constant l
// (no linear part) is refused: zero is division by zero, and for a
// non-zero constant use Scale.
func (p Poly) DivModLinearized(l *Linearized) (q, r Poly, err error) {
	m := l.Dim()
	if m < 0 {
		return nil, nil, fmt.Errorf("%w: DivModLinearized by a constant (no linear part)", ErrDivisionByZero)
	}
	p = p.Normalize()
	n := 1 << m
	if len(p) <= n {
		return Poly{}, p.Clone(), nil
	}
	rem := p.Clone()
	q = make(Poly, len(p)-n)
	inv := gf64.Inverse(l.coeffs[m])
	// With l = λ·x^n + Σ_{i<m} c_i·x^(2^i) + e, the term t·x^k (k ≥ n) is
	// (t/λ)·x^(k−n)·l minus (t/λ)·x^(k−n)·(Σ c_i·x^(2^i) + e): the quotient
	// gets t/λ at k − n, and t/λ times c_i moves to k − n + 2^i (times e to
	// k − n). The nearest target lies 2^(m−1) below k, so a block of 2^(m−1)
	// coefficients is folded at once without feeding itself.
	step := max(n/2, 1)
	for top := len(rem); top > n; {
		lo := max(top-step, n)
		qb := q[lo-n : top-n]
		gf64.ScaleVec(qb, rem[lo:top], inv)
		for i := 0; i < m; i++ {
			if c := l.coeffs[i]; c != 0 {
				d := rem[lo-n+1<<i : top-n+1<<i]
				gf64.MulAddVec(d, qb, c)
			}
		}
		if l.constant != 0 {
			gf64.MulAddVec(rem[lo-n:top-n], qb, l.constant)
		}
		top = lo
	}
	return q.Normalize(), rem[:n].Normalize(), nil
}
