package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	var out, errOut bytes.Buffer
	err := run([]string{"-log-rows", "5", "-cols", "3", "-blowup", "2", "-svg", svg}, &out, &errOut)
	require.NoError(t, err, "%s%s", out.String(), errOut.String())
	for _, name := range []string{"gf64/cpu", "goldilocks/cpu", "babybear/cpu", "koalabear/cpu", "bn254/cpu"} {
		assert.Contains(t, out.String(), "\n"+name+" ", "no row for %s", name)
	}
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	d := xml.NewDecoder(bytes.NewReader(data))
	rects := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the chart is well-formed XML")
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	assert.GreaterOrEqual(t, rects, 3+2*5, "rects in the chart: background, legend, two bars per backend")
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-blowup", "5"}, {"-log-rows", "30"}, {"-cols", "0"}, {"-fields", "gf2"}, {"-device", "tpu"}, {"x"},
	} {
		var out bytes.Buffer
		assert.Error(t, run(args, &out, &out), "%v", args)
	}
}

func TestOneField(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-log-rows", "3", "-cols", "2", "-fields", "gf64,koalabear", "-svg", "", "-device", "cpu", "-warmup=false"}, &out, &out)
	require.NoError(t, err)
	assert.NotContains(t, out.String(), "bn254", "rows for fields not asked for")
	assert.Contains(t, out.String(), "koalabear/cpu", "the row for a field asked for")
}
