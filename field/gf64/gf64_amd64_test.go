//go:build amd64 && !purego

package gf64

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReduceTable recomputes the PSHUFB table of the PCLMULQDQ kernels: for
// every top nibble t of a high half H, H·x^64 reduced must equal
// H ^ H<<1 ^ H<<3 ^ H<<4 ^ reduceTable[t] (mod x^64).
func TestReduceTable(t *testing.T) {
	for nib := range 16 {
		s := nib ^ nib>>1 ^ nib>>3
		var g byte
		for i := range 5 {
			if Poly>>i&1 == 1 {
				g ^= byte(s << i)
			}
		}
		assert.Equal(t, g, reduceTable[nib], "reduceTable[%d]", nib)
		for _, low := range []uint64{0, 1, 0x0fffffffffffffff, 0x0123456789abcdef} {
			h := uint64(nib)<<60 | low
			want := reduce(h, 0)
			got := Element(h ^ h<<1 ^ h<<3 ^ h<<4 ^ uint64(reduceTable[nib]))
			assert.Equal(t, want, got, "H = %#x: table reduction", h)
		}
	}
}
