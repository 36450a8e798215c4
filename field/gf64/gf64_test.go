package gf64

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

	"github.com/gfpoly/gfpoly/internal/clmul"
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
// go test ./field/gf64 -args -gf64.skip=avx512,pclmulqdq.
var skipPaths = flag.String("gf64.skip", "", "comma-separated implementations not to test (generic, pclmulqdq, avx512)")

func TestMain(m *testing.M) {
	code := m.Run()
	var ran []string
	for _, name := range implNames {
		if ranPaths[name] {
			ran = append(ran, name)
		}
	}
	if len(ran) > 0 {
		fmt.Printf("gf64: ran paths: %s (active by default: %s)\n", strings.Join(ran, ", "), cpufeat.Active("gf64"))
	}
	os.Exit(code)
}

// forEachPath runs f as a subtest once per implementation this machine and
// build support, with that implementation active.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	cpufeat.Each("gf64", func(name string) {
		if slices.Contains(strings.Split(*skipPaths, ","), name) {
			return
		}
		ranMu.Lock()
		ranPaths[name] = true
		ranMu.Unlock()
		t.Run(name, f)
	})
}

// refMul is the bit-by-bit shift-and-xor product: for each set bit i of b add
// a·x^i, keeping a·x^i reduced by replacing x^64 with x^4 + x^3 + x + 1.
func refMul(a, b Element) Element {
	var r Element
	for i := 0; i < 64; i++ {
		if b>>i&1 == 1 {
			r ^= a
		}
		carry := a >> 63
		a <<= 1
		if carry == 1 {
			a ^= Poly
		}
	}
	return r
}

// edgeValues are the operands most likely to break a multiplication: 0, 1, x,
// x^63, all ones, and values with the top bits set, whose products have
// high halves with bits 60..63 set and need both reduction steps.
var edgeValues = []Element{
	0, 1, 2, 3, Poly, 0x8000000000000000, 0xffffffffffffffff,
	0xf000000000000000, 0xe000000000000000, 0xc000000000000001,
	0x7fffffffffffffff, 0x8000000000000001, 0xffffffff00000000,
	0x00000000ffffffff, 0xaaaaaaaaaaaaaaaa, 0x5555555555555555,
	0x123456789abcdef0, 0xfedcba9876543210,
}

// randElem returns a random element, an edge value one time in four and a
// value with its top nibble set one time in eight.
func randElem(rng *rand.Rand) Element {
	switch rng.IntN(8) {
	case 0, 1:
		return edgeValues[rng.IntN(len(edgeValues))]
	case 2:
		return Element(rng.Uint64() | 0xf000000000000000)
	default:
		return Element(rng.Uint64())
	}
}

func randVec(rng *rand.Rand, n int) []Element {
	v := make([]Element, n)
	for i := range v {
		v[i] = randElem(rng)
	}
	return v
}

func newRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(1, uint64(len(t.Name()))))
}

func iters(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// ---------------------------------------------------------------------------
// Scalar multiplication.

// The known answer kaA·kaB = kaC comes from PARI/GP, not from this package:
//
//	P = Mod(1, 2)*(x^64 + x^4 + x^3 + x + 1);
//	e(n) = Mod(Mod(1, 2)*Pol(binary(n)), P);
//	subst(lift(lift(e(0x123456789abcdef0) * e(0xfedcba9876543210))), x, 2)
//
// prints 9810998698458937964 (shared/baselines/clmul.c checks the same value).
// The same session gives the inverses in ExampleBatchInverse:
// subst(lift(lift(1/e(2))), x, 2) = 0x800000000000000d and
// subst(lift(lift(1/e(3))), x, 2) = 0xfffffffffffffff6.
const (
	kaA = 0x123456789abcdef0
	kaB = 0xfedcba9876543210
	kaC = 9810998698458937964
)

func TestKnownAnswer(t *testing.T) {
	require.Equal(t, Element(kaC), refMul(kaA, kaB), "refMul(%v, %v)", Element(kaA), Element(kaB))
	forEachPath(t, func(t *testing.T) {
		assert.Equal(t, Element(kaC), Mul(kaA, kaB), "Mul")
		dst := make([]Element, 1)
		MulVec(dst, []Element{kaA}, []Element{kaB})
		assert.Equal(t, Element(kaC), dst[0], "MulVec")
		ScaleVec(dst, []Element{kaA}, kaB)
		assert.Equal(t, Element(kaC), dst[0], "ScaleVec")
	})
}

func TestMulReference(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		for _, a := range edgeValues {
			for _, b := range edgeValues {
				require.Equal(t, refMul(a, b), Mul(a, b), "Mul(%v, %v)", a, b)
			}
		}
		rng := newRand(t)
		for range iters(200000, 20000) {
			a, b := randElem(rng), randElem(rng)
			if got, want := Mul(a, b), refMul(a, b); got != want {
				require.Equal(t, want, got, "Mul(%v, %v)", a, b)
			}
		}
	})
}

// TestMulGenericParts checks the generic carry-less product's high and low
// halves against a bit-by-bit carry-less product.
func TestMulGenericParts(t *testing.T) {
	rng := newRand(t)
	for range iters(100000, 10000) {
		a, b := uint64(randElem(rng)), uint64(randElem(rng))
		var wh, wl uint64
		for i := 0; i < 64; i++ {
			if b>>i&1 == 1 {
				wl ^= a << i
				if i > 0 {
					wh ^= a >> (64 - i)
				}
			}
		}
		if h, l := clmul.Mul64(a, b); h != wh || l != wl {
			require.Equal(t, [2]uint64{wh, wl}, [2]uint64{h, l}, "clmul.Mul64(%#x, %#x): high, low", a, b)
		}
	}
}

// ---------------------------------------------------------------------------
// Vector operations: every length 0..70 (all tail cases of every unrolling),
// some longer ones, unaligned starts, and guard elements that must stay
// untouched.

var vecLengths = func() []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 127, 128, 129, 1000, 4099)
}()

const guard = Element(0x5a5a5a5a5a5a5a5a)

// guarded returns a slice of n elements at offset off inside a larger slice
// whose other elements are guard, and the larger slice.
func guarded(rng *rand.Rand, n, off int) (s, all []Element) {
	all = make([]Element, n+off+9)
	for i := range all {
		all[i] = guard
	}
	s = all[off : off+n]
	for i := range s {
		s[i] = randElem(rng)
	}
	return s, all
}

// checkGuards requires that the elements of all outside [off, off+n) still
// hold the guard value.
func checkGuards(t *testing.T, what string, all []Element, off, n int) {
	t.Helper()
	want := slices.Clone(all)
	for i := range want {
		if i < off || i >= off+n {
			want[i] = guard
		}
	}
	testutil.RequireEqualSlices(t, want, all, "%s: n=%d: an element outside the slice (which starts at %d) was written", what, n, off)
}

// mapRef returns f(i) for every i < n.
func mapRef(n int, f func(i int) Element) []Element {
	out := make([]Element, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func TestVectorOps(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range vecLengths {
			off := n % 3 // unaligned starts too
			a, _ := guarded(rng, n, 0)
			b, _ := guarded(rng, n, 1)
			c := randElem(rng)

			dst, all := guarded(rng, n, off)
			MulVec(dst, a, b)
			checkGuards(t, "MulVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(a[i], b[i]) }), dst, "MulVec n=%d", n)

			dst, all = guarded(rng, n, off)
			ScaleVec(dst, a, c)
			checkGuards(t, "ScaleVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(a[i], c) }), dst, "ScaleVec n=%d c=%v", n, c)

			dst, all = guarded(rng, n, off)
			old := slices.Clone(dst)
			MulAddVec(dst, a, c)
			checkGuards(t, "MulAddVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return old[i] ^ refMul(a[i], c) }), dst, "MulAddVec n=%d c=%v", n, c)

			dst, all = guarded(rng, n, off)
			AddVec(dst, a, b)
			checkGuards(t, "AddVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return a[i] ^ b[i] }), dst, "AddVec n=%d", n)

			u, allU := guarded(rng, n, off)
			v, allV := guarded(rng, n, 2)
			u0, v0 := slices.Clone(u), slices.Clone(v)
			Butterfly(u, v, c)
			checkGuards(t, "Butterfly u", allU, off, n)
			checkGuards(t, "Butterfly v", allV, 2, n)
			wu := mapRef(n, func(i int) Element { return u0[i] ^ refMul(v0[i], c) })
			wv := mapRef(n, func(i int) Element { return v0[i] ^ wu[i] })
			testutil.RequireEqualSlices(t, wu, u, "Butterfly n=%d: u", n)
			testutil.RequireEqualSlices(t, wv, v, "Butterfly n=%d: v", n)
			InvButterfly(u, v, c)
			checkGuards(t, "InvButterfly u", allU, off, n)
			checkGuards(t, "InvButterfly v", allV, 2, n)
			testutil.RequireEqualSlices(t, u0, u, "InvButterfly did not undo Butterfly at n=%d: u", n)
			testutil.RequireEqualSlices(t, v0, v, "InvButterfly did not undo Butterfly at n=%d: v", n)
			// InvButterfly against the reference on fresh data.
			u, _ = guarded(rng, n, off)
			v, _ = guarded(rng, n, 0)
			u0, v0 = slices.Clone(u), slices.Clone(v)
			InvButterfly(u, v, c)
			wv = mapRef(n, func(i int) Element { return v0[i] ^ u0[i] })
			wu = mapRef(n, func(i int) Element { return u0[i] ^ refMul(wv[i], c) })
			testutil.RequireEqualSlices(t, wu, u, "InvButterfly n=%d: u", n)
			testutil.RequireEqualSlices(t, wv, v, "InvButterfly n=%d: v", n)
		}
	})
}

// TestVectorConstants runs the by-constant operations with every edge value
// as the constant (the constant-multiplier fast paths precompute from it).
func TestVectorConstants(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{1, 7, 8, 31, 64, 65, 300} {
			a := randVec(rng, n)
			dst := make([]Element, n)
			for _, c := range edgeValues {
				ScaleVec(dst, a, c)
				testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(a[i], c) }), dst, "ScaleVec n=%d c=%v", n, c)
			}
		}
	})
}

func TestVectorAliasing(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{0, 1, 5, 17, 100} {
			x, y := randVec(rng, n), randVec(rng, n)
			c := randElem(rng)

			z := slices.Clone(x)
			MulVec(z, z, y)
			w := slices.Clone(y)
			MulVec(w, x, w)
			s := slices.Clone(x)
			MulVec(s, s, s)
			sc := slices.Clone(x)
			ScaleVec(sc, sc, c)
			ma := slices.Clone(x)
			MulAddVec(ma, ma, c)
			ad := slices.Clone(x)
			AddVec(ad, ad, ad)

			prod := mapRef(n, func(i int) Element { return refMul(x[i], y[i]) })
			testutil.EqualSlices(t, prod, z, "MulVec(x, x, y) n=%d", n)
			testutil.EqualSlices(t, prod, w, "MulVec(y, x, y) n=%d", n)
			testutil.EqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], x[i]) }), s, "MulVec(x, x, x) n=%d", n)
			testutil.EqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], c) }), sc, "ScaleVec(x, x, c) n=%d", n)
			testutil.EqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], c^1) }), ma, "MulAddVec(x, x, c) n=%d: want x·(c+1)", n)
			testutil.EqualSlices(t, make([]Element, n), ad, "AddVec(x, x, x) n=%d: want 0", n)
		}
	})
}

func TestLengthMismatchPanics(t *testing.T) {
	a3, a4 := make([]Element, 3), make([]Element, 4)
	cases := map[string]func(){
		"MulVec dst/a":    func() { MulVec(a3, a4, a3) },
		"MulVec dst/b":    func() { MulVec(a3, a3, a4) },
		"ScaleVec":        func() { ScaleVec(a3, a4, 1) },
		"MulAddVec":       func() { MulAddVec(a3, a4, 1) },
		"AddVec dst/a":    func() { AddVec(a3, a4, a3) },
		"AddVec dst/b":    func() { AddVec(a3, a3, a4) },
		"BatchInverse":    func() { BatchInverse(a3, a4) },
		"Butterfly":       func() { Butterfly(a3, a4, 1) },
		"InvButterfly":    func() { InvButterfly(a3, a4, 1) },
		"Butterfly (4,3)": func() { Butterfly(a4, a3, 1) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			msg := testutil.PanicMessage(t, f)
			assert.Regexp(t, "^gf64: ", msg)
			assert.Contains(t, msg, "3", "the message names both lengths")
			assert.Contains(t, msg, "4", "the message names both lengths")
		})
	}
}

func TestZeroAllocs(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		a, b, dst := randVec(rng, 1000), randVec(rng, 1000), make([]Element, 1000)
		ops := map[string]func(){
			"MulVec":       func() { MulVec(dst, a, b) },
			"ScaleVec":     func() { ScaleVec(dst, a, 7) },
			"MulAddVec":    func() { MulAddVec(dst, a, 7) },
			"AddVec":       func() { AddVec(dst, a, b) },
			"Butterfly":    func() { Butterfly(dst, a, 7) },
			"InvButterfly": func() { InvButterfly(dst, a, 7) },
			"BatchInverse": func() { BatchInverse(dst, a) },
			"Inverse":      func() { dst[0] = Inverse(a[0]) },
		}
		for name, f := range ops {
			assert.Zero(t, testing.AllocsPerRun(10, f), "%s allocations per call", name)
		}
	})
}

func TestBatchInverse(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{0, 1, 2, 255, 256, 257, 600} {
			a := randVec(rng, n)
			for i := 0; i < n; i += 1 + rng.IntN(40) {
				a[i] = 0
			}
			if n > 0 {
				a[n-1] = 0
			}
			wantZeros := 0
			for _, v := range a {
				if v == 0 {
					wantZeros++
				}
			}
			orig := slices.Clone(a)
			dst := make([]Element, n)
			require.Equal(t, wantZeros, BatchInverse(dst, a), "n=%d: zeros counted by BatchInverse", n)
			testutil.RequireEqualSlices(t, orig, a, "n=%d: BatchInverse modified its input", n)
			// dst[i] is 0 where a[i] is, and a[i]·dst[i] = 1 elsewhere.
			wantZero := mapRef(n, func(i int) Element {
				if a[i] == 0 {
					return 0
				}
				return dst[i]
			})
			testutil.RequireEqualSlices(t, wantZero, dst, "n=%d: the inverse of zero is 0", n)
			wantOne := mapRef(n, func(i int) Element {
				if a[i] == 0 {
					return 0
				}
				return 1
			})
			testutil.RequireEqualSlices(t, wantOne, mapRef(n, func(i int) Element { return refMul(a[i], dst[i]) }), "n=%d: a[i]·dst[i]", n)
			// In place.
			BatchInverse(a, a)
			testutil.RequireEqualSlices(t, dst, a, "n=%d: in-place BatchInverse differs", n)
		}
		// All zeros.
		z := make([]Element, 10)
		assert.Equal(t, 10, BatchInverse(z, z), "zeros counted in a vector of zeros")
		assert.Equal(t, make([]Element, 10), z, "BatchInverse of all zeros")
	})
}

// ---------------------------------------------------------------------------
// Field laws.

func TestFieldLaws(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(20000, 2000) {
			a, b, c := randElem(rng), randElem(rng), randElem(rng)
			require.Equal(t, Mul(a, Mul(b, c)), Mul(Mul(a, b), c), "associativity for %v, %v, %v", a, b, c)
			require.Equal(t, Mul(b, a), Mul(a, b), "commutativity for %v, %v", a, b)
			require.Equal(t, Add(Mul(a, b), Mul(a, c)), Mul(a, Add(b, c)), "distributivity for %v, %v, %v", a, b, c)
			require.Equal(t, a, Mul(a, One), "a·1 for a = %v", a)
			require.Equal(t, Zero, Mul(a, Zero), "a·0 for a = %v", a)
			require.Equal(t, refMul(a, a), Square(a), "Square(%v)", a)
			if a != 0 {
				require.Equal(t, One, refMul(a, Inverse(a)), "a·a⁻¹ for a = %v", a)
				require.Equal(t, b, refMul(Div(b, a), a), "Div(%v, %v)·%v", b, a, a)
			}
			s := Sqrt(a)
			require.Equal(t, a, refMul(s, s), "Sqrt(%v)²", a)
		}
		assert.Equal(t, Zero, Inverse(0), "Inverse(0)")
		assert.Equal(t, Zero, Div(5, 0), "Div(x, 0)")
		for _, n := range []int{-1, 0, 1, 2, 7, 63, 64, 130} {
			a := randElem(rng)
			want := a
			for range n {
				want = refMul(want, want)
			}
			assert.Equal(t, want, SquareN(a, n), "SquareN(%v, %d)", a, n)
		}
	})
}

func TestExp(t *testing.T) {
	rng := newRand(t)
	for range 200 {
		a := randElem(rng)
		e := rng.Uint64N(300)
		want := One
		for range e {
			want = refMul(want, a)
		}
		require.Equal(t, want, Exp(a, e), "Exp(%v, %d)", a, e)
	}
	assert.Equal(t, One, Exp(0, 0), "0^0")
	assert.Equal(t, One, Exp(7, 0), "7^0")
	assert.Equal(t, Zero, Exp(0, 5), "0^5")
	// The multiplicative group has order 2^64-1.
	for _, a := range edgeValues[1:] {
		assert.Equal(t, One, Exp(a, 1<<64-1), "%v^(2^64-1)", a)
	}
	assert.Equal(t, Element(kaA), SquareN(kaA, 64), "Frobenius: a^(2^64) = a")
}

// slowTrace computes Tr(a) = a + a² + … + a^(2^63) by squarings.
func slowTrace(a Element) Element {
	var t Element
	for range 64 {
		t ^= a
		a = refMul(a, a)
	}
	return t
}

// TestTraceMask recomputes traceMask from the definition of the trace.
func TestTraceMask(t *testing.T) {
	var mask uint64
	for i := 0; i < 64; i++ {
		tr := slowTrace(Element(1) << i)
		require.LessOrEqual(t, tr, One, "Tr(x^%d) = %v is not in GF(2)", i, tr)
		mask |= uint64(tr) << i
	}
	assert.Equal(t, mask, uint64(traceMask), "traceMask, recomputed from the definition")
}

func TestTrace(t *testing.T) {
	rng := newRand(t)
	seen := [2]bool{}
	for range iters(2000, 300) {
		a, b := randElem(rng), randElem(rng)
		ta := Trace(a)
		require.Equal(t, slowTrace(a), ta, "Trace(%v)", a)
		require.Equal(t, ta^Trace(b), Trace(a^b), "Trace is not linear at %v, %v", a, b)
		seen[ta] = true
	}
	assert.Equal(t, [2]bool{true, true}, seen, "Trace is onto GF(2) on the sample")
}

// ---------------------------------------------------------------------------
// Encodings.

func TestText(t *testing.T) {
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		s := a.String()
		require.Len(t, s, 18, "String() = %q", s)
		require.Regexp(t, "^0x", s)
		txt, err := a.MarshalText()
		require.NoError(t, err)
		require.Equal(t, s, string(txt), "MarshalText")
		var b Element
		require.NoError(t, b.UnmarshalText(txt), "UnmarshalText(%q)", txt)
		require.Equal(t, a, b, "UnmarshalText(%q)", txt)
	}
	good := map[string]Element{"0x1": 1, "0X1b": 0x1b, "ff": 0xff, "0xFFFFFFFFFFFFFFFF": 0xffffffffffffffff, "0": 0}
	for s, want := range good {
		var e Element
		if assert.NoError(t, e.UnmarshalText([]byte(s)), "UnmarshalText(%q)", s) {
			assert.Equal(t, want, e, "UnmarshalText(%q)", s)
		}
	}
	for _, s := range []string{"", "0x", "0xg", "-1", "+1", "0x 1", "12345678901234567", "0x0x1", "x1"} {
		e := Element(42)
		err := e.UnmarshalText([]byte(s))
		require.ErrorIs(t, err, ErrSyntax, "UnmarshalText(%q)", s)
		assert.Regexp(t, "^gf64: ", err.Error())
		assert.Equal(t, Element(42), e, "UnmarshalText(%q) changed the element on error", s)
	}
}

func TestBytes(t *testing.T) {
	a := Element(0x0807060504030201)
	assert.Equal(t, [8]byte{1, 2, 3, 4, 5, 6, 7, 8}, a.Bytes(), "Bytes is little-endian")
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		b := a.Bytes()
		var c Element
		require.NoError(t, c.SetBytes(b[:]))
		require.Equal(t, a, c, "SetBytes(Bytes(%v))", a)
	}
	for _, n := range []int{0, 7, 9} {
		c := Element(42)
		err := c.SetBytes(make([]byte, n))
		if assert.Error(t, err, "SetBytes(%d bytes)", n) {
			assert.Regexp(t, "^gf64: ", err.Error())
		}
		assert.Equal(t, Element(42), c, "SetBytes(%d bytes) changed the element on error", n)
	}
}

func TestRandom(t *testing.T) {
	src := bytes.NewReader([]byte{1, 0, 0, 0, 0, 0, 0, 0x80, 2, 0, 0, 0, 0, 0, 0, 0, 3})
	a, err := Random(src)
	require.NoError(t, err)
	assert.Equal(t, Element(0x8000000000000001), a, "Random reads 8 little-endian bytes")
	_, err = Random(bytes.NewReader([]byte{1, 2, 3}))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "Random from a short reader wraps the reader's error")
	assert.Regexp(t, "^gf64: ", err.Error())
	v := make([]Element, 100)
	require.NoError(t, RandomVec(v, rand.NewChaCha8([32]byte{})))
	assert.NotEqual(t, v[0], v[1], "RandomVec produced repeated elements")
	err = RandomVec(v, bytes.NewReader(make([]byte, 100)))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "RandomVec from a short reader wraps the reader's error")
	assert.Regexp(t, "^gf64: ", err.Error())
}

func TestImplementations(t *testing.T) {
	impls := Implementations()
	require.NotEmpty(t, impls)
	require.Equal(t, "generic", impls[0].Name, "generic comes first")
	require.True(t, impls[0].Available, "generic is available")
	active := 0
	for i, im := range impls {
		if im.Active {
			active++
			assert.True(t, im.Available, "%s is active but not available", im.Name)
			for _, faster := range impls[i+1:] {
				assert.False(t, faster.Available, "%s is active although %s is available", im.Name, faster.Name)
			}
		}
	}
	assert.Equal(t, 1, active, "active implementations")
	t.Logf("implementations: %+v", impls)
	assert.Equal(t, availableNames(), cpufeat.Available("gf64"), "cpufeat registry against Implementations")
}

func availableNames() []string {
	var names []string
	for _, im := range Implementations() {
		if im.Available {
			names = append(names, im.Name)
		}
	}
	return names
}

// TestByteTable recomputes every entry of the constant-multiplier table with
// the reference multiplication.
func TestByteTable(t *testing.T) {
	rng := newRand(t)
	for _, c := range append([]Element{0, 1, 0xffffffffffffffff, 0x8000000000000000}, randElem(rng), randElem(rng)) {
		var tab byteTable
		tab.init(c)
		for k := range tab {
			want := make([]Element, len(tab[k]))
			for j := range want {
				want[j] = refMul(Element(j)<<(8*k), c)
			}
			testutil.RequireEqualSlices(t, want, tab[k][:], "c=%v: table[%d]", c, k)
		}
		for range 1000 {
			a := randElem(rng)
			require.Equal(t, refMul(a, c), tab.mul(a), "table product %v·%v", a, c)
		}
	}
}
