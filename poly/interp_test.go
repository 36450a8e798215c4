package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestInterpolate(t *testing.T) {
	r := newRand(40)
	sizes := []int{0, 1, 2, 3, 4, 10, 33, 100}
	if !testing.Short() {
		sizes = append(sizes, 300)
	}
	for _, n := range sizes {
		xs := make([]gf64.Element, n)
		require.NoError(t, gf64.RandomVec(xs, r))
		if n > 2 {
			xs[0], xs[1] = 0, 1
		}
		// a polynomial of degree < n is recovered exactly
		p := randPoly(r, n)
		ys := make([]gf64.Element, n)
		for j, x := range xs {
			ys[j] = p.Eval(x)
		}
		xc, yc := append([]gf64.Element(nil), xs...), append([]gf64.Element(nil), ys...)
		got, err := Interpolate(xs, ys)
		require.NoError(t, err)
		requirePoly(t, p, got, "n=%d: Interpolate recovers p", n)
		require.True(t, isNormalized(got), "n=%d: not normalized", n)
		testutil.RequireEqualSlices(t, xc, xs, "Interpolate modified xs")
		testutil.RequireEqualSlices(t, yc, ys, "Interpolate modified ys")
		// random values: the result passes through every point
		require.NoError(t, gf64.RandomVec(ys, r))
		got, err = Interpolate(xs, ys)
		require.NoError(t, err)
		require.Less(t, got.Degree(), max(n, 1), "n=%d: degree", n)
		testutil.RequireEqualSlices(t, ys, evalAll(got, xs), "n=%d: p(xs) = ys", n)
	}
	// known: the line through (0, 1) and (1, 0) is x + 1
	p, err := Interpolate([]gf64.Element{0, 1}, []gf64.Element{1, 0})
	require.NoError(t, err)
	assertPoly(t, Poly{1, 1}, p, "the line through (0, 1) and (1, 0)")
}

// evalAll returns p at every point of xs, by Horner's rule one at a time.
func evalAll(p Poly, xs []gf64.Element) []gf64.Element {
	out := make([]gf64.Element, len(xs))
	for j, x := range xs {
		out[j] = p.Eval(x)
	}
	return out
}

func TestInterpolateErrors(t *testing.T) {
	_, err := Interpolate([]gf64.Element{1, 2, 3, 2}, make([]gf64.Element, 4))
	require.ErrorIs(t, err, ErrDuplicatePoint, "duplicate")
	assert.EqualError(t, err, "poly: duplicate interpolation point: xs[1] = xs[3] = 0x0000000000000002")
	_, err = Interpolate(make([]gf64.Element, 2), make([]gf64.Element, 3))
	require.ErrorIs(t, err, ErrLength, "length")
}

func ExampleInterpolate() {
	// the parabola through (0, 1), (1, 1), (x, 1 + x + x²) is x² + x + 1
	xs := []gf64.Element{0, 1, gf64.X}
	ys := []gf64.Element{1, 1, 1 ^ gf64.X ^ gf64.Square(gf64.X)}
	p, err := Interpolate(xs, ys)
	fmt.Println(p, err)
	// Output: 0x0000000000000001*x^2 + 0x0000000000000001*x + 0x0000000000000001 <nil>
}
