package fermat_test

import (
	"fmt"
	"math/big"

	"github.com/gfpoly/gfpoly/field/fermat"
)

// Multiply two polynomials by the convolution theorem, and multiply two
// big integers through the same transform.
func Example() {
	// (1 + 2x)(3 + 4x) = 3 + 10x + 8x², on 4 points.
	a := make([]fermat.Element, 4)
	b := make([]fermat.Element, 4)
	a[0].SetUint64(1)
	a[1].SetUint64(2)
	b[0].SetUint64(3)
	b[1].SetUint64(4)
	if err := fermat.FFT(a); err != nil {
		panic(err)
	}
	if err := fermat.FFT(b); err != nil {
		panic(err)
	}
	for i := range a {
		a[i].Mul(&a[i], &b[i])
	}
	if err := fermat.IFFT(a); err != nil {
		panic(err)
	}
	fmt.Println(a[0].String(), a[1].String(), a[2].String(), a[3].String())

	// r = 2^63 + 2^34 is the 16th root of unity, and r^8 = −1.
	w, _ := fermat.RootOfUnity(16)
	var m fermat.Element
	m.MulByRPow(&w, 7)
	fmt.Println(w == fermat.Element{0, 1}, m.Big().Cmp(new(big.Int).Sub(fermat.Modulus(), big.NewInt(1))) == 0)

	x, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	z, _ := fermat.MulBig(x, x)
	fmt.Println(z)

	_, err := fermat.RootOfUnity(48)
	fmt.Println(err)
	// Output:
	// 3 10 8 0
	// true true
	// 15241578753238836750495351562536198787501905199875019052100
	// fermat: unsupported length: 48: the supported lengths are the powers of two 1, 2, 4, …, 2^62 (16^e among them)
}
