package stark

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/additive"
	"github.com/gfpoly/gfpoly/gpu/fieldvec"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// The quotient on the device. When the trace's commitment is kept on a GPU
// (a GPU encoder's Commit), the prover evaluates quotientLDE's expression
// there, over the commitment's DeviceLDE, with the vector kernels of
// gpu/fieldvec: the same passes in the same order on the same elements, so
// the quotient's columns, and so the proof, equal the host's bit for bit.
// The quotient is committed where it is (Encoder.CommitDeviceLDE), so both
// commitments stay on the device and fri.Open runs there too.

// devQuot is a prover's device state: the field's vector kernels, a stream,
// the scratch columns of the last trace domain and, over GF(2^64), the
// additive transforms that evaluate the trace at the successors.
type devQuot[E fri.Element] struct {
	dev     *gpu.Device
	v       *fieldvec.Vec[E]
	s       *gpu.Stream
	fft     *additive.Transforms // GF(2^64) only
	scratch *gpu.Buffer[E]
	up      *gpu.Buffer[E] // the committed trace (GF(2^64) only)
}

// devOf returns the prover's device state on dev, made on first use.
func (p *Prover[E, X]) devOf(dev *gpu.Device) (*devQuot[E], error) {
	if p.dq != nil && p.dq.dev == dev {
		return p.dq, nil
	}
	if p.dq != nil {
		if err := p.dq.close(); err != nil {
			return nil, err
		}
		p.dq = nil
	}
	v, err := fieldvec.New[E](dev)
	if err != nil {
		return nil, err
	}
	s, err := dev.NewStream()
	if err != nil {
		return nil, err
	}
	g := &devQuot[E]{dev: dev, v: v, s: s}
	if _, ok := any(*new(E)).(gf64.Element); ok {
		if g.fft, err = additive.New(dev); err != nil {
			s.Close()
			return nil, err
		}
	}
	p.dq = g
	return g, nil
}

func (g *devQuot[E]) close() error {
	errs := []error{g.s.Synchronize(), g.s.Close()}
	for _, b := range []*gpu.Buffer[E]{g.scratch, g.up} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	if g.fft != nil {
		errs = append(errs, g.fft.Close())
	}
	return errors.Join(errs...)
}

// columns returns k scratch columns of n elements, views of one buffer
// kept for the next proof of the same size.
func (g *devQuot[E]) columns(k, n int) ([]*gpu.Buffer[E], error) {
	if g.scratch == nil || g.scratch.Len() < k*n {
		if g.scratch != nil {
			if err := g.s.Synchronize(); err != nil {
				return nil, err
			}
			if err := g.scratch.Free(); err != nil {
				return nil, err
			}
			g.scratch = nil
		}
		var err error
		if g.scratch, err = gpu.Alloc[E](g.dev, k*n); err != nil {
			return nil, err
		}
	}
	out := make([]*gpu.Buffer[E], k)
	for i := range out {
		var err error
		if out[i], err = g.scratch.View(i*n, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// quotientDevice is quotientLDE on the device: lde holds the trace's
// Columns columns end to end (tc's DeviceLDE), committed the columns tc
// encoded. It returns the quotient's degree() coordinate columns, end to end
// in a new buffer the caller frees, with the device's work done.
func (p *Prover[E, X]) quotientDevice(a *air[E, X], tc *prover.Commitment[E], lde *gpu.Buffer[E], committed prover.Trace[E], output E, ap []X) (*gpu.Buffer[E], error) {
	f, d := a.f, a.d
	g, err := p.devOf(lde.Device())
	if err != nil {
		return nil, err
	}
	N, M, K := tc.Rows(), d.pieces(), a.constraints()
	// xs, cb, sel, tmp, xFirst, xLast, invFirst, invLast, the successors' 2M
	// columns, the K constraints.
	cols, err := g.columns(8+2*M+K, N)
	if err != nil {
		return nil, err
	}
	xs, cb, sel, tmp, xFirst, xLast, invFirst, invLast := cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7]
	next, qs := cols[8:8+2*M], cols[8+2*M:]
	pairs := make([]*gpu.Buffer[E], M) // next[2m], next[2m+1] as one buffer
	for m := range pairs {
		if pairs[m], err = g.scratch.View((8+2*m)*N, 2*N); err != nil {
			return nil, err
		}
	}
	A, err := lde.View(0, N)
	if err != nil {
		return nil, err
	}
	B, err := lde.View(N, N)
	if err != nil {
		return nil, err
	}
	v, s := g.v, g.s
	if err := d.devPoints(g, xs, tc); err != nil {
		return nil, err
	}
	// Every step below is quotientLDE's, on device columns.
	steps := []func() error{func() error { return v.Scale(s, cb, B, a.c) }}
	for m := range M {
		q0, q1 := qs[2*m], qs[2*m+1]
		na, nb := next[2*m], next[2*m+1]
		steps = append(steps,
			func() error { return d.devNext(m, g, pairs[m], committed, lde) },
			func() error { return d.devSelector(m, g, sel, xs, tmp) },
			func() error { return v.Sub(s, q0, na, B) },
			func() error { return v.Mul(s, q0, q0, sel) },
			func() error { return v.Sub(s, q1, nb, A) },
			func() error { return v.Sub(s, q1, q1, cb) },
			func() error { return v.Mul(s, q1, q1, sel) })
	}
	one := f.fromUint(1)
	qa, qb, qo := qs[2*M], qs[2*M+1], qs[2*M+2]
	steps = append(steps,
		func() error { return v.SubConst(s, xFirst, xs, d.first()) },
		func() error { return v.SubConst(s, xLast, xs, d.last()) },
		func() error { return v.Mul(s, invLast, xFirst, xLast) },
		func() error { return v.Invert(s, invLast, invLast) },
		func() error { return v.Mul(s, invFirst, invLast, xLast) },
		func() error { return v.Mul(s, invLast, invLast, xFirst) },
		func() error { return v.SubConst(s, qa, A, one) },
		func() error { return v.Mul(s, qa, qa, invFirst) },
		func() error { return v.SubConst(s, qb, B, one) },
		func() error { return v.Mul(s, qb, qb, invFirst) },
		func() error { return v.SubConst(s, qo, B, output) },
		func() error { return v.Mul(s, qo, qo, invLast) })
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, fmt.Errorf("stark: the quotient on the device: %w", err)
		}
	}
	all, err := g.scratch.View(8*N+2*M*N, K*N)
	if err != nil {
		return nil, err
	}
	q, err := gpu.Alloc[E](g.dev, f.degree()*N)
	if err != nil {
		return nil, err
	}
	coeffs := make([]E, K)
	for j := range f.degree() {
		for k := range K {
			coeffs[k] = f.coords(&ap[k])[j]
		}
		qj, err := q.View(j*N, N)
		if err == nil {
			err = v.Combine(s, qj, all, coeffs)
		}
		if err != nil {
			q.Free()
			return nil, fmt.Errorf("stark: the quotient on the device: %w", err)
		}
	}
	if err := s.Synchronize(); err != nil {
		q.Free()
		return nil, fmt.Errorf("stark: the quotient on the device: %w", err)
	}
	return q, nil
}

// devPoints: the coset's points x_i = x_0·ω'^i, checked against tc's.
func (d *cyclicDomain[E, X]) devPoints(g *devQuot[E], dst *gpu.Buffer[E], tc *prover.Commitment[E]) error {
	f := d.f
	var pts [3]E
	for i, r := range []int{0, 1, d.blowup} {
		var err error
		if pts[i], err = tc.CodewordPoint(r); err != nil {
			return err
		}
	}
	ratio := f.mul(pts[1], f.inv(pts[0]))
	if !f.equal(pts[2], f.mul(pts[0], d.omega)) {
		return errors.New("stark: the LDE is not over a coset g·⟨ω'⟩ with ω'^blowup = ω, in natural order")
	}
	return g.v.Geometric(g.s, dst, pts[0], ratio)
}

// devNext: the next row of LDE row i is row i + blowup (mod N), the
// columns rotated by device copies.
func (d *cyclicDomain[E, X]) devNext(_ int, g *devQuot[E], dst *gpu.Buffer[E], _ prover.Trace[E], lde *gpu.Buffer[E]) error {
	N, b := dst.Len()/2, d.blowup
	for c := range 2 {
		for _, part := range [][3]int{{0, b, N - b}, {N - b, 0, b}} { // dst offset, src offset, length
			to, err := dst.View(c*N+part[0], part[2])
			if err != nil {
				return err
			}
			from, err := lde.View(c*N+part[1], part[2])
			if err != nil {
				return err
			}
			if err := to.CopyFrom(g.s, from); err != nil {
				return err
			}
		}
	}
	return nil
}

// devSelector: (x_i − e_0)·1/Z_0(x_i), the blowup values of 1/Z_0 repeating.
func (d *cyclicDomain[E, X]) devSelector(_ int, g *devQuot[E], dst, xs, tmp *gpu.Buffer[E]) error {
	f := d.f
	one := f.fromUint(1)
	table := make([]E, d.blowup)
	x0, err := pointAt(g, xs, 0, d.blowup)
	if err != nil {
		return err
	}
	for i := range table {
		table[i] = f.inv(f.sub(f.exp(x0[i], uint64(d.n)), one))
	}
	if err := g.v.SubConst(g.s, tmp, xs, d.lastPoint); err != nil {
		return err
	}
	return g.v.ScaleIndexed(g.s, dst, tmp, table, 0)
}

// pointAt downloads k points of xs from index i, once the work before is
// done.
func pointAt[E fri.Element](g *devQuot[E], xs *gpu.Buffer[E], i, k int) ([]E, error) {
	if err := g.s.Synchronize(); err != nil {
		return nil, err
	}
	view, err := xs.View(i, k)
	if err != nil {
		return nil, err
	}
	out := make([]E, k)
	return out, view.Download(out)
}

// devPoints: the codeword subspace's points, in its order.
func (d *subspaceDomain) devPoints(g *devQuot[gf64.Element], dst *gpu.Buffer[gf64.Element], tc *prover.Commitment[gf64.Element]) error {
	n := d.codeword.Size()
	for _, i := range []int{1, n - 1} {
		x, err := tc.CodewordPoint(i)
		if err != nil {
			return err
		}
		if x != d.codeword.Element(i) {
			return errors.New("stark: the LDE is not over the default codeword subspace")
		}
	}
	return g.v.Span(g.s, dst, d.codeword.Shift(), d.codeword.Basis())
}

// devNext: the committed columns' LDE onto the successor subspace N_m(T),
// by the additive transforms.
func (d *subspaceDomain) devNext(m int, g *devQuot[gf64.Element], dst *gpu.Buffer[gf64.Element], committed prover.Trace[gf64.Element], _ *gpu.Buffer[gf64.Element]) error {
	n := d.message.Size()
	if g.up == nil || g.up.Len() != 2*n {
		if g.up != nil {
			if err := g.up.Free(); err != nil {
				return err
			}
			g.up = nil
		}
		up, err := gpu.Alloc[gf64.Element](g.dev, 2*n)
		if err != nil {
			return err
		}
		g.up = up
	}
	if m == 0 {
		// The previous proof's transforms are done (quotientDevice waits
		// for them): the upload may overwrite g.up.
		if err := g.up.Upload(append(append(make([]gf64.Element, 0, 2*n), committed[0]...), committed[1]...)); err != nil {
			return err
		}
	}
	return g.fft.LDE(g.s, dst, g.up, d.message, d.successors[m])
}

// devSelector: (x_i − e_m)·1/Z_m(x_i), Z_m constant on each block of
// 2^(k−1) rows (2·blowup values).
func (d *subspaceDomain) devSelector(m int, g *devQuot[gf64.Element], dst, xs, tmp *gpu.Buffer[gf64.Element]) error {
	e, top := gf64.Element(0), gf64.Element(0)
	if m == 1 {
		e, top = d.lastPoint, d.lTop
	}
	blk := 1 << (d.k - 1)
	table := make([]gf64.Element, d.codeword.Size()/blk)
	for b := range table {
		table[b] = gf64.Inverse(d.vanishing(d.codeword.Element(b*blk)) ^ top)
	}
	if err := g.v.SubConst(g.s, tmp, xs, e); err != nil {
		return err
	}
	return g.v.ScaleIndexed(g.s, dst, tmp, table, uint(d.k-1))
}
