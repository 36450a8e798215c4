package fri

import (
	"crypto/rand"
	"errors"
	"math/bits"
	"testing"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

func rand128(t testing.TB) gf128.Element {
	a, err := gf128.Random(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func rand64(t testing.TB) gf64.Element {
	a, err := gf64.Random(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// randSubspace returns shift + span of m random basis elements.
func randSubspace(t testing.TB, m int) *domain.Subspace {
	for {
		basis := make([]gf64.Element, m)
		for i := range basis {
			basis[i] = rand64(t)
		}
		s, err := domain.New(rand64(t), basis...)
		if err == nil {
			return s
		}
	}
}

// eval128 returns Σ c[i]·x^i for x in GF(2^64), by Horner.
func eval128(c []gf128.Element, x gf64.Element) gf128.Element {
	var acc gf128.Element
	for i := len(c) - 1; i >= 0; i-- {
		acc = gf128.Add(gf128.MulByBase(acc, x), c[i])
	}
	return acc
}

// splitFold is the definition of one fold by 2 on coefficients: with q(X) =
// X² + b·X, f = Σ_i (a_i + b_i·X)·q^i (the q-adic expansion, by repeated
// division), g = Σ a_i Y^i, h = Σ b_i Y^i, and it returns g + β·h.
func splitFold(f []gf128.Element, b gf64.Element, beta gf128.Element) []gf128.Element {
	f = append([]gf128.Element(nil), f...)
	var out []gf128.Element
	for len(f) > 0 {
		// f = quo·q + (r0 + r1·X)
		quo := make([]gf128.Element, max(0, len(f)-2))
		for i := len(f) - 1; i >= 2; i-- {
			c := f[i]
			quo[i-2] = c
			f[i] = gf128.Zero
			f[i-1] = gf128.Add(f[i-1], gf128.MulByBase(c, b))
		}
		r0 := f[0]
		r1 := gf128.Zero
		if len(f) > 1 {
			r1 = f[1]
		}
		out = append(out, gf128.Add(r0, gf128.Mul(beta, r1)))
		f = quo
	}
	return out
}

// interpolate128 returns the monomial coefficients of the codeword w over
// s, coordinate by coordinate through the inverse additive FFT.
func interpolate128(t testing.TB, s *domain.Subspace, w []gf128.Element) []gf128.Element {
	a0, a1 := make([]gf64.Element, len(w)), make([]gf64.Element, len(w))
	for i, v := range w {
		a0[i], a1[i] = v.A0, v.A1
	}
	if err := s.IFFT(a0); err != nil {
		t.Fatal(err)
	}
	if err := s.IFFT(a1); err != nil {
		t.Fatal(err)
	}
	c := make([]gf128.Element, len(w))
	for i := range c {
		c[i] = gf128.Element{A0: a0[i], A1: a1[i]}
	}
	return c
}

func TestFoldSubspace(t *testing.T) {
	for m := 1; m <= 7; m++ {
		s := randSubspace(t, m)
		n := s.Size()
		for _, a := range []int{2, 4, 8, 16} {
			if a > n {
				continue
			}
			k := bits.TrailingZeros(uint(a))
			for _, deg := range []int{n, n / 2, n / a, 1} {
				c := make([]gf128.Element, deg)
				for i := range c {
					c[i] = rand128(t)
				}
				src := make([]gf128.Element, n)
				for i := range src {
					src[i] = eval128(c, s.Element(i))
				}
				beta := rand128(t)
				dst := make([]gf128.Element, n/a)
				if err := FoldSubspace(dst, src, s, a, beta); err != nil {
					t.Fatal(err)
				}
				// The definition, on polynomials: k splits f = g(q(X)) +
				// X·h(q(X)), each over the domain the previous produced,
				// with β, β², β⁴, …; then naive evaluation over q(S).
				p, cur, b := c, s, beta
				for r := 0; r < k; r++ {
					p = splitFold(p, cur.Basis()[0], b)
					var err error
					if cur, err = cur.Fold(1); err != nil {
						t.Fatal(err)
					}
					b = gf128.Square(b)
				}
				folded, err := s.Fold(k)
				if err != nil {
					t.Fatal(err)
				}
				if len(p) > max(1, (deg+a-1)/a) {
					t.Fatalf("m=%d a=%d deg=%d: folded polynomial has %d coefficients", m, a, deg, len(p))
				}
				for j := range dst {
					if want := eval128(p, folded.Element(j)); !dst[j].Equal(want) {
						t.Fatalf("m=%d a=%d deg=%d: entry %d = %v, the definition gives %v", m, a, deg, j, dst[j], want)
					}
					got, err := FoldSubspaceAt(src[j*a:(j+1)*a], s, j, beta)
					if err != nil {
						t.Fatal(err)
					}
					if !got.Equal(dst[j]) {
						t.Fatalf("m=%d a=%d: FoldSubspaceAt(%d) differs from FoldSubspace", m, a, j)
					}
				}
				// Degree < deg/a, by interpolation over q(S).
				coef := interpolate128(t, folded, dst)
				for i := (deg + a - 1) / a; i < len(coef); i++ {
					if !coef[i].IsZero() {
						t.Fatalf("m=%d a=%d deg=%d: folded coefficient %d ≠ 0", m, a, deg, i)
					}
				}
				// A fold by 2^k is k folds by 2 with β, β², β⁴, ….
				w, dom, b2 := src, s, beta
				for r := 0; r < k; r++ {
					next := make([]gf128.Element, len(w)/2)
					if err := FoldSubspace(next, w, dom, 2, b2); err != nil {
						t.Fatal(err)
					}
					if dom, err = dom.Fold(1); err != nil {
						t.Fatal(err)
					}
					w, b2 = next, gf128.Square(b2)
				}
				for j := range dst {
					if !w[j].Equal(dst[j]) {
						t.Fatalf("m=%d a=%d: successive folds by 2 differ at %d", m, a, j)
					}
				}
			}
		}
	}
}

// TestFoldSubspacePair spells out the fold by 2 of one pair: f(x) =
// g(q(x)) + x·h(q(x)) with q(x) = x(x+β_0), folded g + β·h.
func TestFoldSubspacePair(t *testing.T) {
	s := randSubspace(t, 3)
	b0 := s.Basis()[0]
	// f = g(q) + X·h(q) with g = g0 + g1·Y, h = h0 + h1·Y chosen.
	g0, g1, h0, h1, beta := rand128(t), rand128(t), rand128(t), rand128(t), rand128(t)
	f := func(x gf64.Element) gf128.Element {
		q := gf64.Mul(x, x^b0)
		g := gf128.Add(g0, gf128.MulByBase(g1, q))
		h := gf128.Add(h0, gf128.MulByBase(h1, q))
		return gf128.Add(g, gf128.MulByBase(h, x))
	}
	src := make([]gf128.Element, s.Size())
	for i := range src {
		src[i] = f(s.Element(i))
	}
	dst := make([]gf128.Element, s.Size()/2)
	if err := FoldSubspace(dst, src, s, 2, beta); err != nil {
		t.Fatal(err)
	}
	for j := range dst {
		x := s.Element(2 * j)
		q := gf64.Mul(x, x^b0)
		g := gf128.Add(g0, gf128.MulByBase(g1, q))
		h := gf128.Add(h0, gf128.MulByBase(h1, q))
		if want := gf128.Add(g, gf128.Mul(beta, h)); !dst[j].Equal(want) {
			t.Fatalf("pair %d: %v, want g + β·h = %v", j, dst[j], want)
		}
	}
}

func TestFoldSubspaceRandomWord(t *testing.T) {
	s := randSubspace(t, 6)
	src := make([]gf128.Element, s.Size())
	for i := range src {
		src[i] = rand128(t)
	}
	dst := make([]gf128.Element, s.Size()/4)
	if err := FoldSubspace(dst, src, s, 4, rand128(t)); err != nil {
		t.Fatal(err)
	}
	f, _ := s.Fold(2)
	if coef := interpolate128(t, f, dst); coef[len(coef)-1].IsZero() {
		t.Fatal("random word folded to a lower degree")
	}
}

func TestFoldSubspaceParallel(t *testing.T) {
	m := 16
	if testing.Short() {
		m = 14
	}
	s := randSubspace(t, m)
	src := make([]gf128.Element, s.Size())
	for i := range src {
		src[i] = rand128(t)
	}
	beta := rand128(t)
	for _, a := range []int{2, 16} {
		one, four := make([]gf128.Element, len(src)/a), make([]gf128.Element, len(src)/a)
		if err := foldSubspace(one, src, s, a, beta, split{1, parallelGrain}); err != nil {
			t.Fatal(err)
		}
		for _, sp := range []split{{4, parallelGrain}, {3, 37}, {7, 1}} {
			if err := foldSubspace(four, src, s, a, beta, sp); err != nil {
				t.Fatal(err)
			}
			for j := range one {
				if one[j] != four[j] {
					t.Fatalf("a=%d %+v: parts differ from one goroutine at %d", a, sp, j)
				}
			}
		}
	}
}

func TestFoldSubspaceErrors(t *testing.T) {
	s := randSubspace(t, 4)
	beta := rand128(t)
	src := make([]gf128.Element, 16)
	for _, c := range []struct {
		name     string
		dst, src int
		s        *domain.Subspace
		arity    int
		want     error
	}{
		{"nil subspace", 8, 16, nil, 2, ErrDomain},
		{"src length", 8, 15, s, 2, ErrLength},
		{"dst length", 7, 16, s, 2, ErrLength},
		{"arity 3", 5, 16, s, 3, ErrArity},
		{"arity 32", 0, 16, s, 32, ErrArity},
		{"arity 1", 16, 16, s, 1, ErrArity},
	} {
		if err := FoldSubspace(make([]gf128.Element, c.dst), src[:c.src], c.s, c.arity, beta); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	small := randSubspace(t, 3)
	if err := FoldSubspace(make([]gf128.Element, 0), src[:8], small, 16, beta); !errors.Is(err, ErrArity) {
		t.Errorf("arity > size: %v", err)
	}
	for _, c := range []struct {
		vals, j int
		s       *domain.Subspace
		want    error
	}{
		{2, 0, nil, ErrDomain}, {2, -1, s, ErrDomain}, {2, 8, s, ErrDomain}, {3, 0, s, ErrArity}, {16, 1, s, ErrDomain}, {16, 0, small, ErrArity},
	} {
		if _, err := FoldSubspaceAt(make([]gf128.Element, c.vals), c.s, c.j, beta); !errors.Is(err, c.want) {
			t.Errorf("FoldSubspaceAt(%d values, j=%d): %v, want %v", c.vals, c.j, err, c.want)
		}
	}
}
