//go:build amd64 && !purego

package gf128

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// TestReduceTable recomputes the PSHUFB table of the kernels: for every top
// nibble t of a high half H, H·x^64 reduced must equal
// H ^ H<<1 ^ H<<3 ^ H<<4 ^ reduceTable[t] (mod x^64).
func TestReduceTable(t *testing.T) {
	for nib := range 16 {
		s := nib ^ nib>>1 ^ nib>>3
		var g byte
		for i := range 5 {
			if 0x1b>>i&1 == 1 {
				g ^= byte(s << i)
			}
		}
		assert.Equal(t, g, reduceTable[nib], "reduceTable[%d]", nib)
		for _, low := range []uint64{0, 1, 0x0fffffffffffffff, 0x0123456789abcdef} {
			h := uint64(nib)<<60 | low
			want := refReduce(h, 0)
			got := gf64.Element(h ^ h<<1 ^ h<<3 ^ h<<4 ^ uint64(reduceTable[nib]))
			assert.Equal(t, want, got, "H = %#x: table reduction", h)
		}
	}
}

// TestCTimes recomputes the constants of the C·m step: x^63 and x^127
// reduced, bit by bit.
func TestCTimes(t *testing.T) {
	assert.Equal(t, uint64(C), cTimes[0], "x^63")
	assert.Equal(t, uint64(refReduce(1<<63, 0)), cTimes[1], "x^127 mod P")
}

// TestPermutationTables checks the AVX-512 index tables against what they
// are documented to do.
func TestPermutationTables(t *testing.T) {
	for i := range 8 {
		assert.Equal(t, uint64(i), spreadIdx[2*i], "spreadIdx: b%d in the low qword of lane %d of register %d", i, i%4, i/4)
	}
	// Row r of eight sits in lane r/2 of the even (r even) or odd table.
	for r := range 8 {
		for q := range 2 {
			want := uint64(r/2*2 + q)
			if r%2 == 1 {
				want += 8
			}
			assert.Equal(t, want, interleaveIdx[2*r+q], "interleaveIdx: row %d qword %d", r, q)
		}
	}
}

// TestScaleConst: a·c = (a0c0 + a1·k0) + (a0c1 + a1·k1) y with k =
// scaleConst(c), the identity the by-constant kernels use.
func TestScaleConst(t *testing.T) {
	rng := newRand(t)
	for range 1000 {
		a, c := randElem(rng), randElem(rng)
		k := scaleConst(c)
		got := Element{refMul64(a.A0, c.A0) ^ refMul64(a.A1, k.A0), refMul64(a.A0, c.A1) ^ refMul64(a.A1, k.A1)}
		assert.Equal(t, refMul(a, c), got, "a=%v c=%v", a, c)
	}
}
