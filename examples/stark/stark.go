package main

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// The STARK's fixed choices: the blowup of every commitment, the number of
// trace columns and of constraints, and the transcript's label.
const (
	logBlowup   = 2 // blowup 4
	blowup      = 1 << logBlowup
	columns     = 2 // a, b
	constraints = 5 // two transitions, three boundaries
	label       = "gfpoly examples/stark: Fibonacci AIR"
	// minLogRows is the smallest trace: the FRI presets' final degree is
	// 2^3, which must not pass a commitment's height.
	minLogRows = 3
	// maxLogRows bounds the trace so that the 2^logRows-th roots of unity
	// exist in every field here (BabyBear's two-adicity is 27) with
	// blowup 4 on top.
	maxLogRows = 24
)

// ErrRejected is wrapped by every rejection of verify and of the proof's
// decoding; where the FRI verifier rejected, fri.ErrProof is wrapped too.
var ErrRejected = errors.New("stark: proof rejected")

// fibonacci returns the honest trace of 2^logRows rows: a_0 = b_0 = 1,
// a_(i+1) = b_i, b_(i+1) = a_i + b_i, and its public output b_(n−1).
func fibonacci[E fri.Base, X fri.Ext](f arith[E, X], logRows int) (prover.Trace[E], E) {
	n := 1 << logRows
	a, b := make([]E, n), make([]E, n)
	a[0], b[0] = f.fromUint(1), f.fromUint(1)
	for i := 1; i < n; i++ {
		a[i], b[i] = b[i-1], f.add(a[i-1], b[i-1])
	}
	return prover.Trace[E]{a, b}, b[n-1]
}

// Proof is the STARK's proof: the two Merkle roots and the DEEP-FRI opening
// of both commitments, which carries the values at z and z·ω.
type Proof[E fri.Base, X fri.Ext] struct {
	TraceRoot    []byte
	QuotientRoot []byte
	Opening      *fri.Proof[E, X]
}

// proofVersion is the first byte of a Proof's encoding.
const proofVersion = 1

// MarshalBinary encodes the proof: version (1 byte) ‖ u8(len) ‖ trace root
// ‖ u8(len) ‖ quotient root ‖ the FRI proof (fri.Proof.MarshalBinary).
func (p *Proof[E, X]) MarshalBinary() ([]byte, error) {
	if len(p.TraceRoot) > 255 || len(p.QuotientRoot) > 255 || p.Opening == nil {
		return nil, errors.New("stark: proof has no opening or an oversized root")
	}
	opening, err := p.Opening.MarshalBinary()
	if err != nil {
		return nil, err
	}
	out := []byte{proofVersion, byte(len(p.TraceRoot))}
	out = append(out, p.TraceRoot...)
	out = append(append(out, byte(len(p.QuotientRoot))), p.QuotientRoot...)
	return append(out, opening...), nil
}

// UnmarshalBinary decodes what MarshalBinary wrote; anything else is an
// error wrapping ErrRejected, and p is left unchanged.
func (p *Proof[E, X]) UnmarshalBinary(data []byte) error {
	if len(data) < 2 || data[0] != proofVersion {
		return fmt.Errorf("%w: not a version %d proof", ErrRejected, proofVersion)
	}
	var roots [2][]byte
	rest := data[1:]
	for i := range roots {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return fmt.Errorf("%w: root %d cut short", ErrRejected, i)
		}
		roots[i] = append([]byte(nil), rest[1:1+int(rest[0])]...)
		rest = rest[1+int(rest[0]):]
	}
	var opening fri.Proof[E, X]
	if err := opening.UnmarshalBinary(rest); err != nil {
		return fmt.Errorf("%w: %w", ErrRejected, err)
	}
	p.TraceRoot, p.QuotientRoot, p.Opening = roots[0], roots[1], &opening
	return nil
}

// Phases are the prover's times.
type Phases struct {
	Trace    time.Duration // LDE and commitment of the trace
	Quotient time.Duration // the quotient over the LDE
	Commit   time.Duration // the quotient's commitment
	Opening  time.Duration // the DEEP-FRI opening
}

// starkProver proves the Fibonacci AIR over E with challenges in X.
type starkProver[E fri.Base, X fri.Ext] struct {
	f      arith[E, X]
	cfg    fri.Config
	enc    prover.Encoder[E]
	phases Phases // of the last prove

	// forge, when set (tests), replaces the quotient's LDE before it is
	// committed, as a cheating prover would.
	forge func(q [][]E) ([][]E, error)
}

func newProver[E fri.Base, X fri.Ext](bits int) (*starkProver[E, X], error) {
	f, err := arithOf[E, X]()
	if err != nil {
		return nil, err
	}
	cfg, err := fri.NewConfig(f.field(), bits, logBlowup) // the preset for bits at blowup 4
	if err != nil {
		return nil, err
	}
	enc, err := prover.New[E](prover.WithBlowup(blowup))
	if err != nil {
		return nil, err
	}
	return &starkProver[E, X]{f: f, cfg: cfg, enc: enc}, nil
}

func (p *starkProver[E, X]) Close() error { return p.enc.Close() }

// start returns the transcript both sides begin with: the AIR's shape and
// its public input.
func start[E fri.Base, X fri.Ext](f arith[E, X], logRows int, output E) (*transcript.Transcript, error) {
	tr, err := transcript.New(label)
	if err != nil {
		return nil, err
	}
	tr.AbsorbBytes("air", []byte{byte(f.field()), byte(logRows), logBlowup})
	transcript.Absorb(tr, "public output", output)
	return tr, nil
}

// powers returns 1, α, …, α^(k−1).
func powers[E fri.Base, X fri.Ext](f arith[E, X], alpha X, k int) []X {
	p := make([]X, k)
	p[0] = f.xembed(f.fromUint(1))
	for i := 1; i < k; i++ {
		p[i] = f.xmul(p[i-1], alpha)
	}
	return p
}

// prove proves that trace, 2 columns of 2^k rows, satisfies the AIR with
// public output b_(n−1) = output. It does not check the trace first: given
// one that does not satisfy the AIR it computes what an honest prover would,
// a quotient that is not of low degree, and either fails (fri.Open refuses
// the quotient's columns, an error wrapping fri.ErrOracle) or returns a proof
// that verify rejects.
func (p *starkProver[E, X]) prove(trace prover.Trace[E], output E) (*Proof[E, X], error) {
	f := p.f
	if len(trace) != columns || len(trace[0]) < 1<<minLogRows {
		return nil, fmt.Errorf("stark: want %d columns of at least %d rows", columns, 1<<minLogRows)
	}
	n := len(trace[0])
	logRows := 0
	for 1<<logRows < n {
		logRows++
	}
	if 1<<logRows != n || logRows > maxLogRows {
		return nil, fmt.Errorf("stark: %d rows: not a power of two up to 2^%d", n, maxLogRows)
	}
	tr, err := start(f, logRows, output)
	if err != nil {
		return nil, err
	}

	// 1. The trace's LDE over the coset g·⟨ω'⟩ (N = 4n rows, row i at
	// x_i = g·ω'^i) and its commitment.
	t0 := time.Now()
	tc, err := p.enc.Commit(trace)
	if err != nil {
		return nil, err
	}
	defer tc.Close()
	lde, err := tc.LDE()
	if err != nil {
		return nil, err
	}
	tr.AbsorbRoot("trace", tc.Root())
	alpha, err := transcript.Draw[X](tr, "alpha")
	if err != nil {
		return nil, err
	}
	t1 := time.Now()

	// 2. The quotient over the LDE, committed as its coordinate columns.
	omega, err := f.rootOfUnity(logRows)
	if err != nil {
		return nil, err
	}
	if w, err := tc.TracePoint(1); err != nil || !f.equal(w, omega) {
		return nil, fmt.Errorf("stark: the encoder's trace domain is not generated by gnark-crypto's root of unity (%v)", err)
	}
	xs := make([]E, tc.Rows())
	if err := tc.CodewordPoints(xs, 0); err != nil {
		return nil, err
	}
	q := quotientLDE(f, lde[0], lde[1], xs, n, omega, output, powers(f, alpha, constraints))
	t2 := time.Now()
	if p.forge != nil {
		if q, err = p.forge(q); err != nil {
			return nil, err
		}
	}
	qc, err := p.enc.CommitLDE(q)
	if err != nil {
		return nil, err
	}
	defer qc.Close()
	tr.AbsorbRoot("quotient", qc.Root())
	t3 := time.Now()

	// 3. The out-of-domain point and the DEEP-FRI opening of both
	// commitments: the trace at z and z·ω, the quotient at z.
	z, zNext, err := drawZ(f, tr, logRows, omega)
	if err != nil {
		return nil, err
	}
	opening, err := fri.Open(tr, p.cfg,
		fri.Batch[E, X]{Oracle: prover.Oracle[X](tc), Points: []X{z, zNext}},
		fri.Batch[E, X]{Oracle: prover.Oracle[X](qc), Points: []X{z}})
	if err != nil {
		return nil, err
	}
	p.phases = Phases{Trace: t1.Sub(t0), Quotient: t2.Sub(t1), Commit: t3.Sub(t2), Opening: time.Since(t3)}
	return &Proof[E, X]{TraceRoot: tc.Root(), QuotientRoot: qc.Root(), Opening: opening}, nil
}

// drawZ draws the out-of-domain point z and returns it with z·ω. A z in the
// trace domain H (z^n = 1, probability n/|X|) leaves the constraints'
// divisors zero at z, and is refused.
func drawZ[E fri.Base, X fri.Ext](f arith[E, X], tr *transcript.Transcript, logRows int, omega E) (z, zNext X, err error) {
	z, err = transcript.Draw[X](tr, "z")
	if err != nil {
		return z, z, err
	}
	if f.xequal(f.xexp(z, 1<<logRows), f.xembed(f.fromUint(1))) {
		return z, z, fmt.Errorf("%w: z lies in the trace domain", ErrRejected)
	}
	return z, f.xmul(z, f.xembed(omega)), nil
}

// quotientLDE returns the coordinate columns of the constraints' quotient
// over the LDE rows x_i = xs[i] of the trace columns a, b (N = len(xs) rows,
// n trace rows, ω of order n), with ap[k] = α^k:
//
//	Q(x) = Σ_k α^k·c_k(x),
//	c_0 = (a(ωx) − b(x))·s(x),  c_1 = (b(ωx) − a(x) − b(x))·s(x),  s = (x − ω^(n−1))/(x^n − 1),
//	c_2 = (a(x) − 1)/(x − 1),   c_3 = (b(x) − 1)/(x − 1),         c_4 = (b(x) − output)/(x − ω^(n−1)).
//
// The next row, a(ωx) at x = x_i, is row i + blowup (mod N) of the LDE,
// since ω = ω'^blowup. Each c_k is a base-field column, so coordinate j of Q
// is the base-field combination Σ_k coords(α^k)[j]·c_k: the d columns that
// are committed, each of degree < n when the trace satisfies the AIR.
func quotientLDE[E fri.Base, X fri.Ext](f arith[E, X], a, b, xs []E, n int, omega, output E, ap []X) [][]E {
	N := len(xs)
	col := func() []E { return make([]E, N) }
	next := func(c []E) []E {
		r := col()
		copy(r, c[blowup:])
		copy(r[N-blowup:], c[:blowup])
		return r
	}
	one, last := f.fromUint(1), f.exp(omega, uint64(n-1))

	// s = (x − ω^(n−1))/(x^n − 1); x_i^n repeats with period blowup
	// (ω'^n has order blowup), so the vanishing polynomial takes blowup
	// values over the coset.
	zhInv := col()
	for i := range blowup {
		zhInv[i] = f.inv(f.sub(f.exp(xs[i], uint64(n)), one))
	}
	for i := blowup; i < N; i += blowup {
		copy(zhInv[i:i+blowup], zhInv[:blowup])
	}
	xLast, s := col(), col()
	f.vsubConst(xLast, xs, last)
	f.vmul(s, xLast, zhInv)

	c := make([][]E, constraints)
	for k := range c {
		c[k] = col()
	}
	f.vsub(c[0], next(a), b)
	f.vmul(c[0], c[0], s)
	f.vsub(c[1], next(b), a)
	f.vsub(c[1], c[1], b)
	f.vmul(c[1], c[1], s)

	// 1/(x − 1) and 1/(x − ω^(n−1)) from one batch inversion of their
	// product.
	x1, inv1, invLast := col(), col(), col()
	f.vsubConst(x1, xs, one)
	f.vmul(invLast, x1, xLast)
	f.vinvert(invLast, invLast)
	f.vmul(inv1, invLast, xLast)
	f.vmul(invLast, invLast, x1)
	f.vsubConst(c[2], a, one)
	f.vmul(c[2], c[2], inv1)
	f.vsubConst(c[3], b, one)
	f.vmul(c[3], c[3], inv1)
	f.vsubConst(c[4], b, output)
	f.vmul(c[4], c[4], invLast)

	d := f.degree()
	q, tmp := make([][]E, d), col()
	for j := range q {
		q[j] = col()
		for k := range c {
			f.vscale(tmp, c[k], f.coords(&ap[k])[j])
			f.vadd(q[j], q[j], tmp)
		}
	}
	return q
}

// verify checks a proof that the trace of 2^logRows rows the prover committed
// satisfies the AIR with public output b_(n−1) = output. It replays the
// prover's transcript, checks the AIR at z with the proven values, and the
// DEEP-FRI opening that proves them. Every rejection wraps ErrRejected.
func verify[E fri.Base, X fri.Ext](cfg fri.Config, logRows int, output E, p *Proof[E, X]) error {
	f, err := arithOf[E, X]()
	if err != nil {
		return err
	}
	if logRows < minLogRows || logRows > maxLogRows {
		return fmt.Errorf("stark: %d trace rows out of range: %w", logRows, ErrRejected)
	}
	if p == nil || p.Opening == nil {
		return fmt.Errorf("%w: no opening", ErrRejected)
	}
	tr, err := start(f, logRows, output)
	if err != nil {
		return err
	}
	tr.AbsorbRoot("trace", p.TraceRoot)
	alpha, err := transcript.Draw[X](tr, "alpha")
	if err != nil {
		return err
	}
	tr.AbsorbRoot("quotient", p.QuotientRoot)
	omega, err := f.rootOfUnity(logRows)
	if err != nil {
		return err
	}
	z, zNext, err := drawZ(f, tr, logRows, omega)
	if err != nil {
		return err
	}
	d := f.degree()
	stmts := []fri.Statement[X]{
		{Root: p.TraceRoot, LogRows: logRows, Columns: columns, Points: []X{z, zNext}},
		{Root: p.QuotientRoot, LogRows: logRows, Columns: d, Points: []X{z}},
	}
	if err := fri.Verify(tr, cfg, stmts, p.Opening); err != nil {
		return fmt.Errorf("%w: %w", ErrRejected, err)
	}
	v := p.Opening.Values // fri.Verify checked their shape against stmts
	if len(v) != 2 || len(v[0]) != 2 || len(v[1]) != 1 || len(v[0][0]) != columns || len(v[0][1]) != columns || len(v[1][0]) != d {
		return fmt.Errorf("%w: values of the wrong shape", ErrRejected)
	}
	at, atNext, qAt := v[0][0], v[0][1], v[1][0]
	if !f.xequal(constraintsAt(f, at, atNext, z, 1<<logRows, omega, output, powers(f, alpha, constraints)), recombine(f, qAt)) {
		return fmt.Errorf("%w: the AIR does not hold at z: C(z) ≠ Q(z)", ErrRejected)
	}
	return nil
}

// constraintsAt is Q's defining expression (quotientLDE) at the point z of
// X, from the trace's values at z and z·ω.
func constraintsAt[E fri.Base, X fri.Ext](f arith[E, X], at, atNext []X, z X, n int, omega, output E, ap []X) X {
	one := f.xembed(f.fromUint(1))
	a, b, aNext, bNext := at[0], at[1], atNext[0], atNext[1]
	zLast := f.xsub(z, f.xembed(f.exp(omega, uint64(n-1))))
	s := f.xmul(zLast, f.xinv(f.xsub(f.xexp(z, uint64(n)), one)))
	inv1, invLast := f.xinv(f.xsub(z, one)), f.xinv(zLast)
	c := []X{
		f.xmul(f.xsub(aNext, b), s),
		f.xmul(f.xsub(f.xsub(bNext, a), b), s),
		f.xmul(f.xsub(a, one), inv1),
		f.xmul(f.xsub(b, one), inv1),
		f.xmul(f.xsub(b, f.xembed(output)), invLast),
	}
	var sum X
	for k := range c {
		sum = f.xadd(sum, f.xmul(ap[k], c[k]))
	}
	return sum
}

// recombine returns Q(z) = Σ_j e_j·Q_j(z) from the coordinate columns'
// values Q_j(z), e_j the basis of X over E in the coordinates' order.
func recombine[E fri.Base, X fri.Ext](f arith[E, X], qAt []X) X {
	var sum X
	for j, v := range qAt {
		var e X
		f.coords(&e)[j] = f.fromUint(1)
		sum = f.xadd(sum, f.xmul(e, v))
	}
	return sum
}

// security returns the FRI part of the conjectured security for a trace of
// 2^logRows rows and log2 of the union bound of the algebraic errors around
// it: the batching of the constraints by powers of α ((K − 1)/|X|), the
// out-of-domain check (C·(x^n−1) = Q·(x − ω^(n−1))·… as polynomials of
// degree ≤ 2n, 2n/|X|) and DEEP's (n + P)·terms/|X| (package fri's
// estimate, terms = 2 trace columns at 2 points + d quotient columns at 1).
func security[E fri.Base, X fri.Ext](cfg fri.Config, logRows int) (friBits, algebraicBits float64, err error) {
	f, err := arithOf[E, X]()
	if err != nil {
		return 0, 0, err
	}
	params, err := cfg.Schedule(f.field(), logRows, logRows)
	if err != nil {
		return 0, 0, err
	}
	n := float64(uint64(1) << logRows)
	terms := float64(columns*2 + f.degree())
	e := float64(constraints-1) + 2*n + (n+2)*terms
	return params.ConjecturedBits(), f.field().ExtBits() - math.Log2(e), nil
}
