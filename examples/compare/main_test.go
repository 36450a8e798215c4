package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
)

// The command end to end, every field, with a chart: a row per field on the
// CPU, the GPU's rows run or said not to run, the recommendation, and a
// well-formed chart.
func TestRun(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	var out, errOut bytes.Buffer
	err := run([]string{"-log-rows", "5", "-runs", "3", "-svg", svg}, &out, &errOut)
	require.NoError(t, err, "%s%s", out.String(), errOut.String())
	text := out.String()
	t.Log("\n" + text)
	for _, name := range []string{"gf64/cpu", "babybear/cpu", "koalabear/cpu", "goldilocks/cpu", "bn254/cpu"} {
		assert.Contains(t, text, "\n"+name+" ", "no row for %s", name)
	}
	if dev, err := gpu.Open(); err != nil {
		require.ErrorIs(t, err, gpu.ErrNoDevice)
		assert.Contains(t, text, "GPU: none")
		assert.Contains(t, text, "not run: gf64/gpu, babybear/gpu, koalabear/gpu, goldilocks/gpu, bn254/gpu: no GPU (")
	} else {
		dev.Close()
		assert.Contains(t, text, "\nbabybear/gpu ")
	}
	for _, s := range []string{"fastest prover:", "smallest proof:", "fastest verifier:", "42 queries, 16 grinding bits", "median [min–max] of 3 runs"} {
		assert.Contains(t, text, s)
	}
	assert.NotContains(t, text, "security:", "a row below the target")

	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.Equal(t, 5*5, wellFormed(t, data)["bar"], "a bar per row and panel")
}

// wellFormed parses an SVG and counts its elements by class.
func wellFormed(t *testing.T, data []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	classes := map[string]int{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the chart is well-formed XML")
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					classes[a.Value]++
				}
			}
		}
	}
	return classes
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-blowup", "5"}, {"-blowup", "32"}, {"-log-rows", "2"}, {"-log-rows", "30"}, {"-logrows", "25"},
		{"-cols", "16"}, {"-fields", "gf2"}, {"-device", "tpu"}, {"-runs", "0"}, {"-bits", "60"}, {"x"},
	} {
		var out bytes.Buffer
		assert.Error(t, run(args, &out, &out), "%v", args)
	}
}

func TestOneField(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-logrows", "4", "-cols", "2", "-runs", "1", "-fields", "gf64,koalabear", "-device", "cpu", "-warmup=false"}, &out, &out)
	require.NoError(t, err, "%s", out.String())
	assert.NotContains(t, out.String(), "bn254", "rows for fields not asked for")
	assert.Contains(t, out.String(), "koalabear/cpu", "the row for a field asked for")
	assert.Contains(t, out.String(), "2^4 rows")
	assert.NotContains(t, out.String(), "gpu", "a GPU row with -device cpu")
}

// A target that only BN254's challenge field reaches: the other fields are
// not run, and say why.
func TestTargetOnlyBN254Reaches(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"-log-rows", "4", "-runs", "1", "-bits", "128", "-device", "cpu"}, &out, &out), "%s", out.String())
	text := out.String()
	assert.Contains(t, text, "\nbn254/cpu ")
	for _, f := range []string{"gf64", "babybear", "koalabear", "goldilocks"} {
		assert.Contains(t, text, "not run: "+f+": fri: 128 bits", "%s", f)
	}
	assert.Contains(t, text, "fastest prover:   bn254/cpu")
	assert.NotContains(t, text, "\ngf64/cpu ", "a row below the target")
}
