package domain

import (
	"slices"
	"testing"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// TestEveryGF64Impl runs the transforms under every gf64 implementation this
// machine supports and checks them against Horner's rule and each other.
func TestEveryGF64Impl(t *testing.T) {
	r := newRand(t, 30)
	s := randSubspace(t, r, 11, 0)
	from, _ := s.Sub(9)
	c := randVec(r, s.Size())
	var ref []uint64
	cpufeat.Each("gf64", func(name string) {
		t.Logf("gf64 implementation %s", name)
		a := slices.Clone(c)
		if err := s.FFT(a); err != nil {
			t.Fatal(err)
		}
		for range 32 {
			i := r.IntN(len(a))
			if a[i] != horner(c, s.Element(i)) {
				t.Fatalf("%s: FFT[%d] wrong", name, i)
			}
		}
		got := make([]uint64, 0, 3*len(a))
		for _, x := range a {
			got = append(got, uint64(x))
		}
		if err := s.IFFT(a); err != nil || !slices.Equal(a, c) {
			t.Fatalf("%s: IFFT(FFT) != id", name)
		}
		b := slices.Clone(c)
		_ = s.NovelFFT(b)
		for _, x := range b {
			got = append(got, uint64(x))
		}
		d := make([]uint64, 0)
		dst := slices.Clone(c)
		if err := LDE(dst, c[:from.Size()], from, s); err != nil {
			t.Fatal(err)
		}
		for _, x := range dst {
			d = append(d, uint64(x))
		}
		got = append(got, d...)
		if ref == nil {
			ref = got
		} else if !slices.Equal(ref, got) {
			t.Fatalf("%s: results differ from the first implementation", name)
		}
	})
}
