package gf2n

import (
	"flag"
	"fmt"
	"math/bits"
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
// Paths, fields and the reference.

var (
	ranMu    sync.Mutex
	ranPaths = map[string]bool{}
)

// skipPaths switches implementations off for this test run, e.g.
// go test ./field/gf2n -args -gf2n.skip=avx512,pclmulqdq.
var skipPaths = flag.String("gf2n.skip", "", "comma-separated implementations not to test (generic, pclmulqdq, avx512)")

func TestMain(m *testing.M) {
	code := m.Run()
	var ran []string
	for _, name := range implNames {
		if ranPaths[name] {
			ran = append(ran, name)
		}
	}
	if len(ran) > 0 {
		fmt.Printf("gf2n: ran paths: %s (active by default: %s)\n", strings.Join(ran, ", "), cpufeat.Active("gf2n"))
	}
	os.Exit(code)
}

// forEachPath runs f as a subtest once per implementation this machine and
// build support, with that implementation active.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	cpufeat.Each("gf2n", func(name string) {
		if slices.Contains(strings.Split(*skipPaths, ","), name) {
			return
		}
		ranMu.Lock()
		ranPaths[name] = true
		ranMu.Unlock()
		t.Run(name, f)
	})
}

// forEachField runs f as a subtest for every supported field.
func forEachField(t *testing.T, f func(t *testing.T, fd *Field)) {
	t.Helper()
	for _, n := range Sizes() {
		fd, err := New(n)
		require.NoError(t, err)
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) { f(t, fd) })
	}
}

// refMul is the bit-by-bit shift-and-add product: for each set bit i of y
// add x·x^i, keeping x·x^i reduced by replacing x^n with the lower terms of
// the polynomial Poly returns.
func refMul(fd *Field, x, y []uint64) []uint64 {
	w := fd.Words()
	poly := fd.Poly()
	a := slices.Clone(x)
	z := make([]uint64, w)
	for i := range fd.N() {
		if y[i/64]>>(i%64)&1 == 1 {
			for j := range z {
				z[j] ^= a[j]
			}
		}
		carry := a[w-1] >> 63
		for j := w - 1; j > 0; j-- {
			a[j] = a[j]<<1 | a[j-1]>>63
		}
		a[0] <<= 1
		if carry == 1 {
			for _, e := range poly[1:] {
				a[e/64] ^= 1 << (e % 64)
			}
		}
	}
	return z
}

// edgeElems returns the operands most likely to break a multiplication: 0,
// 1, x, x^(n−1), x^(n−1) + 1, all ones, the top word full, the bottom word
// full, alternating bits, and the lower terms of the polynomial.
func edgeElems(fd *Field) [][]uint64 {
	w := fd.Words()
	mk := func(set func(v []uint64)) []uint64 {
		v := make([]uint64, w)
		set(v)
		return v
	}
	return [][]uint64{
		mk(func(v []uint64) {}),
		mk(func(v []uint64) { v[0] = 1 }),
		mk(func(v []uint64) { v[0] = 2 }),
		mk(func(v []uint64) { v[w-1] = 1 << 63 }),
		mk(func(v []uint64) { v[w-1] = 1 << 63; v[0] = 1 }),
		mk(func(v []uint64) {
			for i := range v {
				v[i] = ^uint64(0)
			}
		}),
		mk(func(v []uint64) { v[w-1] = ^uint64(0) }),
		mk(func(v []uint64) { v[0] = ^uint64(0) }),
		mk(func(v []uint64) {
			for i := range v {
				v[i] = 0xaaaaaaaaaaaaaaaa
			}
		}),
		mk(func(v []uint64) { v[0] = fd.r }),
	}
}

// randElem returns an edge element one time in four, an element with its
// top word all ones one time in eight, else a uniformly random element.
func randElem(rng *rand.Rand, fd *Field) []uint64 {
	w := fd.Words()
	switch rng.IntN(8) {
	case 0, 1:
		edges := edgeElems(fd)
		return edges[rng.IntN(len(edges))]
	case 2:
		v := randUniform(rng, w)
		v[w-1] = ^uint64(0)
		return v
	default:
		return randUniform(rng, w)
	}
}

func randUniform(rng *rand.Rand, w int) []uint64 {
	v := make([]uint64, w)
	for i := range v {
		v[i] = rng.Uint64()
	}
	return v
}

// randVec returns count random elements, one after the other.
func randVec(rng *rand.Rand, fd *Field, count int) []uint64 {
	v := make([]uint64, 0, count*fd.Words())
	for range count {
		v = append(v, randElem(rng, fd)...)
	}
	return v
}

func newRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(18, uint64(len(t.Name()))))
}

func iters(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// itersFor scales an iteration count down for large fields, whose
// references are slow (the bit-by-bit product costs n²/64 word operations).
func itersFor(fd *Field, full, short int) int {
	k := iters(full, short) * 128 / fd.N()
	return max(k, 4)
}

func xorElems(x, y []uint64) []uint64 {
	z := make([]uint64, len(x))
	for i := range z {
		z[i] = x[i] ^ y[i]
	}
	return z
}

// ---------------------------------------------------------------------------
// The generic pieces against simpler ones.

// TestClmul64 checks the five-class carry-less product against shift and XOR.
func TestClmul64(t *testing.T) {
	rng := newRand(t)
	ref := func(a, b uint64) (hi, lo uint64) {
		for i := range 64 {
			if b>>i&1 == 1 {
				lo ^= a << i
				if i > 0 {
					hi ^= a >> (64 - i)
				}
			}
		}
		return hi, lo
	}
	vals := []uint64{0, 1, 2, 1 << 63, ^uint64(0), 0xaaaaaaaaaaaaaaaa, 0x5555555555555555, 0x8000000000000001}
	for range iters(5000, 500) {
		vals = append(vals, rng.Uint64())
	}
	for i, a := range vals {
		b := vals[(i*7+3)%len(vals)]
		wh, wl := ref(a, b)
		gh, gl := clmul.Mul64(a, b)
		require.Equal(t, [2]uint64{wh, wl}, [2]uint64{gh, gl}, "clmul.Mul64(%#x, %#x)", a, b)
	}
}

// TestKaratsuba checks the unreduced product against schoolbook clmul.Mul64 for
// every size the fields use.
func TestKaratsuba(t *testing.T) {
	rng := newRand(t)
	for m := 1; m <= maxWords; m *= 2 {
		for range iters(20, 4) {
			a, b := randUniform(rng, m), randUniform(rng, m)
			want := make([]uint64, 2*m)
			for i := range m {
				for j := range m {
					h, l := clmul.Mul64(a[i], b[j])
					want[i+j] ^= l
					want[i+j+1] ^= h
				}
			}
			got := make([]uint64, 2*m)
			karatsuba(got, a, b, make([]uint64, 4*m))
			testutil.RequireEqualSlices(t, want, got, "m = %d", m)
		}
	}
}

// ---------------------------------------------------------------------------
// Field operations on every path against the reference.

func TestMul(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			edges := edgeElems(fd)
			z := make([]uint64, fd.Words())
			for _, x := range edges {
				for _, y := range edges {
					fd.Mul(z, x, y)
					testutil.RequireEqualSlices(t, refMul(fd, x, y), z, "edge operands %x · %x", x, y)
				}
			}
			for range itersFor(fd, 400, 40) {
				x, y := randElem(rng, fd), randElem(rng, fd)
				fd.Mul(z, x, y)
				testutil.RequireEqualSlices(t, refMul(fd, x, y), z, "%x · %x", x, y)
			}
		})
	})
}

// TestMulAlias checks z = x·y with z the same slice as x, as y, or both.
func TestMulAlias(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			for range 4 {
				x, y := randUniform(rng, fd.Words()), randUniform(rng, fd.Words())
				want := refMul(fd, x, y)
				a := slices.Clone(x)
				fd.Mul(a, a, y)
				testutil.EqualSlices(t, want, a, "z aliases x")
				b := slices.Clone(y)
				fd.Mul(b, x, b)
				testutil.EqualSlices(t, want, b, "z aliases y")
				c := slices.Clone(x)
				fd.Mul(c, c, c)
				testutil.EqualSlices(t, refMul(fd, x, x), c, "z aliases x and y")
				s := slices.Clone(x)
				fd.Square(s, s)
				testutil.EqualSlices(t, refMul(fd, x, x), s, "Square: z aliases x")
			}
		})
	})
}

func TestSquare(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			z := make([]uint64, fd.Words())
			for _, x := range edgeElems(fd) {
				fd.Square(z, x)
				testutil.RequireEqualSlices(t, refMul(fd, x, x), z, "edge operand %x", x)
			}
			for range itersFor(fd, 400, 40) {
				x := randElem(rng, fd)
				fd.Square(z, x)
				testutil.RequireEqualSlices(t, refMul(fd, x, x), z, "%x²", x)
			}
		})
	})
}

// TestIdentities checks distributivity, (x+y)² = x² + y², commutativity and
// associativity on random and edge elements.
func TestIdentities(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			w := fd.Words()
			mul := func(x, y []uint64) []uint64 {
				z := make([]uint64, w)
				fd.Mul(z, x, y)
				return z
			}
			sq := func(x []uint64) []uint64 {
				z := make([]uint64, w)
				fd.Square(z, x)
				return z
			}
			for range iters(200, 20) {
				x, y, u := randElem(rng, fd), randElem(rng, fd), randElem(rng, fd)
				assert.Equal(t, mul(x, xorElems(y, u)), xorElems(mul(x, y), mul(x, u)), "x(y+u) = xy + xu")
				assert.Equal(t, sq(xorElems(x, y)), xorElems(sq(x), sq(y)), "(x+y)² = x² + y²")
				assert.Equal(t, mul(x, y), mul(y, x), "xy = yx")
				assert.Equal(t, mul(mul(x, y), u), mul(x, mul(y, u)), "(xy)u = x(yu)")
				assert.Equal(t, sq(x), mul(x, x), "x² = x·x")
			}
		})
	})
}

// refInverse returns x⁻¹ by the extended Euclidean algorithm on polynomials
// over GF(2), bit by bit: an algorithm unrelated to Inverse's exponentiation.
func refInverse(fd *Field, x []uint64) []uint64 {
	w := fd.Words()
	// Invariants: u ≡ g1·x and v ≡ g2·x (mod f); polynomials of up to n+1
	// bits in w+1 words.
	u := append(slices.Clone(x), 0)
	v := make([]uint64, w+1)
	for _, e := range fd.Poly() {
		v[e/64] |= 1 << (e % 64)
	}
	g1 := make([]uint64, w+1)
	g1[0] = 1
	g2 := make([]uint64, w+1)
	for polyDeg(u) != 0 {
		j := polyDeg(u) - polyDeg(v)
		if j < 0 {
			u, v = v, u
			g1, g2 = g2, g1
			j = -j
		}
		polyXorShifted(u, v, j)
		polyXorShifted(g1, g2, j)
	}
	// g1 can have degree n at most transiently; it is reduced at the end.
	for polyDeg(g1) >= fd.N() {
		f := make([]uint64, w+1)
		for _, e := range fd.Poly() {
			f[e/64] |= 1 << (e % 64)
		}
		polyXorShifted(g1, f, polyDeg(g1)-fd.N())
	}
	return g1[:w]
}

// polyDeg returns the degree of p (−1 for 0).
func polyDeg(p []uint64) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0 {
			return 64*i + 63 - bits.LeadingZeros64(p[i])
		}
	}
	return -1
}

// polyXorShifted sets p ^= q·x^j, dropping bits past p's end.
func polyXorShifted(p, q []uint64, j int) {
	ws, bs := j/64, uint(j%64)
	for i := len(p) - 1; i >= ws; i-- {
		v := q[i-ws] << bs
		if bs != 0 && i-ws-1 >= 0 {
			v |= q[i-ws-1] >> (64 - bs)
		}
		p[i] ^= v
	}
}

func TestInverse(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			w := fd.Words()
			z, p := make([]uint64, w), make([]uint64, w)
			xs := edgeElems(fd)[1:] // not 0
			for range max(itersFor(fd, 64, 4), 2) {
				xs = append(xs, randUniform(rng, w))
			}
			for i, x := range xs {
				require.NoError(t, fd.Inverse(z, x))
				fd.Mul(p, x, z)
				require.Equal(t, fd.One(), p, "x·x⁻¹ for x = %x", x)
				if i < 4 || !testing.Short() {
					assert.Equal(t, refInverse(fd, x), z, "x⁻¹ against extended Euclid, x = %x", x)
				}
			}
			// In place.
			x := slices.Clone(xs[len(xs)-1])
			want := make([]uint64, w)
			require.NoError(t, fd.Inverse(want, x))
			require.NoError(t, fd.Inverse(x, x))
			assert.Equal(t, want, x, "Inverse with z aliasing x")
		})
	})
}

// ---------------------------------------------------------------------------
// Batches.

func TestMulVec(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			rng := newRand(t)
			w := fd.Words()
			counts := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33}
			// A batch past parallelWords, not a multiple of 8 elements, is
			// split over the cores with a tail.
			counts = append(counts, parallelWords/w+13)
			for _, count := range counts {
				x, y := randVec(rng, fd, count), randVec(rng, fd, count)
				want := make([]uint64, len(x))
				for i := range count {
					a, b := i*w, (i+1)*w
					if count < 64 {
						copy(want[a:b], refMul(fd, x[a:b], y[a:b]))
					} else {
						fd.mulGeneric(want[a:b], x[a:b], y[a:b]) // tested against refMul in TestMul
					}
				}
				z := make([]uint64, len(x))
				require.NoError(t, fd.MulVec(z, x, y))
				testutil.RequireEqualSlices(t, want, z, "%d elements", count)

				a := slices.Clone(x)
				require.NoError(t, fd.MulVec(a, a, y))
				testutil.RequireEqualSlices(t, want, a, "%d elements, z aliases x", count)
				b := slices.Clone(y)
				require.NoError(t, fd.MulVec(b, x, b))
				testutil.RequireEqualSlices(t, want, b, "%d elements, z aliases y", count)
			}
		})
	})
}

func TestAdd(t *testing.T) {
	forEachField(t, func(t *testing.T, fd *Field) {
		rng := newRand(t)
		x, y := randVec(rng, fd, 3), randVec(rng, fd, 3)
		want := xorElems(x, y)
		z := make([]uint64, len(x))
		require.NoError(t, fd.AddVec(z, x, y))
		assert.Equal(t, want, z)
		w := fd.Words()
		e := make([]uint64, w)
		fd.Add(e, x[:w], y[:w])
		assert.Equal(t, want[:w], e)
		fd.Add(e, e, e)
		assert.True(t, IsZero(e), "x + x = 0")
	})
}

// ---------------------------------------------------------------------------
// Bad input.

func TestNewErrors(t *testing.T) {
	for _, n := range []int{-128, 0, 1, 64, 127, 192, 384, 4096} {
		f, err := New(n)
		require.ErrorIs(t, err, ErrSize, "n = %d", n)
		assert.Nil(t, f)
		assert.Contains(t, err.Error(), fmt.Sprint(n))
		assert.Contains(t, err.Error(), "[128 256 512 1024 2048]")
	}
	a, err := New(256)
	require.NoError(t, err)
	b, err := New(256)
	require.NoError(t, err)
	assert.Same(t, a, b, "New returns one *Field per size")
	assert.Equal(t, 256, a.N())
	assert.Equal(t, 4, a.Words())
	assert.Equal(t, []int{256, 10, 5, 2, 0}, a.Poly())
	assert.Equal(t, "GF(2^256) mod x^256+x^10+x^5+x^2+1", a.String())
	a.Poly()[0] = 7
	assert.Equal(t, 256, a.Poly()[0], "Poly returns a copy")
}

func TestLengthErrors(t *testing.T) {
	fd, err := New(128)
	require.NoError(t, err)
	two, three := make([]uint64, 2), make([]uint64, 3)
	four := make([]uint64, 4)
	for _, tc := range []struct {
		name    string
		z, x, y []uint64
		want    string
	}{
		{"odd length", three, three, three, "3 words is not a whole number"},
		{"x shorter", four, two, four, "operand 1 has 2 words, the destination 4"},
		{"y longer", two, two, four, "operand 2 has 4 words, the destination 2"},
	} {
		z := slices.Clone(tc.z)
		err := fd.MulVec(z, tc.x, tc.y)
		require.ErrorIs(t, err, ErrLength, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.True(t, IsZero(z), "%s: MulVec wrote to z", tc.name)
		require.ErrorIs(t, fd.AddVec(z, tc.x, tc.y), ErrLength, tc.name)
	}
	require.NoError(t, fd.MulVec(nil, nil, nil), "an empty batch is fine")

	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"Mul short z", func() { fd.Mul(make([]uint64, 1), two, two) }, "gf2n: Mul: operand 0 has 1 words, want 2"},
		{"Mul long y", func() { fd.Mul(two, two, four) }, "gf2n: Mul: operand 2 has 4 words, want 2"},
		{"Square", func() { fd.Square(two, three) }, "gf2n: Square: operand 1 has 3 words, want 2"},
		{"Add", func() { fd.Add(nil, two, two) }, "gf2n: Add: operand 0 has 0 words, want 2"},
	} {
		msg := testutil.PanicMessage(t, tc.f, tc.name)
		assert.True(t, strings.HasPrefix(msg, tc.want), "%s: panic message %q", tc.name, msg)
	}

	z := []uint64{5, 6}
	err = fd.Inverse(z, make([]uint64, 2))
	require.ErrorIs(t, err, ErrZero)
	assert.Equal(t, []uint64{5, 6}, z, "Inverse(0) left z alone")
	require.ErrorIs(t, fd.Inverse(z, three), ErrLength)
	require.ErrorIs(t, fd.Inverse(three, z), ErrLength)
}

// TestAllocs checks that the single-element functions and a small MulVec
// allocate nothing.
func TestAllocs(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			w := fd.Words()
			x, y, z := make([]uint64, 64*w), make([]uint64, 64*w), make([]uint64, 64*w)
			x[0], y[0] = 3, 5
			allocs := testing.AllocsPerRun(10, func() {
				fd.Mul(z[:w], x[:w], y[:w])
				fd.Square(z[:w], x[:w])
				_ = fd.MulVec(z, x, y)
				_ = fd.Inverse(z[:w], x[:w])
			})
			assert.Zero(t, allocs)
		})
	})
}

// TestImplementations checks that Implementations agrees with the cpufeat
// registry: generic always available, one active, the active one selectable.
func TestImplementations(t *testing.T) {
	impls := Implementations()
	require.Len(t, impls, numImpls)
	assert.Equal(t, Implementation{Name: "generic", Available: true, Active: impls[0].Active}, impls[0])
	active := 0
	for _, im := range impls {
		if im.Active {
			active++
			assert.Equal(t, cpufeat.Active("gf2n"), im.Name)
			assert.True(t, im.Available)
		}
	}
	assert.Equal(t, 1, active, "active implementations")
	cpufeat.Each("gf2n", func(name string) {
		for _, im := range Implementations() {
			assert.Equal(t, im.Name == name, im.Active, "%s selected: %s", name, im.Name)
		}
	})
	t.Logf("implementations: %+v", impls)
}
