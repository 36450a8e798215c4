package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
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
		require.Len(t, h, wantLen, "n=%d: expansion length", n)
		requirePoly(t, p, recompose(h), "n=%d: the expansion recomposes to p", n)
		back, err := FromTaylorExpansion(h)
		require.NoError(t, err, "n=%d", n)
		requirePoly(t, p, back, "n=%d: FromTaylorExpansion round trip", n)
	}
	// known: x² = 1·(x² + x) + x, so h_0 = x, h_1 = 1
	assert.Equal(t, []gf64.Element{0, 1, 1, 0}, (Poly{0, 0, 1}).TaylorExpansion(), "Taylor(x²)")
	// in place, large power-of-two sizes, against compose
	sizes := []int{1 << 10, 1 << 14}
	for _, n := range sizes {
		a := randPoly(r, n)
		b := append([]gf64.Element(nil), a...)
		require.NoError(t, TaylorExpandInPlace(b))
		require.NoError(t, TaylorComposeInPlace(b))
		requirePoly(t, a, b, "in-place round trip n=%d", n)
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
	assert.Equal(t, a.Eval(x), acc, "the expansion evaluated at %v against p", x)
}

func TestTaylorErrors(t *testing.T) {
	for _, n := range []int{3, 5, 6, 12} {
		a := make([]gf64.Element, n)
		require.ErrorIs(t, TaylorExpandInPlace(a), ErrLength, "TaylorExpandInPlace len %d", n)
		require.ErrorIs(t, TaylorComposeInPlace(a), ErrLength, "TaylorComposeInPlace len %d", n)
		_, err := FromTaylorExpansion(a)
		require.ErrorIs(t, err, ErrLength, "FromTaylorExpansion len %d", n)
	}
	for _, n := range []int{0, 1, 2} {
		a := []gf64.Element{5, 6}[:n]
		assert.NoError(t, TaylorExpandInPlace(a), "len %d", n)
		assert.Equal(t, []gf64.Element{5, 6}[:n], a, "len %d: the expansion of a polynomial of degree < 2 is itself", n)
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
		testutil.RequireEqualSlices(t, want, got, "n=2^%d: expansion against the reference", k)
		taylorCompose(got)
		testutil.RequireEqualSlices(t, a, got, "n=2^%d: compose(expand(a))", k)
	}
}
