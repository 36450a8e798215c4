package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The chart of made-up rows: a bar per row and panel, a whisker per row and
// time panel from the least run to the largest with the bar's end (the
// median) between them, on a linear scale for close values and a log scale
// for a range of 1000×.
func TestChart(t *testing.T) {
	msd := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	rows := []row{
		{name: "gf64/cpu", commit: msd(10, 12, 30), open: msd(5, 6, 7), prove: msd(15, 18, 37), verify: msd(1, 1.2, 1.1), proofBytes: 78000},
		{name: "babybear/gpu", commit: msd(0.01, 0.02, 0.015), open: msd(4, 5, 6), prove: msd(4, 5, 6), verify: msd(1, 1, 1), proofBytes: 79000},
	}
	o := options{logRows: 16, bits: 100, logBlowup: 2, runs: 3}
	svg := chart(rows, o)
	assert.Equal(t, 5*len(rows), wellFormed(t, []byte(svg))["bar"])
	assert.Contains(t, svg, "commit (ms), log scale", "1000× apart")
	assert.NotContains(t, svg, "open (ms), log scale", "close values")

	// Each bar's end against its whisker, in document order: four time
	// panels, each with its rows.
	type bar struct{ end, lo, hi float64 }
	var bars []bar
	d := xml.NewDecoder(bytes.NewReader([]byte(svg)))
	attr := func(se xml.StartElement, name string) float64 {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				v, err := strconv.ParseFloat(a.Value, 64)
				require.NoError(t, err)
				return v
			}
		}
		t.Fatalf("no %s in %v", name, se)
		return 0
	}
	var class string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		class = ""
		for _, a := range se.Attr {
			if a.Name.Local == "class" {
				class = a.Value
			}
		}
		switch class {
		case "bar":
			bars = append(bars, bar{end: attr(se, "x") + attr(se, "width")})
		case "spread":
			b := &bars[len(bars)-1]
			b.lo, b.hi = attr(se, "x1"), attr(se, "x2")
		}
	}
	require.Len(t, bars, 5*len(rows))
	for i, b := range bars[:4*len(rows)] {
		assert.LessOrEqual(t, b.lo, b.end+0.05, "bar %d: median before the least run", i)
		assert.LessOrEqual(t, b.end, b.hi+0.05, "bar %d: median after the largest run", i)
		assert.Less(t, b.lo, b.hi+0.05, "bar %d", i)
	}
}

// Without -svg, compare writes nothing into the working directory.
func TestNoChartByDefault(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var out bytes.Buffer
	require.NoError(t, run([]string{"-log-rows", "3", "-runs", "1", "-fields", "gf64", "-device", "cpu", "-warmup=false"}, &out, &out))
	assert.Contains(t, out.String(), "gf64/cpu")
	assert.NotContains(t, out.String(), "chart:")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "files written into the working directory")
}
