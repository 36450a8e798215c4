package poly

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// recompose returns Σ_i (h[2i] + h[2i+1]x)(x² + x)^i the slow way.
func recompose(h []gf64.Element) Poly {
	var acc Poly
	pow := Poly{1}
	for i := 0; 2*i < len(h); i++ {
		hi := Poly{h[2*i]}
		if 2*i+1 < len(h) {
			hi = Poly{h[2*i], h[2*i+1]}
		}
		acc = acc.Add(naiveMul(hi.Normalize(), pow))
		pow = naiveMul(pow, Poly{0, 1, 1})
	}
	return acc
}

func TestTaylorExpansion(t *testing.T) {
	r := newRand(30)
	for n := 0; n <= 130; n++ {
		p := randPoly(r, n)
		h := p.TaylorExpansion()
		wantLen := 2
		for wantLen < n {
			wantLen *= 2
		}
		if len(h) != wantLen {
			t.Fatalf("n=%d: expansion length %d, want %d", n, len(h), wantLen)
		}
		if !recompose(h).Equal(p) {
			t.Fatalf("n=%d: expansion does not recompose to p", n)
		}
		back, err := FromTaylorExpansion(h)
		if err != nil || !back.Equal(p) {
			t.Fatalf("n=%d: FromTaylorExpansion round trip: %v", n, err)
		}
	}
	// known: x² = 1·(x² + x) + x, so h_0 = x, h_1 = 1
	if h := (Poly{0, 0, 1}).TaylorExpansion(); h[0] != 0 || h[1] != 1 || h[2] != 1 || h[3] != 0 {
		t.Errorf("Taylor(x²) = %v", h)
	}
	// in place, large power-of-two sizes, against compose
	sizes := []int{1 << 10, 1 << 14}
	for _, n := range sizes {
		a := randPoly(r, n)
		b := append([]gf64.Element(nil), a...)
		if err := TaylorExpandInPlace(b); err != nil {
			t.Fatal(err)
		}
		if err := TaylorComposeInPlace(b); err != nil {
			t.Fatal(err)
		}
		if !Poly(b).Equal(a) {
			t.Fatalf("in-place round trip n=%d", n)
		}
	}
	// the expansion as a map is also checked by evaluation for one large size
	a := randPoly(r, 1<<9)
	h := a.TaylorExpansion()
	x := randElem(r)
	y := gf64.Square(x) ^ x
	var acc gf64.Element
	for i := len(h)/2 - 1; i >= 0; i-- {
		acc = gf64.Mul(acc, y) ^ h[2*i] ^ gf64.Mul(h[2*i+1], x)
	}
	if acc != a.Eval(x) {
		t.Error("expansion evaluated at a point differs from p")
	}
}

func TestTaylorErrors(t *testing.T) {
	for _, n := range []int{3, 5, 6, 12} {
		a := make([]gf64.Element, n)
		if err := TaylorExpandInPlace(a); !errors.Is(err, ErrLength) {
			t.Errorf("TaylorExpandInPlace len %d: %v", n, err)
		}
		if err := TaylorComposeInPlace(a); !errors.Is(err, ErrLength) {
			t.Errorf("TaylorComposeInPlace len %d: %v", n, err)
		}
		if _, err := FromTaylorExpansion(a); !errors.Is(err, ErrLength) {
			t.Errorf("FromTaylorExpansion len %d: %v", n, err)
		}
	}
	for _, n := range []int{0, 1, 2} {
		a := []gf64.Element{5, 6}[:n]
		if err := TaylorExpandInPlace(a); err != nil {
			t.Errorf("len %d: %v", n, err)
		}
	}
}

func ExamplePoly_TaylorExpansion() {
	// x³ = x + (1 + x)·(x² + x): h_0 = x, h_1 = 1 + x
	h := New(0, 0, 0, 1).TaylorExpansion()
	for i := 0; i < len(h); i += 2 {
		fmt.Printf("h_%d = %v + %v·x\n", i/2, h[i], h[i+1])
	}
	// Output:
	// h_0 = 0x0000000000000000 + 0x0000000000000001·x
	// h_1 = 0x0000000000000001 + 0x0000000000000001·x
}

// taylorRef is Algorithm 3.4 as written: split, add, recurse on both halves,
// with plain loops.
func taylorRef(a []gf64.Element) {
	n := len(a)
	if n <= 2 {
		return
	}
	q := n / 4
	for i := range q {
		a[2*q+i] ^= a[3*q+i]
	}
	for i := range q {
		a[q+i] ^= a[2*q+i]
	}
	taylorRef(a[:n/2])
	taylorRef(a[n/2:])
}

// TestTaylorAgainstReference compares the blocked, unrolled expansion with
// taylorRef on every power-of-two size up to beyond the recursion leaf, and
// its inverse with the identity.
func TestTaylorAgainstReference(t *testing.T) {
	r := newRand(31)
	maxLog := 16
	if testing.Short() {
		maxLog = 15
	}
	for k := 0; k <= maxLog; k++ {
		a := randPoly(r, 1<<k)
		want := append([]gf64.Element(nil), a...)
		taylorRef(want)
		got := append([]gf64.Element(nil), a...)
		taylorExpand(got)
		if !Poly(got).Equal(want) {
			t.Fatalf("n=2^%d: expansion differs from the reference", k)
		}
		taylorCompose(got)
		if !Poly(got).Equal(a) {
			t.Fatalf("n=2^%d: compose(expand(a)) != a", k)
		}
	}
}
