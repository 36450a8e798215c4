package rs

import "github.com/gfpoly/gfpoly/field/gf64"

// novel holds the Lin–Chung–Han novel polynomial basis of a linear basis
// β_0..β_{m−1} and the tables its transforms use. With W_j the vanishing
// polynomial of span(β_0..β_{j−1}) (W_0(x) = x) and Ŵ_j = W_j / W_j(β_j), the
// basis polynomials are X_i = ∏_{j : bit j of i} Ŵ_j, so X_i has degree i and
// X_0..X_{2^d−1} span the polynomials of degree < 2^d for every d ≤ m. Every
// prefix β_0..β_{d−1} has as its novel basis a prefix of this one, which the
// erasure decoder's product tree relies on.
//
// The transforms evaluate at, and interpolate from, the points
// shift + Σ_j bit_j(t)·β_j of a prefix space of dimension d ≤ m, in the order
// of DESIGN.md. A novel is immutable after newNovel and safe for concurrent
// use.
type novel struct {
	m     int
	basis []gf64.Element
	// w[j][l] = W_j(β_l) for l ≥ j (0 for l < j); w[j][j] ≠ 0.
	w [][]gf64.Element
	// tw[j][r] = Ŵ_j(Σ_{l>j} bit_{l−j−1}(r)·β_l), r < 2^(d−j−1), for the
	// prefix spaces of dimension ≤ d = min(m, maxDim): the twiddle of
	// butterfly layer j, block r, for shift 0.
	tw [][]gf64.Element
	// deriv[j] = Ŵ_j′, a constant because W_j is a linearized polynomial.
	deriv []gf64.Element
}

// newNovel builds the tables of basis; the twiddle tables cover the prefix
// spaces of dimension ≤ maxDim only (the transforms are used on those).
func newNovel(basis []gf64.Element, maxDim int) *novel {
	m := len(basis)
	td := min(m, maxDim)
	nv := &novel{m: m, basis: append([]gf64.Element(nil), basis...)}
	nv.w = make([][]gf64.Element, m+1)
	nv.w[0] = append([]gf64.Element(nil), basis...) // W_0(x) = x
	for j := 0; j < m; j++ {
		// W_{j+1}(x) = W_j(x)·(W_j(x) + W_j(β_j)).
		next := make([]gf64.Element, m)
		c := nv.w[j][j]
		for l := j + 1; l < m; l++ {
			v := nv.w[j][l]
			next[l] = gf64.Mul(v, v^c)
		}
		nv.w[j+1] = next
	}
	nv.tw = make([][]gf64.Element, td)
	for j := 0; j < td; j++ {
		inv := gf64.Inverse(nv.w[j][j])
		t := make([]gf64.Element, 1<<(td-j-1))
		for b := 0; j+1+b < td; b++ {
			h := gf64.Mul(nv.w[j][j+1+b], inv)
			lo := 1 << b
			for r := 0; r < lo; r++ {
				t[lo+r] = t[r] ^ h
			}
		}
		nv.tw[j] = t
	}
	// W_{j+1}′ = W_j′·W_j(β_j), W_0′ = 1.
	nv.deriv = make([]gf64.Element, m)
	d := gf64.One
	for j := 0; j < m; j++ {
		nv.deriv[j] = gf64.Div(d, nv.w[j][j])
		d = gf64.Mul(d, nv.w[j][j])
	}
	return nv
}

// hatAt returns Ŵ_j(x) for every j < d, for x = shift: the per-layer offsets
// of the twiddles of a shifted space. Ŵ_j is GF(2)-linear, so the twiddle of
// layer j, block r over shift s is tw[j][r] + Ŵ_j(s).
func (nv *novel) hatAt(dst []gf64.Element, s gf64.Element) {
	// W_j(s) by the same recursion as the table.
	v := s
	for j := range dst {
		c := nv.w[j][j]
		dst[j] = gf64.Div(v, c)
		v = gf64.Mul(v, v^c)
	}
}

// fft evaluates the polynomial Σ a_i X_i (len(a) = 2^d, d ≤ m) at the points
// of the prefix space of dimension d shifted by the shift whose offsets off
// (len ≥ d, from hatAt) are given, or shift 0 when off is nil; in place.
// Layers above top (top < d−1) are skipped: the caller has already applied
// them (e.g. a zero upper half, whose top layer is a copy).
func (nv *novel) fft(a []gf64.Element, d, top int, off []gf64.Element) {
	for j := top; j >= 0; j-- {
		h := 1 << j
		tw := nv.tw[j]
		var o gf64.Element
		if off != nil {
			o = off[j]
		}
		for r, base := 0, 0; base < len(a); r, base = r+1, base+2*h {
			c := tw[r] ^ o
			if h == 1 {
				u := a[base] ^ gf64.Mul(c, a[base+1])
				a[base], a[base+1] = u, a[base+1]^u
				continue
			}
			gf64.Butterfly(a[base:base+h], a[base+h:base+2*h], c)
		}
	}
}

// ifft is the inverse of fft with top = d−1: evaluations over the shifted
// prefix space of dimension d in, novel coefficients out; in place.
func (nv *novel) ifft(a []gf64.Element, d int, off []gf64.Element) {
	for j := 0; j < d; j++ {
		h := 1 << j
		tw := nv.tw[j]
		var o gf64.Element
		if off != nil {
			o = off[j]
		}
		for r, base := 0, 0; base < len(a); r, base = r+1, base+2*h {
			c := tw[r] ^ o
			if h == 1 {
				v := a[base+1] ^ a[base]
				a[base], a[base+1] = a[base]^gf64.Mul(c, v), v
				continue
			}
			gf64.InvButterfly(a[base:base+h], a[base+h:base+2*h], c)
		}
	}
}

// derivative sets dst to the formal derivative of Σ a_i X_i in the novel
// basis: X_i′ = Σ_{j : bit j of i} Ŵ_j′·X_{i−2^j}. dst and a have the same
// length, a power of two ≤ 2^m, and must not overlap.
func (nv *novel) derivative(dst, a []gf64.Element) {
	clear(dst)
	for j := 0; 1<<j < len(a); j++ {
		h := 1 << j
		c := nv.deriv[j]
		for base := 0; base < len(a); base += 2 * h {
			gf64.MulAddVec(dst[base:base+h], a[base+h:base+2*h], c)
		}
	}
}
