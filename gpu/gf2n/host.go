package gf2n

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/gpu"
)

// The host call: batches in Go slices go to the device in parts through
// pinned staging buffers, one set per stream, hostStreams streams in turn,
// so that one part's copies and product overlap the next part's staging.

const (
	hostStreams = 2
	// hostPartBytes is the size of one operand's part, bytes.
	hostPartBytes = 32 << 20
)

// hostState is the staging of MulVecHost, kept between calls.
type hostState struct {
	mu     sync.Mutex
	stages [hostStreams]*stage
	part   int // words of a part; 0: hostPartBytes (tests set it)
}

// stage is one stream with its pinned and device buffers, and the part it
// has in flight: words [lo, hi) of the batch.
type stage struct {
	s          *gpu.Stream
	hx, hy, hz *gpu.HostBuffer[uint64]
	dx, dy, dz *gpu.Buffer[uint64]
	lo, hi     int
	busy       bool
}

func (st *stage) free() error {
	var errs []error
	if st.s != nil {
		errs = append(errs, st.s.Close())
	}
	for _, h := range []*gpu.HostBuffer[uint64]{st.hx, st.hy, st.hz} {
		if h != nil {
			errs = append(errs, h.Free())
		}
	}
	for _, b := range []*gpu.Buffer[uint64]{st.dx, st.dy, st.dz} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	return errors.Join(errs...)
}

// newStage returns a stage for parts of words words.
func newStage(d *gpu.Device, words int) (st *stage, err error) {
	st = &stage{}
	defer func() {
		if err != nil {
			st.free()
			st = nil
		}
	}()
	if st.s, err = d.NewStream(); err != nil {
		return
	}
	for _, h := range []**gpu.HostBuffer[uint64]{&st.hx, &st.hy, &st.hz} {
		if *h, err = gpu.AllocHost[uint64](d, words); err != nil {
			return
		}
	}
	for _, b := range []**gpu.Buffer[uint64]{&st.dx, &st.dy, &st.dz} {
		if *b, err = gpu.Alloc[uint64](d, words); err != nil {
			return
		}
	}
	return st, nil
}

// MulVecHost sets z[i] = x[i]·y[i] for every element of the batch, like
// MulVec, on Go slices: the same length, a multiple of Words (else an error
// wrapping gpu.ErrLength, and nothing is written). z may be x or y exactly.
// The batch crosses to the device and back in parts of 32 MiB per operand
// through pinned staging buffers on two streams, so that copies and
// products overlap; the staging is kept for the next call until Close. Calls
// on one Multiplier run one at a time.
func (m *Multiplier) MulVecHost(z, x, y []uint64) error {
	if len(x) != len(z) || len(y) != len(z) {
		return fmt.Errorf("gf2n: MulVecHost: slices of %d, %d and %d words: %w", len(z), len(x), len(y), gpu.ErrLength)
	}
	w := m.f.Words()
	if len(z)%w != 0 {
		return fmt.Errorf("gf2n: MulVecHost: %d words is not a whole number of elements of GF(2^%d) (%d words each): %w", len(z), m.f.N(), w, gpu.ErrLength)
	}
	if len(z) == 0 {
		return nil
	}
	h := &m.host
	h.mu.Lock()
	defer h.mu.Unlock()
	part := h.part
	if part == 0 {
		part = max(hostPartBytes/8/w, 1) * w
	}
	part = min(part, len(z))
	for i, st := range h.stages {
		if st != nil && st.hx.Len() < part {
			if err := st.free(); err != nil {
				return err
			}
			h.stages[i], st = nil, nil
		}
		if st == nil {
			var err error
			if h.stages[i], err = newStage(m.d, part); err != nil {
				return fmt.Errorf("gf2n: MulVecHost: staging: %w", err)
			}
		}
	}

	// finish waits for a stage's part and, unless an error came before,
	// copies its product out.
	var errs []error
	finish := func(st *stage) error {
		st.busy = false
		if err := st.s.Synchronize(); err != nil || len(errs) > 0 {
			return err
		}
		hz := st.hz.Slice()
		if len(hz) < st.hi-st.lo {
			return fmt.Errorf("staging buffers freed (device closed?): %w", gpu.ErrClosed)
		}
		parallelCopy(z[st.lo:st.hi], hz[:st.hi-st.lo])
		return nil
	}
	// start stages words [lo, hi) and queues their copies and product.
	start := func(st *stage, lo, hi int) error {
		k := hi - lo
		hxs, hys := st.hx.Slice(), st.hy.Slice()
		if len(hxs) < k || len(hys) < k {
			return fmt.Errorf("staging buffers freed (device closed?): %w", gpu.ErrClosed)
		}
		parallelCopy(hxs[:k], x[lo:hi])
		parallelCopy(hys[:k], y[lo:hi])
		views := func(h *gpu.HostBuffer[uint64], b *gpu.Buffer[uint64]) (*gpu.HostBuffer[uint64], *gpu.Buffer[uint64], error) {
			hv, err := h.View(0, k)
			if err != nil {
				return nil, nil, err
			}
			bv, err := b.View(0, k)
			return hv, bv, err
		}
		hx, dx, err := views(st.hx, st.dx)
		if err != nil {
			return err
		}
		hy, dy, err := views(st.hy, st.dy)
		if err != nil {
			return err
		}
		hz, dz, err := views(st.hz, st.dz)
		if err != nil {
			return err
		}
		st.lo, st.hi, st.busy = lo, hi, true
		if err := dx.UploadAsync(st.s, hx); err != nil {
			return err
		}
		if err := dy.UploadAsync(st.s, hy); err != nil {
			return err
		}
		if err := m.MulVec(st.s, dz, dx, dy); err != nil {
			return err
		}
		return dz.DownloadAsync(st.s, hz)
	}

	parts := (len(z) + part - 1) / part
	for p := 0; p < parts+hostStreams; p++ {
		st := h.stages[p%hostStreams]
		if st.busy {
			if err := finish(st); err != nil {
				errs = append(errs, err)
			}
		}
		if p < parts && len(errs) == 0 {
			if err := start(st, p*part, min((p+1)*part, len(z))); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gf2n: MulVecHost: %w", err)
	}
	return nil
}

// Close frees MulVecHost's staging buffers and streams. The Multiplier
// stays usable (a later MulVecHost allocates them again); Device.Close
// frees them too.
func (m *Multiplier) Close() error {
	h := &m.host
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for i, st := range h.stages {
		if st != nil {
			errs = append(errs, st.free())
			h.stages[i] = nil
		}
	}
	return errors.Join(errs...)
}

// parallelCopy copies src to dst (same length) on all cores when it is
// large: staging through pinned memory is a copy the device cannot do.
func parallelCopy(dst, src []uint64) {
	const grain = 1 << 16
	w := min(runtime.GOMAXPROCS(0), len(src)/grain)
	if w <= 1 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	step := (len(src) + w - 1) / w
	for lo := 0; lo < len(src); lo += step {
		hi := min(lo+step, len(src))
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	wg.Wait()
}
