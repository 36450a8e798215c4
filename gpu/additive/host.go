package additive

import (
	"errors"
	"fmt"
	"github.com/gfpoly/gfpoly/gpu"
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Host convenience calls: columns in Go slices go to the device through
// pinned staging buffers, in groups of columns pipelined over hostStreams
// streams, so that one group's copies overlap another's transform; within a
// group, the staging copies overlap the transfers chunk by chunk (hostChunk).

const (
	hostStreams = 2
	// hostGroupBytes bounds the device memory of one group of columns.
	hostGroupBytes = 1 << 30
)

// stage is one stream's staging: pinned and device buffers for a group.
type stage struct {
	s          *gpu.Stream
	hin, hout  *gpu.HostBuffer[gf64.Element]
	din, dout  *gpu.Buffer[gf64.Element]
	pend       [][]gf64.Element // destination columns of the group in flight
	pendOutLen int
	// done[k] is recorded after the download of the group's output chunk k.
	done []*gpu.Event
}

func (st *stage) free() error {
	var errs []error
	if st.s != nil {
		errs = append(errs, st.s.Close())
	}
	for _, e := range st.done {
		errs = append(errs, e.Close())
	}
	for _, h := range []*gpu.HostBuffer[gf64.Element]{st.hin, st.hout} {
		if h != nil {
			errs = append(errs, h.Free())
		}
	}
	for _, b := range []*gpu.Buffer[gf64.Element]{st.din, st.dout} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	return errors.Join(errs...)
}

// ensure makes st hold at least nin and nout elements (nout = 0: in place,
// dout is din).
func (st *stage) ensure(d *gpu.Device, nin, nout int) error {
	if st.s == nil {
		s, err := d.NewStream()
		if err != nil {
			return err
		}
		st.s = s
	}
	if st.hin == nil || st.hin.Len() < nin {
		if st.hin != nil {
			st.hin.Free()
			st.hin = nil
		}
		h, err := gpu.AllocHost[gf64.Element](d, nin)
		if err != nil {
			return err
		}
		st.hin = h
	}
	if st.din == nil || st.din.Len() < nin {
		if st.din != nil {
			st.din.Free()
			st.din = nil
		}
		b, err := gpu.Alloc[gf64.Element](d, nin)
		if err != nil {
			return err
		}
		st.din = b
	}
	if nout == 0 {
		return nil
	}
	if st.hout == nil || st.hout.Len() < nout {
		if st.hout != nil {
			st.hout.Free()
			st.hout = nil
		}
		h, err := gpu.AllocHost[gf64.Element](d, nout)
		if err != nil {
			return err
		}
		st.hout = h
	}
	if st.dout == nil || st.dout.Len() < nout {
		if st.dout != nil {
			st.dout.Free()
			st.dout = nil
		}
		b, err := gpu.Alloc[gf64.Element](d, nout)
		if err != nil {
			return err
		}
		st.dout = b
	}
	return nil
}

// hostChunk is the unit, in elements, in which a group's staging copies
// and its transfers overlap: the upload of one chunk runs while the next is
// copied into pinned memory, and the result is copied out chunk by chunk as
// each chunk's download completes (Transforms.chunk, which tests change).
const hostChunk = 1 << 22

// copyRange copies elements [lo, hi) of the columns cols (each n elements,
// taken end to end) to or from the same range of the pinned slice p
// (toPinned: cols -> p), on all cores.
func copyRange(p []gf64.Element, cols [][]gf64.Element, n, lo, hi int, toPinned bool) {
	part := func(lo, hi int) {
		for i := lo; i < hi; {
			c, off := i/n, i%n
			e := min(hi-i, n-off)
			if toPinned {
				copy(p[i:i+e], cols[c][off:off+e])
			} else {
				copy(cols[c][off:off+e], p[i:i+e])
			}
			i += e
		}
	}
	w := min(runtime.GOMAXPROCS(0), max(1, (hi-lo)>>16))
	if w <= 1 {
		part(lo, hi)
		return
	}
	var wg sync.WaitGroup
	step := (hi - lo + w - 1) / w
	for a := lo; a < hi; a += step {
		wg.Go(func() { part(a, min(a+step, hi)) })
	}
	wg.Wait()
}

// hostRun runs f on groups of columns: src columns of inLen elements in,
// dst columns of outLen elements out (inPlace: dst is src and f works on
// one buffer). scratch is the device scratch per column f needs.
func (t *Transforms) hostRun(op string, dst, src [][]gf64.Element, inLen, outLen, scratch int, inPlace bool,
	f func(s *gpu.Stream, out, in *gpu.Buffer[gf64.Element], cols int) error) error {
	if len(dst) != len(src) {
		return fmt.Errorf("additive: %s: %d destination columns and %d source columns: %w", op, len(dst), len(src), gpu.ErrLength)
	}
	for i := range src {
		if len(src[i]) != inLen {
			return fmt.Errorf("additive: %s: column %d has %d elements, want %d: %w", op, i, len(src[i]), inLen, gpu.ErrLength)
		}
		if len(dst[i]) != outLen {
			return fmt.Errorf("additive: %s: destination column %d has %d elements, want %d: %w", op, i, len(dst[i]), outLen, gpu.ErrLength)
		}
	}
	if len(src) == 0 {
		return nil
	}
	perCol := 8 * (inLen + scratch)
	if !inPlace {
		perCol += 8 * outLen
	}
	free, _, err := t.d.MemInfo()
	if err != nil {
		return err
	}
	// Two groups in flight, each at most hostGroupBytes and a third of the
	// free memory (what the stages hold already counts as free for them).
	held := uint64(0)
	for _, st := range t.stages {
		if st != nil && st.din != nil {
			held += uint64(st.din.Bytes())
			if st.dout != nil {
				held += uint64(st.dout.Bytes())
			}
		}
	}
	avail := free + held
	if uint64(perCol) > avail {
		return fmt.Errorf("additive: %s: one column needs %d bytes of device memory, %d free: %w", op, perCol, avail, gpu.ErrOutOfMemory)
	}
	budget := min(uint64(hostGroupBytes), avail/3)
	g := max(1, int(budget/uint64(perCol)))
	g = min(g, (len(src)+1)/2, maxGridY)
	g = max(g, 1)

	t.hostMu.Lock()
	defer t.hostMu.Unlock()
	for i := range t.stages {
		if t.stages[i] == nil {
			t.stages[i] = &stage{}
		}
		nout := 0
		if !inPlace {
			nout = g * outLen
		}
		if err := t.stages[i].ensure(t.d, g*inLen, nout); err != nil {
			return fmt.Errorf("additive: %s: staging %d columns (%d bytes of device memory per stream): %w", op, g, g*perCol, err)
		}
	}
	drain := func(st *stage) error {
		if st.pend == nil {
			return nil
		}
		h := st.hout
		if inPlace {
			h = st.hin
		}
		total := len(st.pend) * st.pendOutLen
		for k, lo := 0, 0; lo < total; k, lo = k+1, lo+t.chunk {
			if err := st.done[k].Synchronize(); err != nil {
				return err
			}
			copyRange(h.Slice(), st.pend, st.pendOutLen, lo, min(lo+t.chunk, total), false)
		}
		st.pend = nil
		return nil
	}
	var firstErr error
	for c0, gi := 0, 0; c0 < len(src) && firstErr == nil; c0, gi = c0+g, gi+1 {
		st := t.stages[gi%hostStreams]
		if err := drain(st); err != nil {
			firstErr = err
			break
		}
		nc := min(g, len(src)-c0)
		firstErr = func() error {
			for lo := 0; lo < nc*inLen; lo += t.chunk {
				hi := min(lo+t.chunk, nc*inLen)
				copyRange(st.hin.Slice(), src[c0:c0+nc], inLen, lo, hi, true)
				hin, err := st.hin.View(lo, hi-lo)
				if err != nil {
					return err
				}
				din, err := st.din.View(lo, hi-lo)
				if err != nil {
					return err
				}
				if err := din.UploadAsync(st.s, hin); err != nil {
					return err
				}
			}
			din, err := st.din.View(0, nc*inLen)
			if err != nil {
				return err
			}
			dout, hout := din, st.hin
			if !inPlace {
				if dout, err = st.dout.View(0, nc*outLen); err != nil {
					return err
				}
				hout = st.hout
			}
			if err := f(st.s, dout, din, nc); err != nil {
				return err
			}
			for k, lo := 0, 0; lo < nc*outLen; k, lo = k+1, lo+t.chunk {
				hi := min(lo+t.chunk, nc*outLen)
				dv, err := dout.View(lo, hi-lo)
				if err != nil {
					return err
				}
				hv, err := hout.View(lo, hi-lo)
				if err != nil {
					return err
				}
				if err := dv.DownloadAsync(st.s, hv); err != nil {
					return err
				}
				if k == len(st.done) {
					e, err := t.d.NewEvent()
					if err != nil {
						return err
					}
					st.done = append(st.done, e)
				}
				if err := st.done[k].Record(st.s); err != nil {
					return err
				}
			}
			st.pend, st.pendOutLen = dst[c0:c0+nc], outLen
			return nil
		}()
	}
	for _, st := range t.stages {
		if err := drain(st); err != nil && firstErr == nil {
			firstErr = err
		}
		st.pend = nil
	}
	return firstErr
}

// LDEBatch sets dst[i] to domain.LDE of src[i] from from to to, for every
// column, on the device: the columns travel through pinned memory in groups,
// copies overlapping the transforms. No src[i] is modified. It has the
// method set of rs.Accelerator, so a *Transforms can run a Reed–Solomon
// code's encodings.
func (t *Transforms) LDEBatch(dst, src [][]gf64.Element, from, to *domain.Subspace) error {
	return t.LDEBatchThen(dst, src, from, to, nil)
}

// LDEBatchThen is LDEBatch that also hands each group's LDE, while it is on
// the device, to then (when not nil): out holds the group's columns end to
// end (to.Size() elements each), the groups come in column order, and then
// queues its work on s, before the group's download. Groups alternate
// between two streams, so work that must see the groups in sequence (such as
// gpu/rowhash's Hasher.Absorb) orders itself with an event. An error from then
// stops the batch and is returned.
func (t *Transforms) LDEBatchThen(dst, src [][]gf64.Element, from, to *domain.Subspace,
	then func(s *gpu.Stream, out *gpu.Buffer[gf64.Element]) error) error {
	if from == nil || to == nil {
		return fmt.Errorf("additive: LDEBatch with a nil subspace: %w", domain.ErrMismatch)
	}
	if from.Dim() > to.Dim() {
		return fmt.Errorf("additive: LDEBatch from dimension %d to smaller dimension %d: %w", from.Dim(), to.Dim(), domain.ErrMismatch)
	}
	if _, err := t.plan(from); err != nil {
		return fmt.Errorf("additive: LDEBatch: %w", err)
	}
	if _, err := t.plan(to); err != nil {
		return fmt.Errorf("additive: LDEBatch: %w", err)
	}
	return t.hostRun("LDEBatch", dst, src, from.Size(), to.Size(), from.Size(), false,
		func(s *gpu.Stream, out, in *gpu.Buffer[gf64.Element], cols int) error {
			if err := t.LDE(s, out, in, from, to); err != nil {
				return err
			}
			if then != nil {
				return then(s, out)
			}
			return nil
		})
}

// The host forms of the in-place transforms: every column of cols (each
// s.Size() elements) is transformed in place, through pinned memory.

// FFTHost runs FFT on host columns.
func (t *Transforms) FFTHost(s *domain.Subspace, cols [][]gf64.Element) error {
	return t.hostInPlace("FFTHost", s, cols, t.FFT)
}

// IFFTHost runs IFFT on host columns.
func (t *Transforms) IFFTHost(s *domain.Subspace, cols [][]gf64.Element) error {
	return t.hostInPlace("IFFTHost", s, cols, t.IFFT)
}

// NovelFFTHost runs NovelFFT on host columns.
func (t *Transforms) NovelFFTHost(s *domain.Subspace, cols [][]gf64.Element) error {
	return t.hostInPlace("NovelFFTHost", s, cols, t.NovelFFT)
}

// NovelIFFTHost runs NovelIFFT on host columns.
func (t *Transforms) NovelIFFTHost(s *domain.Subspace, cols [][]gf64.Element) error {
	return t.hostInPlace("NovelIFFTHost", s, cols, t.NovelIFFT)
}

func (t *Transforms) hostInPlace(op string, s *domain.Subspace, cols [][]gf64.Element,
	f func(*gpu.Stream, *domain.Subspace, *gpu.Buffer[gf64.Element]) error) error {
	if _, err := t.plan(s); err != nil {
		return fmt.Errorf("additive: %s: %w", op, err)
	}
	return t.hostRun(op, cols, cols, s.Size(), s.Size(), 0, true,
		func(st *gpu.Stream, out, in *gpu.Buffer[gf64.Element], n int) error { return f(st, s, out) })
}
