package poly

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// testSpaces returns random subspaces of dimension 0..maxDim with the shift
// cases of the issue: zero, inside the span (a linear space), random.
func testSpaces(t *testing.T, seed uint64, maxDim int) []*domain.Subspace {
	t.Helper()
	r := newRand(seed)
	var out []*domain.Subspace
	for m := 0; m <= maxDim; m++ {
		for trial := range 3 {
			basis := randBasis(r, m)
			shift := randElem(r)
			switch trial {
			case 0:
				shift = 0
			case 1:
				if m > 0 {
					shift = basis[m-1]
				}
			}
			s, err := domain.New(shift, basis...)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

func TestEvalSubspace(t *testing.T) {
	maxDim := 10
	if testing.Short() {
		maxDim = 8
	}
	r := newRand(60)
	for _, s := range testSpaces(t, 61, maxDim) {
		pts := s.Elements()
		for _, n := range []int{0, 1, s.Size() / 2, s.Size(), s.Size() + 1, 3*s.Size() + 7} {
			p := randPoly(r, n)
			got, err := p.EvalSubspace(s)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]gf64.Element, len(pts))
			if err := p.EvalPoints(want, pts); err != nil {
				t.Fatal(err)
			}
			for i := range pts {
				if got[i] != want[i] {
					t.Fatalf("dim %d, %d coefficients: EvalSubspace[%d] differs from Horner", s.Dim(), n, i)
				}
			}
			if p.Degree() < s.Size() {
				back, err := InterpolateSubspace(s, got)
				if err != nil {
					t.Fatal(err)
				}
				if !back.Equal(p) {
					t.Fatalf("dim %d: InterpolateSubspace(EvalSubspace(p)) != p", s.Dim())
				}
			}
		}
	}
	// a larger space: sampled points only
	basis := randBasis(r, 16)
	s, _ := domain.New(randElem(r), basis...)
	p := randPoly(r, 40000)
	got, err := p.EvalSubspace(s)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		i := intn(r, s.Size())
		if got[i] != p.Eval(s.Element(i)) {
			t.Fatalf("m=16: sample %d differs from Horner", i)
		}
	}
}

func TestInterpolateSubspace(t *testing.T) {
	r := newRand(62)
	for _, s := range testSpaces(t, 63, 9) {
		evals := randPoly(r, s.Size())
		ec := append([]gf64.Element(nil), evals...)
		p, err := InterpolateSubspace(s, evals)
		if err != nil {
			t.Fatal(err)
		}
		if p.Degree() >= s.Size() || !Poly(evals).Equal(ec) {
			t.Fatal("degree or input modified")
		}
		for i, x := range s.Elements() {
			if p.Eval(x) != evals[i] {
				t.Fatalf("dim %d: p(Element(%d)) != evals[%d]", s.Dim(), i, i)
			}
		}
		// agrees with generic interpolation through the same points
		if s.Dim() <= 6 {
			q, err := Interpolate(s.Elements(), evals)
			if err != nil || !q.Equal(p) {
				t.Fatalf("dim %d: Interpolate disagrees with InterpolateSubspace: %v", s.Dim(), err)
			}
		}
	}
	s, _ := domain.New(0, 1, 2)
	if _, err := InterpolateSubspace(s, make([]gf64.Element, 3)); !errors.Is(err, ErrLength) {
		t.Errorf("wrong length: %v", err)
	}
}

func TestVanishingSubspace(t *testing.T) {
	r := newRand(64)
	for _, s := range testSpaces(t, 65, 7) {
		w, err := Vanishing(s)
		if err != nil {
			t.Fatal(err)
		}
		dense, _ := w.Poly()
		if !dense.Equal(productOfRoots(s.Elements())) {
			t.Fatalf("dim %d: W_S != Π(x − v)", s.Dim())
		}
		// zero exactly on s: every point of s, and the transform of W_S over
		// s is all zero; random outside points are non-zero
		for _, v := range s.Elements() {
			if w.Eval(v) != 0 {
				t.Fatal("not zero on s")
			}
		}
		checkOutside(t, w, dense, s.Elements(), r)
		for range 20 {
			x := randElem(r)
			if (w.Eval(x) == 0) != s.Contains(x) {
				t.Fatal("zero set differs from s")
			}
		}
	}
	// a large subspace: zero at sampled elements, non-zero off it
	s, _ := domain.New(randElem(r), randBasis(r, 30)...)
	w, _ := Vanishing(s)
	for range 100 {
		if w.Eval(s.Element(intn(r, s.Size()))) != 0 {
			t.Fatal("m=30: not zero on s")
		}
		x := randElem(r)
		if (w.Eval(x) == 0) != s.Contains(x) {
			t.Fatal("m=30: zero set differs from s")
		}
	}
}

// TestNovelBasis builds the novel basis polynomials X_i = Π_{bit r of i} Ŵ_r
// from this package's vanishing polynomials (Ŵ_r = W_r / W_r(β_r), W_r the
// vanishing polynomial of span(β_0..β_{r−1})) and checks FromNovel(e_i) = X_i
// and ToNovel(X_i) = e_i.
func TestNovelBasis(t *testing.T) {
	r := newRand(66)
	for _, s := range testSpaces(t, 67, 6) {
		basis := s.Basis()
		what := make([]Poly, len(basis))
		for k, b := range basis {
			w := vanishing(0, basis[:k])
			dense, _ := w.Poly()
			what[k] = dense.Scale(gf64.Inverse(w.Eval(b)))
		}
		for i := range s.Size() {
			x := Poly{1}
			for k := range basis {
				if i>>k&1 == 1 {
					x = naiveMul(x, what[k])
				}
			}
			e := make([]gf64.Element, i+1)
			e[i] = 1
			got, err := FromNovel(s, e)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(x) {
				t.Fatalf("dim %d: FromNovel(e_%d) != X_%d", s.Dim(), i, i)
			}
			c, err := x.ToNovel(s)
			if err != nil {
				t.Fatal(err)
			}
			if !Poly(c).Equal(Poly(e)) {
				t.Fatalf("dim %d: ToNovel(X_%d) != e_%d", s.Dim(), i, i)
			}
		}
		// round trip on random polynomials
		p := randPoly(r, s.Size())
		c, _ := p.ToNovel(s)
		back, _ := FromNovel(s, c)
		if !back.Equal(p) {
			t.Fatal("novel round trip")
		}
	}
}

func TestSubspaceErrors(t *testing.T) {
	s, _ := domain.New(0, 1, 2)
	if _, err := (Poly{1, 2, 3, 4, 5}).ToNovel(s); !errors.Is(err, ErrLength) {
		t.Errorf("ToNovel too long: %v", err)
	}
	if _, err := FromNovel(s, make([]gf64.Element, 5)); !errors.Is(err, ErrLength) {
		t.Errorf("FromNovel too long: %v", err)
	}
	if _, err := (Poly{1}).EvalSubspace(nil); !errors.Is(err, ErrNilSubspace) {
		t.Error("EvalSubspace nil")
	}
	if _, err := InterpolateSubspace(nil, nil); !errors.Is(err, ErrNilSubspace) {
		t.Error("InterpolateSubspace nil")
	}
	if _, err := Vanishing(nil); !errors.Is(err, ErrNilSubspace) {
		t.Error("Vanishing nil")
	}
	if _, err := (Poly{}).ToNovel(nil); !errors.Is(err, ErrNilSubspace) {
		t.Error("ToNovel nil")
	}
	if _, err := FromNovel(nil, nil); !errors.Is(err, ErrNilSubspace) {
		t.Error("FromNovel nil")
	}
	big, _ := domain.New(0, randBasis(newRand(1), 41)...)
	if _, err := (Poly{1}).EvalSubspace(big); !errors.Is(err, ErrLength) {
		t.Errorf("EvalSubspace dim 41: %v", err)
	}
}

func ExamplePoly_EvalSubspace() {
	s, _ := domain.New(gf64.X, gf64.One) // {x, x + 1}
	p := New(0, 1, 1)                    // x² + x takes the same value at x and x + 1
	v, _ := p.EvalSubspace(s)
	fmt.Println(v)
	// Output: [0x0000000000000006 0x0000000000000006]
}

func ExampleVanishing() {
	s, _ := domain.New(0, 1, gf64.X) // {0, 1, x, x + 1}
	w, _ := Vanishing(s)
	// W(x) = x(x + 1)(x + X)(x + X + 1) = x⁴ + 7x² + 6x, where X = gf64.X = 2
	fmt.Println(w.Coeffs(), w.Constant())
	fmt.Println(w.Eval(gf64.X^1), w.Eval(7) != 0)
	// Output:
	// [0x0000000000000006 0x0000000000000007 0x0000000000000001] 0x0000000000000000
	// 0x0000000000000000 true
}

func ExampleInterpolateSubspace() {
	s, _ := domain.New(5, 1, gf64.X, 4) // 8 points: 5 + span(1, x, x²)
	p := New(3, 0, 1)                   // x² + 3
	evals, _ := p.EvalSubspace(s)
	back, _ := InterpolateSubspace(s, evals)
	fmt.Println(back)
	// the same polynomial in the novel basis of s and back
	c, _ := p.ToNovel(s)
	q, _ := FromNovel(s, c)
	fmt.Println(q.Equal(p))
	// Output:
	// 0x0000000000000001*x^2 + 0x0000000000000003
	// true
}
