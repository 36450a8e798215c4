package prover_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// TestCommitDeviceLDE: an LDE handed over in device memory commits to the
// root CommitLDE gives its host copy, is kept on the device (SHA-256 and
// Poseidon2 trees), opens as the host commitment does, and stays the
// caller's; a CPU encoder and a budget too small commit from a host copy
// and say why.
func TestCommitDeviceLDE(t *testing.T) {
	dev := openDevice(t)
	t.Run("gf64", func(t *testing.T) { testCommitDeviceLDE[gf64.Element](t, dev, merkle.Hasher{}) })
	t.Run("goldilocks", func(t *testing.T) { testCommitDeviceLDE[goldilocks.Element](t, dev, merkle.Hasher{}) })
	t.Run("babybear", func(t *testing.T) { testCommitDeviceLDE[babybear.Element](t, dev, merkle.Hasher{}) })
	t.Run("babybear/poseidon2", func(t *testing.T) {
		hs, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
		require.NoError(t, err)
		testCommitDeviceLDE[babybear.Element](t, dev, hs)
	})
	t.Run("koalabear", func(t *testing.T) { testCommitDeviceLDE[koalabear.Element](t, dev, merkle.Hasher{}) })
	t.Run("bn254", func(t *testing.T) { testCommitDeviceLDE[fr.Element](t, dev, merkle.Hasher{}) })
}

func testCommitDeviceLDE[E prover.Element](t *testing.T, dev *gpu.Device, hs merkle.Hasher) {
	for _, sh := range [][3]int{{0, 1, 2}, {3, 4, 4}, {10, 5, 2}, {14, 33, 4}} {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("2^%d×%d/blowup=%d", logRows, cols, blowup)
		opts := []prover.Option{prover.WithBlowup(blowup)}
		if !hs.Default() {
			opts = append(opts, prover.WithMerkle(hs))
		}
		cpu, err := prover.New[E](opts...)
		require.NoError(t, err)
		g, err := prover.New[E](append(opts, prover.WithGPU(dev))...)
		require.NoError(t, err)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows+cols))
		require.NoError(t, err)
		lde, err := cpu.Encode(tr)
		require.NoError(t, err)
		want, err := cpu.CommitLDE(lde)
		require.NoError(t, err)
		rows := len(lde[0])
		flat := make([]E, 0, cols*rows)
		for _, c := range lde {
			flat = append(flat, c...)
		}
		buf, err := gpu.Alloc[E](dev, len(flat))
		require.NoError(t, err)
		require.NoError(t, buf.Upload(flat))

		got, err := g.CommitDeviceLDE(buf, cols)
		require.NoError(t, err, name)
		on, why := got.Resident()
		assert.Equal(t, rows > 1, on, "%s: kept on the device (%s)", name, why)
		assert.Equal(t, want.Root(), got.Root(), "%s: root", name)
		assert.Equal(t, cols, got.Columns(), name)
		assert.Equal(t, rows, got.Rows(), name)
		assert.Equal(t, lde, mustLDE(t, got), "%s: LDE", name)
		idx := []int{0, rows - 1, rows / 3}
		ow, err := want.Open(idx)
		require.NoError(t, err)
		og, err := got.Open(idx)
		require.NoError(t, err)
		assert.Equal(t, ow, og, "%s: openings", name)

		// The commitment copied the LDE: the caller's buffer is its own.
		back := make([]E, len(flat))
		require.NoError(t, buf.Download(back))
		assert.Equal(t, flat, back, "%s: the caller's buffer", name)
		require.NoError(t, buf.Free())
		assert.Equal(t, lde, mustLDE(t, got), "%s: LDE after the caller's buffer is freed", name)

		// A CPU encoder downloads it.
		buf2, err := gpu.Alloc[E](dev, len(flat))
		require.NoError(t, err)
		require.NoError(t, buf2.Upload(flat))
		host, err := cpu.CommitDeviceLDE(buf2, cols)
		require.NoError(t, err)
		on, _ = host.Resident()
		assert.False(t, on, name)
		assert.Equal(t, want.Root(), host.Root(), "%s: CPU encoder's root", name)

		// A budget too small falls back to the host with the reason.
		if rows > 1 {
			small, err := prover.New[E](append(opts, prover.WithGPU(dev), prover.WithDeviceBudget(1))...)
			require.NoError(t, err)
			fb, err := small.CommitDeviceLDE(buf2, cols)
			require.NoError(t, err)
			on, why := fb.Resident()
			assert.False(t, on, name)
			assert.Contains(t, why, "budget", name)
			assert.Equal(t, want.Root(), fb.Root(), "%s: fallback root", name)
			require.NoError(t, fb.Close())
			require.NoError(t, small.Close())
		}
		require.NoError(t, buf2.Free())
		for _, c := range []*prover.Commitment[E]{want, got, host} {
			require.NoError(t, c.Close())
		}
		assert.Zero(t, g.DeviceMemory().InUse, "%s: device memory back after Close", name)
		require.NoError(t, g.Close())
		require.NoError(t, cpu.Close())
	}
}

// TestCommitDeviceLDEShape: buffers that are not whole columns of a power
// of two rows, at least the blowup, are refused before any work.
func TestCommitDeviceLDEShape(t *testing.T) {
	dev := openDevice(t)
	g, err := prover.New[babybear.Element](prover.WithGPU(dev), prover.WithBlowup(4))
	require.NoError(t, err)
	defer g.Close()
	buf, err := gpu.Alloc[babybear.Element](dev, 96)
	require.NoError(t, err)
	defer buf.Free()
	for _, cols := range []int{0, -1, 5, 3, 48} { // 96/3 = 32 rows is fine; 48 columns of 2 rows are below the blowup
		_, err := g.CommitDeviceLDE(buf, cols)
		if cols == 3 {
			require.NoError(t, err)
			continue
		}
		assert.ErrorIs(t, err, prover.ErrShape, "%d columns", cols)
	}
	_, err = g.CommitDeviceLDE(nil, 1)
	assert.ErrorIs(t, err, prover.ErrShape)
}
