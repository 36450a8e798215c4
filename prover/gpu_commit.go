package prover

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/gfpoly/gfpoly/gpu"
	gp2 "github.com/gfpoly/gfpoly/gpu/poseidon2"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
	"github.com/gfpoly/gfpoly/internal/hugepage"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Commitments on the GPU. With the default hash (SHA-256), a GPU backend
// hashes the rows on the device (gpu/rowhash): Commit absorbs each group
// of columns into the rows' SHA-256 states while the group's LDE is still on
// the device, and CommitLDE uploads the caller's LDE a group at a time. The
// tree is the CPU's, digest for digest (same leaf and node encodings); only
// the digests above the leaves come back (rows − 1 of them).

// devLDEFunc is a GPU backend's ldeFunc that also hands each group's LDE on
// the device to sink (when not nil), in column order.
type devLDEFunc[E Element] func(logRows int, dst, msgs [][]E, sink *devHash[E]) error

// devHash hashes the rows of one LDE at a time on the device. An encoder
// keeps the last one (core.dh) with its buffers for the next commitment of
// the same number of rows.
type devHash[E Element] struct {
	dev   *gpu.Device
	rh    *rowhash.Hasher[E]
	ev    *gpu.Event // recorded after each absorb
	used  bool       // ev has been recorded since the last reset
	s     *gpu.Stream
	nodes *gpu.Buffer[byte]
	hnode *gpu.HostBuffer[byte] // pinned copy of nodes
	slots [2]devSlot[E]         // CommitLDE's upload staging
}

// devSlot is one stream of CommitLDE's upload: pinned and device buffers
// for a group of columns.
type devSlot[E Element] struct {
	s    *gpu.Stream
	hb   *gpu.HostBuffer[E]
	db   *gpu.Buffer[E]
	busy bool
}

func newDevHash[E Element](dev *gpu.Device, rows int, cfg *config) (_ *devHash[E], err error) {
	h := &devHash[E]{dev: dev}
	defer func() {
		if err != nil {
			h.close()
		}
	}()
	if h.rh, err = newRowHasher[E](dev, rows, cfg); err != nil {
		return nil, err
	}
	if h.ev, err = dev.NewEvent(); err != nil {
		return nil, err
	}
	if h.s, err = dev.NewStream(); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *devHash[E]) close() error {
	var errs []error
	for i := range h.slots {
		sl := &h.slots[i]
		if sl.s != nil {
			errs = append(errs, sl.s.Synchronize(), sl.s.Close())
		}
		if sl.hb != nil {
			errs = append(errs, sl.hb.Free())
		}
		if sl.db != nil {
			errs = append(errs, sl.db.Free())
		}
		*sl = devSlot[E]{}
	}
	if h.rh != nil {
		errs = append(errs, h.rh.Close())
	}
	if h.nodes != nil {
		errs = append(errs, h.nodes.Free())
	}
	if h.hnode != nil {
		errs = append(errs, h.hnode.Free())
	}
	if h.ev != nil {
		errs = append(errs, h.ev.Close())
	}
	if h.s != nil {
		errs = append(errs, h.s.Close())
	}
	return errors.Join(errs...)
}

// reset starts new rows.
func (h *devHash[E]) reset() {
	h.rh.Reset()
	h.used = false
}

// devHashFor returns a device hasher for rows rows and the function that
// gives it back: the encoder's kept one when no other commitment uses it, or
// a new one. (nil, nil, nil): the device lacks the memory.
func (c *core[E]) devHashFor(rows int) (*devHash[E], func(), error) {
	if !c.devMu.TryLock() {
		// Another commitment of this encoder runs: one of its own.
		h, err := c.newDevHash(rows)
		if h == nil {
			return nil, nil, err
		}
		return h, func() { h.close() }, nil
	}
	if c.dh != nil && c.dh.rh.Rows() != rows {
		c.dh.close()
		c.dh = nil
	}
	if c.dh == nil {
		h, err := c.newDevHash(rows)
		if h == nil {
			c.devMu.Unlock()
			return nil, nil, err
		}
		c.dh = h
	}
	c.dh.reset()
	return c.dh, c.devMu.Unlock, nil
}

// newDevHash makes a device hasher on the encoder's GPU; (nil, nil) when
// the device lacks the memory.
func (c *core[E]) newDevHash(rows int) (*devHash[E], error) {
	h, err := newDevHash[E](c.cfg.gpu, rows, &c.cfg)
	if errors.Is(err, gpu.ErrOutOfMemory) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prover: GPU row hashing for %d rows: %w", rows, err)
	}
	return h, nil
}

// absorb appends the columns in cols (end to end) to the rows, on s, after
// every earlier absorb whatever its stream.
func (h *devHash[E]) absorb(s *gpu.Stream, cols *gpu.Buffer[E]) error {
	if h.used {
		if err := s.Wait(h.ev); err != nil {
			return err
		}
	}
	if err := h.rh.Absorb(s, cols); err != nil {
		return err
	}
	if err := h.ev.Record(s); err != nil {
		return err
	}
	h.used = true
	return nil
}

// devHostGroupBytes bounds a group of CommitLDE's upload (per stream).
const devHostGroupBytes = 128 << 20

// absorbHost uploads the host columns cols a group at a time through pinned
// memory (two groups in flight) and absorbs them.
func (h *devHash[E]) absorbHost(cols [][]E) (err error) {
	rows := len(cols[0])
	var z E
	g := max(1, min(len(cols), devHostGroupBytes/(rows*int(unsafe.Sizeof(z)))))
	defer func() {
		for i := range h.slots {
			if sl := &h.slots[i]; sl.s != nil {
				if e := sl.s.Synchronize(); e != nil && err == nil {
					err = e
				}
				sl.busy = false
			}
		}
	}()
	for k, c0 := 0, 0; c0 < len(cols); k, c0 = k+1, c0+g {
		sl := &h.slots[k%2]
		if sl.s == nil {
			if sl.s, err = h.dev.NewStream(); err != nil {
				return err
			}
		}
		if sl.hb == nil || sl.hb.Len() < g*rows {
			if sl.hb != nil {
				sl.s.Synchronize()
				sl.hb.Free()
				sl.db.Free()
				sl.hb, sl.db = nil, nil
			}
			if sl.hb, err = gpu.AllocHost[E](h.dev, g*rows); err != nil {
				return err
			}
			if sl.db, err = gpu.Alloc[E](h.dev, g*rows); err != nil {
				sl.hb.Free()
				sl.hb = nil
				return err
			}
		}
		if sl.busy {
			// The slot's previous upload must be done before its pinned
			// memory is refilled.
			if err := sl.s.Synchronize(); err != nil {
				return err
			}
		}
		nc := min(g, len(cols)-c0)
		copyToPinned(sl.hb.Slice()[:nc*rows], cols[c0:c0+nc], rows)
		hv, err := sl.hb.View(0, nc*rows)
		if err != nil {
			return err
		}
		dv, err := sl.db.View(0, nc*rows)
		if err != nil {
			return err
		}
		if err := dv.UploadAsync(sl.s, hv); err != nil {
			return err
		}
		if err := h.absorb(sl.s, dv); err != nil {
			return err
		}
		sl.busy = true
	}
	return nil
}

// copyToPinned copies the columns cols (rows elements each) end to end into
// p, in pieces spread over all cores: one core does not keep up with the
// memory bus.
func copyToPinned[E Element](p []E, cols [][]E, rows int) {
	const piece = 1 << 18
	per := (rows + piece - 1) / piece
	parallelFor(len(cols)*per, func(i int) {
		c, lo := i/per, (i%per)*piece
		hi := min(lo+piece, rows)
		copy(p[c*rows+lo:c*rows+hi], cols[c][lo:hi])
	})
}

// tree finishes the leaves of lde, builds the tree on the device and brings
// the digests above the leaves back: the tree over lde.
func (h *devHash[E]) tree(lde [][]E, hs merkle.Hasher) (*merkle.Tree[E], error) {
	rows := h.rh.Rows()
	// The node buffers are made on the first tree that comes back to the
	// host (a commitment kept on the device has its own).
	var err error
	if h.nodes == nil {
		if h.nodes, err = gpu.Alloc[byte](h.dev, (rows-1)*rowhash.DigestSize); err != nil {
			return nil, err
		}
	}
	if h.hnode == nil {
		if h.hnode, err = gpu.AllocHost[byte](h.dev, (rows-1)*rowhash.DigestSize); err != nil {
			return nil, err
		}
	}
	if err := h.s.Wait(h.ev); err != nil {
		return nil, err
	}
	if err := h.rh.Tree(h.s, h.nodes); err != nil {
		return nil, err
	}
	if err := h.nodes.DownloadAsync(h.s, h.hnode); err != nil {
		return nil, err
	}
	if err := h.s.Synchronize(); err != nil {
		return nil, err
	}
	back := make([]byte, h.nodes.Len())
	hugepage.Advise(back)
	pin := h.hnode.Slice()
	const piece = 1 << 20
	parallelFor((len(back)+piece-1)/piece, func(i int) {
		copy(back[i*piece:min((i+1)*piece, len(back))], pin[i*piece:])
	})
	return merkle.FromDigests(lde, hs, back)
}

// devTreeOK says whether the commitment is hashed on the device: a GPU
// backend with the default hash or a field hash the GPU runs.
func (c *core[E]) devTreeOK() bool {
	return c.devLDE != nil && (c.cfg.hs.Default() || c.cfg.devTree != nil)
}

// newRowHasher returns the device's row hasher for the tree of cfg's hash:
// SHA-256's, or the field tree of cfg.devTree.
func newRowHasher[E Element](dev *gpu.Device, rows int, cfg *config) (*rowhash.Hasher[E], error) {
	if cfg.devTree != nil {
		return rowhash.NewField[E](dev, rows, *cfg.devTree)
	}
	return rowhash.New[E](dev, rows, merkle.LeafTag, merkle.NodeTag)
}

// devTreeSpec returns a field hash in the form of the GPU's kernels, or nil
// and the reason the GPU does not run it (rowhash.FieldSpec).
func devTreeSpec[E Element](hs merkle.Hasher) (*gp2.TreeSpec, string) {
	return rowhash.FieldSpec[E](hs)
}

// commitDev encodes src into lde with the rows hashed on the device during
// the encoding. It returns (nil, nil) when the device lacks the memory for
// the hashing, and the caller then hashes on the CPU.
func (c *core[E]) commitDev(lde [][]E, src Source[E], logRows, cols int, t0 time.Time) (*Commitment[E], error) {
	n := c.cfg.blowup << logRows
	h, done, err := c.devHashFor(n)
	if h == nil || err != nil {
		return nil, err
	}
	defer done()
	if err := c.encodeWith(lde, src, logRows, cols, h); err != nil {
		return nil, err
	}
	t1 := time.Now()
	t, err := h.tree(lde, c.cfg.hs)
	if err != nil {
		return nil, fmt.Errorf("prover: GPU Merkle tree: %w", err)
	}
	c.report("commit", n, n)
	return newHostCommitment(lde, t, Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)}).withCode(&c.cfg), nil
}

// commitLDEDev hashes the caller's LDE on the device; (nil, nil) as for
// commitDev.
func (c *core[E]) commitLDEDev(lde [][]E) (*merkle.Tree[E], error) {
	h, done, err := c.devHashFor(len(lde[0]))
	if h == nil || err != nil {
		return nil, err
	}
	defer done()
	if err := h.absorbHost(lde); err != nil {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return nil, nil
		}
		return nil, fmt.Errorf("prover: GPU row hashing: %w", err)
	}
	t, err := h.tree(lde, c.cfg.hs)
	if err != nil {
		return nil, fmt.Errorf("prover: GPU Merkle tree: %w", err)
	}
	return t, nil
}
