package poly

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func TestInterpolate(t *testing.T) {
	r := newRand(40)
	sizes := []int{0, 1, 2, 3, 4, 10, 33, 100}
	if !testing.Short() {
		sizes = append(sizes, 300)
	}
	for _, n := range sizes {
		xs := make([]gf64.Element, n)
		gf64.RandomVec(xs, r)
		if n > 2 {
			xs[0], xs[1] = 0, 1
		}
		// a polynomial of degree < n is recovered exactly
		p := randPoly(r, n)
		ys := make([]gf64.Element, n)
		for j, x := range xs {
			ys[j] = p.Eval(x)
		}
		xc, yc := append([]gf64.Element(nil), xs...), append([]gf64.Element(nil), ys...)
		got, err := Interpolate(xs, ys)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(p) || !isNormalized(got) {
			t.Fatalf("n=%d: Interpolate did not recover p", n)
		}
		if !Poly(xs).Equal(xc) || !Poly(ys).Equal(yc) {
			t.Fatal("Interpolate modified its inputs")
		}
		// random values: the result passes through every point
		gf64.RandomVec(ys, r)
		got, err = Interpolate(xs, ys)
		if err != nil {
			t.Fatal(err)
		}
		if got.Degree() >= max(n, 1) {
			t.Fatalf("n=%d: degree %d", n, got.Degree())
		}
		for j, x := range xs {
			if got.Eval(x) != ys[j] {
				t.Fatalf("n=%d: p(xs[%d]) != ys[%d]", n, j, j)
			}
		}
	}
	// known: the line through (0, 1) and (1, 0) is x + 1
	if p, _ := Interpolate([]gf64.Element{0, 1}, []gf64.Element{1, 0}); !p.Equal(Poly{1, 1}) {
		t.Errorf("line = %v", p)
	}
}

func TestInterpolateErrors(t *testing.T) {
	if _, err := Interpolate([]gf64.Element{1, 2, 3, 2}, make([]gf64.Element, 4)); !errors.Is(err, ErrDuplicatePoint) {
		t.Errorf("duplicate: %v", err)
	} else if got := err.Error(); got != "poly: duplicate interpolation point: xs[1] = xs[3] = 0x0000000000000002" {
		t.Errorf("message %q", got)
	}
	if _, err := Interpolate(make([]gf64.Element, 2), make([]gf64.Element, 3)); !errors.Is(err, ErrLength) {
		t.Errorf("length: %v", err)
	}
}

func ExampleInterpolate() {
	// the parabola through (0, 1), (1, 1), (x, 1 + x + x²) is x² + x + 1
	xs := []gf64.Element{0, 1, gf64.X}
	ys := []gf64.Element{1, 1, 1 ^ gf64.X ^ gf64.Square(gf64.X)}
	p, err := Interpolate(xs, ys)
	fmt.Println(p, err)
	// Output: 0x0000000000000001*x^2 + 0x0000000000000001*x + 0x0000000000000001 <nil>
}
