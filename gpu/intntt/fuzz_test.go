package intntt

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/poly/intpoly"
)

// FuzzMulPacked multiplies packed polynomials built from the fuzzer's bytes
// (any limbs: widths 1–3, lengths from the data) by the kernels'
// transliteration and, where there is a device, on the GPU, and compares
// both with intpoly's CPU product.
func FuzzMulPacked(f *testing.F) {
	f.Add([]byte{1, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(1), uint8(1))
	f.Add(make([]byte, 64), uint8(2), uint8(3))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80}, uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, wa, wb uint8) {
		wA, wB := int(wa%3)+1, int(wb%3)+1
		words := make([]uint64, len(data)/8)
		for i := range words {
			words[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		if len(words) < 2 {
			return
		}
		cut := len(words) / 2
		la, lb := cut/wA, (len(words)-cut)/wB
		if la == 0 || lb == 0 {
			return
		}
		a := intpoly.Packed{Width: wA, Limbs: words[:la*wA]}
		b := intpoly.Packed{Width: wB, Limbs: words[cut : cut+lb*wB]}
		bitsA, bitsB := max(maxBits(a), 1), max(maxBits(b), 1)
		want := cpuPacked(t, a, b, bitsA, bitsB, 0)
		got := intpoly.NewPacked(want.Len(), want.Width)
		eMulPacked(t, got, a, b)
		assert.Equal(t, want.Limbs, got.Limbs)
		// Without a device this skips, after the checks above (a failure
		// there still fails the input).
		acc := accel(t)
		got = intpoly.NewPacked(want.Len(), want.Width)
		require.NoError(t, acc.MulPacked(got, a, b))
		assert.Equal(t, want.Limbs, got.Limbs, "GPU")
	})
}

// FuzzMulNat multiplies two non-negative integers cut from the fuzzer's
// bytes (any limbs, zeros and all-ones included) by the kernels'
// transliteration, carries included, and, where there is a device, by
// MulNat on the GPU, against math/big.
func FuzzMulNat(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint16(1))
	f.Add(bytes.Repeat([]byte{0xff}, 200), uint16(7))
	f.Add(make([]byte, 48), uint16(2))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		words := make([]uint64, len(data)/8)
		for i := range words {
			words[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		if len(words) < 2 {
			return
		}
		c := 1 + int(cut)%(len(words)-1)
		x, y := words[:c], words[c:]
		want := natBig(x)
		want.Mul(want, natBig(y))
		z := make([]uint64, len(x)+len(y))
		eMulNat(t, z, x, y)
		assert.Zero(t, want.Cmp(natBig(z)), "emulated")
		acc := accel(t) // skips without a device, after the checks above
		z = make([]uint64, len(x)+len(y))
		require.NoError(t, acc.MulNat(z, x, y))
		assert.Zero(t, want.Cmp(natBig(z)), "GPU")
	})
}
