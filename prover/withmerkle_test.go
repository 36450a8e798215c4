package prover_test

import (
	"errors"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// Tests of WithMerkle: a field hash commits to the LDE with package
// merkle's field tree (the same root as merkle.Build over Encode's LDE), on
// the CPU backends and, with a device, on the GPU backends (the tree then
// built on the device, gpu/rowhash's field trees); its openings verify with VerifyWith and
// VerifyMultiWith and not with SHA-256; another field is refused at New.

func TestWithMerkleField(t *testing.T) {
	for bname, bopts := range backends(t) {
		t.Run(bname, func(t *testing.T) {
			t.Run("babybear/plonky3/24", func(t *testing.T) {
				testWithMerkle[babybear.Element](t, poseidon2.Plonky3, 24, bname, bopts)
			})
			t.Run("koalabear/plonky3/16", func(t *testing.T) {
				testWithMerkle[koalabear.Element](t, poseidon2.Plonky3, 16, bname, bopts)
			})
			t.Run("goldilocks/gnark/12", func(t *testing.T) {
				testWithMerkle[goldilocks.Element](t, poseidon2.Gnark, 12, bname, bopts)
			})
		})
	}
}

func testWithMerkle[E interface {
	prover.Element
	poseidon2.Element
}](t *testing.T, preset poseidon2.Preset, width int, bname string, bopts []prover.Option) {
	hs, err := merkle.Poseidon2[E](preset, width)
	require.NoError(t, err)
	enc, err := prover.New[E](append([]prover.Option{prover.WithMerkle(hs), prover.WithBlowup(2)}, bopts...)...)
	if errors.Is(err, prover.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer enc.Close()
	tr, err := prover.RandomTrace[E](6, 11, 5)
	require.NoError(t, err)
	lde, err := enc.Encode(tr)
	require.NoError(t, err)
	want, err := merkle.Build(lde, hs, 1, nil)
	require.NoError(t, err)

	cm, err := enc.Commit(tr)
	require.NoError(t, err)
	defer cm.Close()
	assert.Equal(t, want.Root(), cm.Root(), "%s: Commit against merkle.Build over the LDE", enc.Name())
	// A GPU backend builds the Poseidon2 tree on the device and keeps it
	// there with the LDE.
	on, why := cm.Resident()
	assert.Equal(t, bname == "gpu", on, "%s: kept on the device (%s)", enc.Name(), why)
	fromLDE, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	assert.Equal(t, want.Root(), fromLDE.Root(), "%s: CommitLDE", enc.Name())
	into := make([][]E, len(lde))
	for c := range into {
		into[c] = make([]E, len(lde[c]))
	}
	intoCm, err := enc.CommitInto(into, tr)
	require.NoError(t, err)
	assert.Equal(t, want.Root(), intoCm.Root(), "%s: CommitInto", enc.Name())
	sha, err := prover.New[E](append([]prover.Option{prover.WithBlowup(2)}, bopts...)...)
	require.NoError(t, err)
	defer sha.Close()
	shaCm, err := sha.Commit(tr)
	require.NoError(t, err)
	assert.NotEqual(t, shaCm.Root(), cm.Root(), "the field root is SHA-256's")

	root, n := cm.Root(), cm.Rows()
	idx := []int{0, 3, n / 2, n - 1}
	o, err := cm.Open(idx)
	require.NoError(t, err)
	require.NoError(t, prover.VerifyWith(root, n, o.Indices, o.Rows, o.Paths, hs))
	require.ErrorIs(t, prover.Verify(root, n, o.Indices, o.Rows, o.Paths, nil), prover.ErrVerify, "with SHA-256")
	o.Rows[1][4] = o.Rows[2][4]
	require.ErrorIs(t, prover.VerifyWith(root, n, o.Indices, o.Rows, o.Paths, hs), prover.ErrVerify, "a changed element")

	m, err := cm.OpenMulti(append(idx, 1, 5))
	require.NoError(t, err)
	require.NoError(t, prover.VerifyMultiWith(root, n, m, hs))
	require.ErrorIs(t, prover.VerifyMulti(root, n, m, nil), prover.ErrVerify, "with SHA-256")
	m.Nodes[2][7] ^= 1
	require.ErrorIs(t, prover.VerifyMultiWith(root, n, m, hs), prover.ErrVerify, "a flipped node bit")
	m.Nodes[2][7] ^= 1
	m.Indices[1]++
	require.ErrorIs(t, prover.VerifyMultiWith(root, n, m, hs), prover.ErrVerify, "another index")
}

// TestWithMerkleOtherField: New refuses a field hash over another field than
// the trace's, and the zero Hasher is the default SHA-256.
func TestWithMerkleOtherField(t *testing.T) {
	bb, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	for name, f := range map[string]func() error{
		"gf64":       func() error { _, err := prover.New[gf64.Element](prover.WithMerkle(bb)); return err },
		"koalabear":  func() error { _, err := prover.New[koalabear.Element](prover.WithMerkle(bb)); return err },
		"goldilocks": func() error { _, err := prover.New[goldilocks.Element](prover.WithMerkle(bb)); return err },
		"bn254":      func() error { _, err := prover.New[fr.Element](prover.WithMerkle(bb)); return err },
	} {
		err := f()
		require.ErrorIs(t, err, prover.ErrConfig, name)
		require.ErrorIs(t, err, merkle.ErrField, name)
		t.Logf("%s: %v", name, err)
	}
	tr, err := prover.RandomTrace[gf64.Element](4, 3, 1)
	require.NoError(t, err)
	a, err := prover.New[gf64.Element](prover.WithMerkle(merkle.Hasher{}))
	require.NoError(t, err)
	b, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	ca, err := a.Commit(tr)
	require.NoError(t, err)
	cb, err := b.Commit(tr)
	require.NoError(t, err)
	assert.Equal(t, cb.Root(), ca.Root(), "WithMerkle(merkle.Hasher{}) is SHA-256")
}
