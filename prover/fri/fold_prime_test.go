package fri

import (
	"errors"
	"math/bits"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
)

// randX returns a random element of X (crypto/rand through gnark-crypto).
func randX[X Ext]() X {
	var z X
	switch p := any(&z).(type) {
	case *bbext.E4:
		p.MustSetRandom()
	case *kbext.E4:
		p.MustSetRandom()
	case *glext.E2:
		p.MustSetRandom()
	case *fr.Element:
		p.MustSetRandom()
	}
	return z
}

func xequal[X Ext](a, b X) bool { return any(a) == any(b) }

// rootOf returns an element of order n (a power of two) of F.
func rootOf[F Base](t testing.TB, n int) F {
	var z F
	var err error
	switch p := any(&z).(type) {
	case *babybear.Element:
		*p, err = babybear.Generator(uint64(n))
	case *koalabear.Element:
		*p, err = koalabear.Generator(uint64(n))
	case *goldilocks.Element:
		*p, err = goldilocks.Generator(uint64(n))
	case *fr.Element:
		*p, err = fr.Generator(uint64(n))
	}
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func mustOps[F Base, X Ext](t testing.TB) primeOps[F, X] {
	o, err := opsFor[F, X]()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// evalNaive returns Σ_i c[i]·x^i.
func evalNaive[F, X any](o primeOps[F, X], c []X, x F) X {
	var acc X
	for i := len(c) - 1; i >= 0; i-- {
		acc = o.xadd(o.xscale(acc, x), c[i])
	}
	return acc
}

// codeword returns f(shift·omega^i) for i < n, naively.
func codeword[F, X any](o primeOps[F, X], c []X, shift, omega F, n int) []X {
	w := make([]X, n)
	x := shift
	for i := range w {
		w[i] = evalNaive(o, c, x)
		x = o.mul(x, omega)
	}
	return w
}

// foldCoeffs returns the coefficients of Σ_k β^k·f_k with f(x) = Σ_k
// x^k·f_k(x^a): the definition of the fold on coefficients.
func foldCoeffs[F, X any](o primeOps[F, X], c []X, a int, beta X) []X {
	out := make([]X, (len(c)+a-1)/a)
	for i := range out {
		var acc X
		for k := a - 1; k >= 0; k-- {
			acc = o.xmul(acc, beta)
			if i*a+k < len(c) {
				acc = o.xadd(acc, c[i*a+k])
			}
		}
		out[i] = acc
	}
	return out
}

// interpolate returns the n coefficients of the polynomial of degree < n
// taking the values w over shift·⟨omega⟩ (naive inverse DFT).
func interpolate[F, X any](o primeOps[F, X], w []X, shift, omega F) []X {
	n := len(w)
	ninv := o.inv(o.fromUint(uint64(n)))
	sinv, oinv := o.inv(shift), o.inv(omega)
	c := make([]X, n)
	si := o.fromUint(1) // shift^(−i)
	for i := range c {
		var acc X
		wi := o.exp(oinv, uint64(i))
		x := o.fromUint(1)
		for j := range w {
			acc = o.xadd(acc, o.xscale(w[j], x))
			x = o.mul(x, wi)
		}
		c[i] = o.xscale(acc, o.mul(si, ninv))
		si = o.mul(si, sinv)
	}
	return c
}

func testFoldCoset[F Base, X Ext](t *testing.T) {
	o := mustOps[F, X](t)
	shift := o.fromUint(7)
	for _, logN := range []int{1, 2, 3, 4, 5, 6} {
		n := 1 << logN
		omega := rootOf[F](t, n)
		for _, a := range []int{2, 4, 8, 16} {
			if a > n {
				continue
			}
			for _, deg := range []int{n, n / 2, n / a, 1} { // deg: number of coefficients
				c := make([]X, deg)
				for i := range c {
					c[i] = randX[X]()
				}
				src := codeword(o, c, shift, omega, n)
				beta := randX[X]()
				m := n / a
				dst := make([]X, m)
				if err := FoldCoset(dst, src, shift, omega, a, beta); err != nil {
					t.Fatal(err)
				}
				// The definition: Σ β^k f_k over the folded coset, naively.
				fs, fo := o.exp(shift, uint64(a)), o.exp(omega, uint64(a))
				want := codeword(o, foldCoeffs(o, c, a, beta), fs, fo, m)
				for j := range dst {
					if !xequal(dst[j], want[j]) {
						t.Fatalf("n=%d a=%d deg=%d: entry %d differs from the definition", n, a, deg, j)
					}
					// The leaf: entries j + t·m.
					leaf := make([]X, a)
					for u := range leaf {
						leaf[u] = src[j+u*m]
					}
					got, err := FoldCosetAt(leaf, shift, omega, n, j, beta)
					if err != nil {
						t.Fatal(err)
					}
					if !xequal(got, dst[j]) {
						t.Fatalf("n=%d a=%d: FoldCosetAt(%d) differs from FoldCoset", n, a, j)
					}
				}
				// Degree < deg/a, by interpolation over the folded coset.
				coef := interpolate(o, dst, fs, fo)
				lim := (deg + a - 1) / a
				for i := lim; i < m; i++ {
					var zero X
					if !xequal(coef[i], zero) {
						t.Fatalf("n=%d a=%d deg=%d: folded coefficient %d ≠ 0", n, a, deg, i)
					}
				}
				// Arity a is log2(a) folds by 2 with β, β², β⁴, ….
				cur, s, w, b := src, shift, omega, beta
				for r := 0; r < bits.TrailingZeros(uint(a)); r++ {
					next := make([]X, len(cur)/2)
					if err := FoldCoset(next, cur, s, w, 2, b); err != nil {
						t.Fatal(err)
					}
					cur, s, w, b = next, o.mul(s, s), o.mul(w, w), o.xmul(b, b)
				}
				for j := range dst {
					if !xequal(cur[j], dst[j]) {
						t.Fatalf("n=%d a=%d: successive folds by 2 differ at %d", n, a, j)
					}
				}
				// In place.
				in := append([]X(nil), src...)
				if err := FoldCoset(in[:m], in, shift, omega, a, beta); err != nil {
					t.Fatal(err)
				}
				for j := range dst {
					if !xequal(in[j], dst[j]) {
						t.Fatalf("n=%d a=%d: in-place fold differs at %d", n, a, j)
					}
				}
			}
		}
	}
}

func TestFoldCoset(t *testing.T) {
	t.Run("babybear", testFoldCoset[babybear.Element, bbext.E4])
	t.Run("koalabear", testFoldCoset[koalabear.Element, kbext.E4])
	t.Run("goldilocks", testFoldCoset[goldilocks.Element, glext.E2])
	t.Run("bn254", testFoldCoset[fr.Element, fr.Element])
}

// TestFoldCosetEvenOdd is the arity-2 definition spelled out: f(x) =
// f_e(x²) + x·f_o(x²), folded f_e + β·f_o, over a coset of 32 points.
func TestFoldCosetEvenOdd(t *testing.T) {
	o := mustOps[babybear.Element, bbext.E4](t)
	const n = 32
	shift, omega := o.fromUint(31), rootOf[babybear.Element](t, n)
	c := make([]bbext.E4, n)
	for i := range c {
		c[i] = randX[bbext.E4]()
	}
	var ce, co []bbext.E4
	for i := 0; i < n; i += 2 {
		ce, co = append(ce, c[i]), append(co, c[i+1])
	}
	beta := randX[bbext.E4]()
	src := codeword(o, c, shift, omega, n)
	dst := make([]bbext.E4, n/2)
	if err := FoldCoset(dst, src, shift, omega, 2, beta); err != nil {
		t.Fatal(err)
	}
	y := o.mul(shift, shift)
	w2 := o.mul(omega, omega)
	for j := range dst {
		want := o.xadd(evalNaive(o, ce, y), o.xmul(beta, evalNaive(o, co, y)))
		if dst[j] != want {
			t.Fatalf("entry %d: %v, want f_e + β·f_o = %v", j, dst[j], want)
		}
		y = o.mul(y, w2)
	}
}

// TestFoldCosetRandomWord: a random word folds to a word of full degree
// (folding keeps nothing of a word that is not a codeword).
func TestFoldCosetRandomWord(t *testing.T) {
	o := mustOps[goldilocks.Element, glext.E2](t)
	const n = 64
	shift, omega := o.fromUint(3), rootOf[goldilocks.Element](t, n)
	src := make([]glext.E2, n)
	for i := range src {
		src[i] = randX[glext.E2]()
	}
	dst := make([]glext.E2, n/4)
	if err := FoldCoset(dst, src, shift, omega, 4, randX[glext.E2]()); err != nil {
		t.Fatal(err)
	}
	coef := interpolate(o, dst, o.exp(shift, 4), o.exp(omega, 4))
	if coef[len(coef)-1].IsZero() {
		t.Fatal("random word folded to a lower degree")
	}
}

func TestFoldCosetParallel(t *testing.T) {
	o := mustOps[koalabear.Element, kbext.E4](t)
	n := 1 << 16
	if testing.Short() {
		n = 1 << 14
	}
	shift, omega := o.fromUint(5), rootOf[koalabear.Element](t, n)
	src := make([]kbext.E4, n)
	for i := range src {
		src[i] = randX[kbext.E4]()
	}
	beta := randX[kbext.E4]()
	for _, a := range []int{2, 16} {
		one, four := make([]kbext.E4, n/a), make([]kbext.E4, n/a)
		if err := foldCoset(one, src, shift, omega, a, beta, split{1, parallelGrain}); err != nil {
			t.Fatal(err)
		}
		if err := foldCoset(four, src, shift, omega, a, beta, split{4, parallelGrain}); err != nil {
			t.Fatal(err)
		}
		for j := range one {
			if one[j] != four[j] {
				t.Fatalf("a=%d: 4 goroutines differ from one at %d", a, j)
			}
		}
	}
}

func TestFoldCosetErrors(t *testing.T) {
	o := mustOps[babybear.Element, bbext.E4](t)
	const n = 16
	shift, omega := o.fromUint(7), rootOf[babybear.Element](t, n)
	src := make([]bbext.E4, n)
	beta := randX[bbext.E4]()
	cases := []struct {
		name  string
		dst   int
		src   []bbext.E4
		shift babybear.Element
		omega babybear.Element
		arity int
		want  error
	}{
		{"arity 3", n / 3, src, shift, omega, 3, ErrArity},
		{"arity 1", n, src, shift, omega, 1, ErrArity},
		{"arity 0", 0, src, shift, omega, 0, ErrArity},
		{"arity 32", 0, src, shift, omega, 32, ErrArity},
		{"arity > n", 0, src[:8], shift, rootOf[babybear.Element](t, 8), 16, ErrArity},
		{"dst length", n/2 + 1, src, shift, omega, 2, ErrLength},
		{"n not a power of two", 6, src[:12], shift, omega, 2, ErrLength},
		{"empty", 0, nil, shift, omega, 2, ErrLength},
		{"zero shift", n / 2, src, babybear.Element{}, omega, 2, ErrDomain},
		{"omega order n/2", n / 2, src, shift, o.mul(omega, omega), 2, ErrDomain},
		{"omega order 2n", n / 2, src, shift, rootOf[babybear.Element](t, 2*n), 2, ErrDomain},
		{"omega zero", n / 2, src, shift, babybear.Element{}, 2, ErrDomain},
	}
	for _, c := range cases {
		dst := make([]bbext.E4, c.dst)
		if err := FoldCoset(dst, c.src, c.shift, c.omega, c.arity, beta); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// Wrong challenge field.
	if err := FoldCoset(make([]kbext.E4, n/2), make([]kbext.E4, n), shift, omega, 2, kbext.E4{}); !errors.Is(err, ErrField) {
		t.Errorf("koalabear E4 over babybear: %v", err)
	}
	if _, err := FoldCosetAt(make([]fr.Element, 2), shift, omega, n, 0, fr.Element{}); !errors.Is(err, ErrField) {
		t.Errorf("fr over babybear: %v", err)
	}
	// FoldCosetAt.
	for _, c := range []struct {
		vals, n, j int
		want       error
	}{
		{2, n, -1, ErrDomain}, {2, n, n / 2, ErrDomain}, {3, n, 0, ErrArity}, {32, n, 0, ErrArity}, {2, 12, 0, ErrLength},
	} {
		if _, err := FoldCosetAt(make([]bbext.E4, c.vals), shift, omega, c.n, c.j, beta); !errors.Is(err, c.want) {
			t.Errorf("FoldCosetAt(%d values, n=%d, j=%d): %v, want %v", c.vals, c.n, c.j, err, c.want)
		}
	}
}

// testFoldCosetBlocks checks FoldCoset against FoldCosetAt on codewords of
// several blocks of leaves (the block kernel's carried x_j⁻¹), on one
// goroutine and on three.
func testFoldCosetBlocks[F Base, X Ext](t *testing.T) {
	o := mustOps[F, X](t)
	n := 1 << 11
	shift, omega := o.fromUint(11), rootOf[F](t, n)
	src := make([]X, n)
	for i := range src {
		src[i] = randX[X]()
	}
	beta := randX[X]()
	for _, a := range []int{2, 4, 8, 16} {
		m := n / a
		for _, w := range []int{1, 3} {
			dst := make([]X, m)
			if err := foldCoset(dst, src, shift, omega, a, beta, split{w, 100}); err != nil {
				t.Fatal(err)
			}
			leaf := make([]X, a)
			for j := range dst {
				for u := range leaf {
					leaf[u] = src[j+u*m]
				}
				got, err := FoldCosetAt(leaf, shift, omega, n, j, beta)
				if err != nil {
					t.Fatal(err)
				}
				if !xequal(got, dst[j]) {
					t.Fatalf("a=%d workers=%d: entry %d differs from FoldCosetAt", a, w, j)
				}
			}
		}
	}
}

func TestFoldCosetBlocks(t *testing.T) {
	t.Run("babybear", testFoldCosetBlocks[babybear.Element, bbext.E4])
	t.Run("koalabear", testFoldCosetBlocks[koalabear.Element, kbext.E4])
	t.Run("goldilocks", testFoldCosetBlocks[goldilocks.Element, glext.E2])
	t.Run("bn254", testFoldCosetBlocks[fr.Element, fr.Element])
}
