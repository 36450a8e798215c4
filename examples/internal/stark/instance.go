package stark

import (
	"encoding"
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// Fields are the trace fields the STARK runs over, binary first: GF(2^64)
// (challenges in GF(2^128)), BabyBear and KoalaBear (E4), Goldilocks (E2),
// BN254 (itself).
var Fields = []fri.Field{fri.GF64, fri.BabyBear, fri.KoalaBear, fri.Goldilocks, fri.BN254}

// ParseField returns the field of Fields whose name (fri.Field.String:
// gf64, babybear, koalabear, goldilocks, bn254) is name.
func ParseField(name string) (fri.Field, error) {
	var names []string
	for _, f := range Fields {
		if f.String() == name {
			return f, nil
		}
		names = append(names, f.String())
	}
	return 0, fmt.Errorf("stark: field %q: want one of %s", name, strings.Join(names, ", "))
}

// Instance is the STARK of one field over one trace domain, with its honest
// trace, behind an interface that names no field type: for programs that run
// every field (examples/compare). Its methods are those of Prover, Verify and
// Security for that field, the trace and the public output fixed.
type Instance interface {
	Field() fri.Field
	// LogRows is the trace domain's dimension k; Rows the trace's length
	// (2^k, or 2^k − 1 over GF(2^64)).
	LogRows() int
	Rows() int
	// Degree is [X : E], the challenge field's degree over the trace field.
	Degree() int
	Config() fri.Config
	// Backend is the prover's encoder (its name, device, device memory).
	Backend() prover.Backend
	// Prove proves the honest trace; Phases returns the last proof's
	// times, Sizes the sizes of its opening's parts.
	Prove() (encoding.BinaryMarshaler, error)
	Phases() Phases
	Sizes() fri.Sizes
	// Verify decodes a proof's bytes and verifies it, as a verifier that
	// holds the Config, the trace height and the public output does.
	Verify(proof []byte) error
	// Security is Security's two figures for the instance.
	Security() (friBits, algebraicBits float64, err error)
	Close() error
}

// New returns the instance of field over the trace domain of dimension
// logRows, proved with cfg by an encoder configured by opts (NewProver),
// and prepared (Prover.Prepare) so that its first Prove costs what later
// ones do.
func New(field fri.Field, logRows int, cfg fri.Config, opts ...prover.Option) (Instance, error) {
	switch field {
	case fri.GF64:
		return newInstance[gf64.Element, gf128.Element](logRows, cfg, opts)
	case fri.BabyBear:
		return newInstance[babybear.Element, bbext.E4](logRows, cfg, opts)
	case fri.KoalaBear:
		return newInstance[koalabear.Element, kbext.E4](logRows, cfg, opts)
	case fri.Goldilocks:
		return newInstance[goldilocks.Element, glext.E2](logRows, cfg, opts)
	case fri.BN254:
		return newInstance[fr.Element, fr.Element](logRows, cfg, opts)
	}
	return nil, fmt.Errorf("stark: no STARK over %v", field)
}

type instance[E fri.Element, X fri.Challenge] struct {
	p       *Prover[E, X]
	logRows int
	trace   prover.Trace[E]
	output  E
	last    *Proof[E, X]
}

func newInstance[E fri.Element, X fri.Challenge](logRows int, cfg fri.Config, opts []prover.Option) (*instance[E, X], error) {
	trace, output, err := Fibonacci[E, X](logRows)
	if err != nil {
		return nil, err
	}
	p, err := NewProver[E, X](cfg, opts...)
	if err != nil {
		return nil, err
	}
	if err := p.Prepare(logRows); err != nil {
		p.Close()
		return nil, err
	}
	return &instance[E, X]{p: p, logRows: logRows, trace: trace, output: output}, nil
}

func (in *instance[E, X]) Field() fri.Field        { return in.p.airs[in.logRows].f.field() }
func (in *instance[E, X]) LogRows() int            { return in.logRows }
func (in *instance[E, X]) Rows() int               { return len(in.trace[0]) }
func (in *instance[E, X]) Degree() int             { return in.p.airs[in.logRows].f.degree() }
func (in *instance[E, X]) Config() fri.Config      { return in.p.cfg }
func (in *instance[E, X]) Backend() prover.Backend { return in.p.enc }
func (in *instance[E, X]) Phases() Phases          { return in.p.phases }
func (in *instance[E, X]) Close() error            { return in.p.Close() }

func (in *instance[E, X]) Prove() (encoding.BinaryMarshaler, error) {
	p, err := in.p.Prove(in.trace, in.output)
	if err != nil {
		return nil, err
	}
	in.last = p
	return p, nil
}

func (in *instance[E, X]) Sizes() fri.Sizes {
	if in.last == nil {
		return fri.Sizes{}
	}
	return in.last.Opening.Sizes()
}

func (in *instance[E, X]) Verify(data []byte) error {
	var proof Proof[E, X]
	if err := proof.UnmarshalBinary(data); err != nil {
		return err
	}
	return Verify(in.p.cfg, in.logRows, in.output, &proof)
}

func (in *instance[E, X]) Security() (friBits, algebraicBits float64, err error) {
	return Security[E, X](in.p.cfg, in.logRows)
}
