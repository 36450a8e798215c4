package poly

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// ErrNilSubspace is returned when a subspace argument is nil.
var ErrNilSubspace = errors.New("poly: nil subspace")

// Vanishing returns the vanishing polynomial of the affine subspace
// S = s + V: W_S(x) = Π_{v ∈ S}(x − v), monic of degree 2^m. It is an affine
// linearized polynomial, W_S(x) = W_V(x) − W_V(s) with W_V linear over
// GF(2), built in O(m²) multiplications from the recursion
// W_{j+1}(x) = W_j(x)² + W_j(β_j)·W_j(x). The result evaluates at a point
// with eight table lookups (see Linearized).
func Vanishing(s *domain.Subspace) (*Linearized, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: Vanishing", ErrNilSubspace)
	}
	return vanishing(s.Shift(), s.Basis()), nil
}

// EvalSubspace returns p evaluated at every element of s, in subspace order
// (element i is s.Shift() + Σ_j bit_j(i)·β_j). A polynomial with at most
// s.Size() coefficients goes straight through the additive FFT (truncated:
// the work on missing high coefficients is skipped); a longer one is first
// reduced modulo the vanishing polynomial of s, which leaves its values on s
// unchanged. s.Dim() must be at most domain.MaxTransformDim.
func (p Poly) EvalSubspace(s *domain.Subspace) ([]gf64.Element, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: EvalSubspace", ErrNilSubspace)
	}
	if s.Dim() > domain.MaxTransformDim {
		return nil, fmt.Errorf("%w: EvalSubspace on a %d-dimensional subspace, at most %d", ErrLength, s.Dim(), domain.MaxTransformDim)
	}
	p = p.Normalize()
	n := s.Size()
	if len(p) > n {
		_, r, err := p.DivModLinearized(vanishing(s.Shift(), s.Basis()))
		if err != nil {
			return nil, err
		}
		p = r
	}
	out := make([]gf64.Element, n)
	copy(out, p)
	if err := s.FFTTrunc(out, len(p)); err != nil {
		return nil, fmt.Errorf("poly: EvalSubspace: %w", err)
	}
	return out, nil
}

// InterpolateSubspace returns the unique polynomial of degree < s.Size()
// whose values at the elements of s, in subspace order, are evals: the
// inverse additive FFT. len(evals) must be s.Size(); evals is not modified.
func InterpolateSubspace(s *domain.Subspace, evals []gf64.Element) (Poly, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: InterpolateSubspace", ErrNilSubspace)
	}
	if s.Dim() > domain.MaxTransformDim || len(evals) != s.Size() {
		return nil, fmt.Errorf("%w: InterpolateSubspace: %d values for a %d-dimensional subspace", ErrLength, len(evals), s.Dim())
	}
	p := make(Poly, len(evals))
	copy(p, evals)
	if err := s.IFFT(p); err != nil {
		return nil, fmt.Errorf("poly: InterpolateSubspace: %w", err)
	}
	return p.Normalize(), nil
}

// ToNovel returns p's coefficients in the novel polynomial basis of s
// (Lin–Chung–Han; see package domain): s.Size() elements c with
// p = Σ_i c[i]·X_i. The novel basis depends on s's basis only, not on its
// shift. p must have degree < s.Size().
func (p Poly) ToNovel(s *domain.Subspace) ([]gf64.Element, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: ToNovel", ErrNilSubspace)
	}
	p = p.Normalize()
	if s.Dim() > domain.MaxTransformDim || len(p) > s.Size() {
		return nil, fmt.Errorf("%w: ToNovel: degree %d does not fit the %d-dimensional novel basis", ErrLength, p.Degree(), s.Dim())
	}
	out := make([]gf64.Element, s.Size())
	copy(out, p)
	if err := s.MonomialToNovel(out); err != nil {
		return nil, fmt.Errorf("poly: ToNovel: %w", err)
	}
	return out, nil
}

// FromNovel returns the polynomial Σ_i c[i]·X_i in the novel basis of s, in
// the monomial basis. len(c) must be at most s.Size() (missing coefficients
// are zero); c is not modified.
func FromNovel(s *domain.Subspace, c []gf64.Element) (Poly, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: FromNovel", ErrNilSubspace)
	}
	if s.Dim() > domain.MaxTransformDim || len(c) > s.Size() {
		return nil, fmt.Errorf("%w: FromNovel: %d coefficients for a %d-dimensional novel basis", ErrLength, len(c), s.Dim())
	}
	p := make(Poly, s.Size())
	copy(p, c)
	if err := s.NovelToMonomial(p); err != nil {
		return nil, fmt.Errorf("poly: FromNovel: %w", err)
	}
	return p.Normalize(), nil
}
