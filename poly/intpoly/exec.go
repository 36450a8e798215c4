package intpoly

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor calls f(i) for every i in [0, n), spread over up to workers
// goroutines (the calling one included), each taking the next undone index.
func parallelFor(workers, n int, f func(i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			f(i)
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}

// defaultWorkers is the number of goroutines a call uses without
// WithWorkers.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// convolve runs, for every prime i of the plan, the forward transforms of
// ra[i] and rb[i] (rb nil: squaring, rb[i] = ra[i]), their pointwise
// product and the inverse transform, leaving in ra[i] (values below 2p)
// the cyclic convolution of the inputs times 2^−montShift·N; the plan
// scales one operand by 2^montShift/N when it reduces it, so ra[i] ends as
// the plain cyclic convolution. Every vector has length 2^logN; inputs are
// below 4p. The first and last phases (columns) run over all primes'
// column groups at once; the middle phase keeps each row in cache from
// its forward transforms to its inverse one.
func (pl *plan) convolve(ra, rb [][]uint64) {
	ks := pl.ks
	n := 1 << pl.logN
	k := len(pl.primes)
	rowLen := n
	if pl.logN > blockLog {
		rowLen = 1 << blockLog
	}
	rows := n / rowLen
	ops := 2
	if rb == nil {
		ops = 1
	}

	if rows > 1 {
		// Tasks of 8 column groups (64 columns, 512 bytes per row).
		const groups = 8
		perArr := rowLen / (colGroup * groups)
		parallelFor(pl.workers, k*ops*perArr, func(t int) {
			arr, g := t/perArr, t%perArr
			i, op := arr%k, arr/k
			x := ra[i]
			if op == 1 {
				x = rb[i]
			}
			tw := pl.tw[i].fwd
			for c := g * groups * colGroup; c < (g+1)*groups*colGroup; c += colGroup {
				ks.fwdCols(x[c:], rowLen, rows, tw, pl.primes[i].p)
			}
		})
	}

	parallelFor(pl.workers, k*rows, func(t int) {
		i, r := t/rows, t%rows
		p := pl.primes[i].p
		tw := pl.tw[i]
		a := ra[i][r*rowLen : (r+1)*rowLen]
		ks.fwdRow(a, r, tw.fwd, p)
		if rb == nil {
			ks.pointwise(a, a, p)
		} else {
			b := rb[i][r*rowLen : (r+1)*rowLen]
			ks.fwdRow(b, r, tw.fwd, p)
			ks.pointwise(a, b, p)
		}
		ks.invRow(a, r, tw.inv, p)
	})

	if rows > 1 {
		const groups = 8
		perArr := rowLen / (colGroup * groups)
		parallelFor(pl.workers, k*perArr, func(t int) {
			i, g := t/perArr, t%perArr
			tw := pl.tw[i].inv
			for c := g * groups * colGroup; c < (g+1)*groups*colGroup; c += colGroup {
				ks.invCols(ra[i][c:], rowLen, rows, tw, pl.primes[i].p)
			}
		})
	}
}
