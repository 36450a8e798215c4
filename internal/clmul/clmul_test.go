package clmul

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// ref is the carry-less product bit by bit.
func ref(a, b uint64) (hi, lo uint64) {
	for i := range 64 {
		if b>>i&1 == 1 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return hi, lo
}

func TestMul64(t *testing.T) {
	edge := []uint64{0, 1, 2, 3, 1 << 63, ^uint64(0), 0x8000000000000001, m0, m4, 0xaaaaaaaaaaaaaaaa}
	r := rand.New(rand.NewPCG(1, 2))
	vals := append([]uint64(nil), edge...)
	for range 2000 {
		vals = append(vals, r.Uint64())
	}
	for i, a := range vals {
		for _, b := range append(edge, vals[(i+1)%len(vals)]) {
			wh, wl := ref(a, b)
			h, l := Mul64(a, b)
			require.Equal(t, [2]uint64{wh, wl}, [2]uint64{h, l}, "Mul64(%#x, %#x): high, low", a, b)
		}
	}
	// x^63 · x^63 = x^126: bit 62 of the high word.
	h, l := Mul64(1<<63, 1<<63)
	require.Equal(t, [2]uint64{1 << 62, 0}, [2]uint64{h, l})
}
