//go:build baselines

package vortex

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/consensys/gnark-crypto/field/koalabear/sis"
	kbvortex "github.com/consensys/gnark-crypto/field/koalabear/vortex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// TestPeer checks the peer's pieces against vortex itself on a small
// matrix: the codewords are vortex.Commit's encoded matrix, an MD16 leaf is
// the chain of CompressPoseidon2 over its column, a Sponge24 leaf is
// HashPoseidon2 of its column, the root is BuildMerkleTree's, and SIS is
// vortex.Commit's root.
func TestPeer(t *testing.T) {
	const logCols, rows, blowup = 5, 16, 4
	tr, err := prover.RandomTrace[koalabear.Element](logCols, rows, 7)
	require.NoError(t, err)
	key, err := sis.NewRSis(0, 9, 16, rows)
	require.NoError(t, err)
	prm, err := kbvortex.NewParams(1<<logCols, rows, key, blowup, 1)
	require.NoError(t, err)
	want, err := kbvortex.Commit(prm, tr)
	require.NoError(t, err)
	n := prm.SizeCodeWord()
	column := func(codewords []koalabear.Element, j int) []koalabear.Element {
		c := make([]koalabear.Element, rows)
		for r := range c {
			c[r] = codewords[r*n+j]
		}
		return c
	}
	for _, h := range []ColumnHash{MD16, Sponge24, SIS} {
		t.Run(h.String(), func(t *testing.T) {
			p, err := NewPeer(logCols, rows, blowup, h)
			require.NoError(t, err)
			root, _, err := p.Commit(tr)
			require.NoError(t, err)
			if h == SIS {
				assert.Equal(t, want.GetCommitment(), root)
				return
			}
			codewords := p.Encode(tr)
			require.Equal(t, want.EncodedMatrix, codewords, "codewords")
			leaves := p.Leaves(codewords)
			for _, j := range []int{0, 1, 15, 16, n - 1} {
				c := column(codewords, j)
				var leaf kbvortex.Hash
				if h == MD16 {
					for b := 0; b < rows; b += 8 {
						leaf = kbvortex.CompressPoseidon2(leaf, kbvortex.Hash(c[b:b+8]))
					}
				} else {
					leaf = kbvortex.HashPoseidon2(c)
				}
				assert.Equal(t, leaf, leaves[j], "leaf %d", j)
			}
			assert.Equal(t, kbvortex.BuildMerkleTree(slices.Clone(leaves), nil).Root(), root)
		})
	}
	_, err = NewPeer(logCols, 12, blowup, MD16)
	assert.Error(t, err, "12 polynomials")
}

// The benchmark's shape (issue 46): 64 KoalaBear polynomials of 2^16
// evaluations at blowup 4, an LDE of 2^18 rows × 64 columns, a tree over its
// 2^18 rows.
const (
	benchLogRows = 16
	benchCols    = 64
	benchBlowup  = 4
)

// BenchmarkCommit commits to the same trace with gfpoly (prover.New on the
// CPU backend, WithMerkle(merkle.Poseidon2(poseidon2.Gnark, width)) for
// widths 16 and 24) and with the vortex peer (MD16 and Sponge24 column
// hashes, and vortex.Commit with SIS), each after one untimed commitment of
// the same shape. encode-ms, hash-ms and tree-ms are the phases (gfpoly: the
// LDE, then the rows' hashes and the tree together in hash-ms;
// vortex.Commit: all in hash-ms).
func BenchmarkCommit(b *testing.B) {
	tr, err := prover.RandomTrace[koalabear.Element](benchLogRows, benchCols, 1)
	require.NoError(b, err)
	warmUp(b, tr)
	for _, width := range []int{16, 24} {
		b.Run(fmt.Sprintf("gfpoly/poseidon2-gnark/width=%d", width), func(b *testing.B) {
			hs, err := merkle.Poseidon2[koalabear.Element](poseidon2.Gnark, width)
			require.NoError(b, err)
			enc, err := prover.New[koalabear.Element](prover.WithBlowup(benchBlowup), prover.WithMerkle(hs))
			require.NoError(b, err)
			defer enc.Close()
			require.NoError(b, enc.Prepare(benchLogRows, benchCols))
			cm, err := enc.Commit(tr) // the first commitment, untimed (its LDE's first pages)
			require.NoError(b, err)
			require.NoError(b, cm.Close())
			var ph Phases
			for b.Loop() {
				cm, err := enc.Commit(tr)
				require.NoError(b, err)
				ph.Encode += cm.Timings.Encode
				ph.Hash += cm.Timings.Commit
				require.NoError(b, cm.Close())
			}
			report(b, ph)
		})
	}
	for _, h := range []ColumnHash{MD16, Sponge24, SIS} {
		b.Run("vortex/"+h.String(), func(b *testing.B) {
			p, err := NewPeer(benchLogRows, benchCols, benchBlowup, h)
			require.NoError(b, err)
			_, _, err = p.Commit(tr) // the first commitment, untimed, as gfpoly's
			require.NoError(b, err)
			var ph Phases
			for b.Loop() {
				_, q, err := p.Commit(tr)
				require.NoError(b, err)
				ph.Encode += q.Encode
				ph.Hash += q.Hash
				ph.Tree += q.Tree
			}
			report(b, ph)
		})
	}
}

// warmUp makes a few commitments of each side, untimed, so that the
// process's heap has grown to what they use before the first sub-benchmark
// (else that one pays for the page faults of the heap's growth).
func warmUp(b *testing.B, tr prover.Trace[koalabear.Element]) {
	hs, err := merkle.Poseidon2[koalabear.Element](poseidon2.Gnark, 16)
	require.NoError(b, err)
	enc, err := prover.New[koalabear.Element](prover.WithBlowup(benchBlowup), prover.WithMerkle(hs))
	require.NoError(b, err)
	defer enc.Close()
	p, err := NewPeer(benchLogRows, benchCols, benchBlowup, MD16)
	require.NoError(b, err)
	for range 3 {
		cm, err := enc.Commit(tr)
		require.NoError(b, err)
		require.NoError(b, cm.Close())
		_, _, err = p.Commit(tr)
		require.NoError(b, err)
	}
}

func report(b *testing.B, ph Phases) {
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(b.N) }
	b.ReportMetric(ms(ph.Encode), "encode-ms")
	b.ReportMetric(ms(ph.Hash), "hash-ms")
	b.ReportMetric(ms(ph.Tree), "tree-ms")
}
