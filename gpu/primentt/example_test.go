package primentt_test

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/babybear/fft"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/primentt"
)

// Two columns of 2^20 BabyBear elements, transformed in place on the device
// and extended 4× onto the coset; the host data is gnark-crypto's own
// []babybear.Element, uploaded as it is. (No output check: it needs a GPU.)
func ExampleNTT() {
	dev, err := gpu.Open()
	if errors.Is(err, gpu.ErrNoDevice) {
		fmt.Println("no GPU:", err)
		return
	}
	if err != nil {
		panic(err)
	}
	defer dev.Close()

	const n = 1 << 20
	small, large := fft.NewDomain(n), fft.NewDomain(4*n)
	ntt, err := primentt.NewNTT[babybear.Element](dev, small)
	if err != nil {
		panic(err)
	}
	defer ntt.Close()

	cols := make([]babybear.Element, 2*n) // column c is cols[c*n : (c+1)*n]
	for i := range cols {
		cols[i].SetUint64(uint64(i))
	}
	buf, err := gpu.Alloc[babybear.Element](dev, len(cols))
	if err != nil {
		panic(err)
	}
	defer buf.Free()
	if err := buf.Upload(cols); err != nil {
		panic(err)
	}
	// gnark-crypto's small.FFTInverse(col, fft.DIF) on both columns.
	if err := ntt.FFTInverse(nil, buf, primentt.DIF); err != nil {
		panic(err)
	}

	lde, err := primentt.NewLDE[babybear.Element](dev, small, large)
	if err != nil {
		panic(err)
	}
	defer lde.Close()
	ext, err := gpu.Alloc[babybear.Element](dev, 2*4*n)
	if err != nil {
		panic(err)
	}
	defer ext.Free()
	if err := buf.Upload(cols); err != nil {
		panic(err)
	}
	if err := lde.Encode(nil, ext, buf, primentt.Natural); err != nil {
		panic(err)
	}
}
