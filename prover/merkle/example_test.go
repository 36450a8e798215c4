package merkle_test

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"

	"github.com/gfpoly/gfpoly/prover/merkle"
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
