package gfvec

import (
	"encoding/binary"
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// The limits of cuda/gf128.cu's evaluation kernels: EVAL_MAX_DIM,
// EVAL_MAX_POINTS (points a launch takes by value), EVAL_WARPS and EVAL_R
// (rows a warp takes at a time).
const (
	evalMaxDim    = 48
	evalMaxPoints = 32
	evalWarps     = 8
	evalRows      = 4
	// evalWeightBytes bounds the scratch of one batch's weights; a batch
	// holds at least one point.
	evalWeightBytes = 256 << 20
)

// EvalSubspace evaluates columns at GF(2^128) points: it sets
// dst[p·ncols + c] = f_c(points[p]), where f_c is the polynomial of degree
// < n = sub.Size() taking the values cols[c·stride + i] at the elements
// x_i = sub.Element(i) (i < n), for every column c < ncols = dst.Len() /
// len(points). The columns lie end to end with stride elements each (stride
// ≥ n): a committed LDE of N = blowup·n rows per column whose first n rows
// are the trace's subspace sub is passed as it is, with stride N.
//
// It uses the barycentric formula of an affine subspace,
//
//	f(z) = Z(z)/Z' · Σ_i f(x_i)/(z − x_i),
//
// with Z(X) = Π_{x∈sub}(X − x) and Z' = Π of the non-zero elements of the
// span (the derivative of the linearized polynomial Z, a constant); the
// host computes Z(z)/Z' for each point, the device the weights 1/(z − x_i)
// (one GF(2^64) inversion per 32 rows: only the norms are inverted) and the
// inner products of every column with them (four-bit windows of each
// column value look up tables of the weight's multiples, shared by the 32
// columns of a warp: no multiplication), then adds the blocks' sums.
// Field arithmetic is exact, so the result equals the formula, or any
// other evaluation of f_c, on the CPU bit for bit. A point of the subspace
// itself (A1 = 0, A0 = x_i) gives the column values of row i.
//
// Scratch: 16·n bytes per point (at most 32 points, and about 256 MiB, at a
// time), freed in stream order. dst must not overlap cols. Lengths that do
// not fit (no points, dst.Len() not a multiple of len(points), stride < n,
// columns beyond cols) return errors wrapping gpu.ErrLength.
func (g *GF128) EvalSubspace(s *gpu.Stream, dst *gpu.Buffer[gf128.Element], cols *gpu.Buffer[gf64.Element], stride int, sub *domain.Subspace, points []gf128.Element) error {
	const op = "GF128.EvalSubspace"
	if err := check(g.d, op, dst); err != nil {
		return err
	}
	if err := check(g.d, op, cols); err != nil {
		return err
	}
	if sub == nil {
		return fmt.Errorf("gfvec: %s: nil subspace", op)
	}
	dim, n := sub.Dim(), sub.Size()
	if dim > evalMaxDim {
		return fmt.Errorf("gfvec: %s: a %d-dimensional subspace, at most %d: %w", op, dim, evalMaxDim, domain.ErrDim)
	}
	if len(points) == 0 || dst.Len() == 0 || dst.Len()%len(points) != 0 {
		return fmt.Errorf("gfvec: %s: %d results for %d points: %w", op, dst.Len(), len(points), gpu.ErrLength)
	}
	ncols := dst.Len() / len(points)
	if stride < n || ncols-1 > (cols.Len()-n)/stride || cols.Len() < n {
		return fmt.Errorf("gfvec: %s: %d columns of %d rows with stride %d in %d elements: %w", op, ncols, n, stride, cols.Len(), gpu.ErrLength)
	}
	if ncols > 1<<31 {
		return fmt.Errorf("gfvec: %s: %d columns: %w", op, ncols, gpu.ErrLength)
	}
	if overlapBytes(dst.Ptr(), dst.Bytes(), cols.Ptr(), cols.Bytes()) {
		return fmt.Errorf("gfvec: %s: dst overlaps the columns: %w", op, gpu.ErrLength)
	}

	// The host part: which points lie in sub, and Z(z)/Z' for the others.
	van := newVanishing(sub)
	maxOut := max(1, min(evalMaxPoints, evalWeightBytes/(16*n)))
	type batch struct {
		first, count int
		out          []gf128.Element // points outside sub, in slot order
		fin          []byte          // eval_finish
	}
	var batches []batch
	for p := 0; p < len(points); {
		b := batch{first: p, fin: make([]byte, 896)}
		for p < len(points) && b.count < evalMaxPoints {
			z := points[p]
			row := ^uint64(0)
			if i, ok := sub.Index(z.A0); ok && z.A1 == 0 {
				row = uint64(i)
			} else if len(b.out) == maxOut {
				break
			}
			k := b.count
			if row == ^uint64(0) {
				sc := van.scale(z)
				binary.LittleEndian.PutUint64(b.fin[16*k:], uint64(sc.A0))
				binary.LittleEndian.PutUint64(b.fin[16*k+8:], uint64(sc.A1))
				binary.LittleEndian.PutUint32(b.fin[768+4*k:], uint32(len(b.out)))
				b.out = append(b.out, z)
			}
			binary.LittleEndian.PutUint64(b.fin[512+8*k:], row)
			b.count++
			p++
		}
		batches = append(batches, b)
	}

	basis := make([]byte, 8*evalMaxDim)
	for j, v := range sub.Basis() {
		binary.LittleEndian.PutUint64(basis[8*j:], uint64(v))
	}
	logCH := g.evalLogChunk(n)
	scratch := 0
	for _, b := range batches {
		if m := len(b.out); m > 0 {
			scratch = max(scratch, 16*m*n+16*m*ncols)
		}
	}
	run := func(q *gpu.Queue, p gpu.DevicePtr) error {
		for _, b := range batches {
			m := len(b.out)
			w := p
			sum := p + gpu.DevicePtr(16*m*n)
			if m > 0 {
				pts := make([]byte, 768)
				for k, z := range b.out {
					binary.LittleEndian.PutUint64(pts[16*k:], uint64(z.A0))
					binary.LittleEndian.PutUint64(pts[16*k+8:], uint64(z.A1))
					binary.LittleEndian.PutUint64(pts[512+8*k:], uint64(gf64.Mul(gf128.C, gf64.Square(z.A1))))
				}
				if err := g.evalWeights(q, w, sum, ncols, dim, logCH, m, sub.Shift(), basis, pts); err != nil {
					return err
				}
				if err := g.evalDot(q, sum, cols.Ptr(), w, n, stride, ncols, m); err != nil {
					return err
				}
			}
			out := dst.Ptr() + gpu.DevicePtr(16*b.first*ncols)
			if err := g.evalFinish(q, out, sum, cols.Ptr(), stride, ncols, b.count, b.fin); err != nil {
				return err
			}
		}
		return nil
	}
	err := g.d.Do(s, func(q *gpu.Queue) error {
		if scratch == 0 {
			return run(q, 0)
		}
		return q.Scratch(scratch, func(p gpu.DevicePtr) error { return run(q, p) })
	})
	if err != nil {
		return fmt.Errorf("gfvec: %s: %w", op, err)
	}
	return nil
}

// evalLogChunk returns log2 of the rows whose norms one thread inverts
// together: 32 (one inversion per 32 rows) where that leaves 128 threads per
// multiprocessor, down to 4 for smaller subspaces (tests may set
// GF128.logChunk). On the H200, 2^20 rows: 0.107 ms with 32, 0.131 with 8;
// 2^16 rows: 0.024 ms with 4, 0.068 with 32.
func (g *GF128) evalLogChunk(n int) int {
	if g.logChunk > 0 {
		return min(g.logChunk, log2(n))
	}
	sms := max(1, g.d.Info().Multiprocessors)
	lc := 5
	for lc > 2 && n>>lc < 128*sms {
		lc--
	}
	return min(lc, log2(n))
}

func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

// evalWeights queues the weights of m points (pts, eval_points) over the
// 2^dim rows of the subspace into w, and zeroes their sums.
func (g *GF128) evalWeights(q *gpu.Queue, w, sum gpu.DevicePtr, ncols, dim, logCH, m int, shift gf64.Element, basis, pts []byte) error {
	const block = 128
	logG := dim - logCH
	G := 1 << logG
	return q.Launch(g.fns.weights, gpu.Dim3{X: (G + block - 1) / block, Y: m}, gpu.Dim3{X: block}, 0,
		w, sum, uint32(ncols), uint64(1)<<dim, uint32(logG), uint32(logCH), shift, basis, uint32(dim), pts)
}

// evalDot queues the inner products of ncols columns with the weights of m
// points, added into sum.
func (g *GF128) evalDot(q *gpu.Queue, sum, cols, w gpu.DevicePtr, n, stride, ncols, m int) error {
	ncg := (ncols + 31) / 32
	groups := (n + evalRows - 1) / evalRows
	sms := max(1, g.d.Info().Multiprocessors)
	nblocks := max(1, min((groups+evalWarps-1)/evalWarps, (4*sms+ncg*m-1)/(ncg*m)))
	return q.Launch(g.fns.dot, gpu.Dim3{X: nblocks, Y: ncg, Z: m}, gpu.Dim3{X: evalWarps * 32}, 0,
		sum, cols, w, uint64(n), uint64(stride), uint32(ncols))
}

// evalFinish queues the results of count points (fin, eval_finish) into
// out.
func (g *GF128) evalFinish(q *gpu.Queue, out, sum, cols gpu.DevicePtr, stride, ncols, count int, fin []byte) error {
	t := count * ncols
	return q.Launch(g.fns.finish, gpu.Dim3{X: (t + threadBlock - 1) / threadBlock}, gpu.Dim3{X: threadBlock}, 0,
		out, sum, cols, uint64(stride), uint32(ncols), uint32(count), fin)
}

// vanishing evaluates Z(z)/Z' for an affine subspace s + span(β_0..β_{k−1})
// at points of GF(2^128). The linearized polynomials L_0(X) = X,
// L_{j+1}(X) = L_j(X)·(L_j(X) + e_j) with e_j = L_j(β_j) vanish on the first
// j+1 basis elements' span: Z(z) = L_k(z + s), and Z', the coefficient of X
// in L_k, is Π_j e_j (the squares add no linear term).
type vanishing struct {
	shift gf64.Element
	e     []gf64.Element
	invZp gf64.Element
}

func newVanishing(sub *domain.Subspace) *vanishing {
	vals := sub.Basis()
	v := &vanishing{shift: sub.Shift(), e: make([]gf64.Element, len(vals))}
	zp := gf64.Element(1)
	for j := range vals {
		e := vals[j]
		v.e[j] = e
		zp = gf64.Mul(zp, e)
		for m := j + 1; m < len(vals); m++ {
			vals[m] = gf64.Square(vals[m]) ^ gf64.Mul(e, vals[m])
		}
	}
	v.invZp = gf64.Inverse(zp)
	return v
}

// scale returns Z(z)/Z'.
func (v *vanishing) scale(z gf128.Element) gf128.Element {
	u := gf128.Add(z, gf128.Embed(v.shift))
	for _, e := range v.e {
		u = gf128.Add(gf128.Square(u), gf128.MulByBase(u, e))
	}
	return gf128.MulByBase(u, v.invZp)
}
