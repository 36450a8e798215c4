package gf128_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// The product is the known answer of the package doc (TestKnownAnswers
// computes it bit by bit).
func ExampleMul() {
	a := gf128.Element{A0: 0x123456789abcdef0, A1: 0xfedcba9876543210}
	b := gf128.Element{A0: 0x0f1e2d3c4b5a6978, A1: 0x8796a5b4c3d2e1f0}
	c := gf128.Mul(a, b)
	fmt.Println(c)
	fmt.Println(gf128.Mul(c, gf128.Inverse(b)) == a)
	// Output:
	// 0x6baf3ee4ab2bfc80+0x75b44f6103d3395a*y
	// true
}

// y is a root of y² + y + C: y·y = C + y.
func ExampleY() {
	fmt.Println(gf128.Mul(gf128.Y, gf128.Y))
	fmt.Println(gf128.Conjugate(gf128.Y)) // the other root, y + 1
	// Output:
	// 0x8000000000000000+0x0000000000000001*y
	// 0x0000000000000001+0x0000000000000001*y
}

// GF(2^64) sits inside GF(2^128) as the elements with a1 = 0.
func ExampleEmbed() {
	a, b := gf64.Element(3), gf64.Element(0x8000000000000000)
	p, ok := gf128.Project(gf128.Mul(gf128.Embed(a), gf128.Embed(b)))
	fmt.Println(p, ok, p == gf64.Mul(a, b))
	_, ok = gf128.Project(gf128.Y)
	fmt.Println(ok)
	// Output:
	// 0x800000000000001b true true
	// false
}

// A combination of two GF(2^64) columns with the challenge-field
// coefficients 1 and y: row i is cols[0][i] + cols[1][i]·y.
func ExampleCombineBase() {
	cols := [][]gf64.Element{{1, 2, 3}, {4, 5, 6}}
	coeffs := []gf128.Element{gf128.One, gf128.Y}
	dst := make([]gf128.Element, 3)
	gf128.CombineBase(dst, cols, coeffs)
	for _, e := range dst {
		fmt.Println(e)
	}
	// Output:
	// 0x0000000000000001+0x0000000000000004*y
	// 0x0000000000000002+0x0000000000000005*y
	// 0x0000000000000003+0x0000000000000006*y
}

// Zeros are skipped and counted; every other entry is inverted.
func ExampleBatchInverse() {
	a := []gf128.Element{gf128.Y, gf128.Zero, gf128.One}
	inv := make([]gf128.Element, len(a))
	zeros := gf128.BatchInverse(inv, a)
	fmt.Println(zeros)
	fmt.Println(gf128.Mul(a[0], inv[0]), inv[1].IsZero(), inv[2])
	// Output:
	// 1
	// 0x0000000000000001+0x0000000000000000*y true 0x0000000000000001+0x0000000000000000*y
}

func ExampleElement_MarshalText() {
	a := gf128.Element{A0: 1, A1: 0xff}
	text, _ := a.MarshalText()
	fmt.Println(string(text))
	var b gf128.Element
	err := b.UnmarshalText([]byte("0x1+0xff*y"))
	fmt.Println(err, b == a)
	bs := a.Bytes()
	fmt.Println(bs)
	// Output:
	// 0x0000000000000001+0x00000000000000ff*y
	// <nil> true
	// [1 0 0 0 0 0 0 0 255 0 0 0 0 0 0 0]
}
