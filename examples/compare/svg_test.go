package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoChartByDefault: without -svg, compare writes nothing into the
// working directory.
func TestNoChartByDefault(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var out bytes.Buffer
	require.NoError(t, run([]string{"-log-rows", "3", "-cols", "2", "-fields", "gf64", "-device", "cpu", "-warmup=false"}, &out, &out))
	assert.Contains(t, out.String(), "gf64/cpu")
	assert.NotContains(t, out.String(), "chart:")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "files written into the working directory")
}
