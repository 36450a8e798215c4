package prover_test

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

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
	"github.com/gfpoly/gfpoly/prover/internal/friphase"
	ts "github.com/gfpoly/gfpoly/prover/transcript"
)

var (
	devLogRows = flag.Int("fri.devlogrows", 20, "BenchmarkDevice: log2 of the trace rows")
	devCols    = flag.Int("fri.devcols", 32, "BenchmarkDevice: columns")
	devFields  = flag.String("fri.devfields", "gf64,babybear,koalabear,goldilocks,bn254", "BenchmarkDevice: fields")
)

// BenchmarkDevice is the whole polynomial commitment of a trace of
// 2^fri.devlogrows rows × fri.devcols columns at blowup 4 and 100
// conjectured bits (two points, z and z·ω as a STARK draws them), on the
// CPU backend and on the GPU: "commit" (trace in Go memory to root),
// "open" (Open on the kept commitment, its phases as metrics in ms) and
// "commit+open" (trace to the proof's bytes on the host).
func BenchmarkDevice(b *testing.B) {
	var dev *gpu.Device
	if d, err := gpu.Open(); err == nil {
		dev = d
		defer d.Close()
	}
	for _, f := range strings.Split(*devFields, ",") {
		switch f {
		case "gf64":
			benchDeviceField[gf64.Element, gf128.Element](b, fri.GF64, dev)
		case "babybear":
			benchDeviceField[babybear.Element, bbext.E4](b, fri.BabyBear, dev)
		case "koalabear":
			benchDeviceField[koalabear.Element, kbext.E4](b, fri.KoalaBear, dev)
		case "goldilocks":
			benchDeviceField[goldilocks.Element, glext.E2](b, fri.Goldilocks, dev)
		case "bn254":
			benchDeviceField[fr.Element, fr.Element](b, fri.BN254, dev)
		}
	}
}

func benchDeviceField[E prover.Element, X fri.Challenge](b *testing.B, f fri.Field, dev *gpu.Device) {
	cfg, err := fri.NewConfig(f, 100, 2)
	require.NoError(b, err)
	tc, err := prover.RandomTrace[E](*devLogRows, *devCols, 1)
	require.NoError(b, err)
	backs := []struct {
		name string
		opts []prover.Option
	}{{"cpu", nil}}
	if dev != nil {
		backs = append(backs, struct {
			name string
			opts []prover.Option
		}{"gpu", []prover.Option{prover.WithGPU(dev)}})
	}
	for _, bk := range backs {
		name := fmt.Sprintf("%v/2^%d×%d/%s", f, *devLogRows, *devCols, bk.name)
		b.Run(name, func(b *testing.B) {
			enc, err := prover.New[E](append(bk.opts, prover.WithBlowup(4))...)
			require.NoError(b, err)
			defer enc.Close()
			benchPCS[E, X](b, enc, tc, cfg)
		})
	}
}

// benchPCS runs commit, open and commit+open of tc with enc under cfg.
func benchPCS[E prover.Element, X fri.Challenge](b *testing.B, enc prover.Encoder[E], tc prover.Source[E], cfg fri.Config) {
	prove := func(c *prover.Commitment[E]) *fri.Proof[E, X] {
		tr, err := ts.New("bench")
		require.NoError(b, err)
		tr.AbsorbRoot("trace", c.Root())
		p, err := fri.Open(tr, cfg, fri.Batch[E, X]{Oracle: prover.Oracle[X](c), Points: drawPoints[X](b, tr, 2)})
		require.NoError(b, err)
		return p
	}
	c, err := enc.Commit(tc) // warm-up, and the commitment "open" opens
	require.NoError(b, err)
	defer c.Close()
	p := prove(c)
	b.Logf("ran: %s", p.Ran())
	b.Run("commit", func(b *testing.B) {
		for b.Loop() {
			c, err := enc.Commit(tc)
			require.NoError(b, err)
			c.Close()
		}
	})
	b.Run("open", func(b *testing.B) {
		phases := map[string]time.Duration{}
		last := time.Now()
		defer friphase.Set(func(name string) {
			now := time.Now()
			phases[name] += now.Sub(last)
			last = now
		})()
		for b.Loop() {
			last = time.Now()
			p = prove(c)
		}
		names := make([]string, 0, len(phases))
		for n := range phases {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			b.ReportMetric(float64(phases[n].Microseconds())/1e3/float64(b.N), n+"-ms")
		}
		b.ReportMetric(float64(p.Sizes().Total), "proof-bytes")
	})
	b.Run("commit+open", func(b *testing.B) {
		for b.Loop() {
			c, err := enc.Commit(tc)
			require.NoError(b, err)
			p := prove(c)
			_, err = p.MarshalBinary()
			require.NoError(b, err)
			c.Close()
		}
	})
}

// BenchmarkDeviceOnePolynomial is ICICLE's chart's shape: one BabyBear
// polynomial of 2^24 evaluations (2^23 coefficients at blowup 2), 100
// queries, no grinding, arity 8; "open" is the FRI proof from the kept
// commitment.
func BenchmarkDeviceOnePolynomial(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	tc, err := prover.RandomTrace[babybear.Element](23, 1, 1)
	require.NoError(b, err)
	cfg := fri.Config{LogBlowup: 1, Arity: 8, LogFinalDegree: 3, Queries: 100, AllowInsecure: true}
	for _, bk := range []struct {
		name string
		opts []prover.Option
	}{{"gpu", []prover.Option{prover.WithGPU(dev)}}, {"cpu", nil}} {
		b.Run("babybear/2^24/"+bk.name, func(b *testing.B) {
			enc, err := prover.New[babybear.Element](append(bk.opts, prover.WithBlowup(2))...)
			require.NoError(b, err)
			defer enc.Close()
			benchPCS[babybear.Element, bbext.E4](b, enc, tc, cfg)
		})
	}
}
