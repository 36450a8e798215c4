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
	doms  primeDomains[E]
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

// plan returns the LDE for traces of 2^logRows rows, over the encoder's
// domains of that size.
func (p *primeCPU[E]) plan(logRows int) (*prime.LDE[E], error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.plans[logRows]; ok {
		return l, nil
	}
	small, large, err := p.doms.get(logRows, p.cfg.blowup)
	if err != nil {
		return nil, err
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

func (p *primeCPU[E]) domains(logRows int) (small, large any, err error) {
	return p.doms.get(logRows, p.cfg.blowup)
}

// primeDomains keeps gnark-crypto's domains of the sizes an encoder used
// last, up to maxDomains of them (the least recently used is dropped
// first): their twiddle tables cost about as much as a transform (BN254 at
// 2^22: 0.2 s), and a prover commits traces of a few sizes over and over.
// The GPU encoder's are built without those tables (lazy): its LDE reads
// only the domains' roots, and the tables of about 4n elements cost the
// host more than the LDE costs the device (BN254 2^22: 0.35 s and 512 MiB
// on dev's 2 cores, against 27 µs).
type primeDomains[E primeElement] struct {
	lazy bool // fft.WithoutPrecompute()
	mu   sync.Mutex
	doms map[int]any    // *fft.Domain of E's field, by log2 of its size
	used map[int]uint64 // tick of each domain's last use
	tick uint64
}

// maxDomains bounds the domains an encoder keeps: the message and codeword
// domains of three trace sizes.
const maxDomains = 6

// get returns the domains for traces of 2^logRows rows at the given blowup,
// building them on first use.
func (d *primeDomains[E]) get(logRows, blowup int) (small, large any, err error) {
	maxLog := map[Field]int{Goldilocks: 32, BabyBear: 27, KoalaBear: 24, BN254: 28}[FieldOf[E]()]
	if logRows < 0 || logRows > MaxLogRows || logRows+log2(blowup) > maxLog {
		return nil, nil, fmt.Errorf("prover: %v: no domains for 2^%d rows at blowup %d (2-adicity %d; 2^0 to 2^%d rows): %w",
			FieldOf[E](), logRows, blowup, maxLog, MaxLogRows, ErrShape)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.domain(logRows), d.domain(logRows + log2(blowup)), nil
}

// domain returns the domain of 2^logN points, built on first use; d.mu is
// held.
func (d *primeDomains[E]) domain(logN int) any {
	d.tick++
	if x, ok := d.doms[logN]; ok {
		d.used[logN] = d.tick
		return x
	}
	if d.doms == nil {
		d.doms, d.used = map[int]any{}, map[int]uint64{}
	}
	if len(d.doms) >= maxDomains {
		oldest := -1
		for k, t := range d.used {
			if oldest < 0 || t < d.used[oldest] {
				oldest = k
			}
		}
		delete(d.doms, oldest)
		delete(d.used, oldest)
	}
	n := uint64(1) << logN
	var x any
	var z E
	switch any(z).(type) {
	case goldilocks.Element:
		x = goldilocksfft.NewDomain(n, lazyOption(d.lazy, goldilocksfft.WithoutPrecompute)...)
	case babybear.Element:
		x = babybearfft.NewDomain(n, lazyOption(d.lazy, babybearfft.WithoutPrecompute)...)
	case koalabear.Element:
		x = koalabearfft.NewDomain(n, lazyOption(d.lazy, koalabearfft.WithoutPrecompute)...)
	case fr.Element:
		x = bn254fft.NewDomain(n, lazyOption(d.lazy, bn254fft.WithoutPrecompute)...)
	}
	d.doms[logN], d.used[logN] = x, d.tick
	return x
}

// lazyOption returns the option without, where lazy.
func lazyOption[O any](lazy bool, without func() O) []O {
	if lazy {
		return []O{without()}
	}
	return nil
}

// domainer is what the prime-field encoders have for PrimeDomains.
type domainer interface {
	domains(logRows int) (small, large any, err error)
}

// PrimeDomains returns the evaluation domains a prime-field encoder uses for
// traces of 2^logRows rows, the very ones it transforms over (built once and
// shared, not rebuilt), so that a prover evaluates its constraints on the
// same points:
//   - message: gnark-crypto's domain of 2^logRows points; row i of the trace
//     is the evaluation at ω^i (ω = message.Generator);
//   - codeword: the domain of Blowup()·2^logRows points; row i of the LDE is
//     the evaluation at shift·ω'^i (ω' = codeword.Generator);
//   - shift: the coset shift, codeword.FrMultiplicativeGen.
//
// D is the field's fft.Domain type, E inferred from enc:
//
//	msg, cw, g, err := prover.PrimeDomains[goldilocksfft.Domain](enc, 20)
//
// The domains are the encoder's: read them, do not modify them. A GPU
// encoder's carry no precomputed tables (fft.WithoutPrecompute: its LDE
// needs only their roots), so gnark-crypto computes the twiddles at each
// FFT on them; for repeated transforms on the CPU, build a domain of the
// same size with fft.NewDomain (the same points). Errors wrap
// ErrConfig when enc is not one of this package's prime-field encoders or D
// is not its field's domain type, and ErrShape when the field has no domain
// of that size.
func PrimeDomains[D any, E Element](enc Encoder[E], logRows int) (message, codeword *D, shift E, err error) {
	p, ok := enc.(domainer)
	if !ok {
		return nil, nil, shift, fmt.Errorf("prover: PrimeDomains of a %v encoder: not a prime-field encoder of this package: %w", FieldOf[E](), ErrConfig)
	}
	small, large, err := p.domains(logRows)
	if err != nil {
		return nil, nil, shift, err
	}
	if message, ok = small.(*D); !ok {
		return nil, nil, shift, fmt.Errorf("prover: PrimeDomains: %v's domains are %T, not *%T: %w", FieldOf[E](), small, *new(D), ErrConfig)
	}
	codeword = large.(*D)
	switch cw := large.(type) {
	case *goldilocksfft.Domain:
		shift = any(cw.FrMultiplicativeGen).(E)
	case *babybearfft.Domain:
		shift = any(cw.FrMultiplicativeGen).(E)
	case *koalabearfft.Domain:
		shift = any(cw.FrMultiplicativeGen).(E)
	case *bn254fft.Domain:
		shift = any(cw.FrMultiplicativeGen).(E)
	}
	return message, codeword, shift, nil
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
