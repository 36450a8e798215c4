package domain

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Goroutine helpers of the executors. A budget of procs goroutines is
// passed down the executors; these split it. Closures are only made where
// procs > 1, so that the one-goroutine path allocates nothing.

// budget returns the goroutines a step of n elements gets out of a call's
// budget of procs: all of them from tun.parMin elements up, else one.
func (p *plan) budget(n, procs int) int {
	if n < p.tun.parMin {
		return 1
	}
	return procs
}

// procsFor is the budget of a single transform of n elements: all cores
// from tun.parMin elements up, else one.
func (p *plan) procsFor(n int) int { return p.budget(n, runtime.GOMAXPROCS(0)) }

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

// parallel runs f(0), …, f(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	w := min(n, runtime.GOMAXPROCS(0))
	if w <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(w)
	for range w {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
