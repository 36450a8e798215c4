package gfvec

import (
	"encoding/binary"
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// combineMax is GF64_COMBINE_MAX in cuda/gf64.cu: the coefficients one
// launch takes, passed by value (12 words each, split as the kernel says).
const combineMax = 32

// Combine sets dst[i] = Σ_j alpha[j]·cols[j·n + i] for i < n = dst.Len():
// the linear combination, with coefficients alpha, of the len(alpha)
// columns of n elements held end to end in cols, as a prover combines the
// columns of a committed LDE with random coefficients. It equals
// Σ_j gf64.ScaleVec(col_j, alpha[j]) on the CPU bit for bit, whatever the
// kernels' design (it runs one element per thread: the partial products are
// summed over the columns and every element reduced once). dst must not
// overlap cols.
// Work is queued on s (nil: the default stream, and Combine waits).
func (g *GF64) Combine(s *gpu.Stream, dst, cols *gpu.Buffer[gf64.Element], alpha []gf64.Element) error {
	if err := check(g.k.d, "GF64.Combine", dst); err != nil {
		return err
	}
	if err := check(g.k.d, "GF64.Combine", cols); err != nil {
		return err
	}
	n := dst.Len()
	if len(alpha) == 0 || n == 0 || cols.Len() != n*len(alpha) {
		return fmt.Errorf("gfvec: GF64.Combine: %d coefficients for %d columns of %d elements: %w", len(alpha), cols.Len(), n, gpu.ErrLength)
	}
	if overlap(dst, cols) {
		return fmt.Errorf("gfvec: GF64.Combine: dst overlaps the columns: %w", gpu.ErrLength)
	}
	mod, err := g.k.d.Module("gf64.cu")
	if err != nil {
		return err
	}
	fn, err := mod.Function("gf64_combine")
	if err != nil {
		return err
	}
	cfg := gpu.LaunchConfig{Grid: g.k.grid(n, threadBlock), Block: gpu.Dim3{X: threadBlock}, Stream: s}
	coeffs := make([]byte, 48*combineMax)
	masks := [4]uint32{0x11111111, 0x22222222, 0x44444444, 0x88888888}
	for j0 := 0; j0 < len(alpha); j0 += combineMax {
		m := min(combineMax, len(alpha)-j0)
		clear(coeffs)
		for j := range m {
			a := uint64(alpha[j0+j])
			parts := [3]uint32{uint32(a), uint32(a >> 32), uint32(a) ^ uint32(a>>32)}
			for p, h := range parts {
				for k, mk := range masks {
					binary.LittleEndian.PutUint32(coeffs[48*j+16*p+4*k:], h&mk)
				}
			}
		}
		src, err := cols.View(j0*n, m*n)
		if err != nil {
			return err
		}
		acc := uint32(0)
		if j0 > 0 {
			acc = 1
		}
		if err := fn.Launch(cfg, dst, src, uint64(n), coeffs, uint32(m), acc); err != nil {
			return fmt.Errorf("gfvec: GF64.Combine: %w", err)
		}
	}
	return nil
}

// overlap says whether two buffers share device memory.
func overlap[T any](a, b *gpu.Buffer[T]) bool {
	a0, b0 := uint64(a.Ptr()), uint64(b.Ptr())
	return a0 < b0+uint64(b.Bytes()) && b0 < a0+uint64(a.Bytes())
}
