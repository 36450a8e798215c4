package poseidon2_test

import (
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

func ExampleNew() {
	p, err := poseidon2.New[koalabear.Element](poseidon2.Plonky3, 16)
	if err != nil {
		panic(err)
	}
	state := make([]koalabear.Element, 16)
	for i := range state {
		state[i].SetUint64(uint64(i))
	}
	if err := p.Permute(state); err != nil {
		panic(err)
	}
	fmt.Println(state[0].String(), state[15].String())
	// Output:
	// 1259554834 1592576868
}

// A Merkle leaf is the sponge of its row's elements: Plonky3's
// PaddingFreeSponge<Poseidon2BabyBear<16>, 16, 8, 8>.
func ExampleSponge_Hash() {
	p, err := poseidon2.New[babybear.Element](poseidon2.Plonky3, 16)
	if err != nil {
		panic(err)
	}
	row := make([]babybear.Element, 10)
	for i := range row {
		row[i].SetUint64(uint64(i))
	}
	digest := make([]babybear.Element, 8)
	if err := p.Sponge().Hash(digest, row); err != nil {
		panic(err)
	}
	fmt.Println(show(digest))
	// Output:
	// 109871766 1072162525 734734822 1779529182 851455702 1097548423 803475089 1040688773
}

// A Merkle node is the compression of its two children: Plonky3's
// TruncatedPermutation<Poseidon2BabyBear<16>, 2, 8, 16>.
func ExampleCompression_Compress() {
	p, err := poseidon2.New[babybear.Element](poseidon2.Plonky3, 16)
	if err != nil {
		panic(err)
	}
	left, right := make([]babybear.Element, 8), make([]babybear.Element, 8)
	for i := range 8 {
		left[i].SetUint64(uint64(i))
		right[i].SetUint64(uint64(8 + i))
	}
	parent := make([]babybear.Element, 8)
	if err := p.Compression().Compress(parent, left, right); err != nil {
		panic(err)
	}
	fmt.Println(show(parent))
	// Output:
	// 1906786279 1737026427 1959749225 700325316 1638050605 1021608788 1726691001 1761127344
}

// The leaves of a matrix held as columns (the layout of an LDE), then one
// layer of nodes above them, over Goldilocks (digests of 4 elements).
func ExampleSponge_HashColumns() {
	p, err := poseidon2.New[goldilocks.Element](poseidon2.Plonky3, 8)
	if err != nil {
		panic(err)
	}
	const rows = 4
	cols := make([][]goldilocks.Element, 6)
	for c := range cols {
		cols[c] = make([]goldilocks.Element, rows)
		for i := range cols[c] {
			cols[c][i].SetUint64(uint64(10*i + c))
		}
	}
	leaves := make([]goldilocks.Element, rows*4)
	if err := p.Sponge().HashColumns(leaves, cols); err != nil {
		panic(err)
	}
	nodes := make([]goldilocks.Element, rows/2*4)
	if err := p.Compression().CompressLayer(nodes, leaves); err != nil {
		panic(err)
	}
	fmt.Println(show(leaves[:4]))
	fmt.Println(show(nodes))
	// Output:
	// 8217397763602252087 13964623286376466904 9465555807724543923 15967102713977556549
	// 10769714124969090712 12806649305018928225 114041661885922701 17533580469900408063 11420910137956153058 17584407294463357956 16035992782240734292 5952449512015255039
}

// show prints elements as their canonical integers.
func show[E any, P interface {
	*E
	String() string
}](v []E) string {
	s := make([]string, len(v))
	for i := range v {
		s[i] = P(&v[i]).String()
	}
	return strings.Join(s, " ")
}
