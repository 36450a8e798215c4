package domain

import (
	"math/rand/v2"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Simple, obviously right references.

// horner evaluates Σ c[i] x^i.
func horner(c []gf64.Element, x gf64.Element) gf64.Element {
	var y gf64.Element
	for i := len(c) - 1; i >= 0; i-- {
		y = gf64.Mul(y, x) ^ c[i]
	}
	return y
}

// subspacePoly evaluates W_r(x) = Π over a in span(basis[:r]) of (x + a).
func subspacePoly(basis []gf64.Element, r int, x gf64.Element) gf64.Element {
	y := gf64.One
	pts := []gf64.Element{0}
	for j := 0; j < r; j++ {
		for _, a := range pts[:len(pts)] {
			pts = append(pts, a^basis[j])
		}
	}
	for _, a := range pts {
		y = gf64.Mul(y, x^a)
	}
	return y
}

// novelEval evaluates Σ d[i] X_i(x) with X_i = Π_{bit r of i} W_r(x)/W_r(v_r).
func novelEval(basis, d []gf64.Element, x gf64.Element) gf64.Element {
	m := len(basis)
	what := make([]gf64.Element, m)
	for r := 0; r < m; r++ {
		what[r] = gf64.Div(subspacePoly(basis, r, x), subspacePoly(basis, r, basis[r]))
	}
	var y gf64.Element
	for i, c := range d {
		t := c
		for r := 0; r < m; r++ {
			if i>>uint(r)&1 == 1 {
				t = gf64.Mul(t, what[r])
			}
		}
		y ^= t
	}
	return y
}

func newRand(t testing.TB, seed uint64) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func randElem(r *rand.Rand) gf64.Element { return gf64.Element(r.Uint64()) }

func randVec(r *rand.Rand, n int) []gf64.Element {
	v := make([]gf64.Element, n)
	for i := range v {
		v[i] = randElem(r)
	}
	return v
}

// randSubspace returns a random m-dimensional affine subspace. kind selects
// the shift: 0 random, 1 zero, 2 inside the span; kind 3 uses a basis of
// small elements (many carries-free products, near the bottom bits).
func randSubspace(t testing.TB, r *rand.Rand, m, kind int) *Subspace {
	t.Helper()
	for {
		basis := make([]gf64.Element, m)
		for i := range basis {
			basis[i] = randElem(r)
			if kind == 3 {
				basis[i] = gf64.Element(1) << uint(r.IntN(64))
				basis[i] ^= gf64.Element(r.Uint64() & 0xff)
			}
		}
		shift := randElem(r)
		switch kind {
		case 1:
			shift = 0
		case 2:
			shift = 0
			for _, b := range basis {
				if r.IntN(2) == 1 {
					shift ^= b
				}
			}
		}
		s, err := New(shift, basis...)
		if err == nil {
			return s
		}
	}
}
