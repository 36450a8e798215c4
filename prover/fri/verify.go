package fri

import (
	"fmt"
	"slices"

	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// Verify checks a proof of the values p.Values of the statements' columns
// at their points, continuing the transcript t from the state Open's
// transcript had (the same absorbs and draws before). It needs no encoder:
// only the Config, the statements and the proof. On success the values in
// p are proven; it does not modify p.
//
// Errors: a Config or statement that is inconsistent, below the security
// floor, or whose heights no schedule reaches (ErrParams); a point in a
// commitment's evaluation domain (ErrPoint); a proof that fails a check,
// each named in the message (ErrProof); a transcript or hash failure. It
// never panics on a proof, whatever it holds.
func Verify[E Element, X Challenge](t *transcript.Transcript, cfg Config, stmts []Statement[X], p *Proof[E, X]) error {
	o := algFor[E, X]()
	if o == nil {
		var e E
		var x X
		return fmt.Errorf("fri: Verify: %T values do not belong to %T traces: %w", x, e, ErrField)
	}
	if t == nil {
		return fmt.Errorf("fri: Verify: nil transcript: %w", ErrParams)
	}
	if err := merkle.CheckField[E](cfg.Merkle); err != nil {
		return fmt.Errorf("fri: Verify: the layers' hash: %w: %w", err, ErrParams)
	}
	if err := t.Err(); err != nil {
		return fmt.Errorf("fri: Verify: %w", err)
	}
	logRows := make([]int, len(stmts))
	for b, s := range stmts {
		switch {
		case len(s.Points) == 0:
			return fmt.Errorf("fri: Verify: statement %d has no point: %w", b, ErrParams)
		case s.Columns < 1 || s.Columns > 1<<24:
			return fmt.Errorf("fri: Verify: statement %d has %d columns: %w", b, s.Columns, ErrParams)
		case s.LogRows < 0 || s.LogRows > MaxLogRows:
			return fmt.Errorf("fri: Verify: statement %d has 2^%d rows: %w", b, s.LogRows, ErrParams)
		}
		logRows[b] = s.LogRows
	}
	pl, err := newPlan(&cfg, o.field(), logRows)
	if err != nil {
		return fmt.Errorf("fri: Verify: %w", err)
	}
	doms := make([]layer[E, X], len(pl.logN))
	if doms[0], err = topLayer[E, X](&cfg, logRows[argmax(logRows)]); err != nil {
		return fmt.Errorf("fri: Verify: %w", err)
	}
	for r, a := range pl.arities {
		if doms[r+1], err = doms[r].fold(a); err != nil {
			return fmt.Errorf("fri: Verify: %w", err)
		}
	}
	bdoms := make([]layer[E, X], len(stmts))
	for b, s := range stmts {
		if bdoms[b], err = batchDomain(&cfg, s.LogRows, doms[pl.roundOf[b]]); err != nil {
			return fmt.Errorf("fri: Verify: statement %d: %w", b, err)
		}
		for k, z := range s.Points {
			if inDomain(o, bdoms[b], z) {
				return fmt.Errorf("fri: Verify: statement %d, point %d is in the evaluation domain: %w", b, k, ErrPoint)
			}
		}
	}

	// The proof's shape.
	R := len(pl.arities)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("fri: Verify: "+format+": %w", append(args, ErrProof)...)
	}
	if p == nil {
		return bad("nil proof")
	}
	if len(p.Values) != len(stmts) || len(p.Trace) != len(stmts) {
		return bad("values and openings of %d and %d commitments for %d statements", len(p.Values), len(p.Trace), len(stmts))
	}
	for b, s := range stmts {
		if len(p.Values[b]) != len(s.Points) {
			return bad("commitment %d: values at %d points, %d points stated", b, len(p.Values[b]), len(s.Points))
		}
		for k, v := range p.Values[b] {
			if len(v) != s.Columns {
				return bad("commitment %d, point %d: %d values for %d columns", b, k, len(v), s.Columns)
			}
		}
	}
	if len(p.Roots) != R || len(p.Layers) != R {
		return bad("%d layer roots and %d layer openings, the schedule has %d rounds", len(p.Roots), len(p.Layers), R)
	}
	if len(p.Final) != 1<<pl.logFinal {
		return bad("final polynomial of %d coefficients, want %d", len(p.Final), 1<<pl.logFinal)
	}

	// The transcript, as Open ran it.
	absorbConfig(t, o.field(), &cfg, pl)
	for b, s := range stmts {
		absorbBatch(t, s.Root, s.LogRows, s.Columns, s.Points, p.Values[b])
	}
	alpha, err := transcript.Draw[X](t, "fri alpha")
	if err != nil {
		return fmt.Errorf("fri: Verify: %w", err)
	}
	var zero X
	if alpha == zero {
		return bad("the batching challenge is zero")
	}
	betas := make([]X, R)
	for r := range R {
		t.AbsorbRoot("fri layer", p.Roots[r])
		if betas[r], err = transcript.Draw[X](t, "fri beta"); err != nil {
			return fmt.Errorf("fri: Verify: %w", err)
		}
	}
	transcript.Absorb(t, "fri final", p.Final...)
	if err := t.CheckGrind(cfg.GrindingBits, p.Nonce); err != nil {
		return bad("proof of work: %v", err)
	}
	queries, err := t.DrawIndices("fri queries", 1<<pl.logN[0], cfg.Queries)
	if err != nil {
		return fmt.Errorf("fri: Verify: %w", err)
	}
	strided := doms[0].strided()

	// The openings: the rows and leaves the queries reach, against the roots.
	h := cfg.hasher()
	rows := make([]map[int][]E, len(stmts))
	for b, s := range stmts {
		mo := p.Trace[b]
		idx := layerIndices(queries, pl, pl.roundOf[b], strided)
		if mo == nil || !slices.Equal(mo.Indices, idx) {
			return bad("commitment %d opens other rows than the queries reach", b)
		}
		if len(mo.Rows) != len(idx) {
			return bad("commitment %d: %d rows for %d indices", b, len(mo.Rows), len(idx))
		}
		for _, r := range mo.Rows {
			if len(r) != s.Columns {
				return bad("commitment %d: a row of %d elements for %d columns", b, len(r), s.Columns)
			}
		}
		if err := merkle.VerifyMultiWith(s.Root, 1<<pl.logN[pl.roundOf[b]], mo, h); err != nil {
			return bad("commitment %d: its rows do not match its root: %v", b, err)
		}
		rows[b] = make(map[int][]E, len(idx))
		for k, i := range idx {
			rows[b][i] = mo.Rows[k]
		}
	}
	d := o.deg()
	leaves := make([]map[int][]X, R)
	for r, a := range pl.arities {
		mo := p.Layers[r]
		idx := layerIndices(queries, pl, r+1, strided)
		if mo == nil || !slices.Equal(mo.Indices, idx) {
			return bad("layer %d opens other leaves than the queries reach", r)
		}
		if len(mo.Rows) != len(idx) {
			return bad("layer %d: %d leaves for %d indices", r, len(mo.Rows), len(idx))
		}
		for _, l := range mo.Rows {
			if len(l) != a*d {
				return bad("layer %d: a leaf of %d elements, want %d", r, len(l), a*d)
			}
		}
		if err := merkle.VerifyMultiWith(p.Roots[r], 1<<pl.logN[r+1], mo, h); err != nil {
			return bad("layer %d: its leaves do not match its root: %v", r, err)
		}
		leaves[r] = make(map[int][]X, len(idx))
		for k, j := range idx {
			leaves[r][j] = leafValues[E, X](mo.Rows[k], a, d)
		}
	}

	// Each query, from the commitments' rows through the folds to the
	// final polynomial.
	// Per batch and point: V_p = Σ_j α^j·v_(p,j) and α^(off + p·cols).
	vs := make([][]X, len(stmts))
	cs := make([][]X, len(stmts))
	var off uint64
	for b, s := range stmts {
		vs[b] = make([]X, len(s.Points))
		cs[b] = make([]X, len(s.Points))
		for k := range s.Points {
			vs[b][k] = combineRow(o, p.Values[b][k], alpha)
			cs[b][k] = xexp(o, alpha, off)
			off += uint64(s.Columns)
		}
	}
	quotientAt := func(r, i int) X {
		var q X
		for _, b := range pl.rollIn[r] {
			g := combineBaseRow(o, rows[b][i], alpha)
			x := o.xembed(bdoms[b].point(i))
			for k, z := range stmts[b].Points {
				q = o.xadd(q, o.xmul(cs[b][k], o.xmul(o.xsub(g, vs[b][k]), o.xinv(o.xsub(x, z)))))
			}
		}
		return q
	}
	rollCoef := make([]X, R) // β_r^(a_r), the weight of the batches joining layer r+1
	folders := make([]func([]X, int) (X, error), R)
	for r, a := range pl.arities {
		rollCoef[r] = xexp(o, betas[r], uint64(a))
		if folders[r], err = doms[r].leafFolder(a, betas[r]); err != nil {
			return fmt.Errorf("fri: Verify: layer %d: %w", r, err)
		}
	}
	for n, q := range queries {
		v := quotientAt(0, layerIndex(q, pl, 0, strided))
		for r, a := range pl.arities {
			i := layerIndex(q, pl, r, strided)
			j := layerIndex(q, pl, r+1, strided)
			slot := i % a
			if strided {
				slot = i / (1 << pl.logN[r+1])
			}
			leaf := leaves[r][j]
			if leaf[slot] != v {
				return bad("query %d (index %d): layer %d's leaf %d disagrees with the value the previous layer gives", n, q, r, j)
			}
			if v, err = folders[r](leaf, j); err != nil {
				return bad("query %d: layer %d: %v", n, r, err)
			}
			if len(pl.rollIn[r+1]) > 0 {
				v = o.xadd(v, o.xmul(rollCoef[r], quotientAt(r+1, j)))
			}
		}
		i := layerIndex(q, pl, R, strided)
		if evalPoly(o, p.Final, doms[R].point(i)) != v {
			return bad("query %d (index %d): the final polynomial disagrees with the last fold", n, q)
		}
	}
	return nil
}

// combineRow returns Σ_j α^j·v_j by Horner's rule.
func combineRow[E Element, X Challenge](o alg[E, X], v []X, alpha X) X {
	var g X
	for j := len(v) - 1; j >= 0; j-- {
		g = o.xadd(o.xmul(g, alpha), v[j])
	}
	return g
}

// combineBaseRow returns Σ_j α^j·row_j, the row's elements embedded in X.
func combineBaseRow[E Element, X Challenge](o alg[E, X], row []E, alpha X) X {
	var g X
	for j := len(row) - 1; j >= 0; j-- {
		g = o.xadd(o.xmul(g, alpha), o.xembed(row[j]))
	}
	return g
}

// leafValues reads a leaf's a values from its a·d coordinates.
func leafValues[E Element, X Challenge](leaf []E, a, d int) []X {
	out := make([]X, a)
	for t := range out {
		copy(coordsOf[X, E](&out[t]), leaf[t*d:(t+1)*d])
	}
	return out
}
