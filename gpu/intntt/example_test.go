package intntt_test

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/intntt"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

// Example multiplies (3 − 2x)·(5 + x²) on the GPU through intpoly.Mul, or
// on the CPU where the machine has no GPU.
func Example() {
	a := []*big.Int{big.NewInt(3), big.NewInt(-2)}
	b := []*big.Int{big.NewInt(5), big.NewInt(0), big.NewInt(1)}
	var opts []intpoly.Option
	d, err := gpu.Open()
	if err == nil {
		defer d.Close()
		acc, err := intntt.New(d)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer acc.Close()
		opts = append(opts, intpoly.WithAccelerator(acc))
	} else if !errors.Is(err, gpu.ErrNoDevice) {
		fmt.Println(err)
		return
	}
	c, err := intpoly.Mul(a, b, opts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	// Output: [15 -10 3 -2]
}
