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
// (g0), and then both halves recursively. The recursion runs depth first,
// so that once a block fits in the cache all its levels run there; blocks of
// taylorLeaf elements or fewer run level by level, with the three smallest
// levels (q ≤ 4) as plain loops instead of vector calls.
func taylorExpand(a []gf64.Element) {
	n := len(a)
	if n <= taylorLeaf {
		taylorLevels(a)
		return
	}
	q := n / 4
	gf64.AddVec(a[2*q:3*q], a[2*q:3*q], a[3*q:])
	gf64.AddVec(a[q:2*q], a[q:2*q], a[2*q:3*q])
	taylorExpand(a[:n/2])
	taylorExpand(a[n/2:])
}

// taylorLeaf is the block size (elements) below which taylorExpand and
// taylorCompose stop recursing: 64 KiB, well inside L2.
const taylorLeaf = 1 << 13

// taylorLevels runs every level of the expansion on a, widest first.
func taylorLevels(a []gf64.Element) {
	n := len(a)
	for size := n; size > 16; size >>= 1 {
		q := size / 4
		for off := 0; off < n; off += size {
			b := a[off : off+size]
			gf64.AddVec(b[2*q:3*q], b[2*q:3*q], b[3*q:])
			gf64.AddVec(b[q:2*q], b[q:2*q], b[2*q:3*q])
		}
	}
	for off := 0; off+16 <= n; off += 16 { // size 16, q = 4
		b := (*[16]gf64.Element)(a[off : off+16])
		b[8] ^= b[12]
		b[9] ^= b[13]
		b[10] ^= b[14]
		b[11] ^= b[15]
		b[4] ^= b[8]
		b[5] ^= b[9]
		b[6] ^= b[10]
		b[7] ^= b[11]
	}
	for off := 0; off+8 <= n; off += 8 { // size 8, q = 2
		b := (*[8]gf64.Element)(a[off : off+8])
		b[4] ^= b[6]
		b[5] ^= b[7]
		b[2] ^= b[4]
		b[3] ^= b[5]
	}
	for off := 0; off+4 <= n; off += 4 { // size 4, q = 1
		b := (*[4]gf64.Element)(a[off : off+4])
		b[2] ^= b[3]
		b[1] ^= b[2]
	}
}

// taylorCompose runs taylorExpand's steps backwards.
func taylorCompose(a []gf64.Element) {
	n := len(a)
	if n <= taylorLeaf {
		taylorComposeLevels(a)
		return
	}
	taylorCompose(a[:n/2])
	taylorCompose(a[n/2:])
	q := n / 4
	gf64.AddVec(a[q:2*q], a[q:2*q], a[2*q:3*q])
	gf64.AddVec(a[2*q:3*q], a[2*q:3*q], a[3*q:])
}

// taylorComposeLevels undoes taylorLevels, narrowest level first.
func taylorComposeLevels(a []gf64.Element) {
	n := len(a)
	for off := 0; off+4 <= n; off += 4 {
		b := (*[4]gf64.Element)(a[off : off+4])
		b[1] ^= b[2]
		b[2] ^= b[3]
	}
	for off := 0; off+8 <= n; off += 8 {
		b := (*[8]gf64.Element)(a[off : off+8])
		b[2] ^= b[4]
		b[3] ^= b[5]
		b[4] ^= b[6]
		b[5] ^= b[7]
	}
	for off := 0; off+16 <= n; off += 16 {
		b := (*[16]gf64.Element)(a[off : off+16])
		b[4] ^= b[8]
		b[5] ^= b[9]
		b[6] ^= b[10]
		b[7] ^= b[11]
		b[8] ^= b[12]
		b[9] ^= b[13]
		b[10] ^= b[14]
		b[11] ^= b[15]
	}
	for size := 32; size <= n; size <<= 1 {
		q := size / 4
		for off := 0; off < n; off += size {
			b := a[off : off+size]
			gf64.AddVec(b[q:2*q], b[q:2*q], b[2*q:3*q])
			gf64.AddVec(b[2*q:3*q], b[2*q:3*q], b[3*q:])
		}
	}
}
