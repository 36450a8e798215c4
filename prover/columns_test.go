package prover

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// equalColumn asserts that got is want element by element. A failure names
// the first differing index and the two values there rather than printing
// whole LDE columns, which run to millions of elements.
func equalColumn[E comparable](t assert.TestingT, want, got []E, msgAndArgs ...any) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if len(got) != len(want) {
		return assert.Fail(t, fmt.Sprintf("column of %d elements, want %d", len(got), len(want)), msgAndArgs...)
	}
	for i := range want {
		if got[i] != want[i] {
			return assert.Fail(t, fmt.Sprintf("first difference at index %d of %d: got %v, want %v", i, len(want), got[i], want[i]), msgAndArgs...)
		}
	}
	return true
}

// equalColumns is equalColumn over every column of a trace or LDE; a failure
// names the first differing column and, in it, the first differing index.
func equalColumns[E comparable](t assert.TestingT, want, got [][]E, msgAndArgs ...any) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if len(got) != len(want) {
		return assert.Fail(t, fmt.Sprintf("%d columns, want %d", len(got), len(want)), msgAndArgs...)
	}
	for c := range want {
		if len(got[c]) != len(want[c]) {
			return assert.Fail(t, fmt.Sprintf("column %d has %d elements, want %d", c, len(got[c]), len(want[c])), msgAndArgs...)
		}
		for i := range want[c] {
			if got[c][i] != want[c][i] {
				return assert.Fail(t, fmt.Sprintf("column %d: first difference at index %d of %d: got %v, want %v", c, i, len(want[c]), got[c][i], want[c][i]), msgAndArgs...)
			}
		}
	}
	return true
}

// equal reports whether a and b hold the same elements; the GPU tests compare
// columns with it.
func equal[E comparable](a, b []E) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mustLDE returns the commitment's LDE, failing the test on an error.
func mustLDE[E Element](t testing.TB, c *Commitment[E]) [][]E {
	t.Helper()
	lde, err := c.LDE()
	require.NoError(t, err, "the commitment's LDE")
	return lde
}
