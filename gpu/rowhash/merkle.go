package rowhash

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/gpu"
	gp2 "github.com/gfpoly/gfpoly/gpu/poseidon2"
	"github.com/gfpoly/gfpoly/prover/merkle"
	p2 "github.com/gfpoly/gfpoly/prover/poseidon2"
)

// ErrHash is wrapped by NewMerkle's error for a hash whose trees the
// kernels do not build.
var ErrHash = errors.New("rowhash: the device does not build trees of this hash")

// FieldSpec returns hs, a field hash over E's rows (merkle.Poseidon2 or
// merkle.FieldHasher), in the form of the field trees' kernels (NewField),
// or nil and the reason the device does not run it: another field, a
// width or round count without kernels, digests of another size.
func FieldSpec[E Element](hs merkle.Hasher) (*gp2.TreeSpec, string) {
	var z E
	var ts gp2.TreeSpec
	var err error
	switch any(z).(type) {
	case babybear.Element:
		ts, err = fieldSpec[babybear.Element](hs)
	case koalabear.Element:
		ts, err = fieldSpec[koalabear.Element](hs)
	case goldilocks.Element:
		ts, err = fieldSpec[goldilocks.Element](hs)
	default:
		name, _, _ := elemType[E]()
		return nil, "not a field hash over " + name
	}
	if err == nil && ts.DigestBytes() != DigestSize {
		err = fmt.Errorf("digests of %d bytes, the GPU's trees take %d", ts.DigestBytes(), DigestSize)
	}
	if err != nil {
		return nil, err.Error()
	}
	return &ts, ""
}

func fieldSpec[F p2.Element](hs merkle.Hasher) (gp2.TreeSpec, error) {
	leaf, node, ok := merkle.FieldParts[F](hs)
	if !ok {
		return gp2.TreeSpec{}, fmt.Errorf("%v is not a field hash over this field", hs)
	}
	return gp2.TreeSpecOf(leaf, node)
}

// NewMerkle returns a Hasher of rows rows that builds the trees package
// prover/merkle builds with hs: New with merkle's tags for the default
// SHA-256 tree, NewField for a field hash the kernels run. Any other hash
// returns an error wrapping ErrHash with the reason; rows and the device
// as New's.
func NewMerkle[E Element](d *gpu.Device, rows int, hs merkle.Hasher) (*Hasher[E], error) {
	if hs.Default() {
		return New[E](d, rows, merkle.LeafTag, merkle.NodeTag)
	}
	ts, why := FieldSpec[E](hs)
	if ts == nil {
		return nil, fmt.Errorf("rowhash: %v: %s: %w", hs, why, ErrHash)
	}
	return NewField[E](d, rows, *ts)
}
