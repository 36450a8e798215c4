package prover_test

import (
	"bytes"
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

// Several GPUs of one host: the trace's columns are split between the
// devices, each keeps the LDE of its columns, and the commitment is the
// one a single GPU or the CPU makes. Here every GPU the machine has is
// opened once, and a machine of one GPU opens it twice (two logical
// devices, the same code); without a GPU the CPU backend stands in.
func Example_severalGPUs() {
	var devs []*gpu.Device
	for ord := 0; ; ord++ {
		dev, err := gpu.Open(gpu.WithOrdinal(ord))
		if err != nil { // gpu.ErrNoDevice past the last GPU
			break
		}
		defer dev.Close()
		devs = append(devs, dev)
	}
	if len(devs) == 1 {
		if dev, err := gpu.Open(); err == nil {
			defer dev.Close()
			devs = append(devs, dev)
		}
	}
	var opts []prover.Option
	if len(devs) > 0 {
		opts = append(opts, prover.WithGPUs(devs...))
	}
	enc, err := prover.New[babybear.Element](opts...)
	if err != nil {
		panic(err)
	}
	defer enc.Close()

	trace, err := prover.RandomTrace[babybear.Element](12, 11, 7) // 11 columns: the devices need not divide them
	if err != nil {
		panic(err)
	}
	com, err := enc.Commit(trace)
	if err != nil {
		panic(err)
	}
	defer com.Close()
	op, err := com.Open([]int{0, 5, 16383})
	if err != nil {
		panic(err)
	}

	cpu, err := prover.New[babybear.Element]()
	if err != nil {
		panic(err)
	}
	ref, err := cpu.Commit(trace)
	if err != nil {
		panic(err)
	}
	fmt.Println("same root as the CPU:", bytes.Equal(com.Root(), ref.Root()))
	fmt.Println("opening verifies:", op.Verify(ref.Root(), ref.Rows(), nil) == nil)
	// Output:
	// same root as the CPU: true
	// opening verifies: true
}
