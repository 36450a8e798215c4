package gf64_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// The product is the known answer of TestKnownAnswer, computed with PARI/GP.
func ExampleMul() {
	a, b := gf64.Element(0x123456789abcdef0), gf64.Element(0xfedcba9876543210)
	c := gf64.Mul(a, b)
	fmt.Println(uint64(c))
	fmt.Println(gf64.Mul(c, gf64.Inverse(b)) == a)
	// Output:
	// 9810998698458937964
	// true
}

// x·x^63 = x^64 = x^4 + x^3 + x + 1 = 0x1b: the reduction at work.
func ExampleMulVec() {
	a := []gf64.Element{1, 2, 3, 0x8000000000000000}
	b := []gf64.Element{5, 2, 3, 2}
	dst := make([]gf64.Element, len(a))
	gf64.MulVec(dst, a, b)
	fmt.Println(dst)
	// Output:
	// [0x0000000000000005 0x0000000000000004 0x0000000000000005 0x000000000000001b]
}

// With c = 7 = x^2 + x + 1: c·4 = x^4 + x^3 + x^2 = 0x1c, so u[0] = 1 + 0x1c =
// 0x1d and v[0] = 4 + 0x1d = 0x19.
func ExampleButterfly() {
	u := []gf64.Element{1, 2, 3}
	v := []gf64.Element{4, 5, 6}
	c := gf64.Element(7)
	gf64.Butterfly(u, v, c) // u += c·v; v += u
	fmt.Println(u, v)
	gf64.InvButterfly(u, v, c) // undoes it
	fmt.Println(u, v)
	// Output:
	// [0x000000000000001d 0x0000000000000019 0x0000000000000011] [0x0000000000000019 0x000000000000001c 0x0000000000000017]
	// [0x0000000000000001 0x0000000000000002 0x0000000000000003] [0x0000000000000004 0x0000000000000005 0x0000000000000006]
}

// The inverses of x and x + 1 agree with PARI/GP (see TestKnownAnswer).
func ExampleBatchInverse() {
	a := []gf64.Element{1, 2, 0, 3}
	inv := make([]gf64.Element, len(a))
	zeros := gf64.BatchInverse(inv, a)
	fmt.Println("zeros:", zeros)
	for i := range a {
		fmt.Println(a[i], "·", inv[i], "=", gf64.Mul(a[i], inv[i]))
	}
	// Output:
	// zeros: 1
	// 0x0000000000000001 · 0x0000000000000001 = 0x0000000000000001
	// 0x0000000000000002 · 0x800000000000000d = 0x0000000000000001
	// 0x0000000000000000 · 0x0000000000000000 = 0x0000000000000000
	// 0x0000000000000003 · 0xfffffffffffffff6 = 0x0000000000000001
}

func ExampleElement_UnmarshalText() {
	var e gf64.Element
	err := e.UnmarshalText([]byte("0x1b"))
	fmt.Println(e, err)
	err = e.UnmarshalText([]byte("0x1g"))
	fmt.Println(err)
	// Output:
	// 0x000000000000001b <nil>
	// gf64: invalid element syntax: "0x1g": strconv.ParseUint: parsing "1g": invalid syntax
}
