package prover_test

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

func TestCombine(t *testing.T) {
	t.Run("gf64", func(t *testing.T) {
		testCombine(t, func(acc, a, x gf64.Element) gf64.Element { return acc ^ gf64.Mul(a, x) })
	})
	t.Run("goldilocks", func(t *testing.T) { testCombine(t, mulAdd[goldilocks.Element]) })
	t.Run("babybear", func(t *testing.T) { testCombine(t, mulAdd[babybear.Element]) })
	t.Run("koalabear", func(t *testing.T) { testCombine(t, mulAdd[koalabear.Element]) })
	t.Run("bn254", func(t *testing.T) { testCombine(t, mulAdd[fr.Element]) })
}

// mulAdd is acc + a·x in a gnark-crypto field, one element at a time.
func mulAdd[E any, P interface {
	*E
	Mul(x, y *E) *E
	Add(x, y *E) *E
}](acc, a, x E) E {
	var t E
	P(&t).Mul(&a, &x)
	P(&t).Add(&t, &acc)
	return t
}

// testCombine checks Combine against a row-by-row sum on a commitment whose
// rows span several of Combine's blocks (and a tail), and its shape errors.
func testCombine[E prover.Element](t *testing.T, mulAdd func(acc, a, x E) E) {
	enc, err := prover.New[E](prover.WithBlowup(2))
	require.NoError(t, err)
	for _, sh := range [][2]int{{0, 1}, {3, 5}, {13, 3}} {
		tr, err := prover.RandomTrace[E](sh[0], sh[1], uint64(sh[0]))
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		alpha, err := prover.RandomTrace[E](0, sh[1], 99)
		require.NoError(t, err)
		a := make([]E, sh[1])
		for j := range a {
			a[j] = alpha[j][0]
		}
		got, err := c.Combine(a)
		require.NoError(t, err)
		require.Len(t, got, c.Rows())
		lde := mustLDE(t, c)
		for i := range got {
			var want E
			for j := range lde {
				want = mulAdd(want, a[j], lde[j][i])
			}
			if !assert.Equal(t, want, got[i], "2^%d×%d: row %d", sh[0], sh[1], i) {
				break
			}
		}
		_, err = c.Combine(a[1:])
		require.ErrorIs(t, err, prover.ErrShape)
		require.ErrorIs(t, c.CombineInto(make([]E, c.Rows()-1), a), prover.ErrShape)
	}
}
