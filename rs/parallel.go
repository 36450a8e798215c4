package rs

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// EncodeBatch's columns are spread over a Code's helper goroutines, started on first need and
// kept for the Code's life (a cleanup closes their channel once the Code is
// unreachable; the helpers hold the channel only, never the Code). A call
// hands one *job to as many helpers as it wants, runs items itself too, and
// waits; jobs come from a sync.Pool, so rs allocates nothing per call in
// steady state. Each column is domain's batch LDE on that one column, which
// runs serial transforms.

type job struct {
	c     *Code
	count int64
	next  atomic.Int64
	wg    sync.WaitGroup
	// Column i: dsts[i] gets the codeword of msgs[i].
	dsts, msgs [][]gf64.Element
}

func (j *job) run() {
	for {
		i := j.next.Add(1) - 1
		if i >= j.count {
			return
		}
		must(domain.LDEBatch(j.dsts[i:i+1], j.msgs[i:i+1], j.c.msg, j.c.cw))
	}
}

type helpers struct {
	mu      sync.Mutex
	ch      chan *job
	started int
}

func helperLoop(ch chan *job) {
	for j := range ch {
		j.run()
		j.wg.Done()
	}
}

// workers returns how many goroutines a call may use.
func (c *Code) workerCount() int {
	if c.workers > 0 {
		return c.workers
	}
	return runtime.GOMAXPROCS(0)
}

// ensure makes sure at least n helpers run.
func (c *Code) ensureHelpers(n int) {
	h := c.helpers
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ch == nil {
		h.ch = make(chan *job)
		runtime.AddCleanup(c, func(ch chan *job) { close(ch) }, h.ch)
	}
	for ; h.started < n; h.started++ {
		go helperLoop(h.ch)
	}
}

// do runs j's items on up to w goroutines (the caller's included) and
// returns when all are done; then j goes back to the pool.
func (c *Code) do(j *job, w int) {
	extra := min(int64(w-1), j.count-1)
	if extra > 0 {
		c.ensureHelpers(int(extra))
		j.wg.Add(int(extra))
		for range extra {
			c.helpers.ch <- j
		}
	}
	j.run()
	j.wg.Wait()
	// Drop references before pooling; wg is zero again after Wait.
	j.c, j.dsts, j.msgs = nil, nil, nil
	j.next.Store(0)
	c.jobs.Put(j)
}

func (c *Code) newJob(count int) *job {
	j := c.jobs.Get().(*job)
	j.c, j.count = c, int64(count)
	return j
}
