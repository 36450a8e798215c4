package rowhash

import (
	"fmt"
	"unsafe"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
)

// Openings read a few rows and digests of a commitment that stays on the
// device: the words they need are gathered by one kernel into a small
// buffer, which is the only thing copied to the host.

// gatherWords returns the 32-bit words src[idx[i]] of the device memory at
// src (srcWords words long), gathered on s (nil: the default stream).
func gatherWords(d *gpu.Device, s *gpu.Stream, src gpu.DevicePtr, srcWords int, idx []uint64) ([]uint32, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	for _, i := range idx {
		if i >= uint64(srcWords) {
			return nil, fmt.Errorf("rowhash: gathering word %d of %d: %w", i, srcWords, gpu.ErrLength)
		}
	}
	m, err := d.Module(cuda.MerkleProgram("gf64"))
	if err != nil {
		return nil, err
	}
	fn, err := m.Function("rh_gather")
	if err != nil {
		return nil, err
	}
	di, err := gpu.Alloc[uint64](d, len(idx))
	if err != nil {
		return nil, fmt.Errorf("rowhash: gather indices: %w", err)
	}
	defer di.Free()
	out, err := gpu.Alloc[uint32](d, len(idx))
	if err != nil {
		return nil, fmt.Errorf("rowhash: gather output: %w", err)
	}
	defer out.Free()
	if err := di.Upload(idx); err != nil {
		return nil, err
	}
	g := min((len(idx)+block-1)/block, max(1, 4*d.Info().Multiprocessors))
	if err := fn.Launch(gpu.LaunchConfig{Grid: gpu.Dim3{X: g}, Block: gpu.Dim3{X: block}, Stream: s},
		out, src, di, uint64(len(idx))); err != nil {
		return nil, fmt.Errorf("rowhash: gather: %w", err)
	}
	if s != nil {
		if err := s.Synchronize(); err != nil {
			return nil, err
		}
	}
	words := make([]uint32, len(idx))
	if err := out.Download(words); err != nil {
		return nil, err
	}
	return words, nil
}

// GatherRows copies rows of a column-major matrix on the device to the
// host: m holds cols columns of rows elements end to end, and out[k] is
// row indices[k], its elements in column order. The work is queued on s
// (nil: the default stream), after the work already queued there, and
// GatherRows returns once the rows are on the host. An index outside
// 0..rows−1, or an m that is not a whole number of columns, is an error
// wrapping gpu.ErrLength.
func GatherRows[E Element](s *gpu.Stream, m *gpu.Buffer[E], rows int, indices []int) ([][]E, error) {
	if m == nil || rows <= 0 || m.Len() == 0 || m.Len()%rows != 0 {
		n := 0
		if m != nil {
			n = m.Len()
		}
		return nil, fmt.Errorf("rowhash: GatherRows: a buffer of %d elements is not a whole number of columns of %d rows: %w", n, rows, gpu.ErrLength)
	}
	if m.Freed() {
		return nil, fmt.Errorf("rowhash: GatherRows: the buffer was freed: %w", gpu.ErrClosed)
	}
	cols := m.Len() / rows
	var z E
	ew := int(unsafe.Sizeof(z)) / 4
	idx := make([]uint64, 0, len(indices)*cols*ew)
	for _, i := range indices {
		if i < 0 || i >= rows {
			return nil, fmt.Errorf("rowhash: GatherRows: row %d of %d: %w", i, rows, gpu.ErrLength)
		}
		for c := range cols {
			base := uint64(c*rows+i) * uint64(ew)
			for w := range ew {
				idx = append(idx, base+uint64(w))
			}
		}
	}
	words, err := gatherWords(m.Device(), s, m.Ptr(), m.Len()*ew, idx)
	if err != nil {
		return nil, err
	}
	out := make([][]E, len(indices))
	for k := range out {
		row := make([]E, cols)
		copy(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(row))), cols*ew), words[k*cols*ew:])
		out[k] = row
	}
	return out, nil
}

// GatherPaths copies from nodes, the tree that Hasher.Tree wrote for rows
// rows, the digests of the authentication path of each leaf in indices
// above its sibling leaf (leaves are not stored): paths[k][j] is the
// sibling of the ancestor of leaf indices[k] at height j+1, for j = 0 …
// log2(rows)−2, the root's children last. As GatherRows for the stream and
// errors.
func GatherPaths(s *gpu.Stream, nodes *gpu.Buffer[byte], rows int, indices []int) ([][][]byte, error) {
	if rows < 2 || rows&(rows-1) != 0 {
		return nil, fmt.Errorf("rowhash: GatherPaths: %d rows, want a power of two of at least 2: %w", rows, gpu.ErrLength)
	}
	if nodes == nil || nodes.Len() != (rows-1)*DigestSize {
		n := 0
		if nodes != nil {
			n = nodes.Len()
		}
		return nil, fmt.Errorf("rowhash: GatherPaths: a node buffer of %d bytes, want %d: %w", n, (rows-1)*DigestSize, gpu.ErrLength)
	}
	if nodes.Freed() {
		return nil, fmt.Errorf("rowhash: GatherPaths: the node buffer was freed: %w", gpu.ErrClosed)
	}
	levels := 0
	for r := rows; r > 2; r >>= 1 {
		levels++
	}
	const dw = DigestSize / 4
	idx := make([]uint64, 0, len(indices)*levels*dw)
	for _, i := range indices {
		if i < 0 || i >= rows {
			return nil, fmt.Errorf("rowhash: GatherPaths: leaf %d of %d: %w", i, rows, gpu.ErrLength)
		}
		off, width := 0, rows/2 // level j+1 starts at digest off and holds width digests
		for j := range levels {
			sib := (i >> (j + 1)) ^ 1
			base := uint64(off+sib) * dw
			for w := range uint64(dw) {
				idx = append(idx, base+w)
			}
			off += width
			width >>= 1
		}
	}
	words, err := gatherWords(nodes.Device(), s, nodes.Ptr(), nodes.Len()/4, idx)
	if err != nil {
		return nil, err
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*4)
	paths := make([][][]byte, len(indices))
	for k := range paths {
		p := make([][]byte, levels)
		for j := range p {
			o := (k*levels + j) * DigestSize
			p[j] = append([]byte(nil), raw[o:o+DigestSize]...)
		}
		paths[k] = p
	}
	return paths, nil
}
