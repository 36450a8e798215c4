package prover_test

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// Encode a GF(2^64) trace of 3 columns × 8 rows with blowup 4, commit to the
// rows of its LDE, open two rows and verify them without the encoder.
func Example() {
	enc, err := prover.New[gf64.Element](prover.WithBlowup(4))
	if err != nil {
		panic(err)
	}
	defer enc.Close()

	trace := make(prover.Trace[gf64.Element], 3)
	for c := range trace {
		trace[c] = make([]gf64.Element, 8)
		for r := range trace[c] {
			trace[c][r] = gf64.Element(10*c + r)
		}
	}
	com, err := enc.Commit(trace)
	if err != nil {
		panic(err)
	}
	fmt.Println(enc.Name(), "codeword rows:", com.Rows())

	// The prover sends the root, then opens the rows a verifier asks for.
	root := com.Root()
	op, err := com.Open([]int{5, 30})
	if err != nil {
		panic(err)
	}
	// The verifier knows the root, the number of rows and the hash.
	fmt.Println("verify:", prover.Verify(root, com.Rows(), op.Indices, op.Rows, op.Paths, nil))

	// A changed element fails.
	op.Rows[1][2] ^= 1
	err = prover.Verify(root, com.Rows(), op.Indices, op.Rows, op.Paths, nil)
	fmt.Println("tampered:", errors.Is(err, prover.ErrVerify))
	// Output:
	// gf64/cpu codeword rows: 32
	// verify: <nil>
	// tampered: true
}

// The same calls on a prime field: BabyBear on gnark-crypto's types.
func ExampleNew_babyBear() {
	enc, err := prover.New[babybear.Element](prover.WithBlowup(2))
	if err != nil {
		panic(err)
	}
	trace, _ := prover.RandomTrace[babybear.Element](10, 4, 1)
	com, err := enc.Commit(trace)
	if err != nil {
		panic(err)
	}
	op, _ := com.Open([]int{0, 2047})
	fmt.Println(enc.Name(), com.Rows(), op.Verify(com.Root(), com.Rows(), nil))

	// Bad input is an error.
	_, err = enc.Commit(prover.Trace[babybear.Element]{make([]babybear.Element, 8), make([]babybear.Element, 4)})
	fmt.Println(err)
	_, err = prover.New[babybear.Element](prover.WithBlowup(3))
	fmt.Println(err)
	// Output:
	// babybear/cpu 2048 <nil>
	// prover: ragged trace: column 1 has 4 rows, column 0 has 8: bad shape
	// prover: blowup 3 not supported (want 2, 4, 8 or 16): prover: bad configuration
}
