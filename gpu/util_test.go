package gpu

import (
	"math/rand/v2"
	"runtime"
	"sync"
)

// parallel runs f over [0, n) split into one range per CPU.
func parallel(n int, f func(lo, hi int)) {
	p := runtime.NumCPU()
	if n < 1<<14 || p == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + p - 1) / p
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// randomWords returns n deterministic pseudo-random words.
func randomWords[T ~uint32 | ~uint64](n int, seed uint64) []T {
	out := make([]T, n)
	parallel(n, func(lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(lo)))
		for i := lo; i < hi; i++ {
			out[i] = T(r.Uint64())
		}
	})
	return out
}
