package prover

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/gfpoly/gfpoly/gpu"
)

// Commitments on the GPU. With the default hash (SHA-256), a GPU backend
// hashes the rows on the device (gpu.RowHasher): Commit absorbs each group
// of columns into the rows' SHA-256 states while the group's LDE is still on
// the device, and CommitLDE uploads the caller's LDE a group at a time. The
// tree is the CPU's, digest for digest (same leaf and node encodings); only
// the digests above the leaves come back (rows − 1 of them).

// devLDEFunc is a GPU backend's ldeFunc that also hands each group's LDE on
// the device to sink (when not nil), in column order.
type devLDEFunc[E Element] func(logRows int, dst, msgs [][]E, sink *devHash[E]) error

// devHash hashes the rows of one LDE on the device.
type devHash[E Element] struct {
	dev  *gpu.Device
	rh   *gpu.RowHasher[E]
	ev   *gpu.Event // recorded after each absorb
	used bool       // ev has been recorded
	s    *gpu.Stream
}

func newDevHash[E Element](dev *gpu.Device, rows int) (_ *devHash[E], err error) {
	h := &devHash[E]{dev: dev}
	defer func() {
		if err != nil {
			h.close()
		}
	}()
	if h.rh, err = gpu.NewRowHasher[E](dev, rows, leafTag, nodeTag); err != nil {
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
	if h.rh != nil {
		errs = append(errs, h.rh.Close())
	}
	if h.ev != nil {
		errs = append(errs, h.ev.Close())
	}
	if h.s != nil {
		errs = append(errs, h.s.Close())
	}
	return errors.Join(errs...)
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
const devHostGroupBytes = 64 << 20

// absorbHost uploads the host columns cols a group at a time through pinned
// memory (two groups in flight) and absorbs them.
func (h *devHash[E]) absorbHost(cols [][]E) (err error) {
	rows := len(cols[0])
	var z E
	g := max(1, min(len(cols), devHostGroupBytes/(rows*int(unsafe.Sizeof(z)))))
	type slot struct {
		s    *gpu.Stream
		hb   *gpu.HostBuffer[E]
		db   *gpu.Buffer[E]
		busy bool
	}
	var slots [2]slot
	defer func() {
		for _, sl := range slots {
			if sl.s != nil {
				if e := sl.s.Synchronize(); e != nil && err == nil {
					err = e
				}
				sl.s.Close()
			}
			if sl.hb != nil {
				sl.hb.Free()
			}
			if sl.db != nil {
				sl.db.Free()
			}
		}
	}()
	for k, c0 := 0, 0; c0 < len(cols); k, c0 = k+1, c0+g {
		sl := &slots[k%2]
		if sl.s == nil {
			if sl.s, err = h.dev.NewStream(); err != nil {
				return err
			}
			if sl.hb, err = gpu.AllocHost[E](h.dev, g*rows); err != nil {
				return err
			}
			if sl.db, err = gpu.Alloc[E](h.dev, g*rows); err != nil {
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
		hb := sl.hb.Slice()
		parallelFor(nc, func(j int) { copy(hb[j*rows:(j+1)*rows], cols[c0+j]) })
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

// tree finishes the leaves, builds the tree on the device and brings the
// digests above the leaves back.
func (h *devHash[E]) tree(hs hasher) (*tree, error) {
	rows := h.rh.Rows()
	if err := h.s.Wait(h.ev); err != nil {
		return nil, err
	}
	nodes, err := gpu.Alloc[byte](h.dev, (rows-1)*gpu.DigestSize)
	if err != nil {
		return nil, err
	}
	defer nodes.Free()
	if err := h.rh.Tree(h.s, nodes); err != nil {
		return nil, err
	}
	if err := h.s.Synchronize(); err != nil {
		return nil, err
	}
	back := make([]byte, nodes.Len())
	if err := nodes.Download(back); err != nil {
		return nil, err
	}
	t := &tree{hs: hs, height: log2(rows)}
	t.nodes = make([][]byte, t.height)
	off := 0
	for j := range t.nodes {
		n := (rows >> (j + 1)) * gpu.DigestSize
		t.nodes[j] = back[off : off+n : off+n]
		off += n
	}
	t.root = t.nodes[t.height-1]
	return t, nil
}

// devTreeOK says whether the commitment is hashed on the device: a GPU
// backend with the default hash.
func (c *core[E]) devTreeOK() bool { return c.devLDE != nil && c.cfg.hs.newHash == nil }

// commitDev is Commit with the rows hashed on the device during the
// encoding. It returns (nil, nil) when the device lacks the memory for the
// row states, and the caller then hashes on the CPU.
func (c *core[E]) commitDev(src Source[E]) (*Commitment[E], error) {
	t0 := time.Now()
	logRows, cols, err := c.shape(src)
	if err != nil {
		return nil, err
	}
	n := c.cfg.blowup << logRows
	h, err := newDevHash[E](c.cfg.gpu, n)
	if errors.Is(err, gpu.ErrOutOfMemory) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prover: GPU row hashing for %d rows: %w", n, err)
	}
	defer h.close()
	lde := newLDE[E](n, cols)
	if err := c.encodeWith(lde, src, logRows, cols, h); err != nil {
		return nil, err
	}
	t1 := time.Now()
	t, err := h.tree(c.cfg.hs)
	switch {
	case errors.Is(err, gpu.ErrOutOfMemory):
		// No room for the node digests: hash on the CPU.
		t = buildTree(lde, c.cfg.hs, c.cfg.workers, func(done, total int) { c.report("commit", done, total) })
	case err != nil:
		return nil, fmt.Errorf("prover: GPU Merkle tree: %w", err)
	default:
		c.report("commit", n, n)
	}
	return &Commitment[E]{lde: lde, tree: t, Timings: Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)}}, nil
}

// commitLDEDev hashes the caller's LDE on the device; (nil, nil) as for
// commitDev.
func (c *core[E]) commitLDEDev(lde [][]E) (*tree, error) {
	h, err := newDevHash[E](c.cfg.gpu, len(lde[0]))
	if errors.Is(err, gpu.ErrOutOfMemory) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prover: GPU row hashing for %d rows: %w", len(lde[0]), err)
	}
	defer h.close()
	if err := h.absorbHost(lde); err != nil {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return nil, nil
		}
		return nil, fmt.Errorf("prover: GPU row hashing: %w", err)
	}
	t, err := h.tree(c.cfg.hs)
	if errors.Is(err, gpu.ErrOutOfMemory) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prover: GPU Merkle tree: %w", err)
	}
	return t, nil
}
