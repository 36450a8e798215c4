package prover_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	ts "github.com/gfpoly/gfpoly/prover/transcript"
)

// The FRI opening of commitments kept on one device and spread over
// several reads them through prover.Oracle (evaluations, combinations and
// openings on the device): its proof bytes equal the CPU commitment's.
func TestOracleGPU(t *testing.T) {
	dev := openDevice(t)
	devs := openDevices(t, 3)
	t.Run("gf64", func(t *testing.T) { testOracleGPU[gf64.Element, gf128.Element](t, fri.GF64, dev, devs) })
	t.Run("goldilocks", func(t *testing.T) { testOracleGPU[goldilocks.Element, glext.E2](t, fri.Goldilocks, dev, devs) })
	t.Run("babybear", func(t *testing.T) { testOracleGPU[babybear.Element, bbext.E4](t, fri.BabyBear, dev, devs) })
	t.Run("koalabear", func(t *testing.T) { testOracleGPU[koalabear.Element, kbext.E4](t, fri.KoalaBear, dev, devs) })
	t.Run("bn254", func(t *testing.T) { testOracleGPU[fr.Element, fr.Element](t, fri.BN254, dev, devs) })
}

func testOracleGPU[E prover.Element, X prover.Ext](t *testing.T, f fri.Field, dev *gpu.Device, devs []*gpu.Device) {
	for _, sh := range [][2]int{{3, 5}, {10, 33}, {16, 8}} {
		logRows, cols := sh[0], sh[1]
		name := fmt.Sprintf("2^%d×%d", logRows, cols)
		cfg := fri.Config{LogBlowup: 2, Arity: 8, LogFinalDegree: 2, Queries: 40, GrindingBits: 4, AllowInsecure: true}
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows))
		require.NoError(t, err)
		prove := func(opts ...prover.Option) []byte {
			enc, err := prover.New[E](append(opts, prover.WithBlowup(4))...)
			require.NoError(t, err)
			defer enc.Close()
			c, err := enc.Commit(tr)
			require.NoError(t, err)
			defer c.Close()
			tsc, err := ts.New("gpu oracle")
			require.NoError(t, err)
			tsc.AbsorbRoot("trace", c.Root())
			z, err := ts.Draw[X](tsc, "z")
			require.NoError(t, err)
			w, err := ts.Draw[X](tsc, "z")
			require.NoError(t, err)
			p, err := fri.Open(tsc, cfg, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: []X{z, w}})
			require.NoError(t, err, name)
			b, err := p.MarshalBinary()
			require.NoError(t, err)
			return b
		}
		want := prove()
		require.Equal(t, want, prove(prover.WithGPU(dev)), name+" one device")
		require.Equal(t, want, prove(prover.WithGPUs(devs...)), name+" several devices")
	}
}
