package gfvec

import (
	"encoding/binary"
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// gf128Program is the module of the GF(2^128) kernels: cuda/gf64.cu joined
// with cuda/gf128.cu.
const gf128Program = "gf128.cu"

// GF128 runs GF(2^128) = GF(2^64)[y]/(y² + y + x^63) operations (package
// field/gf128) on device buffers of gf128.Element, 16 bytes each (A0 then
// A1), one element per thread. Its results equal field/gf128's bit for bit.
// It also holds the operations that mix the two fields: the combination of
// GF(2^64) columns with GF(2^128) coefficients (CombineBase) and the
// evaluation of GF(2^64) columns at GF(2^128) points (EvalSubspace).
//
// Operations take a stream as GF64's do. dst may be the same buffer as an
// input of the same type unless the method says otherwise; partially
// overlapping views are not allowed. A GF128 is safe for concurrent use.
type GF128 struct {
	d        *gpu.Device
	logChunk int // EvalSubspace's rows per inversion (log2), 0: chosen by size
	fns      struct {
		mul, scale, mulBase, inv, combine, weights, dot, finish *gpu.Function
	}
}

// NewGF128 returns the GF(2^128) kernels on d, loading the module on first
// use.
func NewGF128(d *gpu.Device) (*GF128, error) {
	if d == nil {
		return nil, fmt.Errorf("gfvec: nil device: %w", gpu.ErrNoDevice)
	}
	m, err := d.Module(gf128Program)
	if err != nil {
		return nil, err
	}
	g := &GF128{d: d}
	for _, p := range []struct {
		f    **gpu.Function
		name string
	}{
		{&g.fns.mul, "gf128_mul_thread"}, {&g.fns.scale, "gf128_scale_thread"},
		{&g.fns.mulBase, "gf128_mulbase_thread"}, {&g.fns.inv, "gf128_batchinv"},
		{&g.fns.combine, "gf128_combine"}, {&g.fns.weights, "gf128_eval_weights"},
		{&g.fns.dot, "gf128_eval_dot"}, {&g.fns.finish, "gf128_eval_finish"},
	} {
		if *p.f, err = m.Function(p.name); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// grid returns the grid for n units of per each: grid-stride loops, at
// most 32 blocks per multiprocessor.
func (g *GF128) grid(n, per int) gpu.Dim3 {
	b := (n + per - 1) / per
	if lim := g.d.Info().Multiprocessors * 32; lim > 0 && b > lim {
		b = lim
	}
	return gpu.Dim3{X: max(b, 1)}
}

// launch queues fn over n elements with a grid-stride grid.
func (g *GF128) launch(s *gpu.Stream, op string, fn *gpu.Function, n int, args ...any) error {
	cfg := gpu.LaunchConfig{Grid: g.grid(n, threadBlock), Block: gpu.Dim3{X: threadBlock}, Stream: s}
	if err := fn.Launch(cfg, args...); err != nil {
		return fmt.Errorf("gfvec: GF128.%s: %w", op, err)
	}
	return nil
}

// MulVec sets dst[i] = a[i]·b[i] (gf128.MulVec).
func (g *GF128) MulVec(s *gpu.Stream, dst, a, b *gpu.Buffer[gf128.Element]) error {
	if err := check(g.d, "GF128.MulVec", dst, a, b); err != nil || dst.Len() == 0 {
		return err
	}
	return g.launch(s, "MulVec", g.fns.mul, dst.Len(), dst, a, b, uint64(dst.Len()))
}

// ScaleVec sets dst[i] = a[i]·c (gf128.ScaleVec).
func (g *GF128) ScaleVec(s *gpu.Stream, dst, a *gpu.Buffer[gf128.Element], c gf128.Element) error {
	if err := check(g.d, "GF128.ScaleVec", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	return g.launch(s, "ScaleVec", g.fns.scale, dst.Len(), dst, a, c.A0, c.A1, uint64(dst.Len()))
}

// MulByBaseVec sets dst[i] = a[i]·b[i] for b[i] in GF(2^64): two GF(2^64)
// products (gf128.MulByBaseVec).
func (g *GF128) MulByBaseVec(s *gpu.Stream, dst, a *gpu.Buffer[gf128.Element], b *gpu.Buffer[gf64.Element]) error {
	if err := check(g.d, "GF128.MulByBaseVec", dst, a); err != nil {
		return err
	}
	if err := check(g.d, "GF128.MulByBaseVec", b); err != nil {
		return err
	}
	if b.Len() != dst.Len() {
		return fmt.Errorf("gfvec: GF128.MulByBaseVec: lengths %d and %d: %w", dst.Len(), b.Len(), gpu.ErrLength)
	}
	if dst.Len() == 0 {
		return nil
	}
	return g.launch(s, "MulByBaseVec", g.fns.mulBase, dst.Len(), dst, a, b, uint64(dst.Len()))
}

// batchInvChunk is GF128_INV_CH in cuda/gf128.cu: the elements one thread
// inverts with one field inversion.
const batchInvChunk = 32

// BatchInverse sets dst[i] = a[i]⁻¹, and 0 where a[i] = 0 (as
// gf128.Inverse(0) = 0), like gf128.BatchInverse; unlike it, it does not
// count the zeros. Each thread inverts 32 elements with Montgomery's trick:
// about three products per element and one inversion per 32 elements.
func (g *GF128) BatchInverse(s *gpu.Stream, dst, a *gpu.Buffer[gf128.Element]) error {
	if err := check(g.d, "GF128.BatchInverse", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	n := dst.Len()
	G := (n + batchInvChunk - 1) / batchInvChunk
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: (G + threadBlock - 1) / threadBlock}, Block: gpu.Dim3{X: threadBlock}, Stream: s}
	if err := g.fns.inv.Launch(cfg, dst, a, uint64(n), uint64(G)); err != nil {
		return fmt.Errorf("gfvec: GF128.BatchInverse: %w", err)
	}
	return nil
}

// combine128Max is GF128_COMBINE_MAX in cuda/gf128.cu: the coefficients one
// launch takes, passed by value (16 bytes each).
const combine128Max = 32

// CombineBase sets dst[i] = Σ_j alpha[j]·cols[j·n + i] for i < n = dst.Len():
// the combination of the len(alpha) GF(2^64) columns of n elements held end
// to end in cols with GF(2^128) coefficients, as gf128.CombineBase computes
// it on the CPU, bit for bit. One pass over the columns, one element per
// thread: the partial products of both halves of the coefficients are
// summed over the columns and each element reduced once, as in
// GF64.Combine. dst must not overlap cols.
func (g *GF128) CombineBase(s *gpu.Stream, dst *gpu.Buffer[gf128.Element], cols *gpu.Buffer[gf64.Element], alpha []gf128.Element) error {
	if err := check(g.d, "GF128.CombineBase", dst); err != nil {
		return err
	}
	if err := check(g.d, "GF128.CombineBase", cols); err != nil {
		return err
	}
	n := dst.Len()
	if len(alpha) == 0 || n == 0 || cols.Len()/len(alpha) != n || cols.Len()%len(alpha) != 0 {
		return fmt.Errorf("gfvec: GF128.CombineBase: %d coefficients for %d column elements and %d results: %w", len(alpha), cols.Len(), n, gpu.ErrLength)
	}
	if overlapBytes(dst.Ptr(), dst.Bytes(), cols.Ptr(), cols.Bytes()) {
		return fmt.Errorf("gfvec: GF128.CombineBase: dst overlaps the columns: %w", gpu.ErrLength)
	}
	cfg := gpu.LaunchConfig{Grid: g.grid(n, threadBlock), Block: gpu.Dim3{X: threadBlock}, Stream: s}
	coeffs := make([]byte, 16*combine128Max)
	for j0 := 0; j0 < len(alpha); j0 += combine128Max {
		m := min(combine128Max, len(alpha)-j0)
		clear(coeffs)
		for j := range m {
			binary.LittleEndian.PutUint64(coeffs[16*j:], uint64(alpha[j0+j].A0))
			binary.LittleEndian.PutUint64(coeffs[16*j+8:], uint64(alpha[j0+j].A1))
		}
		src, err := cols.View(j0*n, m*n)
		if err != nil {
			return err
		}
		acc := uint32(0)
		if j0 > 0 {
			acc = 1
		}
		if err := g.fns.combine.Launch(cfg, dst, src, uint64(n), coeffs, uint32(m), acc); err != nil {
			return fmt.Errorf("gfvec: GF128.CombineBase: %w", err)
		}
	}
	return nil
}

// overlapBytes says whether the device ranges [a, a+an) and [b, b+bn)
// meet.
func overlapBytes(a gpu.DevicePtr, an int, b gpu.DevicePtr, bn int) bool {
	return an > 0 && bn > 0 && uint64(a) < uint64(b)+uint64(bn) && uint64(b) < uint64(a)+uint64(an)
}
