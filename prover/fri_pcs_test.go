package prover_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
	ts "github.com/gfpoly/gfpoly/prover/transcript"
)

var large = flag.Bool("fri.large", false, "run the completeness sweep up to 2^20 trace rows")

// drawPoints draws k points from the transcript, as a STARK draws its
// out-of-domain points after absorbing the roots.
func drawPoints[X fri.Challenge](t testing.TB, tr *ts.Transcript, k int) []X {
	out := make([]X, k)
	for i := range out {
		var err error
		out[i], err = ts.Draw[X](tr, "z")
		require.NoError(t, err)
	}
	return out
}

// commitAndOpen commits a random trace of each height with enc, draws two
// points per commitment from the transcript and opens them all.
func commitAndOpen[E prover.Element, X fri.Challenge](t testing.TB, enc prover.Encoder[E], cfg fri.Config, heights []int, cols int, seed uint64) ([]fri.Statement[X], *fri.Proof[E, X]) {
	tr, err := ts.New("fri external test")
	require.NoError(t, err)
	var batches []fri.Batch[E, X]
	for k, h := range heights {
		tc, err := prover.RandomTrace[E](h, cols+k, seed+uint64(k))
		require.NoError(t, err)
		c, err := enc.Commit(tc)
		require.NoError(t, err)
		defer c.Close() // at the end of this proof: a sweep holds one proof's commitments at a time
		tr.AbsorbRoot("trace", c.Root())
		batches = append(batches, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: drawPoints[X](t, tr, 2)})
	}
	verifierState := tr.Clone()
	p, err := fri.Open(tr, cfg, batches...)
	require.NoError(t, err)
	stmts := make([]fri.Statement[X], len(batches))
	for b, bt := range batches {
		stmts[b] = bt.Statement(cfg)
		require.Equal(t, heights[b], stmts[b].LogRows)
	}
	require.NoError(t, fri.Verify(verifierState, cfg, stmts, p))
	return stmts, p
}

func TestCompleteness(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testCompleteness[gf64.Element, gf128.Element](t) })
	t.Run("babybear", func(t *testing.T) { testCompleteness[babybear.Element, bbext.E4](t) })
	t.Run("koalabear", func(t *testing.T) { testCompleteness[koalabear.Element, kbext.E4](t) })
	t.Run("goldilocks", func(t *testing.T) { testCompleteness[goldilocks.Element, glext.E2](t) })
	t.Run("bn254", func(t *testing.T) { testCompleteness[fr.Element, fr.Element](t) })
}

// testCompleteness proves and verifies traces of 2^0 … 2^8 rows (2^10 under
// GFPOLY_LONG, 2^20 with -fri.large), one height or three in a proof, at
// every blowup and arity.
func testCompleteness[E prover.Element, X fri.Challenge](t *testing.T) {
	top := testutil.Sweep(8, 8, 10)
	if *large {
		top = 20
		// BN254 at 2^20 rows and blowup 16 holds ~9 GiB; keep the garbage
		// of the previous proofs from doubling it.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(10 << 30))
	}
	for _, lb := range []int{1, 2, 3, 4} {
		opts := []prover.Option{prover.WithBlowup(1 << lb)}
		if _, ok := any(*new(E)).(gf64.Element); ok {
			opts = append(opts, prover.WithBinaryDomains(fri.NestedBinaryDomains(top)))
		}
		enc, err := prover.New[E](opts...)
		require.NoError(t, err)
		for _, arity := range []int{2, 4, 8, 16} {
			cfg := fri.Config{LogBlowup: lb, Arity: arity, LogFinalDegree: 2, Queries: 30, GrindingBits: 2, AllowInsecure: true,
				BinaryDomains: fri.NestedBinaryDomains(top)}
			for h := 0; h <= top; h += 1 + h/3 {
				name := fmt.Sprintf("blowup%d/arity%d/rows2^%d", 1<<lb, arity, h)
				heights := []int{h}
				if h >= 3 {
					heights = append(heights, h-3, h-1) // several heights in one proof
				}
				cfg.LogFinalDegree = min(2, slices.Min(heights))
				_, p := commitAndOpen[E, X](t, enc, cfg, heights, 3, uint64(h))
				b, err := p.MarshalBinary()
				require.NoError(t, err, name)
				assert.Equal(t, p.Sizes().Total, len(b), name)
			}
		}
		require.NoError(t, enc.Close())
	}
}

// The proof bytes do not depend on how many cores made them.
func TestDeterministic(t *testing.T) {
	prove := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		enc, err := prover.New[babybear.Element](prover.WithBlowup(4), prover.WithWorkers(procs))
		require.NoError(t, err)
		defer enc.Close()
		cfg, err := fri.NewConfig(fri.BabyBear, 100, 2)
		require.NoError(t, err)
		_, p := commitAndOpen[babybear.Element, bbext.E4](t, enc, cfg, []int{14, 12}, 5, 9)
		b, err := p.MarshalBinary()
		require.NoError(t, err)
		return b
	}
	one := prove(1)
	assert.Equal(t, one, prove(4))
	assert.Equal(t, one, prove(runtime.NumCPU()))
}

// A proof of one transcript does not verify under another, nor with
// another Config.
func TestWrongContext(t *testing.T) {
	enc, err := prover.New[gf64.Element](prover.WithBlowup(4))
	require.NoError(t, err)
	defer enc.Close()
	cfg, err := fri.NewConfig(fri.GF64, 100, 2)
	require.NoError(t, err)
	stmts, p := commitAndOpen[gf64.Element, gf128.Element](t, enc, cfg, []int{8}, 4, 1)
	fresh := func(label string) *ts.Transcript {
		tr, err := ts.New(label)
		require.NoError(t, err)
		tr.AbsorbRoot("trace", stmts[0].Root)
		drawPoints[gf128.Element](t, tr, 2)
		return tr
	}
	require.NoError(t, fri.Verify(fresh("fri external test"), cfg, stmts, p))
	require.ErrorIs(t, fri.Verify(fresh("another protocol"), cfg, stmts, p), fri.ErrProof)
	c2 := cfg
	c2.Queries++
	require.ErrorIs(t, fri.Verify(fresh("fri external test"), c2, stmts, p), fri.ErrProof)
	c2 = cfg
	c2.Arity = 4
	require.ErrorIs(t, fri.Verify(fresh("fri external test"), c2, stmts, p), fri.ErrProof)
}

// Layers and commitments hashed with Poseidon2 over the field's own
// elements (Plonky3's preset): the proof verifies with that Config, not
// with SHA-256's; a field hash of another field is refused.
func TestPoseidon2Layers(t *testing.T) {
	hs, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	enc, err := prover.New[babybear.Element](prover.WithBlowup(4), prover.WithMerkle(hs))
	require.NoError(t, err)
	defer enc.Close()
	cfg, err := fri.NewConfig(fri.BabyBear, 100, 2)
	require.NoError(t, err)
	cfg.Merkle = hs
	stmts, p := commitAndOpen[babybear.Element, bbext.E4](t, enc, cfg, []int{10, 7}, 4, 3)
	sha := cfg
	sha.Merkle = merkle.Hasher{}
	tr, err := ts.New("fri external test")
	require.NoError(t, err)
	for _, s := range stmts {
		tr.AbsorbRoot("trace", s.Root)
		drawPoints[bbext.E4](t, tr, 2)
	}
	require.ErrorIs(t, fri.Verify(tr, sha, stmts, p), fri.ErrProof)

	gl, err := merkle.Poseidon2[goldilocks.Element](poseidon2.Plonky3, 8)
	require.NoError(t, err)
	wrong := cfg
	wrong.Merkle = gl
	tr2, err := ts.New("x")
	require.NoError(t, err)
	require.ErrorIs(t, fri.Verify(tr2, wrong, stmts, p), fri.ErrParams)
}

// katProof is the proof of the package documentation's known answer: the
// BabyBear trace of 2^4 rows with columns i+1 and 2i+1, committed at
// blowup 4 with SHA-256, opened at one point z drawn under the tag "z"
// after absorbing the root under "trace", from New("gfpoly fri KAT").
func katProof(t *testing.T) ([]byte, []byte) {
	tc := make(prover.Trace[babybear.Element], 2)
	for j := range tc {
		tc[j] = make([]babybear.Element, 16)
		for i := range tc[j] {
			tc[j][i].SetUint64(uint64((j+1)*i + 1))
		}
	}
	enc, err := prover.New[babybear.Element](prover.WithBlowup(4))
	require.NoError(t, err)
	defer enc.Close()
	c, err := enc.Commit(tc)
	require.NoError(t, err)
	tr, err := ts.New("gfpoly fri KAT")
	require.NoError(t, err)
	tr.AbsorbRoot("trace", c.Root())
	z, err := ts.Draw[bbext.E4](tr, "z")
	require.NoError(t, err)
	cfg := fri.Config{LogBlowup: 2, Arity: 4, LogFinalDegree: 1, Queries: 8, GrindingBits: 4, AllowInsecure: true}
	p, err := fri.Open(tr, cfg, fri.Batch[babybear.Element, bbext.E4]{Oracle: prover.Oracle[bbext.E4](c), Points: []bbext.E4{z}})
	require.NoError(t, err)
	b, err := p.MarshalBinary()
	require.NoError(t, err)
	return c.Root(), b
}

func TestKnownProof(t *testing.T) {
	root, b := katProof(t)
	sum := sha256.Sum256(b)
	t.Logf("root %x, %d bytes, sha256 %x", root, len(b), sum)
	assert.Equal(t, "836886169cec71eeae5772c7f98f03612ca55eaa52b41011ec073c58bfc4d3a1", hex.EncodeToString(root))
	assert.Equal(t, 1700, len(b))
	assert.Equal(t, "8424fbdc95121b2eb8920002d9bc2fa5436d45019f0c674bba8565ecf7393514", hex.EncodeToString(sum[:]))
}
