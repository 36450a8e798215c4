package domain

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Fold returns the image q(S) of the subspace S = s under q = L_{V_k}, the
// vanishing polynomial of V_k = span(β_0, …, β_{k−1}) (q(X) = Π_{v ∈ V_k}(X − v),
// GF(2)-linear, of degree 2^k): the domain of a codeword over S after FRI
// folds it k times by 2 (once by 2^k).
//
// q kills V_k and is injective on span(β_k, …, β_{m−1}), so q(S) is the affine
// subspace of dimension m−k with shift q(shift) and basis q(β_k), …, q(β_{m−1}),
// in that order. Its element j is q of S's elements j·2^k … j·2^k + 2^k − 1,
// the 2^k elements of S that differ only in the low k bits of their index:
// the coset s + j-part + V_k that forms one leaf of a folded layer.
//
// q is computed as k successive folds by 2, each through q_1(X) = X·(X + b_0)
// = X² + b_0·X with b_0 the current first basis element; their composition
// is L_{V_k}. Fold(0) returns s itself; k outside [0, Dim()] returns an error
// wrapping ErrDim.
func (s *Subspace) Fold(k int) (*Subspace, error) {
	if k < 0 || k > len(s.basis) {
		return nil, fmt.Errorf("%w: fold by 2^%d of a subspace of dimension %d", ErrDim, k, len(s.basis))
	}
	if k == 0 {
		return s, nil
	}
	shift := s.shift
	basis := append([]gf64.Element(nil), s.basis...)
	for r := 0; r < k; r++ {
		b0 := basis[0]
		q := func(x gf64.Element) gf64.Element { return gf64.Mul(x, x^b0) }
		shift = q(shift)
		for i := 1; i < len(basis); i++ {
			basis[i-1] = q(basis[i])
		}
		basis = basis[:len(basis)-1]
	}
	return New(shift, basis...)
}
