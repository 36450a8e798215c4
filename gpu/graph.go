package gpu

import (
	"errors"
	"fmt"
)

// ErrNoGraphs is returned by Queue.Capture where graphs cannot be used: the
// driver has no CUDA graphs, or the queue is on the default stream (which
// cannot be captured).
var ErrNoGraphs = errors.New("gpu: CUDA graphs unavailable")

// Graph is work captured once from a Queue (kernel launches and copies)
// and queued again as one unit, a CUDA graph: one submission to the driver
// instead of one per launch. The launches keep the arguments they were
// captured with (buffer addresses included), so a graph is only valid while
// the memory and kernels it names are. A graph may be queued on any stream
// of its device; its launches are ordered after its previous launches.
type Graph struct {
	d       *Device
	g, exec uintptr
	st      *allocState
}

// Capture records the work f queues on q into a Graph instead of running
// it. Only launches and copies may be captured (not Scratch). It returns
// ErrNoGraphs on the default stream or without driver support, and f's
// error or the driver's otherwise (then no graph is made).
func (q *Queue) Capture(f func(q *Queue) error) (*Graph, error) {
	drv := q.d.drv
	if q.h == 0 || drv.graphLaunchSym == 0 {
		return nil, ErrNoGraphs
	}
	// CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: the capture sees this thread's
	// calls only (Device.do runs f locked to this thread).
	if err := drv.errorf("cuStreamBeginCapture", drv.cuStreamBeginCapture(q.h, 1)); err != nil {
		return nil, err
	}
	ferr := f(q)
	g := &Graph{d: q.d, st: &allocState{}}
	eerr := drv.errorf("cuStreamEndCapture", drv.cuStreamEndCapture(q.h, &g.g))
	if ferr != nil || eerr != nil {
		if g.g != 0 {
			drv.cuGraphDestroy(g.g)
		}
		if ferr != nil {
			return nil, ferr
		}
		return nil, eerr
	}
	if err := drv.errorf("cuGraphInstantiate", drv.cuGraphInstantiate(&g.exec, g.g, 0)); err != nil {
		drv.cuGraphDestroy(g.g)
		return nil, err
	}
	return g, nil
}

// LaunchGraph queues g on q's stream.
func (q *Queue) LaunchGraph(g *Graph) error {
	if g == nil || g.d != q.d {
		return fmt.Errorf("gpu: LaunchGraph: nil graph or a graph of another device")
	}
	if g.st.freed.Load() {
		return fmt.Errorf("gpu: LaunchGraph: graph closed: %w", ErrClosed)
	}
	return q.d.drv.errorf("cuGraphLaunch", q.d.drv.graphLaunch(g.exec, q.h))
}

// Close frees the graph; launches already queued still run. Closing twice
// is harmless. It must not be called inside Device.Do.
func (g *Graph) Close() error {
	if g == nil || g.st.freed.Swap(true) {
		return nil
	}
	err := g.d.do(func() error {
		e1 := g.d.drv.errorf("cuGraphExecDestroy", g.d.drv.cuGraphExecDestroy(g.exec))
		e2 := g.d.drv.errorf("cuGraphDestroy", g.d.drv.cuGraphDestroy(g.g))
		return errors.Join(e1, e2)
	})
	if err == ErrClosed {
		return nil // the context is gone, and its graphs with it
	}
	return err
}
