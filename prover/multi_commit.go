package prover

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Commitments kept on several devices (WithGPUs): see multi.go for the
// design. The LDE stays where it was computed, each device holding its
// columns; the rows' hash states go from device to device, one block of
// rows after another; block b's subtree is built and kept on device
// b mod d (treeDevice), the levels above the blocks on the host.

// multiHash is one device's hashing state: a Hasher per row block, an
// event recorded after each block's absorb (the next device waits for it)
// and one after each block's states came in (cev), the stream the device
// absorbs on, the one the states come in on (so that block b+1's come
// while block b is absorbed) and the one it builds its subtrees on (a
// subtree waits for the last device's absorb of its block, which must not
// hold up this device's absorbs of the blocks after it).
type multiHash[E Element] struct {
	dev       *gpu.Device
	s, cs, ts *gpu.Stream
	h         []*rowhash.Hasher[E]
	ev, cev   []*gpu.Event
}

func newMultiHash[E Element](dev *gpu.Device, blocks, rows int, cfg *config) (_ *multiHash[E], err error) {
	mh := &multiHash[E]{dev: dev}
	defer func() {
		if err != nil {
			mh.close()
		}
	}()
	if mh.s, err = dev.NewStream(); err != nil {
		return nil, err
	}
	if mh.cs, err = dev.NewStream(); err != nil {
		return nil, err
	}
	if mh.ts, err = dev.NewStream(); err != nil {
		return nil, err
	}
	for range blocks {
		h, err := newRowHasher[E](dev, rows, cfg)
		if err != nil {
			return nil, err
		}
		mh.h = append(mh.h, h)
		for _, evs := range []*[]*gpu.Event{&mh.ev, &mh.cev} {
			ev, err := dev.NewEvent()
			if err != nil {
				return nil, err
			}
			*evs = append(*evs, ev)
		}
	}
	return mh, nil
}

func (mh *multiHash[E]) close() error {
	var errs []error
	for _, s := range []*gpu.Stream{mh.s, mh.cs, mh.ts} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	for _, h := range mh.h {
		errs = append(errs, h.Close())
	}
	for _, ev := range append(mh.ev, mh.cev...) {
		errs = append(errs, ev.Close())
	}
	*mh = multiHash[E]{}
	return errors.Join(errs...)
}

// hashersFor returns the hashing states of d devices for blocks blocks of
// rows rows: the kept ones when they have that shape, else new ones; m.mu
// is held.
func (m *multiGPU[E]) hashersFor(d, blocks, rows int) ([]*multiHash[E], error) {
	fits := len(m.hashes) >= d
	for i := 0; fits && i < d; i++ {
		mh := m.hashes[i]
		fits = mh.dev == m.cfg.gpus[i] && len(mh.h) == blocks && mh.h[0].Rows() == rows
	}
	if fits {
		return m.hashes[:d], nil
	}
	var errs []error
	for _, mh := range m.hashes {
		errs = append(errs, mh.close())
	}
	m.hashes = nil
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i := range d {
		mh, err := newMultiHash[E](m.cfg.gpus[i], blocks, rows, &m.cfg)
		if err != nil {
			return nil, fmt.Errorf("device %d: %w", i, err)
		}
		m.hashes = append(m.hashes, mh)
	}
	return m.hashes, nil
}

// multiStore is a commitment's LDE and tree on several devices.
type multiStore[E Element] struct {
	mu     sync.Mutex     // one gather at a time; guards st
	st     []*devStore[E] // device i's columns (lde) and the subtrees of its blocks (nodes; treeDevice)
	first  []int          // device i holds columns first[i] … first[i+1]−1
	rows   int
	blocks int         // row blocks, each with its subtree of rows/blocks leaves
	top    *merkle.Top // the levels from the blocks' roots up to the root
}

var _ deviceLDE[gf64.Element] = (*multiStore[gf64.Element])(nil)

func (ms *multiStore[E]) free() error {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	var errs []error
	for _, st := range ms.st {
		errs = append(errs, st.free())
	}
	ms.st = nil
	return errors.Join(errs...)
}

// closed reports whether the store was freed; ms.mu is held.
func (ms *multiStore[E]) closed() bool { return ms.st == nil }

// commitResident makes a commitment kept on the devices, or returns why it
// cannot (budget, memory) for Commit to fall back to a host LDE.
func (m *multiGPU[E]) commitResident(src Source[E], logRows, cols int, t0 time.Time) (*Commitment[E], string, error) {
	n := m.cfg.blowup << logRows
	first := splitColumns(cols, len(m.cores))
	d := len(first) - 1
	blocks := hashBlocks(n, d)
	per := n / blocks
	ms := &multiStore[E]{first: first, rows: n, blocks: blocks}
	kept := false
	defer func() {
		if !kept {
			ms.free()
		}
	}()
	oom := func(what string, err error) (*Commitment[E], string, error) {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return nil, fmt.Sprintf("the device is out of memory for %s (%v)", what, err), nil
		}
		return nil, "", fmt.Errorf("prover: %v multi-GPU commitment, %s: %w", FieldOf[E](), what, err)
	}
	for i := range d {
		r := m.cores[i].res
		nc := first[i+1] - first[i]
		need := int64(nc) * int64(n) * int64(elemSize[E]())
		trees := ms.trees(i)
		need += int64(trees*(per-1)) * rowhash.DigestSize
		if !r.reserve(need) {
			return nil, fmt.Sprintf("device %d's columns of the LDE and tree (%s) do not fit its device budget (%s, %s in use)",
				i, mib(need), mib(r.budget), mib(r.used.Load())), nil
		}
		st := &devStore[E]{r: r, bytes: need, rows: n}
		ms.st = append(ms.st, st)
		var err error
		if st.lde, err = takeSpare(r, &r.spareLDE, nc*n); err != nil {
			return oom(fmt.Sprintf("device %d's columns of the LDE", i), err)
		}
		if trees > 0 {
			if st.nodes, err = takeSpare(r, &r.spareNodes, trees*(per-1)*rowhash.DigestSize); err != nil {
				return oom(fmt.Sprintf("device %d's subtrees", i), err)
			}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	hs, err := m.hashersFor(d, blocks, per)
	if err != nil {
		return oom("the rows' hash states", err)
	}
	// Every device computes the LDE of its columns at once.
	var srcMu sync.Mutex
	m.report("encode", 0, cols)
	err = eachDevice(d, func(i int) error {
		lo, hi := first[i], first[i+1]
		if err := m.cores[i].fillResident(ms.st[i], nil, window(src, logRows, lo, hi, &srcMu), logRows, hi-lo); err != nil {
			return fmt.Errorf("device %d (columns %d..%d): %w", i, lo, hi-1, err)
		}
		m.report("encode", hi, cols)
		return nil
	})
	if err != nil {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return oom("the LDE's working memory", err)
		}
		return nil, "", fmt.Errorf("prover: %w", err)
	}
	t1 := time.Now()
	if err := ms.hash(hs); err != nil {
		return oom("the Merkle tree", err)
	}
	root, err := ms.joinTop(m.cfg.hs)
	if err != nil {
		return nil, "", err
	}
	m.report("commit", n, n)
	kept = true
	return &Commitment[E]{
		dev:     ms,
		rows:    n,
		cols:    cols,
		root:    root,
		hs:      m.cfg.hs,
		Timings: Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)},
		code:    codeOf(&m.cfg),
	}, "", nil
}

// hash runs the hashing chain over the LDE on the devices: for each block
// of rows, device 0 absorbs its columns into the block's states, device i
// copies the states from device i−1 once that device's absorb of the block
// is done (its event), on a stream of their own, and absorbs its own
// columns. Each device queues its blocks in order on its streams, so that
// different devices work on different blocks at once, and a device copies
// one block's states while it absorbs the block before. Block b's subtree
// is built on device treeDevice(b), on its tree stream, from the states
// the last device leaves (copied there, the live words only), so that the
// subtrees, which cost more than the last device's absorbs, are shared by
// all the devices. It returns when the subtrees are built.
func (ms *multiStore[E]) hash(hs []*multiHash[E]) error {
	n, per, d := ms.rows, ms.rows/ms.blocks, len(ms.st)
	for b := range ms.blocks {
		for i, mh := range hs {
			h := mh.h[b]
			if i == 0 {
				h.Reset()
			} else {
				// The states come in on the copy stream, block b's while
				// block b−1 is absorbed; block b's copy follows block
				// b−1's, so its absorb waits for it alone.
				if err := mh.cs.Wait(hs[i-1].ev[b]); err != nil {
					return err
				}
				if err := h.ContinueFrom(mh.cs, hs[i-1].h[b]); err != nil {
					return err
				}
				if err := mh.cev[b].Record(mh.cs); err != nil {
					return err
				}
				if err := mh.s.Wait(mh.cev[b]); err != nil {
					return err
				}
			}
			nc := ms.first[i+1] - ms.first[i]
			v, err := ms.st[i].lde.View(b*per, (nc-1)*n+per)
			if err != nil {
				return err
			}
			if err := h.AbsorbStrided(mh.s, v, nc, n); err != nil {
				return err
			}
			if err := mh.ev[b].Record(mh.s); err != nil {
				return err
			}
		}
	}
	last := hs[d-1]
	for b := range ms.blocks {
		th := hs[ms.treeDevice(b)]
		h := th.h[b]
		if err := th.ts.Wait(last.ev[b]); err != nil {
			return err
		}
		if h != last.h[b] {
			// The device's own states of block b are done with: its absorb
			// came before the last device's (the chain).
			if err := h.ContinueFrom(th.ts, last.h[b]); err != nil {
				return err
			}
		}
		v, err := ms.subtree(b)
		if err != nil {
			return err
		}
		if err := h.Tree(th.ts, v); err != nil {
			return err
		}
	}
	var errs []error
	for _, mh := range hs {
		errs = append(errs, mh.s.Synchronize(), mh.cs.Synchronize(), mh.ts.Synchronize())
	}
	return errors.Join(errs...)
}

// devices is the number of devices that hold columns.
func (ms *multiStore[E]) devices() int { return len(ms.first) - 1 }

// treeDevice is the device that builds and keeps block b's subtree, the
// (b / devices)-th of its subtrees.
func (ms *multiStore[E]) treeDevice(b int) int { return b % ms.devices() }

// trees is the number of subtrees device i keeps.
func (ms *multiStore[E]) trees(i int) int {
	if i >= ms.blocks {
		return 0
	}
	d := ms.devices()
	return (ms.blocks - i + d - 1) / d
}

// subtree returns the nodes of block b's subtree, as rowhash.Hasher.Tree
// writes them (its root last), on its device.
func (ms *multiStore[E]) subtree(b int) (*gpu.Buffer[byte], error) {
	size := (ms.rows/ms.blocks - 1) * rowhash.DigestSize
	return ms.st[ms.treeDevice(b)].nodes.View(b/ms.devices()*size, size)
}

// joinTop brings the blocks' roots to the host and hashes them up to the
// root, which it returns.
func (ms *multiStore[E]) joinTop(hs merkle.Hasher) ([]byte, error) {
	roots := make([][]byte, ms.blocks)
	for b := range roots {
		v, err := ms.subtree(b)
		if err != nil {
			return nil, err
		}
		if v, err = v.View(v.Len()-rowhash.DigestSize, rowhash.DigestSize); err != nil {
			return nil, err
		}
		roots[b] = make([]byte, rowhash.DigestSize)
		if err := v.Download(roots[b]); err != nil {
			return nil, fmt.Errorf("prover: GPU Merkle root of block %d: %w", b, err)
		}
	}
	top, err := merkle.JoinRoots(hs, roots)
	if err != nil {
		return nil, err
	}
	ms.top = top
	return top.Root(), nil
}

func (ms *multiStore[E]) reserve(n int64) (func(), error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return nil, fmt.Errorf("prover: %w", ErrClosed)
	}
	return ms.st[0].reserve(n)
}

func (ms *multiStore[E]) open(hs merkle.Hasher, indices []int) (*Opening[E], error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return nil, fmt.Errorf("prover: Open: %w", ErrClosed)
	}
	both := make([]int, 0, 2*len(indices))
	both = append(both, indices...)
	for _, i := range indices {
		both = append(both, i^1)
	}
	// One gather on each device, all at once: its columns of the rows and
	// the paths in the blocks' subtrees it keeps.
	per := ms.rows / ms.blocks
	byBlock := map[int][]int{}
	for k, i := range indices {
		byBlock[i/per] = append(byBlock[i/per], k)
	}
	parts := make([][][]E, len(ms.st))
	low := make([][][]byte, len(indices)) // the path inside the block's subtree
	err := eachDevice(len(ms.st), func(i int) error {
		st := ms.st[i]
		g := rowhash.NewGather(st.lde.Device())
		gr, err := rowhash.AddRows(g, st.lde, ms.rows, both)
		if err != nil {
			return err
		}
		type read struct {
			ks []int
			p  *rowhash.Paths
		}
		var reads []read
		if per > 2 {
			for b, ks := range byBlock {
				if ms.treeDevice(b) != i {
					continue
				}
				v, err := ms.subtree(b)
				if err != nil {
					return err
				}
				local := make([]int, len(ks))
				for j, k := range ks {
					local[j] = indices[k] % per
				}
				p, err := g.AddPaths(v, per, local)
				if err != nil {
					return err
				}
				reads = append(reads, read{ks, p})
			}
		}
		if err := g.Run(nil); err != nil {
			return err
		}
		if parts[i], err = gr.Get(); err != nil {
			return err
		}
		for _, r := range reads {
			paths, err := r.p.Get()
			if err != nil {
				return err
			}
			for j, k := range r.ks {
				low[k] = paths[j] // distinct k on every device: distinct blocks
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("prover: Open: %w", err)
	}
	cols := ms.first[len(ms.first)-1]
	rows := make([][]E, len(both))
	for k := range rows {
		rows[k] = make([]E, 0, cols)
		for _, p := range parts {
			rows[k] = append(rows[k], p[k]...)
		}
	}
	// The path: the block's subtree on its device, then the levels
	// above it on the host.
	up := make([][][]byte, len(indices))
	for k, i := range indices {
		up[k] = append(slices.Clone(low[k]), ms.top.Path(i/per)...)
	}
	o, err := rowhash.OpeningOf(hs, indices, rows, up)
	if err != nil {
		return nil, fmt.Errorf("prover: Open: %w", err)
	}
	return o, nil
}

func (ms *multiStore[E]) copyOut(dst [][]E) error {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return fmt.Errorf("prover: LDE: %w", ErrClosed)
	}
	return eachDevice(len(ms.st), func(i int) error {
		for j := ms.first[i]; j < ms.first[i+1]; j++ {
			v, err := ms.st[i].lde.View((j-ms.first[i])*ms.rows, ms.rows)
			if err != nil {
				return err
			}
			if err := v.Download(dst[j]); err != nil {
				return fmt.Errorf("prover: LDE: %w", err)
			}
		}
		return nil
	})
}

// combine has each device combine its columns, then adds the partial sums
// on the first device (a combination of them with coefficients 1), where
// the result is.
func (ms *multiStore[E]) combine(dst *gpu.Buffer[E], alpha []E) (*gpu.Buffer[E], error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return nil, fmt.Errorf("prover: Combine: %w", ErrClosed)
	}
	home := ms.st[0].r
	n, d := ms.rows, len(ms.st)
	if dst != nil && (dst.Len() != n || dst.Device() != home.dev) {
		return nil, fmt.Errorf("prover: CombineDeviceInto: a buffer of %d elements for %d rows, or not on the first device: %w", dst.Len(), n, ErrShape)
	}
	fail := func(err error) (*gpu.Buffer[E], error) {
		return nil, fmt.Errorf("prover: Combine on the devices: %w", err)
	}
	partial, err := gpu.Alloc[E](home.dev, d*n)
	if err != nil {
		return fail(err)
	}
	defer partial.Free()
	err = eachDevice(d, func(i int) error {
		st := ms.st[i]
		into, err := partial.View(i*n, n)
		if err != nil {
			return err
		}
		tmp := into
		if i > 0 {
			if tmp, err = gpu.Alloc[E](st.r.dev, n); err != nil {
				return err
			}
			defer tmp.Free()
		}
		if err := st.r.ops.devCombine(nil, tmp, st.lde, alpha[ms.first[i]:ms.first[i+1]]); err != nil {
			return err
		}
		if i > 0 {
			return into.CopyFrom(nil, tmp)
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	out := dst
	if out == nil {
		if out, err = gpu.Alloc[E](home.dev, n); err != nil {
			return fail(err)
		}
	}
	ones := make([]E, d)
	for i := range ones {
		ones[i] = one[E]()
	}
	if err := home.ops.devCombine(nil, out, partial, ones); err != nil {
		if dst == nil {
			out.Free()
		}
		return fail(err)
	}
	return out, nil
}

// view: the LDE is not one buffer.
func (ms *multiStore[E]) view() (*gpu.Buffer[E], error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return nil, fmt.Errorf("prover: DeviceLDE: %w", ErrClosed)
	}
	if len(ms.st) == 1 {
		return ms.st[0].lde.View(0, ms.st[0].lde.Len())
	}
	return nil, fmt.Errorf("prover: DeviceLDE: the LDE is spread over %d devices (DeviceParts gives each one's columns): %w", len(ms.st), ErrUnavailable)
}

// parts returns each device's columns.
func (ms *multiStore[E]) parts() ([]DeviceColumns[E], error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return nil, fmt.Errorf("prover: DeviceParts: %w", ErrClosed)
	}
	out := make([]DeviceColumns[E], len(ms.st))
	for i, st := range ms.st {
		v, err := st.lde.View(0, st.lde.Len())
		if err != nil {
			return nil, err
		}
		out[i] = DeviceColumns[E]{First: ms.first[i], Columns: v}
	}
	return out, nil
}
