package fri

import "fmt"

// interpolateLagrange returns the coefficients (constant first) of the polynomial
// of degree < len(xs) through the points (xs[i], ys[i]), by Lagrange's
// formula on the node polynomial M(X) = Π_j (X − x_j): P = Σ_i y_i·M_i /
// M_i(x_i), M_i = M/(X − x_i). The nodes must be distinct; O(D²).
func interpolateLagrange[E comparable, X any](o alg[E, X], xs []E, ys []X) ([]X, error) {
	d := len(xs)
	var zero E
	m := make([]E, d+1) // M, constant first
	m[0] = o.eone()
	for j, x := range xs {
		// m ← m·(X − x)
		m[j+1] = m[j]
		for k := j; k > 0; k-- {
			m[k] = esub(o, m[k-1], o.emul(m[k], x))
		}
		m[0] = esub(o, zero, o.emul(m[0], x))
	}
	out := make([]X, d)
	q := make([]E, d)
	for i, x := range xs {
		// q = M/(X − x): synthetic division from the top.
		q[d-1] = m[d]
		for k := d - 1; k > 0; k-- {
			q[k-1] = eadd(o, m[k], o.emul(q[k], x))
		}
		var w E // q(x)
		for k := d - 1; k >= 0; k-- {
			w = eadd(o, o.emul(w, x), q[k])
		}
		if w == zero {
			return nil, fmt.Errorf("fri: interpolation nodes repeat: %w", ErrDomain)
		}
		c := o.xscale(ys[i], o.einv(w))
		for k := range out {
			out[k] = o.xadd(out[k], o.xscale(c, q[k]))
		}
	}
	return out, nil
}

// evalPoly returns Σ_k c_k·x^k by Horner's rule.
func evalPoly[E, X any](o alg[E, X], c []X, x E) X {
	var r X
	for k := len(c) - 1; k >= 0; k-- {
		r = o.xadd(o.xscale(r, x), c[k])
	}
	return r
}

// eadd and esub are E's sum and difference, through the embedding into X
// (the first coordinate: the embedding is additive).
func eadd[E, X any](o alg[E, X], a, b E) E {
	s := o.xadd(o.xembed(a), o.xembed(b))
	return coordsOf[X, E](&s)[0]
}

func esub[E, X any](o alg[E, X], a, b E) E {
	s := o.xsub(o.xembed(a), o.xembed(b))
	return coordsOf[X, E](&s)[0]
}
