package domain

import (
	"slices"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// TestNet16 checks the four-level kernel (assembly where available) against
// its generic reference, and the round trip.
func TestNet16(t *testing.T) {
	r := newRand(t, 40)
	for _, L := range []int{4, 6, 10} {
		n := 1 << uint(L)
		l0, l1, l2 := randVec(r, n/2), randVec(r, n/2), randVec(r, n/2)
		l3 := randVec(r, n/16)
		b := [4]gf64.Element{randElem(r), randElem(r), randElem(r), randElem(r)}
		a := randVec(r, n)
		want := slices.Clone(a)
		net16Generic(want, l0, l1, l2, l3, &b)
		got := slices.Clone(a)
		net16Fwd(got, l0, l1, l2, l3, &b)
		if !slices.Equal(got, want) {
			t.Fatalf("net16Fwd, %d elements: differs from net16Generic", n)
		}
		net16InvGeneric(want, l0, l1, l2, l3, &b)
		if !slices.Equal(want, a) {
			t.Fatalf("net16InvGeneric, %d elements: does not undo net16Generic", n)
		}
		net16Inv(got, l0, l1, l2, l3, &b)
		if !slices.Equal(got, a) {
			t.Fatalf("net16Inv, %d elements: does not undo net16Fwd", n)
		}
	}
}

// TestNet16Network runs the networks with and without the kernel.
func TestNet16Network(t *testing.T) {
	if !net16Available {
		t.Skip("no AVX-512: the kernel's generic fallback ran in the other tests")
	}
	r := newRand(t, 41)
	for _, m := range []int{4, 5, 9, 10, 11, 13} {
		s := randSubspace(t, r, m, 0)
		c := randVec(r, s.Size())
		var res [2][]gf64.Element
		for i, use := range []bool{false, true} {
			useNet16 = use
			a := slices.Clone(c)
			if err := s.NovelFFT(a); err != nil {
				t.Fatal(err)
			}
			res[i] = slices.Clone(a)
			if err := s.NovelIFFT(a); err != nil || !slices.Equal(a, c) {
				t.Fatalf("m=%d kernel %v: NovelIFFT(NovelFFT) != id", m, use)
			}
		}
		useNet16 = net16Available
		if !slices.Equal(res[0], res[1]) {
			t.Fatalf("m=%d: NovelFFT with and without the kernel differ", m)
		}
	}
}
