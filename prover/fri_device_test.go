package prover_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
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
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// deviceProof commits a random trace of each height with enc and opens
// them (two points each) under cfg, as commitAndOpen, returning the proof
// bytes and where Open ran; it checks the proof.
func deviceProof[E prover.Element, X fri.Challenge](t testing.TB, enc prover.Encoder[E], cfg fri.Config, heights []int, cols int, seed uint64) ([]byte, string) {
	_, p := commitAndOpen[E, X](t, enc, cfg, heights, cols, seed)
	b, err := p.MarshalBinary()
	require.NoError(t, err)
	return b, p.Ran()
}

// On commitments kept on the device, Open runs the quotients, the folds
// and the layers' trees there: the proof bytes equal the CPU backend's for
// every field, blowup, arity and height, one and several commitments of
// different heights, SHA-256 and Poseidon2 layers, on one device and on
// several logical ones, and with Config.Host on the same commitments.
func TestOpenDevice(t *testing.T) {
	devs := openDevices(t, 3)
	t.Run("gf64", func(t *testing.T) { testOpenDevice[gf64.Element, gf128.Element](t, devs, nil) })
	t.Run("babybear", func(t *testing.T) { testOpenDevice[babybear.Element, bbext.E4](t, devs, p2Hash[babybear.Element]) })
	t.Run("koalabear", func(t *testing.T) { testOpenDevice[koalabear.Element, kbext.E4](t, devs, p2Hash[koalabear.Element]) })
	t.Run("goldilocks", func(t *testing.T) { testOpenDevice[goldilocks.Element, glext.E2](t, devs, p2Hash[goldilocks.Element]) })
	t.Run("bn254", func(t *testing.T) { testOpenDevice[fr.Element, fr.Element](t, devs, nil) })
}

// p2Hash is a Poseidon2 tree of the field at its narrower sponge.
func p2Hash[E poseidon2.Element](t testing.TB) merkle.Hasher {
	w := 16
	var z E
	if _, ok := any(z).(goldilocks.Element); ok {
		w = 8
	}
	hs, err := merkle.Poseidon2[E](poseidon2.Plonky3, w)
	require.NoError(t, err)
	return hs
}

func testOpenDevice[E prover.Element, X fri.Challenge](t *testing.T, devs []*gpu.Device, field func(testing.TB) merkle.Hasher) {
	top := testutil.Sweep(12, 14, 22)
	heights := []int{0, 4, 9, 12, 14, 16, 20, 22}
	hashes := []merkle.Hasher{{}}
	if field != nil {
		hashes = append(hashes, field(t))
	}
	for hi, hs := range hashes {
		for _, lb := range []int{1, 2, 3, 4} {
			opts := []prover.Option{prover.WithBlowup(1 << lb), prover.WithMerkle(hs)}
			if _, ok := any(*new(E)).(gf64.Element); ok {
				opts = append(opts, prover.WithBinaryDomains(fri.NestedBinaryDomains(top)))
			}
			encs := make([]prover.Encoder[E], 3)
			for i, o := range [][]prover.Option{nil, {prover.WithGPU(devs[0])}, {prover.WithGPUs(devs...)}} {
				enc, err := prover.New[E](append(slices.Clone(opts), o...)...)
				require.NoError(t, err)
				defer enc.Close()
				encs[i] = enc
			}
			for _, arity := range []int{2, 4, 8, 16} {
				cfg := fri.Config{LogBlowup: lb, Arity: arity, Queries: 20, GrindingBits: 2, AllowInsecure: true,
					Merkle: hs, BinaryDomains: fri.NestedBinaryDomains(top)}
				for _, h := range heights {
					if h > top || (h >= 20 && (lb != 2 || arity != 8 || hi > 0)) {
						continue
					}
					name := fmt.Sprintf("hash%d/blowup%d/arity%d/rows2^%d", hi, 1<<lb, arity, h)
					hts := []int{h}
					if h >= 3 {
						hts = append(hts, h-3, h-1)
					}
					cfg.LogFinalDegree = min(2, slices.Min(hts))
					cols := 3
					want, ran := deviceProof[E, X](t, encs[0], cfg, hts, cols, uint64(h))
					require.Equal(t, "CPU", ran, name)
					onDev := h+lb-bits(arity) >= 9
					for i, enc := range encs[1:] {
						got, ran := deviceProof[E, X](t, enc, cfg, hts, cols, uint64(h))
						require.Equal(t, want, got, "%s: encoder %d (%s)", name, i+1, ran)
						if onDev { // the first fold is by the arity or less
							assert.True(t, strings.HasPrefix(ran, "GPU"), "%s: ran %q", name, ran)
						}
					}
					host := cfg
					host.Host = true
					got, ran := deviceProof[E, X](t, encs[1], host, hts, cols, uint64(h))
					require.Equal(t, want, got, name+": Config.Host")
					require.Equal(t, "CPU (Config.Host)", ran, name)
				}
			}
		}
	}
}

func bits(a int) int {
	n := 0
	for a > 1 {
		a >>= 1
		n++
	}
	return n
}

// Concurrent openings of different commitments on one device give the
// proofs of the CPU backend (run under -race on the device).
func TestOpenDeviceConcurrent(t *testing.T) {
	devs := openDevices(t, 1)
	cfg, err := fri.NewConfig(fri.BabyBear, 100, 2)
	require.NoError(t, err)
	cpu, err := prover.New[babybear.Element](prover.WithBlowup(4))
	require.NoError(t, err)
	defer cpu.Close()
	gpuEnc, err := prover.New[babybear.Element](prover.WithBlowup(4), prover.WithGPU(devs[0]))
	require.NoError(t, err)
	defer gpuEnc.Close()
	const n = 4
	want := make([][]byte, n)
	for k := range n {
		want[k], _ = deviceProof[babybear.Element, bbext.E4](t, cpu, cfg, []int{12 + k%2, 9}, 4+k, uint64(k))
	}
	got := make([][]byte, n)
	ran := make([]string, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k], ran[k] = deviceProof[babybear.Element, bbext.E4](t, gpuEnc, cfg, []int{12 + k%2, 9}, 4+k, uint64(k))
		}()
	}
	wg.Wait()
	for k := range n {
		assert.Equal(t, want[k], got[k], "proof %d", k)
		assert.True(t, strings.HasPrefix(ran[k], "GPU"), "proof %d ran %q", k, ran[k])
	}
}

// An opening on the device draws on the encoder's device budget: with
// room for the commitment but not for the opening's layers, Open runs on
// the host and says why, the proof the same; with room for both it runs
// on the device and gives the memory back.
func TestOpenDeviceBudget(t *testing.T) {
	devs := openDevices(t, 1)
	cfg, err := fri.NewConfig(fri.BabyBear, 100, 2)
	require.NoError(t, err)
	const logRows, cols = 14, 4
	lde := int64(cols) << (logRows + 2) * 4
	tree := int64(1<<(logRows+2)-1) * 32
	cpu, err := prover.New[babybear.Element](prover.WithBlowup(4))
	require.NoError(t, err)
	defer cpu.Close()
	want, _ := deviceProof[babybear.Element, bbext.E4](t, cpu, cfg, []int{logRows}, cols, 7)
	for _, c := range []struct {
		budget int64
		gpu    bool
	}{{lde + tree + 1<<20, false}, {lde + tree + 64<<20, true}} {
		enc, err := prover.New[babybear.Element](prover.WithBlowup(4), prover.WithGPU(devs[0]), prover.WithDeviceBudget(c.budget))
		require.NoError(t, err)
		got, ran := deviceProof[babybear.Element, bbext.E4](t, enc, cfg, []int{logRows}, cols, 7)
		assert.Equal(t, want, got, "budget %d", c.budget)
		if c.gpu {
			assert.True(t, strings.HasPrefix(ran, "GPU"), "budget %d: ran %q", c.budget, ran)
		} else {
			assert.Contains(t, ran, "CPU (the opening's device buffers", "budget %d", c.budget)
			assert.Contains(t, ran, "device budget", "budget %d", c.budget)
		}
		assert.Zero(t, enc.DeviceMemory().InUse, "budget %d: memory back after the proof", c.budget)
		require.NoError(t, enc.Close())
	}
}
