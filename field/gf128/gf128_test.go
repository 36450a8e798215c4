package gf128

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// ---------------------------------------------------------------------------
// Paths and the reference.

var (
	ranMu    sync.Mutex
	ranPaths = map[string]bool{}
)

// skipPaths switches implementations off for this test run, e.g.
// go test ./field/gf128 -args -gf128.skip=avx512,pclmulqdq.
var skipPaths = flag.String("gf128.skip", "", "comma-separated implementations not to test (generic, pclmulqdq, avx512)")

func TestMain(m *testing.M) {
	code := m.Run()
	var ran []string
	for _, name := range implNames {
		if ranPaths[name] {
			ran = append(ran, name)
		}
	}
	if len(ran) > 0 {
		fmt.Printf("gf128: ran paths: %s (active by default: %s)\n", strings.Join(ran, ", "), cpufeat.Active("gf128"))
	}
	os.Exit(code)
}

// forEachPath runs f as a subtest once per implementation this machine and
// build support, with that implementation active.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	cpufeat.Each("gf128", func(name string) {
		if slices.Contains(strings.Split(*skipPaths, ","), name) {
			return
		}
		ranMu.Lock()
		ranPaths[name] = true
		ranMu.Unlock()
		t.Run(name, f)
	})
}

// refClmul is the schoolbook carry-less product over GF(2)[x], one bit of b
// at a time: the 128-bit product as hi, lo.
func refClmul(a, b uint64) (hi, lo uint64) {
	for i := 0; i < 64; i++ {
		if b>>i&1 == 1 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return hi, lo
}

// refReduce reduces hi·x^64 + lo modulo x^64 + x^4 + x^3 + x + 1 one bit at
// a time, from x^127 down: a set bit k ≥ 64 is cleared by adding
// x^(k-64)·(x^64 + x^4 + x^3 + x + 1).
func refReduce(hi, lo uint64) gf64.Element {
	for k := 127; k >= 64; k-- {
		if hi>>(k-64)&1 == 0 {
			continue
		}
		hi ^= 1 << (k - 64)
		for _, e := range []int{4, 3, 1, 0} {
			p := k - 64 + e // the bit x^(k-64+e), below x^68+63
			if p >= 64 {
				hi ^= 1 << (p - 64)
			} else {
				lo ^= 1 << p
			}
		}
	}
	return gf64.Element(lo)
}

func refMul64(a, b gf64.Element) gf64.Element {
	return refReduce(refClmul(uint64(a), uint64(b)))
}

// refMul multiplies by the schoolbook in GF(2^64)[y] and reduces y² to
// y + C (y² + y + C = 0 in characteristic 2):
//
//	(a0 + a1 y)(b0 + b1 y) = a0b0 + (a0b1 + a1b0) y + a1b1 y²
//	                       = (a0b0 + C a1b1) + (a0b1 + a1b0 + a1b1) y.
func refMul(a, b Element) Element {
	p0 := refMul64(a.A0, b.A0)
	p1 := refMul64(a.A0, b.A1) ^ refMul64(a.A1, b.A0)
	p2 := refMul64(a.A1, b.A1)
	return Element{p0 ^ refMul64(p2, C), p1 ^ p2}
}

// edge64 are the GF(2^64) coefficients most likely to break a multiplication:
// 0, 1, x, x^63, all ones, and values with the top bits set, whose products
// need both reduction steps.
var edge64 = []gf64.Element{
	0, 1, 2, 3, 0x1b, 0x8000000000000000, 0xffffffffffffffff,
	0xf000000000000000, 0xe000000000000000, 0xc000000000000001,
	0x7fffffffffffffff, 0x8000000000000001, 0xffffffff00000000,
	0x00000000ffffffff, 0xaaaaaaaaaaaaaaaa, 0x5555555555555555,
	0x123456789abcdef0, 0xfedcba9876543210,
}

func rand64(rng *rand.Rand) gf64.Element {
	switch rng.IntN(8) {
	case 0, 1:
		return edge64[rng.IntN(len(edge64))]
	case 2:
		return gf64.Element(rng.Uint64() | 0xf000000000000000)
	default:
		return gf64.Element(rng.Uint64())
	}
}

// randElem returns a random element whose coefficients are edge values one
// time in four.
func randElem(rng *rand.Rand) Element { return Element{rand64(rng), rand64(rng)} }

func randVec(rng *rand.Rand, n int) []Element {
	v := make([]Element, n)
	for i := range v {
		v[i] = randElem(rng)
	}
	return v
}

func randVec64(rng *rand.Rand, n int) []gf64.Element {
	v := make([]gf64.Element, n)
	for i := range v {
		v[i] = rand64(rng)
	}
	return v
}

func newRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(1, uint64(len(t.Name()))))
}

// iters is the number of random trials of a test: full under GFPOLY_LONG,
// a quarter of it by default, short under -short.
func iters(full, short int) int {
	return testutil.Sweep(short, max(short, full/4), full)
}

// edgeElems are all pairs of a few edge coefficients.
var edgeElems = func() []Element {
	var out []Element
	for _, a0 := range edge64[:9] {
		for _, a1 := range edge64[:9] {
			out = append(out, Element{a0, a1})
		}
	}
	return out
}()

// ---------------------------------------------------------------------------
// The reference itself.

func TestRefClmul(t *testing.T) {
	// (x^63 + 1)·(x^63 + x) = x^126 + x^64 + x^63 + x.
	hi, lo := refClmul(1<<63|1, 1<<63|2)
	assert.Equal(t, [2]uint64{1<<62 | 1, 1<<63 | 2}, [2]uint64{hi, lo})
	// x^64 = x^4 + x^3 + x + 1; x^127 reduced is x^63·0x1b reduced.
	assert.Equal(t, gf64.Element(0x1b), refReduce(1, 0))
	assert.Equal(t, gf64.Mul(1<<63, 0x1b), refReduce(1<<63, 0))
	rng := newRand(t)
	for range iters(20000, 2000) {
		a, b := rand64(rng), rand64(rng)
		require.Equal(t, gf64.Mul(a, b), refMul64(a, b), "refMul64(%v, %v) against gf64.Mul", a, b)
	}
}

// ---------------------------------------------------------------------------
// Known answers. These products come from refMul, which shares no code with
// the package, and a Python session that multiplies the same way
// (schoolbook in GF(2)[x], reduction one bit at a time, y² = y + C) prints the
// same values; the package doc quotes the first.

var knownAnswers = []struct{ a, b, ab Element }{
	{Element{0x123456789abcdef0, 0xfedcba9876543210}, Element{0x0f1e2d3c4b5a6978, 0x8796a5b4c3d2e1f0}, Element{0x6baf3ee4ab2bfc80, 0x75b44f6103d3395a}},
	{Y, Y, Element{C, 1}},
	{Element{0xffffffffffffffff, 0xffffffffffffffff}, Element{0xffffffffffffffff, 0xffffffffffffffff}, Element{0x555555555555567d, 0x5555555555555513}},
	{Element{2, 0x8000000000000000}, Element{0x8000000000000000, 3}, Element{0x40000000000000ee, 0x4000000000000047}},
}

func TestKnownAnswers(t *testing.T) {
	for _, ka := range knownAnswers {
		require.Equal(t, ka.ab, refMul(ka.a, ka.b), "refMul(%v, %v)", ka.a, ka.b)
	}
	forEachPath(t, func(t *testing.T) {
		for _, ka := range knownAnswers {
			assert.Equal(t, ka.ab, Mul(ka.a, ka.b), "Mul(%v, %v)", ka.a, ka.b)
			dst := make([]Element, 1)
			MulVec(dst, []Element{ka.a}, []Element{ka.b})
			assert.Equal(t, ka.ab, dst[0], "MulVec")
			ScaleVec(dst, []Element{ka.a}, ka.b)
			assert.Equal(t, ka.ab, dst[0], "ScaleVec")
		}
	})
}

// ---------------------------------------------------------------------------
// Scalar arithmetic.

func TestMulReference(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		for _, a := range edgeElems {
			for _, b := range edgeElems {
				require.Equal(t, refMul(a, b), Mul(a, b), "Mul(%v, %v)", a, b)
			}
		}
		rng := newRand(t)
		for range iters(50000, 5000) {
			a, b := randElem(rng), randElem(rng)
			if got, want := Mul(a, b), refMul(a, b); got != want {
				require.Equal(t, want, got, "Mul(%v, %v)", a, b)
			}
		}
	})
}

// TestMulGenericMatches checks the generic Karatsuba against the reference
// directly, whatever the active implementation.
func TestMulGenericMatches(t *testing.T) {
	rng := newRand(t)
	for range iters(50000, 5000) {
		a, b := randElem(rng), randElem(rng)
		require.Equal(t, refMul(a, b), mulGeneric(a, b), "mulGeneric(%v, %v)", a, b)
	}
}

func TestFieldAxioms(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(20000, 2000) {
			a, b, c := randElem(rng), randElem(rng), randElem(rng)
			require.Equal(t, Mul(Mul(a, b), c), Mul(a, Mul(b, c)), "associativity: a=%v b=%v c=%v", a, b, c)
			require.Equal(t, Mul(a, b), Mul(b, a), "commutativity: a=%v b=%v", a, b)
			require.Equal(t, Add(Mul(a, b), Mul(a, c)), Mul(a, Add(b, c)), "distributivity: a=%v b=%v c=%v", a, b, c)
			require.Equal(t, Add(a, b), Add(b, a), "additive commutativity")
			require.Equal(t, Add(Add(a, b), c), Add(a, Add(b, c)), "additive associativity")
			require.Equal(t, a, Mul(a, One), "a·1 = a")
			require.Equal(t, Zero, Mul(a, Zero), "a·0 = 0")
			require.Equal(t, a, Add(a, Zero), "a+0 = a")
			require.Equal(t, Zero, Add(a, a), "a+a = 0")
			require.Equal(t, Zero, Sub(a, a), "a−a = 0")
			require.Equal(t, Add(a, b), Sub(a, b), "a−b = a+b")
			if !a.IsZero() {
				require.Equal(t, One, Mul(a, Inverse(a)), "a·a⁻¹ = 1: a=%v", a)
				require.Equal(t, b, Mul(Div(b, a), a), "(b/a)·a = b: a=%v b=%v", a, b)
			}
			require.Equal(t, Mul(a, a), Square(a), "Square(%v)", a)
			require.Equal(t, Embed(gf64.Mul(a.A0, b.A0)), Mul(Embed(a.A0), Embed(b.A0)), "Embed is multiplicative")
			require.Equal(t, Mul(a, Embed(b.A0)), MulByBase(a, b.A0), "MulByBase")
		}
		assert.Equal(t, Zero, Inverse(Zero), "Inverse(0) = 0")
		assert.Equal(t, Zero, Div(One, Zero), "1/0 = 0")
		assert.True(t, Zero.IsZero())
		assert.False(t, One.IsZero())
		assert.False(t, Y.IsZero())
		assert.True(t, One.Equal(Embed(1)))
		assert.False(t, One.Equal(Y))
	})
}

func TestSquareEdges(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		for _, a := range edgeElems {
			require.Equal(t, refMul(a, a), Square(a), "Square(%v)", a)
			require.Equal(t, Square(a), Mul(a, a), "Square(%v) = Mul(a, a)", a)
		}
	})
}

func TestExp(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(200, 50) {
			a := randElem(rng)
			e := rng.Uint64N(1000)
			want := One
			for range e {
				want = refMul(want, a)
			}
			require.Equal(t, want, Exp(a, e), "Exp(%v, %d)", a, e)
		}
		assert.Equal(t, One, Exp(Zero, 0), "0^0 = 1")
		assert.Equal(t, Zero, Exp(Zero, 5))
		// The multiplicative group has order 2^128 − 1 = (2^64 − 1)(2^64 + 1):
		// a^(2^64+1) is the norm, a^(2^64−1) has norm 1.
		a := randElem(rng)
		assert.Equal(t, Embed(Norm(a)), Mul(Square(Exp(a, 1<<63)), a), "a^(2^64+1) = Norm(a)")
	})
}

// ---------------------------------------------------------------------------
// Subfield and structure.

func TestEmbedProject(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(10000, 1000) {
			a, b := rand64(rng), rand64(rng)
			p, ok := Project(Embed(a))
			require.True(t, ok)
			require.Equal(t, a, p, "Project(Embed(a)) = a")
			require.Equal(t, Embed(a^b), Add(Embed(a), Embed(b)), "Embed is additive")
			require.Equal(t, Embed(gf64.Mul(a, b)), Mul(Embed(a), Embed(b)), "Embed is multiplicative")
			require.Equal(t, Embed(gf64.Inverse(a)), Inverse(Embed(a)), "Embed commutes with inversion")
			e := randElem(rng)
			if e.A1 != 0 {
				p, ok = Project(e)
				require.False(t, ok, "Project(%v) outside the subfield", e)
				require.Equal(t, gf64.Element(0), p)
			}
		}
		assert.Equal(t, One, Embed(1))
	})
}

// TestDefiningPolynomial: y is a root of y² + y + C.
func TestDefiningPolynomial(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		assert.Equal(t, Zero, Add(Add(Mul(Y, Y), Y), Embed(C)), "y² + y + C = 0")
		y1 := Add(Y, One)
		assert.Equal(t, Zero, Add(Add(Mul(y1, y1), y1), Embed(C)), "y + 1 is the other root")
		assert.Equal(t, y1, Conjugate(Y), "Conjugate(y) = y + 1")
	})
}

// rootOfArtinSchreier solves y² + y = c in GF(2^64) by linear algebra over
// GF(2): y ↦ y² + y is GF(2)-linear, so its matrix has columns (x^i)² + x^i,
// and Gaussian elimination finds a solution or shows there is none. (The
// half-trace shortcut needs odd degree; 64 is even.) It returns a root and
// true, or 0 and false when y² + y + c is irreducible over GF(2^64).
func rootOfArtinSchreier(c gf64.Element) (gf64.Element, bool) {
	// rows[k] is the equation for bit k of the image: a 64-bit row of the
	// matrix (bit i is the coefficient of y_i) and the right-hand side.
	var rows [64]uint64
	var rhs [64]uint64
	for i := range 64 {
		xi := gf64.Element(1) << i
		col := uint64(refMul64(xi, xi) ^ xi)
		for k := range 64 {
			rows[k] |= (col >> k & 1) << i
		}
	}
	for k := range 64 {
		rhs[k] = uint64(c) >> k & 1
	}
	pivots := make([]int, 0, 64) // pivot column of each reduced row, in order
	r := 0
	for col := 0; col < 64 && r < 64; col++ {
		p := -1
		for k := r; k < 64; k++ {
			if rows[k]>>col&1 == 1 {
				p = k
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		rhs[r], rhs[p] = rhs[p], rhs[r]
		for k := range 64 {
			if k != r && rows[k]>>col&1 == 1 {
				rows[k] ^= rows[r]
				rhs[k] ^= rhs[r]
			}
		}
		pivots = append(pivots, col)
		r++
	}
	for k := r; k < 64; k++ {
		if rhs[k] != 0 {
			return 0, false // 0 = 1: no solution
		}
	}
	var y uint64
	for k, col := range pivots {
		y |= rhs[k] << col // free variables set to 0
	}
	return gf64.Element(y), true
}

// TestIrreducible shows that y² + y + C has no root in GF(2^64), so that it
// is irreducible (a quadratic with no root is) and GF(2^64)[y]/(y² + y + C) is
// a field. The same helper finds roots for trace-0 constants, which is what
// makes the test able to fail.
func TestIrreducible(t *testing.T) {
	assert.Equal(t, gf64.Element(1), gf64.Trace(C), "Tr(C) = 1")
	_, ok := rootOfArtinSchreier(C)
	assert.False(t, ok, "y² + y + C has a root: it would be reducible")

	// Trace 0 constants: every small integer (Tr(x^i) = 1 only for i in
	// {61, 63}) gives a reducible polynomial, and the helper finds a root.
	for _, c := range []gf64.Element{0, 1, 2, 3, 0x1b, 1 << 62} {
		require.Equal(t, gf64.Element(0), gf64.Trace(c), "Tr(%v)", c)
		r, ok := rootOfArtinSchreier(c)
		require.True(t, ok, "y² + y + %v should have a root", c)
		assert.Equal(t, c, refMul64(r, r)^r, "root of y² + y + %v", c)
	}
	for i := range 64 {
		want := gf64.Element(0)
		if i == 61 || i == 63 {
			want = 1
		}
		assert.Equal(t, want, gf64.Trace(1<<i), "Tr(x^%d)", i)
	}
	// A root exists exactly when the trace is 0.
	rng := newRand(t)
	for range iters(300, 50) {
		c := rand64(rng)
		r, ok := rootOfArtinSchreier(c)
		require.Equal(t, gf64.Trace(c) == 0, ok, "root of y² + y + %v", c)
		if ok {
			require.Equal(t, c, refMul64(r, r)^r)
		}
	}
	// x^61 and x^63 are the trace-1 constants of weight one: the lightest
	// choices of C, for which a product by C is a shift.
	_, ok = rootOfArtinSchreier(1 << 61)
	assert.False(t, ok, "y² + y + x^61 is irreducible too")
}

func TestConjugate(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(3000, 300) {
			a, b := randElem(rng), randElem(rng)
			require.Equal(t, a, Conjugate(Conjugate(a)), "order 2")
			require.Equal(t, Mul(Conjugate(a), Conjugate(b)), Conjugate(Mul(a, b)), "multiplicative")
			require.Equal(t, Add(Conjugate(a), Conjugate(b)), Conjugate(Add(a, b)), "additive")
			// The Frobenius a ↦ a^(2^64): 64 squarings.
			f := a
			for range 64 {
				f = Square(f)
			}
			require.Equal(t, f, Conjugate(a), "Conjugate(a) = a^(2^64): a=%v", a)
			require.Equal(t, a.A1 == 0, Conjugate(a) == a, "fixes exactly GF(2^64): a=%v", a)
			e := Embed(a.A0)
			require.Equal(t, e, Conjugate(e))
			n := Mul(a, Conjugate(a))
			p, ok := Project(n)
			require.True(t, ok, "a·Conjugate(a) lies in GF(2^64)")
			require.Equal(t, p, Norm(a), "Norm(a) = a·Conjugate(a)")
			require.Equal(t, gf64.Mul(Norm(a), Norm(b)), Norm(Mul(a, b)), "Norm is multiplicative")
			require.Equal(t, a.A0 == 0 && a.A1 == 0, Norm(a) == 0, "Norm(a) = 0 only for 0")
		}
		assert.False(t, Conjugate(Y) == Y, "y is not fixed")
	})
}

// ---------------------------------------------------------------------------
// Encodings.

func TestString(t *testing.T) {
	assert.Equal(t, "0x0000000000000000+0x0000000000000001*y", Y.String())
	assert.Equal(t, "0x0000000000000001+0x0000000000000000*y", One.String())
	a := Element{0x123456789abcdef0, 0xfedcba9876543210}
	assert.Equal(t, "0x123456789abcdef0+0xfedcba9876543210*y", a.String())
	assert.Equal(t, "0x123456789abcdef0+0xfedcba9876543210*y", fmt.Sprint(a))
}

func TestTextRoundTrip(t *testing.T) {
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		text, err := a.MarshalText()
		require.NoError(t, err)
		var b Element
		require.NoError(t, b.UnmarshalText(text))
		require.Equal(t, a, b, "%s", text)
	}
	var b Element
	require.NoError(t, b.UnmarshalText([]byte("1+0X2*y")))
	assert.Equal(t, Element{1, 2}, b)
	for _, bad := range []string{"", "1", "1+2", "1*y", "+*y", "1+*y", "+1*y", "0x1+0x2*x", "1+2+3*y", "g+1*y", "1+0x12345678901234567*y", "1 +2*y"} {
		b := Element{5, 6}
		err := b.UnmarshalText([]byte(bad))
		require.ErrorIs(t, err, ErrSyntax, "%q", bad)
		assert.Equal(t, Element{5, 6}, b, "%q: unchanged on error", bad)
	}
}

func TestBytes(t *testing.T) {
	a := Element{0x0706050403020100, 0x0f0e0d0c0b0a0908}
	b := a.Bytes()
	want := [16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	assert.Equal(t, want, b, "A0 little-endian, then A1")
	var c Element
	require.NoError(t, c.SetBytes(b[:]))
	assert.Equal(t, a, c)
	for _, n := range []int{0, 1, 8, 15, 17, 32} {
		d := One
		require.Error(t, d.SetBytes(make([]byte, n)), "%d bytes", n)
		assert.Equal(t, One, d, "unchanged on error")
	}
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		bs := a.Bytes()
		var e Element
		require.NoError(t, e.SetBytes(bs[:]))
		require.Equal(t, a, e)
	}
}

func TestRandom(t *testing.T) {
	src := bytes.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 100)
	a, err := Random(bytes.NewReader(src))
	require.NoError(t, err)
	assert.Equal(t, Element{0x0706050403020100, 0x0f0e0d0c0b0a0908}, a)
	v := make([]Element, 70)
	require.NoError(t, RandomVec(v, bytes.NewReader(src)))
	for i := range v {
		require.Equal(t, a, v[i], "element %d", i)
	}
	_, err = Random(bytes.NewReader(src[:15]))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.ErrorIs(t, RandomVec(make([]Element, 101), bytes.NewReader(src)), io.ErrUnexpectedEOF)
	require.NoError(t, RandomVec(nil, bytes.NewReader(nil)))
}
