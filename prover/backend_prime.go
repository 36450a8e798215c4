package prover

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"

	"github.com/gfpoly/gfpoly/prover/prime"
)

// primeElement is the prime fields' subset of Element.
type primeElement interface {
	goldilocks.Element | babybear.Element | koalabear.Element | fr.Element
}

// primeCPU encodes prime-field traces on the CPU with prover/prime (whose
// transforms are gnark-crypto's): the LDE from gnark-crypto's domain of size
// 2^k to the coset g·⟨ω⟩ of the domain of size blowup·2^k, natural order.
type primeCPU[E primeElement] struct {
	core[E]
	mu    sync.Mutex
	plans map[int]*prime.LDE[E] // by log2 rows
}

// The prime CPU backends, one per field.
var (
	_ Encoder[goldilocks.Element] = (*primeCPU[goldilocks.Element])(nil)
	_ Encoder[babybear.Element]   = (*primeCPU[babybear.Element])(nil)
	_ Encoder[koalabear.Element]  = (*primeCPU[koalabear.Element])(nil)
	_ Encoder[fr.Element]         = (*primeCPU[fr.Element])(nil)
)

func newPrimeCPU[E primeElement](cfg config) *primeCPU[E] {
	p := &primeCPU[E]{plans: map[int]*prime.LDE[E]{}}
	p.core = core[E]{
		cfg:    cfg,
		name:   FieldOf[E]().String() + "/cpu",
		device: fmt.Sprintf("cpu (%d goroutines)", runtime.GOMAXPROCS(0)),
		lde:    p.encodeChunk,
		close: func() error {
			p.mu.Lock()
			p.plans = map[int]*prime.LDE[E]{}
			p.mu.Unlock()
			return nil
		},
	}
	return p
}

// plan returns the LDE for traces of 2^logRows rows, building gnark-crypto's
// domains on first use.
func (p *primeCPU[E]) plan(logRows int) (*prime.LDE[E], error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.plans[logRows]; ok {
		return l, nil
	}
	n := uint64(1) << logRows
	bigN := n * uint64(p.cfg.blowup)
	maxLog := map[Field]int{Goldilocks: 32, BabyBear: 27, KoalaBear: 24, BN254: 28}[FieldOf[E]()]
	if 1<<maxLog < bigN {
		return nil, fmt.Errorf("prover: %v has no subgroup of order 2^%d (2-adicity %d): %w",
			FieldOf[E](), logRows+log2(p.cfg.blowup), maxLog, ErrShape)
	}
	var small, large any
	var z E
	switch any(z).(type) {
	case goldilocks.Element:
		small, large = goldilocksfft.NewDomain(n), goldilocksfft.NewDomain(bigN)
	case babybear.Element:
		small, large = babybearfft.NewDomain(n), babybearfft.NewDomain(bigN)
	case koalabear.Element:
		small, large = koalabearfft.NewDomain(n), koalabearfft.NewDomain(bigN)
	case fr.Element:
		small, large = bn254fft.NewDomain(n), bn254fft.NewDomain(bigN)
	}
	l, err := prime.NewLDE[E](small, large)
	if err != nil {
		return nil, fmt.Errorf("prover: %v LDE 2^%d → 2^%d: %v: %w", FieldOf[E](), logRows, logRows+log2(p.cfg.blowup), err, ErrConfig)
	}
	// Keep the plan of the last size only: domains of large traces are big.
	clear(p.plans)
	p.plans[logRows] = l
	return l, nil
}

func (p *primeCPU[E]) encodeChunk(logRows int, dst, msgs [][]E) error {
	l, err := p.plan(logRows)
	if err != nil {
		return err
	}
	if err := l.Encode(dst, msgs, prime.Natural); err != nil {
		return fmt.Errorf("prover: %v LDE: %w", FieldOf[E](), err)
	}
	return nil
}
