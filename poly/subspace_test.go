package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
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
			require.NoError(t, err)
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
			require.NoError(t, err)
			want := make([]gf64.Element, len(pts))
			require.NoError(t, p.EvalPoints(want, pts))
			testutil.RequireEqualSlices(t, want, got, "dim %d, %d coefficients: EvalSubspace against Horner", s.Dim(), n)
			if p.Degree() < s.Size() {
				back, err := InterpolateSubspace(s, got)
				require.NoError(t, err)
				requirePoly(t, p, back, "dim %d: InterpolateSubspace(EvalSubspace(p))", s.Dim())
			}
		}
	}
	// a larger space: sampled points only
	basis := randBasis(r, 16)
	s, err := domain.New(randElem(r), basis...)
	require.NoError(t, err)
	p := randPoly(r, 40000)
	got, err := p.EvalSubspace(s)
	require.NoError(t, err)
	for range 20 {
		i := intn(r, s.Size())
		require.Equal(t, p.Eval(s.Element(i)), got[i], "m=16: sample %d against Horner", i)
	}
}

func TestInterpolateSubspace(t *testing.T) {
	r := newRand(62)
	for _, s := range testSpaces(t, 63, 9) {
		evals := randPoly(r, s.Size())
		ec := append([]gf64.Element(nil), evals...)
		p, err := InterpolateSubspace(s, evals)
		require.NoError(t, err)
		require.Less(t, p.Degree(), s.Size(), "degree")
		testutil.RequireEqualSlices(t, ec, evals, "InterpolateSubspace modified its input")
		testutil.RequireEqualSlices(t, evals, evalAll(p, s.Elements()), "dim %d: p at the elements of s", s.Dim())
		// agrees with generic interpolation through the same points
		if s.Dim() <= 6 {
			q, err := Interpolate(s.Elements(), evals)
			require.NoError(t, err)
			requirePoly(t, q, p, "dim %d: InterpolateSubspace against Interpolate", s.Dim())
		}
	}
	s, err := domain.New(0, 1, 2)
	require.NoError(t, err)
	_, err = InterpolateSubspace(s, make([]gf64.Element, 3))
	require.ErrorIs(t, err, ErrLength, "wrong length")
}

func TestVanishingSubspace(t *testing.T) {
	r := newRand(64)
	for _, s := range testSpaces(t, 65, 7) {
		w, err := Vanishing(s)
		require.NoError(t, err)
		dense, err := w.Poly()
		require.NoError(t, err)
		requirePoly(t, productOfRoots(s.Elements()), dense, "dim %d: W_S against Π(x − v)", s.Dim())
		// zero exactly on s: every point of s, and the transform of W_S over
		// s is all zero; random outside points are non-zero
		for _, v := range s.Elements() {
			require.Zero(t, w.Eval(v), "W_S(%v) on s", v)
		}
		checkOutside(t, w, dense, s.Elements(), r)
		for range 20 {
			x := randElem(r)
			require.Equal(t, s.Contains(x), w.Eval(x) == 0, "W_S(%v) = 0 exactly on s", x)
		}
	}
	// a large subspace: zero at sampled elements, non-zero off it
	s, err := domain.New(randElem(r), randBasis(r, 30)...)
	require.NoError(t, err)
	w, err := Vanishing(s)
	require.NoError(t, err)
	for range 100 {
		v := s.Element(intn(r, s.Size()))
		require.Zero(t, w.Eval(v), "m=30: W_S(%v) on s", v)
		x := randElem(r)
		require.Equal(t, s.Contains(x), w.Eval(x) == 0, "m=30: W_S(%v) = 0 exactly on s", x)
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
			dense, err := w.Poly()
			require.NoError(t, err)
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
			require.NoError(t, err)
			requirePoly(t, x, got, "dim %d: FromNovel(e_%d) = X_%d", s.Dim(), i, i)
			c, err := x.ToNovel(s)
			require.NoError(t, err)
			requirePoly(t, e, c, "dim %d: ToNovel(X_%d) = e_%d", s.Dim(), i, i)
		}
		// round trip on random polynomials
		p := randPoly(r, s.Size())
		c, err := p.ToNovel(s)
		require.NoError(t, err)
		back, err := FromNovel(s, c)
		require.NoError(t, err)
		requirePoly(t, p, back, "FromNovel(ToNovel(p))")
	}
}

func TestSubspaceErrors(t *testing.T) {
	s, err := domain.New(0, 1, 2)
	require.NoError(t, err)
	_, err = (Poly{1, 2, 3, 4, 5}).ToNovel(s)
	require.ErrorIs(t, err, ErrLength, "ToNovel too long")
	_, err = FromNovel(s, make([]gf64.Element, 5))
	require.ErrorIs(t, err, ErrLength, "FromNovel too long")
	_, err = (Poly{1}).EvalSubspace(nil)
	require.ErrorIs(t, err, ErrNilSubspace, "EvalSubspace nil")
	_, err = InterpolateSubspace(nil, nil)
	require.ErrorIs(t, err, ErrNilSubspace, "InterpolateSubspace nil")
	_, err = Vanishing(nil)
	require.ErrorIs(t, err, ErrNilSubspace, "Vanishing nil")
	_, err = (Poly{}).ToNovel(nil)
	require.ErrorIs(t, err, ErrNilSubspace, "ToNovel nil")
	_, err = FromNovel(nil, nil)
	require.ErrorIs(t, err, ErrNilSubspace, "FromNovel nil")
	big, err := domain.New(0, randBasis(newRand(1), 41)...)
	require.NoError(t, err)
	_, err = (Poly{1}).EvalSubspace(big)
	require.ErrorIs(t, err, ErrLength, "EvalSubspace dim 41")
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
