package prime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

var orders = []Order{DIF, DIT, Natural}

type op struct {
	name           string
	inverse, coset bool
}

var ops = []op{
	{"FFT", false, false},
	{"FFTInverse", true, false},
	{"CosetFFT", false, true},
	{"CosetFFTInverse", true, true},
}

func run[E Element](t *testing.T, e *NTT[E], o op, cols [][]E, ord Order) error {
	switch {
	case o.inverse && o.coset:
		return e.CosetFFTInverse(cols, ord)
	case o.inverse:
		return e.FFTInverse(cols, ord)
	case o.coset:
		return e.CosetFFT(cols, ord)
	}
	return e.FFT(cols, ord)
}

func TestFFTMatchesGnark(t *testing.T) {
	t.Run("bn254", func(t *testing.T) { testMatchesGnark(t, bn254Field()) })
	t.Run("goldilocks", func(t *testing.T) { eachNTT64(t, func(t *testing.T) { testMatchesGnark(t, goldilocksField()) }) })
	t.Run("babybear", func(t *testing.T) { testMatchesGnark(t, babyBearField()) })
	t.Run("koalabear", func(t *testing.T) { testMatchesGnark(t, koalaBearField()) })
}

// testMatchesGnark: every size 2^0..2^12 (2^10 with -short), every order and
// transform, batches of 1 and 3 columns, against gnark-crypto's own calls;
// then a few sampled larger sizes (2^14; 2^16 under GFPOLY_LONG).
func testMatchesGnark[E Element, P testElem[E]](t *testing.T, f field[E]) {
	rng := rand.New(rand.NewPCG(1, uint64(len(f.name))))
	maxLog := 12
	if testing.Short() {
		maxLog = 10
	}
	check := func(logN, ncols int, pre bool, workers int) {
		n := uint64(1) << logN
		d := f.newDomain(n, pre, nil)
		e, err := New[E](d, WithWorkers(workers))
		require.NoError(t, err)
		require.Equal(t, int(n), e.Cardinality(), "Cardinality")
		require.Equal(t, f.name, e.Field(), "Field")
		for _, o := range ops {
			for _, ord := range orders {
				in := randomCols[E, P](rng, f, ncols, int(n))
				got := cloneCols(in)
				require.NoError(t, run(t, e, o, got, ord))
				want := cloneCols(in)
				for _, c := range want {
					f.gnark(d, c, ord, o.inverse, o.coset)
				}
				equalCols(t, fmt.Sprintf("2^%d %s %v cols=%d pre=%v", logN, o.name, ord, ncols, pre), got, want)
			}
		}
	}
	for logN := 0; logN <= maxLog; logN++ {
		check(logN, 1, true, 2)
		check(logN, 3, true, 2)
	}
	check(5, 2, false, 1)
	check(9, 5, false, 4)
	if !testing.Short() {
		check(14, 1, true, 2)
	}
	if testutil.Long() {
		check(16, 2, true, 3)
	}
}

func TestFFTNaive(t *testing.T) {
	t.Run("bn254", func(t *testing.T) { testNaive(t, bn254Field()) })
	t.Run("goldilocks", func(t *testing.T) { eachNTT64(t, func(t *testing.T) { testNaive(t, goldilocksField()) }) })
	t.Run("babybear", func(t *testing.T) { testNaive(t, babyBearField()) })
	t.Run("koalabear", func(t *testing.T) { testNaive(t, koalaBearField()) })
}

// testNaive pins down the semantics against the definition, p(s·ω^i), for
// small sizes: natural / bit-reversed positions, coset shift, 1/n scaling.
func testNaive[E Element, P testElem[E]](t *testing.T, f field[E]) {
	rng := rand.New(rand.NewPCG(2, 7))
	for logN := 0; logN <= 6; logN++ {
		n := 1 << logN
		d := f.newDomain(uint64(n), true, nil)
		e, err := New[E](d)
		require.NoError(t, err)
		omega := f.gen(d)
		var one E
		P(&one).SetOne()
		for _, o := range ops {
			s := one
			if o.coset {
				s = f.shift(d)
			}
			in := randomVec[E, P](rng, f, n)
			var natural []E // natural-order output per the definition
			if o.inverse {
				natural = naiveINTT[E, P](in, omega, s)
			} else {
				natural = naiveNTT[E, P](in, omega, s)
			}
			for _, ord := range orders {
				col := append([]E(nil), in...)
				want := natural
				switch ord {
				case DIF:
					want = permute(natural)
				case DIT:
					col = permute(in)
				}
				require.NoError(t, run(t, e, o, [][]E{col}, ord))
				equalCols(t, fmt.Sprintf("2^%d %s %v naive", logN, o.name, ord), [][]E{col}, [][]E{want})
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := goldilocksField()
	rng := rand.New(rand.NewPCG(3, 3))
	d := f.newDomain(1<<10, true, nil)
	e, err := NewGoldilocks(d.(*goldilocksfft.Domain))
	require.NoError(t, err)
	in := randomCols[goldilocks.Element](rng, f, 4, 1<<10)
	got := cloneCols(in)
	// natural -> bit-reversed -> natural, and the coset pair.
	require.NoError(t, e.FFT(got, DIF))
	require.NoError(t, e.FFTInverse(got, DIT))
	require.NoError(t, e.CosetFFT(got, Natural))
	require.NoError(t, e.CosetFFTInverse(got, Natural))
	equalCols(t, "round trip", got, in)
}

func TestWorkers(t *testing.T) {
	f := babyBearField()
	rng := rand.New(rand.NewPCG(4, 4))
	d := f.newDomain(1<<8, true, nil)
	for _, ncols := range []int{0, 1, 2, 3, 7, 16} {
		in := randomCols[babybear.Element](rng, f, ncols, 1<<8)
		want := cloneCols(in)
		for _, c := range want {
			f.gnark(d, c, DIF, false, true)
		}
		for _, w := range []int{-1, 1, 2, 3, 8} {
			e, err := New[babybear.Element](d, WithWorkers(w), nil)
			require.NoError(t, err)
			got := cloneCols(in)
			require.NoError(t, e.CosetFFT(got, DIF))
			equalCols(t, fmt.Sprintf("cols=%d workers=%d", ncols, w), got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	dB := bn254fft.NewDomain(16)
	dG := goldilocksfft.NewDomain(16)
	dK := koalabearfft.NewDomain(16)

	// Domain of another field, through the generic constructor.
	_, err := New[fr.Element](dG)
	require.ErrorIs(t, err, ErrField, "goldilocks domain for fr elements")
	_, err = New[koalabear.Element](dB)
	require.ErrorIs(t, err, ErrField, "bn254 domain for koalabear elements")
	_, err = NewLDE[goldilocks.Element](dG, dK)
	require.ErrorIs(t, err, ErrField, "LDE with a koalabear large domain")
	// Not a domain at all, nil domains.
	for _, d := range []any{nil, 16, *dB, (*bn254fft.Domain)(nil), (*goldilocksfft.Domain)(nil)} {
		_, err = New[fr.Element](d)
		require.ErrorIs(t, err, ErrDomain, "New(%T)", d)
	}
	_, err = NewBN254(nil)
	require.ErrorIs(t, err, ErrDomain, "NewBN254(nil)")

	// Inconsistent domains: a tampered copy of a real one.
	tamper := []struct {
		name string
		f    func(d *bn254fft.Domain)
	}{
		{"zero cardinality", func(d *bn254fft.Domain) { d.Cardinality = 0 }},
		{"cardinality 12", func(d *bn254fft.Domain) { d.Cardinality = 12 }},
		{"cardinality 32 with tables for 16", func(d *bn254fft.Domain) { d.Cardinality = 32 }},
		{"cardinality beyond the 2-adicity", func(d *bn254fft.Domain) { d.Cardinality = 1 << 40 }},
		{"wrong generator", func(d *bn254fft.Domain) { d.Generator.SetUint64(3) }},
		{"wrong generator inverse", func(d *bn254fft.Domain) { d.GeneratorInv.SetUint64(3) }},
		{"wrong cardinality inverse", func(d *bn254fft.Domain) { d.CardinalityInv.SetUint64(3) }},
		{"zero shift", func(d *bn254fft.Domain) { d.FrMultiplicativeGen.SetZero() }},
		{"wrong shift inverse", func(d *bn254fft.Domain) { d.FrMultiplicativeGenInv.SetUint64(3) }},
		{"shift not matching coset table", func(d *bn254fft.Domain) {
			d.FrMultiplicativeGen.SetUint64(3)
			d.FrMultiplicativeGenInv.Inverse(&d.FrMultiplicativeGen)
		}},
		{"generator and cardinality of another size", func(d *bn254fft.Domain) {
			o := bn254fft.NewDomain(32, bn254fft.WithoutPrecompute())
			d.Cardinality, d.Generator, d.GeneratorInv, d.CardinalityInv = o.Cardinality, o.Generator, o.GeneratorInv, o.CardinalityInv
		}},
		{"zero value", func(d *bn254fft.Domain) { *d = bn254fft.Domain{} }},
	}
	for _, tc := range tamper {
		d := *dB // copies the slice headers of the tables too
		tc.f(&d)
		_, err = NewBN254(&d)
		require.ErrorIs(t, err, ErrDomain, "%s", tc.name)
	}

	// Sizes.
	e, err := NewBN254(dB)
	require.NoError(t, err)
	good := make([]fr.Element, 16)
	good[3].SetUint64(7)
	keep := append([]fr.Element(nil), good...)
	for _, cols := range [][][]fr.Element{
		{make([]fr.Element, 8)},
		{good, make([]fr.Element, 32)},
		{good, nil},
	} {
		for _, o := range ops {
			require.ErrorIs(t, run(t, e, o, cols, DIF), ErrSize, "%s with lengths %d", o.name, len(cols[len(cols)-1]))
		}
	}
	testutil.EqualSlices(t, keep, good, "a failed call modified a valid column")
	require.ErrorIs(t, e.FFT([][]fr.Element{good}, Order(7)), ErrOrder, "Order(7)")
	assert.NoError(t, e.FFT(nil, DIF), "no columns")
	assert.Equal(t, "Order(7)", Order(7).String())

	// LDE shapes.
	for _, big := range []uint64{8, 16, 512} {
		_, err = NewBN254LDE(dB, bn254fft.NewDomain(big))
		require.ErrorIs(t, err, ErrBlowup, "LDE 16 -> %d", big)
	}
	_, err = NewBN254LDE(nil, dB)
	require.ErrorIs(t, err, ErrDomain, "LDE nil small")
	_, err = NewBN254LDE(dB, nil)
	require.ErrorIs(t, err, ErrDomain, "LDE nil large")
	l, err := NewBN254LDE(dB, bn254fft.NewDomain(64))
	require.NoError(t, err)
	for _, tc := range []struct {
		dst, src [][]fr.Element
	}{
		{[][]fr.Element{make([]fr.Element, 64)}, nil},
		{[][]fr.Element{make([]fr.Element, 64)}, [][]fr.Element{make([]fr.Element, 8)}},
		{[][]fr.Element{make([]fr.Element, 32)}, [][]fr.Element{good}},
	} {
		require.ErrorIs(t, l.Encode(tc.dst, tc.src, Natural), ErrSize, "LDE shapes")
	}
	require.ErrorIs(t, l.Encode(nil, nil, Order(3)), ErrOrder, "LDE Order(3)")
}

// TestAllocations: with one worker a batch call allocates a constant, small
// amount (its closure), whatever the number of columns, and nothing per column.
func TestAllocations(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under coverage or the race detector")
	}
	testAllocations(t, babyBearField())
	t.Run("goldilocks", func(t *testing.T) {
		eachNTT64(t, func(t *testing.T) { testAllocations(t, goldilocksField()) })
	})
}

func testAllocations[E Element, P testElem[E]](t *testing.T, f field[E]) {
	rng := rand.New(rand.NewPCG(6, 6))
	e, err := New[E](f.newDomain(1024, true, nil), WithWorkers(1))
	require.NoError(t, err)
	l, err := NewLDE[E](f.newDomain(1024, true, nil), f.newDomain(4096, true, nil), WithWorkers(1))
	require.NoError(t, err)
	for _, ncols := range []int{1, 8} {
		cols := randomCols[E, P](rng, f, ncols, 1024)
		dst := randomCols[E, P](rng, f, ncols, 4096)
		for _, o := range orders {
			assert.LessOrEqual(t, testing.AllocsPerRun(5, func() { _ = e.CosetFFT(cols, o) }), 2.0, "%s CosetFFT %v, %d columns: allocations", f.name, o, ncols)
			assert.LessOrEqual(t, testing.AllocsPerRun(5, func() { _ = l.Encode(dst, cols, o) }), 2.0, "%s LDE %v, %d columns: allocations", f.name, o, ncols)
		}
	}
}
