package intpoly

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// polyFromBytes cuts data into coefficients: each starts with a header byte
// whose low 5 bits give its length in bytes (0–31) and bit 5 its sign.
func polyFromBytes(data []byte) []*big.Int {
	var out []*big.Int
	for len(data) > 0 {
		h := data[0]
		data = data[1:]
		n := min(int(h&31), len(data))
		x := new(big.Int).SetBytes(data[:n])
		data = data[n:]
		if h&32 != 0 {
			x.Neg(x)
		}
		out = append(out, x)
	}
	return out
}

func FuzzMul(f *testing.F) {
	f.Add([]byte{1, 5}, []byte{33, 7, 2, 1, 1})
	f.Add([]byte{}, []byte{1, 1})
	f.Add([]byte{0, 0, 0}, []byte{31, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255})
	f.Add([]byte{40, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 40, 0x80, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, da, db []byte) {
		a, b := polyFromBytes(da), polyFromBytes(db)
		want := schoolbook(a, b)
		for _, name := range cpufeat.Available("intpoly") {
			restore := cpufeat.Select("intpoly", name)
			got, err := Mul(a, b)
			sq, errSq := Mul(a, a)
			restore()
			require.NoError(t, err, name)
			require.NoError(t, errSq, name, "square")
			requireEqualBig(t, want, got, name)
			requireEqualBig(t, schoolbook(a, a), sq, name, "square")
		}
		// An accelerator that holds 140 bits: coefficients past 64 bits
		// go by slices (mulOnAccel).
		if len(a) > 0 && len(b) > 0 {
			acc := &cpuAccel{capBits: 140}
			got, err := Mul(a, b, WithAccelerator(acc))
			require.NoError(t, err, "by slices")
			requireEqualBig(t, want, got, "by slices")
		}
	})
}

func FuzzMulBig(f *testing.F) {
	f.Add([]byte{1}, []byte{2}, false, true)
	f.Add([]byte{}, []byte{2}, true, true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, false, false)
	f.Fuzz(func(t *testing.T, dx, dy []byte, nx, ny bool) {
		x, y := new(big.Int).SetBytes(dx), new(big.Int).SetBytes(dy)
		if nx {
			x.Neg(x)
		}
		if ny {
			y.Neg(y)
		}
		want := new(big.Int).Mul(x, y)
		defer func(c int) { mulBigCrossover = c }(mulBigCrossover)
		mulBigCrossover = 1 // always through the transforms
		for _, name := range cpufeat.Available("intpoly") {
			restore := cpufeat.Select("intpoly", name)
			got, err := MulBig(x, y)
			restore()
			require.NoError(t, err, name)
			require.Zero(t, got.Cmp(want), "%s: %v·%v = %v, got %v", name, x, y, want, got)
		}
	})
}
