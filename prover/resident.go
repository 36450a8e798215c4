package prover

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/fieldvec"
	"github.com/gfpoly/gfpoly/gpu/gfvec"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Commitments kept on the device. A GPU encoder's Commit computes the LDE
// into one device buffer (columns end to end), hashes each group of columns
// into the rows' SHA-256 states as soon as its LDE is there, builds the tree
// in a second device buffer and brings back only the root. Open gathers the
// rows and digests it needs from there (gpu/rowhash), Combine runs on the
// device, and LDE copies the whole LDE to the host only when it is called.
// What the commitments keep counts against the encoder's device budget
// (WithDeviceBudget) until Close.

// ErrClosed is returned by a commitment's methods after Close.
var ErrClosed = errors.New("prover: commitment closed")

// DeviceMemory is what an encoder's commitments hold in device memory.
type DeviceMemory struct {
	// Budget is the most that the LDEs and trees of commitments kept on the
	// device may take together (WithDeviceBudget); 0 for a CPU encoder.
	Budget int64
	// InUse is what the encoder's open commitments hold now.
	InUse int64
}

// WithDeviceBudget sets the device memory, in bytes, that a GPU encoder's
// commitments may keep (their LDEs and Merkle trees, until Close). A Commit
// whose LDE and tree would pass it is made as without device residency:
// the LDE is copied to host memory and the commitment says why
// (Commitment.Resident). The default is three quarters of the device's
// memory. fri.Open on commitments kept on the device draws its layers,
// their trees and a batch's combination from the same budget (the
// encoder of the first batch's commitment) while it runs, and runs on the
// host, Proof.Ran saying why, when they do not fit. Working memory that a
// commitment uses only while it is made (the
// rows' hash states, 96 bytes a row; staging for two groups of columns;
// transform scratch) is not counted, nor the buffers of the last commitment
// closed, which the encoder keeps for its next Commit of the same shape (a
// Commit of another shape frees them first; the encoder's Close frees
// them). A CPU encoder ignores the budget.
func WithDeviceBudget(bytes int64) Option {
	return func(c *config) error {
		if bytes < 0 {
			return fmt.Errorf("prover: a device budget of %d bytes: %w", bytes, ErrConfig)
		}
		c.devBudget = bytes
		return nil
	}
}

// devOps is what a GPU backend gives the resident pipeline.
type devOps[E Element] interface {
	// devBegin readies the backend's tables for traces of 2^logRows rows
	// and holds them until devEnd; devLDE is called in between.
	devBegin(logRows int) error
	devEnd()
	// devLDE queues on s the LDE of the columns held end to end in src
	// (2^logRows elements each) into dst (Blowup()·2^logRows each).
	devLDE(s *gpu.Stream, dst, src *gpu.Buffer[E], logRows int) error
	// devCombine queues on s dst[i] = Σ_j alpha[j]·cols[j·dst.Len() + i].
	devCombine(s *gpu.Stream, dst, cols *gpu.Buffer[E], alpha []E) error
}

// resident is an encoder's state for commitments kept on the device.
type resident[E Element] struct {
	dev    *gpu.Device
	ops    devOps[E]
	budget int64
	used   atomic.Int64

	mu    sync.Mutex // held while a commitment is made; guards slots
	slots [2]resSlot[E]

	// The device buffers of the last commitment closed, kept for the next
	// one of the same shape: allocating and freeing a buffer of a GiB costs
	// milliseconds on every commitment, tens of them once peer access
	// (several GPUs) maps each allocation into the other devices.
	spareMu    sync.Mutex // guards the spares and closed
	spareLDE   *gpu.Buffer[E]
	spareNodes *gpu.Buffer[byte]
	closed     bool // the encoder is closed: nothing is kept

	// The GF(2^128) kernels of CombineExt and Evaluate (ext_gpu.go),
	// loaded on first use.
	g128Once sync.Once
	g128     *gfvec.GF128
	g128Err  error

	// The element-wise kernels (the sum of several devices' partial
	// combinations), loaded on first use.
	fvOnce sync.Once
	fv     *fieldvec.Vec[E]
	fvErr  error
}

// resSlot is one stream of the upload of a trace: pinned and device
// buffers for a group of columns, and an event recorded after its upload.
type resSlot[E Element] struct {
	s    *gpu.Stream
	ev   *gpu.Event
	done *gpu.Event // recorded after each of the slot's LDEs
	up   *gpu.HostBuffer[E]
	src  *gpu.Buffer[E]
	busy bool // ev was recorded for an upload that may be in flight
}

// resGroupBytes bounds a group of columns of the trace (per slot).
const resGroupBytes = 32 << 20

func newResident[E Element](dev *gpu.Device, ops devOps[E], budget int64) *resident[E] {
	if budget == 0 {
		budget = int64(dev.Info().TotalMemory / 4 * 3)
	}
	return &resident[E]{dev: dev, ops: ops, budget: budget}
}

// reserve takes n bytes of the budget; false when they do not fit.
func (r *resident[E]) reserve(n int64) bool {
	for {
		u := r.used.Load()
		if u+n > r.budget {
			return false
		}
		if r.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// takeSpare returns a buffer of n values for a commitment: *spare (one of
// r's) when it has that length, else a new one (a spare of another length
// is freed first).
func takeSpare[E Element, T any](r *resident[E], spare **gpu.Buffer[T], n int) (*gpu.Buffer[T], error) {
	r.spareMu.Lock()
	b := *spare
	*spare = nil
	r.spareMu.Unlock()
	if b != nil {
		if b.Len() == n {
			return b, nil
		}
		if err := b.Free(); err != nil {
			return nil, err
		}
	}
	return gpu.Alloc[T](r.dev, n)
}

// keepSpare makes b's memory *spare (b and its views act as freed from
// then on), freeing the spare before it; once the encoder is closed it
// frees b. It first waits for the work queued on b's device, as freeing
// does, so that no kernel still reads the memory when the next commitment
// writes it.
func keepSpare[E Element, T any](r *resident[E], spare **gpu.Buffer[T], b *gpu.Buffer[T]) error {
	if err := b.Device().Synchronize(); err != nil {
		if errors.Is(err, gpu.ErrClosed) {
			return b.Free() // the device's Close freed it
		}
		return errors.Join(err, b.Free())
	}
	r.spareMu.Lock()
	defer r.spareMu.Unlock()
	if r.closed {
		return b.Free()
	}
	nb, err := b.Reclaim()
	if err != nil {
		return nil // freed before: nothing to keep
	}
	old := *spare
	*spare = nb
	if old != nil {
		return old.Free()
	}
	return nil
}

func (r *resident[E]) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for i := range r.slots {
		errs = append(errs, r.slots[i].free())
	}
	r.spareMu.Lock()
	r.closed = true
	if r.spareLDE != nil {
		errs = append(errs, r.spareLDE.Free())
	}
	if r.spareNodes != nil {
		errs = append(errs, r.spareNodes.Free())
	}
	r.spareLDE, r.spareNodes = nil, nil
	r.spareMu.Unlock()
	return errors.Join(errs...)
}

func (sl *resSlot[E]) free() error {
	var errs []error
	if sl.s != nil {
		errs = append(errs, sl.s.Synchronize(), sl.s.Close())
	}
	for _, ev := range []*gpu.Event{sl.ev, sl.done} {
		if ev != nil {
			errs = append(errs, ev.Close())
		}
	}
	if sl.up != nil {
		errs = append(errs, sl.up.Free())
	}
	if sl.src != nil {
		errs = append(errs, sl.src.Free())
	}
	*sl = resSlot[E]{}
	return errors.Join(errs...)
}

// ready makes sure the slot has a stream, an event and buffers for n
// elements, and that its last upload is done (its pinned memory is free).
func (sl *resSlot[E]) ready(dev *gpu.Device, n int) error {
	var err error
	if sl.s == nil {
		if sl.s, err = dev.NewStream(); err != nil {
			return err
		}
	}
	for _, ev := range []**gpu.Event{&sl.ev, &sl.done} {
		if *ev == nil {
			if *ev, err = dev.NewEvent(); err != nil {
				return err
			}
		}
	}
	if sl.busy {
		if err := sl.ev.Synchronize(); err != nil {
			return err
		}
		sl.busy = false
	}
	if sl.up == nil || sl.up.Len() < n {
		if err := sl.s.Synchronize(); err != nil {
			return err
		}
		if sl.up != nil {
			sl.up.Free()
			sl.src.Free()
			sl.up, sl.src = nil, nil
		}
		if sl.up, err = gpu.AllocHost[E](dev, n); err != nil {
			return err
		}
		if sl.src, err = gpu.Alloc[E](dev, n); err != nil {
			sl.up.Free()
			sl.up = nil
			return err
		}
	}
	return nil
}

// devStore is a commitment's LDE and Merkle tree in device memory.
type devStore[E Element] struct {
	r     *resident[E]
	mu    sync.Mutex // one gather at a time; guards the buffers
	lde   *gpu.Buffer[E]
	nodes *gpu.Buffer[byte] // the levels above the leaves, as rowhash writes them
	bytes int64             // what the budget counts for it
	rows  int
}

func (st *devStore[E]) free() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	var errs []error
	if st.lde != nil {
		errs = append(errs, keepSpare(st.r, &st.r.spareLDE, st.lde))
	}
	if st.nodes != nil {
		errs = append(errs, keepSpare(st.r, &st.r.spareNodes, st.nodes))
	}
	if st.lde != nil || st.nodes != nil || st.bytes != 0 {
		st.r.used.Add(-st.bytes)
	}
	st.lde, st.nodes, st.bytes = nil, nil, 0
	return errors.Join(errs...)
}

func elemSize[E Element]() int {
	var z E
	return int(unsafe.Sizeof(z))
}

// commitResident makes a commitment kept on the device. It returns a
// reason and no commitment where the device cannot keep it (budget,
// memory), for the caller to fall back to a host LDE.
func (c *core[E]) commitResident(src Source[E], logRows, cols int, t0 time.Time) (*Commitment[E], string, error) {
	return c.keepResident(c.cfg.blowup<<logRows, cols, t0, func(st *devStore[E], h *devHash[E]) error {
		return c.fillResident(st, h, src, logRows, cols)
	})
}

// keepResident makes a commitment kept on the device to an LDE of n rows
// and cols columns that fill writes into st.lde and absorbs into h. It
// returns a reason and no commitment where the device cannot keep it.
func (c *core[E]) keepResident(n, cols int, t0 time.Time, fill func(st *devStore[E], h *devHash[E]) error) (*Commitment[E], string, error) {
	r := c.res
	need := int64(cols)*int64(n)*int64(elemSize[E]()) + int64(n-1)*rowhash.DigestSize
	if !r.reserve(need) {
		return nil, fmt.Sprintf("the LDE and its tree (%s) do not fit the device budget (%s, %s in use)",
			mib(need), mib(r.budget), mib(r.used.Load())), nil
	}
	st := &devStore[E]{r: r, bytes: need, rows: n}
	kept := false
	defer func() {
		if !kept {
			st.free()
		}
	}()
	oom := func(what string, err error) (*Commitment[E], string, error) {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return nil, fmt.Sprintf("the device is out of memory for %s (%v)", what, err), nil
		}
		return nil, "", fmt.Errorf("prover: %v GPU commitment, %s: %w", FieldOf[E](), what, err)
	}
	var err error
	if st.lde, err = takeSpare(r, &r.spareLDE, cols*n); err != nil {
		return oom("the LDE", err)
	}
	if st.nodes, err = takeSpare(r, &r.spareNodes, (n-1)*rowhash.DigestSize); err != nil {
		return oom("the Merkle tree", err)
	}
	h, done, err := c.devHashFor(n)
	if err != nil {
		return nil, "", err
	}
	if h == nil {
		return nil, "the device is out of memory for the rows' hash states", nil
	}
	defer done()
	if err := fill(st, h); err != nil {
		if errors.Is(err, gpu.ErrOutOfMemory) {
			return oom("the LDE's working memory", err)
		}
		return nil, "", err // the source's, the hash's, the device's: as they are
	}
	t1 := time.Now()
	if err := h.s.Wait(h.ev); err != nil {
		return nil, "", err
	}
	if err := h.rh.Tree(h.s, st.nodes); err != nil {
		return oom("the Merkle tree", err)
	}
	if err := h.s.Synchronize(); err != nil {
		return nil, "", fmt.Errorf("prover: GPU Merkle tree: %w", err)
	}
	top, err := st.nodes.View(st.nodes.Len()-rowhash.DigestSize, rowhash.DigestSize)
	if err != nil {
		return nil, "", err
	}
	root := make([]byte, rowhash.DigestSize)
	if err := top.Download(root); err != nil {
		return nil, "", fmt.Errorf("prover: GPU Merkle root: %w", err)
	}
	c.report("commit", n, n)
	kept = true
	return &Commitment[E]{
		dev:     st,
		rows:    n,
		cols:    cols,
		root:    root,
		hs:      c.cfg.hs,
		Timings: Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)},
		code:    codeOf(&c.cfg),
	}, "", nil
}

// fillResident computes the LDE of src into st.lde a group of columns at a
// time, two groups in flight on the two slots' streams, and absorbs each
// group's LDE into h (when not nil). It returns once the LDE is done.
func (c *core[E]) fillResident(st *devStore[E], h *devHash[E], src Source[E], logRows, cols int) (err error) {
	r := c.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.ops.devBegin(logRows); err != nil {
		return err
	}
	defer r.ops.devEnd()
	rows, n := 1<<logRows, st.rows
	defer func() {
		for i := range r.slots {
			if sl := &r.slots[i]; sl.s != nil {
				if e := sl.s.Synchronize(); e != nil && err == nil {
					err = e
				}
				sl.busy = false
			}
		}
	}()
	g := max(1, min(cols, resGroupBytes/(rows*elemSize[E]())))
	absorbed := 0 // columns whose LDE is in h
	dt, onDevice := src.(DeviceTrace[E])
	onDevice = onDevice && dt.Columns != nil && dt.Columns.Device() == r.dev
	pt, pinned := src.(PinnedTrace[E])
	tr, inMemory := src.(Trace[E])
	c.report("encode", 0, cols)
	for k, c0 := 0, 0; c0 < cols; k, c0 = k+1, c0+g {
		nc := min(g, cols-c0)
		sl := &r.slots[k%2]
		if err := sl.ready(r.dev, g*rows); err != nil {
			return err
		}
		var in *gpu.Buffer[E]
		switch {
		case onDevice:
			if in, err = dt.Columns.View(c0*rows, nc*rows); err != nil {
				return err
			}
		default:
			var up *gpu.HostBuffer[E]
			if pinned {
				up, err = pt.Columns.View(c0*rows, nc*rows)
			} else {
				up, err = sl.up.View(0, nc*rows)
			}
			if err != nil {
				return err
			}
			if !pinned && len(up.Slice()) < nc*rows {
				// Device.Close freed the staging under a kept slot.
				return fmt.Errorf("prover: the pinned staging of device %d: %w", r.dev.Info().Ordinal, gpu.ErrClosed)
			}
			switch {
			case pinned:
			case inMemory:
				copyToPinned(up.Slice(), tr[c0:c0+nc], rows)
			default:
				p := up.Slice()
				msgs := make([][]E, nc)
				for j := range msgs {
					msgs[j] = p[j*rows : (j+1)*rows : (j+1)*rows]
				}
				if err := src.ReadColumns(c0, msgs); err != nil {
					return fmt.Errorf("prover: reading columns %d..%d: %w: %w", c0, c0+nc-1, ErrSource, err)
				}
			}
			if in, err = sl.src.View(0, nc*rows); err != nil {
				return err
			}
			if err := in.UploadAsync(sl.s, up); err != nil {
				return fmt.Errorf("prover: GPU upload: %w", err)
			}
			if err := sl.ev.Record(sl.s); err != nil {
				return err
			}
			sl.busy = true
		}
		out, err := st.lde.View(c0*n, nc*n)
		if err != nil {
			return err
		}
		if err := r.ops.devLDE(sl.s, out, in, logRows); err != nil {
			return err
		}
		if h != nil {
			if err := absorbRun(st, h, sl, &r.slots[(k+1)%2], k, &absorbed, c0+nc, cols); err != nil {
				return fmt.Errorf("prover: GPU row hashing: %w", err)
			}
		}
		c.report("encode", c0+nc, cols)
	}
	return nil
}

// absorbRunWords is the least run of columns, in 32-bit words of a row,
// that a commitment's hash absorbs at once (the last run excepted): every
// absorb loads and stores each row's hash state (36 to 96 bytes), so runs
// of a few narrow columns would cost more in state than in data; runs end
// on whole SHA-256 blocks, where the state is smallest (36 bytes). One
// block a run keeps the hashing beside the transforms of the groups after
// it. (2^22 × 64 at blowup 4 on an H200, trace in pinned memory: BabyBear
// 50 → 34 ms, GF(2^64) 177 → 140 ms against an absorb of every group; runs
// of 32 words measured the same.)
const absorbRunWords = 16

// absorbRun absorbs into h the columns absorbed … done−1 of st's LDE once
// they make a run (absorbRunWords) or done is the last column, on sl's
// stream after the LDE of group k (sl's) and of group k−1 (other's); it
// records sl.done and advances absorbed.
func absorbRun[E Element](st *devStore[E], h *devHash[E], sl, other *resSlot[E], k int, absorbed *int, done, cols int) error {
	if err := sl.done.Record(sl.s); err != nil {
		return err
	}
	words := elemSize[E]() / 4
	if done < cols && ((done-*absorbed)*words < absorbRunWords || done*words%16 != 0) {
		return nil
	}
	if k > 0 {
		if err := sl.s.Wait(other.done); err != nil {
			return err
		}
	}
	run, err := st.lde.View(*absorbed*st.rows, (done-*absorbed)*st.rows)
	if err != nil {
		return err
	}
	*absorbed = done
	return h.absorb(sl.s, run)
}

// mib formats a byte count.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// DeviceMemory reports the encoder's device budget and what its open
// commitments hold (zero for a CPU encoder).
func (c *core[E]) DeviceMemory() DeviceMemory {
	if c.res == nil {
		return DeviceMemory{}
	}
	return DeviceMemory{Budget: c.res.budget, InUse: c.res.used.Load()}
}

// DeviceTrace is a trace whose columns are in device memory, column c at
// elements c·2^LogRows … (c+1)·2^LogRows − 1 of Columns: written there by
// the caller's own kernels, say. A GPU encoder on the same device reads it
// there, with no copy through the host; any other encoder reads it through
// the host (ReadColumns downloads). The encoder does not modify or free it;
// the caller's work writing it must be finished (its stream synchronized)
// before Commit.
type DeviceTrace[E Element] struct {
	Columns *gpu.Buffer[E]
	LogRows int
}

// Shape returns the trace's shape; a buffer that is not a whole number of
// columns of 2^LogRows elements is an error wrapping ErrShape.
func (t DeviceTrace[E]) Shape() (logRows, cols int, err error) {
	if t.Columns == nil {
		return 0, 0, fmt.Errorf("prover: DeviceTrace with no buffer: %w", ErrShape)
	}
	return deviceShape(t.LogRows, t.Columns.Len())
}

// ReadColumns downloads columns first … first+len(dst)−1 into dst.
func (t DeviceTrace[E]) ReadColumns(first int, dst [][]E) error {
	_, cols, err := t.Shape()
	if err != nil {
		return err
	}
	rows := 1 << t.LogRows
	if first < 0 || first+len(dst) > cols {
		return fmt.Errorf("prover: DeviceTrace: columns %d..%d of %d: %w", first, first+len(dst)-1, cols, ErrIndex)
	}
	for j, d := range dst {
		v, err := t.Columns.View((first+j)*rows, rows)
		if err != nil {
			return err
		}
		if len(d) != rows {
			return fmt.Errorf("prover: DeviceTrace: a destination of %d elements for a column of %d: %w", len(d), rows, ErrShape)
		}
		if err := v.Download(d); err != nil {
			return err
		}
	}
	return nil
}

// PinnedTrace is a trace whose columns are in pinned host memory (gpu.
// AllocHost), laid out as DeviceTrace's: a GPU encoder uploads it from
// there with no staging copy, and so does every device of WithGPUs
// (AllocHost's memory is pinned for all of them, whichever allocated it),
// which matters most there: the devices' staging copies from Go memory
// share the host's memory bandwidth. The encoder does not modify or free
// it.
type PinnedTrace[E Element] struct {
	Columns *gpu.HostBuffer[E]
	LogRows int
}

// Shape returns the trace's shape, as DeviceTrace.Shape.
func (t PinnedTrace[E]) Shape() (logRows, cols int, err error) {
	if t.Columns == nil {
		return 0, 0, fmt.Errorf("prover: PinnedTrace with no buffer: %w", ErrShape)
	}
	return deviceShape(t.LogRows, t.Columns.Len())
}

// ReadColumns copies columns first … first+len(dst)−1 into dst.
func (t PinnedTrace[E]) ReadColumns(first int, dst [][]E) error {
	_, cols, err := t.Shape()
	if err != nil {
		return err
	}
	rows := 1 << t.LogRows
	if first < 0 || first+len(dst) > cols {
		return fmt.Errorf("prover: PinnedTrace: columns %d..%d of %d: %w", first, first+len(dst)-1, cols, ErrIndex)
	}
	p := t.Columns.Slice()
	for j, d := range dst {
		if len(d) != rows {
			return fmt.Errorf("prover: PinnedTrace: a destination of %d elements for a column of %d: %w", len(d), rows, ErrShape)
		}
		copy(d, p[(first+j)*rows:(first+j+1)*rows])
	}
	return nil
}

func deviceShape(logRows, n int) (int, int, error) {
	if logRows < 0 || logRows > MaxLogRows {
		return 0, 0, fmt.Errorf("prover: 2^%d rows: %w", logRows, ErrShape)
	}
	rows := 1 << logRows
	if n == 0 || n%rows != 0 {
		return 0, 0, fmt.Errorf("prover: a buffer of %d elements is not a whole number of columns of 2^%d rows: %w", n, logRows, ErrShape)
	}
	return logRows, n / rows, nil
}

// deviceLDE is where a commitment kept on the device holds its LDE and
// tree: one device (devStore) or several (multiStore, multi.go).
type deviceLDE[E Element] interface {
	// open answers Open; hs is the commitment's hash.
	open(hs merkle.Hasher, indices []int) (*Opening[E], error)
	// copyOut copies the LDE into dst (columns of rows elements).
	copyOut(dst [][]E) error
	// combine runs the linear combination on the device into dst (nil: a
	// new buffer, returned).
	combine(dst *gpu.Buffer[E], alpha []E) (*gpu.Buffer[E], error)
	// view returns the whole LDE as one device buffer.
	view() (*gpu.Buffer[E], error)
	// withParts runs f on each device's columns with the store locked
	// (ext_gpu.go); op names the caller.
	withParts(op string, f func([]extPart[E]) error) error
	// reserve takes n bytes of the budget of the encoder whose device
	// runs an opening of the commitment (the first device), until release
	// is called; an error says why they do not fit.
	reserve(n int64) (release func(), err error)
	// free releases the device memory.
	free() error
}

// reserveDevice takes n bytes of the device budget of c's encoder for
// work on c's device (fri's opening): an error says why they do not fit,
// or that c is not kept on a device.
func (c *Commitment[E]) reserveDevice(n int64) (func(), error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, fmt.Errorf("prover: %w", ErrClosed)
	}
	if c.dev == nil {
		return nil, fmt.Errorf("prover: the commitment is in host memory: %w", ErrConfig)
	}
	return c.dev.reserve(n)
}

func (st *devStore[E]) reserve(n int64) (func(), error) {
	r := st.r
	if n < 0 || !r.reserve(n) {
		return nil, fmt.Errorf("prover: %s do not fit the device budget (%s, %s in use): %w",
			mib(n), mib(r.budget), mib(r.used.Load()), ErrUnavailable)
	}
	var once sync.Once
	return func() { once.Do(func() { r.used.Add(-n) }) }, nil
}

var _ deviceLDE[gf64.Element] = (*devStore[gf64.Element])(nil)

// open answers Open for a commitment kept on the device: the rows and
// their siblings (whose leaf digests the paths start with) and the digests
// above the leaves are gathered there.
func (st *devStore[E]) open(hs merkle.Hasher, indices []int) (*Opening[E], error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lde == nil {
		return nil, fmt.Errorf("prover: Open: %w", ErrClosed)
	}
	// One gather for the rows and the paths.
	g := rowhash.NewGather(st.lde.Device())
	rd, err := rowhash.AddOpening(g, st.lde, st.nodes, st.rows, indices)
	if err == nil {
		err = g.Run(nil)
	}
	var o *Opening[E]
	if err == nil {
		o, err = rd.Get(hs)
	}
	if err != nil {
		return nil, fmt.Errorf("prover: Open: %w", err)
	}
	return o, nil
}

// copyOut copies the LDE into dst (columns of rows elements).
func (st *devStore[E]) copyOut(dst [][]E) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lde == nil {
		return fmt.Errorf("prover: LDE: %w", ErrClosed)
	}
	for j, d := range dst {
		v, err := st.lde.View(j*st.rows, st.rows)
		if err != nil {
			return err
		}
		if err := v.Download(d); err != nil {
			return fmt.Errorf("prover: LDE: %w", err)
		}
	}
	return nil
}

// combine runs the linear combination on the device into dst (nil: a new
// buffer, returned).
func (st *devStore[E]) combine(dst *gpu.Buffer[E], alpha []E) (*gpu.Buffer[E], error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lde == nil {
		return nil, fmt.Errorf("prover: Combine: %w", ErrClosed)
	}
	out := dst
	if out == nil {
		var err error
		if out, err = gpu.Alloc[E](st.r.dev, st.rows); err != nil {
			return nil, fmt.Errorf("prover: Combine: %w", err)
		}
	} else if out.Len() != st.rows || out.Device() != st.r.dev {
		return nil, fmt.Errorf("prover: CombineDeviceInto: a buffer of %d elements for %d rows, or on another device: %w", out.Len(), st.rows, ErrShape)
	}
	if err := st.r.ops.devCombine(nil, out, st.lde, alpha); err != nil {
		if dst == nil {
			out.Free()
		}
		return nil, fmt.Errorf("prover: Combine on the device: %w", err)
	}
	return out, nil
}

// view returns a view of the whole LDE buffer.
func (st *devStore[E]) view() (*gpu.Buffer[E], error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lde == nil {
		return nil, fmt.Errorf("prover: DeviceLDE: %w", ErrClosed)
	}
	return st.lde.View(0, st.lde.Len())
}
