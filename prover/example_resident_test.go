package prover_test

import (
	"bytes"
	"fmt"

	"github.com/consensys/gnark-crypto/field/goldilocks"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

// A prover loop on whatever the machine has: on a GPU, the LDE and its
// tree stay on the device between Commit and Close, and what the prover
// reads next (opened rows, the random linear combination of the columns)
// comes back alone; without one, the same calls run on the CPU and give the
// same root, rows and combination.
func Example_device() {
	var opts []prover.Option
	if dev, err := gpu.Open(); err == nil { // errors.Is(err, gpu.ErrNoDevice) without one
		defer dev.Close()
		opts = append(opts, prover.WithGPU(dev), prover.WithDeviceBudget(8<<30))
	}
	enc, err := prover.New[goldilocks.Element](opts...)
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	const logRows, cols = 12, 8
	if err := enc.Prepare(logRows, cols); err != nil { // one-time costs, before the first trace
		panic(err)
	}

	trace, err := prover.RandomTrace[goldilocks.Element](logRows, cols, 42)
	if err != nil {
		panic(err)
	}
	com, err := enc.Commit(trace)
	if err != nil {
		panic(err)
	}
	defer com.Close() // a GPU's device memory goes back here

	// The verifier's queries, and the combination with its challenges.
	op, err := com.Open([]int{3, 1000, 16383})
	if err != nil {
		panic(err)
	}
	fmt.Println("opening verifies:", op.Verify(com.Root(), com.Rows(), nil) == nil)
	alpha := make([]goldilocks.Element, cols)
	for j := range alpha {
		alpha[j].SetUint64(uint64(7 + j))
	}
	mix, err := com.Combine(alpha)
	if err != nil {
		panic(err)
	}

	// The same on the CPU backend, for comparison.
	cpu, err := prover.New[goldilocks.Element]()
	if err != nil {
		panic(err)
	}
	ref, err := cpu.Commit(trace)
	if err != nil {
		panic(err)
	}
	refMix, err := ref.Combine(alpha)
	if err != nil {
		panic(err)
	}
	fmt.Println("same root as the CPU:", bytes.Equal(com.Root(), ref.Root()))
	fmt.Println("same combination:", fmt.Sprint(mix) == fmt.Sprint(refMix), len(mix), "rows")
	// Output:
	// opening verifies: true
	// same root as the CPU: true
	// same combination: true 16384 rows
}
