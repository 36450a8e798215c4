package poly

import (
	"fmt"
	"math/bits"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// TaylorExpansion returns the Taylor expansion of p at x² − x (x² + x in
// characteristic 2): the linear polynomials h_i(x) = h[2i] + h[2i+1]·x with
//
//	p(x) = Σ_i h_i(x)·(x² − x)^i.
//
// The result has n = max(2, 2^⌈log₂ len(p)⌉) elements (p normalized), the
// coefficient pairs of h_0 … h_{n/2−1} interleaved; trailing pairs may be
// zero. It is Algorithm 3.4 of the seed thesis (Gao–Mateer), run in place
// on the zero-padded coefficients; see TaylorExpandInPlace.
func (p Poly) TaylorExpansion() []gf64.Element {
	p = p.Normalize()
	n := 2
	if len(p) > 2 {
		n = 1 << bits.Len(uint(len(p)-1))
	}
	h := make([]gf64.Element, n)
	copy(h, p)
	taylorExpand(h)
	return h
}

// FromTaylorExpansion returns the polynomial Σ_i (h[2i] + h[2i+1]·x)·(x² − x)^i,
// the inverse of TaylorExpansion. len(h) must be a power of two (or zero).
func FromTaylorExpansion(h []gf64.Element) (Poly, error) {
	if !isPow2OrZero(len(h)) {
		return nil, fmt.Errorf("%w: FromTaylorExpansion needs a power-of-two length, got %d", ErrLength, len(h))
	}
	p := make(Poly, len(h))
	copy(p, h)
	taylorCompose(p)
	return p.Normalize(), nil
}

// TaylorExpandInPlace replaces the coefficients a (c_0 first) of a
// polynomial of degree < len(a) by its Taylor expansion at x² − x, laid out
// as TaylorExpansion returns it. len(a) must be a power of two (or zero).
// It performs (n/2)·log₂(n/2) additions and no multiplications.
func TaylorExpandInPlace(a []gf64.Element) error {
	if !isPow2OrZero(len(a)) {
		return fmt.Errorf("%w: TaylorExpandInPlace needs a power-of-two length, got %d", ErrLength, len(a))
	}
	taylorExpand(a)
	return nil
}

// TaylorComposeInPlace undoes TaylorExpandInPlace: it replaces interleaved
// Taylor coefficients by the monomial coefficients of the polynomial they
// describe. len(a) must be a power of two (or zero).
func TaylorComposeInPlace(a []gf64.Element) error {
	if !isPow2OrZero(len(a)) {
		return fmt.Errorf("%w: TaylorComposeInPlace needs a power-of-two length, got %d", ErrLength, len(a))
	}
	taylorCompose(a)
	return nil
}

func isPow2OrZero(n int) bool { return n&(n-1) == 0 }

// taylorExpand is Algorithm 3.4 on a power-of-two length n = 4q. Write
// f = f0 + x^(2q)·(f1 + x^q·f2) with deg f0 < 2q, deg f1, f2 < q. As
// x^(2q) = (x² − x)^q + x^q in characteristic 2,
//
//	f = g0 + (x² − x)^q · g1,  g0 = f0 + x^q·(f1 + f2),  g1 = (f1 + f2) + x^q·f2,
//
// so in place: a[2q:3q] += a[3q:4q] (h = f1 + f2), a[q:2q] += a[2q:3q]
// (g0), and then both halves recursively. The recursion is unrolled into
// levels, widest first.
func taylorExpand(a []gf64.Element) {
	n := len(a)
	for size := n; size > 2; size >>= 1 {
		q := size / 4
		for off := 0; off < n; off += size {
			b := a[off : off+size]
			gf64.AddVec(b[2*q:3*q], b[2*q:3*q], b[3*q:])
			gf64.AddVec(b[q:2*q], b[q:2*q], b[2*q:3*q])
		}
	}
}

// taylorCompose runs taylorExpand's steps backwards.
func taylorCompose(a []gf64.Element) {
	n := len(a)
	for size := 4; size <= n; size <<= 1 {
		q := size / 4
		for off := 0; off < n; off += size {
			b := a[off : off+size]
			gf64.AddVec(b[q:2*q], b[q:2*q], b[2*q:3*q])
			gf64.AddVec(b[2*q:3*q], b[2*q:3*q], b[3*q:])
		}
	}
}
