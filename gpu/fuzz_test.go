package gpu

import (
	"encoding/binary"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// FuzzGF64Kernels checks every design against field/gf64 on caller-shaped
// data: the bytes give the elements of a and b and the constant.
func FuzzGF64Kernels(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(make([]byte, 16*33))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1b})
	d := testDevice(f)
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
		da, db, dd := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
		defer da.Free()
		defer db.Free()
		defer dd.Free()
		must(t, da.Upload(a))
		must(t, db.Upload(b))
		got := make([]gf64.Element, n)
		for _, design := range Designs {
			k, err := d.GF64(design)
			must(t, err)
			must(t, k.MulVec(nil, dd, da, db))
			must(t, dd.Download(got))
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%v MulVec n=%d: element %d = %#x, want %#x", design, n, i, uint64(got[i]), uint64(want[i]))
			}
			must(t, k.ScaleVec(nil, dd, da, c))
			must(t, dd.Download(got))
			if i := firstDiff(got, wantS); i >= 0 {
				t.Fatalf("%v ScaleVec n=%d: element %d = %#x, want %#x", design, n, i, uint64(got[i]), uint64(wantS[i]))
			}
		}
	})
}
