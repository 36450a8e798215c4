package ntt64_test

import (
	"fmt"

	"github.com/gfpoly/gfpoly/internal/ntt64"
)

// Evaluate p(x) = 1 + 2x on the 4th roots of unity and interpolate back.
func ExamplePlan_Transform() {
	p, err := ntt64.NewPlan(2, 7)
	if err != nil {
		panic(err)
	}
	a := []uint64{1, 2, 0, 0}
	p.Transform(a, false, false, false, 1) // DIF: natural in, bit-reversed out
	p.BitReverse(a, 1)                     // natural order
	w := ntt64.RootOfUnity(2)              // 2^48
	fmt.Println(a[0] == 3, a[1] == (1+2*w)%ntt64.P, a[2] == ntt64.P-1)
	p.BitReverse(a, 1)
	p.Transform(a, true, true, false, 1) // DIT inverse: bit-reversed in, natural out
	fmt.Println(a)
	// Output:
	// true true true
	// [1 2 0 0]
}
