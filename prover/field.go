package prover

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Element is the set of element types a trace can hold: GF(2^64) and the
// gnark-crypto prime fields, as they are (the prime types in Montgomery
// form). It is package merkle's, whose trees commit to the traces.
type Element = merkle.Element

// Field names the field of a trace. Its numbering is the field byte of the
// MultiOpening encoding.
type Field int

// The fields a trace can be over.
const (
	GF64       Field = iota // GF(2^64), gf64.Element
	Goldilocks              // p = 2^64 − 2^32 + 1, goldilocks.Element
	BabyBear                // p = 2^31 − 2^27 + 1, babybear.Element
	KoalaBear               // p = 2^31 − 2^24 + 1, koalabear.Element
	BN254                   // the BN254 scalar field, fr.Element
)

// Fields lists every field, in the order of the constants.
var Fields = []Field{GF64, Goldilocks, BabyBear, KoalaBear, BN254}

// String returns the field's short name ("gf64", "goldilocks", "babybear",
// "koalabear", "bn254").
func (f Field) String() string {
	switch f {
	case GF64:
		return "gf64"
	case Goldilocks:
		return "goldilocks"
	case BabyBear:
		return "babybear"
	case KoalaBear:
		return "koalabear"
	case BN254:
		return "bn254"
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// ParseField returns the field with the given short name (see Field.String).
func ParseField(name string) (Field, error) {
	for _, f := range Fields {
		if f.String() == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("prover: unknown field %q (want gf64, goldilocks, babybear, koalabear or bn254)", name)
}

// ElementBytes returns the size of one element in the leaf encoding, which is
// also its size in memory: 8 for gf64 and Goldilocks, 4 for BabyBear and
// KoalaBear, 32 for BN254 (merkle.ElementBytes).
func (f Field) ElementBytes() int {
	switch f {
	case GF64, Goldilocks:
		return 8
	case BabyBear, KoalaBear:
		return 4
	case BN254:
		return fr.Bytes
	}
	return 0
}

// FieldOf returns the field of the element type E.
func FieldOf[E Element]() Field {
	var z E
	switch any(z).(type) {
	case gf64.Element:
		return GF64
	case goldilocks.Element:
		return Goldilocks
	case babybear.Element:
		return BabyBear
	case koalabear.Element:
		return KoalaBear
	default:
		return BN254
	}
}

// RandomTrace returns a trace of cols columns of 2^logRows uniformly random
// elements of E's field drawn from a ChaCha8 stream seeded with seed, for
// tests, examples and benchmarks.
func RandomTrace[E Element](logRows, cols int, seed uint64) (Trace[E], error) {
	if logRows < 0 || logRows > MaxLogRows {
		return nil, fmt.Errorf("prover: RandomTrace: log2 rows %d outside 0..%d: %w", logRows, MaxLogRows, ErrShape)
	}
	if cols <= 0 {
		return nil, fmt.Errorf("prover: RandomTrace: %d columns: %w", cols, ErrShape)
	}
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	r := rand.New(rand.NewChaCha8(s))
	n := 1 << logRows
	backing := make([]E, n*cols)
	t := make(Trace[E], cols)
	for c := range t {
		t[c] = backing[c*n : (c+1)*n : (c+1)*n]
		randomElements(t[c], r)
	}
	return t, nil
}

// randomElements fills dst with uniform elements of E's field drawn from r.
func randomElements[E Element](dst []E, r *rand.Rand) {
	switch d := any(dst).(type) {
	case []gf64.Element:
		for i := range d {
			d[i] = gf64.Element(r.Uint64())
		}
	case []goldilocks.Element:
		q := goldilocks.Modulus().Uint64()
		for i := range d {
			// Rejection sampling keeps the distribution uniform.
			for {
				v := r.Uint64()
				if v < q {
					d[i].SetUint64(v)
					break
				}
			}
		}
	case []babybear.Element:
		q := babybear.Modulus().Uint64()
		for i := range d {
			d[i].SetUint64(r.Uint64N(q))
		}
	case []koalabear.Element:
		q := koalabear.Modulus().Uint64()
		for i := range d {
			d[i].SetUint64(r.Uint64N(q))
		}
	case []fr.Element:
		var b [fr.Bytes]byte
		for i := range d {
			for {
				for j := 0; j < fr.Bytes; j += 8 {
					binary.BigEndian.PutUint64(b[j:], r.Uint64())
				}
				b[0] &= 0x3f // the modulus has 254 bits
				if e, err := fr.BigEndian.Element(&b); err == nil {
					d[i] = e
					break
				}
			}
		}
	}
}
