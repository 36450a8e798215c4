package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/examples/internal/stark"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover/fri"
)

func TestSummarize(t *testing.T) {
	d := func(v ...int) []time.Duration {
		var s []time.Duration
		for _, x := range v {
			s = append(s, time.Duration(x))
		}
		return s
	}
	for _, c := range []struct {
		in               []time.Duration
		median, min, max time.Duration
	}{
		{d(7), 7, 7, 7},
		{d(3, 1, 2), 2, 1, 3},
		{d(4, 1, 3, 2), 2, 1, 4}, // (2 + 3) / 2, rounded down to the nanosecond
		{d(10, 40, 20, 30), 25, 10, 40},
		{d(5, 5, 9, 1, 5), 5, 1, 9},
		{d(100, 1, 1, 1, 1, 1), 1, 1, 100},
	} {
		in := append([]time.Duration(nil), c.in...)
		got := summarize(c.in)
		assert.Equal(t, spread{Median: c.median, Min: c.min, Max: c.max}, got, "%v", in)
		assert.Equal(t, in, c.in, "the samples are not reordered")
	}
	assert.Equal(t, spread{}, summarize(nil))
}

// The measured rows against the library: every field's row has the runs
// asked for, the proof's size is its MarshalBinary's length, that proof
// verifies and is the one an Instance of the same field proves, the
// extension degree is the field's, and every row's conjectured security is
// the same, the target.
func TestRows(t *testing.T) {
	o := options{logRows: 5, bits: 100, logBlowup: 2, runs: 3, fields: stark.Fields, device: "cpu", warmup: true}
	rows, skipped, cfg, err := measureAll(o, nil)
	require.NoError(t, err)
	require.Empty(t, skipped)
	require.NotNil(t, cfg)
	require.Len(t, rows, len(stark.Fields))
	degree := map[fri.Field]int{fri.GF64: 2, fri.BabyBear: 4, fri.KoalaBear: 4, fri.Goldilocks: 2, fri.BN254: 1}
	for i := range rows {
		r := &rows[i]
		assert.Equal(t, stark.Fields[i], r.field)
		assert.Equal(t, r.field.String()+"/cpu", r.name)
		assert.Equal(t, degree[r.field], r.degree, r.name)
		for _, s := range [][]time.Duration{r.commit, r.open, r.prove, r.verify} {
			assert.Len(t, s, o.runs, r.name)
		}
		for j := range o.runs {
			assert.LessOrEqual(t, r.commit[j]+r.open[j], r.prove[j], "%s: the phases are parts of the proof", r.name)
		}

		// The size is the bytes'.
		in, err := stark.New(r.field, o.logRows, r.cfg)
		require.NoError(t, err)
		require.NoError(t, in.Verify(r.proof), r.name)
		proof, err := in.Prove()
		require.NoError(t, err)
		data, err := proof.MarshalBinary()
		require.NoError(t, err)
		require.NoError(t, in.Close())
		assert.Equal(t, len(data), r.proofBytes, r.name)
		assert.Equal(t, data, r.proof, "%s: the measured proof is the library's", r.name)

		// The same security for every row: the target.
		assert.Equal(t, o.bits, r.bits, r.name)
		assert.True(t, sameParams(*cfg, r.cfg), r.name)
		assert.Equal(t, o.bits, r.cfg.Bits)
		assert.Equal(t, 1<<o.logBlowup, 1<<r.cfg.LogBlowup)
		assert.GreaterOrEqual(t, min(r.friBits, r.algBits), float64(o.bits), r.name)
		assert.Less(t, min(r.friBits, r.algBits), float64(o.bits+1), r.name)
		assert.Equal(t, int64(-1), r.devicePeak, "no device memory on the CPU")
		assert.Positive(t, r.heapPeak, r.name)
	}
}

// The same at another target and blowup: the rows still share one security.
func TestRowsOtherTarget(t *testing.T) {
	o := options{logRows: 4, bits: 112, logBlowup: 3, runs: 1, fields: []fri.Field{fri.GF64, fri.BabyBear, fri.BN254}, device: "cpu"}
	rows, skipped, cfg, err := measureAll(o, nil)
	require.NoError(t, err)
	require.Empty(t, skipped)
	require.Len(t, rows, 3)
	assert.Equal(t, 32, cfg.Queries, "⌈(112 − 16)/3⌉")
	for _, r := range rows {
		assert.Equal(t, 112, r.bits, r.name)
		assert.Equal(t, 3, r.cfg.LogBlowup, r.name)
	}
}

// On a GPU the rows run, verify, prove what the CPU rows prove, and report
// the device's memory.
func TestRowsGPU(t *testing.T) {
	dev, err := gpu.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	o := options{logRows: 8, bits: 100, logBlowup: 2, runs: 2, fields: stark.Fields, device: "all", warmup: true}
	rows, skipped, _, err := measureAll(o, dev)
	require.NoError(t, err)
	assert.Empty(t, skipped)
	require.Len(t, rows, 2*len(stark.Fields), "a CPU and a GPU row per field")
	n := len(stark.Fields)
	for i := range n {
		c, g := &rows[i], &rows[n+i]
		assert.Equal(t, "cpu", c.device)
		assert.Equal(t, "gpu", g.device)
		assert.Equal(t, c.field, g.field)
		assert.Equal(t, c.proof, g.proof, "%s: the GPU's proof is the CPU's", g.name)
		assert.Equal(t, c.bits, g.bits)
		assert.GreaterOrEqual(t, g.devicePeak, int64(0), "%s: %s", g.name, g.devNote)
		t.Logf("%s: device memory %d bytes", g.name, g.devicePeak)
	}
}
