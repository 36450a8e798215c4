package poly

import (
	"errors"
	"fmt"
	"testing"

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
			if err != nil {
				t.Fatal(err)
			}
			if !isNormalized(q) || !isNormalized(rem) {
				t.Fatalf("not normalized")
			}
			if rem.Degree() >= b.Degree() {
				t.Fatalf("deg r = %d >= deg b = %d", rem.Degree(), b.Degree())
			}
			if !naiveMul(q, b).Add(rem).Equal(a) {
				t.Fatalf("a != q·b + r for lengths %d, %d", na, nb)
			}
			if !a.Equal(ac) || !b.Equal(bc) {
				t.Fatal("DivMod modified its inputs")
			}
		}
	}
	// exact division
	a, b := randPoly(r, 50), randPoly(r, 20)
	q, rem, _ := naiveMul(a, b).DivMod(b)
	if !q.Equal(a) || !rem.IsZero() {
		t.Error("exact division")
	}
	// trailing zeros in the divisor
	q2, _, _ := naiveMul(a, b).DivMod(append(b.Clone(), 0, 0))
	if !q2.Equal(a) {
		t.Error("divisor with trailing zeros")
	}
	if d, _ := a.Div(b); !d.Equal(func() Poly { q, _, _ := a.DivMod(b); return q }()) {
		t.Error("Div")
	}
	if m, _ := a.Mod(b); m.Degree() >= b.Degree() {
		t.Error("Mod")
	}
}

func TestDivModByZero(t *testing.T) {
	for _, d := range []Poly{nil, {}, {0, 0}} {
		if _, _, err := (Poly{1, 2}).DivMod(d); !errors.Is(err, ErrDivisionByZero) {
			t.Errorf("DivMod by %v: err = %v", d, err)
		}
	}
	if _, err := (Poly{1}).Div(nil); !errors.Is(err, ErrDivisionByZero) {
		t.Error("Div by zero")
	}
	if _, err := (Poly{1}).Mod(nil); !errors.Is(err, ErrDivisionByZero) {
		t.Error("Mod by zero")
	}
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
		if !q1.Equal(q2) || !r1.Equal(r2) || !isNormalized(q2) || !isNormalized(r2) {
			t.Fatalf("%d / %d: Newton differs from long division", sh[0], sh[1])
		}
	}
	// DivMod on large inputs takes the Newton path
	if !useNewton(1<<13, 1<<13) || useNewton(1<<13, 10) || useNewton(10, 1<<13) {
		t.Error("useNewton: unexpected choice")
	}
	a, d := randPoly(r, 1<<14), randPoly(r, 1<<13)
	q, rem, err := a.DivMod(d)
	if err != nil || !naiveMul(q, d).Add(rem).Equal(a) || rem.Degree() >= d.Degree() {
		t.Fatalf("large DivMod: %v", err)
	}
	for _, k := range []int{1, 2, 3, 17, 64, 100} {
		f := randPoly(r, 1+intn(r, 2*k))
		f[0] |= 1
		g := inverseSeries(f, k)
		prod := naiveMul(f, g)
		for i := range k {
			want := gf64.Zero
			if i == 0 {
				want = 1
			}
			if prod.Coeff(i) != want {
				t.Fatalf("inverseSeries k=%d: coefficient %d of f·g is %v", k, i, prod.Coeff(i))
			}
		}
	}
}
