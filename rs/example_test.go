package rs_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/rs"
)

// A trace column of 4 rows over S, extended 4× to a disjoint coset T (the
// STARK layout), then checked.
func ExampleCode_Encode() {
	S, _ := domain.New(0, 1, 2) // {0, 1, 2, 3}
	T, _ := domain.New(16, 1, 2, 4, 8)
	code, err := rs.New(S, T)
	if err != nil {
		panic(err)
	}
	msg := []gf64.Element{5, 7, 11, 13}
	cw := make([]gf64.Element, code.CodewordLen())
	if err := code.Encode(cw, msg); err != nil {
		panic(err)
	}
	ok, _ := code.Verify(cw)
	fmt.Println(code.Layout(), len(cw), ok)
	cw[3] ^= 1
	ok, _ = code.Verify(cw)
	fmt.Println(ok)
	// Output:
	// general 16 true
	// false
}

// A systematic code (T = S extended) loses all but 4 of its 16 symbols and
// gets its message back.
func ExampleCode_Decode() {
	S, _ := domain.New(3, 1, 2)
	T, _ := S.Extend(4, 8)
	code, err := rs.New(S, T, rs.WithSystematic())
	if err != nil {
		panic(err)
	}
	msg := []gf64.Element{5, 7, 11, 13}
	cw := make([]gf64.Element, 16)
	if err := code.Encode(cw, msg); err != nil {
		panic(err)
	}
	present := make([]bool, 16)
	for _, i := range []int{2, 7, 9, 14} {
		present[i] = true
	}
	got := make([]gf64.Element, 4)
	if err := code.Decode(got, cw, present); err != nil {
		panic(err)
	}
	fmt.Println(got[0], got[3])

	present[14] = false
	fmt.Println(code.Decode(got, cw, present))
	// Output:
	// 0x0000000000000005 0x000000000000000d
	// rs: too few symbols present to decode: Decode: 3 of 16 positions present, need at least 4
}
