package fermat_test

import (
	"errors"
	"fmt"
	"math/big"

	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/fermat"
)

// The transform of an impulse at 1 is the powers of ω: on the GPU where
// there is one, on the CPU otherwise, with the same bits.
func Example() {
	a := make([]field.Element, 256)
	a[1].SetOne()
	d, err := gpu.Open()
	if err == nil {
		defer d.Close()
		var t *fermat.Transformer
		if t, err = fermat.New(d); err == nil {
			defer t.Close()
			err = t.FFTHost(a)
		}
	}
	if errors.Is(err, gpu.ErrNoDevice) {
		err = field.FFT(a) // no GPU here: the CPU gives the same bits
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	w, _ := field.RootOfUnity(256)
	var w3 field.Element
	w3.Exp(&w, big.NewInt(3))
	fmt.Println(a[3] == w3, a[16] == *new(field.Element).SetRPow(1)) // ω^16 = r
	// Output: true true
}
