package domain

import (
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Single transforms of at least parMin elements (2 MiB) split their work over
// GOMAXPROCS goroutines (spawning them costs a few small allocations per
// call); smaller ones run on the calling goroutine and allocate nothing.
const parMin = 1 << 18

func procsFor(n int) int {
	if n < parMin {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// both runs f and g, in parallel when procs > 1.
func both(procs int, f, g func()) {
	if procs <= 1 {
		f()
		g()
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		g()
	}()
	f()
	wg.Wait()
}

// parRange splits [0, n) into procs pieces, each a multiple of align long
// (but the last), and runs f on them in parallel.
func parRange(n, align, procs int, f func(lo, hi int)) {
	piece := (n/procs + align - 1) / align * align
	if procs <= 1 || piece >= n || piece == 0 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for lo := piece; lo < n; lo += piece {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+piece, n))
	}
	f(0, piece)
	wg.Wait()
}

func withScratch(f func(sc *scratch)) {
	sc := scratchPool.Get().(*scratch)
	f(sc)
	scratchPool.Put(sc)
}

// forwardPar is forward spread over procs goroutines.
func (p *plan) forwardPar(a []gf64.Element, off, r, procs int, sc *scratch) {
	if procs <= 1 || r < p.L || len(a) < parMin {
		p.forward(a, off, r, sc)
		return
	}
	if p.tun.net && r-2 >= p.L {
		tw := p.radix8Tw(off, r)
		e := len(a) >> 3
		parRange(e, chunk, procs, func(lo, hi int) { radix8Cols(a, a, lo, hi, &tw, false) })
		p.par8(a, off, r, procs, false)
		return
	}
	h := len(a) >> 1
	c := p.twiddle(r, off>>uint(r+1))
	parRange(h, chunk, procs, func(lo, hi int) { gf64.Butterfly(a[lo:hi], a[h+lo:h+hi], c) })
	p1 := procs / 2
	both(procs,
		func() { p.forwardPar(a[:h], off, r-1, p1, sc) },
		func() { withScratch(func(sc *scratch) { p.forwardPar(a[h:], off+h, r-1, procs-p1, sc) }) })
}

// inversePar is inverse spread over procs goroutines.
func (p *plan) inversePar(a []gf64.Element, off, r, procs int, sc *scratch) {
	if procs <= 1 || r < p.L || len(a) < parMin {
		p.inverse(a, off, r, sc)
		return
	}
	if p.tun.net && r-2 >= p.L {
		p.par8(a, off, r, procs, true)
		tw := p.radix8Tw(off, r)
		e := len(a) >> 3
		parRange(e, chunk, procs, func(lo, hi int) { radix8Cols(a, a, lo, hi, &tw, true) })
		return
	}
	h := len(a) >> 1
	p1 := procs / 2
	both(procs,
		func() { p.inversePar(a[:h], off, r-1, p1, sc) },
		func() { withScratch(func(sc *scratch) { p.inversePar(a[h:], off+h, r-1, procs-p1, sc) }) })
	c := p.twiddle(r, off>>uint(r+1))
	parRange(h, chunk, procs, func(lo, hi int) { gf64.InvButterfly(a[lo:hi], a[h+lo:h+hi], c) })
}

// forwardTruncPar is forwardTrunc spread over procs goroutines.
func (p *plan) forwardTruncPar(a []gf64.Element, j, procs int, sc *scratch) {
	if procs <= 1 {
		p.forwardTrunc(a, j, sc)
		return
	}
	bs := 1 << uint(j)
	nb := len(a) / bs
	if nb < procs {
		for i := bs; i < len(a); i += bs {
			copy(a[i:i+bs], a[:bs])
		}
		for i := 0; i < len(a); i += bs {
			p.forwardPar(a[i:i+bs], i, j-1, procs, sc)
		}
		return
	}
	first := a[:bs]
	if j > 0 && bs >= parMin && (nb-1)%procs != 0 {
		// The blocks do not share evenly: split each transform instead.
		// Block 0 is the source of the others: transform it last.
		for b := nb - 1; b >= 1; b-- {
			p.forwardFromPar(a[b*bs:(b+1)*bs], first, b*bs, j-1, procs, sc)
		}
		p.forwardPar(first, 0, j-1, procs, sc)
		return
	}
	parRange(nb-1, 1, procs, func(lo, hi int) {
		withScratch(func(sc *scratch) {
			for b := hi; b > lo; b-- { // blocks 1..nb-1
				if j > 0 {
					p.forwardFrom(a[b*bs:(b+1)*bs], first, b*bs, j-1, sc)
				} else {
					copy(a[b*bs:(b+1)*bs], first)
				}
			}
		})
	})
	if j > 0 {
		p.forwardPar(first, 0, j-1, procs, sc)
	}
}

// forwardFromPar is forwardFrom spread over procs goroutines.
func (p *plan) forwardFromPar(dst, src []gf64.Element, off, r, procs int, sc *scratch) {
	if procs <= 1 {
		p.forwardFrom(dst, src, off, r, sc)
		return
	}
	if !p.tun.net || r-2 < p.L || len(dst) < parMin {
		parRange(len(dst), chunk, procs, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
		p.forwardPar(dst, off, r, procs, sc)
		return
	}
	tw := p.radix8Tw(off, r)
	e := len(dst) >> 3
	parRange(e, chunk, procs, func(lo, hi int) { radix8Cols(dst, src, lo, hi, &tw, false) })
	p.par8(dst, off, r, procs, false)
}

// toNovelPar is toNovelPrefix spread over procs goroutines.
func (p *plan) toNovelPar(a []gf64.Element, j, procs int, sc *scratch) {
	p.toNovelDeep(a, 0, procs, sc)
}

// fromNovelPar is fromNovel spread over procs goroutines.
func (p *plan) fromNovelPar(a []gf64.Element, procs int, sc *scratch) {
	p.fromNovelDeep(a, 0, procs, sc)
}

func (p *plan) twistPar(a []gf64.Element, r, procs int, inv bool) {
	align := max(chunk, 1<<uint(r))
	parRange(len(a), align, procs, func(lo, hi int) {
		withScratch(func(sc *scratch) { p.twistAt(a[lo:hi], lo, r, sc, inv) })
	})
}

func taylorPar(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < parMin || n <= 4*s {
		taylor(a, s)
		return
	}
	q := n >> 2
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	p1 := procs / 2
	both(procs, func() { taylorPar(a[:2*q], s, p1) }, func() { taylorPar(a[2*q:], s, procs-p1) })
}

func untaylorPar(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < parMin || n <= 4*s {
		untaylor(a, s)
		return
	}
	q := n >> 2
	p1 := procs / 2
	both(procs, func() { untaylorPar(a[:2*q], s, p1) }, func() { untaylorPar(a[2*q:], s, procs-p1) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
}

// par8 runs the network (levels r-3..0, inverse if inv) on the eight
// sub-blocks of a, spread over procs goroutines.
func (p *plan) par8(a []gf64.Element, off, r, procs int, inv bool) {
	e := len(a) >> 3
	sub := max(1, procs/8)
	parRange(8, 1, procs, func(lo, hi int) {
		withScratch(func(sc *scratch) {
			for i := lo; i < hi; i++ {
				if inv {
					p.inversePar(a[i*e:(i+1)*e], off+i*e, r-3, sub, sc)
				} else {
					p.forwardPar(a[i*e:(i+1)*e], off+i*e, r-3, sub, sc)
				}
			}
		})
	})
}
