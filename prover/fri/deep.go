package fri

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/gfpoly/gfpoly/internal/hugepage"
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
		q = hugepage.Make[X](n)
	}
	P := len(bt.Points)
	var zero X
	if alpha == zero {
		return nil, fmt.Errorf("the batching challenge is zero: %w", ErrParams)
	}
	v, cinv := deepTerms(o, bt, values, alpha, off)
	zc := make([]X, P) // z_p·α^−(off + p·cols)
	for p := range P {
		zc[p] = o.xmul(bt.Points[p], cinv[p])
	}
	k, ok := any(o).(interface{ kernel() any })
	if !ok {
		return nil, fmt.Errorf("no DEEP kernel for %v: %w", o.field(), ErrField)
	}
	kern := k.kernel().(deepOps[E, X])
	var A, B, D []X
	if P > 1 {
		A, B, D = deepFraction(o, bt.Points, v, cinv)
	}
	var bad atomic.Bool
	chunks := (n + deepChunk - 1) / deepChunk
	split{runtime.GOMAXPROCS(0), 4}.run(chunks, func(lo, hi int) {
		xs := make([]E, deepChunk)
		den := make([]X, deepChunk)
		acc := make([]X, deepChunk)
		num := make([]X, deepChunk)
		for c := lo; c < hi; c++ {
			r0 := c * deepChunk
			m := min(deepChunk, n-r0)
			dom.points(xs[:m], r0)
			if P > 1 {
				if !kern.deepMulti(q[r0:r0+m], g[r0:r0+m], xs[:m], A, B, D, num[:m], den[:m], acc[:m]) {
					bad.Store(true)
					return
				}
				continue
			}
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

// deepTerms returns, for each point p of bt, V_p = Σ_j α^j·v_(p,j) and
// α^−(off + p·cols); alpha ≠ 0.
func deepTerms[E Element, X Challenge](o alg[E, X], bt Batch[E, X], values [][]X, alpha X, off uint64) (v, cinv []X) {
	cols := bt.Oracle.Columns()
	P := len(bt.Points)
	v, cinv = make([]X, P), make([]X, P)
	ainv := o.xinv(alpha)
	for p := range P {
		for j := cols - 1; j >= 0; j-- {
			v[p] = o.xadd(o.xmul(v[p], alpha), values[p][j])
		}
		cinv[p] = xexp(o, ainv, off+uint64(p*cols))
	}
	return v, cinv
}

// deepFraction returns the polynomials of the fraction Σ_p c_p·(G −
// V_p)/(x − z_p) = (G·A(x) − B(x))/D(x), c_p = 1/cinv[p]: D = Π_p (x −
// z_p), L_p = D/(x − z_p), A = Σ_p c_p·L_p, B = Σ_p c_p·V_p·L_p
// (coefficients constant first).
func deepFraction[E Element, X Challenge](o alg[E, X], z, v, cinv []X) (A, B, D []X) {
	P := len(z)
	one := o.xembed(o.eone())
	D = []X{one}
	for _, zp := range z {
		D = mulLinear(o, D, zp)
	}
	A, B = make([]X, P), make([]X, P)
	for p := range P {
		L := []X{one}
		for q, zq := range z {
			if q != p {
				L = mulLinear(o, L, zq)
			}
		}
		c := o.xinv(cinv[p])
		cv := o.xmul(c, v[p])
		for k := range L {
			A[k] = o.xadd(A[k], o.xmul(c, L[k]))
			B[k] = o.xadd(B[k], o.xmul(cv, L[k]))
		}
	}
	return A, B, D
}

// mulLinear returns c·(x − z).
func mulLinear[E Element, X Challenge](o alg[E, X], c []X, z X) []X {
	out := make([]X, len(c)+1)
	for k, ck := range c {
		out[k+1] = o.xadd(out[k+1], ck)
		out[k] = o.xsub(out[k], o.xmul(ck, z))
	}
	return out
}
