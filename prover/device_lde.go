package prover

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/gfpoly/gfpoly/gpu"
)

// deviceLDEShape checks an LDE handed over in device memory and returns its
// rows: cols columns end to end, each a power of two of at least the
// blowup's rows.
func deviceLDEShape[E Element](op string, lde *gpu.Buffer[E], cols, blowup int) (int, error) {
	if lde == nil || cols < 1 || lde.Len()%cols != 0 {
		n := 0
		if lde != nil {
			n = lde.Len()
		}
		return 0, fmt.Errorf("prover: %s: %d elements in %d columns: want whole columns end to end: %w", op, n, cols, ErrShape)
	}
	if lde.Freed() {
		return 0, fmt.Errorf("prover: %s: the LDE's buffer was freed: %w", op, gpu.ErrClosed)
	}
	rows := lde.Len() / cols
	if bits.OnesCount(uint(rows)) != 1 || rows < blowup {
		return 0, fmt.Errorf("prover: %s: columns of %d rows: want a power of two of at least the blowup's %d: %w", op, rows, blowup, ErrShape)
	}
	return rows, nil
}

// downloadLDE copies an LDE in device memory (cols columns end to end) to
// host columns.
func downloadLDE[E Element](lde *gpu.Buffer[E], cols, rows int) ([][]E, error) {
	flat := make([]E, cols*rows)
	if err := lde.Download(flat); err != nil {
		return nil, fmt.Errorf("prover: the LDE's download: %w", err)
	}
	out := make([][]E, cols)
	for c := range out {
		out[c] = flat[c*rows : (c+1)*rows : (c+1)*rows]
	}
	return out, nil
}

// CommitDeviceLDE commits to the rows of an LDE already in device memory:
// cols columns of Blowup()·2^k rows each, end to end in lde, written there
// by the caller's own kernels (a constraint quotient computed over a
// commitment's DeviceLDE, say). Like CommitLDE it takes lde as a codeword of
// the encoder's code. On a GPU encoder on lde's device the commitment copies
// lde into memory of its own, hashes it there and is kept on the device as
// Commit's are (within the device budget; Resident says why not otherwise);
// any other encoder, and a commitment that does not fit, copies lde to host
// memory and commits to it as CommitLDE. The work queued on lde's device is
// finished first; lde stays the caller's.
func (c *core[E]) CommitDeviceLDE(lde *gpu.Buffer[E], cols int) (*Commitment[E], error) {
	rows, err := deviceLDEShape("CommitDeviceLDE", lde, cols, c.cfg.blowup)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := lde.Device().Synchronize(); err != nil {
		return nil, fmt.Errorf("prover: CommitDeviceLDE: the LDE's device: %w", err)
	}
	why := "" // a CPU encoder's commitments are in host memory: no reason
	switch {
	case c.res == nil:
	case lde.Device() != c.res.dev:
		why = "the LDE is on another device than the encoder's"
	case !c.devTreeOK():
		why = "the tree of " + c.cfg.hs.String() + " is built on the CPU, from an LDE in host memory"
	case rows == 1:
		why = "a single row is its own root, hashed on the host"
	default:
		cm, reason, err := c.keepResident(rows, cols, t0, func(st *devStore[E], h *devHash[E]) error {
			if err := st.lde.CopyFrom(h.s, lde); err != nil {
				return fmt.Errorf("prover: CommitDeviceLDE: copying the LDE: %w", err)
			}
			return h.absorb(h.s, st.lde)
		})
		if cm != nil || err != nil {
			return cm, err
		}
		why = reason
		c.report("fallback", 0, 0)
	}
	host, err := downloadLDE(lde, cols, rows)
	if err != nil {
		return nil, err
	}
	cm, err := c.CommitLDE(host)
	if cm != nil {
		cm.why = why
		cm.Timings.Commit = time.Since(t0)
	}
	return cm, err
}
