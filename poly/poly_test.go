package poly

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
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

func TestDegreeAndNormalize(t *testing.T) {
	cases := []struct {
		p    Poly
		want int
	}{
		{nil, -1}, {Poly{}, -1}, {Poly{0, 0}, -1}, {Poly{5}, 0}, {Poly{0, 1}, 1}, {Poly{1, 2, 0, 0}, 1},
	}
	for _, c := range cases {
		if got := c.p.Degree(); got != c.want {
			t.Errorf("Degree(%v) = %d, want %d", []gf64.Element(c.p), got, c.want)
		}
		if n := c.p.Normalize(); len(n) != c.want+1 {
			t.Errorf("Normalize(%v) has length %d", []gf64.Element(c.p), len(n))
		}
		if !c.p.IsZero() != (c.want >= 0) {
			t.Errorf("IsZero(%v) wrong", []gf64.Element(c.p))
		}
	}
	if !New(1, 2, 0).Equal(Poly{1, 2}) || New(1).Equal(Poly{2}) || New().Equal(Poly{1}) {
		t.Error("Equal")
	}
	if Monomial(3, 4).Degree() != 4 || Monomial(0, 4).Degree() != -1 {
		t.Error("Monomial")
	}
	p := Poly{1, 2, 3}
	if p.Coeff(-1) != 0 || p.Coeff(1) != 2 || p.Coeff(3) != 0 || p.Lead() != 3 || (Poly{}).Lead() != 0 {
		t.Error("Coeff/Lead")
	}
	if got := (Poly{1, 0, 2}).String(); got != "0x0000000000000002*x^2 + 0x0000000000000001" {
		t.Errorf("String = %q", got)
	}
	if got := (Poly{0, 3}).String(); got != "0x0000000000000003*x" {
		t.Errorf("String = %q", got)
	}
	if (Poly{}).String() != "0" {
		t.Error("String of zero")
	}
}

func TestEval(t *testing.T) {
	r := newRand(1)
	for n := range 40 {
		p := randPoly(r, n)
		xs := make([]gf64.Element, 7)
		gf64.RandomVec(xs, r)
		xs[0], xs[1] = 0, 1
		got := make([]gf64.Element, len(xs))
		if err := p.EvalPoints(got, xs); err != nil {
			t.Fatal(err)
		}
		for j, x := range xs {
			want := naiveEval(p, x)
			if v := p.Eval(x); v != want {
				t.Fatalf("n=%d: Eval(%v) = %v, want %v", n, x, v, want)
			}
			if got[j] != want {
				t.Fatalf("n=%d: EvalPoints[%d] = %v, want %v", n, j, got[j], want)
			}
		}
		// dst aliasing xs
		cp := append([]gf64.Element(nil), xs...)
		if err := p.EvalPoints(cp, cp); err != nil {
			t.Fatal(err)
		}
		for j := range cp {
			if cp[j] != got[j] {
				t.Fatalf("aliased EvalPoints differs at %d", j)
			}
		}
	}
	if err := (Poly{1}).EvalPoints(make([]gf64.Element, 2), make([]gf64.Element, 3)); !errors.Is(err, ErrLength) {
		t.Errorf("EvalPoints length mismatch: %v", err)
	}
	// known value: (x² + x + 1)(x = 1) = 1, at x = X: X² + X + 1 = 0b111
	if v := (Poly{1, 1, 1}).Eval(gf64.X); v != 7 {
		t.Errorf("known value %v", v)
	}
}

func TestAddScale(t *testing.T) {
	r := newRand(2)
	for n := range 20 {
		for m := range 20 {
			a, b := randPoly(r, n), randPoly(r, m)
			s := a.Add(b)
			if !isNormalized(s) || !s.Equal(b.Add(a)) || !s.Equal(a.Sub(b)) {
				t.Fatalf("Add not normalized or not commutative")
			}
			x := randElem(r)
			if s.Eval(x) != a.Eval(x)^b.Eval(x) {
				t.Fatalf("Add evaluation")
			}
			if !a.Add(a).IsZero() {
				t.Fatalf("a + a != 0")
			}
			c := randElem(r)
			if a.Scale(c).Eval(x) != gf64.Mul(c, a.Eval(x)) || !a.Scale(0).IsZero() || !isNormalized(a.Scale(c)) {
				t.Fatalf("Scale")
			}
		}
	}
	// inputs are not modified
	a, b := Poly{1, 2, 3}, Poly{4, 5}
	_ = a.Add(b)
	_ = a.Scale(7)
	if !a.Equal(Poly{1, 2, 3}) || !b.Equal(Poly{4, 5}) {
		t.Error("inputs modified")
	}
}

func TestDerivative(t *testing.T) {
	// d/dx (c0 + c1 x + c2 x² + c3 x³ + c4 x⁴ + c5 x⁵) = c1 + c3 x² + c5 x⁴
	p := Poly{10, 11, 12, 13, 14, 15}
	if got, want := p.Derivative(), (Poly{11, 0, 13, 0, 15}); !got.Equal(want) {
		t.Errorf("Derivative = %v, want %v", got, want)
	}
	// even powers vanish: x⁴ + x² + 1 has derivative 0
	if d := (Poly{1, 0, 1, 0, 1}).Derivative(); !d.IsZero() {
		t.Errorf("derivative of x⁴+x²+1 = %v", d)
	}
	if !(Poly{}).Derivative().IsZero() || !(Poly{5}).Derivative().IsZero() {
		t.Error("derivative of constant")
	}
	// product rule on random inputs
	r := newRand(3)
	for range 20 {
		a, b := randPoly(r, 1+intn(r, 30)), randPoly(r, 1+intn(r, 30))
		lhs := naiveMul(a, b).Derivative()
		rhs := naiveMul(a.Derivative(), b).Add(naiveMul(a, b.Derivative()))
		if !lhs.Equal(rhs) {
			t.Fatal("product rule")
		}
	}
}

func intn(r *rand.ChaCha8, n int) int { return int(r.Uint64() % uint64(n)) }
