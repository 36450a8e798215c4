package gfvec

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// FuzzGF64Kernels checks every design against field/gf64 on caller-shaped
// data: the bytes give the elements of a and b and the constant.
func FuzzGF64Kernels(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(make([]byte, 16*33))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1b})
	d := gputest.Device(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(data) / 16
		if n == 0 || n > 1<<16 {
			return
		}
		a := make([]gf64.Element, n)
		b := make([]gf64.Element, n)
		for i := range a {
			a[i] = gf64.Element(binary.LittleEndian.Uint64(data[16*i:]))
			b[i] = gf64.Element(binary.LittleEndian.Uint64(data[16*i+8:]))
		}
		c := b[0]
		want := make([]gf64.Element, n)
		wantS := make([]gf64.Element, n)
		gf64.MulVec(want, a, b)
		gf64.ScaleVec(wantS, a, c)
		da, db, dd := gputest.Upload(t, d, a), gputest.Upload(t, d, b), gputest.Alloc[gf64.Element](t, d, n)
		for _, design := range Designs {
			k, err := NewGF64(d, design)
			require.NoError(t, err)
			require.NoError(t, k.MulVec(nil, dd, da, db))
			testutil.RequireEqualSlices(t, want, gputest.Download(t, dd), "%v MulVec n=%d", design, n)
			require.NoError(t, k.ScaleVec(nil, dd, da, c))
			testutil.RequireEqualSlices(t, wantS, gputest.Download(t, dd), "%v ScaleVec n=%d", design, n)
		}
	})
}
