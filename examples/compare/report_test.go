package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fake returns a row with the given prove and verify times (ms, one per run)
// and proof bytes.
func fake(name string, prove, verify []float64, bytes int) row {
	d := func(v []float64) []time.Duration {
		var s []time.Duration
		for _, x := range v {
			s = append(s, time.Duration(x*float64(time.Millisecond)))
		}
		return s
	}
	return row{name: name, prove: d(prove), verify: d(verify), commit: d(prove), open: d(prove), proofBytes: bytes}
}

// The picks are the measured minima: of the medians for times (not of the
// means, nor of the best runs), of the bytes for the proof.
func TestRecommend(t *testing.T) {
	rows := []row{
		fake("a/cpu", []float64{100, 101, 300}, []float64{2, 2, 2}, 900), // best single run 100, median 101
		fake("b/cpu", []float64{90, 99, 95}, []float64{3, 1, 3}, 800),    // median 95: the fastest prover
		fake("c/gpu", []float64{20, 500, 600}, []float64{1.5, 1.5, 1.6}, 800),
	}
	picks := recommend(rows)
	require.Len(t, picks, 3)
	byWhat := map[string]pick{}
	for _, p := range picks {
		byWhat[p.what] = p
	}
	prove := byWhat["fastest prover"]
	assert.Equal(t, "b/cpu", prove.best.name)
	assert.Equal(t, "a/cpu", prove.next.name)
	assert.False(t, prove.overlap, "a's runs are all slower than b's")
	size := byWhat["smallest proof"]
	assert.Equal(t, "b/cpu", size.best.name, "a tie goes to the earlier row")
	assert.Equal(t, "c/gpu", size.next.name)
	verify := byWhat["fastest verifier"]
	assert.Equal(t, "c/gpu", verify.best.name, "median 1.5 against b's 3 and a's 2")
	assert.Equal(t, "a/cpu", verify.next.name)
	assert.False(t, verify.overlap)

	// The minima, found another way.
	for _, p := range picks {
		for i := range rows {
			assert.LessOrEqual(t, p.value(p.best), p.value(&rows[i]), "%s: %s beats the pick", p.what, rows[i].name)
		}
	}

	var out bytes.Buffer
	writeRecommendation(&out, picks, options{logRows: 16, bits: 100, logBlowup: 2, runs: 3})
	text := out.String()
	assert.Contains(t, text, "fastest prover:   b/cpu, 95.0 ms (next: a/cpu, 101 ms, +6.3%)")
	assert.Contains(t, text, "smallest proof:   b/cpu, 800 bytes (next: c/gpu, 800 bytes, +0.0%)")
	assert.Contains(t, text, "fastest verifier: c/gpu, 1.50 ms (next: a/cpu, 2.00 ms, 1.33×)")

	// Overlapping spreads are said to be.
	rows = []row{fake("x", []float64{10, 11, 12}, []float64{1}, 1), fake("y", []float64{11.5, 12, 13}, []float64{1}, 1)}
	picks = recommend(rows)
	assert.True(t, picks[0].overlap)
	out.Reset()
	writeRecommendation(&out, picks, options{runs: 3})
	assert.True(t, strings.Contains(out.String(), "the spreads of 3 runs overlap"), out.String())

	// One row: no runner-up.
	picks = recommend(rows[:1])
	assert.Nil(t, picks[0].next)
}

func TestMargin(t *testing.T) {
	assert.Equal(t, "+2.5%", margin(100, 102.5))
	assert.Equal(t, "1.10×", margin(100, 110))
	assert.Equal(t, "12.00×", margin(1, 12))
	assert.Equal(t, "no ratio", margin(0, 1))
}

// A row under the target (the algebraic errors of a large trace) is said to
// be, and the table's cells are the medians and spreads.
func TestTable(t *testing.T) {
	a := fake("babybear/cpu", []float64{3, 1, 2}, []float64{0.5, 0.25, 0.75}, 1234)
	a.degree, a.bits, a.friBits, a.algBits, a.devicePeak = 4, 99, 100, 99.7, -1
	b := fake("gf64/gpu", []float64{1}, []float64{1}, 1000)
	b.degree, b.bits, b.friBits, b.algBits, b.devicePeak, b.device = 2, 100, 100, 109, 3<<20, "gpu"
	var out bytes.Buffer
	writeTable(&out, []row{a, b}, options{bits: 100})
	text := out.String()
	assert.Contains(t, text, "babybear/cpu       4   99  2.00 [1.00–3.00]")
	assert.Contains(t, text, "0.500 [0.250–0.750]")
	assert.Contains(t, text, "     1234")
	assert.Contains(t, text, "      3.0\n", "the device's MiB")
	assert.Contains(t, text, "security: babybear/cpu: 99 bits, not the target 100 (FRI 100.0, algebraic errors 2^-99.7)")
	assert.NotContains(t, text, "security: gf64/gpu")
}
