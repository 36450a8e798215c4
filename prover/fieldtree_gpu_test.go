package prover_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// TestGPUFieldTree: with a Poseidon2 hash, a GPU backend hashes the rows on
// the device while each group of columns' LDE is there, and its roots are
// the CPU backend's for every field, preset and sponge width, through
// Commit (kept on the device: openings gathered there verify), CommitInto
// (the LDE back in host memory), CommitLDE (uploaded), and WithGPUs over
// three logical devices. A sponge of a width the kernels lack hashes on the
// CPU, with the reason. Under GFPOLY_LONG, LDEs of 2^22 rows too.
func TestGPUFieldTree(t *testing.T) {
	devs := openDevices(t, 3)
	dev := devs[0]
	for _, pr := range []poseidon2.Preset{poseidon2.Plonky3, poseidon2.Gnark} {
		for _, w := range []int{16, 24} {
			t.Run(fmt.Sprintf("babybear/%v/%d", pr, w), func(t *testing.T) {
				testGPUFieldTree[babybear.Element](t, pr, w, dev, devs)
			})
			t.Run(fmt.Sprintf("koalabear/%v/%d", pr, w), func(t *testing.T) {
				testGPUFieldTree[koalabear.Element](t, pr, w, dev, devs)
			})
		}
		for _, w := range []int{8, 12} {
			t.Run(fmt.Sprintf("goldilocks/%v/%d", pr, w), func(t *testing.T) {
				testGPUFieldTree[goldilocks.Element](t, pr, w, dev, devs)
			})
		}
	}
	t.Run("babybear/width8-on-the-host", func(t *testing.T) {
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
		hs, err := merkle.FieldHasher(sp, cp)
		require.NoError(t, err)
		tr, err := prover.RandomTrace[babybear.Element](8, 5, 3)
		require.NoError(t, err)
		cpu, err := prover.New[babybear.Element](prover.WithMerkle(hs))
		require.NoError(t, err)
		defer cpu.Close()
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		g, err := prover.New[babybear.Element](prover.WithMerkle(hs), prover.WithGPU(dev))
		require.NoError(t, err)
		defer g.Close()
		cm, err := g.Commit(tr)
		require.NoError(t, err)
		defer cm.Close()
		assert.Equal(t, want.Root(), cm.Root())
		on, why := cm.Resident()
		assert.False(t, on)
		assert.Contains(t, why, "width 8")
	})
}

func testGPUFieldTree[E interface {
	prover.Element
	poseidon2.Element
}](t *testing.T, preset poseidon2.Preset, width int, dev *gpu.Device, devs []*gpu.Device) {
	hs, err := merkle.Poseidon2[E](preset, width)
	require.NoError(t, err)
	shapes := [][3]int{{0, 1, 2}, {1, 3, 4}, {4, 9, 16}, {7, 17, 2}, {10, 24, 4}, {12, 33, 8}}
	if testutil.Long() {
		// LDEs of 2^22 rows, and 65 columns.
		shapes = append(shapes, [3]int{20, 5, 4}, [3]int{19, 3, 8}, [3]int{14, 65, 2})
	}
	for _, sh := range shapes {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("2^%d x %d, blowup %d", logRows, cols, blowup)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*100+cols))
		require.NoError(t, err)
		cpu, err := prover.New[E](prover.WithMerkle(hs), prover.WithBlowup(blowup))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		lde, err := cpu.Encode(tr)
		require.NoError(t, err)
		cpu.Close()

		g, err := prover.New[E](prover.WithMerkle(hs), prover.WithBlowup(blowup), prover.WithGPU(dev), prover.WithChunkColumns(5))
		require.NoError(t, err)
		cm, err := g.Commit(tr)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), cm.Root(), "%s: Commit", name)
		on, why := cm.Resident()
		assert.True(t, on, "%s: kept on the device (%s)", name, why)
		n := cm.Rows()
		idx := []int{0, n / 2, n - 1}
		o, err := cm.Open(idx)
		require.NoError(t, err)
		require.NoError(t, prover.VerifyWith(cm.Root(), n, o.Indices, o.Rows, o.Paths, hs), name)
		into := make([][]E, cols)
		for c := range into {
			into[c] = make([]E, n)
		}
		ci, err := g.CommitInto(into, tr)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), ci.Root(), "%s: CommitInto", name)
		cl, err := g.CommitLDE(lde)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), cl.Root(), "%s: CommitLDE", name)
		for _, c := range []*prover.Commitment[E]{cm, ci, cl} {
			require.NoError(t, c.Close())
		}
		require.NoError(t, g.Close())

		m, err := prover.New[E](prover.WithMerkle(hs), prover.WithBlowup(blowup), prover.WithGPUs(devs...))
		require.NoError(t, err)
		mc, err := m.Commit(tr)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), mc.Root(), "%s: WithGPUs over 3 devices", name)
		require.NoError(t, mc.Close())
		require.NoError(t, m.Close())
		require.NoError(t, want.Close())
	}
}

// BenchmarkPoseidon2Commit is BenchmarkResident with Poseidon2 trees: a
// 2^20 × 32 trace in Go memory committed at blowup 4 (the root back) and 8
// rows opened, on the GPU (the tree built on the device) and on the CPU
// backend, for the Plonky3 preset at each sponge width.
func BenchmarkPoseidon2Commit(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	for _, w := range []int{16, 24} {
		b.Run(fmt.Sprintf("babybear/w%d", w), func(b *testing.B) { benchPoseidon2[babybear.Element](b, dev, w) })
		b.Run(fmt.Sprintf("koalabear/w%d", w), func(b *testing.B) { benchPoseidon2[koalabear.Element](b, dev, w) })
	}
	for _, w := range []int{8, 12} {
		b.Run(fmt.Sprintf("goldilocks/w%d", w), func(b *testing.B) { benchPoseidon2[goldilocks.Element](b, dev, w) })
	}
}

func benchPoseidon2[E interface {
	prover.Element
	poseidon2.Element
}](b *testing.B, dev *gpu.Device, width int) {
	hs, err := merkle.Poseidon2[E](poseidon2.Plonky3, width)
	require.NoError(b, err)
	benchResident[E](b, dev, prover.WithMerkle(hs))
}
