package rowhash_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
)

// rootOnGPU returns the Merkle root over the rows of the columns (column
// major, rows elements each), hashed on the GPU.
func rootOnGPU(cols []gf64.Element, rows int) ([]byte, error) {
	d, err := gpu.Open()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	buf, err := gpu.Alloc[gf64.Element](d, len(cols))
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	if err := buf.Upload(cols); err != nil {
		return nil, err
	}
	h, err := rowhash.New[gf64.Element](d, rows, 0x00, 0x01)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if err := h.Absorb(nil, buf); err != nil { // every column in one group
		return nil, err
	}
	nodes, err := gpu.Alloc[byte](d, (rows-1)*rowhash.DigestSize)
	if err != nil {
		return nil, err
	}
	defer nodes.Free()
	if err := h.Tree(nil, nodes); err != nil {
		return nil, err
	}
	all := make([]byte, nodes.Len())
	if err := nodes.Download(all); err != nil {
		return nil, err
	}
	return all[len(all)-rowhash.DigestSize:], nil
}

// rootOnCPU computes the same root with crypto/sha256.
func rootOnCPU(cols []gf64.Element, rows int) []byte {
	level := make([][]byte, rows)
	for i := range rows {
		msg := []byte{0x00}
		for c := 0; c < len(cols)/rows; c++ {
			msg = binary.LittleEndian.AppendUint64(msg, uint64(cols[c*rows+i]))
		}
		d := sha256.Sum256(msg)
		level[i] = d[:]
	}
	for len(level) > 1 {
		for i := range len(level) / 2 {
			d := sha256.Sum256(append(append([]byte{0x01}, level[2*i]...), level[2*i+1]...))
			level[i] = d[:]
		}
		level = level[:len(level)/2]
	}
	return level[0]
}

func Example() {
	const rows = 4
	cols := []gf64.Element{1, 2, 3, 4, 10, 20, 30, 40} // two columns of four rows
	root, err := rootOnGPU(cols, rows)
	if errors.Is(err, gpu.ErrNoDevice) {
		root = rootOnCPU(cols, rows) // no GPU here: the same bytes on the CPU
	} else if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%x\n", root)
	// Output: e7d163b7a127b7753d24a308a0e3a58f89582531958f81ca37c75d71d333113b
}
