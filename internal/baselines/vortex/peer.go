//go:build baselines

// Package vortex is the peer baseline of gfpoly's Poseidon2 trace commitment
// (issue 46): gnark-crypto v0.22.0's field/koalabear/vortex commitment of a
// matrix of KoalaBear polynomials with Poseidon2 column hashing, built from
// vortex's own exported pieces so that the peer is vortex's code doing what
// vortex does.
//
// vortex.Commit hashes each column of the encoded matrix with SIS, then each
// SIS digest with Poseidon2 into a Merkle leaf. Its WithColumnHash and
// WithMerkleHash options are ignored in v0.22.0 (NewParams builds its Config
// and drops it), and its non-SIS leaf path reads past an 8-element digest,
// so a Poseidon2 column hash cannot be asked of Commit. Peer does Commit's
// three steps with the Poseidon2 column hash in place of SIS:
//
//  1. Reed–Solomon encoding: Params.EncodeReedSolomon of every polynomial,
//     the polynomials spread over the cores with gnark-crypto's
//     parallel.Execute, as Commit does;
//  2. the column hash, 16 columns at a time on the AVX-512 kernels, as
//     Commit hashes its SIS digests: with MD16, CompressPoseidon2x16Columns
//     (16 Merkle–Damgård chains of the width-16 compression with feed-forward,
//     the SIMD form of poseidon2.NewMerkleDamgardHasher, the hash
//     WithColumnHash would take), on the columns' 16-leaf blocks laid out as
//     it reads them (a copy of 16 contiguous elements per polynomial); with
//     Sponge24, HashPoseidon2x16 (the width-24 sponge, rate 16, that turns
//     SIS digests into leaves) on the columns themselves, transposed;
//  3. BuildMerkleTree over the leaves (CompressPoseidon2 nodes).
//
// SIS is vortex.Commit itself (SIS column hash, Poseidon2 leaves), the
// commitment as vortex ships it, for reference. See README.md.
//
// The package builds with the baselines tag only (go test -tags baselines
// ./internal/baselines/vortex; .ci/run runs it), so that the README's
// go test ./... does not compile the peer.
package vortex

import (
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/consensys/gnark-crypto/field/koalabear/sis"
	kbvortex "github.com/consensys/gnark-crypto/field/koalabear/vortex"
	"github.com/consensys/gnark-crypto/parallel"
)

// ColumnHash is how Peer hashes a column of the encoded matrix into a leaf.
type ColumnHash int

const (
	MD16     ColumnHash = iota + 1 // CompressPoseidon2x16Columns: width-16 Merkle–Damgård, 8 elements a permutation
	Sponge24                       // HashPoseidon2x16: width-24 sponge, 16 elements a permutation
	SIS                            // vortex.Commit: SIS, then HashPoseidon2x16 over the SIS digest
)

func (h ColumnHash) String() string {
	switch h {
	case MD16:
		return "poseidon2-md16"
	case Sponge24:
		return "poseidon2-sponge24"
	case SIS:
		return "sis+poseidon2"
	}
	return fmt.Sprintf("ColumnHash(%d)", int(h))
}

// Phases are the durations of a commitment's steps (SIS: the whole of
// vortex.Commit in Hash).
type Phases struct {
	Encode, Hash, Tree time.Duration
}

// Peer commits to nbRows polynomials of 2^logCols coefficients each at a
// blowup, the way vortex does, with one column hash.
type Peer struct {
	params *kbvortex.Params
	hash   ColumnHash
	rows   int
}

// NewPeer returns the peer for nbRows polynomials (a multiple of 16) of
// 2^logCols evaluations (logCols ≥ 4) at blowup 2, 4 or 8.
func NewPeer(logCols, nbRows, blowup int, h ColumnHash) (*Peer, error) {
	if nbRows <= 0 || nbRows%16 != 0 || logCols < 4 {
		return nil, fmt.Errorf("vortex baseline: %d polynomials of 2^%d: want a multiple of 16 of at least 2^4", nbRows, logCols)
	}
	var key *sis.RSis
	if h == SIS {
		var err error
		// The parameters of vortex's own tests: degree 2^9, 16-bit limbs.
		if key, err = sis.NewRSis(0, 9, 16, nbRows); err != nil {
			return nil, err
		}
	}
	prm, err := kbvortex.NewParams(1<<logCols, nbRows, key, blowup, 1)
	if err != nil {
		return nil, err
	}
	return &Peer{params: prm, hash: h, rows: nbRows}, nil
}

// Commit commits to input (nbRows polynomials, each its 2^logCols
// evaluations, as vortex.Commit takes them) and returns the root.
func (p *Peer) Commit(input [][]koalabear.Element) (kbvortex.Hash, Phases, error) {
	var ph Phases
	if len(input) != p.rows {
		return kbvortex.Hash{}, ph, fmt.Errorf("vortex baseline: %d polynomials, want %d", len(input), p.rows)
	}
	if p.hash == SIS {
		t := time.Now()
		ps, err := kbvortex.Commit(p.params, input)
		if err != nil {
			return kbvortex.Hash{}, ph, err
		}
		ph.Hash = time.Since(t)
		return ps.GetCommitment(), ph, nil
	}
	t := time.Now()
	codewords := p.Encode(input)
	ph.Encode = time.Since(t)
	t = time.Now()
	leaves := p.Leaves(codewords)
	ph.Hash = time.Since(t)
	t = time.Now()
	tree := kbvortex.BuildMerkleTree(leaves, nil)
	ph.Tree = time.Since(t)
	return tree.Root(), ph, nil
}

// Encode is Commit's step 1: the codewords of the polynomials, one after
// the other (codeword i at [i·N, (i+1)·N), N = blowup·2^logCols).
func (p *Peer) Encode(input [][]koalabear.Element) []koalabear.Element {
	n := p.params.SizeCodeWord()
	codewords := make([]koalabear.Element, len(input)*n)
	parallel.Execute(len(input), func(start, end int) {
		for i := start; i < end; i++ {
			p.params.EncodeReedSolomon(input[i], codewords[i*n:(i+1)*n])
		}
	})
	return codewords
}

// Leaves is step 2: the hash of every column of the codewords (position j
// of every codeword), 16 columns at a time over the cores.
func (p *Peer) Leaves(codewords []koalabear.Element) []kbvortex.Hash {
	n, rows := p.params.SizeCodeWord(), p.rows
	leaves := make([]kbvortex.Hash, n)
	parallel.Execute(n/16, func(start, end int) {
		buf := make([]koalabear.Element, 16*rows)
		for blk := start; blk < end; blk++ {
			b := 16 * blk
			switch p.hash {
			case MD16: // buf[r·16 + lane] = column b+lane, row r
				for r := range rows {
					copy(buf[16*r:16*(r+1)], codewords[r*n+b:r*n+b+16])
				}
				kbvortex.CompressPoseidon2x16Columns(buf, rows, leaves[b:b+16])
			case Sponge24: // buf[lane·rows + r] = column b+lane, row r
				for r := range rows {
					row := codewords[r*n+b : r*n+b+16]
					for lane := range 16 {
						buf[lane*rows+r] = row[lane]
					}
				}
				kbvortex.HashPoseidon2x16(buf, leaves[b:b+16], rows)
			}
		}
	})
	return leaves
}
