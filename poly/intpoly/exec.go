package intpoly

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor calls f(i) for every i in [0, n), spread over up to workers
// goroutines (the calling one included), each taking the next undone index.
func parallelFor(workers, n int, f func(i int)) {
	parallelForW(workers, n, func(_, i int) { f(i) })
}

// parallelForW is parallelFor that also tells f which of the goroutines
// runs it (w < workers), for scratch space of its own.
func parallelForW(workers, n int, f func(w, i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := range n {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			f(w, i)
		}
	}
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	run(0)
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
// below 4p, except that an input whose nonzero elements lie within the
// first na (ra) or nb (rb) where pl.inputEnd says N/2 is read only up to
// N/2: the rest is taken as zero. The first and last phases (columns) run
// over all primes' column groups at once; the middle phase keeps each row
// in cache from its forward transforms to its inverse one.
func (pl *plan) convolve(ra, rb [][]uint64, na, nb int) {
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

	// The column phases copy colBlock columns of every row into a
	// contiguous scratch block and transform them there: in place, the
	// rows of one column lie 2^(blockLog+3) bytes apart, a power of two
	// that maps them all to a few cache sets, so every level went to
	// memory.
	var scratch [][]uint64
	if rows > 1 {
		scratch = make([][]uint64, min(pl.workers, k*ops*rowLen/colBlock))
		for w := range scratch {
			scratch[w] = make([]uint64, rows*colBlock)
		}
		perArr := rowLen / colBlock
		parallelForW(pl.workers, k*ops*perArr, func(w, t int) {
			arr, g := t/perArr, t%perArr
			i, op := arr%k, arr/k
			x, nx := ra[i], na
			if op == 1 {
				x, nx = rb[i], nb
			}
			s := scratch[w]
			from := 0
			if pl.inputEnd(nx) < n {
				// The second half is zero: the first level's butterflies
				// (x, 0) give (x, x).
				gatherCols(s, x[g*colBlock:], rowLen, rows/2)
				copy(s[rows/2*colBlock:], s[:rows/2*colBlock])
				from = 1
			} else {
				gatherCols(s, x[g*colBlock:], rowLen, rows)
			}
			tw := pl.tw[i].fwd
			for c := 0; c < colBlock; c += colGroup {
				ks.fwdCols(s[c:], colBlock, rows, tw, pl.primes[i].p, from)
			}
			ks.scatter(x[g*colBlock:], s, rowLen, rows)
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
		perArr := rowLen / colBlock
		parallelForW(pl.workers, k*perArr, func(w, t int) {
			i, g := t/perArr, t%perArr
			x := ra[i][g*colBlock:]
			s := scratch[w]
			gatherCols(s, x, rowLen, rows)
			tw := pl.tw[i].inv
			for c := 0; c < colBlock; c += colGroup {
				ks.invCols(s[c:], colBlock, rows, tw, pl.primes[i].p)
			}
			ks.scatter(x, s, rowLen, rows)
		})
	}
}

// inputEnd returns how much of an input vector of at most n nonzero
// elements convolve reads: the first half when the transform has two
// phases and n ≤ N/2, all of it otherwise. The reductions write residues
// and zeros up to there.
func (pl *plan) inputEnd(n int) int {
	N := 1 << pl.logN
	if pl.logN > blockLog && 2*n <= N {
		return N / 2
	}
	return N
}

// colBlock is how many columns a column-phase task copies into its
// scratch block (512 bytes of each row).
const colBlock = 64

// gatherCols copies the first colBlock elements of each of rows rows of x
// (stride elements apart) into s, one after the other.
func gatherCols(s, x []uint64, stride, rows int) {
	for r := range rows {
		copy(s[r*colBlock:(r+1)*colBlock], x[r*stride:r*stride+colBlock])
	}
}

// scatterCols undoes gatherCols.
func scatterCols(x, s []uint64, stride, rows int) {
	for r := range rows {
		copy(x[r*stride:r*stride+colBlock], s[r*colBlock:(r+1)*colBlock])
	}
}
