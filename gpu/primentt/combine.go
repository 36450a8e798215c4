package primentt

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
)

// combineMax is COMBINE_MAX in cuda/ntt_combine.cu: the coefficients one
// launch takes, passed by value.
const combineMax = 32

// combineBlock is the combination kernel's block size.
const combineBlock = 256

// Combine sets dst[i] = Σ_j alpha[j]·cols[j·n + i] for i < n = dst.Len(),
// in E's field: the linear combination, with coefficients alpha, of the
// len(alpha) columns of n elements held end to end in cols, as a prover
// combines the columns of a committed LDE with random coefficients.
// Elements are gnark-crypto's, in Montgomery form; the result equals
// Σ_j alpha[j]·col_j computed with gnark-crypto's arithmetic, bit for bit.
// dst must not overlap cols. Work is queued on s (nil: the default stream,
// and Combine waits). Bad lengths return errors wrapping gpu.ErrLength.
func Combine[E Element](s *gpu.Stream, dst, cols *gpu.Buffer[E], alpha []E) error {
	if dst == nil || cols == nil {
		return fmt.Errorf("primentt: Combine: nil buffer: %w", gpu.ErrLength)
	}
	d := dst.Device()
	if cols.Device() != d {
		return fmt.Errorf("primentt: Combine: the columns are on another device: %w", gpu.ErrLength)
	}
	if dst.Freed() || cols.Freed() {
		return fmt.Errorf("primentt: Combine: a buffer was freed: %w", gpu.ErrClosed)
	}
	n := dst.Len()
	if len(alpha) == 0 || n == 0 || cols.Len() != n*len(alpha) {
		return fmt.Errorf("primentt: Combine: %d coefficients for %d columns of %d elements: %w", len(alpha), cols.Len(), n, gpu.ErrLength)
	}
	a0, b0 := uint64(dst.Ptr()), uint64(cols.Ptr())
	if a0 < b0+uint64(cols.Bytes()) && b0 < a0+uint64(dst.Bytes()) {
		return fmt.Errorf("primentt: Combine: dst overlaps the columns: %w", gpu.ErrLength)
	}
	name := fieldName[E]()
	m, err := d.Module(cuda.NTTProgram(name))
	if err != nil {
		return err
	}
	fn, err := m.Function("ntt_" + name + "_combine")
	if err != nil {
		return err
	}
	var z E
	es := int(unsafe.Sizeof(z))
	g := min((n+combineBlock-1)/combineBlock, max(1, 32*d.Info().Multiprocessors))
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: g}, Block: gpu.Dim3{X: combineBlock}, Stream: s}
	coeffs := make([]byte, es*combineMax)
	for j0 := 0; j0 < len(alpha); j0 += combineMax {
		k := min(combineMax, len(alpha)-j0)
		clear(coeffs)
		for j := range k {
			c := mulOperand(alpha[j0+j])
			copy(coeffs[j*es:], unsafe.Slice((*byte)(unsafe.Pointer(&c)), es))
		}
		src, err := cols.View(j0*n, k*n)
		if err != nil {
			return err
		}
		acc := uint32(0)
		if j0 > 0 {
			acc = 1
		}
		if err := fn.Launch(cfg, dst, src, uint64(n), coeffs, uint32(k), acc); err != nil {
			return fmt.Errorf("primentt: Combine: %w", err)
		}
	}
	return nil
}

// fieldName is E's kernel name infix.
func fieldName[E Element]() string {
	var z E
	switch any(z).(type) {
	case goldilocks.Element:
		return "goldilocks"
	case babybear.Element:
		return "babybear"
	case koalabear.Element:
		return "koalabear"
	}
	return "bn254"
}

// mulOperand is a coefficient as the field's kernel mul takes its second
// operand: Goldilocks's mul multiplies by a plain value (Montgomery data
// stays Montgomery), the others' are Montgomery products.
func mulOperand[E Element](a E) E {
	if g, ok := any(a).(goldilocks.Element); ok {
		var p goldilocks.Element
		p[0] = g.Uint64()
		return any(p).(E)
	}
	return a
}
