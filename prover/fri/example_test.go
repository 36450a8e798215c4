package fri_test

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// A BabyBear codeword of f(x) = 1 + 2x + 3x² + 4x³ over the coset
// 7·⟨ω⟩ of 8 points, folded by 4: f_k are the constants 1, 2, 3, 4, so
// every folded entry is 1 + 2β + 3β² + 4β³; the verifier folds one leaf.
func ExampleFoldCoset() {
	const n = 8
	omega, _ := babybear.Generator(n)
	var shift babybear.Element
	shift.SetUint64(7)
	src := make([]bbext.E4, n)
	x := shift
	for i := range src {
		var v, p babybear.Element // Σ (k+1)·x^k
		p.SetOne()
		for k := uint64(1); k <= 4; k++ {
			var c babybear.Element
			c.SetUint64(k)
			c.Mul(&c, &p)
			v.Add(&v, &c)
			p.Mul(&p, &x)
		}
		src[i].B0.A0 = v
		x.Mul(&x, &omega)
	}
	var beta bbext.E4
	beta.B0.A0.SetUint64(10)
	dst := make([]bbext.E4, n/4)
	if err := fri.FoldCoset(dst, src, shift, omega, 4, beta); err != nil {
		fmt.Println(err)
		return
	}
	// Leaf 1 is entries 1, 3, 5, 7 (j + t·n/4).
	at, err := fri.FoldCosetAt([]bbext.E4{src[1], src[3], src[5], src[7]}, shift, omega, n, 1, beta)
	fmt.Println(dst[0].B0.A0.String(), dst[1].B0.A0.String(), at == dst[1], err)
	// Output: 4321 4321 true <nil>
}

// A GF(2^128) codeword over a subspace of 16 points folded by 2, and the
// verifier's fold of leaf 3 (entries 6 and 7).
func ExampleFoldSubspace() {
	s, _ := domain.New(5, 1, 2, 4, 8)
	src := make([]gf128.Element, s.Size())
	for i := range src {
		x := s.Element(i)
		src[i] = gf128.Embed(gf64.Mul(x, x)) // f(x) = x² = q(x) + β_0·x: g = Y, h = β_0 = 1
	}
	beta := gf128.Y
	dst := make([]gf128.Element, s.Size()/2)
	if err := fri.FoldSubspace(dst, src, s, 2, beta); err != nil {
		fmt.Println(err)
		return
	}
	folded, _ := s.Fold(1)
	at, _ := fri.FoldSubspaceAt(src[6:8], s, 3, beta)
	// dst[j] = g(q(x)) + β·h = folded.Element(j) + y
	fmt.Println(dst[3].Equal(gf128.Add(gf128.Embed(folded.Element(3)), gf128.Y)), at.Equal(dst[3]))
	// Output: true true
}

func ExamplePreset() {
	p, err := fri.Preset(fri.BabyBear, 100, 1, 20)
	fmt.Println(p.Queries, p.GrindingBits, p.Arities, err)
	fmt.Printf("conjectured %.1f, query %.0f, proven %.1f\n", p.ConjecturedBits(), p.QueryBits(), p.ProvenBits())
	_, err = fri.Preset(fri.BabyBear, 128, 1, 20)
	fmt.Println(err != nil)
	// Output:
	// 84 16 [16 16 16 16 2] <nil>
	// conjectured 100.0, query 100, proven 51.9
	// true
}
