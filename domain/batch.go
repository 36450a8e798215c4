package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// batch checks every column, then runs op on each, spread over all cores.
func (s *Subspace) batch(name string, cols [][]gf64.Element, op func(p *plan, a []gf64.Element, sc *scratch)) error {
	for i, c := range cols {
		if err := s.checkLen(name, len(c)); err != nil {
			return fmtCol(err, i)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	p := s.plan()
	parallel(len(cols), func(i int) {
		sc := scratchPool.Get().(*scratch)
		op(p, cols[i], sc)
		scratchPool.Put(sc)
	})
	return nil
}

// FFTBatch runs FFT on every column, in place, spread over all cores. Every
// length is checked before any column is touched. Columns are transformed
// concurrently, so they must not overlap (the same for every batch
// function).
func (s *Subspace) FFTBatch(cols [][]gf64.Element) error {
	return s.batch("FFTBatch", cols, func(p *plan, a []gf64.Element, sc *scratch) {
		p.toNovel(a, 0, 1, sc)
		p.forward(a, 0, p.m-1, 1, sc)
	})
}

// IFFTBatch runs IFFT on every column, in place, spread over all cores.
func (s *Subspace) IFFTBatch(cols [][]gf64.Element) error {
	return s.batch("IFFTBatch", cols, func(p *plan, a []gf64.Element, sc *scratch) {
		p.inverse(a, 0, p.m-1, 1, sc)
		p.fromNovel(a, 0, 1, sc)
	})
}

// NovelFFTBatch runs NovelFFT on every column, in place, spread over all cores.
func (s *Subspace) NovelFFTBatch(cols [][]gf64.Element) error {
	return s.batch("NovelFFTBatch", cols, func(p *plan, a []gf64.Element, sc *scratch) {
		p.forward(a, 0, p.m-1, 1, sc)
	})
}

// NovelIFFTBatch runs NovelIFFT on every column, in place, spread over all cores.
func (s *Subspace) NovelIFFTBatch(cols [][]gf64.Element) error {
	return s.batch("NovelIFFTBatch", cols, func(p *plan, a []gf64.Element, sc *scratch) {
		p.inverse(a, 0, p.m-1, 1, sc)
	})
}

// LDEBatch runs LDE(dst[i], src[i], from, to) for every column, spread over
// all cores. Every length is checked before any column is written. dst[i]
// may overlap src[i] (as in LDE) but no other column.
func LDEBatch(dst, src [][]gf64.Element, from, to *Subspace) error {
	if len(dst) != len(src) {
		return fmtLen("LDEBatch: %d destination columns and %d source columns", len(dst), len(src))
	}
	for i := range dst {
		if err := checkLDE(dst[i], src[i], from, to); err != nil {
			return fmtCol(err, i)
		}
	}
	if len(dst) == 0 {
		return nil
	}
	fp, tp, related := from.plan(), to.plan(), from.hasBasisPrefix(to)
	parallel(len(dst), func(i int) {
		sc := scratchPool.Get().(*scratch)
		lde(dst[i], src[i], fp, tp, related, sc, 1)
		scratchPool.Put(sc)
	})
	return nil
}
