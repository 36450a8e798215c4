package merkle_test

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// A tree over 8 rows of two BabyBear columns (MultiOpening's test vector),
// three rows opened together, sent as bytes and checked by a verifier that
// knows only the root and the number of rows.
func Example() {
	cols := [][]babybear.Element{make([]babybear.Element, 8), make([]babybear.Element, 8)}
	for i := range 8 {
		cols[0][i].SetUint64(uint64(i + 1))
		cols[1][i].SetUint64(uint64(i + 9))
	}
	tree, err := merkle.Commit(cols, nil, 0) // SHA-256, all cores
	if err != nil {
		panic(err)
	}
	fmt.Printf("root %x\n", tree.Root())

	m, err := tree.OpenMulti([]int{6, 1, 2})
	if err != nil {
		panic(err)
	}
	proof, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	fmt.Printf("rows %v, %d nodes, %d bytes\n", m.Indices, len(m.Nodes), len(proof))

	// The verifier's side.
	var got merkle.MultiOpening[babybear.Element]
	if err := got.UnmarshalBinary(proof); err != nil {
		panic(err)
	}
	fmt.Println("verified:", merkle.VerifyMulti(tree.Root(), 8, &got, nil) == nil)
	got.Rows[0][1].SetUint64(11)
	fmt.Println("a changed row:", merkle.VerifyMulti(tree.Root(), 8, &got, nil))
	// Output:
	// root 82565165d8d41d00a3977ec87ffc0fe17907404cb0496a4f91eda2bac17cc33b
	// rows [1 2 6], 4 nodes, 179 bytes
	// verified: true
	// a changed row: merkle: VerifyMulti: the 3 rows do not match the root: verification failed
}

// A Plonky3-compatible Poseidon2 tree over the 4 rows of 20 BabyBear
// columns of the package documentation's field test vector (row r is 20r,
// …, 20r+19): its root, element by element as Plonky3's MerkleTreeMmcs
// gives it, a multi-opening and its verification.
func ExamplePoseidon2() {
	hs, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 24)
	if err != nil {
		panic(err)
	}
	cols := make([][]babybear.Element, 20)
	for c := range cols {
		cols[c] = make([]babybear.Element, 4)
		for r := range cols[c] {
			cols[c][r].SetUint64(uint64(20*r + c))
		}
	}
	tree, err := merkle.Build(cols, hs, 0, nil) // all cores
	if err != nil {
		panic(err)
	}
	root := make([]uint64, 8)
	for i := range root {
		e, _ := babybear.BigEndian.Element((*[4]byte)(tree.Root()[4*i:]))
		root[i] = e.Uint64()
	}
	fmt.Println(hs)
	fmt.Println("root", root)

	m, err := tree.OpenMulti([]int{2})
	if err != nil {
		panic(err)
	}
	fmt.Println("verified:", merkle.VerifyMultiWith(tree.Root(), 4, m, hs) == nil)
	fmt.Println("with SHA-256:", merkle.VerifyMultiWith(tree.Root(), 4, m, merkle.Hasher{}))
	koala := [][]koalabear.Element{make([]koalabear.Element, 4)}
	_, err = merkle.Build(koala, hs, 0, nil)
	fmt.Println(err)
	// Output:
	// Poseidon2 (Plonky3, babybear, width 24, nodes on width 16), 8-element digests
	// root [477796801 1855960366 1422415754 1551661697 487309186 1675881114 708495938 542049302]
	// verified: true
	// with SHA-256: merkle: VerifyMulti: the 1 rows do not match the root: verification failed
	// merkle: Build: the hash is Poseidon2 (Plonky3, babybear, width 24, nodes on width 16), 8-element digests; the rows are koalabear: the hash is over another field
}
