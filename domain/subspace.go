package domain

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// MaxDim is the largest dimension New accepts: Size must fit in an int.
const MaxDim = bits.UintSize - 2

// MaxTransformDim is the largest dimension the transforms (FFT, IFFT, the
// novel-basis transforms, LDE) accept. 2^40 elements are 8 TiB; the cap keeps
// index arithmetic and plan tables far from overflow.
const MaxTransformDim = 40

var (
	// ErrDependent is returned (wrapped) by New, Extend and WithShift when a
	// basis element is zero or lies in the span of the elements before it.
	ErrDependent = errors.New("domain: basis is linearly dependent")
	// ErrDim is returned (wrapped) for a dimension out of range: above MaxDim
	// in New, above MaxTransformDim for a transform, or a bad prefix length.
	ErrDim = errors.New("domain: dimension out of range")
	// ErrLength is returned (wrapped) when a slice has the wrong length.
	ErrLength = errors.New("domain: wrong length")
	// ErrMismatch is returned (wrapped) by LDE when the target space is
	// smaller than the source space, or a subspace is nil.
	ErrMismatch = errors.New("domain: subspaces do not match")
)

// Subspace is the affine subspace shift + span(β_0, …, β_{m−1}) of GF(2^64)
// with its elements in the order of DESIGN.md: element i is
// shift + Σ_j bit_j(i)·β_j. A Subspace is immutable; its transform plan is
// built on first use and shared by all goroutines.
type Subspace struct {
	shift gf64.Element
	basis []gf64.Element
	// Row echelon form of the basis, for Contains and Index: rows[k] has its
	// highest set bit at a position no other row has, and is the sum of the
	// basis elements selected by masks[k].
	rows  []gf64.Element
	masks []uint64

	// The transform plans, one per kernel set (kernels.go), built on first use.
	once [numKernels]sync.Once
	p    [numKernels]*plan
}

// New returns the affine subspace shift + span(basis...). The basis elements
// must be linearly independent over GF(2); the error names the first one
// that is zero or in the span of those before it. With no basis elements the
// subspace is the single point {shift}. New copies basis.
func New(shift gf64.Element, basis ...gf64.Element) (*Subspace, error) {
	if len(basis) > MaxDim {
		return nil, fmt.Errorf("%w: %d basis elements, at most %d", ErrDim, len(basis), MaxDim)
	}
	s := &Subspace{
		shift: shift,
		basis: append([]gf64.Element(nil), basis...),
		rows:  make([]gf64.Element, 0, len(basis)),
		masks: make([]uint64, 0, len(basis)),
	}
	for i, b := range basis {
		if b == 0 {
			return nil, fmt.Errorf("%w: basis[%d] is zero", ErrDependent, i)
		}
		y, mask := s.reduce(b)
		if y == 0 {
			return nil, fmt.Errorf("%w: basis[%d] = %v is the sum of basis elements %v",
				ErrDependent, i, b, maskIndices(mask))
		}
		s.rows = append(s.rows, y)
		s.masks = append(s.masks, mask^1<<uint(i))
	}
	return s, nil
}

// reduce returns y = x + Σ rows[k] over the rows whose leading bit x (as
// reduced so far) has, and the mask of basis elements summed.
func (s *Subspace) reduce(x gf64.Element) (gf64.Element, uint64) {
	var mask uint64
	for k, r := range s.rows {
		lead := gf64.Element(1) << uint(63-bits.LeadingZeros64(uint64(r)))
		if x&lead != 0 {
			x ^= r
			mask ^= s.masks[k]
		}
	}
	return x, mask
}

func maskIndices(mask uint64) []int {
	var idx []int
	for mask != 0 {
		idx = append(idx, bits.TrailingZeros64(mask))
		mask &= mask - 1
	}
	return idx
}

// Dim returns the dimension m.
func (s *Subspace) Dim() int { return len(s.basis) }

// Size returns 2^m, the number of elements.
func (s *Subspace) Size() int { return 1 << uint(len(s.basis)) }

// Shift returns the shift (element 0).
func (s *Subspace) Shift() gf64.Element { return s.shift }

// Basis returns a copy of the basis.
func (s *Subspace) Basis() []gf64.Element { return append([]gf64.Element(nil), s.basis...) }

// Element returns element i, shift + Σ_j bit_j(i)·β_j. It panics if i is
// not in [0, Size()), as indexing a slice would.
func (s *Subspace) Element(i int) gf64.Element {
	if i < 0 || i >= s.Size() {
		panic(fmt.Sprintf("domain: Element(%d) out of range [0, %d)", i, s.Size()))
	}
	x := s.shift
	for u := uint(i); u != 0; u &= u - 1 {
		x ^= s.basis[bits.TrailingZeros(u)]
	}
	return x
}

// Elements returns all 2^m elements in subspace order. It is meant for
// small subspaces; it allocates Size() elements.
func (s *Subspace) Elements() []gf64.Element {
	out := make([]gf64.Element, s.Size())
	out[0] = s.shift
	for j, b := range s.basis {
		h := 1 << uint(j)
		for i := 0; i < h; i++ {
			out[h+i] = out[i] ^ b
		}
	}
	return out
}

// Contains reports whether x is an element of the subspace.
func (s *Subspace) Contains(x gf64.Element) bool {
	y, _ := s.reduce(x ^ s.shift)
	return y == 0
}

// Index returns the position i with Element(i) = x, or false if x is not an
// element.
func (s *Subspace) Index(x gf64.Element) (int, bool) {
	y, mask := s.reduce(x ^ s.shift)
	if y != 0 {
		return 0, false
	}
	return int(mask), true
}

// Extend returns the subspace with the same shift and the basis of s
// followed by more. The result contains s, and its first Size() elements are
// those of s in the same order.
func (s *Subspace) Extend(more ...gf64.Element) (*Subspace, error) {
	b := make([]gf64.Element, 0, len(s.basis)+len(more))
	b = append(append(b, s.basis...), more...)
	return New(s.shift, b...)
}

// WithShift returns the subspace with the same basis and the given shift:
// another coset of the same linear space (s itself if shift - s.Shift() is
// in the span).
func (s *Subspace) WithShift(shift gf64.Element) (*Subspace, error) {
	return New(shift, s.basis...)
}

// Sub returns the subspace spanned by the first k basis elements, with the
// same shift: the first 2^k elements of s, in the same order.
func (s *Subspace) Sub(k int) (*Subspace, error) {
	if k < 0 || k > len(s.basis) {
		return nil, fmt.Errorf("%w: Sub(%d) of a %d-dimensional subspace", ErrDim, k, len(s.basis))
	}
	return New(s.shift, s.basis[:k]...)
}

// String describes the subspace.
func (s *Subspace) String() string {
	return fmt.Sprintf("%v + span%v", s.shift, s.basis)
}

// hasBasisPrefix reports whether t's basis starts with s's basis.
func (s *Subspace) hasBasisPrefix(t *Subspace) bool {
	if len(t.basis) < len(s.basis) {
		return false
	}
	for i, b := range s.basis {
		if t.basis[i] != b {
			return false
		}
	}
	return true
}

func fmtCol(err error, i int) error { return fmt.Errorf("%w (column %d)", err, i) }

func fmtLen(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrLength}, args...)...)
}
