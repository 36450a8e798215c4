package primentt_test

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/primentt"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// field is what the test needs of a gnark-crypto element.
type field[E any] interface {
	*E
	SetRandom() (*E, error)
	SetUint64(uint64) *E
	Mul(x, y *E) *E
	Add(x, y *E) *E
	Neg(x *E) *E
}

// TestCombine checks Combine against gnark-crypto's arithmetic for every
// field, column counts around a launch's 32 coefficients and lengths off
// the block size, with zero, one and p−1 among the coefficients.
func TestCombine(t *testing.T) {
	t.Run("goldilocks", func(t *testing.T) { testCombine[goldilocks.Element](t) })
	t.Run("babybear", func(t *testing.T) { testCombine[babybear.Element](t) })
	t.Run("koalabear", func(t *testing.T) { testCombine[koalabear.Element](t) })
	t.Run("bn254", func(t *testing.T) { testCombine[fr.Element](t) })
}

func testCombine[E primentt.Element, P field[E]](t *testing.T) {
	d := gputest.Device(t)
	for _, sh := range [][2]int{{1, 1}, {3, 7}, {32, 300}, {33, 1025}, {65, 2000}} {
		cols, n := sh[0], sh[1]
		x := make([]E, cols*n)
		for i := range x {
			P(&x[i]).SetRandom()
		}
		P(&x[0]).SetUint64(0)
		alpha := make([]E, cols)
		for j := range alpha {
			P(&alpha[j]).SetRandom()
		}
		if cols > 2 {
			P(&alpha[0]).SetUint64(0)
			P(&alpha[1]).SetUint64(1)
			P(&alpha[2]).Neg(P(&alpha[2]).SetUint64(1)) // p − 1
		}
		want := make([]E, n)
		for j := range cols {
			for i := range n {
				var p E
				P(&p).Mul(&x[j*n+i], &alpha[j])
				P(&want[i]).Add(&want[i], &p)
			}
		}
		dx, dst := gputest.Upload(t, d, x), gputest.Alloc[E](t, d, n)
		require.NoError(t, primentt.Combine(nil, dst, dx, alpha))
		testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "%d columns of %d", cols, n)
	}
	x := gputest.Alloc[E](t, d, 12)
	dst := gputest.Alloc[E](t, d, 4)
	require.ErrorIs(t, primentt.Combine(nil, dst, x, make([]E, 2)), gpu.ErrLength)
	require.ErrorIs(t, primentt.Combine[E](nil, dst, x, nil), gpu.ErrLength)
}
