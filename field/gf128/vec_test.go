package gf128

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// Vector operations: every length 0..40 (all tail cases of every unrolling),
// the lengths around 64, longer ones, unaligned starts, and guard elements
// that must stay untouched.

var vecLengths = func() []int {
	var ns []int
	for n := 0; n <= 40; n++ {
		ns = append(ns, n)
	}
	// parallelElems+13: a batch spread over the cores, not a multiple of
	// the parts' block size.
	return append(ns, 63, 64, 65, 127, 128, 129, 1000, 1003, parallelElems+13)
}()

var guard = Element{0x5a5a5a5a5a5a5a5a, 0xa5a5a5a5a5a5a5a5}

const guard64 = gf64.Element(0x5a5a5a5a5a5a5a5a)

// guarded returns a slice of n random elements at offset off inside a larger
// slice whose other elements are guard, and the larger slice.
func guarded(rng *rand.Rand, n, off int) (s, all []Element) {
	all = make([]Element, n+off+5)
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

// base64Col returns n random GF(2^64) elements at an odd or even offset of a
// larger slice, so that columns start at every alignment.
func base64Col(rng *rand.Rand, n, off int) []gf64.Element {
	all := make([]gf64.Element, n+off+3)
	for i := range all {
		all[i] = guard64
	}
	s := all[off : off+n]
	for i := range s {
		s[i] = rand64(rng)
	}
	return s
}

func mapRef(n int, f func(i int) Element) []Element {
	out := make([]Element, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// refCombine is Σ_j coeffs[j]·Embed(cols[j][i]) with the reference product.
func refCombine(n int, cols [][]gf64.Element, coeffs []Element) []Element {
	return mapRef(n, func(i int) Element {
		var s Element
		for j := range cols {
			s = Add(s, refMul(Embed(cols[j][i]), coeffs[j]))
		}
		return s
	})
}

func TestVectorOps(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range vecLengths {
			off := n % 3 // unaligned starts too
			a, _ := guarded(rng, n, 0)
			b, _ := guarded(rng, n, 1)
			bb := base64Col(rng, n, n%2)
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
			MulByBaseVec(dst, a, bb)
			checkGuards(t, "MulByBaseVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(a[i], Embed(bb[i])) }), dst, "MulByBaseVec n=%d", n)

			dst, all = guarded(rng, n, off)
			ScaleBaseVec(dst, bb, c)
			checkGuards(t, "ScaleBaseVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(Embed(bb[i]), c) }), dst, "ScaleBaseVec n=%d c=%v", n, c)

			dst, all = guarded(rng, n, off)
			old := slices.Clone(dst)
			MulAddBaseVec(dst, bb, c)
			checkGuards(t, "MulAddBaseVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return Add(old[i], refMul(Embed(bb[i]), c)) }), dst, "MulAddBaseVec n=%d c=%v", n, c)

			dst, all = guarded(rng, n, off)
			AddVec(dst, a, b)
			checkGuards(t, "AddVec", all, off, n)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return Add(a[i], b[i]) }), dst, "AddVec n=%d", n)
		}
	})
}

// TestVectorConstants runs the by-constant operations with every edge value
// as the constant (the kernels precompute from it).
func TestVectorConstants(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{1, 7, 8, 9, 31, 64, 65} {
			a := randVec(rng, n)
			bb := randVec64(rng, n)
			dst := make([]Element, n)
			for _, c := range edgeElems {
				ScaleVec(dst, a, c)
				testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(a[i], c) }), dst, "ScaleVec n=%d c=%v", n, c)
				ScaleBaseVec(dst, bb, c)
				testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(Embed(bb[i]), c) }), dst, "ScaleBaseVec n=%d c=%v", n, c)
			}
		}
	})
}

func TestCombineBase(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, m := range []int{1, 2, 3, 4, 5, 8, 17, 32, 33} {
			for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000} {
				cols := make([][]gf64.Element, m)
				for j := range cols {
					cols[j] = base64Col(rng, n, (j+n)%2)
				}
				coeffs := randVec(rng, m)
				off := (m + n) % 3
				dst, all := guarded(rng, n, off)
				CombineBase(dst, cols, coeffs)
				checkGuards(t, "CombineBase", all, off, n)
				testutil.RequireEqualSlices(t, refCombine(n, cols, coeffs), dst, "CombineBase m=%d n=%d", m, n)
			}
		}
		// Columns of all ones and coefficients with all bits set: the largest
		// unreduced sums.
		n, m := 37, 40
		cols := make([][]gf64.Element, m)
		coeffs := make([]Element, m)
		for j := range cols {
			cols[j] = slices.Repeat([]gf64.Element{^gf64.Element(0)}, n)
			coeffs[j] = Element{^gf64.Element(0), 0xf000000000000000 | gf64.Element(j)}
		}
		dst := make([]Element, n)
		CombineBase(dst, cols, coeffs)
		testutil.RequireEqualSlices(t, refCombine(n, cols, coeffs), dst, "CombineBase of all-ones columns")
		// No columns: zero.
		dst = randVec(rng, 9)
		CombineBase(dst, nil, nil)
		testutil.RequireEqualSlices(t, make([]Element, 9), dst, "CombineBase with no columns")
		// The same column twice cancels.
		col := randVec64(rng, 20)
		c := randElem(rng)
		dst = randVec(rng, 20)
		CombineBase(dst, [][]gf64.Element{col, col}, []Element{c, c})
		testutil.RequireEqualSlices(t, make([]Element, 20), dst, "a column added twice")
	})
}

func TestVectorAliasing(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{0, 1, 5, 17, 100} {
			x, y := randVec(rng, n), randVec(rng, n)
			bb := randVec64(rng, n)
			c := randElem(rng)

			z := slices.Clone(x)
			MulVec(z, z, y)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], y[i]) }), z, "MulVec(a, a, b)")
			w := slices.Clone(y)
			MulVec(w, x, w)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], y[i]) }), w, "MulVec(b, a, b)")
			s := slices.Clone(x)
			MulVec(s, s, s)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], x[i]) }), s, "MulVec(a, a, a)")

			z = slices.Clone(x)
			ScaleVec(z, z, c)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], c) }), z, "ScaleVec(a, a, c)")

			z = slices.Clone(x)
			MulByBaseVec(z, z, bb)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return refMul(x[i], Embed(bb[i])) }), z, "MulByBaseVec(a, a, b)")

			z = slices.Clone(x)
			AddVec(z, z, y)
			testutil.RequireEqualSlices(t, mapRef(n, func(i int) Element { return Add(x[i], y[i]) }), z, "AddVec(a, a, b)")
			z = slices.Clone(x)
			AddVec(z, z, z)
			testutil.RequireEqualSlices(t, make([]Element, n), z, "AddVec(a, a, a)")

			z = slices.Clone(x)
			zeros := BatchInverse(z, z)
			want := make([]Element, n)
			wantZeros := 0
			for i := range x {
				want[i] = Inverse(x[i])
				if x[i].IsZero() {
					wantZeros++
				}
			}
			assert.Equal(t, wantZeros, zeros)
			testutil.RequireEqualSlices(t, want, z, "BatchInverse(a, a)")
		}
	})
}

func TestBatchInverse(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 127, 129, 255, 256, 257, 1000, 1023, 1024, 1025, 2100} {
			a := randVec(rng, n)
			wantZeros := 0
			for i := range a {
				if rng.IntN(10) == 0 {
					a[i] = Zero
				}
				if a[i].IsZero() {
					wantZeros++
				}
			}
			if n > 3 {
				a[0], a[n-1] = Zero, Zero // zeros at both ends of a block
				wantZeros = 0
				for i := range a {
					if a[i].IsZero() {
						wantZeros++
					}
				}
			}
			dst := randVec(rng, n)
			zeros := BatchInverse(dst, a)
			require.Equal(t, wantZeros, zeros, "n=%d: zeros counted", n)
			for i := range a {
				if a[i].IsZero() {
					require.Equal(t, Zero, dst[i], "n=%d i=%d: zero maps to zero", n, i)
					continue
				}
				require.Equal(t, One, refMul(a[i], dst[i]), "n=%d i=%d: a·a⁻¹ = 1", n, i)
			}
			// In place, the same result.
			b := slices.Clone(a)
			require.Equal(t, wantZeros, BatchInverse(b, b), "n=%d: in place: zeros counted", n)
			testutil.RequireEqualSlices(t, dst, b, "n=%d: BatchInverse(a, a)", n)
		}
		// All zeros.
		dst := randVec(rng, 300)
		assert.Equal(t, 300, BatchInverse(dst, make([]Element, 300)))
		testutil.RequireEqualSlices(t, make([]Element, 300), dst, "all zeros")
	})
}

func TestLengthMismatchPanics(t *testing.T) {
	a, b := make([]Element, 3), make([]Element, 4)
	b64 := make([]gf64.Element, 4)
	cases := []struct {
		name, want string
		f          func()
	}{
		{"MulVec", "gf128: MulVec: length mismatch: 3 and 4", func() { MulVec(a, a, b) }},
		{"MulVec dst", "gf128: MulVec: length mismatch: 4 and 3", func() { MulVec(b, a, b) }},
		{"ScaleVec", "gf128: ScaleVec: length mismatch: 3 and 4", func() { ScaleVec(a, b, One) }},
		{"MulByBaseVec", "gf128: MulByBaseVec: length mismatch: 3 and 4", func() { MulByBaseVec(a, a, b64) }},
		{"ScaleBaseVec", "gf128: ScaleBaseVec: length mismatch: 3 and 4", func() { ScaleBaseVec(a, b64, One) }},
		{"MulAddBaseVec", "gf128: MulAddBaseVec: length mismatch: 3 and 4", func() { MulAddBaseVec(a, b64, One) }},
		{"AddVec", "gf128: AddVec: length mismatch: 3 and 4", func() { AddVec(a, b, a) }},
		{"BatchInverse", "gf128: BatchInverse: length mismatch: 3 and 4", func() { BatchInverse(a, b) }},
		{"CombineBase coeffs", "gf128: CombineBase: columns and coefficients: length mismatch: 1 and 2", func() {
			CombineBase(a, [][]gf64.Element{b64[:3]}, []Element{One, One})
		}},
		{"CombineBase column", "gf128: CombineBase: length mismatch: 3 and 4 (column 1)", func() {
			CombineBase(a, [][]gf64.Element{b64[:3], b64}, []Element{One, One})
		}},
	}
	forEachPath(t, func(t *testing.T) {
		for _, tc := range cases {
			assert.Equal(t, tc.want, testutil.PanicMessage(t, tc.f, tc.name), tc.name)
		}
	})
}

func TestVectorNoAllocs(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		rng := newRand(t)
		n := 100
		a, b := randVec(rng, n), randVec(rng, n)
		bb := randVec64(rng, n)
		dst := make([]Element, n)
		cols := [][]gf64.Element{bb, bb, bb}
		coeffs := randVec(rng, 3)
		allocs := testing.AllocsPerRun(10, func() {
			MulVec(dst, a, b)
			ScaleVec(dst, a, b[0])
			MulByBaseVec(dst, a, bb)
			ScaleBaseVec(dst, bb, b[1])
			MulAddBaseVec(dst, bb, b[2])
			CombineBase(dst, cols, coeffs)
			AddVec(dst, a, b)
			BatchInverse(dst, a)
		})
		assert.Zero(t, allocs, "vector functions allocate")
	})
}

func TestImplementations(t *testing.T) {
	impls := Implementations()
	require.Len(t, impls, numImpls)
	assert.Equal(t, "generic", impls[0].Name)
	assert.True(t, impls[0].Available, "generic is always available")
	active := 0
	for i, im := range impls {
		assert.Equal(t, implNames[i], im.Name)
		if im.Active {
			active++
			assert.True(t, im.Available, "%s is active but not available", im.Name)
			assert.Equal(t, im.Name, cpufeat.Active("gf128"))
		}
	}
	assert.Equal(t, 1, active, "exactly one implementation is active")
	// The default is the fastest available.
	for i := len(impls) - 1; i >= 0; i-- {
		if impls[i].Available {
			assert.True(t, impls[i].Active, "the fastest available (%s) is active", impls[i].Name)
			break
		}
	}
	names := cpufeat.Available("gf128")
	forEachPath(t, func(t *testing.T) {
		for _, im := range Implementations() {
			if im.Active {
				assert.Equal(t, t.Name()[len(t.Name())-len(im.Name):], im.Name, "Select made %s active", im.Name)
			}
		}
	})
	t.Logf("gf128 implementations available here: %v", names)
}
