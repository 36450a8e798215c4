package rs

import (
	"math/rand/v2"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// This file holds the slow, obviously right references the tests compare
// with: polynomials as monomial coefficient slices (c_0 first), Horner
// evaluation, Lagrange interpolation at distinct points, all O(n²).

func newRand(t testing.TB, seed uint64) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(seed, 0x5eed))
}

func randElem(r *rand.Rand) gf64.Element { return gf64.Element(r.Uint64()) }

func randVec(r *rand.Rand, n int) []gf64.Element {
	v := make([]gf64.Element, n)
	for i := range v {
		v[i] = randElem(r)
	}
	return v
}

// randBasis returns m elements that are linearly independent over GF(2):
// with probability about 2^(m−64) a random draw is not, so it is redrawn.
func randBasis(r *rand.Rand, m int) []gf64.Element {
	for {
		b := randVec(r, m)
		if independent(b) {
			return b
		}
	}
}

// independent reports whether b is linearly independent over GF(2), by
// Gaussian elimination on the bits.
func independent(b []gf64.Element) bool {
	var rows []uint64
	for _, v := range b {
		x := uint64(v)
		for _, r := range rows {
			if x^r < x {
				x ^= r
			}
		}
		if x == 0 {
			return false
		}
		rows = append(rows, x)
		// keep rows sorted by leading bit, descending, so the reduction
		// above clears leading bits one by one.
		for i := len(rows) - 1; i > 0 && rows[i] > rows[i-1]; i-- {
			rows[i], rows[i-1] = rows[i-1], rows[i]
		}
	}
	return true
}

// point returns shift + Σ bit_j(i)·basis[j].
func point(shift gf64.Element, basis []gf64.Element, i int) gf64.Element {
	x := shift
	for j, b := range basis {
		if i>>j&1 == 1 {
			x ^= b
		}
	}
	return x
}

func points(shift gf64.Element, basis []gf64.Element) []gf64.Element {
	p := make([]gf64.Element, 1<<len(basis))
	for i := range p {
		p[i] = point(shift, basis, i)
	}
	return p
}

func hornerEval(c []gf64.Element, x gf64.Element) gf64.Element {
	var acc gf64.Element
	for i := len(c) - 1; i >= 0; i-- {
		acc = gf64.Mul(acc, x) ^ c[i]
	}
	return acc
}

func naiveMul(a, b []gf64.Element) []gf64.Element {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	c := make([]gf64.Element, len(a)+len(b)-1)
	for i, x := range a {
		for j, y := range b {
			c[i+j] ^= gf64.Mul(x, y)
		}
	}
	return c
}

func naiveDeriv(c []gf64.Element) []gf64.Element {
	d := make([]gf64.Element, len(c))
	for i := 1; i < len(c); i += 2 {
		d[i-1] = c[i]
	}
	return d
}

// lagrange returns the monomial coefficients (len(xs) of them) of the
// polynomial of degree < len(xs) through (xs[i], ys[i]).
func lagrange(xs, ys []gf64.Element) []gf64.Element {
	n := len(xs)
	// full = ∏ (x − xs[i])
	full := []gf64.Element{gf64.One}
	for _, x := range xs {
		full = naiveMul(full, []gf64.Element{x, gf64.One})
	}
	out := make([]gf64.Element, n)
	q := make([]gf64.Element, n)
	for i, xi := range xs {
		// q = full / (x − xi) by synthetic division.
		var carry gf64.Element
		for d := n; d >= 1; d-- {
			carry = full[d] ^ gf64.Mul(carry, xi)
			if d == n {
				carry = full[d]
			}
			q[d-1] = carry
		}
		den := hornerEval(q, xi)
		s := gf64.Div(ys[i], den)
		for d := range q {
			out[d] ^= gf64.Mul(s, q[d])
		}
	}
	return out
}

// naiveEncode evaluates the interpolant of msg over the message points at
// every codeword point: Lagrange then Horner, O(2^k·(2^k + 2^n)).
func naiveEncode(msgPts, cwPts, msg []gf64.Element) []gf64.Element {
	c := lagrange(msgPts, msg)
	out := make([]gf64.Element, len(cwPts))
	for i, x := range cwPts {
		out[i] = hornerEval(c, x)
	}
	return out
}

func TestLagrangeReference(t *testing.T) {
	r := newRand(t, 1)
	for n := 1; n <= 9; n++ {
		xs := randVec(r, n)
		c := randVec(r, n)
		ys := make([]gf64.Element, n)
		for i, x := range xs {
			ys[i] = hornerEval(c, x)
		}
		testutil.RequireEqualSlices(t, c, lagrange(xs, ys), "n=%d: coefficients of the interpolant", n)
	}
}
