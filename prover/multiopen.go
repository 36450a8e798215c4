package prover

import (
	"fmt"
	"hash"
	"slices"

	"github.com/gfpoly/gfpoly/prover/merkle"
)

// MultiOpening is a set of opened rows of one commitment with the tree
// nodes that, together with the rows, recompute its root, each node sent
// once: package merkle's, where its node order, its test vector and its
// versioned binary encoding (MarshalBinary, UnmarshalBinary; the field byte
// is the Field constant) are documented.
type MultiOpening[E Element] = merkle.MultiOpening[E]

// OpenMulti returns the rows at the given indices and the tree nodes that
// authenticate them together. The indices may come in any order and
// repeat: the opening holds each row once, in increasing index order. An
// index outside 0..Rows()−1 is an error wrapping ErrIndex, no index at all
// one wrapping ErrShape. It works for every commitment: in host memory
// the nodes are read from the tree (the missing leaf digests hashed from
// their rows); kept on one or several devices, they are taken, each once,
// from the paths that Open gathers there.
func (c *Commitment[E]) OpenMulti(indices []int) (*MultiOpening[E], error) {
	n := c.Rows()
	if len(indices) == 0 {
		return nil, fmt.Errorf("prover: OpenMulti: no indices: %w", ErrShape)
	}
	for _, i := range indices {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("prover: OpenMulti: row %d of %d: %w", i, n, ErrIndex)
		}
	}
	t, err := c.hostTree("OpenMulti")
	if err != nil {
		return nil, err
	}
	if t != nil {
		return t.OpenMulti(indices)
	}
	// On the device: the rows and their paths, gathered there.
	idx := slices.Clone(indices)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	o, err := c.Open(idx)
	if err != nil {
		return nil, err
	}
	m, err := o.Merge()
	if err != nil {
		return nil, fmt.Errorf("prover: OpenMulti: %w", err)
	}
	return m, nil
}

// VerifyMulti checks that o.Rows[k] is row o.Indices[k] of a commitment
// with the given root over numRows rows (a power of two), using o.Nodes,
// with the hash h (nil: SHA-256). It needs no encoder. It is
// merkle.VerifyMulti, which says what each error wraps: ErrVerify for rows
// that do not recompute the root, ErrIndex, ErrShape, and ErrHash when h
// fails (see WithHash), never nil then.
func VerifyMulti[E Element](root []byte, numRows int, o *MultiOpening[E], h func() hash.Hash) error {
	return merkle.VerifyMulti(root, numRows, o, h)
}

// VerifyMultiWith is VerifyMulti with the merkle.Hasher of the encoder
// (WithMerkle): a byte hash or a field hash. It is merkle.VerifyMultiWith:
// its errors are VerifyMulti's, and one wrapping merkle.ErrField for a
// field hash over another field. A field hash's rows are not tagged and its
// sponge does not pad: the verifier checks that the rows have the
// commitment's number of columns.
func VerifyMultiWith[E Element](root []byte, numRows int, o *MultiOpening[E], hs merkle.Hasher) error {
	return merkle.VerifyMultiWith(root, numRows, o, hs)
}
