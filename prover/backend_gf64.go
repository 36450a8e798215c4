package prover

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/rs"
)

// BinaryDomains chooses the evaluation domains of a GF(2^64) trace of
// 2^logRows rows: the message subspace (dimension logRows) and the codeword
// subspace (dimension logRows + logBlowup).
type BinaryDomains func(logRows, logBlowup int) (message, codeword *domain.Subspace, err error)

// DefaultBinaryDomains is the default BinaryDomains: message space
// span(1, x, …, x^(k−1)) with shift 0, so that row i sits at the element i;
// codeword space x^63 + span(1, x, …, x^(n−1)), a coset disjoint from it.
func DefaultBinaryDomains(logRows, logBlowup int) (message, codeword *domain.Subspace, err error) {
	n := logRows + logBlowup
	if logRows < 0 || logBlowup < 1 || n > 62 {
		return nil, nil, fmt.Errorf("prover: binary domains for 2^%d rows, blowup 2^%d: %w", logRows, logBlowup, ErrShape)
	}
	basis := make([]gf64.Element, n)
	for j := range basis {
		basis[j] = gf64.Element(1) << j
	}
	if message, err = domain.New(0, basis[:logRows]...); err != nil {
		return nil, nil, fmt.Errorf("prover: message space: %w", err)
	}
	if codeword, err = domain.New(gf64.Element(1)<<63, basis...); err != nil {
		return nil, nil, fmt.Errorf("prover: codeword space: %w", err)
	}
	return message, codeword, nil
}

// WithBinaryDomains sets the evaluation domains of GF(2^64) traces (default
// DefaultBinaryDomains). New refuses it for a prime-field encoder (ErrConfig).
func WithBinaryDomains(d BinaryDomains) Option {
	return func(c *config) error {
		if d == nil {
			return fmt.Errorf("prover: nil BinaryDomains: %w", ErrConfig)
		}
		c.domains = d
		return nil
	}
}

// binaryCPU encodes GF(2^64) traces on the CPU with rs.Code.EncodeBatch.
type binaryCPU struct {
	core[gf64.Element]
	mu    sync.Mutex
	codes map[int]*rs.Code // by log2 rows
}

var _ Encoder[gf64.Element] = (*binaryCPU)(nil)

func newBinaryCPU(cfg config) *binaryCPU {
	b := &binaryCPU{codes: map[int]*rs.Code{}}
	b.core = core[gf64.Element]{
		cfg:    cfg,
		name:   "gf64/cpu",
		device: fmt.Sprintf("cpu (%d goroutines)", runtime.GOMAXPROCS(0)),
		lde:    b.encodeChunk,
		close: func() error {
			b.mu.Lock()
			b.codes = map[int]*rs.Code{}
			b.mu.Unlock()
			return nil
		},
	}
	return b
}

// binaryCode returns the Reed–Solomon code for traces of 2^logRows rows.
func binaryCode(cfg *config, logRows int) (*rs.Code, error) {
	domains := cfg.domains
	if domains == nil {
		domains = DefaultBinaryDomains
	}
	lb := log2(cfg.blowup)
	msg, cw, err := domains(logRows, lb)
	if err != nil {
		return nil, err
	}
	if msg == nil || cw == nil || msg.Dim() != logRows || cw.Dim() != logRows+lb {
		return nil, fmt.Errorf("prover: BinaryDomains for 2^%d rows, blowup %d gave spaces of the wrong dimensions: %w", logRows, cfg.blowup, ErrConfig)
	}
	code, err := rs.New(msg, cw)
	if err != nil {
		return nil, fmt.Errorf("prover: Reed–Solomon code 2^%d → 2^%d: %v: %w", logRows, logRows+lb, err, ErrConfig)
	}
	return code, nil
}

func (b *binaryCPU) code(logRows int) (*rs.Code, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.codes[logRows]; ok {
		return c, nil
	}
	c, err := binaryCode(&b.cfg, logRows)
	if err != nil {
		return nil, err
	}
	clear(b.codes) // keep the last size only
	b.codes[logRows] = c
	return c, nil
}

func (b *binaryCPU) encodeChunk(logRows int, dst, msgs [][]gf64.Element) error {
	c, err := b.code(logRows)
	if err != nil {
		return err
	}
	if err := c.EncodeBatch(dst, msgs); err != nil {
		return fmt.Errorf("prover: gf64 LDE: %w", err)
	}
	return nil
}
