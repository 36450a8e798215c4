package prime

import (
	"errors"
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
	t.Run("goldilocks", func(t *testing.T) { testMatchesGnark(t, goldilocksField()) })
	t.Run("babybear", func(t *testing.T) { testMatchesGnark(t, babyBearField()) })
	t.Run("koalabear", func(t *testing.T) { testMatchesGnark(t, koalaBearField()) })
}

// testMatchesGnark: every size 2^0..2^12 (2^10 with -short), every order and
// transform, batches of 1 and 3 columns, against gnark-crypto's own calls;
// then a few sampled larger sizes.
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
		if err != nil {
			t.Fatal(err)
		}
		if e.Cardinality() != int(n) || e.Field() != f.name {
			t.Fatalf("Cardinality %d Field %q, want %d %q", e.Cardinality(), e.Field(), n, f.name)
		}
		for _, o := range ops {
			for _, ord := range orders {
				in := randomCols[E, P](rng, f, ncols, int(n))
				got := cloneCols(in)
				if err := run(t, e, o, got, ord); err != nil {
					t.Fatal(err)
				}
				want := cloneCols(in)
				for _, c := range want {
					f.gnark(d, c, ord, o.inverse, o.coset)
				}
				equalCols[E, P](t, fmt.Sprintf("2^%d %s %v cols=%d pre=%v", logN, o.name, ord, ncols, pre), got, want)
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
		check(16, 2, true, 3)
	}
}

func TestFFTNaive(t *testing.T) {
	t.Run("bn254", func(t *testing.T) { testNaive(t, bn254Field()) })
	t.Run("goldilocks", func(t *testing.T) { testNaive(t, goldilocksField()) })
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
		if err != nil {
			t.Fatal(err)
		}
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
				if err := run(t, e, o, [][]E{col}, ord); err != nil {
					t.Fatal(err)
				}
				equalCols[E, P](t, fmt.Sprintf("2^%d %s %v naive", logN, o.name, ord), [][]E{col}, [][]E{want})
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := goldilocksField()
	rng := rand.New(rand.NewPCG(3, 3))
	d := f.newDomain(1<<10, true, nil)
	e, err := NewGoldilocks(d.(*goldilocksfft.Domain))
	if err != nil {
		t.Fatal(err)
	}
	in := randomCols[goldilocks.Element](rng, f, 4, 1<<10)
	got := cloneCols(in)
	// natural -> bit-reversed -> natural, and the coset pair.
	if err := e.FFT(got, DIF); err != nil {
		t.Fatal(err)
	}
	if err := e.FFTInverse(got, DIT); err != nil {
		t.Fatal(err)
	}
	if err := e.CosetFFT(got, Natural); err != nil {
		t.Fatal(err)
	}
	if err := e.CosetFFTInverse(got, Natural); err != nil {
		t.Fatal(err)
	}
	equalCols[goldilocks.Element](t, "round trip", got, in)
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
			if err != nil {
				t.Fatal(err)
			}
			got := cloneCols(in)
			if err := e.CosetFFT(got, DIF); err != nil {
				t.Fatal(err)
			}
			equalCols[babybear.Element](t, fmt.Sprintf("cols=%d workers=%d", ncols, w), got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	dB := bn254fft.NewDomain(16)
	dG := goldilocksfft.NewDomain(16)
	dK := koalabearfft.NewDomain(16)

	// Domain of another field, through the generic constructor.
	if _, err := New[fr.Element](dG); !errors.Is(err, ErrField) {
		t.Errorf("goldilocks domain for fr elements: %v, want ErrField", err)
	}
	if _, err := New[koalabear.Element](dB); !errors.Is(err, ErrField) {
		t.Errorf("bn254 domain for koalabear elements: %v, want ErrField", err)
	}
	if _, err := NewLDE[goldilocks.Element](dG, dK); !errors.Is(err, ErrField) {
		t.Errorf("LDE with a koalabear large domain: %v, want ErrField", err)
	}
	// Not a domain at all, nil domains.
	for _, d := range []any{nil, 16, *dB, (*bn254fft.Domain)(nil), (*goldilocksfft.Domain)(nil)} {
		if _, err := New[fr.Element](d); !errors.Is(err, ErrDomain) {
			t.Errorf("New(%T): %v, want ErrDomain", d, err)
		}
	}
	if _, err := NewBN254(nil); !errors.Is(err, ErrDomain) {
		t.Errorf("NewBN254(nil): %v, want ErrDomain", err)
	}

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
		if _, err := NewBN254(&d); !errors.Is(err, ErrDomain) {
			t.Errorf("%s: %v, want ErrDomain", tc.name, err)
		}
	}

	// Sizes.
	e, err := NewBN254(dB)
	if err != nil {
		t.Fatal(err)
	}
	good := make([]fr.Element, 16)
	good[3].SetUint64(7)
	keep := append([]fr.Element(nil), good...)
	for _, cols := range [][][]fr.Element{
		{make([]fr.Element, 8)},
		{good, make([]fr.Element, 32)},
		{good, nil},
	} {
		for _, o := range ops {
			if err := run(t, e, o, cols, DIF); !errors.Is(err, ErrSize) {
				t.Errorf("%s with lengths %d: %v, want ErrSize", o.name, len(cols[len(cols)-1]), err)
			}
		}
	}
	if !good[3].Equal(&keep[3]) {
		t.Errorf("a failed call modified a valid column")
	}
	if err := e.FFT([][]fr.Element{good}, Order(7)); !errors.Is(err, ErrOrder) {
		t.Errorf("Order(7): %v, want ErrOrder", err)
	}
	if err := e.FFT(nil, DIF); err != nil {
		t.Errorf("no columns: %v, want nil", err)
	}
	if s := Order(7).String(); s != "Order(7)" {
		t.Errorf("Order(7).String() = %q", s)
	}

	// LDE shapes.
	for _, big := range []uint64{8, 16, 512} {
		if _, err := NewBN254LDE(dB, bn254fft.NewDomain(big)); !errors.Is(err, ErrBlowup) {
			t.Errorf("LDE 16 -> %d: %v, want ErrBlowup", big, err)
		}
	}
	if _, err := NewBN254LDE(nil, dB); !errors.Is(err, ErrDomain) {
		t.Errorf("LDE nil small: %v, want ErrDomain", err)
	}
	if _, err := NewBN254LDE(dB, nil); !errors.Is(err, ErrDomain) {
		t.Errorf("LDE nil large: %v, want ErrDomain", err)
	}
	l, err := NewBN254LDE(dB, bn254fft.NewDomain(64))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dst, src [][]fr.Element
	}{
		{[][]fr.Element{make([]fr.Element, 64)}, nil},
		{[][]fr.Element{make([]fr.Element, 64)}, [][]fr.Element{make([]fr.Element, 8)}},
		{[][]fr.Element{make([]fr.Element, 32)}, [][]fr.Element{good}},
	} {
		if err := l.Encode(tc.dst, tc.src, Natural); !errors.Is(err, ErrSize) {
			t.Errorf("LDE shapes: %v, want ErrSize", err)
		}
	}
	if err := l.Encode(nil, nil, Order(3)); !errors.Is(err, ErrOrder) {
		t.Errorf("LDE Order(3): %v, want ErrOrder", err)
	}
}

// TestAllocations: with one worker a batch call allocates a constant, small
// amount (its closure), whatever the number of columns, and nothing per column.
func TestAllocations(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under coverage or the race detector")
	}
	f := babyBearField()
	rng := rand.New(rand.NewPCG(6, 6))
	e, err := New[babybear.Element](f.newDomain(1024, true, nil), WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLDE[babybear.Element](f.newDomain(1024, true, nil), f.newDomain(4096, true, nil), WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, ncols := range []int{1, 8} {
		cols := randomCols[babybear.Element](rng, f, ncols, 1024)
		dst := randomCols[babybear.Element](rng, f, ncols, 4096)
		for _, o := range orders {
			if a := testing.AllocsPerRun(5, func() { _ = e.CosetFFT(cols, o) }); a > 2 {
				t.Errorf("CosetFFT %v, %d columns: %v allocations", o, ncols, a)
			}
			if a := testing.AllocsPerRun(5, func() { _ = l.Encode(dst, cols, o) }); a > 2 {
				t.Errorf("LDE %v, %d columns: %v allocations", o, ncols, a)
			}
		}
	}
}
