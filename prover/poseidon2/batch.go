package poseidon2

import (
	"sync"
	"sync/atomic"
)

// batchGrain is the number of states (or rows, or pairs) one worker takes
// at a time: 4 groups of the 16-lane kernel, about 10 to 50 microseconds
// (so that 2^10 states already keep 16 cores busy).
const batchGrain = 64

// spread calls f(lo, hi) on consecutive pieces [lo, hi) of [0, n), each of
// grain items but the last, on up to workers goroutines (the calling one
// among them), and returns when all are done.
func spread(n, grain, workers int, f func(lo, hi int)) {
	pieces := (n + grain - 1) / grain
	workers = min(workers, pieces)
	if workers <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= pieces {
				return
			}
			f(i*grain, min((i+1)*grain, n))
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
