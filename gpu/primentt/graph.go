package primentt

import "github.com/gfpoly/gfpoly/gpu"

// A transform queued on a stream runs as a CUDA graph from its second call
// with the same buffer, shape and kind on: its passes are captured once
// (gpu.Queue.Capture) and queued as one unit afterwards, one submission
// instead of one per pass (about 4 µs each on the H100 machine, more than a
// small pass takes on the device). Graphs belong to an NTT, whose device,
// size and plan are fixed, and are keyed by everything else a launch
// sequence depends on, so a different buffer, column count, order or
// direction captures its own; beyond maxGraphs an arbitrary one goes, and
// Close frees them all.

// maxGraphs bounds the graphs one NTT keeps.
const maxGraphs = 16

type graphKey struct {
	ptr            uint64
	cols           int
	o              Order
	inverse, coset bool
	noReg          bool
}

type graphEntry struct {
	g      *gpu.Graph // nil until the second call
	failed bool       // capture refused (no graphs, default stream): launch directly
}

// graph returns the graph of key to queue (nil: launch directly, the
// first call with key or where capture fails) and the graphs evicted to
// make room, which the caller closes after Device.Do. It runs inside
// Device.Do.
func (t *NTT[E]) graph(q *gpu.Queue, key graphKey, launch func(q *gpu.Queue) error) (*gpu.Graph, []*gpu.Graph) {
	t.gmu.Lock()
	defer t.gmu.Unlock()
	if t.graphs == nil {
		t.graphs = map[graphKey]*graphEntry{}
	}
	e := t.graphs[key]
	if e == nil {
		var evicted []*gpu.Graph
		for k, old := range t.graphs {
			if len(t.graphs) < maxGraphs {
				break
			}
			if old.g != nil {
				evicted = append(evicted, old.g)
			}
			delete(t.graphs, k)
		}
		t.graphs[key] = &graphEntry{}
		return nil, evicted
	}
	if e.failed {
		return nil, nil
	}
	if e.g == nil {
		g, err := q.Capture(launch)
		if err != nil {
			e.failed = true
			return nil, nil
		}
		e.g = g
	}
	return e.g, nil
}

// closeGraphs frees the NTT's graphs (outside gmu: Graph.Close waits for
// the device, which a transform in Device.Do holding gmu may hold).
func (t *NTT[E]) closeGraphs() error {
	t.gmu.Lock()
	graphs := t.graphs
	t.graphs = nil
	t.gmu.Unlock()
	var err error
	for _, e := range graphs {
		if e.g != nil {
			if x := e.g.Close(); x != nil && err == nil {
				err = x
			}
		}
	}
	return err
}
