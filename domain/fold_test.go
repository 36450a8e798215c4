package domain

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// vanishingNaive evaluates Π_{v ∈ span(basis)} (x − v) by brute force.
func vanishingNaive(basis []gf64.Element, x gf64.Element) gf64.Element {
	p := gf64.Element(1)
	for i := 0; i < 1<<len(basis); i++ {
		var v gf64.Element
		for j, b := range basis {
			if i>>j&1 == 1 {
				v ^= b
			}
		}
		p = gf64.Mul(p, x^v)
	}
	return p
}

func TestFoldSubspace(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for m := 0; m <= 7; m++ {
		basis := make([]gf64.Element, m)
		for i := range basis {
			basis[i] = gf64.Element(r.Uint64())
		}
		s, err := New(gf64.Element(r.Uint64()), basis...)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= m; k++ {
			f, err := s.Fold(k)
			if err != nil {
				t.Fatal(err)
			}
			if f.Dim() != m-k {
				t.Fatalf("m=%d k=%d: dim %d", m, k, f.Dim())
			}
			for i := 0; i < s.Size(); i++ {
				want := vanishingNaive(basis[:k], s.Element(i))
				if got := f.Element(i >> k); got != want {
					t.Fatalf("m=%d k=%d: folded element %d = %v, q(S[%d]) = %v", m, k, i>>k, got, i, want)
				}
			}
			// Folding in steps is folding at once.
			if k > 0 {
				g, err := s.Fold(k - 1)
				if err != nil {
					t.Fatal(err)
				}
				g, err = g.Fold(1)
				if err != nil {
					t.Fatal(err)
				}
				if g.Shift() != f.Shift() || len(g.Basis()) != len(f.Basis()) {
					t.Fatalf("m=%d k=%d: stepwise fold differs", m, k)
				}
				for i, b := range g.Basis() {
					if b != f.Basis()[i] {
						t.Fatalf("m=%d k=%d: stepwise fold basis differs", m, k)
					}
				}
			}
		}
		for _, k := range []int{-1, m + 1} {
			if _, err := s.Fold(k); !errors.Is(err, ErrDim) {
				t.Fatalf("Fold(%d) of dim %d: %v", k, m, err)
			}
		}
	}
}
