package stark

import (
	"fmt"
	"math"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/prover/fri"
)

// The examples are in package stark, with the other tests: an external test
// package would compile the generic prover for its field once more.

// A BabyBear proof of 2^10 rows at 100 conjectured bits, verified.
func ExampleProver() {
	cfg, err := fri.NewConfig(fri.BabyBear, 100, 2) // blowup 4
	if err != nil {
		panic(err)
	}
	p, err := NewProver[babybear.Element, bbext.E4](cfg) // prover.WithGPU(dev) for the GPU
	if err != nil {
		panic(err)
	}
	defer p.Close()
	trace, output, err := Fibonacci[babybear.Element, bbext.E4](10)
	if err != nil {
		panic(err)
	}
	proof, err := p.Prove(trace, output)
	if err != nil {
		panic(err)
	}
	data, err := proof.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var got Proof[babybear.Element, bbext.E4]
	if err := got.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println("verify:", Verify(cfg, 10, output, &got))
	friBits, algBits, err := Security[babybear.Element, bbext.E4](cfg, 10)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.0f conjectured bits\n", math.Floor(min(friBits, algBits)))
	// Output:
	// verify: <nil>
	// 100 conjectured bits
}

// The same STARK over every field, chosen at run time.
func ExampleNew() {
	for _, f := range Fields {
		cfg, err := fri.NewConfig(f, 100, 2)
		if err != nil {
			panic(err)
		}
		in, err := New(f, 10, cfg)
		if err != nil {
			panic(err)
		}
		proof, err := in.Prove()
		if err != nil {
			panic(err)
		}
		data, err := proof.MarshalBinary()
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-10v %4d rows, challenges of degree %d, verify: %v\n", f, in.Rows(), in.Degree(), in.Verify(data))
		in.Close()
	}
	// Output:
	// gf64       1023 rows, challenges of degree 2, verify: <nil>
	// babybear   1024 rows, challenges of degree 4, verify: <nil>
	// koalabear  1024 rows, challenges of degree 4, verify: <nil>
	// goldilocks 1024 rows, challenges of degree 2, verify: <nil>
	// bn254      1024 rows, challenges of degree 1, verify: <nil>
}
