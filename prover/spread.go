package prover

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/additive"
)

// SpreadLDE computes the LDE of single GF(2^64) columns over several devices,
// for columns whose LDE is too large for one device or too slow on one. It
// splits the codeword's rows, not the columns: in subspace order, the rows
// r·2^(n−j) … (r+1)·2^(n−j) − 1 of a codeword subspace T of dimension n are
// the coset T_r = T's shift + Σ_b bit_b(r)·β_(n−j+b) of the span of its
// first n − j basis elements, and the column's LDE on those rows is its LDE
// from the message space to T_r (every coset of the message space's
// complement is a transform of the same coefficients). So each of 2^j
// devices transforms the whole column to its own coset, gpu/additive's LDE
// on its part of the rows, and nothing moves between devices: the column
// goes up to every device and each device's rows come down. 2^j is the
// largest power of two that is at most the number of devices and at most
// the blowup (each coset must be at least as large as the message space);
// other devices stay idle. The result is domain.LDE's, bit for bit.
//
// Every device repeats the transform back to coefficients (the message
// space's inverse FFT): with blowup B on B devices each does an inverse
// and a forward transform of the message size, where one device does an
// inverse of that size and a forward one B times as large.
//
// A SpreadLDE is used by one goroutine at a time.
type SpreadLDE struct {
	devs []*gpu.Device
	ts   []*additive.Transforms
	// The last call's spaces and the cosets of its rows, whose tables the
	// transforms keep (they are keyed by subspace) until the spaces change.
	from, to *domain.Subspace
	cosets   []*domain.Subspace
}

// NewSpreadLDE loads the transforms on every device (open, distinct; the
// caller closes them after the SpreadLDE). Errors as WithGPUs's, at once.
func NewSpreadLDE(devs ...*gpu.Device) (*SpreadLDE, error) {
	var c config
	if err := WithGPUs(devs...)(&c); err != nil {
		return nil, fmt.Errorf("prover: NewSpreadLDE: %w", err) // the checks are WithGPUs'
	}
	s := &SpreadLDE{devs: c.gpus}
	for i, d := range c.gpus {
		t, err := additive.New(d)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("prover: NewSpreadLDE: device %d: %w: %w", i, ErrUnavailable, err)
		}
		s.ts = append(s.ts, t)
	}
	return s, nil
}

// release drops the tables of the last call's spaces.
func (s *SpreadLDE) release() {
	for i, t := range s.ts {
		if s.from != nil {
			t.Release(s.from)
		}
		if i < len(s.cosets) {
			t.Release(s.cosets[i])
		}
	}
	s.from, s.to, s.cosets = nil, nil, nil
}

// Close releases the transforms' tables on every device.
func (s *SpreadLDE) Close() error {
	s.release()
	var errs []error
	for _, t := range s.ts {
		errs = append(errs, t.Close())
	}
	s.ts = nil
	return errors.Join(errs...)
}

// Parts returns the number of devices that an LDE from dimension k to
// dimension n uses.
func (s *SpreadLDE) Parts(k, n int) int { return spreadParts(len(s.devs), k, n) }

// LDE sets dst to domain.LDE of src from from to to: len(src) = from.Size(),
// len(dst) = to.Size(), from.Dim() ≤ to.Dim(). src is not modified. Wrong
// sizes or spaces return errors wrapping ErrShape or domain's errors.
func (s *SpreadLDE) LDE(dst, src []gf64.Element, from, to *domain.Subspace) error {
	if s.ts == nil {
		return fmt.Errorf("prover: SpreadLDE.LDE after Close: %w", ErrUnavailable)
	}
	if from == nil || to == nil || from.Dim() > to.Dim() {
		return fmt.Errorf("prover: SpreadLDE.LDE: needs a message space no larger than the codeword space: %w", ErrShape)
	}
	if len(src) != from.Size() || len(dst) != to.Size() {
		return fmt.Errorf("prover: SpreadLDE.LDE: %d elements into %d for spaces of %d and %d: %w", len(src), len(dst), from.Size(), to.Size(), ErrShape)
	}
	if from != s.from || to != s.to {
		s.release()
		cosets, err := rowCosets(to, s.Parts(from.Dim(), to.Dim()))
		if err != nil {
			return err
		}
		s.from, s.to, s.cosets = from, to, cosets
	}
	cosets := s.cosets
	per := to.Size() / len(cosets)
	return eachDevice(len(cosets), func(i int) error {
		t := s.ts[i]
		if err := t.LDEBatch([][]gf64.Element{dst[i*per : (i+1)*per]}, [][]gf64.Element{src}, from, cosets[i]); err != nil {
			return fmt.Errorf("prover: SpreadLDE.LDE on device %d (rows %d..%d): %w", i, i*per, (i+1)*per-1, err)
		}
		return nil
	})
}

// spreadParts is the largest power of two at most devices and at most
// 2^(n−k).
func spreadParts(devices, k, n int) int {
	p := 1
	for 2*p <= devices && 2*p <= 1<<(n-k) {
		p *= 2
	}
	return p
}

// rowCosets returns the parts cosets of to's rows (parts a power of two):
// coset r holds rows r·to.Size()/parts … in to's order.
func rowCosets(to *domain.Subspace, parts int) ([]*domain.Subspace, error) {
	n := to.Dim()
	j := log2(parts)
	basis := to.Basis()
	sub, err := to.Sub(n - j)
	if err != nil {
		return nil, err
	}
	out := make([]*domain.Subspace, parts)
	for r := range out {
		shift := to.Shift()
		for b := range j {
			if r>>b&1 == 1 {
				shift ^= basis[n-j+b]
			}
		}
		if out[r], err = sub.WithShift(shift); err != nil {
			return nil, err
		}
	}
	return out, nil
}
