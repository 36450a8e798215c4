package gfvec_test

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/gfvec"
)

// mulOnGPU computes out[i] = a[i]·b[i] on the GPU.
func mulOnGPU(out, a, b []gf64.Element) error {
	d, err := gpu.Open()
	if err != nil {
		return err
	}
	defer d.Close()
	k, err := gfvec.NewGF64(d, gfvec.PerThread)
	if err != nil {
		return err
	}
	da, err := gpu.Alloc[gf64.Element](d, len(a))
	if err != nil {
		return err
	}
	defer da.Free()
	db, err := gpu.Alloc[gf64.Element](d, len(b))
	if err != nil {
		return err
	}
	defer db.Free()
	if err := da.Upload(a); err != nil {
		return err
	}
	if err := db.Upload(b); err != nil {
		return err
	}
	if err := k.MulVec(nil, da, da, db); err != nil { // in place: da = da·db
		return err
	}
	return da.Download(out)
}

func Example() {
	a := []gf64.Element{0x123456789abcdef0, 3}
	b := []gf64.Element{0xfedcba9876543210, 5}
	out := make([]gf64.Element, len(a))
	if err := mulOnGPU(out, a, b); err != nil {
		if !errors.Is(err, gpu.ErrNoDevice) {
			fmt.Println(err)
			return
		}
		gf64.MulVec(out, a, b) // no GPU here: the CPU gives the same bits
	}
	fmt.Println(uint64(out[0]), uint64(out[1]))
	// Output: 9810998698458937964 15
}
