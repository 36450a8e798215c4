package prime_test

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/goldilocks/fft"

	"github.com/gfpoly/gfpoly/prover/prime"
)

// Evaluate two polynomials on the subgroup of order 4 and interpolate them
// back, as one batch.
func ExampleNTT_FFT() {
	ntt, err := prime.NewGoldilocks(fft.NewDomain(4))
	if err != nil {
		panic(err)
	}
	p := make([]goldilocks.Element, 4) // p(x) = 1 + x
	p[0].SetOne()
	p[1].SetOne()
	q := make([]goldilocks.Element, 4) // q(x) = 3
	q[0].SetUint64(3)

	cols := [][]goldilocks.Element{p, q}
	if err := ntt.FFT(cols, prime.Natural); err != nil {
		panic(err)
	}
	fmt.Println("p(1) =", p[0].String(), " p(-1) =", p[2].String())
	fmt.Println("q(ω) =", q[1].String())

	if err := ntt.FFTInverse(cols, prime.Natural); err != nil {
		panic(err)
	}
	fmt.Println("p:", p[0].String(), p[1].String(), p[2].String(), p[3].String())

	// A column of the wrong size is an error, not garbage.
	err = ntt.FFT([][]goldilocks.Element{make([]goldilocks.Element, 8)}, prime.DIF)
	fmt.Println(err)
	// Output:
	// p(1) = 2  p(-1) = 0
	// q(ω) = 3
	// p: 1 1 0 0
	// prime: size does not match the domain: FFT column 0 has 8 elements, the goldilocks domain has 4
}

// Extend a column of 4 evaluations to 16 evaluations on the coset 7·⟨ω_16⟩.
func ExampleLDE_Encode() {
	lde, err := prime.NewGoldilocksLDE(fft.NewDomain(4), fft.NewDomain(16))
	if err != nil {
		panic(err)
	}
	// p(x) = 5 + 2x on the subgroup of order 4: 7, 5+2ω, 3, 5-2ω.
	small, _ := prime.NewGoldilocks(fft.NewDomain(4))
	col := make([]goldilocks.Element, 4)
	col[0].SetUint64(5)
	col[1].SetUint64(2)
	if err := small.FFT([][]goldilocks.Element{col}, prime.Natural); err != nil {
		panic(err)
	}

	ext := make([]goldilocks.Element, 16)
	if err := lde.Encode([][]goldilocks.Element{ext}, [][]goldilocks.Element{col}, prime.Natural); err != nil {
		panic(err)
	}
	fmt.Println("blowup", lde.Blowup())
	fmt.Println("p(7) =", ext[0].String()) // the first coset point is the shift 7
	// Output:
	// blowup 4
	// p(7) = 19
}
