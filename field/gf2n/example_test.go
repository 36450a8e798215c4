package gf2n_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf2n"
)

// x^127 · x = x^128, which the polynomial reduces to x^7 + x^2 + x + 1 =
// 0x87; then a batch of two products, each two words long.
func ExampleField_Mul() {
	f, err := gf2n.New(128)
	if err != nil {
		panic(err)
	}
	fmt.Println(f, f.Words())

	top := []uint64{0, 1 << 63} // x^127: word 1, bit 63
	x := []uint64{2, 0}         // x
	z := make([]uint64, f.Words())
	f.Mul(z, top, x)
	fmt.Printf("%#x\n", z)

	xs := []uint64{3, 0, 0, 1 << 63} // x + 1, x^127
	ys := []uint64{3, 0, 4, 0}       // x + 1, x^2
	zs := make([]uint64, len(xs))
	if err := f.MulVec(zs, xs, ys); err != nil {
		panic(err)
	}
	fmt.Printf("%#x\n", zs)
	// Output:
	// GF(2^128) mod x^128+x^7+x^2+x+1 2
	// [0x87 0x0]
	// [0x5 0x0 0x10e 0x0]
}

// Every nonzero element has an inverse; zero is refused.
func ExampleField_Inverse() {
	f, _ := gf2n.New(2048)
	x := make([]uint64, f.Words())
	x[31] = 1 << 63 // x^2047
	inv := make([]uint64, f.Words())
	if err := f.Inverse(inv, x); err != nil {
		panic(err)
	}
	f.Mul(inv, inv, x)
	fmt.Println(inv[0] == 1 && gf2n.IsZero(inv[1:]))

	err := f.Inverse(inv, make([]uint64, f.Words()))
	fmt.Println(err)
	// Output:
	// true
	// gf2n: zero has no inverse (GF(2^2048))
}
