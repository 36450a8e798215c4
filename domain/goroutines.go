package domain

import (
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

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

// taylor is taylorBlock with a budget of procs goroutines: blocks of at
// least parMin elements XOR their quarters in parallel and split the budget
// between their halves.
func taylor(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < parMin || n <= 4*s {
		taylorBlock(a, s)
		return
	}
	q := n >> 2
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	p1 := procs / 2
	both(procs, func() { taylor(a[:2*q], s, p1) }, func() { taylor(a[2*q:], s, procs-p1) })
}

// untaylor undoes taylor.
func untaylor(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < parMin || n <= 4*s {
		untaylorBlock(a, s)
		return
	}
	q := n >> 2
	p1 := procs / 2
	both(procs, func() { untaylor(a[:2*q], s, p1) }, func() { untaylor(a[2*q:], s, procs-p1) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
}
