package poly

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Interpolate returns the unique polynomial p of degree < len(xs) with
// p(xs[j]) = ys[j] for every j. The points must be distinct (a repeated
// point returns an error wrapping ErrDuplicatePoint that names both
// positions) and xs and ys must have the same length. Zero points give the
// zero polynomial.
//
// The method is Lagrange interpolation in barycentric form, O(n²): with
// M(x) = Π_k (x − x_k), p = Σ_j y_j / M'(x_j) · M(x)/(x − x_j). The n
// quotients M(x)/(x − x_j) are built by synthetic division for all j at
// once, so the inner loops are vector operations over the points. For
// points that form an affine subspace, InterpolateSubspace is O(n log n).
func Interpolate(xs, ys []gf64.Element) (Poly, error) {
	if len(xs) != len(ys) {
		return nil, fmt.Errorf("%w: Interpolate: %d points but %d values", ErrLength, len(xs), len(ys))
	}
	n := len(xs)
	seen := make(map[gf64.Element]int, n)
	for j, x := range xs {
		if i, ok := seen[x]; ok {
			return nil, fmt.Errorf("%w: xs[%d] = xs[%d] = %v", ErrDuplicatePoint, i, j, x)
		}
		seen[x] = j
	}
	if n == 0 {
		return Poly{}, nil
	}
	// M(x) = Π (x − x_k), monic of degree n, built one factor at a time.
	m := make([]gf64.Element, n+1)
	m[0] = gf64.One
	for k, x := range xs {
		// multiply the degree-k polynomial m[0..k] by (x + x_k)
		m[k+1] = m[k]
		for i := k; i > 0; i-- {
			m[i] = m[i-1] ^ gf64.Mul(m[i], x)
		}
		m[0] = gf64.Mul(m[0], x)
	}
	// Synthetic division of M by (x − x_j) for all j at once: with quotient
	// coefficients Q_{n−1} = 1, Q_{i−1} = m_i + x_j·Q_i. Along the way
	// M'(x_j) = Q(x_j) accumulates by Horner's rule (the quotient evaluated
	// at its own root is M'(x_j)).
	qcur := make([]gf64.Element, n)  // Q_i(j)
	deriv := make([]gf64.Element, n) // running Horner value of Q at x_j
	for j := range qcur {
		qcur[j] = gf64.One
		deriv[j] = gf64.One
	}
	for i := n - 1; i > 0; i-- {
		gf64.MulVec(qcur, qcur, xs)
		addScalar(qcur, m[i])
		gf64.MulVec(deriv, deriv, xs)
		gf64.AddVec(deriv, deriv, qcur)
	}
	// deriv[j] = M'(x_j) ≠ 0 for distinct points; weights w_j = y_j / M'(x_j).
	w := make([]gf64.Element, n)
	gf64.BatchInverse(w, deriv)
	gf64.MulVec(w, w, ys)
	// Second pass, recomputing the quotients rather than storing n² of them:
	// coefficient i of p is Σ_j w_j·Q_i(j).
	p := make(Poly, n)
	for j := range qcur {
		qcur[j] = gf64.One
	}
	tmp := make([]gf64.Element, n)
	p[n-1] = sum(w)
	for i := n - 1; i > 0; i-- {
		gf64.MulVec(qcur, qcur, xs)
		addScalar(qcur, m[i])
		gf64.MulVec(tmp, qcur, w)
		p[i-1] = sum(tmp)
	}
	return p.Normalize(), nil
}

func addScalar(v []gf64.Element, c gf64.Element) {
	if c == 0 {
		return
	}
	for i := range v {
		v[i] ^= c
	}
}

func sum(v []gf64.Element) gf64.Element {
	var s gf64.Element
	for _, x := range v {
		s ^= x
	}
	return s
}
