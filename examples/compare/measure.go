package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"time"

	"github.com/gfpoly/gfpoly/examples/internal/stark"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// spread is the summary of one time over the runs.
type spread struct {
	Median, Min, Max time.Duration
}

// summarize returns the median (the mean of the two middle values for an
// even count) and the extremes of samples, which it does not modify.
func summarize(samples []time.Duration) spread {
	if len(samples) == 0 {
		return spread{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	n := len(s)
	m := s[n/2]
	if n%2 == 0 {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	return spread{Median: m, Min: s[0], Max: s[n-1]}
}

// row is one field on one device, measured.
type row struct {
	name   string // "field/device", the encoder's Name
	field  fri.Field
	device string // "cpu" or "gpu"
	where  string // the encoder's Device: "cpu (2 goroutines)", a GPU's name
	degree int    // [X : E]
	rows   int    // trace rows
	cfg    fri.Config

	friBits, algBits float64 // stark.Security
	bits             int     // ⌊min(friBits, algBits)⌋

	commit, open, prove, verify []time.Duration // one per run
	proof                       []byte          // the last run's proof
	proofBytes                  int             // len(proof), the same every run

	heapPeak   uint64 // bytes; see the package documentation
	devicePeak int64  // bytes, −1 where devNote says why not
	devNote    string
}

func (r *row) commitS() spread { return summarize(r.commit) }
func (r *row) openS() spread   { return summarize(r.open) }
func (r *row) proveS() spread  { return summarize(r.prove) }
func (r *row) verifyS() spread { return summarize(r.verify) }

// measureAll measures every field of o on the CPU and on dev (nil: no GPU),
// CPU rows first. A row that cannot run (a field whose challenge field does
// not reach the target, no GPU backend, a trace too large for the field's
// domains) is reported in skipped with the reason, not as an error. cfg is
// the FRI Config the rows share (nil when no field has one).
func measureAll(o options, dev *gpu.Device) (rows []row, skipped []string, cfg *fri.Config, err error) {
	type target struct {
		device string
		opts   []prover.Option
		dev    *gpu.Device
	}
	var targets []target
	if o.device != "gpu" {
		targets = append(targets, target{device: "cpu"})
	}
	if dev != nil {
		targets = append(targets, target{device: "gpu", opts: []prover.Option{prover.WithGPU(dev)}, dev: dev})
	}
	cfgs := map[fri.Field]fri.Config{}
	for _, f := range o.fields {
		c, err := fri.NewConfig(f, o.bits, o.logBlowup)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%v: %v", f, err))
			continue
		}
		if cfg == nil {
			cfg = &c
		}
		if !sameParams(c, *cfg) {
			return nil, nil, nil, fmt.Errorf("%v: the preset's FRI parameters (%s) differ from the other rows' (%s)", f, describe(c), describe(*cfg))
		}
		cfgs[f] = c
	}
	for _, t := range targets {
		for _, f := range o.fields {
			c, ok := cfgs[f]
			if !ok {
				continue
			}
			r, err := measureRow(f, c, o, t.opts, t.dev)
			var skip *skipError
			if errors.As(err, &skip) {
				skipped = append(skipped, fmt.Sprintf("%v/%s: %v", f, t.device, skip.err))
				continue
			}
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%v/%s: %w", f, t.device, err)
			}
			r.device = t.device
			rows = append(rows, r)
		}
	}
	return rows, skipped, cfg, nil
}

// sameParams reports whether a and b make the same proofs' shape: the same
// code, folding, queries, grinding and target.
func sameParams(a, b fri.Config) bool {
	return a.LogBlowup == b.LogBlowup && a.Arity == b.Arity && a.LogFinalDegree == b.LogFinalDegree &&
		a.Queries == b.Queries && a.GrindingBits == b.GrindingBits && a.Bits == b.Bits
}

// skipError is a row that this machine or these parameters cannot run.
type skipError struct{ err error }

func (e *skipError) Error() string { return e.err.Error() }

// skippable reports whether err says the row cannot run here, rather than
// that something is broken.
func skippable(err error) bool {
	return errors.Is(err, prover.ErrUnavailable) || errors.Is(err, prover.ErrShape) ||
		errors.Is(err, fri.ErrParams) || errors.Is(err, gpu.ErrOutOfMemory)
}

// measureRow proves the instance of f o.runs times (after a warm-up proof
// when o.warmup), verifies every proof from its bytes, and, on a GPU, runs one
// more proof to sample the device's memory.
func measureRow(f fri.Field, cfg fri.Config, o options, opts []prover.Option, dev *gpu.Device) (row, error) {
	var devBase uint64
	devNote := "n/a: CPU"
	if dev != nil {
		free, total, err := dev.MemInfo()
		if err != nil {
			devNote = fmt.Sprintf("n/a: %v", err)
		} else {
			devBase, devNote = total-free, ""
		}
	}
	in, err := stark.New(f, o.logRows, cfg, opts...)
	if err != nil {
		if skippable(err) {
			return row{}, &skipError{err}
		}
		return row{}, err
	}
	defer in.Close()
	friBits, algBits, err := in.Security()
	if err != nil {
		return row{}, err
	}
	b := in.Backend()
	r := row{
		name: b.Name(), field: f, where: b.Device(), degree: in.Degree(), rows: in.Rows(), cfg: in.Config(),
		friBits: friBits, algBits: algBits, bits: int(math.Floor(min(friBits, algBits))),
		devicePeak: -1, devNote: devNote,
	}
	proveOnce := func() ([]byte, error) {
		p, err := in.Prove()
		if err != nil {
			return nil, err
		}
		return p.MarshalBinary()
	}
	if o.warmup {
		data, err := proveOnce()
		if err == nil {
			err = in.Verify(data)
		}
		if err != nil {
			if skippable(err) {
				return row{}, &skipError{err}
			}
			return row{}, err
		}
	}
	for run := range o.runs {
		runtime.GC()
		sampler := startSampler(heapBytes)
		start := time.Now()
		proof, err := in.Prove()
		elapsed := time.Since(start)
		base, peak := sampler.stop()
		if err != nil {
			if skippable(err) {
				return row{}, &skipError{err}
			}
			return row{}, err
		}
		ph := in.Phases()
		data, err := proof.MarshalBinary()
		if err != nil {
			return row{}, err
		}
		start = time.Now()
		if err := in.Verify(data); err != nil {
			return row{}, fmt.Errorf("run %d: %w", run, err)
		}
		r.verify = append(r.verify, time.Since(start))
		r.commit = append(r.commit, ph.Commitments())
		r.open = append(r.open, ph.Opening)
		r.prove = append(r.prove, elapsed)
		if r.proof != nil && len(data) != len(r.proof) {
			return row{}, fmt.Errorf("run %d: a proof of %d bytes after one of %d", run, len(data), len(r.proof))
		}
		r.proof, r.proofBytes = data, len(data)
		r.heapPeak = max(r.heapPeak, peak-min(base, peak))
	}
	if dev != nil && r.devNote == "" {
		sampler := startSampler(func() uint64 {
			free, total, err := dev.MemInfo()
			if err != nil {
				return 0
			}
			return total - free
		})
		_, err := in.Prove()
		_, peak := sampler.stop()
		if err != nil {
			return row{}, err
		}
		r.devicePeak = int64(peak) - int64(min(devBase, peak))
	}
	return r, nil
}

// sampler records the largest value of read, sampled every millisecond on
// its own goroutine from start to stop, and the first one.
type sampler struct {
	read func() uint64
	base uint64
	done chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	peak uint64
}

func startSampler(read func() uint64) *sampler {
	s := &sampler{read: read, done: make(chan struct{})}
	s.base = read()
	s.peak = s.base
	s.wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				s.sample()
			}
		}
	})
	return s
}

func (s *sampler) sample() {
	v := s.read()
	s.mu.Lock()
	s.peak = max(s.peak, v)
	s.mu.Unlock()
}

// stop samples once more, stops the goroutine and returns the first sample
// and the largest.
func (s *sampler) stop() (base, peak uint64) {
	s.sample()
	close(s.done)
	s.wg.Wait()
	return s.base, s.peak
}

var heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes() uint64 {
	m := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(m)
	return m[0].Value.Uint64()
}
