package domain

import (
	"math/bits"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Working memory of the executors: per-call scratch (pooled) and the
// gather buffers of the conversion (pooled, or mapped per call: mem_*.go).

// scratch is per-call working space, pooled so that transforms do not
// allocate in steady state.
type scratch struct {
	v, tw [chunk / 2]gf64.Element
	t     [chunk]gf64.Element
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

var bufPools [bufPoolLog + 1]sync.Pool

type gbuf struct {
	b      []gf64.Element
	mapped bool
}

func getBuf(n int) *gbuf {
	l := bits.TrailingZeros(uint(n))
	if l <= bufPoolLog {
		if b, ok := bufPools[l].Get().(*gbuf); ok {
			return b
		}
		return &gbuf{b: make([]gf64.Element, n)}
	}
	if b := mapBuf(n); b != nil {
		return &gbuf{b: b, mapped: true}
	}
	return &gbuf{b: make([]gf64.Element, n)}
}

func putBuf(b *gbuf) {
	if l := bits.TrailingZeros(uint(len(b.b))); l <= bufPoolLog {
		bufPools[l].Put(b)
	} else if b.mapped {
		unmapBuf(b.b)
	}
}
