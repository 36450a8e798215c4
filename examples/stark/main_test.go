package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	for _, field := range []string{"babybear", "koalabear", "goldilocks", "bn254", "gf64"} {
		var out, errOut bytes.Buffer
		err := run([]string{"-field", field, "-log-rows", "6", "-bits", "100"}, &out, &errOut)
		require.NoError(t, err, "%s: %s%s", field, out.String(), errOut.String())
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		require.Len(t, lines, 5, "%s", out.String())
		assert.Contains(t, lines[0], "Fibonacci AIR over "+field+", 2^6 ")
		for i, prefix := range []string{"prove ", "verify ", "proof ", "security  100 conjectured bits"} {
			assert.True(t, strings.HasPrefix(lines[i+1], prefix), "line %d: %q", i+1, lines[i+1])
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-field", "gf32"},
		{"-log-rows", "2"},
		{"-log-rows", "25"},
		{"-bits", "60"},  // under fri.MinBits
		{"-bits", "128"}, // more than BabyBear⁴ gives
		{"-blowup", "5"},
		{"-blowup", "32"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		assert.Error(t, run(args, &out, &errOut), "%v", args)
	}
}

func TestRunBlowup(t *testing.T) {
	var out, errOut bytes.Buffer
	require.NoError(t, run([]string{"-field", "gf64", "-log-rows", "5", "-blowup", "16"}, &out, &errOut), "%s", errOut.String())
	assert.Contains(t, out.String(), "blowup 16")
	assert.Contains(t, out.String(), "21 queries × 4 + 16 grinding bits")
}
