package poly

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// elems decodes little-endian 8-byte elements from data, at most max of
// them; a short tail is dropped.
func elems(data []byte, max int) []gf64.Element {
	n := min(len(data)/8, max)
	out := make([]gf64.Element, n)
	for i := range out {
		out[i] = gf64.Element(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out
}

// seedBytes returns n elements worth of deterministic bytes.
func seedBytes(n int, seed uint64) []byte {
	b := make([]byte, 8*n)
	newRand(seed).Read(b)
	return b
}

func FuzzMul(f *testing.F) {
	f.Add([]byte{}, []byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Add(seedBytes(3, 1), seedBytes(1, 2))
	f.Add(seedBytes(200, 3), seedBytes(150, 4))
	f.Add(seedBytes(600, 5), seedBytes(520, 6))
	f.Add(append(seedBytes(40, 7), make([]byte, 64)...), seedBytes(300, 8))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, b := Poly(elems(x, 700)), Poly(elems(y, 700))
		want := naiveMul(a.Normalize(), b.Normalize())
		for _, m := range mulMethods {
			got := m.mul(a, b)
			requirePoly(t, want, got, "%s against the naive product (lengths %d, %d)", m.name, len(a), len(b))
			require.True(t, isNormalized(got), "%s: not normalized", m.name)
		}
	})
}

func FuzzDivMod(f *testing.F) {
	f.Add(seedBytes(10, 1), seedBytes(3, 2))
	f.Add(seedBytes(3, 1), seedBytes(10, 2))
	f.Add(seedBytes(5, 3), []byte{})
	f.Add(seedBytes(100, 4), append(seedBytes(7, 5), make([]byte, 16)...))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, d := Poly(elems(x, 1000)), Poly(elems(y, 1000))
		q, r, err := a.DivMod(d)
		if d.IsZero() {
			require.ErrorIs(t, err, ErrDivisionByZero, "division by zero")
			return
		}
		require.NoError(t, err)
		require.Less(t, r.Degree(), d.Degree(), "deg r < deg d")
		require.True(t, isNormalized(q), "quotient not normalized")
		require.True(t, isNormalized(r), "remainder not normalized")
		requirePoly(t, a, naiveMul(q, d).Add(r), "q·d + r")
	})
}

func FuzzInterpolate(f *testing.F) {
	f.Add(seedBytes(4, 1), seedBytes(4, 2))
	f.Add(append(seedBytes(3, 1), seedBytes(3, 1)...), seedBytes(6, 2)) // duplicates
	f.Add([]byte{}, []byte{})
	f.Add(seedBytes(50, 3), seedBytes(49, 4)) // length mismatch
	f.Fuzz(func(t *testing.T, x, y []byte) {
		xs, ys := elems(x, 300), elems(y, 300)
		p, err := Interpolate(xs, ys)
		distinct := true
		seen := map[gf64.Element]bool{}
		for _, v := range xs {
			distinct = distinct && !seen[v]
			seen[v] = true
		}
		switch {
		case len(xs) != len(ys):
			require.ErrorIs(t, err, ErrLength, "length mismatch")
		case !distinct:
			require.ErrorIs(t, err, ErrDuplicatePoint, "duplicate points")
		default:
			require.NoError(t, err)
			require.Less(t, p.Degree(), max(len(xs), 1), "degree for %d points", len(xs))
			testutil.RequireEqualSlices(t, ys, evalAll(p, xs), "p(xs) = ys")
		}
	})
}

// FuzzEvalSubspace builds a subspace from caller bytes (skipped when the
// basis is dependent) and compares the transform with Horner's rule.
func FuzzEvalSubspace(f *testing.F) {
	f.Add(uint64(0), seedBytes(3, 1), seedBytes(20, 2))
	f.Add(uint64(12345), seedBytes(5, 3), seedBytes(7, 4))
	f.Add(uint64(7), []byte{}, seedBytes(3, 5))
	f.Fuzz(func(t *testing.T, shift uint64, bb, pb []byte) {
		s, err := domain.New(gf64.Element(shift), elems(bb, 8)...)
		if err != nil {
			return
		}
		p := Poly(elems(pb, 1000))
		got, err := p.EvalSubspace(s)
		require.NoError(t, err)
		testutil.RequireEqualSlices(t, evalAll(p, s.Elements()), got, "EvalSubspace against Horner's rule")
		if p.Degree() < s.Size() {
			back, err := InterpolateSubspace(s, got)
			require.NoError(t, err)
			requirePoly(t, p, back, "InterpolateSubspace(EvalSubspace(p))")
		}
	})
}

// FuzzTaylor checks the Taylor expansion round trip on caller data.
func FuzzTaylor(f *testing.F) {
	f.Add(seedBytes(5, 1))
	f.Add(seedBytes(64, 2))
	f.Fuzz(func(t *testing.T, pb []byte) {
		p := Poly(elems(pb, 4096))
		back, err := FromTaylorExpansion(p.TaylorExpansion())
		require.NoError(t, err)
		requirePoly(t, p, back, "Taylor round trip")
	})
}
