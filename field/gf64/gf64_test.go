package gf64

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
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

const (
	kaA = 0x123456789abcdef0
	kaB = 0xfedcba9876543210
	kaC = 9810998698458937964 // checked against PARI/GP (see shared/baselines/clmul.c)
)

func TestKnownAnswer(t *testing.T) {
	if got := refMul(kaA, kaB); got != kaC {
		t.Fatalf("refMul(%v, %v) = %d, want %d", Element(kaA), Element(kaB), uint64(got), uint64(kaC))
	}
	forEachPath(t, func(t *testing.T) {
		if got := Mul(kaA, kaB); got != kaC {
			t.Errorf("Mul = %d, want %d", uint64(got), uint64(kaC))
		}
		dst := make([]Element, 1)
		MulVec(dst, []Element{kaA}, []Element{kaB})
		if dst[0] != kaC {
			t.Errorf("MulVec = %d, want %d", uint64(dst[0]), uint64(kaC))
		}
		ScaleVec(dst, []Element{kaA}, kaB)
		if dst[0] != kaC {
			t.Errorf("ScaleVec = %d, want %d", uint64(dst[0]), uint64(kaC))
		}
	})
}

func TestMulReference(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		for _, a := range edgeValues {
			for _, b := range edgeValues {
				if got, want := Mul(a, b), refMul(a, b); got != want {
					t.Fatalf("Mul(%v, %v) = %v, want %v", a, b, got, want)
				}
			}
		}
		rng := newRand(t)
		for range iters(200000, 20000) {
			a, b := randElem(rng), randElem(rng)
			if got, want := Mul(a, b), refMul(a, b); got != want {
				t.Fatalf("Mul(%v, %v) = %v, want %v", a, b, got, want)
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
		if h, l := clmulGeneric(a, b); h != wh || l != wl {
			t.Fatalf("clmulGeneric(%#x, %#x) = %#x:%#x, want %#x:%#x", a, b, h, l, wh, wl)
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

func checkGuards(t *testing.T, what string, all []Element, off, n int) {
	t.Helper()
	for i, v := range all {
		if (i < off || i >= off+n) && v != guard {
			t.Fatalf("%s: n=%d: element %d outside the slice was written", what, n, i-off)
		}
	}
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
			for i := range dst {
				if want := refMul(a[i], b[i]); dst[i] != want {
					t.Fatalf("MulVec n=%d [%d]: %v·%v = %v, want %v", n, i, a[i], b[i], dst[i], want)
				}
			}

			dst, all = guarded(rng, n, off)
			ScaleVec(dst, a, c)
			checkGuards(t, "ScaleVec", all, off, n)
			for i := range dst {
				if want := refMul(a[i], c); dst[i] != want {
					t.Fatalf("ScaleVec n=%d [%d]: %v·%v = %v, want %v", n, i, a[i], c, dst[i], want)
				}
			}

			dst, all = guarded(rng, n, off)
			old := slices.Clone(dst)
			MulAddVec(dst, a, c)
			checkGuards(t, "MulAddVec", all, off, n)
			for i := range dst {
				if want := old[i] ^ refMul(a[i], c); dst[i] != want {
					t.Fatalf("MulAddVec n=%d [%d] = %v, want %v", n, i, dst[i], want)
				}
			}

			dst, all = guarded(rng, n, off)
			AddVec(dst, a, b)
			checkGuards(t, "AddVec", all, off, n)
			for i := range dst {
				if want := a[i] ^ b[i]; dst[i] != want {
					t.Fatalf("AddVec n=%d [%d] = %v, want %v", n, i, dst[i], want)
				}
			}

			u, allU := guarded(rng, n, off)
			v, allV := guarded(rng, n, 2)
			u0, v0 := slices.Clone(u), slices.Clone(v)
			Butterfly(u, v, c)
			checkGuards(t, "Butterfly u", allU, off, n)
			checkGuards(t, "Butterfly v", allV, 2, n)
			for i := range u {
				wu := u0[i] ^ refMul(v0[i], c)
				wv := v0[i] ^ wu
				if u[i] != wu || v[i] != wv {
					t.Fatalf("Butterfly n=%d [%d] = (%v, %v), want (%v, %v)", n, i, u[i], v[i], wu, wv)
				}
			}
			InvButterfly(u, v, c)
			checkGuards(t, "InvButterfly u", allU, off, n)
			checkGuards(t, "InvButterfly v", allV, 2, n)
			if !slices.Equal(u, u0) || !slices.Equal(v, v0) {
				t.Fatalf("InvButterfly did not undo Butterfly at n=%d", n)
			}
			// InvButterfly against the reference on fresh data.
			u, _ = guarded(rng, n, off)
			v, _ = guarded(rng, n, 0)
			u0, v0 = slices.Clone(u), slices.Clone(v)
			InvButterfly(u, v, c)
			for i := range u {
				wv := v0[i] ^ u0[i]
				wu := u0[i] ^ refMul(wv, c)
				if u[i] != wu || v[i] != wv {
					t.Fatalf("InvButterfly n=%d [%d] = (%v, %v), want (%v, %v)", n, i, u[i], v[i], wu, wv)
				}
			}
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
				for i := range dst {
					if want := refMul(a[i], c); dst[i] != want {
						t.Fatalf("ScaleVec n=%d c=%v [%d] = %v, want %v", n, c, i, dst[i], want)
					}
				}
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
			for i := range x {
				p := refMul(x[i], y[i])
				if z[i] != p || w[i] != p {
					t.Fatalf("MulVec aliased n=%d [%d]: %v, %v, want %v", n, i, z[i], w[i], p)
				}
				if s[i] != refMul(x[i], x[i]) {
					t.Fatalf("MulVec(x, x, x) n=%d [%d] wrong", n, i)
				}
				if sc[i] != refMul(x[i], c) {
					t.Fatalf("ScaleVec(x, x, c) n=%d [%d] wrong", n, i)
				}
				if ma[i] != refMul(x[i], c^1) {
					t.Fatalf("MulAddVec(x, x, c) n=%d [%d] = %v, want x·(c+1) = %v", n, i, ma[i], refMul(x[i], c^1))
				}
				if ad[i] != 0 {
					t.Fatalf("AddVec(x, x, x) n=%d [%d] = %v, want 0", n, i, ad[i])
				}
			}
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
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.HasPrefix(msg, "gf64: ") || !strings.Contains(msg, "3") || !strings.Contains(msg, "4") {
					t.Fatalf("panic %v: want a gf64 message naming lengths 3 and 4", r)
				}
			}()
			f()
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
			if n := testing.AllocsPerRun(10, f); n != 0 {
				t.Errorf("%s allocates %v times per call", name, n)
			}
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
			if z := BatchInverse(dst, a); z != wantZeros {
				t.Fatalf("n=%d: BatchInverse returned %d zeros, want %d", n, z, wantZeros)
			}
			if !slices.Equal(a, orig) {
				t.Fatalf("n=%d: BatchInverse modified its input", n)
			}
			for i, v := range a {
				if v == 0 {
					if dst[i] != 0 {
						t.Fatalf("n=%d: inverse of zero at %d is %v, want 0", n, i, dst[i])
					}
					continue
				}
				if p := refMul(v, dst[i]); p != 1 {
					t.Fatalf("n=%d: a[%d]·dst[%d] = %v, want 1", n, i, i, p)
				}
			}
			// In place.
			BatchInverse(a, a)
			if !slices.Equal(a, dst) {
				t.Fatalf("n=%d: in-place BatchInverse differs", n)
			}
		}
		// All zeros.
		z := make([]Element, 10)
		if BatchInverse(z, z) != 10 || slices.ContainsFunc(z, func(e Element) bool { return e != 0 }) {
			t.Fatal("BatchInverse of all zeros")
		}
	})
}

// ---------------------------------------------------------------------------
// Field laws.

func TestFieldLaws(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for range iters(20000, 2000) {
			a, b, c := randElem(rng), randElem(rng), randElem(rng)
			if Mul(Mul(a, b), c) != Mul(a, Mul(b, c)) {
				t.Fatalf("associativity fails for %v, %v, %v", a, b, c)
			}
			if Mul(a, b) != Mul(b, a) {
				t.Fatalf("commutativity fails for %v, %v", a, b)
			}
			if Mul(a, Add(b, c)) != Add(Mul(a, b), Mul(a, c)) {
				t.Fatalf("distributivity fails for %v, %v, %v", a, b, c)
			}
			if Mul(a, One) != a || Mul(a, Zero) != 0 {
				t.Fatalf("identities fail for %v", a)
			}
			if Square(a) != refMul(a, a) {
				t.Fatalf("Square(%v) = %v, want %v", a, Square(a), refMul(a, a))
			}
			if a != 0 {
				if inv := Inverse(a); refMul(a, inv) != One {
					t.Fatalf("a·a⁻¹ = %v for a = %v", refMul(a, inv), a)
				}
				if d := Div(b, a); refMul(d, a) != b {
					t.Fatalf("Div(%v, %v)·%v != %v", b, a, a, b)
				}
			}
			if s := Sqrt(a); refMul(s, s) != a {
				t.Fatalf("Sqrt(%v)² = %v", a, refMul(s, s))
			}
		}
		if Inverse(0) != 0 || Div(5, 0) != 0 {
			t.Fatal("Inverse(0) and Div(x, 0) must be 0")
		}
		for _, n := range []int{-1, 0, 1, 2, 7, 63, 64, 130} {
			a := randElem(rng)
			want := a
			for range n {
				want = refMul(want, want)
			}
			if got := SquareN(a, n); got != want {
				t.Fatalf("SquareN(%v, %d) = %v, want %v", a, n, got, want)
			}
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
		if got := Exp(a, e); got != want {
			t.Fatalf("Exp(%v, %d) = %v, want %v", a, e, got, want)
		}
	}
	if Exp(0, 0) != 1 || Exp(7, 0) != 1 || Exp(0, 5) != 0 {
		t.Fatal("Exp edge cases")
	}
	// The multiplicative group has order 2^64-1.
	for _, a := range edgeValues[1:] {
		if Exp(a, 1<<64-1) != One {
			t.Fatalf("%v^(2^64-1) != 1", a)
		}
	}
	if SquareN(kaA, 64) != kaA {
		t.Fatal("Frobenius: a^(2^64) != a")
	}
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
		if tr > 1 {
			t.Fatalf("Tr(x^%d) = %v is not in GF(2)", i, tr)
		}
		mask |= uint64(tr) << i
	}
	if mask != traceMask {
		t.Fatalf("traceMask = %#x, recomputed %#x", uint64(traceMask), mask)
	}
}

func TestTrace(t *testing.T) {
	rng := newRand(t)
	seen := [2]bool{}
	for range iters(2000, 300) {
		a, b := randElem(rng), randElem(rng)
		ta := Trace(a)
		if ta != slowTrace(a) {
			t.Fatalf("Trace(%v) = %v, want %v", a, ta, slowTrace(a))
		}
		if Trace(a^b) != ta^Trace(b) {
			t.Fatalf("Trace not linear at %v, %v", a, b)
		}
		seen[ta] = true
	}
	if !seen[0] || !seen[1] {
		t.Fatal("Trace is not onto GF(2) on the sample")
	}
}

// ---------------------------------------------------------------------------
// Encodings.

func TestText(t *testing.T) {
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		s := a.String()
		if len(s) != 18 || !strings.HasPrefix(s, "0x") {
			t.Fatalf("String() = %q", s)
		}
		txt, err := a.MarshalText()
		if err != nil || string(txt) != s {
			t.Fatalf("MarshalText = %q, %v", txt, err)
		}
		var b Element
		if err := b.UnmarshalText(txt); err != nil || b != a {
			t.Fatalf("UnmarshalText(%q) = %v, %v", txt, b, err)
		}
	}
	good := map[string]Element{"0x1": 1, "0X1b": 0x1b, "ff": 0xff, "0xFFFFFFFFFFFFFFFF": 0xffffffffffffffff, "0": 0}
	for s, want := range good {
		var e Element
		if err := e.UnmarshalText([]byte(s)); err != nil || e != want {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", s, e, err, want)
		}
	}
	for _, s := range []string{"", "0x", "0xg", "-1", "+1", "0x 1", "12345678901234567", "0x0x1", "x1"} {
		e := Element(42)
		err := e.UnmarshalText([]byte(s))
		if !errors.Is(err, ErrSyntax) || !strings.HasPrefix(err.Error(), "gf64: ") {
			t.Errorf("UnmarshalText(%q) error = %v, want ErrSyntax", s, err)
		}
		if e != 42 {
			t.Errorf("UnmarshalText(%q) changed the element on error", s)
		}
	}
}

func TestBytes(t *testing.T) {
	a := Element(0x0807060504030201)
	if b := a.Bytes(); b != [8]byte{1, 2, 3, 4, 5, 6, 7, 8} {
		t.Fatalf("Bytes = %v", b)
	}
	rng := newRand(t)
	for range 1000 {
		a := randElem(rng)
		b := a.Bytes()
		var c Element
		if err := c.SetBytes(b[:]); err != nil || c != a {
			t.Fatalf("SetBytes(Bytes(%v)) = %v, %v", a, c, err)
		}
	}
	for _, n := range []int{0, 7, 9} {
		c := Element(42)
		if err := c.SetBytes(make([]byte, n)); err == nil || !strings.HasPrefix(err.Error(), "gf64: ") || c != 42 {
			t.Errorf("SetBytes(%d bytes): err = %v, element %v", n, err, c)
		}
	}
}

func TestRandom(t *testing.T) {
	src := bytes.NewReader([]byte{1, 0, 0, 0, 0, 0, 0, 0x80, 2, 0, 0, 0, 0, 0, 0, 0, 3})
	a, err := Random(src)
	if err != nil || a != 0x8000000000000001 {
		t.Fatalf("Random = %v, %v", a, err)
	}
	if _, err := Random(bytes.NewReader([]byte{1, 2, 3})); err == nil {
		t.Fatal("Random from a short reader: no error")
	}
	v := make([]Element, 100)
	if err := RandomVec(v, rand.NewChaCha8([32]byte{})); err != nil {
		t.Fatal(err)
	}
	if v[0] == v[1] {
		t.Fatal("RandomVec produced repeated elements")
	}
	if err := RandomVec(v, bytes.NewReader(make([]byte, 100))); err == nil || !strings.HasPrefix(err.Error(), "gf64: ") {
		t.Fatalf("RandomVec from a short reader: %v", err)
	}
}

func TestImplementations(t *testing.T) {
	impls := Implementations()
	if len(impls) == 0 || impls[0].Name != "generic" || !impls[0].Available {
		t.Fatalf("Implementations() = %v: generic must come first and be available", impls)
	}
	active := 0
	for i, im := range impls {
		if im.Active {
			active++
			if !im.Available {
				t.Fatalf("%s is active but not available", im.Name)
			}
			for _, faster := range impls[i+1:] {
				if faster.Available {
					t.Fatalf("%s is active although %s is available", im.Name, faster.Name)
				}
			}
		}
	}
	if active != 1 {
		t.Fatalf("%d active implementations, want 1", active)
	}
	t.Logf("implementations: %+v", impls)
	if !slices.Equal(cpufeat.Available("gf64"), availableNames()) {
		t.Fatal("cpufeat registry disagrees with Implementations")
	}
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
			for j := range tab[k] {
				if want := refMul(Element(j)<<(8*k), c); tab[k][j] != want {
					t.Fatalf("c=%v: table[%d][%d] = %v, want %v", c, k, j, tab[k][j], want)
				}
			}
		}
		for range 1000 {
			a := randElem(rng)
			if got, want := tab.mul(a), refMul(a, c); got != want {
				t.Fatalf("table product %v·%v = %v, want %v", a, c, got, want)
			}
		}
	}
}
