package prover

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
)

// Ext is the set of challenge-field types, one per trace field: the field a
// prover draws its challenges from (combination coefficients, out-of-domain
// points), large enough that a random linear combination or a random point
// is sound. Each is an extension of its trace field, and the trace's
// elements embed into it:
//
//	trace field   challenge field            type                       size
//	GF(2^64)      GF(2^128) = GF(2^64)[y]/(y²+y+x^63)  gf128.Element    128 bits
//	Goldilocks    Goldilocks[u]/(u²−7)       goldilocks/extensions.E2   128 bits
//	BabyBear      BabyBear⁴ (u² = 11, v² = u) babybear/extensions.E4    124 bits
//	KoalaBear     KoalaBear⁴ (u² = 3, v² = u) koalabear/extensions.E4   124 bits
//	BN254         the field itself           fr.Element                 254 bits
//
// The prime extensions are gnark-crypto's own types, as they are (their
// coordinates in Montgomery form); BN254 needs none.
type Ext interface {
	gf128.Element | glext.E2 | bbext.E4 | kbext.E4 | fr.Element
}

// ErrField is wrapped by the errors of the functions that take a challenge
// of type X for a trace of type E when X is not E's challenge field (see
// Ext), such as a gf128.Element point for a BabyBear commitment.
var ErrField = errors.New("prover: challenge of the wrong field")

// ExtFieldOf returns the trace field whose challenge field is X.
func ExtFieldOf[X Ext]() Field {
	var z X
	switch any(z).(type) {
	case gf128.Element:
		return GF64
	case glext.E2:
		return Goldilocks
	case bbext.E4:
		return BabyBear
	case kbext.E4:
		return KoalaBear
	default:
		return BN254
	}
}

// checkExt returns an error wrapping ErrField unless X is E's challenge
// field; op names the caller.
func checkExt[E Element, X Ext](op string) error {
	if f, x := FieldOf[E](), ExtFieldOf[X](); f != x {
		var z X
		return fmt.Errorf("prover: %s: a %T challenge is for %v traces, not %v: %w", op, z, x, f, ErrField)
	}
	return nil
}
