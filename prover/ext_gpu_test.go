package prover_test

import (
	"crypto/sha256"
	"fmt"
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
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

// Tests of CombineExt, CombinePowers and Evaluate on commitments kept on
// one device and spread over several (logical devices on a machine of one
// GPU): every result equals the CPU commitment's, bit for bit.

func TestResidentExt(t *testing.T) {
	dev := openDevice(t)
	devs := openDevices(t, 3)
	t.Run("gf64", func(t *testing.T) { testResidentExt[gf64.Element, gf128.Element](t, kitGF64, dev, devs) })
	t.Run("goldilocks", func(t *testing.T) { testResidentExt[goldilocks.Element, glext.E2](t, kitGoldilocks, dev, devs) })
	t.Run("babybear", func(t *testing.T) { testResidentExt[babybear.Element, bbext.E4](t, kitBabyBear, dev, devs) })
	t.Run("koalabear", func(t *testing.T) { testResidentExt[koalabear.Element, kbext.E4](t, kitKoalaBear, dev, devs) })
	t.Run("bn254", func(t *testing.T) { testResidentExt[fr.Element, fr.Element](t, kitBN254, dev, devs) })
}

func testResidentExt[E prover.Element, X prover.Ext](t *testing.T, k kit[E, X], dev *gpu.Device, devs []*gpu.Device) {
	shapes := [][3]int{{0, 1, 2}, {1, 3, 4}, {3, 5, 8}, {6, 33, 2}, {10, 65, 4}, {12, 7, 16}}
	if !testing.Short() {
		shapes = append(shapes, [3]int{16, 32, 4}, [3]int{20, 3, 2})
	}
	for _, sh := range shapes {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("2^%d×%d/blowup=%d", logRows, cols, blowup)
		cpu, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*1000+cols))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		alpha := k.randX(uint64(7+logRows), cols)
		wantC, err := prover.CombineExt(want, alpha)
		require.NoError(t, err)
		wantP, err := prover.CombinePowers(want, alpha[0])
		require.NoError(t, err)
		// Points: random ones, a codeword point, a trace point.
		pts := k.randX(uint64(11+logRows), 3)
		cw, err := want.CodewordPoint(want.Rows() - 1)
		require.NoError(t, err)
		tp, err := want.TracePoint((1 << logRows) - 1)
		require.NoError(t, err)
		pts = append(pts, k.lift(cw), k.lift(tp))
		wantE, err := prover.Evaluate(want, pts)
		require.NoError(t, err)
		_, err = prover.CombineExtDevice(want, alpha)
		require.ErrorIs(t, err, prover.ErrUnavailable, "a commitment in host memory")

		for _, opt := range []struct {
			what string
			opt  prover.Option
		}{{"one GPU", prover.WithGPU(dev)}, {"3 GPUs", prover.WithGPUs(devs...)}} {
			g, err := prover.New[E](prover.WithBlowup(blowup), opt.opt)
			require.NoError(t, err)
			got, err := g.Commit(tr)
			require.NoError(t, err)
			on, why := got.Resident()
			require.True(t, on, "%s %s: not on the device: %s", name, opt.what, why)
			c, err := prover.CombineExt(got, alpha)
			require.NoError(t, err, "%s %s", name, opt.what)
			assert.Equal(t, wantC, c, "%s %s: CombineExt", name, opt.what)
			p, err := prover.CombinePowers(got, alpha[0])
			require.NoError(t, err, "%s %s", name, opt.what)
			assert.Equal(t, wantP, p, "%s %s: CombinePowers", name, opt.what)
			buf, err := prover.CombineExtDevice(got, alpha)
			require.NoError(t, err, "%s %s", name, opt.what)
			onDev := make([]X, got.Rows())
			require.NoError(t, buf.Download(onDev))
			require.NoError(t, buf.Free())
			assert.Equal(t, wantC, onDev, "%s %s: CombineExtDevice", name, opt.what)
			e, err := prover.Evaluate(got, pts)
			require.NoError(t, err, "%s %s", name, opt.what)
			assert.Equal(t, wantE, e, "%s %s: Evaluate", name, opt.what)
			require.NoError(t, got.Close())
			_, err = prover.CombineExt(got, alpha)
			require.ErrorIs(t, err, prover.ErrClosed)
			_, err = prover.Evaluate(got, pts)
			require.ErrorIs(t, err, prover.ErrClosed)
			require.NoError(t, g.Close())
		}
		require.NoError(t, cpu.Close())
	}
}

// BenchmarkResidentExt is the extension-field work a prover does on a
// commitment kept on the device, timed from Go (launches, allocation of
// the result and the wait included): 32 columns of 2^20 rows at blowup 4
// (an LDE of 2^22 rows), combined with extension coefficients into a
// device buffer (CombineExtDevice, beside the base-field CombineDevice of
// the same columns) and evaluated at one and two extension points.
//
//	go test -c -o .gpubin/prover.test ./prover
//	./.gpubin/prover.test -test.run '^$' -test.bench ResidentExt -test.benchtime 50x
func BenchmarkResidentExt(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	b.Run("gf64", func(b *testing.B) { benchResidentExt(b, dev, kitGF64) })
	b.Run("goldilocks", func(b *testing.B) { benchResidentExt(b, dev, kitGoldilocks) })
	b.Run("babybear", func(b *testing.B) { benchResidentExt(b, dev, kitBabyBear) })
	b.Run("koalabear", func(b *testing.B) { benchResidentExt(b, dev, kitKoalaBear) })
	b.Run("bn254", func(b *testing.B) { benchResidentExt(b, dev, kitBN254) })
}

func benchResidentExt[E prover.Element, X prover.Ext](b *testing.B, dev *gpu.Device, k kit[E, X]) {
	const logRows, cols = 20, 32
	enc, err := prover.New[E](prover.WithBlowup(4), prover.WithGPU(dev))
	require.NoError(b, err)
	defer enc.Close()
	tr, err := prover.RandomTrace[E](logRows, cols, 1)
	require.NoError(b, err)
	c, err := enc.Commit(tr)
	require.NoError(b, err)
	defer c.Close()
	if on, why := c.Resident(); !on {
		b.Skipf("not kept on the device: %s", why)
	}
	alpha := k.randX(2, cols)
	base := make([]E, cols)
	for j := range base {
		base[j] = tr[j][j] // any coefficients: the time does not depend on them
	}
	pts := k.randX(3, 2)
	b.Run("combine-base", func(b *testing.B) {
		for range b.N {
			buf, err := c.CombineDevice(base)
			require.NoError(b, err)
			buf.Free()
		}
	})
	b.Run("combine-ext", func(b *testing.B) {
		for range b.N {
			buf, err := prover.CombineExtDevice(c, alpha)
			require.NoError(b, err)
			buf.Free()
		}
	})
	for _, np := range []int{1, 2} {
		b.Run(fmt.Sprintf("evaluate-%d", np), func(b *testing.B) {
			for range b.N {
				_, err := prover.Evaluate(c, pts[:np])
				require.NoError(b, err)
			}
		})
	}
}

// TestCommitLDEOneRowGPU commits a one-row matrix on GPU encoders (one
// device and several): the root is the leaf, as on the CPU.
func TestCommitLDEOneRowGPU(t *testing.T) {
	dev := openDevice(t)
	devs := openDevices(t, 2)
	lde := [][]babybear.Element{{babybear.NewElement(1)}, {babybear.NewElement(3)}, {babybear.NewElement(5)}}
	leaf := sha256.Sum256([]byte{0x00, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 5})
	for _, opt := range []prover.Option{prover.WithGPU(dev), prover.WithGPUs(devs...)} {
		enc, err := prover.New[babybear.Element](opt)
		require.NoError(t, err)
		c, err := enc.CommitLDE(lde)
		require.NoError(t, err)
		assert.Equal(t, leaf[:], c.Root())
		o, err := c.Open([]int{0})
		require.NoError(t, err)
		require.NoError(t, o.Verify(c.Root(), 1, nil))
		require.NoError(t, enc.Close())
	}
}
