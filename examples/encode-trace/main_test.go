package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

func runArgs(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, &out, &errOut)
	return out.String() + errOut.String(), err
}

func rootOf(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if r, ok := strings.CutPrefix(l, "root: "); ok {
			return r
		}
	}
	require.FailNow(t, "no root in the output", out)
	return ""
}

func TestRunSynthetic(t *testing.T) {
	for _, b := range []string{"cpu", "gf64/cpu", "goldilocks/cpu", "babybear", "koalabear/cpu", "bn254/cpu"} {
		out, err := runArgs(t, "-log-rows", "6", "-cols", "3", "-blowup", "8", "-backend", b, "-progress", "on")
		require.NoError(t, err, "%s: %s", b, out)
		assert.Regexp(t, "^[0-9a-f]{64}$", rootOf(t, out), "%s: the root is 32 bytes in hexadecimal", b)
	}
}

// TestFiles writes the same trace as a binary file and as CSV and checks that
// both give the root of encoding the trace directly.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	tr, err := prover.RandomTrace[gf64.Element](5, 3, 9)
	require.NoError(t, err)
	var bin bytes.Buffer
	for _, col := range tr {
		for _, v := range col {
			require.NoError(t, binary.Write(&bin, binary.LittleEndian, uint64(v)))
		}
	}
	var csv strings.Builder
	csv.WriteString("# a comment\n")
	for i := range tr[0] {
		for c := range tr {
			if c > 0 {
				csv.WriteString(", ")
			}
			if i%2 == 0 {
				csv.WriteString(tr[c][i].String()) // hexadecimal
			} else {
				csv.WriteString(strconv.FormatUint(uint64(tr[c][i]), 10))
			}
		}
		csv.WriteString("\n\n")
	}
	binPath, csvPath := filepath.Join(dir, "t.bin"), filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(binPath, bin.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(csvPath, []byte(csv.String()), 0o644))

	enc, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	c, err := enc.Commit(tr)
	require.NoError(t, err)
	want := hex.EncodeToString(c.Root())
	for _, args := range [][]string{
		{"-in", binPath, "-cols", "3", "-backend", "cpu"},
		{"-in", csvPath, "-backend", "cpu"},
		{"-in", csvPath, "-format", "csv", "-backend", "gf64/cpu"},
	} {
		out, err := runArgs(t, args...)
		require.NoError(t, err, "%v: %s", args, out)
		assert.Equal(t, want, rootOf(t, out), "%v: the root of encoding the trace directly", args)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	ragged := write("ragged.csv", "1,2\n3\n")
	notPow2 := write("three.csv", "1\n2\n3\n")
	empty := write("empty.csv", "# nothing\n")
	bad := write("bad.csv", "1,x\n")
	big := write("big.csv", "1\n2013265921\n") // the BabyBear modulus
	short := write("short.bin", "1234567")
	for _, args := range [][]string{
		{"-blowup", "3", "-backend", "cpu"},
		{"-log-rows", "27", "-backend", "cpu"},
		{"-log-rows", "-1", "-backend", "cpu"},
		{"-cols", "0", "-backend", "cpu"},
		{"-backend", "gf32"},
		{"-backend", "gf64/tpu"},
		{"-in", ragged, "-backend", "cpu"},
		{"-in", notPow2, "-backend", "cpu"},
		{"-in", empty, "-backend", "cpu"},
		{"-in", bad, "-backend", "cpu"},
		{"-in", big, "-backend", "babybear/cpu"},
		{"-in", short, "-cols", "1", "-backend", "cpu"},
		{"-in", filepath.Join(dir, "missing.bin"), "-backend", "cpu"},
		{"-in", ragged, "-format", "xml", "-backend", "cpu"},
		{"extra"},
	} {
		out, err := runArgs(t, args...)
		assert.Error(t, err, "%v: %s", args, out)
	}
	// A value below the modulus is fine.
	ok := write("ok.csv", "1\n2013265920\n")
	out, err := runArgs(t, "-in", ok, "-backend", "babybear/cpu")
	assert.NoError(t, err, out)
}

func TestParseBackend(t *testing.T) {
	for s, want := range map[string]string{
		"auto": "gf64 auto", "cpu": "gf64 cpu", "gpu": "gf64 gpu", "bn254": "bn254 auto",
		"koalabear/gpu": "koalabear gpu", "goldilocks/cpu": "goldilocks cpu",
	} {
		f, d, err := parseBackend(s)
		if assert.NoError(t, err, "parseBackend(%q)", s) {
			assert.Equal(t, want, f.String()+" "+d, "parseBackend(%q)", s)
		}
	}
}

// FuzzReadCSV: any input is a trace or an error, never a crash, and a trace
// has equal columns.
func FuzzReadCSV(f *testing.F) {
	f.Add("1,2\n3,4\n")
	f.Add("# c\n0x10, 7\n\n8,9\n")
	f.Add("1,2\n3\n")
	f.Add("18446744073709551615\n")
	f.Add("-1\n")
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := readCSV[gf64.Element](strings.NewReader(s), "fuzz")
		if err != nil {
			return
		}
		for i, col := range tr {
			require.Len(t, col, len(tr[0]), "column %d of the trace read from %q", i, s)
		}
	})
}
