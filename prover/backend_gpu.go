package prover

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// primeGPU encodes prime-field traces with the gpu package's LDE kernels
// (bit-identical to gnark-crypto): a chunk of columns goes up through pinned
// memory, is extended on the device, and comes back through pinned memory
// into the LDE. The commitment is hashed on the CPU.
type primeGPU[E primeElement] struct {
	core[E]
	dev *gpu.Device

	mu      sync.Mutex
	logRows int
	cols    int // columns the buffers hold
	lde     *gpu.PrimeLDE[E]
	src     *gpu.Buffer[E]
	dst     *gpu.Buffer[E]
	up      *gpu.HostBuffer[E]
	down    *gpu.HostBuffer[E]
}

// The prime GPU backends, one per field.
var (
	_ Encoder[goldilocks.Element] = (*primeGPU[goldilocks.Element])(nil)
	_ Encoder[babybear.Element]   = (*primeGPU[babybear.Element])(nil)
	_ Encoder[koalabear.Element]  = (*primeGPU[koalabear.Element])(nil)
	_ Encoder[fr.Element]         = (*primeGPU[fr.Element])(nil)
)

func newPrimeGPU[E primeElement](cfg config) *primeGPU[E] {
	p := &primeGPU[E]{dev: cfg.gpu, logRows: -1}
	p.core = core[E]{
		cfg:    cfg,
		name:   FieldOf[E]().String() + "/gpu",
		device: cfg.gpu.Info().Name,
		lde:    p.encodeChunk,
		close: func() error {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.release()
		},
	}
	return p
}

// release frees the device tables and buffers; p.mu is held.
func (p *primeGPU[E]) release() error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	if p.lde != nil {
		keep(p.lde.Close())
	}
	for _, b := range []*gpu.Buffer[E]{p.src, p.dst} {
		if b != nil {
			keep(b.Free())
		}
	}
	for _, h := range []*gpu.HostBuffer[E]{p.up, p.down} {
		if h != nil {
			keep(h.Free())
		}
	}
	p.lde, p.src, p.dst, p.up, p.down, p.logRows, p.cols = nil, nil, nil, nil, nil, -1, 0
	return first
}

// prepare makes the tables for 2^logRows rows and buffers for cols columns;
// p.mu is held.
func (p *primeGPU[E]) prepare(logRows, cols int) error {
	if p.logRows == logRows && p.cols >= cols {
		return nil
	}
	if err := p.release(); err != nil {
		return err
	}
	n := 1 << logRows
	bigN := n * p.cfg.blowup
	maxLog := map[Field]int{Goldilocks: 32, BabyBear: 27, KoalaBear: 24, BN254: 28}[FieldOf[E]()]
	if logRows+log2(p.cfg.blowup) > maxLog {
		return fmt.Errorf("prover: %v has no subgroup of order 2^%d (2-adicity %d): %w",
			FieldOf[E](), logRows+log2(p.cfg.blowup), maxLog, ErrShape)
	}
	var small, large any
	var z E
	switch any(z).(type) {
	case goldilocks.Element:
		small, large = goldilocksfft.NewDomain(uint64(n)), goldilocksfft.NewDomain(uint64(bigN))
	case babybear.Element:
		small, large = babybearfft.NewDomain(uint64(n)), babybearfft.NewDomain(uint64(bigN))
	case koalabear.Element:
		small, large = koalabearfft.NewDomain(uint64(n)), koalabearfft.NewDomain(uint64(bigN))
	case fr.Element:
		small, large = bn254fft.NewDomain(uint64(n)), bn254fft.NewDomain(uint64(bigN))
	}
	var err error
	fail := func(what string, e error) error {
		p.release()
		return fmt.Errorf("prover: %v GPU %s for 2^%d rows × %d columns: %w", FieldOf[E](), what, logRows, cols, e)
	}
	if p.lde, err = gpu.NewPrimeLDE[E](p.dev, small, large); err != nil {
		return fail("LDE tables", err)
	}
	if p.src, err = gpu.Alloc[E](p.dev, cols*n); err != nil {
		return fail("input buffer", err)
	}
	if p.dst, err = gpu.Alloc[E](p.dev, cols*bigN); err != nil {
		return fail("output buffer", err)
	}
	if p.up, err = gpu.AllocHost[E](p.dev, cols*n); err != nil {
		return fail("pinned input buffer", err)
	}
	if p.down, err = gpu.AllocHost[E](p.dev, cols*bigN); err != nil {
		return fail("pinned output buffer", err)
	}
	p.logRows, p.cols = logRows, cols
	return nil
}

func (p *primeGPU[E]) encodeChunk(logRows int, dst, msgs [][]E) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Buffers sized for a whole chunk, so that every chunk reuses them.
	if err := p.prepare(logRows, max(len(msgs), p.cfg.chunk)); err != nil {
		return err
	}
	n, bigN, k := 1<<logRows, len(dst[0]), len(msgs)
	up := p.up.Slice()
	parallelFor(k, func(j int) { copy(up[j*n:(j+1)*n], msgs[j]) })
	src, err := p.src.View(0, k*n)
	if err != nil {
		return err
	}
	out, err := p.dst.View(0, k*bigN)
	if err != nil {
		return err
	}
	upView := p.up
	downView := p.down
	if k < p.cols {
		// Partial last chunk: move only what it needs.
		if upView, err = p.up.View(0, k*n); err != nil {
			return err
		}
		if downView, err = p.down.View(0, k*bigN); err != nil {
			return err
		}
	}
	if err := src.UploadAsync(nil, upView); err != nil {
		return fmt.Errorf("prover: GPU upload: %w", err)
	}
	if err := p.lde.Encode(nil, out, src, gpu.PrimeNatural); err != nil {
		return fmt.Errorf("prover: GPU LDE: %w", err)
	}
	if err := out.DownloadAsync(nil, downView); err != nil {
		return fmt.Errorf("prover: GPU download: %w", err)
	}
	down := downView.Slice()
	parallelFor(k, func(j int) { copy(dst[j], down[j*bigN:(j+1)*bigN]) })
	return nil
}

// binaryGPU encodes GF(2^64) traces with the gpu package's additive-FFT LDE
// (bit-identical to domain and rs on the CPU), columns streamed through
// pinned memory with copies overlapping the transforms.
type binaryGPU struct {
	core[gf64.Element]
	tr *gpu.Transforms

	mu      sync.Mutex
	logRows int
	msg, cw *domain.Subspace
}

var _ Encoder[gf64.Element] = (*binaryGPU)(nil)

func newBinaryGPU(cfg config) (*binaryGPU, error) {
	tr, err := gpu.NewTransforms(cfg.gpu)
	if err != nil {
		return nil, fmt.Errorf("prover: GF(2^64) GPU transforms: %w: %w", ErrUnavailable, err)
	}
	b := &binaryGPU{tr: tr, logRows: -1}
	b.core = core[gf64.Element]{
		cfg:    cfg,
		name:   "gf64/gpu",
		device: cfg.gpu.Info().Name,
		lde:    b.encodeChunk,
		close:  tr.Close,
	}
	return b, nil
}

func (b *binaryGPU) encodeChunk(logRows int, dst, msgs [][]gf64.Element) error {
	b.mu.Lock()
	defer b.mu.Unlock()
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
	if err := b.tr.LDEBatch(dst, msgs, b.msg, b.cw); err != nil {
		return fmt.Errorf("prover: gf64 GPU LDE: %w", err)
	}
	return nil
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
