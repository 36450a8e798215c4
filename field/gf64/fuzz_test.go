package gf64

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// FuzzMul compares scalar Mul on every path with the bit-by-bit reference.
func FuzzMul(f *testing.F) {
	f.Add(uint64(kaA), uint64(kaB))
	f.Add(uint64(0), uint64(1))
	f.Add(uint64(1<<63), uint64(1<<63))
	f.Add(^uint64(0), ^uint64(0))
	f.Add(uint64(0xf000000000000000), uint64(0xf000000000000001))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		want := refMul(Element(a), Element(b))
		for _, name := range cpufeat.Available("gf64") {
			restore := cpufeat.Select("gf64", name)
			got := Mul(Element(a), Element(b))
			restore()
			require.Equal(t, want, got, "%s: Mul(%#x, %#x)", name, a, b)
		}
	})
}

// elemsFrom reads little-endian elements from data, at most max of them.
func elemsFrom(data []byte, max int) []Element {
	n := min(len(data)/8, max)
	v := make([]Element, n)
	for i := range v {
		v[i] = Element(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return v
}

// FuzzVectorOps compares the vector functions on every path with the generic
// implementations, on vectors and a constant taken from the fuzzer's input.
func FuzzVectorOps(f *testing.F) {
	seed := make([]byte, 8*70)
	for i := range seed {
		seed[i] = byte(i*37 + 11)
	}
	f.Add(seed, uint64(kaB))
	f.Add(seed[:8*17], uint64(1))
	f.Add([]byte{}, uint64(0))
	f.Add(slices.Repeat([]byte{0xff}, 8*33), ^uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, c64 uint64) {
		c := Element(c64)
		all := elemsFrom(data, 2*300)
		n := len(all) / 2
		a, b := all[:n], all[n:2*n]

		wantMul := make([]Element, n)
		mulVecGeneric(wantMul, a, b)
		wantScale := make([]Element, n)
		scaleVecGeneric(wantScale, a, c)
		wantMulAdd := slices.Clone(b)
		mulAddVecGeneric(wantMulAdd, a, c)
		wantBU, wantBV := slices.Clone(a), slices.Clone(b)
		butterflyGeneric(wantBU, wantBV, c)
		wantIU, wantIV := slices.Clone(a), slices.Clone(b)
		invButterflyGeneric(wantIU, wantIV, c)
		wantInv := make([]Element, n)
		wantZeros := 0
		for i, v := range a {
			wantInv[i] = refInverse(v)
			if v == 0 {
				wantZeros++
			}
		}
		refProd := make([]Element, n)
		for i := range a {
			refProd[i] = refMul(a[i], b[i])
		}
		testutil.RequireEqualSlices(t, refProd, wantMul, "generic MulVec against the reference")

		for _, name := range cpufeat.Available("gf64") {
			restore := cpufeat.Select("gf64", name)
			dst := make([]Element, n)
			MulVec(dst, a, b)
			testutil.EqualSlices(t, wantMul, dst, "%s: MulVec against generic", name)
			ScaleVec(dst, a, c)
			testutil.EqualSlices(t, wantScale, dst, "%s: ScaleVec against generic", name)
			copy(dst, b)
			MulAddVec(dst, a, c)
			testutil.EqualSlices(t, wantMulAdd, dst, "%s: MulAddVec against generic", name)
			u, v := slices.Clone(a), slices.Clone(b)
			Butterfly(u, v, c)
			testutil.EqualSlices(t, wantBU, u, "%s: Butterfly against generic: u", name)
			testutil.EqualSlices(t, wantBV, v, "%s: Butterfly against generic: v", name)
			u, v = slices.Clone(a), slices.Clone(b)
			InvButterfly(u, v, c)
			testutil.EqualSlices(t, wantIU, u, "%s: InvButterfly against generic: u", name)
			testutil.EqualSlices(t, wantIV, v, "%s: InvButterfly against generic: v", name)
			assert.Equal(t, wantZeros, BatchInverse(dst, a), "%s: zeros counted by BatchInverse", name)
			testutil.EqualSlices(t, wantInv, dst, "%s: BatchInverse against element-wise inversion", name)
			restore()
		}
	})
}

// refInverse returns a^(2^64-2) by square-and-multiply with refMul: the
// inverse for a ≠ 0, and 0 for a = 0.
func refInverse(a Element) Element {
	r := One
	for i := 1; i < 64; i++ { // exponent bits 1..63 are set, bit 0 is not
		a = refMul(a, a)
		r = refMul(r, a)
	}
	return r
}

// FuzzUnmarshalText checks that UnmarshalText either fails with ErrSyntax or
// returns an element that round-trips.
func FuzzUnmarshalText(f *testing.F) {
	for _, s := range []string{"0x1", "0xffffffffffffffff", "", "0x", "zz", "12345678901234567", "+1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var e Element
		if err := e.UnmarshalText(text); err != nil {
			require.ErrorIs(t, err, ErrSyntax, "UnmarshalText(%q)", text)
			return
		}
		out, err := e.MarshalText()
		require.NoError(t, err)
		var e2 Element
		require.NoError(t, e2.UnmarshalText(out), "round trip of %q", text)
		assert.Equal(t, e, e2, "round trip of %q", text)
	})
}
