package rowhash

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Openings read a few rows and digests of a commitment that stays on the
// device: the words they need are gathered by one kernel into a small
// buffer, which is the only thing copied to the host. A Gather batches the
// reads of several matrices and trees on one device into one such kernel
// and one copy: an opening of many layers pays one round trip, not one
// per layer.

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

// A Gather collects reads of device memory on one device — rows of
// column-major matrices (AddRows) and authentication paths of trees
// (AddPaths) — and performs them together when Run is called: one kernel
// gathers every word into one small buffer, and one copy brings it to the
// host. Each Add returns a handle whose Get gives its part once Run has
// returned. The buffers read must stay allocated until then. A Gather is
// used once and is not safe for concurrent use.
type Gather struct {
	d     *gpu.Device
	reads []read
	words []uint32 // after Run: every read's words, in the order added
	err   error    // Run's error
	ran   bool
}

// read is one buffer's words to gather.
type read struct {
	ptr   gpu.DevicePtr
	words int         // the buffer's length in words
	freed func() bool // the buffer's Freed
	idx   []uint64    // word indices in the buffer
	at    int         // the first of its words in Gather.words
}

// errNotRun is Get's error before Run.
var errNotRun = errors.New("rowhash: Get before the Gather ran")

// NewGather returns an empty Gather on d.
func NewGather(d *gpu.Device) *Gather { return &Gather{d: d} }

// add queues idx of the buffer at ptr (words long), after the checks its
// caller made.
func (g *Gather) add(ptr gpu.DevicePtr, words int, freed func() bool, idx []uint64) (int, error) {
	if g.ran {
		return 0, fmt.Errorf("rowhash: a Gather that already ran: %w", gpu.ErrClosed)
	}
	at := 0
	if n := len(g.reads); n > 0 {
		at = g.reads[n-1].at + len(g.reads[n-1].idx)
	}
	g.reads = append(g.reads, read{ptr: ptr, words: words, freed: freed, idx: idx, at: at})
	return at, nil
}

// Run gathers every read added, queued on s (nil: the default stream)
// after the work already there, and returns once the words are on the
// host. A buffer freed since its Add is an error wrapping gpu.ErrClosed.
// Running a Gather twice is an error.
func (g *Gather) Run(s *gpu.Stream) error {
	if g.ran {
		return fmt.Errorf("rowhash: Gather.Run twice: %w", gpu.ErrClosed)
	}
	g.ran = true
	g.err = g.run(s)
	return g.err
}

func (g *Gather) run(s *gpu.Stream) error {
	if len(g.reads) == 0 {
		return nil
	}
	// One source for the kernel: the lowest buffer's address, every index
	// made relative to it (device memory is one address space).
	base, end := g.reads[0].ptr, gpu.DevicePtr(0)
	n := 0
	for _, r := range g.reads {
		if r.freed() {
			return fmt.Errorf("rowhash: Gather.Run: a buffer was freed: %w", gpu.ErrClosed)
		}
		base = min(base, r.ptr)
		end = max(end, r.ptr+gpu.DevicePtr(4*r.words))
		n += len(r.idx)
	}
	idx := make([]uint64, 0, n)
	for _, r := range g.reads {
		off := uint64(r.ptr-base) / 4
		for _, i := range r.idx {
			idx = append(idx, off+i)
		}
	}
	words, err := gatherWords(g.d, s, base, int((end-base)/4), idx)
	if err != nil {
		return err
	}
	g.words = words
	return nil
}

// result returns the n words of a read at at, or why they are not there.
func (g *Gather) result(at, n int) ([]uint32, error) {
	if !g.ran {
		return nil, errNotRun
	}
	if g.err != nil {
		return nil, fmt.Errorf("rowhash: the Gather failed: %w", g.err)
	}
	return g.words[at : at+n], nil
}

// Rows is a read of rows queued by AddRows.
type Rows[E Element] struct {
	g         *Gather
	at, count int
	cols      int
}

// AddRows queues rows indices of m, a column-major matrix of rows rows on
// g's device (cols columns of rows elements end to end); Get on the result
// gives out[k], row indices[k], its elements in column order. An index
// outside 0..rows−1, or an m that is not a whole number of columns, is an
// error wrapping gpu.ErrLength; a buffer on another device or freed, one
// wrapping gpu.ErrClosed.
func AddRows[E Element](g *Gather, m *gpu.Buffer[E], rows int, indices []int) (*Rows[E], error) {
	if m == nil || rows <= 0 || m.Len() == 0 || m.Len()%rows != 0 {
		n := 0
		if m != nil {
			n = m.Len()
		}
		return nil, fmt.Errorf("rowhash: rows: a buffer of %d elements is not a whole number of columns of %d rows: %w", n, rows, gpu.ErrLength)
	}
	if m.Freed() {
		return nil, fmt.Errorf("rowhash: rows: the buffer was freed: %w", gpu.ErrClosed)
	}
	if m.Device() != g.d {
		return nil, fmt.Errorf("rowhash: rows: the buffer is on another device than the Gather: %w", gpu.ErrClosed)
	}
	cols := m.Len() / rows
	var z E
	ew := int(unsafe.Sizeof(z)) / 4
	idx := make([]uint64, 0, len(indices)*cols*ew)
	for _, i := range indices {
		if i < 0 || i >= rows {
			return nil, fmt.Errorf("rowhash: rows: row %d of %d: %w", i, rows, gpu.ErrLength)
		}
		for c := range cols {
			base := uint64(c*rows+i) * uint64(ew)
			for w := range ew {
				idx = append(idx, base+uint64(w))
			}
		}
	}
	at, err := g.add(m.Ptr(), m.Len()*ew, m.Freed, idx)
	if err != nil {
		return nil, err
	}
	return &Rows[E]{g: g, at: at, count: len(indices), cols: cols}, nil
}

// Get returns the rows, once the Gather has run.
func (r *Rows[E]) Get() ([][]E, error) {
	var z E
	ew := int(unsafe.Sizeof(z)) / 4
	words, err := r.g.result(r.at, r.count*r.cols*ew)
	if err != nil {
		return nil, err
	}
	out := make([][]E, r.count)
	for k := range out {
		row := make([]E, r.cols)
		copy(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(row))), r.cols*ew), words[k*r.cols*ew:])
		out[k] = row
	}
	return out, nil
}

// Paths is a read of authentication paths queued by AddPaths.
type Paths struct {
	g                 *Gather
	at, count, levels int
}

// AddPaths queues, from nodes, the tree that Hasher.Tree wrote for rows
// rows, the digests of the authentication path of each leaf in indices
// above its sibling leaf (leaves are not stored); Get on the result gives
// paths[k][j], the sibling of the ancestor of leaf indices[k] at height
// j+1, for j = 0 … log2(rows)−2, the root's children last. Errors as
// AddRows's.
func (g *Gather) AddPaths(nodes *gpu.Buffer[byte], rows int, indices []int) (*Paths, error) {
	if rows < 2 || rows&(rows-1) != 0 {
		return nil, fmt.Errorf("rowhash: paths: %d rows, want a power of two of at least 2: %w", rows, gpu.ErrLength)
	}
	if nodes == nil || nodes.Len() != (rows-1)*DigestSize {
		n := 0
		if nodes != nil {
			n = nodes.Len()
		}
		return nil, fmt.Errorf("rowhash: paths: a node buffer of %d bytes, want %d: %w", n, (rows-1)*DigestSize, gpu.ErrLength)
	}
	if nodes.Freed() {
		return nil, fmt.Errorf("rowhash: paths: the node buffer was freed: %w", gpu.ErrClosed)
	}
	if nodes.Device() != g.d {
		return nil, fmt.Errorf("rowhash: paths: the node buffer is on another device than the Gather: %w", gpu.ErrClosed)
	}
	levels := 0
	for r := rows; r > 2; r >>= 1 {
		levels++
	}
	const dw = DigestSize / 4
	idx := make([]uint64, 0, len(indices)*levels*dw)
	for _, i := range indices {
		if i < 0 || i >= rows {
			return nil, fmt.Errorf("rowhash: paths: leaf %d of %d: %w", i, rows, gpu.ErrLength)
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
	at, err := g.add(nodes.Ptr(), nodes.Len()/4, nodes.Freed, idx)
	if err != nil {
		return nil, err
	}
	return &Paths{g: g, at: at, count: len(indices), levels: levels}, nil
}

// Get returns the paths, once the Gather has run.
func (p *Paths) Get() ([][][]byte, error) {
	words, err := p.g.result(p.at, p.count*p.levels*DigestSize/4)
	if err != nil {
		return nil, err
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*4)
	paths := make([][][]byte, p.count)
	for k := range paths {
		q := make([][]byte, p.levels)
		for j := range q {
			o := (k*p.levels + j) * DigestSize
			q[j] = append([]byte(nil), raw[o:o+DigestSize]...)
		}
		paths[k] = q
	}
	return paths, nil
}

// GatherRows copies rows of a column-major matrix on the device to the
// host: m holds cols columns of rows elements end to end, and out[k] is
// row indices[k], its elements in column order. The work is queued on s
// (nil: the default stream), after the work already queued there, and
// GatherRows returns once the rows are on the host. An index outside
// 0..rows−1, or an m that is not a whole number of columns, is an error
// wrapping gpu.ErrLength. (A Gather reads several matrices at once.)
func GatherRows[E Element](s *gpu.Stream, m *gpu.Buffer[E], rows int, indices []int) ([][]E, error) {
	var d *gpu.Device
	if m != nil {
		d = m.Device()
	}
	g := NewGather(d)
	r, err := AddRows(g, m, rows, indices)
	if err != nil {
		return nil, err
	}
	if err := g.Run(s); err != nil {
		return nil, err
	}
	return r.Get()
}

// GatherPaths copies from nodes, the tree that Hasher.Tree wrote for rows
// rows, the digests of the authentication path of each leaf in indices
// above its sibling leaf (leaves are not stored): paths[k][j] is the
// sibling of the ancestor of leaf indices[k] at height j+1, for j = 0 …
// log2(rows)−2, the root's children last. As GatherRows for the stream and
// errors.
func GatherPaths(s *gpu.Stream, nodes *gpu.Buffer[byte], rows int, indices []int) ([][][]byte, error) {
	var d *gpu.Device
	if nodes != nil {
		d = nodes.Device()
	}
	g := NewGather(d)
	p, err := g.AddPaths(nodes, rows, indices)
	if err != nil {
		return nil, err
	}
	if err := g.Run(s); err != nil {
		return nil, err
	}
	return p.Get()
}

// OpeningRead is the read of a Merkle opening queued by AddOpening.
type OpeningRead[E Element] struct {
	indices []int
	rows    *Rows[E]
	up      *Paths // nil for a tree of two leaves
}

// AddOpening queues the reads of the Merkle opening of rows indices of m,
// a column-major matrix of rows rows on g's device whose tree Hasher.Tree
// wrote to nodes: the rows and their siblings, and the paths above the
// sibling leaves. Get assembles the opening. Errors as AddRows's and
// AddPaths's.
func AddOpening[E Element](g *Gather, m *gpu.Buffer[E], nodes *gpu.Buffer[byte], rows int, indices []int) (*OpeningRead[E], error) {
	both := make([]int, 0, 2*len(indices))
	both = append(both, indices...)
	for _, i := range indices {
		both = append(both, i^1)
	}
	o := &OpeningRead[E]{indices: indices}
	var err error
	if o.rows, err = AddRows(g, m, rows, both); err != nil {
		return nil, err
	}
	if rows > 2 {
		if o.up, err = g.AddPaths(nodes, rows, indices); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Get returns the opening, once the Gather has run: the opened rows, and
// each path the sibling's leaf digest (hashed here with hs, the tree's
// hash) followed by the gathered digests above it.
func (o *OpeningRead[E]) Get(hs merkle.Hasher) (*merkle.Opening[E], error) {
	both, err := o.rows.Get()
	if err != nil {
		return nil, err
	}
	var up [][][]byte
	if o.up != nil {
		if up, err = o.up.Get(); err != nil {
			return nil, err
		}
	}
	return OpeningOf(hs, o.indices, both, up)
}

// OpeningOf makes the Merkle opening of indices from both, the opened rows
// followed by their siblings (len(indices) each), and up[k], the digests
// of row indices[k]'s path above its sibling leaf (nil for a tree of two
// leaves): each path is the sibling's leaf digest, hashed here with hs,
// then up[k]. It is how the gathered reads of a tree kept on the device,
// or of several devices' columns and subtrees, become an opening.
func OpeningOf[E Element](hs merkle.Hasher, indices []int, both [][]E, up [][][]byte) (*merkle.Opening[E], error) {
	n := len(indices)
	if len(both) != 2*n || (up != nil && len(up) != n) {
		return nil, fmt.Errorf("rowhash: an opening of %d rows from %d rows and %d paths: %w", n, len(both), len(up), gpu.ErrLength)
	}
	leaves, err := merkle.LeafDigests(hs, both[n:])
	if err != nil {
		return nil, err
	}
	op := &merkle.Opening[E]{Indices: append([]int(nil), indices...), Rows: both[:n], Paths: make([][][]byte, n)}
	for k, leaf := range leaves {
		path := [][]byte{leaf}
		if up != nil {
			path = append(path, up[k]...)
		}
		op.Paths[k] = path
	}
	return op, nil
}
