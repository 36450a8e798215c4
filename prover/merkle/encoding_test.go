package merkle

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/stretchr/testify/assert"
)

// TestAllocs: the leaf encoding of a row into room enough, and the digest
// of a row, allocate nothing.
func TestAllocs(t *testing.T) {
	row := make([]babybear.Element, 8)
	dst := make([]byte, 0, 64)
	assert.Zero(t, testing.AllocsPerRun(10, func() { AppendRow(dst, row) }), "AppendRow")
	s := newHState(Hasher{}.norm())
	big := make([]fr.Element, 4)
	d := make([]byte, 32)
	rowDigest(s, big, d) // grows the state's buffer once
	assert.Zero(t, testing.AllocsPerRun(10, func() { rowDigest(s, big, d) }), "rowDigest")
}
