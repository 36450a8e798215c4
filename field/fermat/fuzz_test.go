package fermat

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzSetBigMul feeds SetBig arbitrary (signed, any size) integers and checks
// SetBig, Big, Mul, Add, Sub and MulBig against math/big.
func FuzzSetBigMul(f *testing.F) {
	p := Modulus()
	f.Add([]byte{}, []byte{1}, false, true)
	f.Add(pMinus1.Bytes(), pMinus1.Bytes(), false, false)
	f.Add(p.Bytes(), new(big.Int).Lsh(p, 3).Bytes(), true, false)
	f.Add([]byte{0x80, 0, 0, 4, 0, 0, 0, 0}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, false, true)
	f.Fuzz(func(t *testing.T, xs, ys []byte, xneg, yneg bool) {
		x, y := new(big.Int).SetBytes(xs), new(big.Int).SetBytes(ys)
		if xneg {
			x.Neg(x)
		}
		if yneg {
			y.Neg(y)
		}
		var ex, ey, z Element
		ex.SetBig(x)
		ey.SetBig(y)
		require.True(t, ex.IsCanonical())
		require.Equal(t, 0, new(big.Int).Mod(x, p).Cmp(ex.Big()))
		w := new(big.Int)
		z.Mul(&ex, &ey)
		require.Equal(t, 0, w.Mul(x, y).Mod(w, p).Cmp(z.Big()), "Mul")
		z.Add(&ex, &ey)
		require.Equal(t, 0, w.Add(x, y).Mod(w, p).Cmp(z.Big()), "Add")
		z.Sub(&ex, &ey)
		require.Equal(t, 0, w.Sub(x, y).Mod(w, p).Cmp(z.Big()), "Sub")
		got, err := MulBig(x, y)
		require.NoError(t, err)
		require.Equal(t, 0, w.Mul(x, y).Cmp(got), "MulBig")
	})
}
