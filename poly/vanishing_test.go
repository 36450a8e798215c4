package poly

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
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
			if w.Dim() != m || w.Coeffs()[m] != 1 {
				t.Fatalf("m=%d: Dim %d", m, w.Dim())
			}
			dense, err := w.Poly()
			if err != nil {
				t.Fatal(err)
			}
			if want := productOfRoots(pts); !dense.Equal(want) {
				t.Fatalf("m=%d trial %d: W differs from Π(x − v)", m, trial)
			}
			for _, v := range pts {
				if w.Eval(v) != 0 {
					t.Fatalf("m=%d: W(%v) != 0 on the subspace", m, v)
				}
			}
			checkOutside(t, w, dense, pts, r)
		}
	}
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
		if y == 0 {
			t.Fatalf("W(%v) = 0 outside the subspace", x)
		}
		if dense != nil && y != dense.Eval(x) {
			t.Fatalf("table evaluation %v != Horner %v", y, dense.Eval(x))
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
		if w.Dim() != m {
			t.Fatalf("Dim = %d, want %d", w.Dim(), m)
		}
		// zero on random subspace points: shift + random combination
		for range 100 {
			x := shift
			bitsel := r.Uint64()
			for j, b := range basis {
				if bitsel>>j&1 == 1 {
					x ^= b
				}
			}
			if w.Eval(x) != 0 {
				t.Fatalf("m=%d: W != 0 on the subspace", m)
			}
		}
		if m < 64 {
			// the subspace is a proper subset; a random point is outside with
			// probability ≥ 1/2, and W vanishes only there
			checkLinear := evalLinear(w.coeffs, 0) == 0
			if !checkLinear {
				t.Fatal("linear part at 0")
			}
		}
		xs := make([]gf64.Element, 33)
		gf64.RandomVec(xs, r)
		ys := make([]gf64.Element, len(xs))
		if err := w.EvalVec(ys, xs); err != nil {
			t.Fatal(err)
		}
		for i, x := range xs {
			if want := evalLinear(w.coeffs, x) ^ w.constant; ys[i] != want {
				t.Fatalf("EvalVec differs from the direct sum at %d", i)
			}
		}
		if m > maxDenseDim {
			if _, err := w.Poly(); !errors.Is(err, ErrLength) {
				t.Fatalf("Poly for m=%d: %v", m, err)
			}
		}
	}
	// m = 64: the whole field; W(x) = x^(2^64) − x vanishes everywhere
	w := vanishing(0, randBasis(r, 64))
	c := w.Coeffs()
	for i, ci := range c {
		want := gf64.Zero
		if i == 0 || i == 64 {
			want = gf64.One
		}
		if ci != want {
			t.Fatalf("W of the whole field: c_%d = %v", i, ci)
		}
	}
}

func TestLinearizedDivMod(t *testing.T) {
	r := newRand(52)
	for m := 0; m <= 7; m++ {
		basis := randBasis(r, m)
		shift := randElem(r)
		w := vanishing(shift, basis)
		dense, _ := w.Poly()
		for _, n := range []int{0, 1, 1 << m, 1<<m + 1, 3<<m + 5, 200} {
			p := randPoly(r, n)
			q, rem, err := p.DivModLinearized(w)
			if err != nil {
				t.Fatal(err)
			}
			wq, wr, _ := p.DivMod(dense)
			if !q.Equal(wq) || !rem.Equal(wr) {
				t.Fatalf("m=%d n=%d: DivModLinearized differs from DivMod", m, n)
			}
		}
	}
	// non-monic divisors
	for _, c := range [][]gf64.Element{{1, 2}, {0, 0, 7}, {3}, {5, 0, 9, 0, 0, 11}} {
		l, _ := NewLinearized(randElem(r), c...)
		dense, _ := l.Poly()
		for _, n := range []int{0, 5, 40, 100} {
			p := randPoly(r, n)
			q, rem, err := p.DivModLinearized(l)
			wq, wr, _ := p.DivMod(dense)
			if err != nil || !q.Equal(wq) || !rem.Equal(wr) {
				t.Fatalf("non-monic %v, n=%d: %v", c, n, err)
			}
		}
	}
	constant, _ := NewLinearized(5)
	if _, _, err := (Poly{1}).DivModLinearized(constant); !errors.Is(err, ErrDivisionByZero) {
		t.Errorf("constant divisor: %v", err)
	}
}

func TestNewLinearized(t *testing.T) {
	l, err := NewLinearized(7, 3, 0, 5, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.Dim() != 2 || l.Constant() != 7 || len(l.Coeffs()) != 3 {
		t.Fatalf("Dim %d, Constant %v, Coeffs %v", l.Dim(), l.Constant(), l.Coeffs())
	}
	p, _ := l.Poly()
	if !p.Equal(Poly{7, 3, 0, 0, 5}) {
		t.Fatalf("Poly = %v", p)
	}
	r := newRand(53)
	for range 20 {
		x := randElem(r)
		if l.Eval(x) != p.Eval(x) {
			t.Fatal("Eval")
		}
	}
	if _, err := NewLinearized(0, make([]gf64.Element, 65)...); !errors.Is(err, ErrLength) {
		t.Errorf("65 coefficients: %v", err)
	}
	z, _ := NewLinearized(9)
	if z.Dim() != -1 || z.Eval(12345) != 9 {
		t.Error("constant linearized")
	}
	if p, _ := z.Poly(); !p.Equal(Poly{9}) {
		t.Error("constant Poly")
	}
	if err := z.EvalVec(make([]gf64.Element, 1), nil); !errors.Is(err, ErrLength) {
		t.Error("EvalVec length")
	}
}

// TestLinearizedTable recomputes the evaluation table from the definition.
func TestLinearizedTable(t *testing.T) {
	r := newRand(54)
	w := vanishing(randElem(r), randBasis(r, 10))
	for k := range 8 {
		for v := range 256 {
			x := gf64.Element(v) << (8 * k)
			if w.table[k][v] != evalLinear(w.coeffs, x) {
				t.Fatalf("table[%d][%d]", k, v)
			}
		}
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
