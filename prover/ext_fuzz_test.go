package prover_test

import (
	"bytes"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/prover"
)

// fuzzCommitment is a BabyBear commitment of 8 rows × 2 columns (blowup 2)
// built from known coefficients.
func fuzzCommitment(t testing.TB) (*prover.Commitment[babybear.Element], [][]babybear.Element) {
	enc, err := prover.New[babybear.Element](prover.WithBlowup(2))
	require.NoError(t, err)
	coeffs, err := prover.RandomTrace[babybear.Element](3, 2, 77)
	require.NoError(t, err)
	w := kitBabyBear.traceGen(8)
	tr := make(prover.Trace[babybear.Element], 2)
	for j := range tr {
		tr[j] = make([]babybear.Element, 8)
		x := babybear.One()
		for i := range 8 {
			tr[j][i] = kitBabyBear.hornerE(coeffs[j], x)
			x.Mul(&x, &w)
		}
	}
	c, err := enc.Commit(tr)
	require.NoError(t, err)
	return c, coeffs
}

// FuzzEvaluate feeds Evaluate and CombineExt points, coefficients and
// destination shapes from the fuzzer's bytes: shapes that do not fit are
// ErrShape, every result is the reference's, and nothing panics.
func FuzzEvaluate(f *testing.F) {
	c, coeffs := fuzzCommitment(f)
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{3, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add(append([]byte{2, 0x80, 4}, bytes.Repeat([]byte{0x11}, 64)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 3 {
			return
		}
		np, shape, row := int(b[0]%6), b[1], int(b[2])%c.Rows()
		r := bytes.NewReader(b[3:])
		pts := make([]bbext.E4, np)
		for p := range pts {
			x, err := prover.DrawExt[bbext.E4](r)
			if err != nil {
				return
			}
			pts[p] = x
		}
		if np > 0 && shape&0x80 != 0 { // a codeword point
			x, err := c.CodewordPoint(row)
			require.NoError(t, err)
			pts[0] = bbext.E4{B0: bbext.E2{A0: x}}
		}
		dst := make([][]bbext.E4, np+int(shape&1))
		for p := range dst {
			dst[p] = make([]bbext.E4, 2+int(shape>>1&1))
		}
		err := prover.EvaluateInto(c, dst, pts)
		if np == 0 || shape&3 != 0 {
			require.ErrorIs(t, err, prover.ErrShape)
		} else {
			require.NoError(t, err)
			for p, z := range pts {
				for j := range 2 {
					require.Equal(t, kitBabyBear.horner(coeffs[j], z), dst[p][j])
				}
			}
		}
		// CombineExt with the points as coefficients.
		_, err = prover.CombineExt(c, pts)
		if np != 2 {
			require.ErrorIs(t, err, prover.ErrShape)
		} else {
			require.NoError(t, err)
		}
	})
}
