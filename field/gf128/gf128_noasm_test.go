//go:build !amd64 || purego

package gf128

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// TestGenericOnly: without assembly (-tags purego, or another architecture)
// the generic code is the only implementation.
func TestGenericOnly(t *testing.T) {
	assert.Equal(t, []string{"generic"}, cpufeat.Available("gf128"))
	assert.Equal(t, "generic", cpufeat.Active("gf128"))
}
