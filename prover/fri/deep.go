package fri

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

// deepChunk is the number of rows whose denominators are inverted together.
const deepChunk = 1024

// addQuotient adds batch bt's DEEP terms to q over its LDE rows (q nil: a
// new slice): with G = Σ_j α^j·col_j (the oracle's CombinePowers) and V_p
// = Σ_j α^j·v_(p,j) the same combination of the claimed values at z_p,
//
//	q[i] += Σ_p α^(off + p·cols)·(G(x_i) − V_p)/(x_i − z_p),
//
// which is Σ_p Σ_j α^(off + p·cols + j)·(f_j(x_i) − f_j(z_p))/(x_i − z_p).
// The denominators of a chunk of rows are inverted together (Montgomery's
// trick, the coefficient folded into them: 1/((x − z)·c⁻¹) = c/(x − z)),
// chunks spread over GOMAXPROCS goroutines.
func addQuotient[E Element, X Challenge](o alg[E, X], q []X, bt Batch[E, X], dom layer[E, X], values [][]X, alpha X, off uint64) ([]X, error) {
	n := dom.size()
	var g []X
	if err := guard(func() (err error) { g, err = bt.Oracle.CombinePowers(alpha); return }); err != nil {
		return nil, fmt.Errorf("CombinePowers: %w", err)
	}
	if len(g) != n {
		return nil, fmt.Errorf("CombinePowers gave %d values for %d rows: %w", len(g), n, ErrOracle)
	}
	if q == nil {
		q = make([]X, n)
	}
	cols := bt.Oracle.Columns()
	P := len(bt.Points)
	v := make([]X, P)    // V_p
	cinv := make([]X, P) // α^−(off + p·cols)
	zc := make([]X, P)   // z_p·α^−(off + p·cols)
	var zero X
	if alpha == zero {
		return nil, fmt.Errorf("the batching challenge is zero: %w", ErrParams)
	}
	ainv := o.xinv(alpha)
	for p := range P {
		for j := cols - 1; j >= 0; j-- {
			v[p] = o.xadd(o.xmul(v[p], alpha), values[p][j])
		}
		cinv[p] = xexp(o, ainv, off+uint64(p*cols))
		zc[p] = o.xmul(bt.Points[p], cinv[p])
	}
	k, ok := any(o).(interface{ kernel() any })
	if !ok {
		return nil, fmt.Errorf("no DEEP kernel for %v: %w", o.field(), ErrField)
	}
	kern := k.kernel().(deepOps[E, X])
	var bad atomic.Bool
	chunks := (n + deepChunk - 1) / deepChunk
	split{runtime.GOMAXPROCS(0), 4}.run(chunks, func(lo, hi int) {
		xs := make([]E, deepChunk)
		den := make([]X, deepChunk)
		acc := make([]X, deepChunk)
		for c := lo; c < hi; c++ {
			r0 := c * deepChunk
			m := min(deepChunk, n-r0)
			dom.points(xs[:m], r0)
			for p := range P {
				if !kern.deepPoint(q[r0:r0+m], g[r0:r0+m], xs[:m], cinv[p], zc[p], v[p], den[:m], acc[:m]) {
					bad.Store(true)
					return
				}
			}
		}
	})
	if bad.Load() {
		return nil, fmt.Errorf("a denominator x − z vanishes: %w", ErrPoint)
	}
	return q, nil
}
