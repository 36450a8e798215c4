package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// mulMethods lists every exported multiplication with its name.
var mulMethods = []struct {
	name string
	mul  func(a, b Poly) Poly
}{
	{"Schoolbook", Poly.MulSchoolbook},
	{"Karatsuba", Poly.MulKaratsuba},
	{"FFT", Poly.MulFFT},
	{"Mul", Poly.Mul},
}

// mulLengths returns the factor lengths tried: edge cases, values around
// each threshold and the Karatsuba split points, and unequal pairs.
func mulLengths(short bool) [][2]int {
	ls := []int{0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 511, 512, 513}
	if !short {
		ls = append(ls, 1000, 1023, 1024, 1025, 2047, 3000)
	}
	var out [][2]int
	for i, a := range ls {
		out = append(out, [2]int{a, a})
		if i+1 < len(ls) {
			out = append(out, [2]int{a, ls[i+1]})
		}
		out = append(out, [2]int{a, 1}, [2]int{a, 5}, [2]int{a, 40})
		if a > 3 {
			out = append(out, [2]int{a, a/3 + 1}, [2]int{a / 2, a + 3})
		}
	}
	return out
}

func TestMulAgainstNaive(t *testing.T) {
	r := newRand(10)
	for _, ln := range mulLengths(testing.Short()) {
		a, b := randPoly(r, ln[0]), randPoly(r, ln[1])
		want := naiveMul(a, b)
		for _, m := range mulMethods {
			ac, bc := a.Clone(), b.Clone()
			got := m.mul(a, b)
			requirePoly(t, want, got, "%s(len %d, len %d) against the naive product", m.name, ln[0], ln[1])
			require.True(t, isNormalized(got), "%s(len %d, len %d) not normalized", m.name, ln[0], ln[1])
			requirePoly(t, ac, a, "%s modified its first input", m.name)
			requirePoly(t, bc, b, "%s modified its second input", m.name)
			requirePoly(t, want, m.mul(b, a), "%s(len %d, len %d): the product commutes", m.name, ln[1], ln[0])
		}
	}
}

// TestMulUnnormalized feeds factors with trailing zeros and zero factors.
func TestMulUnnormalized(t *testing.T) {
	r := newRand(11)
	for _, n := range []int{1, 5, 40, 300, 700} {
		a := append(randPoly(r, n), 0, 0, 0)
		b := append(randPoly(r, n+3), make(Poly, 50)...)
		want := naiveMul(a.Normalize(), b.Normalize())
		for _, m := range mulMethods {
			got := m.mul(a, b)
			requirePoly(t, want, got, "%s with trailing zeros, n=%d", m.name, n)
			require.True(t, isNormalized(got), "%s with trailing zeros, n=%d: not normalized", m.name, n)
			require.Empty(t, m.mul(a, Poly{0, 0}), "%s by zero", m.name)
			require.Empty(t, m.mul(nil, b), "%s of nil", m.name)
		}
	}
}

// TestMulKnown checks (x + 1)² = x² + 1 and (x + a)(x + b) = x² + (a+b)x + ab.
func TestMulKnown(t *testing.T) {
	for _, m := range mulMethods {
		assertPoly(t, Poly{1, 0, 1}, m.mul(Poly{1, 1}, Poly{1, 1}), "%s: (x+1)²", m.name)
		a, b := gf64.Element(0x1234), gf64.Element(0xabcdef)
		want := Poly{gf64.Mul(a, b), a ^ b, 1}
		assertPoly(t, want, m.mul(Poly{a, 1}, Poly{b, 1}), "%s: (x+a)(x+b)", m.name)
	}
}

// TestKaratsubaSplits runs the core recursion on every length across
// several recursion levels (odd and even splits), with the leaf size
// lowered so that small inputs recurse deeply, and at the real leaf size.
func TestKaratsubaSplits(t *testing.T) {
	r := newRand(12)
	saved := karatsubaLeaf
	defer func() { karatsubaLeaf = saved }()
	check := func(n int) {
		a, b := randPoly(r, n), randPoly(r, n)
		a[n-1], b[n-1] = 1, 1
		out := make([]gf64.Element, 2*n-1)
		for i := range out {
			out[i] = 0xdead // karatsuba must overwrite, not accumulate
		}
		karatsuba(out, a, b, make([]gf64.Element, karatsubaScratch(n)))
		requirePoly(t, naiveMul(a, b), out, "karatsuba n=%d leaf=%d", n, karatsubaLeaf)
	}
	for _, leaf := range []int{2, 3, 5} {
		karatsubaLeaf = leaf
		for n := 1; n <= 70; n++ {
			check(n)
		}
		// unbalanced inputs through the exported method
		a, b := randPoly(r, 100), randPoly(r, 13)
		requirePoly(t, naiveMul(a, b), a.MulKaratsuba(b), "unbalanced, leaf=%d", leaf)
	}
	karatsubaLeaf = saved
	for _, n := range []int{saved - 1, saved, saved + 1, 2*saved - 1, 2 * saved, 2*saved + 1, 4*saved + 3} {
		check(n)
	}
}

// TestChooseMul checks the cost model's choices at a few clear-cut sizes and
// that the FFT plan always fits the product.
func TestChooseMul(t *testing.T) {
	assert.Equal(t, methodSchoolbook, chooseMul(10, 10), "10x10")
	assert.Equal(t, methodFFT, chooseMul(1<<16, 1<<16), "2^16 x 2^16")
	assert.Equal(t, methodSchoolbook, chooseMul(1<<16, 2), "2^16 x 2")
	for _, ln := range [][2]int{{2, 2}, {3, 2}, {100, 99}, {1000, 3}, {1 << 20, 1000}, {1 << 20, 1 << 20}} {
		m, _ := fftPlanFor(ln[0], ln[1])
		assert.GreaterOrEqual(t, 1<<m, ln[1]+1, "fftPlanFor(%d, %d) = %d", ln[0], ln[1], m)
		assert.LessOrEqual(t, 1<<m, 2*(ln[0]+ln[1]), "fftPlanFor(%d, %d) = %d", ln[0], ln[1], m)
	}
}

func ExamplePoly_Mul() {
	a := New(1, 1) // x + 1
	b := New(1, 0, 1)
	fmt.Println(a.Mul(b)) // (x + 1)(x² + 1) = x³ + x² + x + 1
	// Output: 0x0000000000000001*x^3 + 0x0000000000000001*x^2 + 0x0000000000000001*x + 0x0000000000000001
}
