package prime

import (
	"sync"
	"sync/atomic"
)

// forEach calls f(i, tasks) for i in [0, n) on up to workers goroutines.
// tasks is the number of goroutines f itself may use for column i: with at
// least as many columns as workers every column runs on one goroutine; with
// fewer, the workers are shared out among the columns so that a single large
// column still uses every core.
func forEach(n, workers int, f func(i, tasks int)) {
	switch {
	case n == 0:
		return
	case n == 1 || workers <= 1:
		tasks := workers
		if n > 1 {
			tasks = 1
		}
		for i := range n {
			f(i, tasks)
		}
		return
	case n < workers:
		tasks := workers / n
		var wg sync.WaitGroup
		for i := 1; i < n; i++ {
			wg.Go(func() { f(i, tasks) })
		}
		f(0, tasks)
		wg.Wait()
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			f(i, 1)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
