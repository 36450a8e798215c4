package gf128

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// FuzzMul compares scalar Mul on every path, and the generic Karatsuba, with
// the bit-by-bit reference.
func FuzzMul(f *testing.F) {
	ka := knownAnswers[0]
	f.Add(uint64(ka.a.A0), uint64(ka.a.A1), uint64(ka.b.A0), uint64(ka.b.A1))
	f.Add(uint64(0), uint64(1), uint64(0), uint64(1))
	f.Add(^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0))
	f.Add(uint64(1<<63), uint64(1<<63), uint64(0xf000000000000000), uint64(0xf000000000000001))
	f.Fuzz(func(t *testing.T, a0, a1, b0, b1 uint64) {
		a := Element{gf64.Element(a0), gf64.Element(a1)}
		b := Element{gf64.Element(b0), gf64.Element(b1)}
		want := refMul(a, b)
		require.Equal(t, want, mulGeneric(a, b), "mulGeneric(%v, %v)", a, b)
		for _, name := range cpufeat.Available("gf128") {
			restore := cpufeat.Select("gf128", name)
			got := Mul(a, b)
			restore()
			require.Equal(t, want, got, "%s: Mul(%v, %v)", name, a, b)
		}
	})
}

// elemsFrom reads elements in the encoding of Bytes from data, at most max
// of them.
func elemsFrom(data []byte, max int) []Element {
	n := min(len(data)/16, max)
	v := make([]Element, n)
	for i := range v {
		_ = v[i].SetBytes(data[16*i : 16*i+16])
	}
	return v
}

// FuzzVectorOps compares the vector functions on every path with the generic
// implementations, on vectors and a constant taken from the fuzzer's input.
func FuzzVectorOps(f *testing.F) {
	seed := make([]byte, 16*40)
	for i := range seed {
		seed[i] = byte(i*37 + 11)
	}
	f.Add(seed, uint64(3), uint64(1<<63))
	f.Add(seed[:16*17], uint64(1), uint64(0))
	f.Add([]byte{}, uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, c0, c1 uint64) {
		c := Element{gf64.Element(c0), gf64.Element(c1)}
		all := elemsFrom(data, 3*100)
		n := len(all) / 3
		a, b, w := all[:n], all[n:2*n], all[2*n:3*n]
		bb := make([]gf64.Element, n)
		for i := range bb {
			bb[i] = w[i].A0 ^ w[i].A1<<7
		}
		cols := [][]gf64.Element{bb, make([]gf64.Element, n), bb}
		for i := range cols[1] {
			cols[1][i] = w[i].A1
		}
		coeffs := []Element{c, Add(c, One), {c.A1, c.A0}}

		wantMul, wantScale, wantBase := make([]Element, n), make([]Element, n), make([]Element, n)
		wantSB, wantComb := make([]Element, n), make([]Element, n)
		mulVecGeneric(wantMul, a, b)
		scaleVecGeneric(wantScale, a, c)
		mulByBaseVecGeneric(wantBase, a, bb)
		combineBaseGeneric(wantSB, cols[:1], coeffs[:1], false)
		combineBaseGeneric(wantComb, cols, coeffs, false)
		for _, name := range cpufeat.Available("gf128") {
			restore := cpufeat.Select("gf128", name)
			dst := make([]Element, n)
			MulVec(dst, a, b)
			testutil.RequireEqualSlices(t, wantMul, dst, "%s: MulVec", name)
			ScaleVec(dst, a, c)
			testutil.RequireEqualSlices(t, wantScale, dst, "%s: ScaleVec", name)
			MulByBaseVec(dst, a, bb)
			testutil.RequireEqualSlices(t, wantBase, dst, "%s: MulByBaseVec", name)
			ScaleBaseVec(dst, bb, c)
			testutil.RequireEqualSlices(t, wantSB, dst, "%s: ScaleBaseVec", name)
			CombineBase(dst, cols, coeffs)
			testutil.RequireEqualSlices(t, wantComb, dst, "%s: CombineBase", name)
			restore()
		}
	})
}

// FuzzSetBytes: any input either decodes to the element whose Bytes it is
// (16 bytes) or is an error; never a panic.
func FuzzSetBytes(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 16))
	f.Add(make([]byte, 17))
	f.Fuzz(func(t *testing.T, data []byte) {
		var e Element
		err := e.SetBytes(data)
		if len(data) != 16 {
			require.Error(t, err)
			require.Equal(t, Zero, e)
			return
		}
		require.NoError(t, err)
		b := e.Bytes()
		require.Equal(t, data, b[:])
		require.Equal(t, binary.LittleEndian.Uint64(data), uint64(e.A0))
	})
}

// FuzzUnmarshalText: any input either decodes to an element whose text
// decodes back to it, or is an error wrapping ErrSyntax; never a panic.
func FuzzUnmarshalText(f *testing.F) {
	f.Add([]byte("0x123456789abcdef0+0xfedcba9876543210*y"))
	f.Add([]byte("1+2*y"))
	f.Add([]byte("+*y"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		var e Element
		if err := e.UnmarshalText(data); err != nil {
			require.ErrorIs(t, err, ErrSyntax)
			return
		}
		text, err := e.MarshalText()
		require.NoError(t, err)
		var back Element
		require.NoError(t, back.UnmarshalText(text))
		require.Equal(t, e, back)
	})
}
