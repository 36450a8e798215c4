package prover

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// TestDevTreeSpec: which hashes a GPU backend hashes on the device (every
// Poseidon2 preset and width), and the reason it gives for the others.
func TestDevTreeSpec(t *testing.T) {
	for _, pr := range []poseidon2.Preset{poseidon2.Plonky3, poseidon2.Gnark} {
		for _, w := range []int{16, 24} {
			hs, err := merkle.Poseidon2[babybear.Element](pr, w)
			require.NoError(t, err)
			ts, why := devTreeSpec[babybear.Element](hs)
			require.NotNil(t, ts, why)
			assert.Equal(t, w, ts.Leaf.Width)
			assert.Equal(t, 16, ts.Node.Width)
			assert.Equal(t, w-8, ts.Rate)
			hs, err = merkle.Poseidon2[koalabear.Element](pr, w)
			require.NoError(t, err)
			ts, why = devTreeSpec[koalabear.Element](hs)
			require.NotNil(t, ts, why)
		}
		for _, w := range []int{8, 12} {
			hs, err := merkle.Poseidon2[goldilocks.Element](pr, w)
			require.NoError(t, err)
			ts, why := devTreeSpec[goldilocks.Element](hs)
			require.NotNil(t, ts, why)
			assert.Equal(t, 8, ts.Node.Width)
			assert.Equal(t, 32, ts.DigestBytes())
		}
	}
	// A byte hash, and a field hash over another field than the trace's.
	ts, why := devTreeSpec[fr.Element](merkle.Hasher{})
	assert.Nil(t, ts)
	assert.Contains(t, why, "not a field hash over "+FieldOf[fr.Element]().String())
	hs, err := merkle.Poseidon2[koalabear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	ts, why = devTreeSpec[babybear.Element](hs)
	assert.Nil(t, ts)
	assert.Contains(t, why, "not a field hash over this field")
	// A permutation of a width the kernels lack (BabyBear of width 8).
	prm, err := poseidon2.PresetParams[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	prm.Width, prm.InternalDiag = 8, prm.InternalDiag[:8]
	for r := range prm.ExternalConstants {
		prm.ExternalConstants[r] = prm.ExternalConstants[r][:8]
	}
	p8, err := poseidon2.NewWithParams(prm)
	require.NoError(t, err)
	sp, err := poseidon2.NewSponge(p8, 4, 4)
	require.NoError(t, err)
	cp, err := poseidon2.NewCompression(p8, 4, poseidon2.Truncate)
	require.NoError(t, err)
	hs, err = merkle.FieldHasher(sp, cp)
	require.NoError(t, err)
	ts, why = devTreeSpec[babybear.Element](hs)
	assert.Nil(t, ts)
	assert.Contains(t, why, "width 8")
	// On a GPU backend this hash is refused by the device, not by New: the
	// reason is kept for Commitment.Resident.
	cfg, err := newConfig([]Option{WithMerkle(hs)})
	require.NoError(t, err)
	cfg.devTree, cfg.devTreeWhy = devTreeSpec[babybear.Element](cfg.hs)
	assert.Nil(t, cfg.devTree)
	assert.NotEmpty(t, cfg.devTreeWhy)
}
