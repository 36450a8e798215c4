package rowhash

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

// testBlocksAcrossDevices hashes a matrix the way package prover spreads a
// commitment over devices: the columns split between two devices (here two
// Device values on one GPU), the rows in blocks, each block's states
// carried from the first device to the second (ContinueFrom) into a
// hasher whose states hold other rows' words; every block's subtree equals
// crypto/sha256's tree over its rows. A split of 16 columns ends the first
// device's part on a block boundary for every element type (only the live
// words move), the others in a partial block.
func testBlocksAcrossDevices[E Element](t *testing.T, d, d2 *gpu.Device) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, sh := range []struct{ rows, cols, split, blocks int }{{8, 3, 1, 2}, {64, 5, 2, 4}, {1024, 7, 6, 8}, {16, 2, 1, 8}, {32, 20, 16, 2}} {
		cols := random[E](r, sh.rows, sh.cols)
		flat := make([]E, 0, sh.rows*sh.cols)
		for _, c := range cols {
			flat = append(flat, c...)
		}
		// The first device holds columns [0, split), the second the rest.
		a := gputest.Upload(t, d, flat[:sh.split*sh.rows])
		b := gputest.Upload(t, d2, flat[sh.split*sh.rows:])
		s, err := d2.NewStream()
		require.NoError(t, err)
		ev, err := d.NewEvent()
		require.NoError(t, err)
		m := sh.rows / sh.blocks
		nodes := gputest.Alloc[byte](t, d2, (m-1)*DigestSize)
		for k := range sh.blocks {
			h0, err := New[E](d, m, 0x00, 0x01)
			require.NoError(t, err)
			h1, err := New[E](d2, m, 0x00, 0x01)
			require.NoError(t, err)
			va, err := a.View(k*m, (sh.split-1)*sh.rows+m)
			require.NoError(t, err)
			require.NoError(t, h0.AbsorbStrided(nil, va, sh.split, sh.rows))
			var poison []E // other rows, whose states ContinueFrom overwrites
			for _, c := range random[E](r, m, 7) {
				poison = append(poison, c...)
			}
			require.NoError(t, h1.Absorb(nil, gputest.Upload(t, d2, poison)))
			require.NoError(t, ev.Record(nil))
			require.NoError(t, s.Wait(ev))
			require.NoError(t, h1.ContinueFrom(s, h0))
			assert.Equal(t, sh.split, h1.Columns(), "columns carried over")
			nb := sh.cols - sh.split
			vb, err := b.View(k*m, (nb-1)*sh.rows+m)
			require.NoError(t, err)
			require.NoError(t, h1.AbsorbStrided(s, vb, nb, sh.rows))
			require.NoError(t, h1.Tree(s, nodes))
			require.NoError(t, s.Synchronize())
			block := make([][]E, sh.cols)
			for j := range block {
				block[j] = cols[j][k*m : (k+1)*m]
			}
			nodesEqual(t, reference(block, 0x00, 0x01), gputest.Download(t, nodes), "%d rows × %d columns (%d on the first device), block %d of %d", sh.rows, sh.cols, sh.split, k, sh.blocks)
			require.NoError(t, h0.Close())
			require.NoError(t, h1.Close())
		}
		require.NoError(t, s.Close())
		require.NoError(t, ev.Close())
	}
	// Misuse.
	h, err := New[E](d, 8, 0, 1)
	require.NoError(t, err)
	defer h.Close()
	h4, err := New[E](d, 4, 0, 1)
	require.NoError(t, err)
	buf := gputest.Alloc[E](t, d, 3*8)
	assert.ErrorIs(t, h.AbsorbStrided(nil, buf, 3, 7), gpu.ErrLength, "stride below the rows")
	assert.ErrorIs(t, h.AbsorbStrided(nil, buf, 4, 8), gpu.ErrLength, "a column past the buffer")
	assert.ErrorIs(t, h.AbsorbStrided(nil, buf, 0, 8), gpu.ErrLength, "no column")
	assert.ErrorIs(t, h.ContinueFrom(nil, h4), gpu.ErrLength, "from a hasher of other rows")
	require.NoError(t, h4.Close())
	assert.ErrorIs(t, h.ContinueFrom(nil, h4), gpu.ErrClosed, "from a closed hasher")
	assert.ErrorIs(t, h.ContinueFrom(nil, nil), gpu.ErrClosed, "from nil")
}

func TestBlocksAcrossDevices(t *testing.T) {
	d := gputest.Device(t)
	d2, err := gpu.Open(gpu.WithOrdinal(d.Info().Ordinal))
	require.NoError(t, err, "a second Device on the test GPU")
	defer d2.Close()
	t.Run("gf64", func(t *testing.T) { testBlocksAcrossDevices[gf64.Element](t, d, d2) })
	t.Run("goldilocks", func(t *testing.T) { testBlocksAcrossDevices[goldilocks.Element](t, d, d2) })
	t.Run("babybear", func(t *testing.T) { testBlocksAcrossDevices[babybear.Element](t, d, d2) })
	t.Run("koalabear", func(t *testing.T) { testBlocksAcrossDevices[koalabear.Element](t, d, d2) })
	t.Run("bn254", func(t *testing.T) { testBlocksAcrossDevices[fr.Element](t, d, d2) })
}
