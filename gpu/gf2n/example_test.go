package gf2n_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/gpu"
	gpugf2n "github.com/gfpoly/gfpoly/gpu/gf2n"
)

// mulOnGPU sets z = x·y element by element in f on the GPU, the batch kept
// on the device between the copies.
func mulOnGPU(f *gf2n.Field, z, x, y []uint64) error {
	d, err := gpu.Open()
	if err != nil {
		return err
	}
	defer d.Close()
	m, err := gpugf2n.New(d, f, gpugf2n.PerThread)
	if err != nil {
		return err
	}
	dx, err := gpu.Alloc[uint64](d, len(x))
	if err != nil {
		return err
	}
	defer dx.Free()
	dy, err := gpu.Alloc[uint64](d, len(y))
	if err != nil {
		return err
	}
	defer dy.Free()
	if err := dx.Upload(x); err != nil {
		return err
	}
	if err := dy.Upload(y); err != nil {
		return err
	}
	if err := m.MulVec(nil, dx, dx, dy); err != nil { // in place: dx = dx·dy
		return err
	}
	return dx.Download(z)
}

func Example() {
	f, _ := gf2n.New(128) // x^128 + x^7 + x^2 + x + 1, the field of GHASH
	// Two elements of two words each: x^127 · x, and (x + 1)·(x + 1).
	x := []uint64{0, 1 << 63, 3, 0}
	y := []uint64{2, 0, 3, 0}
	z := make([]uint64, len(x))
	if err := mulOnGPU(f, z, x, y); err != nil {
		if !errors.Is(err, gpu.ErrNoDevice) {
			fmt.Println(err)
			return
		}
		_ = f.MulVec(z, x, y) // no GPU here: the CPU gives the same bits
	}
	fmt.Printf("%#x %#x\n", z[0], z[1]) // x^128 = x^7 + x^2 + x + 1
	fmt.Printf("%#x %#x\n", z[2], z[3]) // x^2 + 1
	// Output:
	// 0x87 0x0
	// 0x5 0x0
}

// The host call stages Go slices through pinned memory in parts, so that
// copies and products overlap.
func ExampleMultiplier_MulVecHost() {
	f, _ := gf2n.New(2048)
	x := make([]uint64, 3*f.Words()) // three elements
	for i := range x {
		x[i] = uint64(i + 1)
	}
	z := make([]uint64, len(x))
	d, err := gpu.Open()
	if err == nil {
		defer d.Close()
		var m *gpugf2n.Multiplier
		if m, err = gpugf2n.New(d, f, gpugf2n.PerThread); err == nil {
			defer m.Close()
			err = m.MulVecHost(z, x, x) // squares
		}
	}
	if errors.Is(err, gpu.ErrNoDevice) {
		err = f.MulVec(z, x, x)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	sq := make([]uint64, f.Words())
	f.Square(sq, x[:f.Words()])
	fmt.Println(slices.Equal(z[:f.Words()], sq))
	// Output: true
}
