package intpoly_test

import (
	"fmt"
	"math/big"

	"github.com/gfpoly/gfpoly/poly/intpoly"
)

func ExampleMul() {
	// (3 − 2x + 5x²)·(−1 + 10^30·x)
	big30, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	a := []*big.Int{big.NewInt(3), big.NewInt(-2), big.NewInt(5)}
	b := []*big.Int{big.NewInt(-1), big30}
	c, err := intpoly.Mul(a, b)
	if err != nil {
		panic(err)
	}
	fmt.Println(c)
	// Output: [-3 3000000000000000000000000000002 -2000000000000000000000000000005 5000000000000000000000000000000]
}

func ExampleMulBig() {
	x := new(big.Int).Lsh(big.NewInt(1), 1<<20) // 2^(2^20)
	x.Sub(x, big.NewInt(1))
	z, err := intpoly.MulBig(x, x) // (2^(2^20) − 1)^2 = 2^(2^21) − 2^(2^20+1) + 1
	if err != nil {
		panic(err)
	}
	fmt.Println(z.BitLen(), z.Bit(0), z.Bit(1<<20), z.Bit(1<<20+1))
	// Output: 2097152 1 0 1
}

func ExampleMultiplier() {
	// Many products of int64 polynomials of up to 4 coefficients: one
	// Multiplier, packed coefficients (Width 1 = int64 as uint64 bits).
	m, err := intpoly.NewMultiplier(4, 4, 63, 63)
	if err != nil {
		panic(err)
	}
	neg := func(v int64) uint64 { return uint64(v) }
	a := intpoly.Packed{Width: 1, Limbs: []uint64{1, 2, neg(-3), 4}}
	b := intpoly.Packed{Width: 1, Limbs: []uint64{neg(-1 << 62), 1}}
	dst := intpoly.NewPacked(a.Len()+b.Len()-1, m.OutWidth())
	if err := m.MulPacked(dst, a, b); err != nil {
		panic(err)
	}
	fmt.Println(m.OutWidth(), dst.Big())
	// Output: 3 [-4611686018427387904 -9223372036854775807 13835058055282163714 -18446744073709551619 4]
}
