package poseidon2

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	p2 "github.com/gfpoly/gfpoly/prover/poseidon2"
)

// ErrUnsupported is wrapped by the errors of SpecOf and TreeSpecOf for a
// permutation, sponge or compression the kernels do not run; the CPU
// (package prover/poseidon2) runs it.
var ErrUnsupported = errors.New("poseidon2: not supported on the GPU")

// Bounds of cuda/poseidon2.cu's parameter block.
const (
	maxFullRounds    = 8
	maxPartialRounds = 32
)

// Field names a field of the kernels.
type Field int

const (
	BabyBear Field = iota + 1
	KoalaBear
	Goldilocks
)

func (f Field) String() string {
	switch f {
	case BabyBear:
		return "BabyBear"
	case KoalaBear:
		return "KoalaBear"
	case Goldilocks:
		return "Goldilocks"
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// program is the name of the field's module (cuda.Poseidon2Program).
func (f Field) program() string {
	return map[Field]string{BabyBear: "babybear", KoalaBear: "koalabear", Goldilocks: "goldilocks"}[f]
}

// elemBytes is the size of an element in memory.
func (f Field) elemBytes() int {
	if f == Goldilocks {
		return 8
	}
	return 4
}

// widths are the widths the field's module has kernels for.
func (f Field) widths() []int {
	if f == Goldilocks {
		return []int{8, 12}
	}
	return []int{16, 24}
}

// FieldOf returns the field of E.
func FieldOf[E p2.Element]() Field {
	var z E
	switch any(z).(type) {
	case babybear.Element:
		return BabyBear
	case koalabear.Element:
		return KoalaBear
	}
	return Goldilocks
}

// Spec is one permutation as the kernels take it.
type Spec struct {
	Field Field
	Width int
	// params is the kernel parameter block (cuda/poseidon2.cu's P2Perm):
	// rf, rp, hl, 0 as 32-bit words, then the external constants
	// (maxFullRounds rows of Width), the internal constants
	// (maxPartialRounds) and the diagonal (Width), in the kernels' element
	// form: the Montgomery words for BabyBear and KoalaBear, canonical
	// values for Goldilocks.
	params []byte
}

// SpecOf returns the Spec of p, or an error wrapping ErrUnsupported for a
// width the kernels lack (the field's module has 16 and 24, or 8 and 12
// for Goldilocks) or more rounds than they hold.
func SpecOf[E p2.Element](p *p2.Permutation[E]) (Spec, error) {
	if p == nil {
		return Spec{}, fmt.Errorf("poseidon2: SpecOf a nil permutation: %w", ErrUnsupported)
	}
	f := FieldOf[E]()
	prm := p.Params()
	w := prm.Width
	ok := false
	for _, x := range f.widths() {
		ok = ok || x == w
	}
	if !ok {
		return Spec{}, fmt.Errorf("poseidon2: width %d over %v (the GPU has %v): %w", w, f, f.widths(), ErrUnsupported)
	}
	if prm.FullRounds > maxFullRounds || prm.PartialRounds > maxPartialRounds {
		return Spec{}, fmt.Errorf("poseidon2: %d full and %d partial rounds (the GPU holds %d and %d): %w",
			prm.FullRounds, prm.PartialRounds, maxFullRounds, maxPartialRounds, ErrUnsupported)
	}
	if prm.MDS != p2.MDSMat4 && prm.MDS != p2.HLMDSMat4 {
		return Spec{}, fmt.Errorf("poseidon2: matrix %d: %w", prm.MDS, ErrUnsupported)
	}
	eb := f.elemBytes()
	b := make([]byte, 16+eb*(maxFullRounds*w+maxPartialRounds+w))
	binary.LittleEndian.PutUint32(b[0:], uint32(prm.FullRounds))
	binary.LittleEndian.PutUint32(b[4:], uint32(prm.PartialRounds))
	if prm.MDS == p2.HLMDSMat4 {
		binary.LittleEndian.PutUint32(b[8:], 1)
	}
	put := func(at int, e E) {
		switch eb {
		case 4:
			binary.LittleEndian.PutUint32(b[16+4*at:], *(*uint32)(unsafe.Pointer(&e)))
		default:
			binary.LittleEndian.PutUint64(b[16+8*at:], (*goldilocks.Element)(unsafe.Pointer(&e)).Uint64())
		}
	}
	for r, row := range prm.ExternalConstants {
		for k, e := range row {
			put(r*w+k, e)
		}
	}
	for r, e := range prm.InternalConstants {
		put(maxFullRounds*w+r, e)
	}
	for k, e := range prm.InternalDiag {
		put(maxFullRounds*w+maxPartialRounds+k, e)
	}
	return Spec{Field: f, Width: w, params: b}, nil
}

// TreeSpec is a field Merkle tree's hashing as the kernels take it: a leaf
// is Leaf's sponge of rate Rate over the row, Out elements out; a node the
// compression by Node of two digests of Out elements, truncated or (Feed
// forward) gnark-crypto's feed-forward form. Digests are Out elements,
// canonical and big-endian, DigestBytes bytes.
type TreeSpec struct {
	Leaf, Node  Spec
	Rate, Out   int
	FeedForward bool
}

// DigestBytes returns the size of a digest in bytes.
func (t TreeSpec) DigestBytes() int { return t.Out * t.Leaf.Field.elemBytes() }

// TreeSpecOf returns the TreeSpec of a field tree with leaves hashed by leaf
// and nodes by node (merkle.FieldParts gives them for a merkle.Hasher), or
// an error wrapping ErrUnsupported where a permutation is not one the
// kernels run (SpecOf).
func TreeSpecOf[E p2.Element](leaf *p2.Sponge[E], node *p2.Compression[E]) (TreeSpec, error) {
	if leaf == nil || node == nil {
		return TreeSpec{}, fmt.Errorf("poseidon2: TreeSpecOf a nil sponge or compression: %w", ErrUnsupported)
	}
	ls, err := SpecOf(leaf.Permutation())
	if err != nil {
		return TreeSpec{}, fmt.Errorf("poseidon2: the leaves' %w", err)
	}
	ns, err := SpecOf(node.Permutation())
	if err != nil {
		return TreeSpec{}, fmt.Errorf("poseidon2: the nodes' %w", err)
	}
	if leaf.Out() != node.Chunk() {
		return TreeSpec{}, fmt.Errorf("poseidon2: sponge digests of %d elements, compression of %d: %w", leaf.Out(), node.Chunk(), ErrUnsupported)
	}
	return TreeSpec{Leaf: ls, Node: ns, Rate: leaf.Rate(), Out: leaf.Out(), FeedForward: node.Mode() == p2.FeedForward}, nil
}

// KernelParams returns the kernel parameter block of s (cuda/poseidon2.cu's
// P2Perm; gpu/rowhash launches the tree kernels with it).
func (s Spec) KernelParams() []byte { return s.params }
