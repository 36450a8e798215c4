package gpu

import (
	"errors"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// fieldSizes are the lengths every kernel is checked at; the largest only
// without -short.
func fieldSizes() []int {
	s := []int{1, 31, 32, 33, 1000, 1 << 20}
	if !testing.Short() {
		s = append(s, 1<<26+5)
	}
	return s
}

// firstDiff returns the first index where got and want differ, or -1.
func firstDiff[T comparable](got, want []T) int {
	for i := range got {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// testVariants are the kernel variants the tests check: every design, and the
// per-thread design also without its 16-byte-access kernels.
var testVariants = []testVariant{{PerThread, false}, {PerThread, true}, {RegisterCache, false}, {SharedMemory, false}}

type testVariant struct {
	design Design
	noVec  bool
}

func (v testVariant) String() string {
	if v.noVec {
		return v.design.String() + " (scalar)"
	}
	return v.design.String()
}

func (v testVariant) adjust(k *fieldKernels) *fieldKernels {
	c := *k
	c.noVec = v.noVec
	return &c
}

func TestGF64Kernels(t *testing.T) {
	d := testDevice(t)
	for _, n := range fieldSizes() {
		a := randomWords[gf64.Element](n, uint64(n)*3+1)
		b := randomWords[gf64.Element](n, uint64(n)*3+2)
		d0 := randomWords[gf64.Element](n, uint64(n)*3+3)
		c := gf64.Element(0x9e3779b97f4a7c15 ^ uint64(n))
		// Edge values at the front.
		edges := []gf64.Element{0, 1, 2, 1 << 63, ^gf64.Element(0), 0x1b, 0x8000000000000001}
		for i := 0; i < len(edges) && i < n; i++ {
			a[i] = edges[i]
			b[n-1-i] = edges[i]
		}
		wantMul := make([]gf64.Element, n)
		wantScale := make([]gf64.Element, n)
		wantMulAdd := append([]gf64.Element(nil), d0...)
		parallel(n, func(lo, hi int) {
			gf64.MulVec(wantMul[lo:hi], a[lo:hi], b[lo:hi])
			gf64.ScaleVec(wantScale[lo:hi], a[lo:hi], c)
			gf64.MulAddVec(wantMulAdd[lo:hi], a[lo:hi], c)
		})
		da, db, dd := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
		must(t, da.Upload(a))
		must(t, db.Upload(b))
		poison := randomWords[gf64.Element](n, 99)
		got := make([]gf64.Element, n)
		for _, v := range testVariants {
			design := v.design
			k, err := d.GF64(design)
			if err != nil {
				t.Fatalf("GF64(%v): %v", design, err)
			}
			k = &GF64{v.adjust(k.k)}
			check := func(op string, want []gf64.Element) {
				t.Helper()
				must(t, dd.Download(got))
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("GF64 %v %s n=%d: element %d = %#x, want %#x", v, op, n, i, uint64(got[i]), uint64(want[i]))
				}
			}
			must(t, dd.Upload(poison))
			must(t, k.MulVec(nil, dd, da, db))
			check("MulVec", wantMul)
			must(t, dd.Upload(poison))
			must(t, k.ScaleVec(nil, dd, da, c))
			check("ScaleVec", wantScale)
			must(t, dd.Upload(d0))
			must(t, k.MulAddVec(nil, dd, da, c))
			check("MulAddVec", wantMulAdd)
			// In place: dst is a.
			if n <= 1<<20 {
				must(t, dd.Upload(a))
				must(t, k.MulVec(nil, dd, dd, db))
				check("MulVec in place", wantMul)
			}
		}
		da.Free()
		db.Free()
		dd.Free()
	}
}

func TestGF32Kernels(t *testing.T) {
	d := testDevice(t)
	for _, n := range fieldSizes() {
		a := randomWords[uint32](n, uint64(n)*5+1)
		b := randomWords[uint32](n, uint64(n)*5+2)
		d0 := randomWords[uint32](n, uint64(n)*5+3)
		c := uint32(0x9e3779b9 ^ n)
		edges := []uint32{0, 1, 2, 1 << 31, ^uint32(0), 0x8d, 0x80000001}
		for i := 0; i < len(edges) && i < n; i++ {
			a[i] = edges[i]
			b[n-1-i] = edges[i]
		}
		wantMul := make([]uint32, n)
		wantScale := make([]uint32, n)
		wantMulAdd := make([]uint32, n)
		parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				wantMul[i] = gf32MulRef(a[i], b[i])
				wantScale[i] = gf32MulRef(a[i], c)
				wantMulAdd[i] = d0[i] ^ wantScale[i]
			}
		})
		da, db, dd := mustAlloc[uint32](t, d, n), mustAlloc[uint32](t, d, n), mustAlloc[uint32](t, d, n)
		must(t, da.Upload(a))
		must(t, db.Upload(b))
		poison := randomWords[uint32](n, 98)
		got := make([]uint32, n)
		for _, v := range testVariants {
			design := v.design
			k, err := d.GF32(design)
			if err != nil {
				t.Fatalf("GF32(%v): %v", design, err)
			}
			k = &GF32{v.adjust(k.k)}
			check := func(op string, want []uint32) {
				t.Helper()
				must(t, dd.Download(got))
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("GF32 %v %s n=%d: element %d = %#x, want %#x", v, op, n, i, got[i], want[i])
				}
			}
			must(t, dd.Upload(poison))
			must(t, k.MulVec(nil, dd, da, db))
			check("MulVec", wantMul)
			must(t, dd.Upload(poison))
			must(t, k.ScaleVec(nil, dd, da, c))
			check("ScaleVec", wantScale)
			must(t, dd.Upload(d0))
			must(t, k.MulAddVec(nil, dd, da, c))
			check("MulAddVec", wantMulAdd)
		}
		da.Free()
		db.Free()
		dd.Free()
	}
}

func TestFieldKernelErrors(t *testing.T) {
	d := testDevice(t)
	if _, err := d.GF64(Design(9)); err == nil {
		t.Error("unknown design accepted")
	}
	for _, design := range Designs {
		k, err := d.GF64(design)
		if err != nil {
			t.Fatal(err)
		}
		a, b := mustAlloc[gf64.Element](t, d, 10), mustAlloc[gf64.Element](t, d, 11)
		if err := k.MulVec(nil, a, a, b); !errors.Is(err, ErrLength) {
			t.Errorf("%v: MulVec of lengths 10 and 11: %v", design, err)
		}
		if err := k.ScaleVec(nil, b, a, 3); !errors.Is(err, ErrLength) {
			t.Errorf("%v: ScaleVec of lengths 11 and 10: %v", design, err)
		}
		if err := k.MulVec(nil, a, a, nil); err == nil {
			t.Errorf("%v: nil buffer accepted", design)
		}
		b.Free()
		if err := k.MulAddVec(nil, a, b, 3); !errors.Is(err, ErrClosed) && !errors.Is(err, ErrLength) {
			t.Errorf("%v: freed buffer accepted: %v", design, err)
		}
		e := mustAlloc[gf64.Element](t, d, 10)
		e.Free()
		if err := k.MulVec(nil, a, a, e); !errors.Is(err, ErrClosed) {
			t.Errorf("%v: freed buffer: %v", design, err)
		}
		z := mustAlloc[gf64.Element](t, d, 0)
		if err := k.MulVec(nil, z, z, z); err != nil {
			t.Errorf("%v: empty MulVec: %v", design, err)
		}
		a.Free()
	}
}

func mustAlloc[T any](t testing.TB, d *Device, n int) *Buffer[T] {
	t.Helper()
	b, err := Alloc[T](d, n)
	if err != nil {
		t.Fatalf("Alloc(%d): %v", n, err)
	}
	return b
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
