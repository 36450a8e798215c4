package gpu

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Hashable is the set of element types whose rows a RowHasher hashes.
type Hashable interface {
	gf64.Element | goldilocks.Element | babybear.Element | koalabear.Element | fr.Element
}

// DigestSize is the size in bytes of a RowHasher digest (SHA-256).
const DigestSize = 32

// rhStateWords is the per-row streaming state of cuda/merkle.cu, in 32-bit
// words: chaining value, partial block, last word.
const rhStateWords = 24

// RowHasher builds a SHA-256 Merkle tree over the rows of a matrix whose
// columns reach the device a group at a time, so that a trace too large for
// the device is hashed while its columns pass through it:
//
//	leaf i = SHA-256(leafTag ‖ row i),  node = SHA-256(nodeTag ‖ left ‖ right),
//
// where row i is the concatenation, column by column, of each element's
// bytes: GF(2^64) elements as 8 bytes little-endian, gnark-crypto elements
// as their canonical big-endian encoding (Element.Bytes: the Montgomery form
// is reduced on the device). Leaves are not stored.
//
// Each row keeps 96 bytes of streaming state on the device between groups.
// Calls are queued on the stream given; Absorb calls on different streams
// must be ordered by the caller (events), since each row's message is a
// sequence. A RowHasher is not safe for concurrent use.
type RowHasher[E Hashable] struct {
	d                     *Device
	rows                  int
	leafTag, nodeTag      byte
	absorb, finish, level *Function
	st                    *Buffer[uint32]
	words                 uint64 // row words absorbed so far
	cols                  int
	elemWords, elemBytes  int
}

// NewRowHasher allocates the row states for rows rows (a power of two, at
// least 2) and loads the kernels (cuda/merkle.cu, compiled on first use).
func NewRowHasher[E Hashable](d *Device, rows int, leafTag, nodeTag byte) (*RowHasher[E], error) {
	if rows < 2 || rows&(rows-1) != 0 {
		return nil, fmt.Errorf("gpu: NewRowHasher: %d rows, want a power of two of at least 2: %w", rows, ErrLength)
	}
	if d == nil {
		return nil, fmt.Errorf("gpu: NewRowHasher on a nil device: %w", ErrNoDevice)
	}
	var z E
	name, words, bytes := "", 0, 0
	switch any(z).(type) {
	case gf64.Element:
		name, words, bytes = "gf64", 2, 8
	case goldilocks.Element:
		name, words, bytes = "goldilocks", 2, 8
	case babybear.Element:
		name, words, bytes = "babybear", 1, 4
	case koalabear.Element:
		name, words, bytes = "koalabear", 1, 4
	case fr.Element:
		name, words, bytes = "bn254", 8, 32
	}
	m, err := d.rowHasherModule(name)
	if err != nil {
		return nil, err
	}
	h := &RowHasher[E]{d: d, rows: rows, leafTag: leafTag, nodeTag: nodeTag, elemWords: words, elemBytes: bytes}
	if h.absorb, err = m.Function("rh_absorb_" + name); err != nil {
		return nil, err
	}
	if h.finish, err = m.Function("rh_finish"); err != nil {
		return nil, err
	}
	if h.level, err = m.Function("rh_level"); err != nil {
		return nil, err
	}
	if h.st, err = Alloc[uint32](d, rhStateWords*rows); err != nil {
		return nil, fmt.Errorf("gpu: NewRowHasher: row states for %d rows (%d bytes): %w", rows, 4*rhStateWords*rows, err)
	}
	return h, nil
}

// rowHasherModule returns cuda/merkle.cu compiled for one element type
// (RH_ONLY_<name>), loaded once per device.
func (d *Device) rowHasherModule(name string) (*Module, error) {
	prog, src, err := rowHasherSource(name)
	if err != nil {
		return nil, err
	}
	return d.loadModule(prog, src, true)
}

// rowHasherTypes are the RowHasher modules' element type names.
var rowHasherTypes = []string{"gf64", "goldilocks", "babybear", "koalabear", "bn254"}

// rowHasherSource returns the program name and source of the RowHasher
// module for one element type.
func rowHasherSource(name string) (prog, src string, err error) {
	b, err := cuda.Sources.ReadFile("merkle.cu")
	if err != nil {
		return "", "", err
	}
	return "merkle_" + name + ".cu", "#define RH_ONLY 1\n#define RH_ONLY_" + name + " 1\n" + string(b), nil
}

// RowHasherBytes returns the device memory a RowHasher of rows rows holds.
func RowHasherBytes(rows int) int { return 4 * rhStateWords * rows }

// Rows returns the number of rows.
func (h *RowHasher[E]) Rows() int { return h.rows }

// Columns returns the number of columns absorbed since the last Reset.
func (h *RowHasher[E]) Columns() int { return h.cols }

// Reset starts new rows: the next Absorb begins every row's message again.
func (h *RowHasher[E]) Reset() { h.words, h.cols = 0, 0 }

func (h *RowHasher[E]) grid() Dim3 {
	g := (h.rows + 127) / 128
	if lim := 16 * h.d.info.Multiprocessors; lim > 0 && g > lim {
		g = lim
	}
	return Dim3{X: max(g, 1)}
}

// Absorb appends the columns held end to end in cols (a whole number of
// columns of Rows() elements each) to the rows, on stream s.
func (h *RowHasher[E]) Absorb(s *Stream, cols *Buffer[E]) error {
	if h.st == nil {
		return fmt.Errorf("gpu: RowHasher.Absorb after Close: %w", ErrClosed)
	}
	if cols == nil || cols.Len() == 0 || cols.Len()%h.rows != 0 {
		n := 0
		if cols != nil {
			n = cols.Len()
		}
		return fmt.Errorf("gpu: RowHasher.Absorb: a buffer of %d elements is not a whole number of columns of %d rows: %w", n, h.rows, ErrLength)
	}
	if cols.Device() != h.d {
		return fmt.Errorf("gpu: RowHasher.Absorb: the columns are on another device: %w", ErrLength)
	}
	p, err := cols.devicePtr()
	if err != nil {
		return err
	}
	sp, err := h.st.devicePtr()
	if err != nil {
		return err
	}
	nc := cols.Len() / h.rows
	if nc > 1<<31 {
		return fmt.Errorf("gpu: RowHasher.Absorb: %d columns in one call, at most 2^31: %w", nc, ErrLength)
	}
	err = h.absorb.Launch(LaunchConfig{Grid: h.grid(), Block: Dim3{X: 128}, Stream: s},
		DevicePtr(sp), uint64(h.rows), DevicePtr(p), uint64(h.rows*h.elemBytes), uint32(nc), h.words, uint32(h.leafTag))
	if err != nil {
		return fmt.Errorf("gpu: RowHasher.Absorb: %w", err)
	}
	h.words += uint64(nc * h.elemWords)
	h.cols += nc
	return nil
}

// Tree finishes the leaves and writes the tree above them to nodes, on
// stream s: level 1 (Rows()/2 digests), then level 2, and so on up to the
// root, the last DigestSize bytes; Rows() − 1 digests in all. At least one
// column must have been absorbed. The states stay as they are: Tree may be
// called again, and Reset starts over.
func (h *RowHasher[E]) Tree(s *Stream, nodes *Buffer[byte]) error {
	if h.st == nil {
		return fmt.Errorf("gpu: RowHasher.Tree after Close: %w", ErrClosed)
	}
	if h.cols == 0 {
		return fmt.Errorf("gpu: RowHasher.Tree with no column absorbed: %w", ErrLength)
	}
	want := (h.rows - 1) * DigestSize
	if nodes == nil || nodes.Len() != want {
		n := 0
		if nodes != nil {
			n = nodes.Len()
		}
		return fmt.Errorf("gpu: RowHasher.Tree: a node buffer of %d bytes, want %d: %w", n, want, ErrLength)
	}
	if nodes.Device() != h.d {
		return fmt.Errorf("gpu: RowHasher.Tree: the node buffer is on another device: %w", ErrLength)
	}
	sp, err := h.st.devicePtr()
	if err != nil {
		return err
	}
	np, err := nodes.devicePtr()
	if err != nil {
		return err
	}
	cfg := LaunchConfig{Grid: h.grid(), Block: Dim3{X: 128}, Stream: s}
	if err := h.finish.Launch(cfg, DevicePtr(sp), uint64(h.rows), h.words, uint32(h.nodeTag), DevicePtr(np)); err != nil {
		return fmt.Errorf("gpu: RowHasher.Tree: %w", err)
	}
	in := np
	for n := h.rows / 2; n > 1; n /= 2 {
		out := in + uint64(n*DigestSize)
		g := min((n/2+127)/128, 16*max(h.d.info.Multiprocessors, 1))
		lc := LaunchConfig{Grid: Dim3{X: max(g, 1)}, Block: Dim3{X: 128}, Stream: s}
		if err := h.level.Launch(lc, DevicePtr(in), uint64(n/2), uint32(h.nodeTag), DevicePtr(out)); err != nil {
			return fmt.Errorf("gpu: RowHasher.Tree: %w", err)
		}
		in = out
	}
	return nil
}

// Close frees the row states.
func (h *RowHasher[E]) Close() error {
	if h.st == nil {
		return nil
	}
	err := h.st.Free()
	h.st = nil
	return err
}
