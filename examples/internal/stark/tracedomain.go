package stark

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// traceDomain is where the trace's rows lie and how a row leads to the next:
// the part of the STARK that differs between the multiplicative domains of
// the prime fields and the affine subspaces of GF(2^64). The trace domain D
// (the encoder's message domain, n = 2^k points) is split into pieces D_m,
// m < pieces(), on each of which the successor of a row's point is a map
// N_m of degree 1; the transition constraints are enforced on D_m but at one
// point e_m, through the selector (X − e_m)/Z_m(X), Z_m the vanishing
// polynomial of D_m.
type traceDomain[E fri.Element, X fri.Challenge] interface {
	// rows is the trace's length: n over ⟨ω⟩, n − 1 over a subspace.
	rows() int
	// place returns the committed columns (n entries each, in the
	// encoder's order of D) of trace, whose columns hold rows() rows in
	// row order.
	place(trace prover.Trace[E]) prover.Trace[E]
	// first and last are the points of rows 0 and rows() − 1.
	first() E
	last() E
	pieces() int
	// next returns N_m(z).
	next(m int, z X) X
	// nextLDE returns the committed columns' polynomials at N_m(x_i)
	// for every LDE row x_i (xs), from the committed columns or their LDE.
	nextLDE(m int, committed prover.Trace[E], lde [][]E, xs []E) ([][]E, error)
	// selector writes (x_i − e_m)/Z_m(x_i) for every LDE row.
	selector(m int, dst, xs []E)
	// selectorAt returns (z − e_m)/Z_m(z), and false when Z_m(z) = 0.
	selectorAt(m int, z X) (X, bool)

	// On the device (device.go): devPoints writes the LDE rows' points
	// x_i (checked against tc's), devNext nextLDE's two columns end to end
	// into dst (from the committed columns or lde, the trace's LDE on the
	// device), devSelector selector's column (tmp is scratch).
	devPoints(g *devQuot[E], dst *gpu.Buffer[E], tc *prover.Commitment[E]) error
	devNext(m int, g *devQuot[E], dst *gpu.Buffer[E], committed prover.Trace[E], lde *gpu.Buffer[E]) error
	devSelector(m int, g *devQuot[E], dst, xs, tmp *gpu.Buffer[E]) error
}

func newTraceDomain[E fri.Element, X fri.Challenge](f arith[E, X], logRows, logBlowup int) (traceDomain[E, X], error) {
	if f.field() == fri.GF64 {
		d, err := newSubspaceDomain(logRows, logBlowup)
		if err != nil {
			return nil, err
		}
		return any(d).(traceDomain[E, X]), nil
	}
	omega, err := f.rootOfUnity(logRows)
	if err != nil {
		return nil, err
	}
	n := 1 << logRows
	return &cyclicDomain[E, X]{f: f, n: n, blowup: 1 << logBlowup, omega: omega, lastPoint: f.exp(omega, uint64(n-1))}, nil
}

// cyclicDomain is H = ⟨ω⟩ of a prime field, row i at ω^i: one piece, H
// itself, N_0(X) = ω·X, e_0 = ω^(n−1) (the last row has no successor) and
// Z_0 = X^n − 1. Over the LDE coset g·⟨ω'⟩ (ω = ω'^blowup) the next row of
// LDE row i is row i + blowup (mod N).
type cyclicDomain[E fri.Element, X fri.Challenge] struct {
	f         arith[E, X]
	n         int
	blowup    int
	omega     E
	lastPoint E
}

func (d *cyclicDomain[E, X]) rows() int                                   { return d.n }
func (d *cyclicDomain[E, X]) place(trace prover.Trace[E]) prover.Trace[E] { return trace }
func (d *cyclicDomain[E, X]) first() E                                    { return d.f.fromUint(1) }
func (d *cyclicDomain[E, X]) last() E                                     { return d.lastPoint }
func (d *cyclicDomain[E, X]) pieces() int                                 { return 1 }
func (d *cyclicDomain[E, X]) next(_ int, z X) X                           { return d.f.xmul(z, d.f.xembed(d.omega)) }

func (d *cyclicDomain[E, X]) nextLDE(_ int, _ prover.Trace[E], lde [][]E, xs []E) ([][]E, error) {
	N, blowup := len(xs), d.blowup
	if N != blowup*d.n || !d.f.equal(xs[blowup], d.f.mul(xs[0], d.omega)) {
		return nil, errors.New("stark: the LDE is not over a coset g·⟨ω'⟩ with ω'^blowup = ω, in natural order")
	}
	out := make([][]E, len(lde))
	for c, col := range lde {
		out[c] = make([]E, N)
		copy(out[c], col[blowup:])
		copy(out[c][N-blowup:], col[:blowup])
	}
	return out, nil
}

// selector: x_i^n repeats with period blowup (ω'^n has order blowup), so Z_0
// takes blowup values over the coset.
func (d *cyclicDomain[E, X]) selector(_ int, dst, xs []E) {
	f, blowup := d.f, d.blowup
	one := f.fromUint(1)
	for i := range blowup {
		dst[i] = f.inv(f.sub(f.exp(xs[i], uint64(d.n)), one))
	}
	for i := blowup; i < len(dst); i += blowup {
		copy(dst[i:i+blowup], dst[:blowup])
	}
	xLast := make([]E, len(xs))
	f.vsubConst(xLast, xs, d.lastPoint)
	f.vmul(dst, dst, xLast)
}

func (d *cyclicDomain[E, X]) selectorAt(_ int, z X) (X, bool) {
	f := d.f
	zh := f.xsub(f.xexp(z, uint64(d.n)), f.xembed(f.fromUint(1)))
	if f.xequal(zh, *new(X)) {
		return zh, false
	}
	return f.xmul(f.xsub(z, f.xembed(d.lastPoint)), f.xinv(zh)), true
}

// subspaceDomain is the trace domain of GF(2^64): S = span(1, x, …, x^(k−1))
// (package prover's default message subspace: row index i is the element
// whose bits are i), the trace along the orbit of libSTARK's successor.
//
// The successor. Read an element r of S as a polynomial of degree < k over
// GF(2) and let p be a primitive polynomial of degree k; the successor of r is
// x·r mod p, multiplication by the generator x of GF(2)[x]/(p) = GF(2^k).
// Its orbit from 1, r_t = x^t mod p, visits every non-zero element of S once:
// the trace has T = 2^k − 1 rows, row t at r_t (the lengths allowed are
// 2^k − 1, 3 ≤ k ≤ MaxLogRows), and 0 ∈ S holds no row (the encoder's entry
// there is 0). In GF(2^64), where r is the element with the same bits and
// k < 64, the product x·r needs no reduction, so the successor is
//
//	N(r) = x·r        on S_0 = span(1, …, x^(k−2))   (bit k−1 of r clear)
//	N(r) = x·r + p    on S_1 = x^(k−1) + S_0          (bit k−1 set: p clears bit k)
//
// two maps of degree 1. This is libSTARK's successor (Ben-Sasson, Bentov,
// Horesh, Riabzev, "Scalable, transparent, and post-quantum secure
// computational integrity", eprint 2018/046, whose reduction libSTARK
// implements): in libstark/src/reductions/BairToAcsp/Details,
// neighborsConstructor.cpp builds the next-row neighbour as
// generator·X, plus the rows' modulus "with carry", and constraints.cpp
// (addAssignmentCS_checks) applies the constraints with the first on the
// half of the row space with the top bit clear and the second on the other
// half, excluding the zero row and the last row as e_0 and e_1 do here.
// libSTARK's modulus comes from its own table; p here is the least
// primitive polynomial (below). As one polynomial on S the
// successor is x·X + p·Z_0(X)/Z_0(x^(k−1)), of degree 2^(k−1) = n/2
// (TestSuccessorDegree): composed with a trace polynomial of degree < n it
// would give a constraint of degree about n²/2. Split in two pieces, each
// transition constraint is of degree < n, and its quotient by
// Z_m(X)/(X − e_m), of degree n/2 − 1, is of degree ≤ n/2.
//
// The pieces: Z_0 = L, the vanishing polynomial of the linear space S_0,
// and e_0 = 0 (not on the orbit); Z_1(X) = L(X + x^(k−1)) = L(X) + L(x^(k−1))
// (L is GF(2)-linear), and e_1 = r_(T−1) = (p + 1)/x, the last row, whose
// successor is r_0 = 1. L(X) is computed by L_0(X) = X, L_(j+1)(X) =
// L_j(X)·(L_j(X) + L_j(x^j)), j < k − 1.
//
// p is the least primitive polynomial of degree k (as an integer), found by
// the order test: x^(2^k−1) = 1 mod p and x^((2^k−1)/q) ≠ 1 for each prime q
// dividing 2^k − 1.
type subspaceDomain struct {
	k          int
	p          gf64.Element   // the primitive polynomial, bit k set
	lastPoint  gf64.Element   // r_(T−1) = (p + 1)/x
	c          []gf64.Element // L_j(x^j), j < k − 1
	lTop       gf64.Element   // L(x^(k−1))
	message    *domain.Subspace
	codeword   *domain.Subspace
	successors [2]*domain.Subspace // N_0 and N_1 of the codeword subspace
}

func newSubspaceDomain(logRows, logBlowup int) (*subspaceDomain, error) {
	k := logRows
	if k < 2 || k > 62 {
		return nil, fmt.Errorf("stark: no subspace trace domain of dimension %d", k)
	}
	p, err := leastPrimitive(k)
	if err != nil {
		return nil, err
	}
	d := &subspaceDomain{k: k, p: gf64.Element(p), lastPoint: gf64.Element((p ^ 1) >> 1)}
	for j := range k - 1 {
		d.c = append(d.c, d.vanishing(gf64.Element(1)<<j))
	}
	d.lTop = d.vanishing(gf64.Element(1) << (k - 1))
	if d.message, d.codeword, err = prover.DefaultBinaryDomains(k, logBlowup); err != nil {
		return nil, err
	}
	codeword := d.codeword
	// N_0(T) = x·T: element i of x·T is x·T.Element(i), by linearity.
	basis := codeword.Basis()
	for j := range basis {
		basis[j] = gf64.Mul(2, basis[j])
	}
	if d.successors[0], err = domain.New(gf64.Mul(2, codeword.Shift()), basis...); err != nil {
		return nil, err
	}
	if d.successors[1], err = d.successors[0].WithShift(d.successors[0].Shift() ^ d.p); err != nil {
		return nil, err
	}
	return d, nil
}

// vanishing returns L(v), L the vanishing polynomial of S_0 (with the
// constants found so far: newSubspaceDomain computes them in order).
func (d *subspaceDomain) vanishing(v gf64.Element) gf64.Element {
	for _, c := range d.c {
		v = gf64.Mul(v, v^c)
	}
	return v
}

// successor is N on S: x·r mod p.
func (d *subspaceDomain) successor(r gf64.Element) gf64.Element {
	r <<= 1
	if r>>d.k&1 == 1 {
		r ^= d.p
	}
	return r
}

func (d *subspaceDomain) rows() int           { return 1<<d.k - 1 }
func (d *subspaceDomain) first() gf64.Element { return 1 }
func (d *subspaceDomain) last() gf64.Element  { return d.lastPoint }
func (d *subspaceDomain) pieces() int         { return 2 }
func (d *subspaceDomain) next(m int, z gf128.Element) gf128.Element {
	z = gf128.MulByBase(z, 2)
	if m == 1 {
		z.A0 ^= d.p
	}
	return z
}

func (d *subspaceDomain) place(trace prover.Trace[gf64.Element]) prover.Trace[gf64.Element] {
	out := make(prover.Trace[gf64.Element], len(trace))
	for c, col := range trace {
		out[c] = make([]gf64.Element, 1<<d.k)
		r := gf64.Element(1)
		for _, v := range col {
			out[c][r] = v
			r = d.successor(r)
		}
	}
	return out
}

func (d *subspaceDomain) nextLDE(m int, committed prover.Trace[gf64.Element], _ [][]gf64.Element, xs []gf64.Element) ([][]gf64.Element, error) {
	to, n := d.successors[m], len(xs)
	if d.codeword.Size() != n || xs[1] != d.codeword.Element(1) || xs[n-1] != d.codeword.Element(n-1) {
		return nil, errors.New("stark: the LDE is not over the default codeword subspace")
	}
	out := make([][]gf64.Element, len(committed))
	for c := range out {
		out[c] = make([]gf64.Element, len(xs))
	}
	return out, domain.LDEBatch(out, committed, d.message, to)
}

// selector: xs is the codeword subspace T in its order (nextLDE checks it),
// whose basis starts with S_0's, so x_i − x_(i0) ∈ S_0 within each block of
// 2^(k−1) rows from i0 and Z_m(x_i) = Z_m(x_(i0)): Z_m takes 2·blowup values over T.
func (d *subspaceDomain) selector(m int, dst, xs []gf64.Element) {
	e, top := gf64.Element(0), gf64.Element(0)
	if m == 1 {
		e, top = d.lastPoint, d.lTop
	}
	blk := 1 << (d.k - 1)
	for i0 := 0; i0 < len(xs); i0 += blk {
		z := gf64.Inverse(d.vanishing(xs[i0]) ^ top)
		for i := i0; i < i0+blk; i++ {
			dst[i] = xs[i] ^ e
		}
		gf64.ScaleVec(dst[i0:i0+blk], dst[i0:i0+blk], z)
	}
}

func (d *subspaceDomain) selectorAt(m int, z gf128.Element) (gf128.Element, bool) {
	l := z
	for _, c := range d.c {
		l = gf128.Mul(l, gf128.Add(l, gf128.Embed(c)))
	}
	e := gf64.Element(0)
	if m == 1 {
		l = gf128.Add(l, gf128.Embed(d.lTop))
		e = d.lastPoint
	}
	if l.IsZero() {
		return l, false
	}
	return gf128.Mul(gf128.Add(z, gf128.Embed(e)), gf128.Inverse(l)), true
}

// leastPrimitive returns the least primitive polynomial of degree k over
// GF(2), bit i the coefficient of x^i.
func leastPrimitive(k int) (uint64, error) {
	order := uint64(1)<<k - 1
	var primes []uint64
	for m, q := order, uint64(2); m > 1; q++ {
		if q*q > m {
			primes = append(primes, m)
			break
		}
		if m%q == 0 {
			primes = append(primes, q)
			for m%q == 0 {
				m /= q
			}
		}
	}
	for p := uint64(1)<<k | 1; p < 1<<(k+1); p += 2 {
		if xPow(order, p, k) != 1 {
			continue
		}
		primitive := true
		for _, q := range primes {
			if xPow(order/q, p, k) == 1 {
				primitive = false
				break
			}
		}
		if primitive {
			return p, nil
		}
	}
	return 0, fmt.Errorf("stark: no primitive polynomial of degree %d", k)
}

// xPow returns x^e mod p, p of degree k < 63, by square and multiply.
func xPow(e, p uint64, k int) uint64 {
	mulmod := func(a, b uint64) uint64 {
		var r uint64
		for ; b != 0; b >>= 1 {
			if b&1 == 1 {
				r ^= a
			}
			a <<= 1
			if a>>k&1 == 1 {
				a ^= p
			}
		}
		return r
	}
	r, base := uint64(1), uint64(2)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulmod(r, base)
		}
		base = mulmod(base, base)
	}
	return r
}
