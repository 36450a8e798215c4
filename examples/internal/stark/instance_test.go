package stark

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// Every field through the Instance interface, at every blowup: honest proofs
// verify from their bytes, a flipped byte is rejected, and the figures are
// the field's.
func TestInstance(t *testing.T) {
	degree := map[fri.Field]int{fri.GF64: 2, fri.BabyBear: 4, fri.KoalaBear: 4, fri.Goldilocks: 2, fri.BN254: 1}
	for _, f := range Fields {
		for logBlowup := 1; logBlowup <= 4; logBlowup++ {
			t.Run(fmt.Sprintf("%v/blowup%d", f, 1<<logBlowup), func(t *testing.T) {
				g, err := ParseField(f.String())
				require.NoError(t, err)
				require.Equal(t, f, g)
				cfg, err := fri.NewConfig(f, 100, logBlowup)
				require.NoError(t, err)
				const logRows = 5
				in, err := New(f, logRows, cfg)
				require.NoError(t, err)
				defer in.Close()
				assert.Equal(t, f, in.Field())
				assert.Equal(t, logRows, in.LogRows())
				rows := 1 << logRows
				if f == fri.GF64 {
					rows--
				}
				assert.Equal(t, rows, in.Rows())
				assert.Equal(t, degree[f], in.Degree())
				assert.Equal(t, cfg, in.Config())
				assert.Equal(t, 1<<logBlowup, in.Backend().Blowup())
				proof, err := in.Prove()
				require.NoError(t, err)
				assert.Positive(t, in.Phases().Opening)
				assert.Equal(t, in.Phases().Trace+in.Phases().Quotient+in.Phases().Commit, in.Phases().Commitments())
				data, err := proof.MarshalBinary()
				require.NoError(t, err)
				require.NoError(t, in.Verify(data))
				bad := bytes.Clone(data)
				bad[len(bad)/2] ^= 4
				require.ErrorIs(t, in.Verify(bad), ErrRejected)
				friBits, algBits, err := in.Security()
				require.NoError(t, err)
				assert.Equal(t, 100.0, friBits)
				assert.Greater(t, algBits, 100.0)
			})
		}
	}
	_, err := ParseField("gf32")
	assert.Error(t, err)
	_, err = New(fri.Field(99), 5, fri.Config{LogBlowup: 2})
	assert.Error(t, err)
}

// An Instance's proof is the generic Prover's, byte for byte (proofs are
// deterministic: Fiat–Shamir and a grinding search from nonce 0).
func TestInstanceProof(t *testing.T) {
	check := func(t *testing.T, f fri.Field, generic func(cfg fri.Config) []byte) {
		cfg, err := fri.NewConfig(f, 100, 2)
		require.NoError(t, err)
		in, err := New(f, 6, cfg)
		require.NoError(t, err)
		defer in.Close()
		proof, err := in.Prove()
		require.NoError(t, err)
		data, err := proof.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, generic(cfg), data)
	}
	check(t, fri.BabyBear, func(cfg fri.Config) []byte { return proveBytes[babybear.Element, bbext.E4](t, cfg, 6) })
	check(t, fri.GF64, func(cfg fri.Config) []byte { return proveBytes[gf64.Element, gf128.Element](t, cfg, 6) })
}

func proveBytes[E fri.Element, X fri.Challenge](t *testing.T, cfg fri.Config, logRows int) []byte {
	p, err := NewProver[E, X](cfg)
	require.NoError(t, err)
	defer p.Close()
	trace, output, err := Fibonacci[E, X](logRows)
	require.NoError(t, err)
	n, err := Rows[E, X](logRows)
	require.NoError(t, err)
	require.Len(t, trace[0], n)
	proof, err := p.Prove(trace, output)
	require.NoError(t, err)
	data, err := proof.MarshalBinary()
	require.NoError(t, err)
	return data
}

// Bad trace domains, blowups and Configs are refused.
func TestNewErrors(t *testing.T) {
	cfg, err := fri.NewConfig(fri.BabyBear, 100, 2)
	require.NoError(t, err)
	for _, k := range []int{MinLogRows - 1, MaxLogRows + 1} {
		_, err := New(fri.BabyBear, k, cfg)
		assert.Error(t, err, "dimension %d", k)
	}
	bad := cfg
	bad.LogBlowup = 5
	_, err = NewProver[babybear.Element, bbext.E4](bad)
	assert.Error(t, err)
	bad = cfg
	bad.BinaryDomains = fri.NestedBinaryDomains(10)
	_, err = NewProver[gf64.Element, gf128.Element](bad)
	assert.Error(t, err)
	_, err = NewProver[babybear.Element, gf128.Element](cfg)
	assert.Error(t, err, "GF(2^128) challenges for BabyBear")
}

// On a GPU encoder (the trace committed and kept on the device, the
// quotient computed and committed there, the opening on the device) every
// field's proof is the CPU's, byte for byte, and verifies; at every blowup,
// from the smallest trace domain to ones whose first FRI layer runs on the
// device.
func TestInstanceGPU(t *testing.T) {
	dev, err := gpu.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	for _, f := range Fields {
		for _, sh := range [][2]int{{MinLogRows, 1}, {10, 2}, {12, 1}, {11, 4}} {
			logRows, logBlowup := sh[0], sh[1]
			t.Run(fmt.Sprintf("%v/2^%d/blowup=%d", f, logRows, 1<<logBlowup), func(t *testing.T) {
				cfg, err := fri.NewConfig(f, 100, logBlowup)
				require.NoError(t, err)
				var proofs [2][]byte
				for i, opts := range [][]prover.Option{nil, {prover.WithGPU(dev)}} {
					in, err := New(f, logRows, cfg, opts...)
					require.NoError(t, err)
					proof, err := in.Prove()
					require.NoError(t, err)
					proofs[i], err = proof.MarshalBinary()
					require.NoError(t, err)
					require.NoError(t, in.Verify(proofs[i]))
					ran := in.Phases().Ran
					if i == 1 {
						assert.Contains(t, ran, "quotient on the GPU")
						if logRows+logBlowup >= 11 { // a first layer of at least 512 leaves
							assert.Contains(t, ran, "opening: GPU")
						}
					}
					t.Logf("%s on %s: %s", in.Backend().Name(), in.Backend().Device(), ran)
					require.NoError(t, in.Close())
				}
				assert.Equal(t, proofs[0], proofs[1], "the GPU's proof is the CPU's")
			})
		}
	}
}
