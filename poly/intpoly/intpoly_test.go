package intpoly

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// ---------------------------------------------------------------------------
// Paths and references.

var (
	ranMu    sync.Mutex
	ranPaths = map[string]bool{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	var ran []string
	for _, ks := range implKernels {
		if ranPaths[ks.name] {
			ran = append(ran, ks.name)
		}
	}
	if len(ran) > 0 {
		fmt.Printf("intpoly: ran paths: %s (active by default: %s)\n", strings.Join(ran, ", "), cpufeat.Active("intpoly"))
	}
	os.Exit(code)
}

// forEachPath runs f as a subtest once per implementation this machine and
// build support, with that implementation active.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	cpufeat.Each("intpoly", func(name string) {
		ranMu.Lock()
		ranPaths[name] = true
		ranMu.Unlock()
		t.Run(name, f)
	})
}

// schoolbook is the reference product: every a_i·b_j added into c_(i+j).
func schoolbook(a, b []*big.Int) []*big.Int {
	if len(a) == 0 || len(b) == 0 {
		return []*big.Int{}
	}
	out := make([]*big.Int, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
	var t big.Int
	for i, x := range a {
		for j, y := range b {
			out[i+j].Add(out[i+j], t.Mul(x, y))
		}
	}
	return out
}

// kronecker is a second reference, for sizes where the schoolbook is too
// slow: it evaluates both polynomials at 2^s with math/big (s wider than
// any product coefficient), multiplies the two integers with math/big and
// reads the product's coefficients back as balanced base-2^s digits.
func kronecker(a, b []*big.Int) []*big.Int {
	if len(a) == 0 || len(b) == 0 {
		return []*big.Int{}
	}
	ma, mb := 0, 0
	for _, x := range a {
		ma = max(ma, x.BitLen())
	}
	for _, x := range b {
		mb = max(mb, x.BitLen())
	}
	s := uint(ma + mb + log2Ceil(min(len(a), len(b))) + 2)
	pa, pb := evalAt(a, s), evalAt(b, s)
	out := make([]*big.Int, len(a)+len(b)-1)
	digits(new(big.Int).Mul(pa, pb), s, out)
	return out
}

func evalAt(a []*big.Int, s uint) *big.Int {
	if len(a) == 1 {
		return new(big.Int).Set(a[0])
	}
	h := len(a) / 2
	hi := evalAt(a[h:], s)
	return hi.Lsh(hi, s*uint(h)).Add(hi, evalAt(a[:h], s))
}

// digits writes v = Σ out[i]·2^(s·i) with |out[i]| < 2^(s−2) into out.
func digits(v *big.Int, s uint, out []*big.Int) {
	if len(out) == 1 {
		out[0] = v
		return
	}
	h := uint(len(out) / 2)
	mod := new(big.Int).Lsh(big.NewInt(1), s*h)
	lo := new(big.Int).Mod(v, mod) // in [0, 2^(sh))
	if lo.Bit(int(s*h)-1) == 1 {
		lo.Sub(lo, mod)
	}
	hi := new(big.Int).Sub(v, lo)
	hi.Rsh(hi, s*h)
	digits(lo, s, out[:h])
	digits(hi, s, out[h:])
}

func reference(a, b []*big.Int) []*big.Int {
	if len(a)*len(b) <= 1<<14 {
		return schoolbook(a, b)
	}
	return kronecker(a, b)
}

// randCoeff returns a random integer with |x| < 2^bits, weighted toward
// the edges: zero, ±1, ±(2^bits − 1), ±2^(bits−1) and sparse values show
// up often; the sign is random.
func randCoeff(r *rand.Rand, bits int) *big.Int {
	x := new(big.Int)
	if bits == 0 {
		return x
	}
	switch r.IntN(10) {
	case 0:
		return x
	case 1:
		x.SetInt64(1)
	case 2:
		x.Lsh(big.NewInt(1), uint(bits)).Sub(x, big.NewInt(1))
	case 3:
		x.Lsh(big.NewInt(1), uint(bits-1))
	default:
		for range (bits + 63) / 64 {
			x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(r.Uint64()))
		}
		x.Rsh(x, uint((bits+63)/64*64-bits))
	}
	if r.IntN(2) == 0 {
		x.Neg(x)
	}
	return x
}

func randPoly(r *rand.Rand, n, bits int) []*big.Int {
	out := make([]*big.Int, n)
	for i := range out {
		out[i] = randCoeff(r, bits)
	}
	return out
}

func requireEqualBig(t *testing.T, want, got []*big.Int, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, len(want), len(got), msgAndArgs...)
	for i := range want {
		if want[i].Cmp(got[i]) != 0 {
			require.Failf(t, "coefficients differ", "index %d of %d: want %v, got %v; %v", i, len(want), want[i], got[i], fmt.Sprint(msgAndArgs...))
		}
	}
}

// ---------------------------------------------------------------------------
// Mul.

func TestMulSmallShapes(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 1))
		for la := 0; la <= 9; la++ {
			for lb := 0; lb <= 9; lb++ {
				for _, bits := range []int{1, 2, 31, 62, 63, 64, 65, 127, 128, 129, 300} {
					a, b := randPoly(r, la, bits), randPoly(r, lb, bits/2+1)
					got, err := Mul(a, b)
					require.NoError(t, err)
					requireEqualBig(t, schoolbook(a, b), got, "la", la, "lb", lb, "bits", bits)
				}
			}
		}
	})
}

// TestMulRandom: random lengths (log-uniform up to 2^12) and coefficient
// sizes (up to 4096 bits; every fourth case below 80 bits), 20 cases (40
// under GFPOLY_LONG, 12 smaller ones with -short), under every path; the
// references are computed once for all paths.
func TestMulRandom(t *testing.T) {
	maxLog, maxBits, rounds := 12, 4096, testutil.Sweep(12, 20, 40)
	if testing.Short() {
		maxLog, maxBits = 10, 1024
	}
	type mulCase struct {
		a, b, want     []*big.Int
		la, lb, ba, bb int
	}
	r := rand.New(rand.NewPCG(2, 2))
	cases := make([]mulCase, rounds)
	for round := range cases {
		la := r.IntN(1<<r.IntN(maxLog+1)) + 1
		lb := r.IntN(1<<r.IntN(maxLog+1)) + 1
		ba := r.IntN(maxBits) + 1
		bb := r.IntN(maxBits) + 1
		if round%4 == 0 { // long and narrow
			ba, bb = r.IntN(80)+1, r.IntN(80)+1
		}
		a, b := randPoly(r, la, ba), randPoly(r, lb, bb)
		cases[round] = mulCase{a, b, reference(a, b), la, lb, ba, bb}
	}
	forEachPath(t, func(t *testing.T) {
		for _, c := range cases {
			got, err := Mul(c.a, c.b)
			require.NoError(t, err)
			requireEqualBig(t, c.want, got, "la", c.la, "lb", c.lb, "bits", c.ba, c.bb)
		}
	})
}

// TestMulLong covers transforms of the two-phase sizes (2^13 and more
// points: columns, then rows) with every number of rows up to 2^3 (2^4
// under GFPOLY_LONG).
func TestMulLong(t *testing.T) {
	logs := testutil.Sweep([]int{13, 14}, []int{13, 14, 15}, []int{13, 14, 15, 16})
	// the operands and references once, for every path
	type longCase struct{ a, b, ab, aa []*big.Int }
	r := rand.New(rand.NewPCG(3, 3))
	cases := make([]longCase, len(logs))
	for i, lg := range logs {
		n := 1<<(lg-1) + r.IntN(1<<(lg-2))
		a, b := randPoly(r, n, 64), randPoly(r, 1<<lg-n, 70)
		cases[i] = longCase{a, b, kronecker(a, b), kronecker(a, a)}
	}
	forEachPath(t, func(t *testing.T) {
		for i, c := range cases {
			got, err := Mul(c.a, c.b)
			require.NoError(t, err)
			requireEqualBig(t, c.ab, got, "log", logs[i])
			sq, err := Mul(c.a, c.a)
			require.NoError(t, err)
			requireEqualBig(t, c.aa, sq, "square, log", logs[i])
		}
	})
}

func TestMulEdges(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		one := big.NewInt(1)
		// Empty operands.
		for _, c := range [][2][]*big.Int{{nil, nil}, {nil, {one}}, {{one}, {}}} {
			got, err := Mul(c[0], c[1])
			require.NoError(t, err)
			assert.NotNil(t, got)
			assert.Empty(t, got)
		}
		// Zeros keep the full length.
		z := []*big.Int{new(big.Int), new(big.Int), new(big.Int)}
		got, err := Mul(z, []*big.Int{big.NewInt(5), big.NewInt(-7)})
		require.NoError(t, err)
		requireEqualBig(t, []*big.Int{new(big.Int), new(big.Int), new(big.Int), new(big.Int)}, got)
		// Trailing zeros.
		a := []*big.Int{big.NewInt(3), big.NewInt(-2), new(big.Int), new(big.Int)}
		b := []*big.Int{big.NewInt(-4), new(big.Int)}
		got, err = Mul(a, b)
		require.NoError(t, err)
		requireEqualBig(t, schoolbook(a, b), got)
		// Huge coefficients, length 1 and short.
		r := rand.New(rand.NewPCG(4, 4))
		for _, bits := range []int{4096, 8000, 15000} {
			x, y := randPoly(r, 1, bits), randPoly(r, 3, bits)
			got, err := Mul(x, y)
			require.NoError(t, err)
			requireEqualBig(t, schoolbook(x, y), got, "bits", bits)
		}
		// Extreme values of one size: every product at its bound.
		for _, bits := range []int{63, 64, 128} {
			m := new(big.Int).Lsh(one, uint(bits))
			m.Sub(m, one)
			mn := new(big.Int).Neg(m)
			a := slices.Repeat([]*big.Int{m}, 300)
			b := slices.Repeat([]*big.Int{mn}, 300)
			got, err := Mul(a, b)
			require.NoError(t, err)
			requireEqualBig(t, schoolbook(a, b), got, "max, bits", bits)
			got, err = Mul(b, b)
			require.NoError(t, err)
			requireEqualBig(t, schoolbook(b, b), got, "min squared, bits", bits)
		}
		// Inputs are not modified; results share nothing with them.
		a = randPoly(r, 50, 100)
		keep := make([]*big.Int, len(a))
		for i, x := range a {
			keep[i] = new(big.Int).Set(x)
		}
		got, err = Mul(a, a)
		require.NoError(t, err)
		requireEqualBig(t, keep, a)
		got[0].Add(got[0], one)
		got[1].Add(got[1], one) // would corrupt got[0] if they shared words
		want := schoolbook(keep, keep)
		want[0].Add(want[0], one)
		want[1].Add(want[1], one)
		requireEqualBig(t, want, got)
	})
}

func TestMulKnown(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		// (1+x)^n by repeated squaring: the binomial coefficients.
		p := []*big.Int{big.NewInt(1), big.NewInt(1)}
		for range 11 {
			var err error
			p, err = Mul(p, p)
			require.NoError(t, err)
		}
		n := int64(len(p) - 1)
		require.Equal(t, int64(2048), n)
		for k, c := range p {
			assert.Zero(t, new(big.Int).Binomial(n, int64(k)).Cmp(c), "C(%d, %d)", n, k)
		}
		// (x − 1)(1 + x + … + x^(n−1)) = x^n − 1.
		ones := slices.Repeat([]*big.Int{big.NewInt(1)}, 5000)
		got, err := Mul([]*big.Int{big.NewInt(-1), big.NewInt(1)}, ones)
		require.NoError(t, err)
		require.Len(t, got, 5001)
		assert.Equal(t, int64(-1), got[0].Int64())
		assert.Equal(t, int64(1), got[5000].Int64())
		for _, c := range got[1:5000] {
			require.Zero(t, c.Sign())
		}
		// (2^64 + 1)·(2^64 − 1) = 2^128 − 1, as constant polynomials.
		a := new(big.Int).Lsh(big.NewInt(1), 64)
		got, err = Mul([]*big.Int{new(big.Int).Add(a, big.NewInt(1))}, []*big.Int{new(big.Int).Sub(a, big.NewInt(1))})
		require.NoError(t, err)
		assert.Equal(t, "340282366920938463463374607431768211455", got[0].String())
	})
}

func TestMulErrors(t *testing.T) {
	one := big.NewInt(1)
	_, err := Mul([]*big.Int{one, nil}, []*big.Int{one})
	require.ErrorIs(t, err, ErrNil)
	assert.Contains(t, err.Error(), "coefficient 1")
	_, err = Mul([]*big.Int{one}, []*big.Int{nil})
	require.ErrorIs(t, err, ErrNil)
	_, err = Mul([]*big.Int{one}, []*big.Int{one}, WithWorkers(0))
	require.Error(t, err)
	_, err = Mul([]*big.Int{one}, []*big.Int{one}, WithAccelerator(nil))
	require.Error(t, err)

	// A bound past the CRT capacity of maxPrimes primes.
	huge := new(big.Int).Lsh(one, 20000)
	_, err = Mul([]*big.Int{huge}, []*big.Int{huge})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "CRT modulus")
	// A length past the longest transform.
	_, err = NewMultiplier(1<<28, 1<<28, 1, 1)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "2^28")
}

func TestWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	a, b := randPoly(r, 9000, 100), randPoly(r, 7000, 90)
	want := kronecker(a, b)
	for _, w := range []int{1, 2, 3, 7} {
		got, err := Mul(a, b, WithWorkers(w))
		require.NoError(t, err)
		requireEqualBig(t, want, got, "workers", w)
	}
}

// ---------------------------------------------------------------------------
// MulBig.

func randInt(r *rand.Rand, bits int) *big.Int {
	x := randCoeff(r, bits)
	if x.BitLen() < bits/2 { // keep the size near bits
		x.SetBit(x, bits-1, 1)
	}
	return x
}

// TestMulBig: products of integers from 1 to 2^20 bits against math/big,
// with the crossover to math/big and without (2^20 × 2^20 bits under
// GFPOLY_LONG; TestMulBigCarries multiplies that size by default).
func TestMulBig(t *testing.T) {
	sizes := [][2]int{{1, 1}, {64, 64}, {65, 1000}, {5000, 7000}, {100000, 300000}, {1<<20 + 77, 3000}}
	if testing.Short() {
		sizes = sizes[:5]
	}
	if testutil.Long() {
		sizes = append(sizes, [2]int{1 << 20, 1 << 20})
	}
	forEachPath(t, func(t *testing.T) {
		defer func(c int) { mulBigCrossover = c }(mulBigCrossover)
		r := rand.New(rand.NewPCG(6, 6))
		for _, cross := range []int{1, 0} { // 0: the kernels' own
			mulBigCrossover = cross
			for _, s := range sizes {
				x, y := randInt(r, s[0]), randInt(r, s[1])
				got, err := MulBig(x, y)
				require.NoError(t, err)
				assert.Zero(t, new(big.Int).Mul(x, y).Cmp(got), "sizes %v", s)
				got, err = MulBig(y, y)
				require.NoError(t, err)
				assert.Zero(t, new(big.Int).Mul(y, y).Cmp(got), "square, sizes %v", s)
				got, err = MulBig(x, new(big.Int))
				require.NoError(t, err)
				assert.Zero(t, got.Sign())
			}
		}
	})
}

// TestMulBigCarries multiplies operands of all ones (and a long run of
// them in a random number), whose products carry across the limbs where
// one carry task's sum ends and the next one's begins, against math/big.
func TestMulBigCarries(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(19, 19))
		one := big.NewInt(1)
		ones := func(n int) *big.Int { return new(big.Int).Sub(new(big.Int).Lsh(one, uint(n)), one) }
		for _, s := range [][2]int{{1 << 20, 1 << 20}, {1<<20 + 13, 1<<19 + 5}, {3 << 19, 1 << 18}} {
			x, y := ones(s[0]), ones(s[1])
			z := randInt(r, s[0])
			z.Or(z, new(big.Int).Lsh(ones(s[0]/2), uint(s[0]/4)))
			for _, p := range [][2]*big.Int{{x, y}, {x, x}, {z, y}, {z, z}} {
				got, err := MulBig(p[0], p[1])
				require.NoError(t, err)
				assert.Zero(t, new(big.Int).Mul(p[0], p[1]).Cmp(got), "sizes %v", s)
			}
		}
	})
}

func TestMulBigKnown(t *testing.T) {
	defer func(c int) { mulBigCrossover = c }(mulBigCrossover)
	mulBigCrossover = 1
	forEachPath(t, func(t *testing.T) {
		one := big.NewInt(1)
		// (2^a − 1)(2^b − 1) = 2^(a+b) − 2^a − 2^b + 1.
		for _, ab := range [][2]uint{{100000, 70001}, {1 << 18, 1 << 18}} {
			x := new(big.Int).Sub(new(big.Int).Lsh(one, ab[0]), one)
			y := new(big.Int).Sub(new(big.Int).Lsh(one, ab[1]), one)
			got, err := MulBig(x, y)
			require.NoError(t, err)
			want := new(big.Int).Lsh(one, ab[0]+ab[1])
			want.Sub(want, new(big.Int).Lsh(one, ab[0])).Sub(want, new(big.Int).Lsh(one, ab[1])).Add(want, one)
			assert.Zero(t, want.Cmp(got), "%v", ab)
		}
		// −(10^5000)·10^7000 = −10^12000.
		ten := big.NewInt(10)
		x := new(big.Int).Exp(ten, big.NewInt(5000), nil)
		got, err := MulBig(x.Neg(x), new(big.Int).Exp(ten, big.NewInt(7000), nil))
		require.NoError(t, err)
		s := got.String()
		assert.Equal(t, "-1"+strings.Repeat("0", 12000), s)
	})
}

func TestMulBigErrors(t *testing.T) {
	_, err := MulBig(nil, big.NewInt(1))
	require.ErrorIs(t, err, ErrNil)
	_, err = MulBig(big.NewInt(1), nil)
	require.ErrorIs(t, err, ErrNil)
	_, err = MulBig(big.NewInt(1), big.NewInt(1), WithWorkers(-1))
	require.Error(t, err)
}

// ---------------------------------------------------------------------------
// Packed and Multiplier.

func TestPacked(t *testing.T) {
	one := big.NewInt(1)
	vals := []*big.Int{
		new(big.Int), one, big.NewInt(-1),
		new(big.Int).Sub(new(big.Int).Lsh(one, 127), one), // 2^127 − 1
		new(big.Int).Neg(new(big.Int).Lsh(one, 127)),      // −2^127
		big.NewInt(-1 << 40),
	}
	p, err := PackBig(vals, 2)
	require.NoError(t, err)
	assert.Equal(t, len(vals), p.Len())
	requireEqualBig(t, vals, p.Big())
	assert.Equal(t, []uint64{^uint64(0), ^uint64(0)}, p.Limbs[4:6], "−1 in two's complement")

	_, err = PackBig([]*big.Int{new(big.Int).Lsh(one, 127)}, 2)
	require.ErrorIs(t, err, ErrWidth)
	_, err = PackBig([]*big.Int{nil}, 2)
	require.ErrorIs(t, err, ErrNil)
	_, err = PackBig(vals, 0)
	require.ErrorIs(t, err, ErrWidth)
	assert.Equal(t, 1, WidthFor(63))
	assert.Equal(t, 2, WidthFor(64))
	assert.Equal(t, 0, Packed{}.Len())

	// fitsBits against big.Int on edge values.
	for _, bits := range []int{0, 1, 5, 63, 64, 65, 100, 127, 128} {
		for _, v := range []*big.Int{
			new(big.Int).Lsh(one, uint(bits)), new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one),
			new(big.Int).Neg(new(big.Int).Lsh(one, uint(bits))), new(big.Int).Neg(new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one)),
		} {
			pk, err := PackBig([]*big.Int{v}, 3)
			require.NoError(t, err)
			assert.Equal(t, v.BitLen() <= bits, fitsBits(pk.Limbs, bits), "%v < 2^%d", v, bits)
		}
	}
}

func TestMultiplier(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 7))
		for _, c := range []struct{ la, lb, ba, bb int }{{1, 1, 1, 1}, {100, 30, 63, 63}, {5000, 5000, 63, 63}, {300, 700, 255, 1023}} {
			m, err := NewMultiplier(c.la, c.lb, c.ba, c.bb)
			require.NoError(t, err)
			require.NotEmpty(t, m.Primes())
			require.GreaterOrEqual(t, m.TransformLen(), c.la+c.lb-1)
			// Full size, then shorter operands with the same Multiplier.
			for _, l := range [][2]int{{c.la, c.lb}, {c.la/2 + 1, c.lb}, {1, c.lb/3 + 1}} {
				a, b := randPoly(r, l[0], c.ba), randPoly(r, l[1], c.bb)
				pa, err := PackBig(a, WidthFor(c.ba))
				require.NoError(t, err)
				pb, err := PackBig(b, WidthFor(c.bb)+1) // a wider layout than needed
				require.NoError(t, err)
				dst := NewPacked(l[0]+l[1]-1, m.OutWidth())
				require.NoError(t, m.MulPacked(dst, pa, pb))
				requireEqualBig(t, reference(a, b), dst.Big(), "case", c, "lens", l)
				if l[0] == l[1] {
					require.NoError(t, m.MulPacked(dst, pa, pa))
					requireEqualBig(t, reference(a, a), dst.Big(), "square")
				}
			}
		}
	})
}

func TestMultiplierErrors(t *testing.T) {
	_, err := NewMultiplier(0, 1, 1, 1)
	require.Error(t, err)
	_, err = NewMultiplier(1, 1, -1, 1)
	require.Error(t, err)
	_, err = NewMultiplier(1, 1, 1, 1, WithWorkers(0))
	require.Error(t, err)
	m, err := NewMultiplier(4, 4, 10, 10)
	require.NoError(t, err)
	a := NewPacked(4, 1)
	good := NewPacked(7, m.OutWidth())
	for name, c := range map[string][3]Packed{
		"dst width 0":      {{Width: 0}, a, a},
		"ragged a":         {good, {Width: 2, Limbs: make([]uint64, 3)}, a},
		"dst too short":    {NewPacked(6, m.OutWidth()), a, a},
		"a too long":       {NewPacked(8, 1), NewPacked(5, 1), a},
		"dst too narrow":   {NewPacked(7, 0), a, a},
		"b past its bound": {good, a, {Width: 1, Limbs: []uint64{0, 1 << 10, 0, 0}}},
		"a negative bound": {good, {Width: 1, Limbs: []uint64{0, -(1 << 10) & (1<<64 - 1), 0, 0}}, a},
	} {
		err := m.MulPacked(c[0], c[1], c[2])
		require.ErrorIs(t, err, ErrWidth, name)
	}
	// −(2^10 − 1) is inside the bound.
	require.NoError(t, m.MulPacked(good, Packed{Width: 1, Limbs: []uint64{-(1<<10 - 1) & (1<<64 - 1), 0, 0, 0}}, a))
	// Empty operands give an empty product.
	require.NoError(t, m.MulPacked(Packed{Width: 1}, Packed{Width: 1}, a))
}

// ---------------------------------------------------------------------------
// Accelerator plumbing, with a stand-in that multiplies on the CPU.

type cpuAccel struct {
	calls   int
	fail    error
	capBits int // > 0: refuse products needing more bits, as a GPU's primes do
}

func (c *cpuAccel) MulPacked(dst, a, b Packed) error {
	c.calls++
	if c.fail != nil {
		return c.fail
	}
	ba, bb := 0, 0
	for _, x := range a.Big() {
		ba = max(ba, x.BitLen())
	}
	for _, x := range b.Big() {
		bb = max(bb, x.BitLen())
	}
	if need := needBitsSigned(ba, bb, min(a.Len(), b.Len())); c.capBits > 0 && need > c.capBits {
		return fmt.Errorf("%w: %d bits, the stand-in holds %d", ErrTooLarge, need, c.capBits)
	}
	m, err := NewMultiplier(a.Len(), b.Len(), ba, bb)
	if err != nil {
		return err
	}
	return m.MulPacked(dst, a, b)
}

func (c *cpuAccel) MulNat(z, x, y []uint64) error {
	c.calls++
	if c.fail != nil {
		return c.fail
	}
	bx := new(big.Int).SetBits(limbWords(x))
	by := new(big.Int).SetBits(limbWords(y))
	copy(z, natLimbs(new(big.Int).Mul(bx, by)))
	return nil
}

func limbWords(l []uint64) []big.Word {
	ws := make([]big.Word, len(l)*wordsPerLimb)
	putLimbs(ws, l)
	return ws
}

func TestAccelerator(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	acc := &cpuAccel{}
	a, b := randPoly(r, 40, 100), randPoly(r, 30, 70)
	b = append(b, new(big.Int)) // a trailing zero: the result keeps the full length
	got, err := Mul(a, b, WithAccelerator(acc))
	require.NoError(t, err)
	requireEqualBig(t, schoolbook(a, b), got)
	assert.Equal(t, 1, acc.calls)

	defer func(c int) { mulBigCrossover = c }(mulBigCrossover)
	mulBigCrossover = 1000
	x, y := randInt(r, 5000), randInt(r, 3000)
	z, err := MulBig(x, y, WithAccelerator(acc))
	require.NoError(t, err)
	assert.Zero(t, new(big.Int).Mul(x, y).Cmp(z))
	assert.Equal(t, 2, acc.calls)

	m, err := NewMultiplier(40, 31, 100, 70, WithAccelerator(acc))
	require.NoError(t, err)
	assert.Nil(t, m.Primes())
	pa, _ := PackBig(a, 2)
	pb, _ := PackBig(b, 2)
	dst := NewPacked(70, m.OutWidth())
	require.NoError(t, m.MulPacked(dst, pa, pb))
	requireEqualBig(t, schoolbook(a, b), dst.Big())

	boom := errors.New("device lost")
	acc.fail = boom
	_, err = Mul(a, b, WithAccelerator(acc))
	require.ErrorIs(t, err, boom)
	_, err = MulBig(x, y, WithAccelerator(acc))
	require.ErrorIs(t, err, boom)
	require.ErrorIs(t, m.MulPacked(dst, pa, pb), boom)
}

// TestAcceleratorSlices checks the products an Accelerator refuses for
// their bound (ErrTooLarge) and mulOnAccel runs by 64-bit slices: equal to
// the schoolbook product for coefficients of 1 to 520 bits, signs mixed,
// the extremes ±(2^bits − 1) and −2^bits included, unequal lengths and
// squares, through Mul and Multiplier.MulPacked, with one call per pair of
// slices (k ≤ l for a square) after the refused one; a stand-in that
// refuses the slices too returns its ErrTooLarge, and another error is
// returned as it is, without slicing.
func TestAcceleratorSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, sh := range []struct{ la, lb, bitsA, bitsB int }{
		{1, 1, 200, 200}, {5, 3, 64, 200}, {40, 30, 128, 129}, {33, 64, 256, 256},
		{17, 9, 520, 70}, {64, 64, 1023, 1024}, {3, 50, 1, 300}, {100, 100, 192, 192},
	} {
		a, b := randPoly(r, sh.la, sh.bitsA), randPoly(r, sh.lb, sh.bitsB)
		a[0].Lsh(big.NewInt(1), uint(sh.bitsA)).Neg(a[0]) // −2^bits, the bound's extreme
		b[sh.lb-1].Lsh(big.NewInt(1), uint(sh.bitsB)).Sub(b[sh.lb-1], big.NewInt(1))
		want := schoolbook(a, b)
		acc := &cpuAccel{capBits: 160}
		got, err := Mul(a, b, WithAccelerator(acc))
		require.NoError(t, err, "%+v", sh)
		requireEqualBig(t, want, got, sh)
		pa, err := PackBig(a, WidthFor(sh.bitsA+1))
		require.NoError(t, err)
		pb, err := PackBig(b, WidthFor(sh.bitsB+1))
		require.NoError(t, err)
		ka, kb := sliceCount(pa), sliceCount(pb)
		if needBitsSigned(sh.bitsA+1, sh.bitsB+1, min(sh.la, sh.lb)) > 160 {
			assert.Equal(t, 1+ka*kb, acc.calls, "%+v: the refused call and one per pair of slices", sh)
		}

		m, err := NewMultiplier(sh.la, sh.lb, sh.bitsA+1, sh.bitsB+1, WithAccelerator(acc))
		require.NoError(t, err)
		dst := NewPacked(sh.la+sh.lb-1, m.OutWidth()+1) // a wider dst than needed
		require.NoError(t, m.MulPacked(dst, pa, pb))
		requireEqualBig(t, want, dst.Big(), "MulPacked", sh)

		// a square: each pair k < l once
		acc.calls = 0
		sq := NewPacked(2*sh.la-1, WidthFor(needBitsSigned(sh.bitsA+1, sh.bitsA+1, sh.la)))
		require.NoError(t, mulOnAccel(acc, sq, pa, pa))
		requireEqualBig(t, schoolbook(a, a), sq.Big(), "square", sh)
		if needBitsSigned(sh.bitsA+1, sh.bitsA+1, sh.la) > 160 {
			assert.Equal(t, 1+ka*(ka+1)/2, acc.calls, "%+v: square", sh)
		}
	}

	a, b := randPoly(r, 50, 300), randPoly(r, 50, 300)
	_, err := Mul(a, b, WithAccelerator(&cpuAccel{capBits: 100}))
	require.ErrorIs(t, err, ErrTooLarge, "slices of 65 bits need more than 100")
	boom := errors.New("device lost")
	acc := &cpuAccel{fail: boom}
	_, err = Mul(a, b, WithAccelerator(acc))
	require.ErrorIs(t, err, boom)
	assert.Equal(t, 1, acc.calls, "an error other than ErrTooLarge: no slicing")
	_, err = Mul(randPoly(r, 50, 60), randPoly(r, 50, 60), WithAccelerator(&cpuAccel{capBits: 100}))
	require.ErrorIs(t, err, ErrTooLarge, "one limb each: nothing to cut")
}

// TestMulFLINT compares with products computed by FLINT's fmpz_poly_mul
// (testdata/flint_mul.txt, written by internal/baselines/intpoly/compare.sh
// vectors): lines "a N c_0 … c_(N−1)", "b …", "c …".
func TestMulFLINT(t *testing.T) {
	data, err := os.ReadFile("testdata/flint_mul.txt")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 6)
	parse := func(line, tag string) []*big.Int {
		f := strings.Fields(line)
		require.Equal(t, tag, f[0])
		out := make([]*big.Int, len(f)-2)
		for i, s := range f[2:] {
			var ok bool
			out[i], ok = new(big.Int).SetString(s, 10)
			require.True(t, ok, s)
		}
		require.Equal(t, f[1], fmt.Sprint(len(out)))
		return out
	}
	forEachPath(t, func(t *testing.T) {
		for v := 0; v < len(lines); v += 3 {
			a, b, c := parse(lines[v], "a"), parse(lines[v+1], "b"), parse(lines[v+2], "c")
			got, err := Mul(a, b)
			require.NoError(t, err)
			requireEqualBig(t, c, got, "vector", v/3)
			pa, err := PackBig(a, 17)
			require.NoError(t, err)
			pb, err := PackBig(b, 17)
			require.NoError(t, err)
			m, err := NewMultiplier(len(a), len(b), 1000, 1000)
			require.NoError(t, err)
			dst := NewPacked(len(c), m.OutWidth())
			require.NoError(t, m.MulPacked(dst, pa, pb))
			requireEqualBig(t, c, dst.Big(), "packed, vector", v/3)
		}
	})
}
