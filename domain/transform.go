package domain

import (
	"fmt"
	"math/bits"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// The monomial transforms are Gao–Mateer's additive FFT (thesis,
// Algorithms 3.4 and 3.5) with the recursion split on the first basis
// element instead of the last, and without the shuffle: at depth r the
// 2^r interleaved subproblems (stride 2^r) are twisted, g(x) = f(β·x), and
// Taylor-expanded at x²−x in place. After all depths the array holds the
// coefficients in the novel basis, and the merge steps of Gao–Mateer are
// exactly the Lin–Chung–Han butterfly network (network.go). So
//
//	FFT  = forward network ∘ MonomialToNovel
//	IFFT = NovelToMonomial ∘ inverse network

func (s *Subspace) checkLen(op string, n int) error {
	if len(s.basis) > MaxTransformDim {
		return fmt.Errorf("%w: %s on a %d-dimensional subspace, at most %d",
			ErrDim, op, len(s.basis), MaxTransformDim)
	}
	if n != s.Size() {
		return fmt.Errorf("%w: %s: got %d elements, the %d-dimensional subspace needs %d",
			ErrLength, op, n, len(s.basis), s.Size())
	}
	return nil
}

// FFT evaluates, in place, the polynomial with the Size() coefficients a
// (monomial basis, a[0] the constant term) at every element of s: on return
// a[i] = f(s.Element(i)). A wrong length is an error and a is not touched.
func (s *Subspace) FFT(a []gf64.Element) error {
	if err := s.checkLen("FFT", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	procs := p.procsFor(len(a))
	p.toNovel(a, 0, procs, sc)
	p.forward(a, 0, p.m-1, procs, sc)
	scratchPool.Put(sc)
	return nil
}

// FFTTrunc is FFT for a polynomial with only nCoeffs coefficients:
// a[:nCoeffs] holds them, a[nCoeffs:] is ignored (treated as zero) and
// overwritten. The work skipped grows with Size()/nCoeffs. nCoeffs must be
// in [0, Size()].
func (s *Subspace) FFTTrunc(a []gf64.Element, nCoeffs int) error {
	if err := s.checkLen("FFTTrunc", len(a)); err != nil {
		return err
	}
	if nCoeffs < 0 || nCoeffs > len(a) {
		return fmt.Errorf("%w: FFTTrunc: nCoeffs = %d not in [0, %d]", ErrLength, nCoeffs, len(a))
	}
	if nCoeffs == 0 {
		clear(a)
		return nil
	}
	j := bits.Len(uint(nCoeffs - 1)) // 2^j ≥ nCoeffs
	clear(a[nCoeffs : 1<<uint(j)])
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	procs := p.procsFor(len(a))
	p.toNovel(a[:1<<uint(j)], 0, p.procsFor(1<<uint(j)), sc)
	p.forwardTrunc(a, j, procs, sc)
	scratchPool.Put(sc)
	return nil
}

// IFFT is the inverse of FFT: it replaces the Size() evaluations a (subspace
// order) by the coefficients of the unique polynomial of degree < Size()
// taking them.
func (s *Subspace) IFFT(a []gf64.Element) error {
	if err := s.checkLen("IFFT", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	procs := p.procsFor(len(a))
	p.inverse(a, 0, p.m-1, procs, sc)
	p.fromNovel(a, 0, procs, sc)
	scratchPool.Put(sc)
	return nil
}

// NovelFFT evaluates, in place, the polynomial Σ a[i]·X_i given in the
// novel basis of s (see doc.go) at every element of s, in subspace order.
func (s *Subspace) NovelFFT(a []gf64.Element) error {
	if err := s.checkLen("NovelFFT", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	p.forward(a, 0, p.m-1, p.procsFor(len(a)), sc)
	scratchPool.Put(sc)
	return nil
}

// NovelIFFT is the inverse of NovelFFT: evaluations in, novel-basis
// coefficients out.
func (s *Subspace) NovelIFFT(a []gf64.Element) error {
	if err := s.checkLen("NovelIFFT", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	p.inverse(a, 0, p.m-1, p.procsFor(len(a)), sc)
	scratchPool.Put(sc)
	return nil
}

// MonomialToNovel rewrites, in place, a polynomial of degree < Size() from
// the monomial basis to the novel basis of s. The novel basis depends on the
// basis of s only, not on its shift.
func (s *Subspace) MonomialToNovel(a []gf64.Element) error {
	if err := s.checkLen("MonomialToNovel", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	p.toNovel(a, 0, p.procsFor(len(a)), sc)
	scratchPool.Put(sc)
	return nil
}

// NovelToMonomial is the inverse of MonomialToNovel.
func (s *Subspace) NovelToMonomial(a []gf64.Element) error {
	if err := s.checkLen("NovelToMonomial", len(a)); err != nil {
		return err
	}
	p := s.plan()
	sc := scratchPool.Get().(*scratch)
	p.fromNovel(a, 0, p.procsFor(len(a)), sc)
	scratchPool.Put(sc)
	return nil
}
