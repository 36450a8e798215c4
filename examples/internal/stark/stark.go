package stark

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// The STARK's fixed choices: the number of trace columns and the
// transcript's label, and the trace sizes it takes.
const (
	// Columns is the trace's width: a, b.
	Columns = 2
	label   = "gfpoly examples/stark: Fibonacci AIR"
	// MinLogRows is the smallest trace domain: the FRI presets' final
	// degree is 2^3, which must not pass a commitment's height.
	MinLogRows = 3
	// MaxLogRows bounds the trace domain (the encoder's limit is the
	// field's two-adicity less the blowup: KoalaBear's is 24, BabyBear's 27).
	MaxLogRows = 24
)

// ErrRejected is wrapped by every rejection of verify and of the proof's
// decoding; where the FRI verifier rejected, fri.ErrProof is wrapped too.
var ErrRejected = errors.New("stark: proof rejected")

// air is the Fibonacci AIR over one trace domain: columns a, b of rows()
// rows, a_(t+1) = b_t and b_(t+1) = a_t + c·b_t, a_0 = b_0 = 1, and the
// public output b_(T−1). c is 1 over the prime fields; over GF(2^64) it is x,
// since with c = 1 the recurrence in characteristic 2 only cycles through
// (1, 1), (1, 0), (0, 1).
// The AIR's LDEs are at blowup 2^logBlowup, the FRI Config's.
type air[E fri.Element, X fri.Challenge] struct {
	f         arith[E, X]
	d         traceDomain[E, X]
	logRows   int
	logBlowup int
	c         E
}

func newAIR[E fri.Element, X fri.Challenge](logRows, logBlowup int) (*air[E, X], error) {
	if logRows < MinLogRows || logRows > MaxLogRows {
		return nil, fmt.Errorf("stark: 2^%d trace rows: want %d..%d", logRows, MinLogRows, MaxLogRows)
	}
	if logBlowup < 1 || logBlowup > 4 {
		return nil, fmt.Errorf("stark: blowup 2^%d: want 2, 4, 8 or 16", logBlowup)
	}
	f, err := arithOf[E, X]()
	if err != nil {
		return nil, err
	}
	d, err := newTraceDomain(f, logRows, logBlowup)
	if err != nil {
		return nil, err
	}
	c := f.fromUint(1)
	if f.field() == fri.GF64 {
		c = f.fromUint(2) // x
	}
	return &air[E, X]{f: f, d: d, logRows: logRows, logBlowup: logBlowup, c: c}, nil
}

// constraints is the number of constraints: the two transitions on each
// piece of the trace domain, and three boundaries.
func (a *air[E, X]) constraints() int { return 2*a.d.pieces() + 3 }

// Fibonacci returns the honest trace of the trace domain of dimension
// logRows, Columns columns of Rows[E, X](logRows) rows in row order, and its
// public output b_(T−1).
func Fibonacci[E fri.Element, X fri.Challenge](logRows int) (prover.Trace[E], E, error) {
	a, err := newAIR[E, X](logRows, 1)
	if err != nil {
		var zero E
		return nil, zero, err
	}
	trace, output := a.fibonacci()
	return trace, output, nil
}

// Rows returns the trace length over the trace domain of dimension logRows:
// 2^logRows over the prime fields, 2^logRows − 1 over GF(2^64) (its
// successor's orbit misses 0).
func Rows[E fri.Element, X fri.Challenge](logRows int) (int, error) {
	a, err := newAIR[E, X](logRows, 1)
	if err != nil {
		return 0, err
	}
	return a.d.rows(), nil
}

// fibonacci returns the honest trace, in row order, and its output.
func (a *air[E, X]) fibonacci() (prover.Trace[E], E) {
	f, T := a.f, a.d.rows()
	col0, col1 := make([]E, T), make([]E, T)
	col0[0], col1[0] = f.fromUint(1), f.fromUint(1)
	for t := 1; t < T; t++ {
		col0[t], col1[t] = col1[t-1], f.add(col0[t-1], f.mul(a.c, col1[t-1]))
	}
	return prover.Trace[E]{col0, col1}, col1[T-1]
}

// Proof is the STARK's proof: the two Merkle roots and the DEEP-FRI opening
// of both commitments, which carries the values at z and its successors.
type Proof[E fri.Element, X fri.Challenge] struct {
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
	// Ran says where the quotient and the opening ran: "quotient on the
	// GPU" or "quotient on the CPU", then the opening's fri.Proof.Ran.
	Ran string
}

// Commitments is the time of the commitment phase: the trace's LDE and
// commitment, the quotient and its commitment (everything before the
// opening).
func (ph Phases) Commitments() time.Duration { return ph.Trace + ph.Quotient + ph.Commit }

// Prover proves the Fibonacci AIR over E with challenges in X.
type Prover[E fri.Element, X fri.Challenge] struct {
	cfg    fri.Config
	enc    prover.Encoder[E]
	airs   map[int]*air[E, X] // by logRows: built once, with their domains' transform plans
	phases Phases             // of the last prove

	// forge, when set (tests), replaces the quotient's LDE before it is
	// committed, as a cheating prover would.
	forge func(q [][]E) ([][]E, error)

	dq *devQuot[E] // the quotient's device state (device.go), made on first use
}

// NewProver returns a prover whose commitments are package prover's at the
// blowup of cfg (cfg.LogBlowup, 1 … 4) with cfg's Merkle hash, made by the
// encoder that opts configure (prover.WithGPU for a GPU backend; the blowup
// and the hash are set here), and whose opening is fri.Open with cfg.
// fri.NewConfig(field, bits, logBlowup) gives the presets; Verify needs the
// same cfg. cfg.BinaryDomains must be nil: the GF(2^64) trace domain is
// package prover's default message subspace.
func NewProver[E fri.Element, X fri.Challenge](cfg fri.Config, opts ...prover.Option) (*Prover[E, X], error) {
	if _, err := arithOf[E, X](); err != nil {
		return nil, err
	}
	if cfg.LogBlowup < 1 || cfg.LogBlowup > 4 {
		return nil, fmt.Errorf("stark: blowup 2^%d: want 2, 4, 8 or 16", cfg.LogBlowup)
	}
	if cfg.BinaryDomains != nil {
		return nil, errors.New("stark: the FRI Config's binary domains must be the default (prover.DefaultBinaryDomains)")
	}
	opts = append(opts[:len(opts):len(opts)], prover.WithBlowup(1<<cfg.LogBlowup))
	if !cfg.Merkle.Default() {
		opts = append(opts, prover.WithMerkle(cfg.Merkle))
	}
	enc, err := prover.New[E](opts...)
	if err != nil {
		return nil, err
	}
	return &Prover[E, X]{cfg: cfg, enc: enc, airs: map[int]*air[E, X]{}}, nil
}

// Config returns the FRI parameters the prover opens with.
func (p *Prover[E, X]) Config() fri.Config { return p.cfg }

// Encoder returns the encoder that makes the prover's commitments.
func (p *Prover[E, X]) Encoder() prover.Encoder[E] { return p.enc }

// Phases returns the times of the last Prove.
func (p *Prover[E, X]) Phases() Phases { return p.phases }

// Prepare builds what a first Prove of a trace domain of dimension logRows
// would build (the encoder's transform tables and device buffers, the
// domain's successor plans), so that the first Prove of that size costs what
// later ones do.
func (p *Prover[E, X]) Prepare(logRows int) error {
	a, err := p.airOf(logRows)
	if err != nil {
		return err
	}
	if err := p.enc.Prepare(logRows, Columns); err != nil {
		return err
	}
	if p.enc.DeviceMemory().Budget > 0 {
		// A GPU encoder: one proof loads the quotient's and the opening's
		// kernels, builds the successors' transform tables and keeps the
		// device buffers of that size.
		trace, output := a.fibonacci()
		if _, err := p.Prove(trace, output); err != nil {
			return fmt.Errorf("stark: preparing 2^%d rows: %w", logRows, err)
		}
	}
	return nil
}

// airOf returns the AIR of dimension logRows, built once.
func (p *Prover[E, X]) airOf(logRows int) (*air[E, X], error) {
	a := p.airs[logRows]
	if a == nil {
		var err error
		if a, err = newAIR[E, X](logRows, p.cfg.LogBlowup); err != nil {
			return nil, err
		}
		p.airs[logRows] = a
	}
	return a, nil
}

// Close releases the encoder and the prover's device memory.
func (p *Prover[E, X]) Close() error {
	var err error
	if p.dq != nil {
		err = p.dq.close()
		p.dq = nil
	}
	return errors.Join(err, p.enc.Close())
}

// start returns the transcript both sides begin with: the AIR's shape and
// its public input.
func start[E fri.Element, X fri.Challenge](a *air[E, X], output E) (*transcript.Transcript, error) {
	tr, err := transcript.New(label)
	if err != nil {
		return nil, err
	}
	tr.AbsorbBytes("air", []byte{byte(a.f.field()), byte(a.logRows), byte(a.logBlowup)})
	transcript.Absorb(tr, "public output", output)
	return tr, nil
}

// powers returns 1, α, …, α^(k−1).
func powers[E, X any](f arith[E, X], alpha X, k int) []X {
	p := make([]X, k)
	p[0] = f.xembed(f.fromUint(1))
	for i := 1; i < k; i++ {
		p[i] = f.xmul(p[i-1], alpha)
	}
	return p
}

// logRowsOf returns k for a trace of T rows: T = 2^k (prime fields) or
// 2^k − 1 (GF(2^64)); newAIR checks which.
func logRowsOf(T int) int { return bits.Len(uint(T - 1)) }

// Prove proves that trace, Columns columns in row order, satisfies the AIR
// with public output b_(T−1) = output. It does not check the trace first:
// given one that does not satisfy the AIR it computes what an honest prover
// would, a quotient that is not of low degree, and either fails (fri.Open
// refuses the quotient's columns, an error wrapping fri.ErrOracle) or returns
// a proof that Verify rejects.
func (p *Prover[E, X]) Prove(trace prover.Trace[E], output E) (*Proof[E, X], error) {
	if len(trace) != Columns || len(trace[0]) < 2 || len(trace[1]) != len(trace[0]) {
		return nil, fmt.Errorf("stark: want %d columns of the same length", Columns)
	}
	logRows := logRowsOf(len(trace[0]))
	a, err := p.airOf(logRows)
	if err != nil {
		return nil, err
	}
	f, d := a.f, a.d
	if d.rows() != len(trace[0]) {
		return nil, fmt.Errorf("stark: %d rows: the %v trace domain of dimension %d has %d", len(trace[0]), f.field(), a.logRows, d.rows())
	}
	tr, err := start(a, output)
	if err != nil {
		return nil, err
	}

	// 1. The trace's LDE over the codeword domain (N = 2^logBlowup·n rows, row i at
	// x_i = CodewordPoint(i)) and its commitment.
	t0 := time.Now()
	committed := d.place(trace)
	tc, err := p.enc.Commit(committed)
	if err != nil {
		return nil, err
	}
	defer tc.Close()
	tr.AbsorbRoot("trace", tc.Root())
	alpha, err := transcript.Draw[X](tr, "alpha")
	if err != nil {
		return nil, err
	}
	t1 := time.Now()

	// 2. The quotient over the LDE, committed as its coordinate columns: on
	// the device where the trace's commitment is kept there (device.go),
	// else over a host copy of the LDE.
	if f.field() != fri.GF64 {
		// ω·ω^(n−1) = 1: the encoder's generator is gnark-crypto's.
		if w, err := tc.TracePoint(1); err != nil || !f.equal(f.mul(w, d.last()), d.first()) {
			return nil, fmt.Errorf("stark: the encoder's trace domain is not gnark-crypto's ⟨ω⟩ (%v)", err)
		}
	}
	ap := powers(f, alpha, a.constraints())
	var qc *prover.Commitment[E]
	var t2 time.Time
	where := "quotient on the CPU"
	if buf, derr := tc.DeviceLDE(); derr == nil && p.forge == nil {
		// The trace's LDE is on the device: the quotient is computed and
		// committed there.
		q, err := p.quotientDevice(a, tc, buf, committed, output, ap)
		if err != nil {
			return nil, err
		}
		t2, where = time.Now(), "quotient on the GPU"
		qc, err = p.enc.CommitDeviceLDE(q, f.degree())
		if ferr := q.Free(); err == nil {
			err = ferr
		}
		if err != nil {
			return nil, err
		}
	} else {
		if qc, t2, err = p.commitQuotientHost(a, tc, committed, output, ap); err != nil {
			return nil, err
		}
	}
	defer qc.Close()
	tr.AbsorbRoot("quotient", qc.Root())
	t3 := time.Now()

	// 3. The out-of-domain point and the DEEP-FRI opening of both
	// commitments: the trace at z and its successors, the quotient at z.
	points, err := drawZ(a, tr)
	if err != nil {
		return nil, err
	}
	opening, err := fri.Open(tr, p.cfg,
		fri.Batch[E, X]{Oracle: prover.Oracle[X](tc), Points: points},
		fri.Batch[E, X]{Oracle: prover.Oracle[X](qc), Points: points[:1]})
	if err != nil {
		return nil, err
	}
	p.phases = Phases{Trace: t1.Sub(t0), Quotient: t2.Sub(t1), Commit: t3.Sub(t2), Opening: time.Since(t3), Ran: where + ", opening: " + opening.Ran()}
	return &Proof[E, X]{TraceRoot: tc.Root(), QuotientRoot: qc.Root(), Opening: opening}, nil
}

// commitQuotientHost computes the quotient over a host copy of tc's LDE
// and commits to it; it returns the commitment and when the quotient was
// done.
func (p *Prover[E, X]) commitQuotientHost(a *air[E, X], tc *prover.Commitment[E], committed prover.Trace[E], output E, ap []X) (*prover.Commitment[E], time.Time, error) {
	d := a.d
	lde, err := tc.LDE()
	if err != nil {
		return nil, time.Time{}, err
	}
	xs := make([]E, tc.Rows())
	if err := tc.CodewordPoints(xs, 0); err != nil {
		return nil, time.Time{}, err
	}
	next := make([][][]E, d.pieces())
	for m := range next {
		if next[m], err = d.nextLDE(m, committed, lde, xs); err != nil {
			return nil, time.Time{}, err
		}
	}
	q := quotientLDE(a, lde, next, xs, output, ap)
	t2 := time.Now()
	if p.forge != nil {
		if q, err = p.forge(q); err != nil {
			return nil, time.Time{}, err
		}
	}
	qc, err := p.enc.CommitLDE(q)
	return qc, t2, err
}

// drawZ draws the out-of-domain point z and returns it with its successors
// N_m(z). A z in the trace domain (probability n/|X|) leaves a divisor zero
// at z, and is refused.
func drawZ[E fri.Element, X fri.Challenge](a *air[E, X], tr *transcript.Transcript) ([]X, error) {
	f, d := a.f, a.d
	z, err := transcript.Draw[X](tr, "z")
	if err != nil {
		return nil, err
	}
	points := []X{z}
	for m := range d.pieces() {
		if _, ok := d.selectorAt(m, z); !ok {
			return nil, fmt.Errorf("%w: z lies in the trace domain", ErrRejected)
		}
		points = append(points, d.next(m, z))
	}
	if f.xequal(z, f.xembed(d.first())) || f.xequal(z, f.xembed(d.last())) {
		return nil, fmt.Errorf("%w: z lies in the trace domain", ErrRejected)
	}
	return points, nil
}

// quotientLDE returns the coordinate columns of the constraints' quotient
// over the LDE rows x_i = xs[i] of the trace columns lde (a, b), with
// next[m] their values at the successors N_m(x_i) and ap[k] = α^k:
//
//	Q(x) = Σ_k α^k·q_k(x), over the pieces m of the trace domain (sel_m = (x − e_m)/Z_m(x))
//	q_(2m)   = (a(N_m x) − b(x))·sel_m(x),
//	q_(2m+1) = (b(N_m x) − a(x) − c·b(x))·sel_m(x),
//	q_(2M)   = (a(x) − 1)/(x − first),  q_(2M+1) = (b(x) − 1)/(x − first),
//	q_(2M+2) = (b(x) − output)/(x − last).
//
// Each q_k is a trace-field column, so coordinate j of Q is the trace-field
// combination Σ_k coords(α^k)[j]·q_k: the d columns that are committed, each
// of degree < n when the trace satisfies the AIR.
func quotientLDE[E fri.Element, X fri.Challenge](a *air[E, X], lde [][]E, next [][][]E, xs []E, output E, ap []X) [][]E {
	f, d := a.f, a.d
	N := len(xs)
	col := func() []E { return make([]E, N) }
	A, B := lde[0], lde[1]
	M := d.pieces()
	qs := make([][]E, 0, a.constraints())
	sel, cb := col(), col()
	f.vscale(cb, B, a.c)
	for m := range M {
		d.selector(m, sel, xs)
		q0, q1 := col(), col()
		f.vsub(q0, next[m][0], B)
		f.vmul(q0, q0, sel)
		f.vsub(q1, next[m][1], A)
		f.vsub(q1, q1, cb)
		f.vmul(q1, q1, sel)
		qs = append(qs, q0, q1)
	}

	// 1/(x − first) and 1/(x − last) from one batch inversion of their
	// product.
	one := f.fromUint(1)
	xFirst, xLast, invFirst, invLast := col(), col(), col(), col()
	f.vsubConst(xFirst, xs, d.first())
	f.vsubConst(xLast, xs, d.last())
	f.vmul(invLast, xFirst, xLast)
	f.vinvert(invLast, invLast)
	f.vmul(invFirst, invLast, xLast)
	f.vmul(invLast, invLast, xFirst)
	qa, qb, qo := col(), col(), col()
	f.vsubConst(qa, A, one)
	f.vmul(qa, qa, invFirst)
	f.vsubConst(qb, B, one)
	f.vmul(qb, qb, invFirst)
	f.vsubConst(qo, B, output)
	f.vmul(qo, qo, invLast)
	qs = append(qs, qa, qb, qo)

	q, tmp := make([][]E, f.degree()), col()
	for j := range q {
		q[j] = col()
		for k := range qs {
			f.vscale(tmp, qs[k], f.coords(&ap[k])[j])
			f.vadd(q[j], q[j], tmp)
		}
	}
	return q
}

// Verify checks a proof that the trace of the AIR's trace domain of
// dimension logRows (2^logRows rows, or 2^logRows − 1 for GF(2^64)) the
// prover committed satisfies the AIR with public output b_(T−1) = output,
// with the prover's FRI parameters cfg. It replays the prover's transcript,
// runs the DEEP-FRI verifier that proves the values at z and its successors,
// and checks the AIR at z with them. Every rejection wraps ErrRejected.
func Verify[E fri.Element, X fri.Challenge](cfg fri.Config, logRows int, output E, p *Proof[E, X]) error {
	a, err := newAIR[E, X](logRows, cfg.LogBlowup)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRejected, err)
	}
	if p == nil || p.Opening == nil {
		return fmt.Errorf("%w: no opening", ErrRejected)
	}
	f := a.f
	tr, err := start(a, output)
	if err != nil {
		return err
	}
	tr.AbsorbRoot("trace", p.TraceRoot)
	alpha, err := transcript.Draw[X](tr, "alpha")
	if err != nil {
		return err
	}
	tr.AbsorbRoot("quotient", p.QuotientRoot)
	points, err := drawZ(a, tr)
	if err != nil {
		return err
	}
	stmts := []fri.Statement[X]{
		{Root: p.TraceRoot, LogRows: logRows, Columns: Columns, Points: points},
		{Root: p.QuotientRoot, LogRows: logRows, Columns: f.degree(), Points: points[:1]},
	}
	if err := fri.Verify(tr, cfg, stmts, p.Opening); err != nil {
		return fmt.Errorf("%w: %w", ErrRejected, err)
	}
	v := p.Opening.Values // fri.Verify checked their shape against stmts
	if len(v) != 2 || len(v[0]) != len(points) || len(v[1]) != 1 || len(v[1][0]) != f.degree() {
		return fmt.Errorf("%w: values of the wrong shape", ErrRejected)
	}
	for _, vp := range v[0] {
		if len(vp) != Columns {
			return fmt.Errorf("%w: values of the wrong shape", ErrRejected)
		}
	}
	if !f.xequal(constraintsAt(a, points[0], v[0][0], v[0][1:], output, powers(f, alpha, a.constraints())), recombine(f, v[1][0])) {
		return fmt.Errorf("%w: the AIR does not hold at z: C(z) ≠ Q(z)", ErrRejected)
	}
	return nil
}

// constraintsAt is quotientLDE's expression at the point z of X, from the
// trace's values at z (at) and at its successors N_m(z) (next[m]). drawZ
// made sure that no divisor is zero at z.
func constraintsAt[E fri.Element, X fri.Challenge](a *air[E, X], z X, at []X, next [][]X, output E, ap []X) X {
	f, d := a.f, a.d
	one := f.xembed(f.fromUint(1))
	A, B := at[0], at[1]
	cb := f.xmul(f.xembed(a.c), B)
	var q []X
	for m := range d.pieces() {
		sel, _ := d.selectorAt(m, z)
		q = append(q,
			f.xmul(f.xsub(next[m][0], B), sel),
			f.xmul(f.xsub(f.xsub(next[m][1], A), cb), sel))
	}
	invFirst := f.xinv(f.xsub(z, f.xembed(d.first())))
	invLast := f.xinv(f.xsub(z, f.xembed(d.last())))
	q = append(q,
		f.xmul(f.xsub(A, one), invFirst),
		f.xmul(f.xsub(B, one), invFirst),
		f.xmul(f.xsub(B, f.xembed(output)), invLast))
	var sum X
	for k := range q {
		sum = f.xadd(sum, f.xmul(ap[k], q[k]))
	}
	return sum
}

// recombine returns Q(z) = Σ_j e_j·Q_j(z) from the coordinate columns'
// values Q_j(z), e_j the basis of X over E in the coordinates' order.
func recombine[E, X any](f arith[E, X], qAt []X) X {
	var sum X
	for j, v := range qAt {
		var e X
		f.coords(&e)[j] = f.fromUint(1)
		sum = f.xadd(sum, f.xmul(e, v))
	}
	return sum
}

// Security returns, for a trace domain of dimension logRows proved with cfg,
// the FRI part of the conjectured security (fri.Params.ConjecturedBits of the
// schedule) and −log2 of the union bound of the algebraic errors around it:
// the batching of the K constraints by powers of α ((K − 1)/|X|), the check
// at z of an identity of degree ≤ 2n (2n/|X|) and DEEP's (n + P)·terms/|X|
// (package fri's estimate; terms: 2 trace columns at P points, d quotient
// columns at 1). The proof's conjectured security is the smaller of the two.
func Security[E fri.Element, X fri.Challenge](cfg fri.Config, logRows int) (friBits, algebraicBits float64, err error) {
	a, err := newAIR[E, X](logRows, cfg.LogBlowup)
	if err != nil {
		return 0, 0, err
	}
	params, err := cfg.Schedule(a.f.field(), logRows, logRows)
	if err != nil {
		return 0, 0, err
	}
	n := float64(uint64(1) << logRows)
	P := float64(1 + a.d.pieces())
	terms := float64(Columns)*P + float64(a.f.degree())
	e := float64(a.constraints()-1) + 2*n + (n+P)*terms
	return params.ConjecturedBits(), a.f.field().ExtBits() - math.Log2(e), nil
}
