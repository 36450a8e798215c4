package prover

import (
	"fmt"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Evaluate returns the value of every committed column's trace polynomial
// at each point: out[p][j] is p_j(points[p]), p_j the polynomial of degree
// < n = Rows()/blowup whose evaluations the trace column j holds (and the
// LDE extends), points in the challenge field X of the trace field (see
// Ext). The package documentation, "Challenges, combinations and
// evaluations", gives the formulas: one pass over the first n rows of the
// LDE for all the points (up to 16/[X:F] at a time), one batch inversion a
// row in the trace field, and [X:F]·len(points) base-field inner products
// a column. A point that lies in the codeword domain (a trace-field
// element, embedded in X) returns the stored row.
//
// For a commitment made by CommitLDE the LDE is taken as a codeword of the
// encoder's code; if it is not one, the values are those of the
// interpolant of its first n rows. A prime-field commitment keeps the
// barycentric weights of those rows (n trace-field elements) from its
// first Evaluate on, as long as the commitment itself is referenced.
//
// Errors wrap ErrField when X is not E's challenge field, ErrShape for no
// points or a commitment of fewer rows than the blowup, ErrUnavailable for
// a commitment that knows no evaluation domain, ErrClosed after Close. A
// commitment kept on the device is evaluated there, from the rows that are
// the coset g·⟨ω'^blowup⟩ (prime fields: gpu/primentt's EvalCoset) or the
// subspace of the first n rows (GF(2^64): gpu/gfvec's GF128.EvalSubspace),
// each device its own columns, and only the values come back.
func Evaluate[E Element, X Ext](c *Commitment[E], points []X) ([][]X, error) {
	if err := checkExt[E, X]("Evaluate"); err != nil {
		return nil, err
	}
	out := make([][]X, len(points))
	backing := make([]X, len(points)*c.cols)
	for p := range out {
		out[p] = backing[p*c.cols : (p+1)*c.cols : (p+1)*c.cols]
	}
	if err := EvaluateInto(c, out, points); err != nil {
		return nil, err
	}
	return out, nil
}

// EvaluateInto is Evaluate into dst: len(points) rows of Columns()
// elements (ErrShape otherwise).
func EvaluateInto[E Element, X Ext](c *Commitment[E], dst [][]X, points []X) error {
	if err := checkExt[E, X]("EvaluateInto"); err != nil {
		return err
	}
	if len(points) == 0 {
		return fmt.Errorf("prover: Evaluate: no points: %w", ErrShape)
	}
	if len(dst) != len(points) {
		return fmt.Errorf("prover: Evaluate: %d destination rows for %d points: %w", len(dst), len(points), ErrShape)
	}
	for p := range dst {
		if len(dst[p]) != c.cols {
			return fmt.Errorf("prover: Evaluate: destination row %d has %d elements for %d columns: %w", p, len(dst[p]), c.cols, ErrShape)
		}
	}
	n, err := c.traceRows("Evaluate")
	if err != nil {
		return err
	}
	lde, err := c.hostLDE("Evaluate")
	if err != nil {
		return err
	}
	if lde == nil {
		return evaluateDevice(c, dst, points, n)
	}
	cols := lde
	nd, err := c.evalNodes(n)
	if err != nil {
		return err
	}
	ops := opsOf[E, X]()
	// Points of the codeword domain read their row; the others go through
	// the barycentric formula, as many at a time as maxMoments allows.
	var rest []int
	for p, z := range points {
		if b, ok := ops.x.project(z); ok {
			if i, ok := nd.index(b); ok {
				for j := range cols {
					dst[p][j] = ops.x.lift(cols[j][i])
				}
				continue
			}
		}
		rest = append(rest, p)
	}
	per := max(maxMoments/ops.x.deg(), 1)
	for lo := 0; lo < len(rest); lo += per {
		group := rest[lo:min(lo+per, len(rest))]
		pts := make([]X, len(group))
		outs := make([][]X, len(group))
		for k, p := range group {
			pts[k], outs[k] = points[p], dst[p]
		}
		evalGroup(ops, nd, cols, n, pts, outs)
	}
	return nil
}

// maxMoments bounds the weight vectors of one pass: [X:F]·(points).
const maxMoments = 16

// evalBlock is the rows of one block of the evaluation: the nodes, the
// weights and their moments stay in L1/L2 while every column is read.
const evalBlock = 2048

// evalNodes are the interpolation nodes of a commitment's trace
// polynomials: its first n codeword points, x_i = CodewordPoint(i), with
// their barycentric weights λ_i = 1/Π_{j≠i}(x_i − x_j) up to a common
// factor (nil: all equal).
type evalNodes[E any] struct {
	fill  func(dst []E, lo int) // dst[i] = x_{lo+i}
	lam   []E
	index func(x E) (int, bool) // the codeword row of x, if x is a codeword point
	// basis is, for GF(2^64), the codeword subspace's basis: within an
	// aligned block of 2^l rows the nodes are x_lo + Σ_(b<l) bit_b(i)·β_b.
	basis []gf64.Element
}

// lagrangeCache keeps a prime-field commitment's node weights and its
// block of powers of ω' (for the nodes) from the first Evaluate on.
type lagrangeCache struct {
	once sync.Once
	lam  any // []E
	pow  any // []E: ω'^0 … ω'^(evalBlock−1)
	err  error
}

// evalNodes returns the nodes of the commitment's first n rows.
func (c *Commitment[E]) evalNodes(n int) (*evalNodes[E], error) {
	if FieldOf[E]() == GF64 {
		_, cw, err := c.binarySpaces("Evaluate")
		if err != nil {
			return nil, err
		}
		return any(&evalNodes[gf64.Element]{
			fill: func(dst []gf64.Element, lo int) { binaryPoints(dst, cw, lo) },
			index: func(x gf64.Element) (int, bool) {
				return cw.Index(x)
			},
			basis: cw.Basis(),
		}).(*evalNodes[E]), nil
	}
	o := baseOf[E]()
	g, w, err := primeRoots[E](c.rows)
	if err != nil {
		return nil, err
	}
	c.lam.once.Do(func() {
		pow := make([]E, min(evalBlock, n))
		geometric(o, pow, o.one(), w)
		c.lam.pow = pow
		c.lam.lam = geometricWeights(o, w, n)
	})
	lam, pow := c.lam.lam.([]E), c.lam.pow.([]E)
	rows := c.rows
	return &evalNodes[E]{
		fill: func(dst []E, lo int) {
			o.scaleVec(dst, pow[:len(dst)], ptr(o.mul(g, o.exp(w, uint64(lo)))))
		},
		lam: lam,
		index: func(x E) (int, bool) {
			return discreteLog(o, o.mul(x, o.inv(g)), w, rows)
		},
	}, nil
}

func ptr[T any](v T) *T { return &v }

// geometricWeights returns the barycentric weights of the nodes x_i =
// g·q^i, i < n, up to the common factor g^(1−n):
//
//	Π_{j≠i}(x_i − x_j) = g^(n−1)·(−1)^i·q^(e_i)·P_i·P_(n−1−i),
//	P_m = Π_{k=1..m}(1 − q^k),  e_i = i(i−1)/2 + i(n−1−i),
//
// and λ_i is its inverse (e_(i+1) − e_i = n − 2 − i).
func geometricWeights[F any](o baseOps[F], q F, n int) []F {
	p := make([]F, n)
	p[0] = o.one()
	qk := o.one()
	for m := 1; m < n; m++ {
		qk = o.mul(qk, q)
		p[m] = o.mul(p[m-1], o.sub(o.one(), qk))
	}
	d := make([]F, n)
	var zero F
	r := o.one()
	var t F
	if n >= 2 {
		t = o.exp(q, uint64(n-2))
	}
	qInv := o.inv(q)
	for i := range n {
		v := o.mul(r, o.mul(p[i], p[n-1-i]))
		if i&1 == 1 {
			v = o.sub(zero, v)
		}
		d[i] = v
		r = o.mul(r, t)
		t = o.mul(t, qInv)
	}
	o.invVec(d, d, p) // p is spent: it serves as the scratch
	return d
}

// discreteLog returns i < m with w^i = y, w of order m (a power of two),
// if y lies in the subgroup: Pohlig–Hellman, one bit of i a step.
func discreteLog[F any](o baseOps[F], y, w F, m int) (int, bool) {
	one := o.one()
	if !o.equal(o.exp(y, uint64(m)), one) {
		return 0, false
	}
	logm := log2(m)
	wInv := o.inv(w)
	i := 0
	for k := range logm {
		// y·w^−i has order dividing 2^(logm−k); its bit k decides.
		t := o.mul(y, o.exp(wInv, uint64(i)))
		t = o.exp(t, uint64(1)<<(logm-1-k))
		if !o.equal(t, one) {
			i += 1 << k
		}
	}
	return i, true
}

// evalGroup evaluates every column at the points of one group, none of
// them a node, into outs[p]. With χ_p(T) = N_{X/F}(T − z_p) (monic, in
// F[T]; χ_p(x) ≠ 0 for every x of F but z_p) and h_p = χ_p/(T − z_p),
//
//	1/(z_p − x) = −h_p(x)/χ_p(x) = −G_p(x)/Δ(x),  Δ = Π_p χ_p, G_p = h_p·Π_{p'≠p} χ_p',
//
// so the barycentric sums Σ_i f_i·λ_i/(z_p − x_i) are −Σ_k G_p,k·S_k with
// S_k = Σ_i f_i·W_i·x_i^k, W_i = λ_i/Δ(x_i) in F: the base-field moments
// of the column, one set for all the points. The value is the quotient of
// the column's sum by the sum of the constant 1 (the second barycentric
// form), so the common factors of λ cancel.
func evalGroup[F, X any](ops fieldPair[F, X], nd *evalNodes[F], cols [][]F, n int, pts []X, outs [][]X) {
	b, x := ops.b, ops.x
	m := x.deg() * len(pts)
	// Δ and the G_p.
	chis := make([][]F, len(pts))
	delta := []F{b.one()}
	for p, z := range pts {
		chis[p] = x.charPoly(z)
		delta = polyMulF(b, delta, chis[p])
	}
	gs := make([][]X, len(pts))
	for p, z := range pts {
		g := quotientByRoot(x, liftPoly(x, chis[p]), z)
		for q := range pts {
			if q != p {
				g = polyMulX(x, g, liftPoly(x, chis[q]))
			}
		}
		gs[p] = g
	}
	// The moments, block by block: sums[blk] holds S[j][k] (row-major
	// by column) and then D[k] = Σ_i W_i·x_i^k.
	nc := len(cols)
	width := nc*m + m
	blocks := (n + evalBlock - 1) / evalBlock
	sums := make([]F, blocks*width)
	// Δ's coefficients as vectors, for Horner's rule a block at a time.
	bl := min(evalBlock, n)
	consts := make([]F, m*bl)
	for k := range m {
		b.fill(consts[k*bl:(k+1)*bl], delta[k])
	}
	cv := func(k, l int) []F { return consts[k*bl : k*bl+l] }
	parallelFor(blocks, func(blk int) {
		lo, hi := blk*evalBlock, min((blk+1)*evalBlock, n)
		L := hi - lo
		buf, done := scratch[F]((m+4)*evalBlock + 2*invLanesWidth)
		defer done()
		xs := buf[:L]
		cst := buf[evalBlock : evalBlock+L]
		w := buf[2*evalBlock : 2*evalBlock+L]
		u := func(k int) []F { return buf[(3+k)*evalBlock : (3+k)*evalBlock+L] }
		nd.fill(xs, lo)
		// Δ(x) by Horner: x^m + δ_(m−1)x^(m−1) + … + δ_0.
		b.addVec(w, xs, cv(m-1, L))
		for k := m - 2; k >= 0; k-- {
			b.mulVec(w, w, xs)
			b.addVec(w, w, cv(k, L))
		}
		invLanes(b, w, w, buf[(3+m)*evalBlock:])
		if nd.lam != nil {
			b.mulVec(w, w, nd.lam[lo:hi])
		}
		copy(u(0), w)
		for k := 1; k < m; k++ {
			b.mulVec(u(k), u(k-1), xs)
		}
		s := sums[blk*width : (blk+1)*width]
		us := make([][]F, m)
		for k := range us {
			us[k] = u(k)
		}
		if bm, ok := any(us).([][]gf64.Element); ok && m <= 4 && L >= 2 {
			// GF(2^64): the moments of x and x² by folds (binaryMoments).
			xs := any(xs).([]gf64.Element)
			t := any(cst).([]gf64.Element)
			for j, col := range cols {
				f := any(col[lo:hi]).([]gf64.Element)
				binaryMoments(any(s[j*m:(j+1)*m]).([]gf64.Element), f, bm, xs[0], nd.basis[:log2(L)], t)
			}
		} else {
			dt := b.newDotter()
			dt.load(us)
			for j, col := range cols {
				dt.dots(col[lo:hi], s[j*m:(j+1)*m])
			}
			dt.release()
		}
		for k := range m {
			s[nc*m+k] = b.sum(u(k))
		}
	})
	tot := sums[:width]
	for blk := 1; blk < blocks; blk++ {
		s := sums[blk*width : (blk+1)*width]
		for i := range tot {
			tot[i] = b.add(tot[i], s[i])
		}
	}
	for p := range pts {
		g := gs[p]
		den := x.xzero()
		for k := range m {
			den = x.xadd(den, x.xscale(g[k], tot[nc*m+k]))
		}
		inv := x.xinv(den)
		for j := range nc {
			num := x.xzero()
			for k := range m {
				num = x.xadd(num, x.xscale(g[k], tot[j*m+k]))
			}
			outs[p][j] = x.xmul(num, inv)
		}
	}
}

// liftPoly embeds a polynomial over F into X.
func liftPoly[F, X any](x extOps[F, X], a []F) []X {
	out := make([]X, len(a))
	for i, v := range a {
		out[i] = x.lift(v)
	}
	return out
}

// polyMulX multiplies polynomials over X (constant first).
func polyMulX[F, X any](x extOps[F, X], a, b []X) []X {
	out := make([]X, len(a)+len(b)-1)
	for i := range out {
		out[i] = x.xzero()
	}
	for i := range a {
		for j := range b {
			out[i+j] = x.xadd(out[i+j], x.xmul(a[i], b[j]))
		}
	}
	return out
}

// quotientByRoot divides a (monic, a(z) = 0) by T − z: synthetic division.
func quotientByRoot[F, X any](x extOps[F, X], a []X, z X) []X {
	d := len(a) - 1
	q := make([]X, d)
	acc := x.xzero()
	for k := d; k >= 1; k-- {
		acc = x.xadd(a[k], x.xmul(acc, z))
		q[k-1] = acc
	}
	return q
}

// binaryMoments sets out[k] = Σ_i f[i]·u[0][i]·x_i^k for k < len(out) ≤ 4,
// x_i = x0 + Σ_(b<l) bit_b(i)·β_b over an aligned block of 2^l rows, with
// two multiplications a row at most: x ↦ x and x ↦ x² are GF(2)-linear, so
// Σ_i T_i·x_i^(2^e) = x0^(2^e)·A + Σ_b β_b^(2^e)·B_b with A = Σ_i T_i and
// B_b = Σ_(i: bit b of i set) T_i, which halving folds give in about two
// XORs a row (foldSums). T = f·u[0] gives the moments 0, 1, 2, and T' =
// f·u[1] (u[1] = u[0]·x) gives x³ = x·x². t is scratch of len(f).
func binaryMoments(out, f []gf64.Element, u [][]gf64.Element, x0 gf64.Element, beta []gf64.Element, t []gf64.Element) {
	var bs [64]gf64.Element
	b := bs[:len(beta)]
	gf64.MulVec(t, f, u[0])
	a := foldSums(t, b)
	out[0] = a
	out[1] = gf64.Mul(x0, a) ^ linSum(beta, b, 1)
	if len(out) > 2 {
		out[2] = gf64.Mul(gf64.Square(x0), a) ^ linSum(beta, b, 2)
	}
	if len(out) > 3 {
		gf64.MulVec(t, f, u[1])
		a = foldSums(t, b)
		out[3] = gf64.Mul(gf64.Square(x0), a) ^ linSum(beta, b, 2)
	}
}

// linSum is Σ_b β_b^e·B_b for e = 1 or 2.
func linSum(beta, b []gf64.Element, e int) gf64.Element {
	var s gf64.Element
	for i, v := range beta {
		if e == 2 {
			v = gf64.Square(v)
		}
		s ^= gf64.Mul(v, b[i])
	}
	return s
}

// foldSums returns Σ_i t[i] and sets b[k] = Σ_(i: bit k of i set) t[i],
// len(t) = 2^len(b), destroying t: the top half is summed into b[l−1] and
// XORed onto the bottom half, and so on down.
func foldSums(t []gf64.Element, b []gf64.Element) gf64.Element {
	for k := len(b) - 1; k >= 0; k-- {
		h := len(t) / 2
		lo, hi := t[:h], t[h:2*h]
		var s0, s1, s2, s3 gf64.Element
		i := 0
		for ; i+4 <= h; i += 4 {
			l4, h4 := (*[4]gf64.Element)(lo[i:i+4]), (*[4]gf64.Element)(hi[i:i+4])
			s0 ^= h4[0]
			s1 ^= h4[1]
			s2 ^= h4[2]
			s3 ^= h4[3]
			l4[0] ^= h4[0]
			l4[1] ^= h4[1]
			l4[2] ^= h4[2]
			l4[3] ^= h4[3]
		}
		for ; i < h; i++ {
			s0 ^= hi[i]
			lo[i] ^= hi[i]
		}
		b[k] = s0 ^ s1 ^ s2 ^ s3
		t = lo
	}
	return t[0]
}
