package prime

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
)

// Element is the set of gnark-crypto element types this package transforms:
// the BN254 scalar field, Goldilocks, BabyBear and KoalaBear, each in
// gnark-crypto's Montgomery form.
type Element interface {
	fr.Element | goldilocks.Element | babybear.Element | koalabear.Element
}

// Order says in which order a transform reads its input and writes its
// output. Bit-reversed means that position i holds entry bitreverse(i) over
// log2(n) bits.
type Order uint8

const (
	// DIF reads natural order and writes bit-reversed order, like gnark-crypto's
	// fft.DIF.
	DIF Order = iota
	// DIT reads bit-reversed order and writes natural order, like gnark-crypto's
	// fft.DIT.
	DIT
	// Natural reads and writes natural order (a DIF transform followed by a
	// bit-reversal permutation).
	Natural
)

// String returns "DIF", "DIT" or "Natural".
func (o Order) String() string {
	switch o {
	case DIF:
		return "DIF"
	case DIT:
		return "DIT"
	case Natural:
		return "Natural"
	}
	return fmt.Sprintf("Order(%d)", uint8(o))
}

func (o Order) valid() bool { return o <= Natural }

// Errors that callers can branch on with errors.Is. Returned errors wrap them
// and say which argument was wrong.
var (
	// ErrSize: a column's length does not match the domain's cardinality, or
	// dst and src hold different numbers of columns.
	ErrSize = errors.New("prime: size does not match the domain")
	// ErrDomain: a domain is nil, or its fields are not those gnark-crypto's
	// fft.NewDomain computes for its cardinality.
	ErrDomain = errors.New("prime: invalid domain")
	// ErrField: a domain belongs to another field than the element type.
	ErrField = errors.New("prime: domain of another field")
	// ErrBlowup: the large domain of an LDE is not 2, 4, 8 or 16 times the
	// small one.
	ErrBlowup = errors.New("prime: unsupported blowup")
	// ErrOrder: an Order value that is none of DIF, DIT, Natural.
	ErrOrder = errors.New("prime: unknown order")
)

// Option configures an NTT or an LDE at construction.
type Option func(*config)

type config struct {
	workers int
}

// WithWorkers sets how many goroutines a batch call uses (at least 1). The
// default is runtime.GOMAXPROCS(0) at construction.
func WithWorkers(n int) Option {
	return func(c *config) {
		c.workers = max(n, 1)
	}
}

func newConfig(opts []Option) config {
	c := config{workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// NTT holds a validated gnark-crypto domain and runs its transforms on
// batches of columns. It is immutable after construction and safe for
// concurrent use.
type NTT[E Element] struct {
	f       fieldOps[E]
	workers int
}

// New returns the batched transforms over d, which must be a gnark-crypto
// *fft.Domain of E's field (ecc/bn254/fr/fft for fr.Element, field/goldilocks/fft
// for goldilocks.Element, and so on). A domain of another field returns an
// error wrapping ErrField; a nil or inconsistent domain one wrapping ErrDomain.
func New[E Element](d any, opts ...Option) (*NTT[E], error) {
	f, err := opsFor[E](d)
	if err != nil {
		return nil, err
	}
	c := newConfig(opts)
	return &NTT[E]{f: f, workers: c.workers}, nil
}

// NewBN254 is New for the BN254 scalar field.
func NewBN254(d *bn254fft.Domain, opts ...Option) (*NTT[fr.Element], error) {
	return New[fr.Element](d, opts...)
}

// NewGoldilocks is New for Goldilocks.
func NewGoldilocks(d *goldilocksfft.Domain, opts ...Option) (*NTT[goldilocks.Element], error) {
	return New[goldilocks.Element](d, opts...)
}

// NewBabyBear is New for BabyBear.
func NewBabyBear(d *babybearfft.Domain, opts ...Option) (*NTT[babybear.Element], error) {
	return New[babybear.Element](d, opts...)
}

// NewKoalaBear is New for KoalaBear.
func NewKoalaBear(d *koalabearfft.Domain, opts ...Option) (*NTT[koalabear.Element], error) {
	return New[koalabear.Element](d, opts...)
}

// Cardinality returns the domain's size n: every column has n elements.
func (t *NTT[E]) Cardinality() int { return int(t.f.cardinality()) }

// Field returns the field's name: "bn254", "goldilocks", "babybear" or
// "koalabear".
func (t *NTT[E]) Field() string { return t.f.name() }

// FFT evaluates each column, a polynomial's coefficients, on the domain's
// subgroup ⟨ω⟩, in place: the same result as gnark-crypto's Domain.FFT(col,
// fft.DIF) for DIF and Domain.FFT(col, fft.DIT) for DIT.
func (t *NTT[E]) FFT(cols [][]E, o Order) error {
	return t.transform("FFT", cols, o, false, false)
}

// FFTInverse interpolates each column, evaluations on ⟨ω⟩, in place: the same
// result as gnark-crypto's Domain.FFTInverse(col, fft.DIF) or (col, fft.DIT).
func (t *NTT[E]) FFTInverse(cols [][]E, o Order) error {
	return t.transform("FFTInverse", cols, o, true, false)
}

// CosetFFT evaluates each column on the coset g·⟨ω⟩, g the domain's
// FrMultiplicativeGen, in place: gnark-crypto's Domain.FFT(col, dec,
// fft.OnCoset()).
func (t *NTT[E]) CosetFFT(cols [][]E, o Order) error {
	return t.transform("CosetFFT", cols, o, false, true)
}

// CosetFFTInverse interpolates each column from evaluations on g·⟨ω⟩, in
// place: gnark-crypto's Domain.FFTInverse(col, dec, fft.OnCoset()).
func (t *NTT[E]) CosetFFTInverse(cols [][]E, o Order) error {
	return t.transform("CosetFFTInverse", cols, o, true, true)
}

func (t *NTT[E]) transform(op string, cols [][]E, o Order, inverse, coset bool) error {
	if !o.valid() {
		return fmt.Errorf("%w: %s got %v", ErrOrder, op, o)
	}
	n := t.f.cardinality()
	for i, c := range cols {
		if uint64(len(c)) != n {
			return fmt.Errorf("%w: %s column %d has %d elements, the %s domain has %d",
				ErrSize, op, i, len(c), t.f.name(), n)
		}
	}
	forEach(len(cols), t.workers, func(i, tasks int) {
		t.f.transform(cols[i], o, inverse, coset, tasks)
	})
	return nil
}
