package domain

import (
	"fmt"
	"runtime"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// LDE is the low-degree extension: src holds the 2^k evaluations over from
// of a polynomial f of degree < 2^k, and LDE writes the 2^n evaluations of
// f over to (n ≥ k) into dst, in subspace order. The result equals
// to.FFT of from.IFFT(src) zero-padded to 2^n coefficients, bit for bit.
//
// The fast case is a target whose basis starts with the basis of from (for
// example from.Extend(...), with any shift, or from itself shifted to a
// disjoint coset): then f goes through the novel basis of from (inverse
// network), and each of the 2^(n−k) cosets of span(from's basis) inside to
// is one forward network of size 2^k. Other targets go through the monomial
// basis (IFFT over from, truncated FFT over to).
//
// src is read before dst is written, so they may overlap; src is not
// modified unless it overlaps dst.
func LDE(dst, src []gf64.Element, from, to *Subspace) error {
	if err := checkLDE(dst, src, from, to); err != nil {
		return err
	}
	sc := scratchPool.Get().(*scratch)
	lde(dst, src, from.plan(), to.plan(), from.hasBasisPrefix(to), sc, runtime.GOMAXPROCS(0))
	scratchPool.Put(sc)
	return nil
}

// LDE is the method form of the package function LDE with from = s.
func (s *Subspace) LDE(dst, src []gf64.Element, to *Subspace) error {
	return LDE(dst, src, s, to)
}

func checkLDE(dst, src []gf64.Element, from, to *Subspace) error {
	if from == nil || to == nil {
		return fmt.Errorf("%w: LDE with a nil subspace", ErrMismatch)
	}
	if from.Dim() > to.Dim() {
		return fmt.Errorf("%w: LDE from dimension %d to smaller dimension %d",
			ErrMismatch, from.Dim(), to.Dim())
	}
	if to.Dim() > MaxTransformDim {
		return fmt.Errorf("%w: LDE to a %d-dimensional subspace, at most %d",
			ErrDim, to.Dim(), MaxTransformDim)
	}
	if len(src) != from.Size() {
		return fmt.Errorf("%w: LDE: src has %d elements, the source subspace has %d",
			ErrLength, len(src), from.Size())
	}
	if len(dst) != to.Size() {
		return fmt.Errorf("%w: LDE: dst has %d elements, the target subspace has %d",
			ErrLength, len(dst), to.Size())
	}
	return nil
}

// lde runs the LDE with a budget of procs goroutines (1 inside batches,
// which are parallel over columns); each step takes its plan's share of it
// for its size (plan.budget). fp and tp are the plans of the source and
// target subspaces; related says that the target's basis starts with the
// source's.
func lde(dst, src []gf64.Element, fp, tp *plan, related bool, sc *scratch, procs int) {
	k := fp.m
	n := 1 << uint(k)
	copy(dst[:n], src)
	fp.inverse(dst[:n], 0, k-1, fp.budget(n, procs), sc)
	if !related {
		fp.fromNovel(dst[:n], 0, fp.budget(n, procs), sc)
		clear(dst[n:])
		tp.toNovel(dst[:n], 0, tp.budget(n, procs), sc)
	}
	tp.forwardTrunc(dst, k, tp.budget(len(dst), procs), sc)
}
