package domain_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Evaluate f(x) = 1 + x + x³ over the affine subspace 5 + span(1, 2, 4)
// and interpolate back.
func ExampleSubspace_FFT() {
	s, err := domain.New(5, 1, 2, 4)
	if err != nil {
		panic(err)
	}
	a := []gf64.Element{1, 1, 0, 1, 0, 0, 0, 0}
	if err := s.FFT(a); err != nil {
		panic(err)
	}
	x := s.Element(3) // 5 + 1 + 2 = 6
	fmt.Println(x, a[3] == 1^x^gf64.Mul(x, gf64.Mul(x, x)))
	if err := s.IFFT(a); err != nil {
		panic(err)
	}
	fmt.Println(a)
	// Output:
	// 0x0000000000000006 true
	// [0x0000000000000001 0x0000000000000001 0x0000000000000000 0x0000000000000001 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000]
}

// Extend 4 evaluations of a cubic over S = span(1, 2) to 16 evaluations
// over T = span(1, 2, 4, 8): the first 4 are the input again.
func ExampleLDE() {
	s, _ := domain.New(0, 1, 2)
	t, _ := s.Extend(4, 8)
	src := []gf64.Element{3, 1, 4, 1}
	dst := make([]gf64.Element, t.Size())
	if err := domain.LDE(dst, src, s, t); err != nil {
		panic(err)
	}
	fmt.Println(dst[:4])
	// Output:
	// [0x0000000000000003 0x0000000000000001 0x0000000000000004 0x0000000000000001]
}

// New names the first dependent basis element.
func ExampleNew() {
	_, err := domain.New(0, 1, 2, 3)
	fmt.Println(err)
	// Output:
	// domain: basis is linearly dependent: basis[2] = 0x0000000000000003 is the sum of basis elements [0 1]
}

// The constants of a subspace's transforms, level by level. Level 0's
// twiddles are Ŵ_0(x) = x/β_0 at the points s + Σ_j bit_j(b)·β_{1+j}:
// with β_0 = 1, Base is the shift and Span the rest of the basis.
func ExampleSubspace_Levels() {
	s, err := domain.New(0x10, 1, 2, 4)
	if err != nil {
		panic(err)
	}
	lv, err := s.Levels()
	if err != nil {
		panic(err)
	}
	for r, l := range lv {
		fmt.Printf("r=%d Base=%v Span=%v Twist=%v\n", r, l.Base, l.Span, l.Twist)
	}
	// Output:
	// r=0 Base=0x0000000000000010 Span=[0x0000000000000002 0x0000000000000004] Twist=0x0000000000000001
	// r=1 Base=0x0000000000000078 Span=[0x0000000000000006] Twist=0x0000000000000006
	// r=2 Base=0x000000000000017c Span=[] Twist=0x0000000000000012
}
