package gfvec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/gputest"
)

// gf32Poly is x^32 + x^7 + x^3 + x^2 + 1 without its x^32 term.
const gf32Poly = 1<<7 | 1<<3 | 1<<2 | 1

// gf32MulRef multiplies in GF(2^32) bit by bit (shift and add): the obviously
// right reference for the GF(2^32) kernels.
func gf32MulRef(a, b uint32) uint32 {
	var r uint32
	for i := 0; i < 32; i++ {
		if b>>i&1 == 1 {
			r ^= a
		}
		carry := a >> 31
		a <<= 1
		if carry == 1 {
			a ^= gf32Poly
		}
	}
	return r
}

func TestGF32Reference(t *testing.T) {
	x := uint32(2)
	// x^32 = x^7 + x^3 + x^2 + 1.
	p := uint32(1)
	for i := 0; i < 32; i++ {
		p = gf32MulRef(p, x)
	}
	require.Equal(t, uint32(gf32Poly), p, "x^32")
	w := gputest.Words[uint32](300, 9)
	for i := 0; i+2 < len(w); i += 3 {
		a, b, c := w[i], w[i+1], w[i+2]
		require.Equal(t, gf32MulRef(b, a), gf32MulRef(a, b), "commutativity")
		require.Equal(t, gf32MulRef(a, b)^gf32MulRef(a, c), gf32MulRef(a, b^c), "distributivity")
		require.Equal(t, gf32MulRef(a, gf32MulRef(b, c)), gf32MulRef(gf32MulRef(a, b), c), "associativity")
		require.Equal(t, a, gf32MulRef(a, 1), "a·1")
		require.Zero(t, gf32MulRef(a, 0), "a·0")
	}
	// The multiplicative group has order 2^32-1: a^(2^32-1) = 1 for a != 0,
	// which holds only if the polynomial is irreducible for the tested a.
	for _, a := range w[:8] {
		if a == 0 {
			continue
		}
		r, e, base := uint32(1), uint64(1<<32-1), a
		for ; e > 0; e >>= 1 {
			if e&1 == 1 {
				r = gf32MulRef(r, base)
			}
			base = gf32MulRef(base, base)
		}
		assert.Equal(t, uint32(1), r, "%#x^(2^32-1)", a)
	}
}
