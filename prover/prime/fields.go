package prime

import (
	"fmt"
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/consensys/gnark-crypto/utils"
)

// fieldOps is the per-field adapter: it hides which gnark-crypto fft package
// a domain comes from. Each adapter holds a validated domain.
type fieldOps[E Element] interface {
	name() string
	cardinality() uint64
	// transform runs one gnark-crypto transform on a (len(a) equals the
	// cardinality) with at most tasks goroutines.
	transform(a []E, o Order, inverse, coset bool, tasks int)
	// domain returns the *fft.Domain the adapter wraps.
	domain() any
	// bitReverse permutes a (len(a) the cardinality) into bit-reversed
	// order with at most tasks goroutines.
	bitReverse(a []E, tasks int)
	// cosetShift returns the domain's FrMultiplicativeGen.
	cosetShift() E
	// mulVec sets a[i] = a[i]·b[i] (gnark-crypto's Vector.Mul).
	mulVec(a, b []E)
	// expTable sets t[i] = w^i (the fft package's BuildExpTable).
	expTable(w E, t []E)
}

// opsFor validates d and returns its adapter for elements of type E.
func opsFor[E Element](d any) (fieldOps[E], error) {
	var f any
	var err error
	switch d := d.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil domain", ErrDomain)
	case *bn254fft.Domain:
		f, err = newBN254Ops(d)
	case *goldilocksfft.Domain:
		f, err = newGoldilocksOps(d)
	case *babybearfft.Domain:
		f, err = newBabyBearOps(d)
	case *koalabearfft.Domain:
		f, err = newKoalaBearOps(d)
	default:
		return nil, fmt.Errorf("%w: %T is not a gnark-crypto *fft.Domain of a supported field", ErrDomain, d)
	}
	if err != nil {
		return nil, err
	}
	ops, ok := f.(fieldOps[E])
	if !ok {
		var z E
		return nil, fmt.Errorf("%w: a %s domain (%T) for %T elements",
			ErrField, f.(interface{ name() string }).name(), d, z)
	}
	return ops, nil
}

// elemPtr is the part of gnark-crypto's element API the domain check needs;
// all four element types have it.
type elemPtr[E any] interface {
	*E
	Mul(x, y *E) *E
	SetUint64(v uint64) *E
	IsOne() bool
	IsZero() bool
	Equal(x *E) bool
}

// domainView is a field-independent view of an fft.Domain's public state.
type domainView[E any] struct {
	field                       string
	card                        uint64
	gen, genInv, cardInv        E
	shift, shiftInv             E
	twiddles, twiddlesInv       [][]E // nil when not precomputed
	cosetTable, cosetTableInv   []E   // nil when not precomputed
	generator                   func(uint64) (E, error)
	twiddlesErr, twiddlesInvErr error
}

// checkDomain reports whether a domain holds what gnark-crypto's NewDomain
// computes for its cardinality: a power-of-two cardinality the field supports,
// the field's root of unity of that order, matching inverses, a non-zero coset
// shift, and precomputed tables (when present) of the right sizes.
func checkDomain[E any, P elemPtr[E]](v *domainView[E]) error {
	n := v.card
	if n == 0 || n&(n-1) != 0 {
		return fmt.Errorf("%w: %s domain cardinality %d is not a power of two", ErrDomain, v.field, n)
	}
	want, err := v.generator(n)
	if err != nil {
		return fmt.Errorf("%w: %s domain cardinality %d: %v", ErrDomain, v.field, n, err)
	}
	if !P(&v.gen).Equal(&want) {
		return fmt.Errorf("%w: %s domain generator is not the root of unity of order %d gnark-crypto uses", ErrDomain, v.field, n)
	}
	var c E
	if !P(P(&c).Mul(&v.gen, &v.genInv)).IsOne() {
		return fmt.Errorf("%w: %s domain GeneratorInv is not the inverse of Generator", ErrDomain, v.field)
	}
	if !P(P(P(&c).SetUint64(n)).Mul(&c, &v.cardInv)).IsOne() {
		return fmt.Errorf("%w: %s domain CardinalityInv is not 1/%d", ErrDomain, v.field, n)
	}
	if P(&v.shift).IsZero() || !P(P(&c).Mul(&v.shift, &v.shiftInv)).IsOne() {
		return fmt.Errorf("%w: %s domain FrMultiplicativeGen is zero or FrMultiplicativeGenInv is not its inverse", ErrDomain, v.field)
	}
	logN := bits.TrailingZeros64(n)
	checkTw := func(what string, tw [][]E, root *E) error {
		if tw == nil {
			return nil
		}
		if len(tw) != logN {
			return fmt.Errorf("%w: %s domain %s has %d stages, cardinality %d needs %d", ErrDomain, v.field, what, len(tw), n, logN)
		}
		if n > 1 && (uint64(len(tw[0])) != 1+n/2 || !P(&tw[0][1]).Equal(root)) {
			return fmt.Errorf("%w: %s domain %s do not belong to its generator and cardinality", ErrDomain, v.field, what)
		}
		return nil
	}
	if err := checkTw("twiddles", v.twiddles, &v.gen); err != nil {
		return err
	}
	if err := checkTw("inverse twiddles", v.twiddlesInv, &v.genInv); err != nil {
		return err
	}
	checkCoset := func(what string, t []E, s *E) error {
		if t == nil {
			return nil
		}
		if uint64(len(t)) != n || !P(&t[0]).IsOne() || (n > 1 && !P(&t[1]).Equal(s)) {
			return fmt.Errorf("%w: %s domain %s does not belong to its shift and cardinality", ErrDomain, v.field, what)
		}
		return nil
	}
	if err := checkCoset("coset table", v.cosetTable, &v.shift); err != nil {
		return err
	}
	return checkCoset("inverse coset table", v.cosetTableInv, &v.shiftInv)
}

func orNil[T any](t T, err error) T {
	if err != nil {
		var z T
		return z
	}
	return t
}

// gnarkOps adapts one gnark-crypto fft package: E is its element, Dec its
// Decimation and Opt its Option type. The four fields' packages differ only
// in these types, so one adapter serves them all, filled with the package's
// own functions.
type gnarkOps[E any, Dec any, Opt any] struct {
	field       string
	d           any // the *fft.Domain
	card        uint64
	fft, fftInv func([]E, Dec, ...Opt)
	dif, dit    Dec
	withTasks   func(int) Opt
	onCoset     Opt
	serial      [2][]Opt // WithNbTasks(1), without and with OnCoset
	shift       E
	mulv        func(a, b []E)
	exp         func(w E, t []E)
}

func newGnarkOps[E any, Dec any, Opt any](field string, d any, card uint64,
	fft, fftInv func([]E, Dec, ...Opt), dif, dit Dec, withTasks func(int) Opt, onCoset Opt,
	shift E, mulv func(a, b []E), exp func(w E, t []E)) *gnarkOps[E, Dec, Opt] {
	one := withTasks(1)
	return &gnarkOps[E, Dec, Opt]{
		field: field, d: d, card: card,
		fft: fft, fftInv: fftInv, dif: dif, dit: dit,
		withTasks: withTasks, onCoset: onCoset,
		serial: [2][]Opt{{one}, {one, onCoset}},
		shift:  shift, mulv: mulv, exp: exp,
	}
}

func (g *gnarkOps[E, Dec, Opt]) name() string        { return g.field }
func (g *gnarkOps[E, Dec, Opt]) cardinality() uint64 { return g.card }
func (g *gnarkOps[E, Dec, Opt]) domain() any         { return g.d }

func (g *gnarkOps[E, Dec, Opt]) bitReverse(a []E, _ int) { utils.BitReverse(a) }
func (g *gnarkOps[E, Dec, Opt]) cosetShift() E           { return g.shift }
func (g *gnarkOps[E, Dec, Opt]) mulVec(a, b []E)         { g.mulv(a, b) }
func (g *gnarkOps[E, Dec, Opt]) expTable(w E, t []E)     { g.exp(w, t) }

func (g *gnarkOps[E, Dec, Opt]) transform(a []E, o Order, inverse, coset bool, tasks int) {
	dec := g.dif
	if o == DIT {
		dec = g.dit
	}
	var opts []Opt
	switch {
	case tasks <= 1 && coset:
		opts = g.serial[1]
	case tasks <= 1:
		opts = g.serial[0]
	case coset:
		opts = []Opt{g.withTasks(tasks), g.onCoset}
	default:
		opts = []Opt{g.withTasks(tasks)}
	}
	if inverse {
		g.fftInv(a, dec, opts...)
	} else {
		g.fft(a, dec, opts...)
	}
	if o == Natural {
		utils.BitReverse(a)
	}
}

func newBN254Ops(d *bn254fft.Domain) (*gnarkOps[fr.Element, bn254fft.Decimation, bn254fft.Option], error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil bn254 domain", ErrDomain)
	}
	v := domainView[fr.Element]{
		field: "bn254", card: d.Cardinality,
		gen: d.Generator, genInv: d.GeneratorInv, cardInv: d.CardinalityInv,
		shift: d.FrMultiplicativeGen, shiftInv: d.FrMultiplicativeGenInv,
		twiddles: orNil(d.Twiddles()), twiddlesInv: orNil(d.TwiddlesInv()),
		cosetTable: orNil(d.CosetTable()), cosetTableInv: orNil(d.CosetTableInv()),
		generator: bn254fft.Generator,
	}
	if err := checkDomain(&v); err != nil {
		return nil, err
	}
	return newGnarkOps("bn254", d, d.Cardinality, d.FFT, d.FFTInverse,
		bn254fft.DIF, bn254fft.DIT, bn254fft.WithNbTasks, bn254fft.OnCoset(),
		d.FrMultiplicativeGen, func(a, b []fr.Element) { v := fr.Vector(a); v.Mul(a, b) }, bn254fft.BuildExpTable), nil
}

func newBabyBearOps(d *babybearfft.Domain) (*gnarkOps[babybear.Element, babybearfft.Decimation, babybearfft.Option], error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil babybear domain", ErrDomain)
	}
	v := domainView[babybear.Element]{
		field: "babybear", card: d.Cardinality,
		gen: d.Generator, genInv: d.GeneratorInv, cardInv: d.CardinalityInv,
		shift: d.FrMultiplicativeGen, shiftInv: d.FrMultiplicativeGenInv,
		twiddles: orNil(d.Twiddles()), twiddlesInv: orNil(d.TwiddlesInv()),
		cosetTable: orNil(d.CosetTable()), cosetTableInv: orNil(d.CosetTableInv()),
		generator: babybearfft.Generator,
	}
	if err := checkDomain(&v); err != nil {
		return nil, err
	}
	return newGnarkOps("babybear", d, d.Cardinality, d.FFT, d.FFTInverse,
		babybearfft.DIF, babybearfft.DIT, babybearfft.WithNbTasks, babybearfft.OnCoset(),
		d.FrMultiplicativeGen, func(a, b []babybear.Element) { v := babybear.Vector(a); v.Mul(a, b) }, babybearfft.BuildExpTable), nil
}

func newKoalaBearOps(d *koalabearfft.Domain) (*gnarkOps[koalabear.Element, koalabearfft.Decimation, koalabearfft.Option], error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil koalabear domain", ErrDomain)
	}
	v := domainView[koalabear.Element]{
		field: "koalabear", card: d.Cardinality,
		gen: d.Generator, genInv: d.GeneratorInv, cardInv: d.CardinalityInv,
		shift: d.FrMultiplicativeGen, shiftInv: d.FrMultiplicativeGenInv,
		twiddles: orNil(d.Twiddles()), twiddlesInv: orNil(d.TwiddlesInv()),
		cosetTable: orNil(d.CosetTable()), cosetTableInv: orNil(d.CosetTableInv()),
		generator: koalabearfft.Generator,
	}
	if err := checkDomain(&v); err != nil {
		return nil, err
	}
	return newGnarkOps("koalabear", d, d.Cardinality, d.FFT, d.FFTInverse,
		koalabearfft.DIF, koalabearfft.DIT, koalabearfft.WithNbTasks, koalabearfft.OnCoset(),
		d.FrMultiplicativeGen, func(a, b []koalabear.Element) { v := koalabear.Vector(a); v.Mul(a, b) }, koalabearfft.BuildExpTable), nil
}

// Compile-time checks: every adapter implements fieldOps for its element.
var (
	_ fieldOps[fr.Element]        = (*gnarkOps[fr.Element, bn254fft.Decimation, bn254fft.Option])(nil)
	_ fieldOps[babybear.Element]  = (*gnarkOps[babybear.Element, babybearfft.Decimation, babybearfft.Option])(nil)
	_ fieldOps[koalabear.Element] = (*gnarkOps[koalabear.Element, koalabearfft.Decimation, koalabearfft.Option])(nil)
)
