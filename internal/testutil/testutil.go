// Package testutil holds the assertions that the module's tests share, built
// on testify: comparisons of long vectors (transform outputs, codewords,
// trace columns) that report where two vectors differ instead of printing
// both whole, and a check on the message a function panics with; and the
// extent of the size sweeps (Sweep, Long): small by default, full under
// GFPOLY_LONG=1, which CI sets in a step of its own.
//
// It is imported by _test.go files only; no library package depends on it.
// For short slices, whose whole contents make a readable diff, tests call
// assert.Equal directly.
package testutil

import (
	"fmt"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type helper interface{ Helper() }

// EqualSlices asserts that got holds want's elements in want's order; nil and
// empty slices are equal. On a mismatch it fails the test (t.Errorf) with the
// lengths, or with the first and last differing indices, the values there and
// how many positions differ, followed by msgAndArgs as testify formats them.
// It returns whether the slices are equal.
func EqualSlices[E comparable](t assert.TestingT, want, got []E, msgAndArgs ...any) bool {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if d := diff(want, got); d != "" {
		return assert.Fail(t, d, msgAndArgs...)
	}
	return true
}

// RequireEqualSlices is EqualSlices that stops the test (t.FailNow) on a
// mismatch.
func RequireEqualSlices[E comparable](t require.TestingT, want, got []E, msgAndArgs ...any) {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if !EqualSlices(t, want, got, msgAndArgs...) {
		t.FailNow()
	}
}

// EqualColumns asserts that got has as many columns as want and that each
// column equals want's as EqualSlices compares them. It reports every
// differing column, naming it, and returns whether all are equal.
func EqualColumns[E comparable](t assert.TestingT, want, got [][]E, msgAndArgs ...any) bool {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if len(want) != len(got) {
		return assert.Fail(t, fmt.Sprintf("numbers of columns differ: want %d, got %d", len(want), len(got)), msgAndArgs...)
	}
	ok := true
	for c := range want {
		if d := diff(want[c], got[c]); d != "" {
			ok = assert.Fail(t, fmt.Sprintf("column %d: %s", c, d), msgAndArgs...)
		}
	}
	return ok
}

// RequireEqualColumns is EqualColumns that stops the test (t.FailNow) on a
// mismatch.
func RequireEqualColumns[E comparable](t require.TestingT, want, got [][]E, msgAndArgs ...any) {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if !EqualColumns(t, want, got, msgAndArgs...) {
		t.FailNow()
	}
}

// PanicMessage calls f and returns the string it panics with. It stops the
// test (t.FailNow) when f returns normally or panics with a value that is not
// a string.
func PanicMessage(t require.TestingT, f func(), msgAndArgs ...any) string {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	v, panicked := recovered(f)
	if !panicked {
		assert.Fail(t, "function did not panic", msgAndArgs...)
		t.FailNow()
		return ""
	}
	s, ok := v.(string)
	if !ok {
		assert.Fail(t, fmt.Sprintf("panic value %#v (%T) is not a string", v, v), msgAndArgs...)
		t.FailNow()
	}
	return s
}

func recovered(f func()) (v any, panicked bool) {
	panicked = true
	defer func() { v = recover() }()
	f()
	panicked = false
	return nil, false
}

// diff describes how got differs from want, or returns "" when they are equal.
func diff[E comparable](want, got []E) string {
	n := min(len(want), len(got))
	first, last, count := -1, -1, 0
	for i := range n {
		if want[i] != got[i] {
			if first < 0 {
				first = i
			}
			last = i
			count++
		}
	}
	if len(want) != len(got) {
		s := fmt.Sprintf("lengths differ: want %d elements, got %d", len(want), len(got))
		if first < 0 {
			return s + fmt.Sprintf("; the first %d are equal", n)
		}
		return s + fmt.Sprintf("; first difference at index %d: want %s, got %s", first, show(want[first]), show(got[first]))
	}
	if count == 0 {
		return ""
	}
	s := fmt.Sprintf("%d of %d elements differ; first at index %d: want %s, got %s",
		count, len(want), first, show(want[first]), show(got[first]))
	if last != first {
		s += fmt.Sprintf("; last at index %d: want %s, got %s", last, show(want[last]), show(got[last]))
	}
	return s
}

// show formats v with its String method where it has one, on the value or
// on a pointer to it (the field elements of gnark-crypto have the latter).
func show[E any](v E) string {
	if s, ok := any(&v).(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%v", v)
}
