package prover

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/additive"
	"github.com/gfpoly/gfpoly/gpu/gfvec"
	"github.com/gfpoly/gfpoly/gpu/primentt"
)

// primeGPU encodes prime-field traces with the gpu package's LDE kernels
// (bit-identical to gnark-crypto): a chunk of columns is split into groups
// that alternate between two streams, so that one group's host copies (Go
// memory ↔ pinned memory, on all cores) overlap the other's upload, LDE and
// download. With the default hash, Commit also absorbs each group into the
// rows' SHA-256 states on the device (gpu_commit.go).
type primeGPU[E primeElement] struct {
	core[E]
	dev  *gpu.Device
	doms primeDomains[E]

	mu      sync.Mutex
	logRows int
	group   int // columns per group, what each stage's buffers hold
	lde     *primentt.LDE[E]
	stages  [2]*primeStage[E]
}

// primeStage is one stream with the buffers of one group of columns.
type primeStage[E primeElement] struct {
	s        *gpu.Stream
	src, dst *gpu.Buffer[E]
	up, down *gpu.HostBuffer[E]
	pending  [][]E // destination columns of the group in flight
	bigN     int
}

// The prime GPU backends, one per field.
var (
	_ Encoder[goldilocks.Element] = (*primeGPU[goldilocks.Element])(nil)
	_ Encoder[babybear.Element]   = (*primeGPU[babybear.Element])(nil)
	_ Encoder[koalabear.Element]  = (*primeGPU[koalabear.Element])(nil)
	_ Encoder[fr.Element]         = (*primeGPU[fr.Element])(nil)
)

func newPrimeGPU[E primeElement](cfg config) *primeGPU[E] {
	p := &primeGPU[E]{dev: cfg.gpu, logRows: -1, doms: primeDomains[E]{lazy: true}}
	p.core = core[E]{
		cfg:    cfg,
		name:   FieldOf[E]().String() + "/gpu",
		device: cfg.gpu.Info().Name,
		lde:    func(logRows int, dst, msgs [][]E) error { return p.encodeChunk(logRows, dst, msgs, nil) },
		devLDE: p.encodeChunk,
		close: func() error {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.release()
		},
	}
	p.core.res = newResident[E](cfg.gpu, p, cfg.devBudget)
	return p
}

// release frees the device tables, streams and buffers; p.mu is held.
func (p *primeGPU[E]) release() error {
	err := p.releaseStages()
	if p.lde != nil {
		err = errors.Join(err, p.lde.Close())
	}
	p.lde, p.logRows = nil, -1
	return err
}

// releaseStages frees the streams and buffers of the two stages; p.mu is
// held.
func (p *primeGPU[E]) releaseStages() error {
	var errs []error
	for _, st := range p.stages {
		if st == nil {
			continue
		}
		if st.s != nil {
			errs = append(errs, st.s.Close())
		}
		for _, b := range []*gpu.Buffer[E]{st.src, st.dst} {
			if b != nil {
				errs = append(errs, b.Free())
			}
		}
		for _, h := range []*gpu.HostBuffer[E]{st.up, st.down} {
			if h != nil {
				errs = append(errs, h.Free())
			}
		}
	}
	p.stages, p.group = [2]*primeStage[E]{}, 0
	return errors.Join(errs...)
}

func (p *primeGPU[E]) domains(logRows int) (small, large any, err error) {
	return p.doms.get(logRows, p.cfg.blowup)
}

// tables makes the LDE tables for 2^logRows rows (and drops the stages of
// another size); p.mu is held.
func (p *primeGPU[E]) tables(logRows int) error {
	if p.lde != nil && p.logRows == logRows {
		return nil
	}
	if err := p.release(); err != nil {
		return err
	}
	small, large, err := p.doms.get(logRows, p.cfg.blowup)
	if err != nil {
		return err
	}
	if p.lde, err = primentt.NewLDE[E](p.dev, small, large); err != nil {
		return fmt.Errorf("prover: %v GPU LDE tables for 2^%d rows: %w", FieldOf[E](), logRows, err)
	}
	p.logRows = logRows
	return nil
}

// prepare makes the tables for 2^logRows rows and two stages of group
// columns each; p.mu is held.
func (p *primeGPU[E]) prepare(logRows, group int) error {
	if p.lde != nil && p.logRows == logRows && p.group >= group {
		return nil
	}
	if err := p.tables(logRows); err != nil {
		return err
	}
	if err := p.releaseStages(); err != nil {
		return err
	}
	n := 1 << logRows
	bigN := n * p.cfg.blowup
	fail := func(what string, e error) error {
		p.releaseStages()
		return fmt.Errorf("prover: %v GPU %s for 2^%d rows, groups of %d columns: %w", FieldOf[E](), what, logRows, group, e)
	}
	var err error
	for i := range p.stages {
		st := &primeStage[E]{bigN: bigN}
		p.stages[i] = st
		if st.s, err = p.dev.NewStream(); err != nil {
			return fail("stream", err)
		}
		if st.src, err = gpu.Alloc[E](p.dev, group*n); err != nil {
			return fail("input buffer", err)
		}
		if st.dst, err = gpu.Alloc[E](p.dev, group*bigN); err != nil {
			return fail("output buffer", err)
		}
		if st.up, err = gpu.AllocHost[E](p.dev, group*n); err != nil {
			return fail("pinned input buffer", err)
		}
		if st.down, err = gpu.AllocHost[E](p.dev, group*bigN); err != nil {
			return fail("pinned output buffer", err)
		}
	}
	p.group = group
	return nil
}

// The device-resident pipeline's operations (resident.go).

func (p *primeGPU[E]) devBegin(logRows int) error {
	p.mu.Lock()
	if err := p.tables(logRows); err != nil {
		p.mu.Unlock()
		return err
	}
	return nil
}

func (p *primeGPU[E]) devEnd() { p.mu.Unlock() }

func (p *primeGPU[E]) devLDE(s *gpu.Stream, dst, src *gpu.Buffer[E], logRows int) error {
	if err := p.lde.Encode(s, dst, src, primentt.Natural); err != nil {
		return fmt.Errorf("prover: GPU LDE: %w", err)
	}
	return nil
}

func (p *primeGPU[E]) devCombine(s *gpu.Stream, dst, cols *gpu.Buffer[E], alpha []E) error {
	return primentt.Combine(s, dst, cols, alpha)
}

// finish waits for the stage's group in flight and copies its result out.
func (st *primeStage[E]) finish() error {
	pending := st.pending
	st.pending = nil
	// Synchronize even with nothing pending: after an error part of a group
	// may have been queued.
	if err := st.s.Synchronize(); err != nil {
		return fmt.Errorf("prover: GPU LDE: %w", err)
	}
	if pending == nil {
		return nil
	}
	down := st.down.Slice()
	bigN := st.bigN
	parallelFor(len(pending), func(j int) { copy(pending[j], down[j*bigN:(j+1)*bigN]) })
	return nil
}

// start stages msgs on st and queues upload, LDE, the sink's absorb (when
// not nil) and download on its stream.
func (p *primeGPU[E]) start(st *primeStage[E], dst, msgs [][]E, sink *devHash[E]) error {
	n, m := len(msgs[0]), len(msgs)
	up := st.up.Slice()
	parallelFor(m, func(j int) { copy(up[j*n:(j+1)*n], msgs[j]) })
	src, err := st.src.View(0, m*n)
	if err != nil {
		return err
	}
	out, err := st.dst.View(0, m*st.bigN)
	if err != nil {
		return err
	}
	upView, err := st.up.View(0, m*n)
	if err != nil {
		return err
	}
	downView, err := st.down.View(0, m*st.bigN)
	if err != nil {
		return err
	}
	if err := src.UploadAsync(st.s, upView); err != nil {
		return fmt.Errorf("prover: GPU upload: %w", err)
	}
	if err := p.lde.Encode(st.s, out, src, primentt.Natural); err != nil {
		return fmt.Errorf("prover: GPU LDE: %w", err)
	}
	if sink != nil {
		if err := sink.absorb(st.s, out); err != nil {
			return fmt.Errorf("prover: GPU row hashing: %w", err)
		}
	}
	if err := out.DownloadAsync(st.s, downView); err != nil {
		return fmt.Errorf("prover: GPU download: %w", err)
	}
	st.pending = dst
	return nil
}

func (p *primeGPU[E]) encodeChunk(logRows int, dst, msgs [][]E, sink *devHash[E]) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Four groups per chunk, two in flight at a time.
	group := max(1, (p.cfg.chunk+3)/4)
	if err := p.prepare(logRows, group); err != nil {
		return err
	}
	group = p.group
	var firstErr error
	for i, lo := 0, 0; lo < len(msgs) && firstErr == nil; i, lo = i+1, lo+group {
		hi := min(lo+group, len(msgs))
		st := p.stages[i%2]
		if err := st.finish(); err != nil {
			firstErr = err
			break
		}
		firstErr = p.start(st, dst[lo:hi], msgs[lo:hi], sink)
	}
	for _, st := range p.stages {
		if err := st.finish(); err != nil && firstErr == nil {
			firstErr = err
		}
		st.pending = nil
	}
	return firstErr
}

// binaryGPU encodes GF(2^64) traces with the gpu package's additive-FFT LDE
// (bit-identical to domain and rs on the CPU), columns streamed through
// pinned memory with copies overlapping the transforms.
type binaryGPU struct {
	core[gf64.Element]
	tr *additive.Transforms

	mu      sync.Mutex
	logRows int
	msg, cw *domain.Subspace

	vecOnce sync.Once // loads vec, the combination kernel, on first use
	vec     *gfvec.GF64
	vecErr  error
}

var _ Encoder[gf64.Element] = (*binaryGPU)(nil)

func newBinaryGPU(cfg config) (*binaryGPU, error) {
	tr, err := additive.New(cfg.gpu)
	if err != nil {
		return nil, fmt.Errorf("prover: GF(2^64) GPU transforms: %w: %w", ErrUnavailable, err)
	}
	b := &binaryGPU{tr: tr, logRows: -1}
	b.core = core[gf64.Element]{
		cfg:    cfg,
		name:   "gf64/gpu",
		device: cfg.gpu.Info().Name,
		lde:    func(logRows int, dst, msgs [][]gf64.Element) error { return b.encodeChunk(logRows, dst, msgs, nil) },
		devLDE: b.encodeChunk,
		close:  tr.Close,
	}
	b.core.res = newResident[gf64.Element](cfg.gpu, b, cfg.devBudget)
	return b, nil
}

func (b *binaryGPU) encodeChunk(logRows int, dst, msgs [][]gf64.Element, sink *devHash[gf64.Element]) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.spaces(logRows); err != nil {
		return err
	}
	var then func(s *gpu.Stream, out *gpu.Buffer[gf64.Element]) error
	if sink != nil {
		then = sink.absorb
	}
	if err := b.tr.LDEBatchThen(dst, msgs, b.msg, b.cw, then); err != nil {
		return fmt.Errorf("prover: gf64 GPU LDE: %w", err)
	}
	return nil
}

// spaces sets the message and codeword subspaces for 2^logRows rows; b.mu
// is held.
func (b *binaryGPU) spaces(logRows int) error {
	if b.logRows != logRows {
		domains := b.cfg.domains
		if domains == nil {
			domains = DefaultBinaryDomains
		}
		lb := log2(b.cfg.blowup)
		msg, cw, err := domains(logRows, lb)
		if err != nil {
			return err
		}
		if msg == nil || cw == nil || msg.Dim() != logRows || cw.Dim() != logRows+lb {
			return fmt.Errorf("prover: BinaryDomains for 2^%d rows, blowup %d gave spaces of the wrong dimensions: %w", logRows, b.cfg.blowup, ErrConfig)
		}
		if b.msg != nil {
			b.tr.Release(b.msg)
			b.tr.Release(b.cw)
		}
		b.msg, b.cw, b.logRows = msg, cw, logRows
	}
	return nil
}

// The device-resident pipeline's operations (resident.go).

func (b *binaryGPU) devBegin(logRows int) error {
	b.mu.Lock()
	if err := b.spaces(logRows); err != nil {
		b.mu.Unlock()
		return err
	}
	return nil
}

func (b *binaryGPU) devEnd() { b.mu.Unlock() }

func (b *binaryGPU) devLDE(s *gpu.Stream, dst, src *gpu.Buffer[gf64.Element], logRows int) error {
	if err := b.tr.LDE(s, dst, src, b.msg, b.cw); err != nil {
		return fmt.Errorf("prover: gf64 GPU LDE: %w", err)
	}
	return nil
}

func (b *binaryGPU) devCombine(s *gpu.Stream, dst, cols *gpu.Buffer[gf64.Element], alpha []gf64.Element) error {
	b.vecOnce.Do(func() { b.vec, b.vecErr = gfvec.NewGF64(b.cfg.gpu, gfvec.PerThread) })
	if b.vecErr != nil {
		return b.vecErr
	}
	return b.vec.Combine(s, dst, cols, alpha)
}

// parallelFor runs f(0..n−1) on up to GOMAXPROCS goroutines: the host-side
// copies between Go memory and pinned memory are memory-bound, and one core
// does not saturate the memory bus.
func parallelFor(n int, f func(i int)) {
	w := min(n, runtime.GOMAXPROCS(0))
	if w <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}
