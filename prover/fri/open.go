package fri

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/hugepage"
	"github.com/gfpoly/gfpoly/prover/internal/friphase"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// Oracle is a committed LDE as Open reads it: the rows of 2^(LogRows +
// LogBlowup) evaluations of Columns() polynomials of degree < 2^LogRows over
// the codeword domain, with their Merkle root. A *prover.Commitment is one,
// through prover.Oracle. Open checks what it returns (lengths, the domain's
// points, openings against the root) and turns its panics into errors
// wrapping ErrOracle.
type Oracle[E Element, X Challenge] interface {
	Root() []byte
	// Rows is the number of LDE rows, a power of two.
	Rows() int
	Columns() int
	// CodewordPoints writes the points of rows first … first+len(dst)−1.
	CodewordPoints(dst []E, first int) error
	// Evaluate returns v[p][j] = p_j(points[p]), p_j column j's polynomial.
	Evaluate(points []X) ([][]X, error)
	// CombinePowers returns Σ_j α^j·col_j[i] for every row i.
	CombinePowers(alpha X) ([]X, error)
	// OpenMulti opens rows with their shared authentication nodes.
	OpenMulti(indices []int) (*merkle.MultiOpening[E], error)
}

// Batch is one commitment to open and its opening points (z, z·ω for the
// next row, …): Open proves the values of every column at every point.
type Batch[E Element, X Challenge] struct {
	Oracle Oracle[E, X]
	Points []X
}

// Statement is what the verifier knows of one opened commitment: its root,
// its shape and the points (the values come with the proof).
type Statement[X Challenge] struct {
	Root    []byte
	LogRows int // log2 of the trace rows: the LDE has 2^(LogRows+LogBlowup)
	Columns int
	Points  []X
}

// Statement returns what a verifier knows of b under cfg: its root, its
// shape (LogRows = log2(Rows) − cfg.LogBlowup) and its points, for a prover
// that hands the statement on with the proof.
func (b Batch[E, X]) Statement(cfg Config) Statement[X] {
	return Statement[X]{Root: b.Oracle.Root(), LogRows: bits.Len(uint(b.Oracle.Rows())) - 1 - cfg.LogBlowup, Columns: b.Oracle.Columns(), Points: b.Points}
}

// Proof is a FRI opening proof: the claimed values, the layers' roots, the
// final polynomial, the proof-of-work nonce, and the multi-path openings of
// every commitment and layer at the queries. See the package documentation
// for the protocol and MarshalBinary for the bytes.
type Proof[E Element, X Challenge] struct {
	// Values[b][p][j] is column j of batch b at its point p.
	Values [][][]X
	// Roots[r] is the root of layer r's tree (r < number of rounds).
	Roots [][]byte
	// Final is the final polynomial, constant coefficient first.
	Final []X
	// Nonce is the grinding nonce.
	Nonce uint64
	// Trace[b] opens batch b's rows at the queries.
	Trace []*merkle.MultiOpening[E]
	// Layers[r] opens layer r's leaves at the queries.
	Layers []*merkle.MultiOpening[E]

	ran string // where Open computed the layers (Ran)
}

// Ran says where Open computed the proof's layers: "CPU", with the reason
// in parentheses where the commitments were on a device that did not take
// the opening, or the GPU and the rounds it ran. Empty for a proof
// unmarshalled or built by hand. It is not part of the proof's bytes.
func (p *Proof[E, X]) Ran() string { return p.ran }

// absorbConfig absorbs the instance's parameters: the field, the blowup,
// the schedule, the final degree, the queries and the grinding.
func absorbConfig(t *transcript.Transcript, f Field, cfg *Config, p *plan) {
	b := []byte{protocolVersion, byte(f), byte(cfg.LogBlowup), byte(p.logFinal), byte(cfg.GrindingBits)}
	b = binary.LittleEndian.AppendUint32(b, uint32(cfg.Queries))
	b = append(b, byte(len(p.arities)))
	for _, a := range p.arities {
		b = append(b, byte(a))
	}
	t.AbsorbBytes("fri config", b)
}

// absorbBatch absorbs one commitment's root, shape, points and values.
func absorbBatch[X Challenge](t *transcript.Transcript, root []byte, logRows, cols int, points []X, values [][]X) {
	t.AbsorbRoot("fri commitment", root)
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(logRows))
	b = binary.LittleEndian.AppendUint64(b, uint64(cols))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(points)))
	t.AbsorbBytes("fri shape", b)
	transcript.Absorb(t, "fri points", points...)
	for _, v := range values {
		transcript.Absorb(t, "fri values", v...)
	}
}

// protocolVersion is absorbed first and written first in the proof bytes.
const protocolVersion = 1

// Open proves the values of every column of every batch at its points,
// continuing the transcript t (which the caller has typically fed the
// commitments' roots and drawn the points from). It returns the proof; the
// claimed values are its Values. See the package documentation for the
// protocol.
//
// Errors: a Config that is inconsistent or below the security floor
// (ErrParams, ErrArity); no batch, a batch with no point, an LDE whose
// height no schedule reaches (ErrParams); a point in the evaluation domain
// (ErrPoint); an Oracle that fails or returns inconsistent data
// (ErrOracle); a transcript or hash failure (wrapped as they come).
func Open[E Element, X Challenge](t *transcript.Transcript, cfg Config, batches ...Batch[E, X]) (p *Proof[E, X], err error) {
	o := algFor[E, X]()
	if o == nil {
		var e E
		var x X
		return nil, fmt.Errorf("fri: Open: %T values do not belong to %T traces: %w", x, e, ErrField)
	}
	if t == nil {
		return nil, fmt.Errorf("fri: Open: nil transcript: %w", ErrParams)
	}
	if err := merkle.CheckField[E](cfg.Merkle); err != nil {
		return nil, fmt.Errorf("fri: Open: the layers' hash: %w: %w", err, ErrParams)
	}
	if err := t.Err(); err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}
	logRows := make([]int, len(batches))
	for b, bt := range batches {
		if bt.Oracle == nil {
			return nil, fmt.Errorf("fri: Open: batch %d has no oracle: %w", b, ErrParams)
		}
		if len(bt.Points) == 0 {
			return nil, fmt.Errorf("fri: Open: batch %d has no point: %w", b, ErrParams)
		}
		var rows, cols int
		if err := guard(func() error { rows, cols = bt.Oracle.Rows(), bt.Oracle.Columns(); return nil }); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
		}
		if rows <= 0 || rows&(rows-1) != 0 || bits.TrailingZeros(uint(rows)) < cfg.LogBlowup || cols < 1 {
			return nil, fmt.Errorf("fri: Open: batch %d: %d rows × %d columns is no LDE at blowup 2^%d: %w", b, rows, cols, cfg.LogBlowup, ErrParams)
		}
		logRows[b] = bits.TrailingZeros(uint(rows)) - cfg.LogBlowup
	}
	pl, err := newPlan(&cfg, o.field(), logRows)
	if err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}
	// The domains: layer 0 and its folds.
	doms := make([]layer[E, X], len(pl.logN))
	if doms[0], err = topLayer[E, X](&cfg, logRows[argmax(logRows)]); err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}
	for r, a := range pl.arities {
		if doms[r+1], err = doms[r].fold(a); err != nil {
			return nil, fmt.Errorf("fri: Open: %w", err)
		}
	}
	bdoms := make([]layer[E, X], len(batches))
	for b := range batches {
		if bdoms[b], err = batchDomain(&cfg, logRows[b], doms[pl.roundOf[b]]); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
		}
		if err := checkOracleDomain(batches[b].Oracle, bdoms[b]); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
		}
		for k, z := range batches[b].Points {
			if inDomain(o, bdoms[b], z) {
				return nil, fmt.Errorf("fri: Open: batch %d, point %d is in the evaluation domain: %w", b, k, ErrPoint)
			}
		}
	}

	// Claims.
	phase("setup")
	p = &Proof[E, X]{Values: make([][][]X, len(batches))}
	for b, bt := range batches {
		var v [][]X
		if err := guard(func() (err error) { v, err = bt.Oracle.Evaluate(bt.Points); return }); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: Evaluate: %w", b, err)
		}
		cols := bt.Oracle.Columns()
		if len(v) != len(bt.Points) {
			return nil, fmt.Errorf("fri: Open: batch %d: Evaluate gave %d rows of values for %d points: %w", b, len(v), len(bt.Points), ErrOracle)
		}
		for k := range v {
			if len(v[k]) != cols {
				return nil, fmt.Errorf("fri: Open: batch %d: Evaluate gave %d values at point %d for %d columns: %w", b, len(v[k]), k, cols, ErrOracle)
			}
		}
		p.Values[b] = v
	}
	phase("evaluate")
	// The device, where every batch is kept on one: prepared before the
	// transcript moves, so that a device that cannot take the opening
	// leaves all of it to the host.
	dv, why := newDevOpen(o, &cfg, pl, doms, batches)
	defer dv.free()
	absorbConfig(t, o.field(), &cfg, pl)
	for b, bt := range batches {
		absorbBatch(t, bt.Oracle.Root(), logRows[b], bt.Oracle.Columns(), bt.Points, p.Values[b])
	}
	alpha, err := transcript.Draw[X](t, "fri alpha")
	if err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}

	// The DEEP quotients, layer by layer as the folds reach their heights.
	offs := alphaOffsets(batches)
	quotient := func(r int) ([]X, error) {
		var q []X
		for _, b := range pl.rollIn[r] {
			var err error
			if q, err = addQuotient(o, q, batches[b], bdoms[b], p.Values[b], alpha, offs[b]); err != nil {
				return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
			}
		}
		return q, nil
	}
	phase("prepare")
	R := len(pl.arities)
	trees := make([]*merkle.Tree[E], R)
	var cur []X
	r0 := 0 // the first round on the host
	if dv != nil {
		if cur, err = dv.run(o, t, p, pl, doms, bdoms, batches, alpha, offs); err != nil {
			return nil, err
		}
		r0 = dv.rounds
		p.ran = fmt.Sprintf("%s: rounds 0–%d of %d on the device", deviceName(dv.dev), r0-1, R)
	} else {
		if cur, err = quotient(0); err != nil {
			return nil, err
		}
		p.ran = "CPU"
		if why != "" {
			p.ran += " (" + why + ")"
		}
	}
	for r := r0; r < R; r++ {
		a := pl.arities[r]
		cols := leafColumns[E](o, cur, a, doms[r].strided())
		if trees[r], err = merkle.Build(cols, cfg.hasher(), 0, nil); err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		p.Roots = append(p.Roots, trees[r].Root())
		t.AbsorbRoot("fri layer", trees[r].Root())
		beta, err := transcript.Draw[X](t, "fri beta")
		if err != nil {
			return nil, fmt.Errorf("fri: Open: %w", err)
		}
		next := hugepage.Make[X](len(cur) / a)
		if err := doms[r].foldAll(next, cur, a, beta); err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		if len(pl.rollIn[r+1]) > 0 {
			q, err := quotient(r + 1)
			if err != nil {
				return nil, err
			}
			c := xexp(o, beta, uint64(a))
			for i := range next {
				next[i] = o.xadd(next[i], o.xmul(c, q[i]))
			}
		}
		cur = next
	}

	phase("layers")
	// The final polynomial: through the first D points, checked on all.
	d := 1 << pl.logFinal
	xs := make([]E, len(cur))
	doms[R].points(xs, 0)
	if p.Final, err = interpolateLagrange(o, xs[:d], cur[:d]); err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}
	if !openUnchecked {
		for i := d; i < len(cur); i++ {
			if evalPoly(o, p.Final, xs[i]) != cur[i] {
				return nil, fmt.Errorf("fri: Open: the final layer is not of degree < 2^%d: the committed columns are no codeword of their blowup: %w", pl.logFinal, ErrOracle)
			}
		}
	}
	transcript.Absorb(t, "fri final", p.Final...)
	if dv != nil {
		p.Nonce, err = dv.grind(t, cfg.GrindingBits)
	} else {
		p.Nonce, err = t.Grind(cfg.GrindingBits)
	}
	if err != nil {
		return nil, fmt.Errorf("fri: Open: grinding: %w", err)
	}
	phase("final+grind")
	queries, err := t.DrawIndices("fri queries", 1<<pl.logN[0], cfg.Queries)
	if err != nil {
		return nil, fmt.Errorf("fri: Open: %w", err)
	}

	// The openings.
	h := cfg.hasher()
	for b, bt := range batches {
		idx := layerIndices(queries, pl, pl.roundOf[b], doms[0].strided())
		var mo *merkle.MultiOpening[E]
		if err := guard(func() (err error) { mo, err = bt.Oracle.OpenMulti(idx); return }); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: OpenMulti: %w", b, err)
		}
		if err := checkOpening(mo, idx, bt.Oracle.Columns()); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
		}
		if err := merkle.VerifyMultiWith(bt.Oracle.Root(), bt.Oracle.Rows(), mo, h); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: its opening does not match its root: %w: %w", b, err, ErrOracle)
		}
		p.Trace = append(p.Trace, mo)
	}
	idxs := make([][]int, R)
	for r := range R {
		idxs[r] = layerIndices(queries, pl, r+1, doms[0].strided())
	}
	if r0 > 0 {
		// The device's layers in one gather.
		mos, err := dv.openLayers(idxs[:r0])
		if err != nil {
			return nil, fmt.Errorf("fri: Open: %w", err)
		}
		p.Layers = append(p.Layers, mos...)
	}
	for r := r0; r < R; r++ {
		mo, err := trees[r].OpenMulti(idxs[r])
		if err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		p.Layers = append(p.Layers, mo)
	}
	phase("openings")
	return p, nil
}

// phase tells friphase's hook (benchmarks) that a phase of Open has ended.
func phase(name string) { friphase.End(name) }

// openUnchecked lets tests push a word that is no codeword through the
// protocol honestly (the final polynomial is then the interpolant of the
// first D entries): the attacks of the soundness tests.
var openUnchecked = false

// argmax returns the index of the largest element.
func argmax(v []int) int {
	m := 0
	for i, x := range v {
		if x > v[m] {
			m = i
		}
	}
	return m
}

// layerIndices returns the sorted distinct positions the queries reach in
// layer r: q mod N_r for cosets (the fold keeps the low bits), q >> (logN_0
// − logN_r) for subspaces (it keeps the high bits). For r ≥ 1 these are
// also the leaves of layer r−1 that the queries open.
func layerIndices(queries []int, pl *plan, r int, strided bool) []int {
	out := make([]int, len(queries))
	for k, q := range queries {
		out[k] = layerIndex(q, pl, r, strided)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func layerIndex(q int, pl *plan, r int, strided bool) int {
	if strided {
		return q & (1<<pl.logN[r] - 1)
	}
	return q >> (pl.logN[0] - pl.logN[r])
}

// batchDomain returns the codeword domain of a batch of 2^logRows rows that
// joins at layer dom: for a prime field gnark-crypto's coset of its size
// (another coset than the folded layer's: a polynomial of degree < D
// over c·H is one of degree < D over c'·H, x ↦ (c/c')·x); for GF(2^64) it
// must be the folded layer itself, since a subspace maps onto another only
// GF(2)-linearly, which does not keep degrees.
func batchDomain[E Element, X Challenge](cfg *Config, logRows int, dom layer[E, X]) (layer[E, X], error) {
	l, err := topLayer[E, X](cfg, logRows)
	if err != nil {
		return nil, err
	}
	if !l.strided() && !l.equal(dom) {
		return nil, fmt.Errorf("fri: a GF(2^64) commitment of 2^%d rows must be evaluated over the fold of the largest commitment's codeword subspace (BinaryDomains gives another): %w", logRows, ErrDomain)
	}
	return l, nil
}

// checkOracleDomain compares the oracle's points with the domain's: rows 0
// and 1, and every power of two (a subspace's basis).
func checkOracleDomain[E Element, X Challenge](or Oracle[E, X], dom layer[E, X]) error {
	n := dom.size()
	var got [1]E
	for i := 0; i < n; i = max(2*i, i+1) {
		if err := guard(func() error { return or.CodewordPoints(got[:], i) }); err != nil {
			return fmt.Errorf("CodewordPoints: %w", err)
		}
		if got[0] != dom.point(i) {
			return fmt.Errorf("the commitment's row %d is not at the point of the protocol's domain (another blowup, shift or subspace): %w", i, ErrOracle)
		}
	}
	return nil
}

// inDomain reports whether z is a point of dom.
func inDomain[E Element, X Challenge](o alg[E, X], dom layer[E, X], z X) bool {
	c := coordsOf[X, E](&z)
	var zero E
	for _, v := range c[1:] {
		if v != zero {
			return false
		}
	}
	x := c[0]
	if !dom.strided() {
		return any(dom).(*binLayer).s.Contains(any(x).(gf64.Element))
	}
	// On the coset c·⟨ω⟩ of n points iff x ≠ 0 and (x/c)^n = 1.
	if x == zero {
		return false
	}
	y := o.emul(x, o.einv(dom.point(0)))
	return eexp(o, y, uint64(dom.size())) == o.eone()
}

// alphaOffsets returns the power of α at which each batch's terms start:
// the terms run over batches, then points, then columns.
func alphaOffsets[E Element, X Challenge](batches []Batch[E, X]) []uint64 {
	out := make([]uint64, len(batches))
	var k uint64
	for b, bt := range batches {
		out[b] = k
		k += uint64(len(bt.Points) * bt.Oracle.Columns())
	}
	return out
}

// leafColumns lays a layer's codeword out as the columns of its tree: leaf
// j holds the a entries of one fold (j + t·n/a strided, j·a + t
// contiguous), entry t's coordinates in columns t·deg … t·deg + deg − 1.
func leafColumns[E Element, X Challenge](o alg[E, X], cw []X, a int, strided bool) [][]E {
	d := o.deg()
	m := len(cw) / a
	back := hugepage.Make[E](len(cw) * d)
	cols := make([][]E, a*d)
	for c := range cols {
		cols[c] = back[c*m : (c+1)*m : (c+1)*m]
	}
	flat := coords[X, E](cw, d)
	defaultSplit().run(m, func(lo, hi int) {
		for t := range a {
			for j := lo; j < hi; j++ {
				i := j*a + t
				if strided {
					i = j + t*m
				}
				for c := range d {
					cols[t*d+c][j] = flat[i*d+c]
				}
			}
		}
	})
	return cols
}

// checkOpening checks an oracle's multi-opening: the indices asked, rows of
// the commitment's width.
func checkOpening[E Element](mo *merkle.MultiOpening[E], idx []int, cols int) error {
	if mo == nil || !slices.Equal(mo.Indices, idx) || len(mo.Rows) != len(idx) {
		return fmt.Errorf("OpenMulti opened other rows than asked: %w", ErrOracle)
	}
	for _, r := range mo.Rows {
		if len(r) != cols {
			return fmt.Errorf("OpenMulti gave a row of %d elements for %d columns: %w", len(r), cols, ErrOracle)
		}
	}
	return nil
}

// guard runs f, turning a panic into an error wrapping ErrOracle.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v: %w", r, ErrOracle)
		}
	}()
	if err = f(); err != nil && !errors.Is(err, ErrOracle) {
		err = fmt.Errorf("%w: %w", err, ErrOracle)
	}
	return err
}
