package testutil

import (
	"os"
	"strconv"
	"testing"
)

// LongEnv names the environment variable that turns on the long sweeps:
// with GFPOLY_LONG=1 (any value strconv.ParseBool reads as true) the tests
// that sweep sizes, implementations or core counts run their full range,
// which takes minutes; without it they run a small instance of the same
// sweep, so that `go test ./...` stays quick. CI sets it in a step of its
// own (.ci/run). -short scales further down and wins over GFPOLY_LONG.
const LongEnv = "GFPOLY_LONG"

// Long reports whether the long sweeps run: GFPOLY_LONG is true and the
// tests do not run with -short.
func Long() bool {
	if testing.Short() {
		return false
	}
	v, err := strconv.ParseBool(os.Getenv(LongEnv))
	return err == nil && v
}

// Sweep returns the extent of a sweep (a largest size, a number of trials):
// short under -short, long under GFPOLY_LONG, quick otherwise.
func Sweep[T any](short, quick, long T) T {
	switch {
	case testing.Short():
		return short
	case Long():
		return long
	}
	return quick
}
