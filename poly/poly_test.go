package poly

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func newRand(seed uint64) *rand.ChaCha8 {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

// randPoly returns n random coefficients; with some probability the top one
// is zeroed or the values are small, to reach edge cases.
func randPoly(r *rand.ChaCha8, n int) Poly {
	p := make(Poly, n)
	if err := gf64.RandomVec(p, r); err != nil {
		panic(err)
	}
	return p
}

func randElem(r *rand.ChaCha8) gf64.Element {
	e, err := gf64.Random(r)
	if err != nil {
		panic(err)
	}
	return e
}

// naiveMul is the obviously right product: every pair of terms, scalar Mul.
func naiveMul(a, b Poly) Poly {
	if len(a) == 0 || len(b) == 0 {
		return Poly{}
	}
	out := make(Poly, len(a)+len(b)-1)
	for i, x := range a {
		for j, y := range b {
			out[i+j] ^= gf64.Mul(x, y)
		}
	}
	return out.Normalize()
}

// naiveEval is Σ c_i·x^i with explicit powers.
func naiveEval(p Poly, x gf64.Element) gf64.Element {
	var acc gf64.Element
	for i, c := range p {
		acc ^= gf64.Mul(c, gf64.Exp(x, uint64(i)))
	}
	return acc
}

func isNormalized(p Poly) bool { return len(p) == 0 || p[len(p)-1] != 0 }

// assertPoly asserts that got is the polynomial want (trailing zero
// coefficients ignored, as Poly.Equal does), naming the first differing
// coefficient.
func assertPoly(t *testing.T, want, got Poly, msgAndArgs ...any) bool {
	t.Helper()
	return testutil.EqualSlices(t, []gf64.Element(want.Normalize()), []gf64.Element(got.Normalize()), msgAndArgs...)
}

// requirePoly is assertPoly that stops the test on a mismatch.
func requirePoly(t *testing.T, want, got Poly, msgAndArgs ...any) {
	t.Helper()
	if !assertPoly(t, want, got, msgAndArgs...) {
		t.FailNow()
	}
}

func TestDegreeAndNormalize(t *testing.T) {
	cases := []struct {
		p    Poly
		want int
	}{
		{nil, -1}, {Poly{}, -1}, {Poly{0, 0}, -1}, {Poly{5}, 0}, {Poly{0, 1}, 1}, {Poly{1, 2, 0, 0}, 1},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.p.Degree(), "Degree(%v)", []gf64.Element(c.p))
		assert.Len(t, c.p.Normalize(), c.want+1, "Normalize(%v)", []gf64.Element(c.p))
		assert.Equal(t, c.want < 0, c.p.IsZero(), "IsZero(%v)", []gf64.Element(c.p))
	}
	assert.True(t, New(1, 2, 0).Equal(Poly{1, 2}), "Equal ignores trailing zeros")
	assert.False(t, New(1).Equal(Poly{2}), "Equal of different constants")
	assert.False(t, New().Equal(Poly{1}), "Equal of 0 and 1")
	assert.Equal(t, 4, Monomial(3, 4).Degree(), "Monomial(3, 4)")
	assert.Equal(t, -1, Monomial(0, 4).Degree(), "Monomial(0, 4)")
	p := Poly{1, 2, 3}
	assert.Equal(t, gf64.Element(0), p.Coeff(-1), "Coeff(-1)")
	assert.Equal(t, gf64.Element(2), p.Coeff(1), "Coeff(1)")
	assert.Equal(t, gf64.Element(0), p.Coeff(3), "Coeff(3)")
	assert.Equal(t, gf64.Element(3), p.Lead(), "Lead")
	assert.Equal(t, gf64.Element(0), (Poly{}).Lead(), "Lead of zero")
	assert.Equal(t, "0x0000000000000002*x^2 + 0x0000000000000001", (Poly{1, 0, 2}).String())
	assert.Equal(t, "0x0000000000000003*x", (Poly{0, 3}).String())
	assert.Equal(t, "0", (Poly{}).String(), "String of zero")
}

func TestEval(t *testing.T) {
	r := newRand(1)
	for n := range 40 {
		p := randPoly(r, n)
		xs := make([]gf64.Element, 7)
		require.NoError(t, gf64.RandomVec(xs, r))
		xs[0], xs[1] = 0, 1
		got := make([]gf64.Element, len(xs))
		require.NoError(t, p.EvalPoints(got, xs))
		want := make([]gf64.Element, len(xs))
		for j, x := range xs {
			want[j] = naiveEval(p, x)
			require.Equal(t, want[j], p.Eval(x), "n=%d: Eval(%v)", n, x)
		}
		assert.Equal(t, want, got, "n=%d: EvalPoints", n)
		// dst aliasing xs
		cp := append([]gf64.Element(nil), xs...)
		require.NoError(t, p.EvalPoints(cp, cp))
		assert.Equal(t, got, cp, "aliased EvalPoints")
	}
	require.ErrorIs(t, (Poly{1}).EvalPoints(make([]gf64.Element, 2), make([]gf64.Element, 3)), ErrLength, "EvalPoints length mismatch")
	// known value: at x = X, X² + X + 1 = 0b111
	assert.Equal(t, gf64.Element(7), (Poly{1, 1, 1}).Eval(gf64.X), "x² + x + 1 at x = X")
}

func TestAddScale(t *testing.T) {
	r := newRand(2)
	for n := range 20 {
		for m := range 20 {
			a, b := randPoly(r, n), randPoly(r, m)
			s := a.Add(b)
			require.True(t, isNormalized(s), "Add result not normalized")
			requirePoly(t, b.Add(a), s, "Add is commutative")
			requirePoly(t, a.Sub(b), s, "Sub is Add")
			x := randElem(r)
			require.Equal(t, a.Eval(x)^b.Eval(x), s.Eval(x), "(a + b)(x)")
			requirePoly(t, nil, a.Add(a), "a + a")
			c := randElem(r)
			require.Equal(t, gf64.Mul(c, a.Eval(x)), a.Scale(c).Eval(x), "(c·a)(x)")
			requirePoly(t, nil, a.Scale(0), "0·a")
			require.True(t, isNormalized(a.Scale(c)), "Scale result not normalized")
		}
	}
	// inputs are not modified
	a, b := Poly{1, 2, 3}, Poly{4, 5}
	_ = a.Add(b)
	_ = a.Scale(7)
	assert.Equal(t, Poly{1, 2, 3}, a, "Add or Scale modified its receiver")
	assert.Equal(t, Poly{4, 5}, b, "Add modified its argument")
}

func TestDerivative(t *testing.T) {
	// d/dx (c0 + c1 x + c2 x² + c3 x³ + c4 x⁴ + c5 x⁵) = c1 + c3 x² + c5 x⁴
	p := Poly{10, 11, 12, 13, 14, 15}
	assertPoly(t, Poly{11, 0, 13, 0, 15}, p.Derivative(), "Derivative")
	// even powers vanish: x⁴ + x² + 1 has derivative 0
	assert.True(t, (Poly{1, 0, 1, 0, 1}).Derivative().IsZero(), "derivative of x⁴+x²+1")
	assert.True(t, (Poly{}).Derivative().IsZero(), "derivative of 0")
	assert.True(t, (Poly{5}).Derivative().IsZero(), "derivative of a constant")
	// product rule on random inputs
	r := newRand(3)
	for range 20 {
		a, b := randPoly(r, 1+intn(r, 30)), randPoly(r, 1+intn(r, 30))
		lhs := naiveMul(a, b).Derivative()
		rhs := naiveMul(a.Derivative(), b).Add(naiveMul(a, b.Derivative()))
		requirePoly(t, rhs, lhs, "product rule")
	}
}

func intn(r *rand.ChaCha8, n int) int { return int(r.Uint64() % uint64(n)) }
