package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func TestDivMod(t *testing.T) {
	r := newRand(20)
	lens := []int{0, 1, 2, 3, 5, 17, 64, 100, 333}
	for _, na := range lens {
		for _, nb := range lens {
			if nb == 0 {
				continue
			}
			a, b := randPoly(r, na), randPoly(r, nb)
			if na%2 == 1 {
				b[nb-1] = 1 // monic divisor path
			}
			ac, bc := a.Clone(), b.Clone()
			q, rem, err := a.DivMod(b)
			require.NoError(t, err)
			require.True(t, isNormalized(q), "quotient not normalized")
			require.True(t, isNormalized(rem), "remainder not normalized")
			require.Less(t, rem.Degree(), b.Degree(), "deg r < deg b")
			requirePoly(t, a, naiveMul(q, b).Add(rem), "q·b + r for lengths %d, %d", na, nb)
			requirePoly(t, ac, a, "DivMod modified the dividend")
			requirePoly(t, bc, b, "DivMod modified the divisor")
		}
	}
	// exact division
	a, b := randPoly(r, 50), randPoly(r, 20)
	q, rem, err := naiveMul(a, b).DivMod(b)
	require.NoError(t, err)
	assertPoly(t, a, q, "exact division: quotient")
	assert.True(t, rem.IsZero(), "exact division: remainder %v", rem)
	// trailing zeros in the divisor
	q2, _, err := naiveMul(a, b).DivMod(append(b.Clone(), 0, 0))
	require.NoError(t, err)
	assertPoly(t, a, q2, "divisor with trailing zeros")
	wantQ, wantR, err := a.DivMod(b)
	require.NoError(t, err)
	d, err := a.Div(b)
	require.NoError(t, err)
	assertPoly(t, wantQ, d, "Div is DivMod's quotient")
	m, err := a.Mod(b)
	require.NoError(t, err)
	assert.Less(t, m.Degree(), b.Degree(), "deg Mod < deg b")
	assertPoly(t, wantR, m, "Mod is DivMod's remainder")
}

func TestDivModByZero(t *testing.T) {
	for _, d := range []Poly{nil, {}, {0, 0}} {
		_, _, err := (Poly{1, 2}).DivMod(d)
		require.ErrorIs(t, err, ErrDivisionByZero, "DivMod by %v", d)
	}
	_, err := (Poly{1}).Div(nil)
	require.ErrorIs(t, err, ErrDivisionByZero, "Div by zero")
	_, err = (Poly{1}).Mod(nil)
	require.ErrorIs(t, err, ErrDivisionByZero, "Mod by zero")
}

func ExamplePoly_DivMod() {
	// (x³ + 1) = (x² + x + 1)(x + 1) + 0 in characteristic 2
	q, r, err := New(1, 0, 0, 1).DivMod(New(1, 1))
	fmt.Println(q, "|", r, err)
	// Output: 0x0000000000000001*x^2 + 0x0000000000000001*x + 0x0000000000000001 | 0 <nil>
}

// TestDivModNewton compares the Newton-iteration division with long division
// on every shape, small ones included (DivMod only uses Newton on long
// inputs), and checks the power series inverse.
func TestDivModNewton(t *testing.T) {
	r := newRand(21)
	shapes := [][2]int{{1, 1}, {2, 1}, {5, 2}, {7, 7}, {8, 3}, {30, 29}, {100, 3}, {100, 60}, {257, 100}, {600, 300}, {1000, 999}}
	if !testing.Short() {
		shapes = append(shapes, [2]int{3000, 1000}, [2]int{5000, 2600})
	}
	for _, sh := range shapes {
		a, d := randPoly(r, sh[0]), randPoly(r, sh[1])
		a[sh[0]-1], d[sh[1]-1] = 1, gf64.Element(sh[1]|1)
		q1, r1 := divModLong(a, d)
		q2, r2 := divModNewton(a, d)
		requirePoly(t, q1, q2, "%d / %d: Newton quotient against long division", sh[0], sh[1])
		requirePoly(t, r1, r2, "%d / %d: Newton remainder against long division", sh[0], sh[1])
		require.True(t, isNormalized(q2), "%d / %d: Newton quotient not normalized", sh[0], sh[1])
		require.True(t, isNormalized(r2), "%d / %d: Newton remainder not normalized", sh[0], sh[1])
	}
	// DivMod on large inputs takes the Newton path
	assert.True(t, useNewton(1<<13, 1<<13), "useNewton(2^13, 2^13)")
	assert.False(t, useNewton(1<<13, 10), "useNewton(2^13, 10)")
	assert.False(t, useNewton(10, 1<<13), "useNewton(10, 2^13)")
	a, d := randPoly(r, 1<<14), randPoly(r, 1<<13)
	q, rem, err := a.DivMod(d)
	require.NoError(t, err, "large DivMod")
	requirePoly(t, a, naiveMul(q, d).Add(rem), "large DivMod: q·d + r")
	require.Less(t, rem.Degree(), d.Degree(), "large DivMod: deg r < deg d")
	for _, k := range []int{1, 2, 3, 17, 64, 100} {
		f := randPoly(r, 1+intn(r, 2*k))
		f[0] |= 1
		g := inverseSeries(f, k)
		prod := naiveMul(f, g)
		low := make(Poly, k)
		for i := range low {
			low[i] = prod.Coeff(i)
		}
		requirePoly(t, Poly{1}, low, "inverseSeries k=%d: f·g mod x^k", k)
	}
}
