package prover

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Several GPUs: see the package documentation. The encoder of WithGPUs is
// one single-GPU encoder per device for the LDEs, and the hashing chain
// across them (multi_commit.go).

// WithGPUs runs the transforms and the commitment on several open devices
// (gpu.Open, one Device per GPU, or several Device values opened on one
// ordinal, which share that GPU: the same code, for tests on one GPU); the
// caller keeps ownership and closes them after the encoder. A trace's
// columns are split into contiguous runs, one per device in the order
// given, as evenly as they go (the first cols mod len(devs) devices take
// one more column; a trace of fewer columns than devices uses the first
// ones). Each device computes its columns' LDE and keeps it (Commit), the
// rows' hash states pass from device to device (see the package
// documentation, "Several GPUs"), and the devices share the subtrees.
//
// Commit's results (root, Open, LDE, Combine) equal WithGPU's and the
// CPU's, bit for bit. Combine adds the devices' partial combinations on the
// first device, where CombineDevice's buffer lives; DeviceLDE is not
// available when the LDE is spread over devices (DeviceParts gives each
// device's columns). CommitInto encodes on all the devices and hashes its
// host LDE on the first one; CommitLDE hashes on the first one. The device
// budget (WithDeviceBudget) applies to each device; Device values that share
// a GPU share its memory too. A BinaryDomains function (WithBinaryDomains)
// is called from the devices' goroutines at the same time; a Source that is
// not a Trace, PinnedTrace or DeviceTrace is read by one device at a time.
// A DeviceTrace is read where it is by its own device and through the host
// by the others.
//
// A nil device (a failed Open), the same Device twice, or WithGPU as well
// is an error wrapping ErrConfig; New returns an error wrapping
// ErrUnavailable, naming the device, for a device that is closed or whose
// kernels do not build. New joins the GPUs with peer access
// (gpu.Device.EnablePeerAccess) where they have it.
func WithGPUs(devs ...*gpu.Device) Option {
	return func(c *config) error {
		if len(devs) == 0 {
			return fmt.Errorf("prover: WithGPUs with no device: %w", ErrConfig)
		}
		for i, d := range devs {
			if d == nil {
				return fmt.Errorf("prover: WithGPUs: device %d is nil (did its gpu.Open fail?): %w", i, ErrConfig)
			}
			for j := range i {
				if devs[j] == d {
					return fmt.Errorf("prover: WithGPUs: device %d is device %d again (open the GPU once for each logical device): %w", i, j, ErrConfig)
				}
			}
		}
		c.gpus = append([]*gpu.Device(nil), devs...)
		return nil
	}
}

// WithDeviceLoss makes New go on without the devices of WithGPUs that
// cannot run (closed, failing, or whose kernels do not build): each is
// left out and notice is called, before New returns, with its index in
// WithGPUs's list and the error that New would have returned, and the
// encoder runs on the others (Device names them). Without it such a device
// is New's error; New fails too when no device is left. The results do not
// depend on how many devices take part, so the commitments of the
// remaining devices equal those of all of them, bit for bit.
//
// A device that dies after New makes Commit and the other calls fail with
// an error wrapping the device's (gpu.ErrClosed for a closed Device): the
// caller that chooses to go on closes the encoder and calls New again with
// the same devices and WithDeviceLoss, which leaves the dead one out. A
// panic in notice is recovered and returned as New's error.
func WithDeviceLoss(notice func(device int, err error)) Option {
	return func(c *config) error {
		if notice == nil {
			return fmt.Errorf("prover: WithDeviceLoss with a nil notice: %w", ErrConfig)
		}
		c.lost = notice
		return nil
	}
}

// notifyLost calls notice for device i, its panic an error.
func notifyLost(notice func(int, error), i int, cause error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("prover: WithDeviceLoss: the notice for device %d panicked: %v: %w", i, r, ErrConfig)
		}
	}()
	notice(i, cause)
	return nil
}

// multiGPU is the encoder of WithGPUs: one single-GPU encoder per device
// for the LDEs, and the hashing chain across them.
type multiGPU[E Element] struct {
	cfg    config
	encs   []Encoder[E]
	cores  []*core[E]
	name   string
	device string

	repMu sync.Mutex // one progress report at a time

	mu     sync.Mutex      // held while a commitment is hashed; guards hashes
	hashes []*multiHash[E] // per device, kept for the next commitment of that shape
}

// The multi-GPU backends, one per field.
var (
	_ Encoder[gf64.Element]       = (*multiGPU[gf64.Element])(nil)
	_ Encoder[goldilocks.Element] = (*multiGPU[goldilocks.Element])(nil)
	_ Encoder[babybear.Element]   = (*multiGPU[babybear.Element])(nil)
	_ Encoder[koalabear.Element]  = (*multiGPU[koalabear.Element])(nil)
	_ Encoder[fr.Element]         = (*multiGPU[fr.Element])(nil)
)

// base gives the multi-GPU encoder a backend's shared part.
func (c *core[E]) base() *core[E] { return c }

func newMultiGPU[E Element](cfg config) (_ Encoder[E], err error) {
	if cfg.gpu != nil {
		return nil, fmt.Errorf("prover: WithGPU and WithGPUs together: %w", ErrConfig)
	}
	m := &multiGPU[E]{cfg: cfg, name: FieldOf[E]().String() + "/gpus"}
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	var names []string
	var live []*gpu.Device
	for i, d := range cfg.gpus {
		err := d.Synchronize()
		if err != nil {
			err = fmt.Errorf("prover: WithGPUs: device %d: %w: %w", i, ErrUnavailable, err)
		}
		var enc Encoder[E]
		if err == nil {
			pc := cfg
			pc.gpu, pc.gpus, pc.progress, pc.lost = d, nil, nil, nil
			if enc, err = gpuBackend[E](pc); err != nil {
				err = fmt.Errorf("prover: WithGPUs: device %d: %w", i, err)
			}
		}
		if err != nil {
			if cfg.lost == nil {
				return nil, err
			}
			if err := notifyLost(cfg.lost, i, err); err != nil {
				return nil, err
			}
			continue
		}
		m.encs = append(m.encs, enc)
		m.cores = append(m.cores, enc.(interface{ base() *core[E] }).base())
		names = append(names, fmt.Sprintf("%s (ordinal %d)", d.Info().Name, d.Info().Ordinal))
		live = append(live, d)
	}
	if len(live) == 0 {
		return nil, fmt.Errorf("prover: WithGPUs: none of the %d devices can run: %w", len(cfg.gpus), ErrUnavailable)
	}
	cfg.gpus, m.cfg.gpus = live, live
	for i, a := range cfg.gpus {
		for j, b := range cfg.gpus {
			if i == j {
				continue
			}
			if err := a.EnablePeerAccess(b); err != nil && !errors.Is(err, gpu.ErrNoPeerAccess) {
				return nil, fmt.Errorf("prover: WithGPUs: peer access from device %d to %d: %w: %w", i, j, ErrUnavailable, err)
			}
		}
	}
	m.device = fmt.Sprintf("%d GPUs: %s", len(names), strings.Join(names, ", "))
	return m, nil
}

func (m *multiGPU[E]) Name() string   { return m.name }
func (m *multiGPU[E]) Field() Field   { return FieldOf[E]() }
func (m *multiGPU[E]) Device() string { return m.device }
func (m *multiGPU[E]) Blowup() int    { return m.cfg.blowup }

func (m *multiGPU[E]) Close() error {
	m.mu.Lock()
	var errs []error
	for _, h := range m.hashes {
		errs = append(errs, h.close())
	}
	m.hashes = nil
	m.mu.Unlock()
	for _, e := range m.encs {
		errs = append(errs, e.Close())
	}
	m.encs, m.cores = nil, nil
	return errors.Join(errs...)
}

func (m *multiGPU[E]) DeviceMemory() DeviceMemory {
	var dm DeviceMemory
	for _, c := range m.cores {
		d := c.DeviceMemory()
		dm.Budget += d.Budget
		dm.InUse += d.InUse
	}
	return dm
}

func (m *multiGPU[E]) report(phase string, done, total int) {
	if m.cfg.progress != nil {
		m.repMu.Lock()
		defer m.repMu.Unlock()
		m.cfg.progress(Progress{Phase: phase, Done: done, Total: total})
	}
}

// ready returns an error after Close.
func (m *multiGPU[E]) ready() error {
	if m.cores == nil {
		return fmt.Errorf("prover: the encoder is closed: %w", ErrUnavailable)
	}
	return nil
}

// splitColumns splits cols columns over up to devices devices: device i
// takes columns first[i] … first[i+1]−1, cols/devices of them and one more
// for the first cols mod devices; with fewer columns than devices, the
// first cols devices take one each. len(first) − 1 devices take part.
func splitColumns(cols, devices int) (first []int) {
	d := min(cols, devices)
	first = make([]int, d+1)
	for i := range d {
		n := cols / d
		if i < cols%d {
			n++
		}
		first[i+1] = first[i] + n
	}
	return first
}

// hashBlocks is the number of row blocks that the hashing of n rows over d
// devices is cut into: 1 on one device; else the least power of two of at
// least 4·d (at most 32), fewer where a block would have less than 4 rows.
// The devices hash the blocks as a pipeline of blocks + d − 1 steps.
func hashBlocks(n, d int) int {
	if d <= 1 {
		return 1
	}
	b := 1
	for b < 4*d && b < 32 && n/(2*b) >= 4 {
		b *= 2
	}
	return b
}

// eachDevice runs f(0) … f(n−1) on a goroutine each and returns the error
// of the first device (in order) that failed, nil when none did. A panic in
// f (a caller's Source or BinaryDomains function runs there) becomes that
// device's error instead of ending the process.
func eachDevice(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					errs[i] = fmt.Errorf("prover: device %d of %d: panic (in a Source, a BinaryDomains function or the library): %v", i, n, r)
				}
			}()
			errs[i] = f(i)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// columnWindow is columns first … first+cols−1 of a source, read under mu
// (one device's goroutine reads at a time: a caller's Source need not be
// safe for concurrent use).
type columnWindow[E Element] struct {
	src                  Source[E]
	logRows, first, cols int
	mu                   *sync.Mutex
}

func (w columnWindow[E]) Shape() (int, int, error) { return w.logRows, w.cols, nil }

func (w columnWindow[E]) ReadColumns(first int, dst [][]E) error {
	if first < 0 || first+len(dst) > w.cols {
		return fmt.Errorf("prover: columns %d..%d of a window of %d: %w", first, first+len(dst)-1, w.cols, ErrIndex)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.src.ReadColumns(w.first+first, dst); err != nil {
		return fmt.Errorf("columns %d..%d of the trace: %w", w.first+first, w.first+first+len(dst)-1, err)
	}
	return nil
}

// window returns columns lo … hi−1 of src as a source of its own: a part of
// a Trace, PinnedTrace or DeviceTrace is one of those (their fast paths
// stay), any other source is read through a columnWindow under mu.
func window[E Element](src Source[E], logRows, lo, hi int, mu *sync.Mutex) Source[E] {
	rows := 1 << logRows
	switch s := src.(type) {
	case Trace[E]:
		return s[lo:hi:hi]
	case PinnedTrace[E]:
		if v, err := s.Columns.View(lo*rows, (hi-lo)*rows); err == nil {
			return PinnedTrace[E]{Columns: v, LogRows: s.LogRows}
		}
	case DeviceTrace[E]:
		if v, err := s.Columns.View(lo*rows, (hi-lo)*rows); err == nil {
			return DeviceTrace[E]{Columns: v, LogRows: s.LogRows}
		}
	}
	return columnWindow[E]{src: src, logRows: logRows, first: lo, cols: hi - lo, mu: mu}
}

// encodeInto computes the LDE of src into lde, each device its columns,
// at once.
func (m *multiGPU[E]) encodeInto(lde [][]E, src Source[E], logRows, cols int) error {
	first := splitColumns(cols, len(m.cores))
	var mu sync.Mutex
	m.report("encode", 0, cols)
	err := eachDevice(len(first)-1, func(i int) error {
		lo, hi := first[i], first[i+1]
		if err := m.cores[i].encode(lde[lo:hi], window(src, logRows, lo, hi, &mu), logRows, hi-lo); err != nil {
			return fmt.Errorf("prover: device %d (columns %d..%d): %w", i, lo, hi-1, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	m.report("encode", cols, cols)
	return nil
}

func (m *multiGPU[E]) Encode(src Source[E]) ([][]E, error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	logRows, cols, err := m.cores[0].shape(src)
	if err != nil {
		return nil, err
	}
	lde := newLDE[E](m.cfg.blowup<<logRows, cols)
	if err := m.encodeInto(lde, src, logRows, cols); err != nil {
		return nil, err
	}
	return lde, nil
}

func (m *multiGPU[E]) EncodeInto(dst [][]E, src Source[E]) error {
	if err := m.ready(); err != nil {
		return err
	}
	logRows, cols, err := m.cores[0].checkInto("EncodeInto", dst, src)
	if err != nil {
		return err
	}
	return m.encodeInto(dst, src, logRows, cols)
}

func (m *multiGPU[E]) Commit(src Source[E]) (*Commitment[E], error) {
	t0 := time.Now()
	if err := m.ready(); err != nil {
		return nil, err
	}
	logRows, cols, err := m.cores[0].shape(src)
	if err != nil {
		return nil, err
	}
	why := "the tree of a hash other than the default is built on the CPU, from an LDE in host memory"
	if m.cores[0].devTreeOK() {
		cm, reason, err := m.commitResident(src, logRows, cols, t0)
		if cm != nil || err != nil {
			return cm, err
		}
		why = reason
		m.report("fallback", 0, 0)
	}
	cm, err := m.commitInto(newLDE[E](m.cfg.blowup<<logRows, cols), src, logRows, cols, t0)
	if cm != nil {
		cm.why = why
	}
	return cm, err
}

func (m *multiGPU[E]) CommitInto(dst [][]E, src Source[E]) (*Commitment[E], error) {
	t0 := time.Now()
	if err := m.ready(); err != nil {
		return nil, err
	}
	logRows, cols, err := m.cores[0].checkInto("CommitInto", dst, src)
	if err != nil {
		return nil, err
	}
	return m.commitInto(dst, src, logRows, cols, t0)
}

// commitInto encodes src into lde on all the devices and commits to it.
func (m *multiGPU[E]) commitInto(lde [][]E, src Source[E], logRows, cols int, t0 time.Time) (*Commitment[E], error) {
	if err := m.encodeInto(lde, src, logRows, cols); err != nil {
		return nil, err
	}
	t1 := time.Now()
	t, err := m.hostTree(lde)
	if err != nil {
		return nil, err
	}
	return newHostCommitment(lde, t, Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)}).withCode(&m.cfg), nil
}

// hostTree builds the tree of a host LDE: hashed on the first device where
// it can be, else on the CPU.
func (m *multiGPU[E]) hostTree(lde [][]E) (*merkle.Tree[E], error) {
	var pf progressFunc
	if m.cfg.progress != nil {
		pf = func(done, total int) { m.report("commit", done, total) }
	}
	if m.cores[0].devTreeOK() && len(lde[0]) > 1 { // one row: the root is the leaf, hashed here
		t, err := m.cores[0].commitLDEDev(lde)
		if err != nil {
			return nil, err
		}
		if t != nil {
			if pf != nil {
				pf(len(lde[0]), len(lde[0]))
			}
			return t, nil
		}
	}
	return buildTree(lde, &m.cfg, pf)
}

func (m *multiGPU[E]) CommitLDE(lde [][]E) (*Commitment[E], error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	if _, _, err := Trace[E](lde).Shape(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	t, err := m.hostTree(lde)
	if err != nil {
		return nil, err
	}
	return newHostCommitment(lde, t, Timings{Commit: time.Since(t0)}).withCode(&m.cfg), nil
}

// CommitDeviceLDE copies the LDE to host memory and commits to it as
// CommitLDE does: the commitment of several devices joins subtrees that
// Commit builds on each device from the columns it computed there.
func (m *multiGPU[E]) CommitDeviceLDE(lde *gpu.Buffer[E], cols int) (*Commitment[E], error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	rows, err := deviceLDEShape("CommitDeviceLDE", lde, cols, m.cfg.blowup)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	host, err := downloadLDE(lde, cols, rows)
	if err != nil {
		return nil, err
	}
	cm, err := m.CommitLDE(host)
	if cm != nil {
		cm.why = "an encoder of several devices commits to a device LDE from host memory"
		cm.Timings.Commit = time.Since(t0)
	}
	return cm, err
}

func (m *multiGPU[E]) Prepare(logRows, cols int) error {
	if logRows < 0 || logRows > MaxLogRows || cols <= 0 {
		return fmt.Errorf("prover: Prepare for 2^%d rows × %d columns: %w", logRows, cols, ErrShape)
	}
	cm, err := m.Commit(zeroSource[E]{logRows, cols})
	if err != nil {
		return err
	}
	return cm.Close()
}

// DeviceColumns is a run of a commitment's LDE columns in one device's
// memory.
type DeviceColumns[E Element] struct {
	// First is the index of the first column.
	First int
	// Columns holds columns First, First+1, … end to end, Rows() elements
	// each, on Columns.Device().
	Columns *gpu.Buffer[E]
}

// DeviceParts returns where a commitment kept on the device holds its LDE:
// one run of columns per device, in column order (a single run for a
// commitment on one GPU, DeviceLDE's buffer). The buffers stay the
// commitment's, as DeviceLDE's. A commitment in host memory returns an
// error wrapping ErrUnavailable.
func (c *Commitment[E]) DeviceParts() ([]DeviceColumns[E], error) {
	if _, err := c.hostLDE("DeviceParts"); err != nil {
		return nil, err
	}
	switch st := c.dev.(type) {
	case *devStore[E]:
		v, err := st.view()
		if err != nil {
			return nil, err
		}
		return []DeviceColumns[E]{{First: 0, Columns: v}}, nil
	case *multiStore[E]:
		return st.parts()
	}
	return nil, fmt.Errorf("prover: DeviceParts: the commitment is in host memory: %w", ErrUnavailable)
}

// one returns E's multiplicative identity.
func one[E Element]() E {
	var x E
	switch p := any(&x).(type) {
	case *gf64.Element:
		*p = 1
	case *goldilocks.Element:
		p.SetOne()
	case *babybear.Element:
		p.SetOne()
	case *koalabear.Element:
		p.SetOne()
	case *fr.Element:
		p.SetOne()
	}
	return x
}
