package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// randBasis returns m GF(2)-independent elements: random ones, checked by
// Gaussian elimination, with a few fixed small ones mixed in.
func randBasis(r interface{ Uint64() uint64 }, m int) []gf64.Element {
	var basis []gf64.Element
	var echelon [64]uint64 // echelon[b]: reduced vector with leading bit b
	for len(basis) < m {
		v := r.Uint64()
		if len(basis) < 6 && len(basis)%3 == 1 {
			v &= 0xff
		}
		w := v
		for b := 63; b >= 0; b-- {
			if w>>b&1 == 0 {
				continue
			}
			if echelon[b] == 0 {
				echelon[b] = w
				basis = append(basis, gf64.Element(v))
				break
			}
			w ^= echelon[b]
		}
	}
	return basis
}

// span returns every element of shift + span(basis), in subspace order.
func span(shift gf64.Element, basis []gf64.Element) []gf64.Element {
	out := []gf64.Element{shift}
	for _, b := range basis {
		n := len(out)
		for i := range n {
			out = append(out, out[i]^b)
		}
	}
	return out
}

// productOfRoots returns Π (x − v) the slow way.
func productOfRoots(pts []gf64.Element) Poly {
	p := Poly{1}
	for _, v := range pts {
		p = naiveMul(p, Poly{v, 1})
	}
	return p
}

func TestVanishingSmall(t *testing.T) {
	r := newRand(50)
	for m := 0; m <= 8; m++ {
		for trial := range 4 {
			basis := randBasis(r, m)
			shift := randElem(r)
			switch trial {
			case 0:
				shift = 0
			case 1:
				if m > 0 {
					shift = basis[0] ^ basis[m-1] // inside the span: a linear space
				}
			}
			pts := span(shift, basis)
			w := vanishing(shift, basis)
			require.Equal(t, m, w.Dim(), "Dim")
			require.Equal(t, gf64.One, w.Coeffs()[m], "m=%d: W is monic", m)
			dense, err := w.Poly()
			require.NoError(t, err)
			requirePoly(t, productOfRoots(pts), dense, "m=%d trial %d: W against Π(x − v)", m, trial)
			testutil.RequireEqualSlices(t, make([]gf64.Element, len(pts)), evalLinearized(w, pts), "m=%d: W on the subspace", m)
			checkOutside(t, w, dense, pts, r)
		}
	}
}

// evalLinearized returns w at every point of xs, one Eval at a time.
func evalLinearized(w *Linearized, xs []gf64.Element) []gf64.Element {
	out := make([]gf64.Element, len(xs))
	for i, x := range xs {
		out[i] = w.Eval(x)
	}
	return out
}

// checkOutside evaluates w at random points outside the subspace: non-zero,
// and equal to the dense form's Horner value.
func checkOutside(t *testing.T, w *Linearized, dense Poly, pts []gf64.Element, r interface{ Uint64() uint64 }) {
	t.Helper()
	in := make(map[gf64.Element]bool, len(pts))
	for _, v := range pts {
		in[v] = true
	}
	for range 50 {
		x := gf64.Element(r.Uint64())
		if in[x] {
			continue
		}
		y := w.Eval(x)
		require.NotZero(t, y, "W(%v) outside the subspace", x)
		if dense != nil {
			require.Equal(t, dense.Eval(x), y, "W(%v): table evaluation against Horner's rule", x)
		}
	}
}

func TestVanishingLarge(t *testing.T) {
	r := newRand(51)
	dims := []int{12, 20, 40, 63, 64}
	for _, m := range dims {
		basis := randBasis(r, m)
		shift := randElem(r)
		w := vanishing(shift, basis)
		require.Equal(t, m, w.Dim(), "Dim")
		// zero on random subspace points: shift + random combination
		for range 100 {
			x := shift
			bitsel := r.Uint64()
			for j, b := range basis {
				if bitsel>>j&1 == 1 {
					x ^= b
				}
			}
			require.Zero(t, w.Eval(x), "m=%d: W(%v) on the subspace", m, x)
		}
		if m < 64 {
			// the subspace is a proper subset; a random point is outside with
			// probability ≥ 1/2, and W vanishes only there
			require.Zero(t, evalLinear(w.coeffs, 0), "linear part at 0")
		}
		xs := make([]gf64.Element, 33)
		require.NoError(t, gf64.RandomVec(xs, r))
		ys := make([]gf64.Element, len(xs))
		require.NoError(t, w.EvalVec(ys, xs))
		want := make([]gf64.Element, len(xs))
		for i, x := range xs {
			want[i] = evalLinear(w.coeffs, x) ^ w.constant
		}
		testutil.RequireEqualSlices(t, want, ys, "m=%d: EvalVec against the direct sum", m)
		if m > maxDenseDim {
			_, err := w.Poly()
			require.ErrorIs(t, err, ErrLength, "Poly for m=%d", m)
		}
	}
	// m = 64: the whole field; W(x) = x^(2^64) − x vanishes everywhere
	w := vanishing(0, randBasis(r, 64))
	want := make([]gf64.Element, 65)
	want[0], want[64] = gf64.One, gf64.One
	testutil.RequireEqualSlices(t, want, w.Coeffs(), "W of the whole field: coefficients of x^(2^i)")
}

func TestLinearizedDivMod(t *testing.T) {
	r := newRand(52)
	for m := 0; m <= 7; m++ {
		basis := randBasis(r, m)
		shift := randElem(r)
		w := vanishing(shift, basis)
		dense, err := w.Poly()
		require.NoError(t, err)
		for _, n := range []int{0, 1, 1 << m, 1<<m + 1, 3<<m + 5, 200} {
			p := randPoly(r, n)
			q, rem, err := p.DivModLinearized(w)
			require.NoError(t, err)
			wq, wr, err := p.DivMod(dense)
			require.NoError(t, err)
			requirePoly(t, wq, q, "m=%d n=%d: DivModLinearized quotient against DivMod", m, n)
			requirePoly(t, wr, rem, "m=%d n=%d: DivModLinearized remainder against DivMod", m, n)
		}
	}
	// non-monic divisors
	for _, c := range [][]gf64.Element{{1, 2}, {0, 0, 7}, {3}, {5, 0, 9, 0, 0, 11}} {
		l, err := NewLinearized(randElem(r), c...)
		require.NoError(t, err)
		dense, err := l.Poly()
		require.NoError(t, err)
		for _, n := range []int{0, 5, 40, 100} {
			p := randPoly(r, n)
			q, rem, err := p.DivModLinearized(l)
			require.NoError(t, err, "non-monic %v, n=%d", c, n)
			wq, wr, err := p.DivMod(dense)
			require.NoError(t, err)
			requirePoly(t, wq, q, "non-monic %v, n=%d: quotient against DivMod", c, n)
			requirePoly(t, wr, rem, "non-monic %v, n=%d: remainder against DivMod", c, n)
		}
	}
	constant, err := NewLinearized(5)
	require.NoError(t, err)
	_, _, err = (Poly{1}).DivModLinearized(constant)
	require.ErrorIs(t, err, ErrDivisionByZero, "constant divisor")
}

func TestNewLinearized(t *testing.T) {
	l, err := NewLinearized(7, 3, 0, 5, 0, 0)
	require.NoError(t, err)
	assert.Equal(t, 2, l.Dim(), "Dim")
	assert.Equal(t, gf64.Element(7), l.Constant(), "Constant")
	assert.Equal(t, []gf64.Element{3, 0, 5}, l.Coeffs(), "Coeffs drops the trailing zeros")
	p, err := l.Poly()
	require.NoError(t, err)
	// 7 + 3x + 0x² + 5x⁴: coefficient i multiplies x^(2^i)
	assertPoly(t, Poly{7, 3, 0, 0, 5}, p, "Poly")
	r := newRand(53)
	for range 20 {
		x := randElem(r)
		require.Equal(t, p.Eval(x), l.Eval(x), "Eval(%v) against the dense form", x)
	}
	_, err = NewLinearized(0, make([]gf64.Element, 65)...)
	require.ErrorIs(t, err, ErrLength, "65 coefficients")
	z, err := NewLinearized(9)
	require.NoError(t, err)
	assert.Equal(t, -1, z.Dim(), "Dim of a constant")
	assert.Equal(t, gf64.Element(9), z.Eval(12345), "a constant's value")
	zp, err := z.Poly()
	require.NoError(t, err)
	assertPoly(t, Poly{9}, zp, "a constant's Poly")
	require.ErrorIs(t, z.EvalVec(make([]gf64.Element, 1), nil), ErrLength, "EvalVec length")
}

// TestLinearizedTable recomputes the evaluation table from the definition.
func TestLinearizedTable(t *testing.T) {
	r := newRand(54)
	w := vanishing(randElem(r), randBasis(r, 10))
	for k := range 8 {
		want := make([]gf64.Element, 256)
		for v := range want {
			want[v] = evalLinear(w.coeffs, gf64.Element(v)<<(8*k))
		}
		testutil.RequireEqualSlices(t, want, w.table[k][:], "table[%d]", k)
	}
}

func ExamplePoly_DivModLinearized() {
	s, _ := domain.New(9, 1, 2, 4, 8) // 16 points
	w, _ := Vanishing(s)
	wd, _ := w.Poly()
	// p = W_S·(x + 1) + 5 leaves remainder 5, which is also p's value on S
	p := wd.Mul(New(1, 1)).Add(New(5))
	q, r, _ := p.DivModLinearized(w)
	fmt.Println(q, "|", r)
	// Output: 0x0000000000000001*x + 0x0000000000000001 | 0x0000000000000005
}
