package primentt

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
)

// Ext is the set of challenge-field types, one per Element type:
// gnark-crypto's extensions.E4 of BabyBear and of KoalaBear (E2[v]/(v² − u)
// over E2 = F[u]/(u² − 11), resp. (u² − 3)), Goldilocks' extensions.E2
// (F[u]/(u² − 7)), and for BN254 fr.Element itself. They are uploaded as
// gnark-crypto stores them (B0.A0, B0.A1, B1.A0, B1.A1; A0, A1), Montgomery
// coordinates. A function taking an Element type E and an Ext type X
// returns an error wrapping ErrField when X is not E's challenge field.
type Ext interface {
	fr.Element | bbext.E4 | kbext.E4 | glext.E2
}

// extCombineMax is EXT_COMBINE_MAX in cuda/ntt_ext.cu.
const extCombineMax = 32

// CombineExt sets dst[i] = Σ_j alpha[j]·cols[j·n + i] for i < n = dst.Len():
// the linear combination, with coefficients alpha in the challenge field
// X of E, of the len(alpha) base columns of n elements held end to end in
// cols, as Combine. The result equals gnark-crypto's Σ_j alpha[j]·col_j
// (MulByElement and Add) bit for bit. The 31-bit fields sum raw 64-bit
// products of four columns before one Montgomery reduction; for BN254
// (X = fr.Element) it is Combine. dst must not overlap cols. Work is
// queued on s (nil: the default stream, and CombineExt waits). Bad lengths
// return errors wrapping gpu.ErrLength, a freed buffer gpu.ErrClosed, X
// not E's challenge field ErrField.
func CombineExt[E Element, X Ext](s *gpu.Stream, dst *gpu.Buffer[X], cols *gpu.Buffer[E], alpha []X) error {
	if !extOf[E, X]() {
		return fmt.Errorf("primentt: CombineExt: %T is not the challenge field of %T: %w", *new(X), *new(E), ErrField)
	}
	if d, ok := any(dst).(*gpu.Buffer[E]); ok { // BN254: X = E
		return Combine(s, d, cols, any(alpha).([]E))
	}
	if dst == nil || cols == nil {
		return fmt.Errorf("primentt: CombineExt: nil buffer: %w", gpu.ErrLength)
	}
	d := dst.Device()
	if cols.Device() != d {
		return fmt.Errorf("primentt: CombineExt: the columns are on another device: %w", gpu.ErrLength)
	}
	if dst.Freed() || cols.Freed() {
		return fmt.Errorf("primentt: CombineExt: a buffer was freed: %w", gpu.ErrClosed)
	}
	n := dst.Len()
	if len(alpha) == 0 || n == 0 || cols.Len()/len(alpha) != n || cols.Len()%len(alpha) != 0 {
		return fmt.Errorf("primentt: CombineExt: %d coefficients for %d columns of %d elements: %w", len(alpha), cols.Len(), n, gpu.ErrLength)
	}
	if overlap(uint64(dst.Ptr()), uint64(dst.Bytes()), uint64(cols.Ptr()), uint64(cols.Bytes())) {
		return fmt.Errorf("primentt: CombineExt: dst overlaps the columns: %w", gpu.ErrLength)
	}
	name := fieldName[E]()
	m, err := d.Module(cuda.ExtProgram(name))
	if err != nil {
		return err
	}
	fn, err := m.Function("ntt_" + name + "_combine_ext")
	if err != nil {
		return err
	}
	xs := int(unsafe.Sizeof(*new(X)))
	g := min((n+combineBlock-1)/combineBlock, max(1, 32*d.Info().Multiprocessors))
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: g}, Block: gpu.Dim3{X: combineBlock}, Stream: s}
	coeffs := make([]byte, xs*extCombineMax)
	for j0 := 0; j0 < len(alpha); j0 += extCombineMax {
		k := min(extCombineMax, len(alpha)-j0)
		clear(coeffs)
		for j := range k {
			copy(coeffs[j*xs:], extOperand(alpha[j0+j]))
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
			return fmt.Errorf("primentt: CombineExt: %w", err)
		}
	}
	return nil
}

// overlap reports whether [a, a+na) and [b, b+nb) intersect.
func overlap(a, na, b, nb uint64) bool { return a < b+nb && b < a+na }

// extOf reports whether X is E's challenge field.
func extOf[E Element, X Ext]() bool {
	var x X
	switch any(*new(E)).(type) {
	case babybear.Element:
		_, ok := any(x).(bbext.E4)
		return ok
	case koalabear.Element:
		_, ok := any(x).(kbext.E4)
		return ok
	case goldilocks.Element:
		_, ok := any(x).(glext.E2)
		return ok
	}
	_, ok := any(x).(fr.Element)
	return ok
}

// extOperand returns x's bytes as the field's kernels compute on it:
// gnark-crypto's layout, except that Goldilocks coordinates are plain
// (cuda/ntt_ext.cu: its mul is the plain product).
func extOperand[X Ext](x X) []byte {
	if g, ok := any(x).(glext.E2); ok {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint64(b, g.A0.Uint64())
		binary.LittleEndian.PutUint64(b[8:], g.A1.Uint64())
		return b
	}
	return elemBytes(x)
}

// baseOperand is extOperand for base elements.
func baseOperand[E Element](e E) []byte {
	if g, ok := any(e).(goldilocks.Element); ok {
		return binary.LittleEndian.AppendUint64(nil, g.Uint64())
	}
	return elemBytes(e)
}

// elemBytes returns a copy of v's memory.
func elemBytes[T any](v T) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))...)
}
