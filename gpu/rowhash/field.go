package rowhash

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/gpu"
	gp2 "github.com/gfpoly/gfpoly/gpu/poseidon2"
)

// Field trees: the leaves the sponge of a TreeSpec over the rows' elements,
// the nodes its compression (package prover/merkle's "Field trees"), on
// cuda/poseidon2.cu's kernels. The row states are the sponges' states,
// Leaf.Width elements a row, structure of arrays; h.words counts the
// elements absorbed into every row.

// fieldTree is what a field Hasher holds beside Hasher's own fields.
type fieldTree struct {
	spec                  gp2.TreeSpec
	absorb, finish, level *gpu.Function
}

func (f *fieldTree) same(g *fieldTree) bool {
	a, b := f.spec, g.spec
	return a.Rate == b.Rate && a.Out == b.Out && a.FeedForward == b.FeedForward &&
		string(a.Leaf.KernelParams()) == string(b.Leaf.KernelParams()) &&
		string(a.Node.KernelParams()) == string(b.Node.KernelParams())
}

// fieldOf returns the poseidon2 field of E; 0 for GF(2^64) and BN254.
func fieldOf[E Element]() gp2.Field {
	var z E
	switch any(z).(type) {
	case babybear.Element:
		return gp2.BabyBear
	case koalabear.Element:
		return gp2.KoalaBear
	case goldilocks.Element:
		return gp2.Goldilocks
	}
	return 0
}

// NewField is New for a field tree: leaf i is ts's sponge over row i's
// elements, a node ts's compression of its children, as package
// prover/merkle's field trees (merkle.Poseidon2, merkle.FieldHasher) hash
// them, digest for digest; the node buffer Tree writes holds each digest as
// merkle does (its Out elements canonical and big-endian), in the same
// order as a SHA-256 tree. E must be ts's field (BabyBear, KoalaBear or
// Goldilocks) and the digests 32 bytes (every Poseidon2 preset's standard
// shape); anything else is an error wrapping gpu.ErrLength.
func NewField[E Element](d *gpu.Device, rows int, ts gp2.TreeSpec) (*Hasher[E], error) {
	if rows < 2 || rows&(rows-1) != 0 {
		return nil, fmt.Errorf("rowhash: %d rows, want a power of two of at least 2: %w", rows, gpu.ErrLength)
	}
	if d == nil {
		return nil, fmt.Errorf("rowhash: nil device: %w", gpu.ErrNoDevice)
	}
	f := fieldOf[E]()
	if f == 0 || ts.Leaf.Field != f || ts.Node.Field != f {
		return nil, fmt.Errorf("rowhash: a field tree over %v for elements of another field: %w", ts.Leaf.Field, gpu.ErrLength)
	}
	if ts.DigestBytes() != DigestSize {
		return nil, fmt.Errorf("rowhash: field digests of %d bytes, want %d: %w", ts.DigestBytes(), DigestSize, gpu.ErrLength)
	}
	if ts.Rate < 1 || ts.Rate >= ts.Leaf.Width || ts.Out < 1 || ts.Out > ts.Rate || 2*ts.Out > ts.Node.Width ||
		(ts.FeedForward && 2*ts.Out != ts.Node.Width) {
		return nil, fmt.Errorf("rowhash: a sponge of rate %d and output %d on width %d, nodes on width %d: %w",
			ts.Rate, ts.Out, ts.Leaf.Width, ts.Node.Width, gpu.ErrLength)
	}
	m, err := gp2.Module(d, f)
	if err != nil {
		return nil, err
	}
	ft := &fieldTree{spec: ts}
	if ft.absorb, err = m.Function(fmt.Sprintf("p2_absorb_w%d", ts.Leaf.Width)); err != nil {
		return nil, err
	}
	if ft.finish, err = m.Function(fmt.Sprintf("p2_finish_w%d_n%d", ts.Leaf.Width, ts.Node.Width)); err != nil {
		return nil, err
	}
	if ft.level, err = m.Function(fmt.Sprintf("p2_level_n%d", ts.Node.Width)); err != nil {
		return nil, err
	}
	_, words, bytes := elemType[E]()
	h := &Hasher[E]{d: d, rows: rows, elemWords: words, elemBytes: bytes, fld: ft}
	if h.st, err = gpu.Alloc[uint32](d, ts.Leaf.Width*words*rows); err != nil {
		return nil, fmt.Errorf("rowhash: row states for %d rows (%d bytes): %w", rows, FieldStateBytes(ts, rows), err)
	}
	return h, nil
}

// FieldStateBytes returns the device memory the row states of a field
// Hasher of rows rows take: a sponge state a row.
func FieldStateBytes(ts gp2.TreeSpec, rows int) int {
	return ts.Leaf.Width * ts.DigestBytes() / ts.Out * rows
}

// fieldAbsorb queues the absorb of ncols columns at cols, column j at
// cols + j·stride elements.
func (h *Hasher[E]) fieldAbsorb(s *gpu.Stream, cols gpu.DevicePtr, ncols, stride int) error {
	ts := h.fld.spec
	fresh := uint32(0)
	if h.words == 0 {
		fresh = 1
	}
	err := h.fld.absorb.Launch(gpu.LaunchConfig{Grid: gp2.Grid(h.d, h.rows), Block: gpu.Dim3{X: block}, Stream: s},
		h.st, uint64(h.rows), cols, uint64(stride), uint32(ncols), uint32(h.words%uint64(ts.Rate)), uint32(ts.Rate),
		fresh, ts.Leaf.KernelParams())
	if err != nil {
		return err
	}
	h.words += uint64(ncols)
	return nil
}

// fieldContinue is ContinueFrom for field trees: the whole sponge states
// move.
func (h *Hasher[E]) fieldContinue(s *gpu.Stream, prev *Hasher[E]) error {
	if prev.rows != h.rows {
		return fmt.Errorf("rowhash: ContinueFrom a hasher of %d rows into one of %d: %w", prev.rows, h.rows, gpu.ErrLength)
	}
	if prev != h && prev.words > 0 {
		if err := h.st.CopyFrom(s, prev.st); err != nil {
			return fmt.Errorf("rowhash: ContinueFrom: %w", err)
		}
	}
	h.words, h.cols = prev.words, prev.cols
	return nil
}

// fieldTree queues the leaves' last permutations, level 1 and every level
// above it.
func (h *Hasher[E]) fieldTree(s *gpu.Stream, nodes *gpu.Buffer[byte]) error {
	ts := h.fld.spec
	pending := uint32(0)
	if h.words%uint64(ts.Rate) != 0 {
		pending = 1
	}
	ff := uint32(0)
	if ts.FeedForward {
		ff = 1
	}
	bl := gpu.Dim3{X: block}
	np := ts.Node.KernelParams()
	return h.d.Do(s, func(q *gpu.Queue) error {
		out := nodes.Ptr()
		if err := q.Launch(h.fld.finish, gp2.Grid(h.d, h.rows/2), bl, 0, h.st.Ptr(), uint64(h.rows), pending,
			uint32(ts.Out), ff, ts.Leaf.KernelParams(), np, out); err != nil {
			return err
		}
		in := out
		for n := h.rows / 2; n > 1; n /= 2 {
			out = in + gpu.DevicePtr(n*DigestSize)
			if err := q.Launch(h.fld.level, gp2.Grid(h.d, n/2), bl, 0, in, uint64(n/2), uint32(ts.Out), ff, np, out); err != nil {
				return err
			}
			in = out
		}
		return nil
	})
}
