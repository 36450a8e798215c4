package rs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// novelMonomials returns the monomial coefficients of X_0..X_{2^m−1} for
// basis, built from the definition: W_j = ∏_{u ∈ span(β_0..β_{j−1})} (x − u),
// Ŵ_j = W_j / W_j(β_j), X_i = ∏_{bit j of i} Ŵ_j.
func novelMonomials(basis []gf64.Element) [][]gf64.Element {
	m := len(basis)
	hat := make([][]gf64.Element, m)
	for j := range m {
		w := []gf64.Element{gf64.One}
		for _, u := range points(0, basis[:j]) {
			w = naiveMul(w, []gf64.Element{u, gf64.One})
		}
		inv := gf64.Inverse(hornerEval(w, basis[j]))
		for i := range w {
			w[i] = gf64.Mul(w[i], inv)
		}
		hat[j] = w
	}
	x := make([][]gf64.Element, 1<<m)
	for i := range x {
		p := []gf64.Element{gf64.One}
		for j := range m {
			if i>>j&1 == 1 {
				p = naiveMul(p, hat[j])
			}
		}
		x[i] = p
	}
	return x
}

func novelToMonomialNaive(xs [][]gf64.Element, a []gf64.Element) []gf64.Element {
	out := make([]gf64.Element, len(a))
	for i, c := range a {
		for d, v := range xs[i] {
			out[d] ^= gf64.Mul(c, v)
		}
	}
	return out
}

// evalAt returns the polynomial with coefficients c at every point of xs.
func evalAt(c, xs []gf64.Element) []gf64.Element {
	out := make([]gf64.Element, len(xs))
	for i, x := range xs {
		out[i] = hornerEval(c, x)
	}
	return out
}

func TestNovelTransforms(t *testing.T) {
	r := newRand(t, 2)
	for m := 0; m <= 7; m++ {
		basis := randBasis(r, m)
		nv := newNovel(basis, m)
		xs := novelMonomials(basis)
		for i, p := range xs {
			require.Len(t, p, i+1, "m=%d: the coefficients of X_%d, of degree %d", m, i, i)
		}
		for d := 0; d <= m; d++ {
			for _, shift := range []gf64.Element{0, randElem(r), point(0, basis, r.IntN(1<<m))} {
				off := make([]gf64.Element, m)
				nv.hatAt(off, shift)
				a := randVec(r, 1<<d)
				mono := novelToMonomialNaive(xs, a)
				got := append([]gf64.Element(nil), a...)
				nv.fft(got, d, d-1, off)
				pts := points(shift, basis[:d])
				testutil.RequireEqualSlices(t, evalAt(mono, pts), got, "m=%d d=%d shift=%v: fft against Horner's rule", m, d, shift)
				nv.ifft(got, d, off)
				testutil.RequireEqualSlices(t, a, got, "m=%d d=%d: ifft∘fft", m, d)
				// The derivative, checked through its evaluations.
				der := make([]gf64.Element, len(a))
				nv.derivative(der, a)
				nv.fft(der, d, d-1, off)
				testutil.RequireEqualSlices(t, evalAt(naiveDeriv(mono), pts), der, "m=%d d=%d: derivative at the points", m, d)
			}
		}
	}
}
