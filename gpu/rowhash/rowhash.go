package rowhash

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// Element is the set of element types whose rows a Hasher hashes.
type Element interface {
	gf64.Element | goldilocks.Element | babybear.Element | koalabear.Element | fr.Element
}

// DigestSize is the size in bytes of a digest (SHA-256).
const DigestSize = 32

// stateWords is the per-row streaming state of cuda/merkle.cu, in 32-bit
// words: chaining value, partial block, last word.
const stateWords = 24

// block is the kernels' block size.
const block = 128

// Hasher builds the Merkle tree over the rows of a matrix whose columns
// reach the device a group at a time (see the package documentation).
type Hasher[E Element] struct {
	d                     *gpu.Device
	rows                  int
	leafTag, nodeTag      byte
	absorb, finish, level *gpu.Function
	st                    *gpu.Buffer[uint32]
	words                 uint64 // row words absorbed so far
	cols                  int
	elemWords, elemBytes  int

	fld *fieldTree // a field tree (NewField); nil for SHA-256
}

// New allocates the row states for rows rows (a power of two, at least 2)
// on d and loads the kernels of E (compiled on first use where the binary
// has no prebuilt image). Bad row counts return an error wrapping
// gpu.ErrLength, a nil device gpu.ErrNoDevice.
func New[E Element](d *gpu.Device, rows int, leafTag, nodeTag byte) (*Hasher[E], error) {
	if rows < 2 || rows&(rows-1) != 0 {
		return nil, fmt.Errorf("rowhash: %d rows, want a power of two of at least 2: %w", rows, gpu.ErrLength)
	}
	if d == nil {
		return nil, fmt.Errorf("rowhash: nil device: %w", gpu.ErrNoDevice)
	}
	name, words, bytes := elemType[E]()
	m, err := d.Module(cuda.MerkleProgram(name))
	if err != nil {
		return nil, err
	}
	h := &Hasher[E]{d: d, rows: rows, leafTag: leafTag, nodeTag: nodeTag, elemWords: words, elemBytes: bytes}
	if h.absorb, err = m.Function("rh_absorb_" + name); err != nil {
		return nil, err
	}
	if h.finish, err = m.Function("rh_finish"); err != nil {
		return nil, err
	}
	if h.level, err = m.Function("rh_level"); err != nil {
		return nil, err
	}
	if h.st, err = gpu.Alloc[uint32](d, stateWords*rows); err != nil {
		return nil, fmt.Errorf("rowhash: row states for %d rows (%d bytes): %w", rows, StateBytes(rows), err)
	}
	return h, nil
}

// elemType returns the kernels' name of E, its size in 32-bit words and its
// encoding's size in bytes.
func elemType[E Element]() (name string, words, bytes int) {
	var z E
	switch any(z).(type) {
	case gf64.Element:
		return "gf64", 2, 8
	case goldilocks.Element:
		return "goldilocks", 2, 8
	case babybear.Element:
		return "babybear", 1, 4
	case koalabear.Element:
		return "koalabear", 1, 4
	}
	return "bn254", 8, 32 // fr.Element
}

// StateBytes returns the device memory the row states of a Hasher of rows
// rows take (96 bytes a row).
func StateBytes(rows int) int { return 4 * stateWords * rows }

// Rows returns the number of rows.
func (h *Hasher[E]) Rows() int { return h.rows }

// Columns returns the number of columns absorbed since the last Reset.
func (h *Hasher[E]) Columns() int { return h.cols }

// Reset starts new rows: the next Absorb begins every row's message again.
func (h *Hasher[E]) Reset() { h.words, h.cols = 0, 0 }

// Field reports whether h builds a field tree (NewField).
func (h *Hasher[E]) Field() bool { return h.fld != nil }

// grid is the launch grid over the rows: grid-stride loops, at most 16
// blocks per multiprocessor.
func (h *Hasher[E]) grid(n int) gpu.Dim3 {
	g := (n + block - 1) / block
	if lim := 16 * h.d.Info().Multiprocessors; lim > 0 && g > lim {
		g = lim
	}
	return gpu.Dim3{X: max(g, 1)}
}

// Absorb appends the columns held end to end in cols (a whole number of
// columns of Rows() elements each) to the rows, on stream s.
func (h *Hasher[E]) Absorb(s *gpu.Stream, cols *gpu.Buffer[E]) error {
	if h.st == nil {
		return fmt.Errorf("rowhash: Absorb after Close: %w", gpu.ErrClosed)
	}
	if cols == nil || cols.Len() == 0 || cols.Len()%h.rows != 0 {
		n := 0
		if cols != nil {
			n = cols.Len()
		}
		return fmt.Errorf("rowhash: Absorb: a buffer of %d elements is not a whole number of columns of %d rows: %w", n, h.rows, gpu.ErrLength)
	}
	if cols.Device() != h.d {
		return fmt.Errorf("rowhash: Absorb: the columns are on another device: %w", gpu.ErrLength)
	}
	if cols.Freed() {
		return fmt.Errorf("rowhash: Absorb: the columns were freed: %w", gpu.ErrClosed)
	}
	nc := cols.Len() / h.rows
	if nc > 1<<31 {
		return fmt.Errorf("rowhash: Absorb: %d columns in one call, at most 2^31: %w", nc, gpu.ErrLength)
	}
	if h.fld != nil {
		if err := h.fieldAbsorb(s, cols.Ptr(), nc, h.rows); err != nil {
			return fmt.Errorf("rowhash: Absorb: %w", err)
		}
		h.cols += nc
		return nil
	}
	err := h.absorb.Launch(gpu.LaunchConfig{Grid: h.grid(h.rows), Block: gpu.Dim3{X: block}, Stream: s},
		h.st, uint64(h.rows), cols, uint64(h.rows*h.elemBytes), uint32(nc), h.words, uint32(h.leafTag))
	if err != nil {
		return fmt.Errorf("rowhash: Absorb: %w", err)
	}
	h.words += uint64(nc * h.elemWords)
	h.cols += nc
	return nil
}

// AbsorbStrided is Absorb for rows that are a range of a taller matrix: it
// appends ncols columns, column j being the Rows() elements at cols[j·stride
// …], so that a Hasher of Rows() rows hashes rows r … r+Rows()−1 of a
// column-major matrix of stride rows per column given the view of that
// matrix from element r on. stride is at least Rows(), and cols holds at
// least (ncols−1)·stride + Rows() elements.
func (h *Hasher[E]) AbsorbStrided(s *gpu.Stream, cols *gpu.Buffer[E], ncols, stride int) error {
	if h.st == nil {
		return fmt.Errorf("rowhash: AbsorbStrided after Close: %w", gpu.ErrClosed)
	}
	if cols == nil || ncols <= 0 || ncols > 1<<31 || stride < h.rows || cols.Len() < (ncols-1)*stride+h.rows {
		n := 0
		if cols != nil {
			n = cols.Len()
		}
		return fmt.Errorf("rowhash: AbsorbStrided: %d columns of stride %d for %d rows in a buffer of %d elements: %w", ncols, stride, h.rows, n, gpu.ErrLength)
	}
	if cols.Device() != h.d {
		return fmt.Errorf("rowhash: AbsorbStrided: the columns are on another device: %w", gpu.ErrLength)
	}
	if cols.Freed() {
		return fmt.Errorf("rowhash: AbsorbStrided: the columns were freed: %w", gpu.ErrClosed)
	}
	if h.fld != nil {
		if err := h.fieldAbsorb(s, cols.Ptr(), ncols, stride); err != nil {
			return fmt.Errorf("rowhash: AbsorbStrided: %w", err)
		}
		h.cols += ncols
		return nil
	}
	err := h.absorb.Launch(gpu.LaunchConfig{Grid: h.grid(h.rows), Block: gpu.Dim3{X: block}, Stream: s},
		h.st, uint64(h.rows), cols, uint64(stride*h.elemBytes), uint32(ncols), h.words, uint32(h.leafTag))
	if err != nil {
		return fmt.Errorf("rowhash: AbsorbStrided: %w", err)
	}
	h.words += uint64(ncols * h.elemWords)
	h.cols += ncols
	return nil
}

// ContinueFrom makes h's rows the rows of prev, a Hasher of as many rows and
// the same element type and tags on this or another device: prev's row
// states are copied into h's on stream s (a stream of h's device; between
// GPUs, the driver's peer copy), and h counts the columns prev absorbed, so
// that h's next Absorb appends to the rows' messages where prev left them.
// The copy must come after prev's absorbs: where they were queued on
// another stream, s must wait for them (Stream.Wait on an event recorded
// after them). prev is not modified.
func (h *Hasher[E]) ContinueFrom(s *gpu.Stream, prev *Hasher[E]) error {
	if h.st == nil || prev == nil || prev.st == nil {
		return fmt.Errorf("rowhash: ContinueFrom a closed or nil hasher: %w", gpu.ErrClosed)
	}
	if (prev.fld == nil) != (h.fld == nil) || (h.fld != nil && !h.fld.same(prev.fld)) {
		return fmt.Errorf("rowhash: ContinueFrom a hasher of another hash: %w", gpu.ErrLength)
	}
	if h.fld != nil {
		return h.fieldContinue(s, prev)
	}
	if prev.rows != h.rows || prev.leafTag != h.leafTag || prev.nodeTag != h.nodeTag {
		return fmt.Errorf("rowhash: ContinueFrom a hasher of %d rows (tags %d, %d) into one of %d rows (tags %d, %d): %w",
			prev.rows, prev.leafTag, prev.nodeTag, h.rows, h.leafTag, h.nodeTag, gpu.ErrLength)
	}
	if prev != h && prev.words > 0 {
		// Only the live words move: the chaining value, the partial
		// block's words (none where prev stopped on a block boundary) and
		// the last row word: 36 bytes a row instead of 96 at a boundary.
		for _, w := range liveWords(prev.words) {
			dst, err := h.st.View(w[0]*h.rows, (w[1]-w[0])*h.rows)
			if err != nil {
				return err
			}
			src, err := prev.st.View(w[0]*h.rows, (w[1]-w[0])*h.rows)
			if err != nil {
				return err
			}
			if err := dst.CopyFrom(s, src); err != nil {
				return fmt.Errorf("rowhash: ContinueFrom: %w", err)
			}
		}
	}
	h.words, h.cols = prev.words, prev.cols
	return nil
}

// liveWords returns the ranges [from, to) of state words (cuda/merkle.cu's
// layout) that hold something after J > 0 row words: the chaining value,
// the J mod 16 words of the partial block, the last row word.
func liveWords(J uint64) [][2]int {
	np := int(J % 16)
	if np == stateWords-1-8 {
		return [][2]int{{0, stateWords}}
	}
	return [][2]int{{0, 8 + np}, {stateWords - 1, stateWords}}
}

// Tree finishes the leaves and writes the tree above them to nodes, on
// stream s: level 1 (Rows()/2 digests), then level 2, and so on up to the
// root, the last DigestSize bytes; Rows() − 1 digests in all. At least one
// column must have been absorbed. The states stay as they are: Tree may be
// called again, and Reset starts over.
func (h *Hasher[E]) Tree(s *gpu.Stream, nodes *gpu.Buffer[byte]) error {
	if h.st == nil {
		return fmt.Errorf("rowhash: Tree after Close: %w", gpu.ErrClosed)
	}
	if h.cols == 0 {
		return fmt.Errorf("rowhash: Tree with no column absorbed: %w", gpu.ErrLength)
	}
	want := (h.rows - 1) * DigestSize
	if nodes == nil || nodes.Len() != want {
		n := 0
		if nodes != nil {
			n = nodes.Len()
		}
		return fmt.Errorf("rowhash: Tree: a node buffer of %d bytes, want %d: %w", n, want, gpu.ErrLength)
	}
	if nodes.Device() != h.d {
		return fmt.Errorf("rowhash: Tree: the node buffer is on another device: %w", gpu.ErrLength)
	}
	if nodes.Freed() {
		return fmt.Errorf("rowhash: Tree: the node buffer was freed: %w", gpu.ErrClosed)
	}
	if h.fld != nil {
		if err := h.fieldTree(s, nodes); err != nil {
			return fmt.Errorf("rowhash: Tree: %w", err)
		}
		return nil
	}
	bl := gpu.Dim3{X: block}
	err := h.d.Do(s, func(q *gpu.Queue) error {
		np := nodes.Ptr()
		if err := q.Launch(h.finish, h.grid(h.rows), bl, 0, h.st.Ptr(), uint64(h.rows), h.words, uint32(h.nodeTag), np); err != nil {
			return err
		}
		in := np
		for n := h.rows / 2; n > 1; n /= 2 {
			out := in + gpu.DevicePtr(n*DigestSize)
			if err := q.Launch(h.level, h.grid(n/2), bl, 0, in, uint64(n/2), uint32(h.nodeTag), out); err != nil {
				return err
			}
			in = out
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rowhash: Tree: %w", err)
	}
	return nil
}

// Close frees the row states. Closing twice is harmless.
func (h *Hasher[E]) Close() error {
	if h.st == nil {
		return nil
	}
	err := h.st.Free()
	h.st = nil
	return err
}
