package fermat

import (
	"encoding/binary"
	"errors"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	field "github.com/gfpoly/gfpoly/field/fermat"
)

// FuzzFFTHost builds elements from the fuzzer's bytes (any digits, any
// count) and checks that FFTHost's validation agrees with field/fermat's FFT
// (the same errors for the same inputs, the input unchanged on error) and,
// where there is a device, that the GPU transforms give the CPU's bits.
func FuzzFFTHost(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(make([]byte, 3*64))
	f.Add([]byte{1, 2, 3})
	seed := make([]byte, 4*64)
	binary.LittleEndian.PutUint64(seed[64+56:], field.R) // p − 1
	binary.LittleEndian.PutUint64(seed[128:], field.R-1)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		a := make([]field.Element, len(data)/64)
		for i := range a {
			for k := range a[i] {
				a[i][k] = binary.LittleEndian.Uint64(data[64*i+8*k:])
			}
		}
		want := make([]field.Element, len(a))
		copy(want, a)
		cerr := field.FFT(want)
		herr := checkHost(a)
		require.Equal(t, cerr == nil, herr == nil, "CPU: %v, GPU host: %v", cerr, herr)
		if cerr != nil {
			assert.True(t, errors.Is(herr, field.ErrLength) == errors.Is(cerr, field.ErrLength), "%v / %v", herr, cerr)
			assert.True(t, errors.Is(herr, field.ErrNotCanonical) == errors.Is(cerr, field.ErrNotCanonical), "%v / %v", herr, cerr)
		}
		// Without a device this skips, after the checks above.
		tr := transformer(t)
		got := make([]field.Element, len(a)) // nil-ness as a's, for the comparison below
		copy(got, a)
		err := tr.FFTHost(got)
		if cerr != nil {
			require.Error(t, err)
			assert.Equal(t, a, got, "input unchanged on error")
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want, got, "FFT")
		require.NoError(t, tr.IFFTHost(got))
		assert.Equal(t, a, got, "IFFT∘FFT")
	})
}

// FuzzMulBig multiplies integers from the fuzzer's bytes on the GPU against
// math/big (skipping without a device).
func FuzzMulBig(f *testing.F) {
	f.Add([]byte{1}, []byte{2}, false)
	f.Add([]byte{0xff, 0xff, 0xff}, []byte{0xff}, true)
	f.Fuzz(func(t *testing.T, xb, yb []byte, neg bool) {
		x, y := new(big.Int).SetBytes(xb), new(big.Int).SetBytes(yb)
		if neg {
			y.Neg(y)
		}
		want := new(big.Int).Mul(x, y)
		tr := transformer(t)
		got, err := tr.MulBig(x, y)
		require.NoError(t, err)
		assert.Zero(t, want.Cmp(got))
	})
}
