package prover_test

import (
	"encoding/binary"
	"fmt"
	"hash"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254poseidon2 "github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearposeidon2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// packed adapts a hash over field elements to byte strings. gnark-crypto's
// Poseidon2 and MiMC Merkle–Damgård hashers take whole blocks of canonical
// field elements, and the tree's messages are bytes of any length (1 + row
// bytes, 1 + 2·Size()), so they cannot serve as they are. packed hashes the
// message, zero-padded to whole blocks, then one block holding its length,
// each element carrying payload message bytes under elem−payload zero bytes
// (so that it is canonical); the length makes the packing injective.
type packed struct {
	inner   hash.Hash
	elem    int // bytes per field element
	payload int // message bytes per element
	buf     []byte
}

func newPacked(inner hash.Hash, elem, payload int) *packed {
	return &packed{inner: inner, elem: elem, payload: payload}
}

func (p *packed) Write(b []byte) (int, error) { p.buf = append(p.buf, b...); return len(b), nil }
func (p *packed) Reset()                      { p.buf = p.buf[:0] }
func (p *packed) Size() int                   { return p.inner.Size() }
func (p *packed) BlockSize() int              { return p.inner.BlockSize() / p.elem * p.payload }

func (p *packed) Sum(b []byte) []byte {
	bp := p.BlockSize()
	msg := make([]byte, (len(p.buf)+bp-1)/bp*bp+bp)
	copy(msg, p.buf)
	binary.BigEndian.PutUint64(msg[len(msg)-8:], uint64(len(p.buf)))
	els := make([]byte, 0, len(msg)/p.payload*p.elem)
	for off := 0; off < len(msg); off += p.payload {
		els = append(els, make([]byte, p.elem-p.payload)...)
		els = append(els, msg[off:off+p.payload]...)
	}
	p.inner.Reset()
	if n, err := p.inner.Write(els); err != nil || n != len(els) {
		// Canonical by construction: this would be a bug in the adapter
		// (and the encoder would return it as an error, not crash).
		panic(fmt.Sprintf("packed: inner hash took %d of %d bytes: %v", n, len(els), err))
	}
	return p.inner.Sum(b)
}

// poseidon2BN254 is Poseidon2 over BN254's scalar field, on bytes.
func poseidon2BN254() hash.Hash {
	return newPacked(bn254poseidon2.NewMerkleDamgardHasher(), fr.Bytes, fr.Bytes-1)
}

// poseidon2BabyBear is Poseidon2 over BabyBear (8-element digests), on bytes.
func poseidon2BabyBear() hash.Hash {
	return newPacked(babybearposeidon2.NewMerkleDamgardHasher(), babybear.Bytes, babybear.Bytes-1)
}

// A Merkle tree hashed with Poseidon2 over BN254, through a byte-packing
// adapter. Given gnark-crypto's hasher directly, New refuses it: it cannot
// take the tree's messages.
func ExampleWithHash() {
	_, err := prover.New[gf64.Element](prover.WithHash(func() hash.Hash {
		return bn254poseidon2.NewMerkleDamgardHasher()
	}))
	fmt.Println("unpacked refused:", err != nil)

	enc, err := prover.New[gf64.Element](prover.WithHash(poseidon2BN254))
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	trace := prover.Trace[gf64.Element]{{1, 2, 3, 4}, {5, 6, 7, 8}}
	com, err := enc.Commit(trace)
	if err != nil {
		panic(err)
	}
	op, err := com.Open([]int{3, 12})
	if err != nil {
		panic(err)
	}
	fmt.Println("root bytes:", len(com.Root()))
	fmt.Println("verified:", op.Verify(com.Root(), com.Rows(), poseidon2BN254) == nil)
	// Output:
	// unpacked refused: true
	// root bytes: 32
	// verified: true
}
