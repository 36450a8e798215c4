package prover_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
	ts "github.com/gfpoly/gfpoly/prover/transcript"
)

// BenchmarkOpen opens a committed trace of 2^20 rows × 32 columns at
// blowup 4 at two points (z, z·ω), at 100 conjectured bits: the opening
// alone (evaluations, DEEP, folds, layer trees, grinding, queries), then
// its verification.
func BenchmarkOpen(b *testing.B) {
	for _, lr := range []int{16, 20} {
		b.Run(fmt.Sprintf("gf64/2^%d×32", lr), func(b *testing.B) { benchOpen[gf64.Element, gf128.Element](b, fri.GF64, lr, 32) })
		b.Run(fmt.Sprintf("babybear/2^%d×32", lr), func(b *testing.B) { benchOpen[babybear.Element, bbext.E4](b, fri.BabyBear, lr, 32) })
		b.Run(fmt.Sprintf("goldilocks/2^%d×32", lr), func(b *testing.B) { benchOpen[goldilocks.Element, glext.E2](b, fri.Goldilocks, lr, 32) })
	}
}

func benchOpen[E prover.Element, X fri.Challenge](b *testing.B, f fri.Field, logRows, cols int) {
	enc, err := prover.New[E](prover.WithBlowup(4))
	require.NoError(b, err)
	defer enc.Close()
	tc, err := prover.RandomTrace[E](logRows, cols, 1)
	require.NoError(b, err)
	c, err := enc.Commit(tc)
	require.NoError(b, err)
	defer c.Close()
	cfg, err := fri.NewConfig(f, 100, 2)
	require.NoError(b, err)
	start := func() (*ts.Transcript, []X) {
		tr, err := ts.New("bench")
		require.NoError(b, err)
		tr.AbsorbRoot("trace", c.Root())
		return tr, drawPoints[X](b, tr, 2)
	}
	// One proof before the sub-benchmarks, so that "verify" runs alone too.
	tr0, pts := start()
	p, err := fri.Open(tr0, cfg, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: pts})
	require.NoError(b, err)
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			var tr *ts.Transcript
			tr, pts = start()
			p, err = fri.Open(tr, cfg, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: pts})
			require.NoError(b, err)
		}
		b.ReportMetric(float64(p.Sizes().Total), "proof-bytes")
	})
	st := []fri.Statement[X]{{Root: c.Root(), LogRows: logRows, Columns: cols, Points: pts}}
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			tr, _ := start()
			require.NoError(b, fri.Verify(tr, cfg, st, p))
		}
	})
}

// BenchmarkOnePolynomial is the peer's shape (Linea's FRI over KoalaBear):
// one polynomial of degree < 2^n, blowup 4, 50 queries, no grinding, from
// its coefficients' evaluations to the proof: commit (LDE + tree) and open.
func BenchmarkOnePolynomial(b *testing.B) {
	p2, err := merkle.Poseidon2[koalabear.Element](poseidon2.Plonky3, 16)
	require.NoError(b, err)
	for _, hash := range []struct {
		name string
		hs   merkle.Hasher
	}{{"sha256", merkle.Hasher{}}, {"poseidon2", p2}} {
		for _, lr := range []int{16, 18, 20} {
			b.Run(fmt.Sprintf("koalabear/%s/2^%d", hash.name, lr), func(b *testing.B) {
				enc, err := prover.New[koalabear.Element](prover.WithBlowup(4), prover.WithMerkle(hash.hs))
				require.NoError(b, err)
				defer enc.Close()
				tc, err := prover.RandomTrace[koalabear.Element](lr, 1, 1)
				require.NoError(b, err)
				cfg := fri.Config{LogBlowup: 2, Arity: 8, LogFinalDegree: 3, Queries: 50, Merkle: hash.hs}
				var p *fri.Proof[koalabear.Element, kbext.E4]
				for b.Loop() {
					c, err := enc.Commit(tc)
					require.NoError(b, err)
					tr, err := ts.New("bench")
					require.NoError(b, err)
					tr.AbsorbRoot("trace", c.Root())
					p, err = fri.Open(tr, cfg, fri.Batch[koalabear.Element, kbext.E4]{Oracle: prover.Oracle[kbext.E4](c), Points: drawPoints[kbext.E4](b, tr, 1)})
					require.NoError(b, err)
					c.Close()
				}
				b.ReportMetric(float64(p.Sizes().Total), "proof-bytes")
			})
		}
	}
}

// BenchmarkProofSize opens a committed trace of 2^20 rows × 32 columns at
// blowup 4 at two points with each arity, at 100 conjectured bits, and
// reports the bytes of each part of the proof (Sizes).
func BenchmarkProofSize(b *testing.B) {
	b.Run("gf64", func(b *testing.B) { benchProofSize[gf64.Element, gf128.Element](b, fri.GF64) })
	b.Run("babybear", func(b *testing.B) { benchProofSize[babybear.Element, bbext.E4](b, fri.BabyBear) })
}

func benchProofSize[E prover.Element, X fri.Challenge](b *testing.B, f fri.Field) {
	const logRows, cols = 20, 32
	enc, err := prover.New[E](prover.WithBlowup(4))
	require.NoError(b, err)
	defer enc.Close()
	tc, err := prover.RandomTrace[E](logRows, cols, 1)
	require.NoError(b, err)
	c, err := enc.Commit(tc)
	require.NoError(b, err)
	defer c.Close()
	for _, arity := range []int{2, 4, 8, 16} {
		b.Run(fmt.Sprintf("arity%d", arity), func(b *testing.B) {
			cfg, err := fri.NewConfig(f, 100, 2)
			require.NoError(b, err)
			cfg.Arity = arity
			var p *fri.Proof[E, X]
			for b.Loop() {
				tr, err := ts.New("bench")
				require.NoError(b, err)
				tr.AbsorbRoot("trace", c.Root())
				p, err = fri.Open(tr, cfg, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: drawPoints[X](b, tr, 2)})
				require.NoError(b, err)
			}
			s := p.Sizes()
			b.ReportMetric(float64(s.Total), "total-B")
			b.ReportMetric(float64(s.Trace), "trace-B")
			b.ReportMetric(float64(s.Layers), "layers-B")
			b.ReportMetric(float64(s.Values+s.Final), "values+final-B")
		})
	}
}
