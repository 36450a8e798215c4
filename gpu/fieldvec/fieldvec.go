// Package fieldvec runs vector arithmetic over a trace field on a GPU:
// the element-wise passes a prover makes over a low-degree extension that
// is already on the device, such as evaluating an AIR's constraints and
// dividing them by the vanishing polynomial, without bringing the LDE back
// to the host.
//
// A Vec[E] (New) holds the kernels of one field on one device. Its
// operations take device buffers of the same length n (the destination's),
// queue their work on a stream and return (a nil stream: the default
// stream, and the call waits):
//
//   - Add, Sub, Mul: dst[i] = a[i] ∘ b[i];
//   - AddConst, SubConst, Scale: dst[i] = a[i] ∘ c;
//   - ScaleIndexed: dst[i] = a[i]·table[(i >> shift) mod len(table)], for
//     values that repeat with a period (x^n on a coset) or are constant on
//     blocks (a vanishing polynomial on the cosets of a subspace);
//   - Invert: dst[i] = 1/a[i], and 0 for 0, by batches of Montgomery's trick;
//   - Geometric: dst[i] = x0·r^i (the points of a coset g·⟨ω⟩);
//   - Span: dst[i] = shift + Σ_b bit_b(i)·basis[b] (the points of an affine
//     subspace of GF(2^64), in DESIGN.md's order);
//   - Combine: dst[i] = Σ_j c[j]·cols[j·n + i].
//
// The fields are those of the module's traces: BabyBear, KoalaBear and
// Goldilocks (gnark-crypto's elements, in Montgomery form as it stores
// them), BN254's fr.Element, and GF(2^64) (field/gf64). Every result equals
// the host's arithmetic on the same elements bit for bit (the tests compare
// each operation with gnark-crypto's and field/gf64's on random vectors).
//
// The element-wise operations may run in place (dst the same buffer as an
// input); any other overlap of the destination with an input, buffers on
// another device and lengths that differ are errors wrapping gpu.ErrLength
// (gpu.ErrClosed for a freed buffer). The kernels are cuda/fieldvec.cu,
// compiled into each field's FRI program (cuda.FRIProgram).
package fieldvec

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// Element is a field element the kernels take.
type Element interface {
	babybear.Element | koalabear.Element | goldilocks.Element | fr.Element | gf64.Element
}

// Limits of one call, the sizes of the tables passed by value
// (cuda/fieldvec.cu's FV_TAB, FV_COMB and fri.cu's FRI_POW).
const (
	// MaxTable is the most entries of ScaleIndexed's table.
	MaxTable = 32
	// MaxBasis is the most basis vectors of Span, and the most bits of an
	// index Geometric takes (n ≤ 2^MaxBasis).
	MaxBasis = 35
	// combineMax is the columns one combination launch takes.
	combineMax = 32
)

const block = 256

// Vec runs the vector operations of E's field on one device. It is safe
// for concurrent use.
type Vec[E Element] struct {
	dev  *gpu.Device
	name string
	fn   map[string]*gpu.Function
}

// ops are the kernels' names after "fv_<field>_".
var ops = []string{"add", "sub", "mul", "addc", "subc", "scale", "scaleidx", "inv", "geometric", "span", "combine"}

// New loads E's kernels on d.
func New[E Element](d *gpu.Device) (*Vec[E], error) {
	if d == nil {
		return nil, fmt.Errorf("fieldvec: no device: %w", gpu.ErrNoDevice)
	}
	name := fieldName[E]()
	m, err := d.Module(cuda.FRIProgram(name))
	if err != nil {
		return nil, fmt.Errorf("fieldvec: %s kernels: %w", name, err)
	}
	v := &Vec[E]{dev: d, name: name, fn: map[string]*gpu.Function{}}
	for _, op := range ops {
		f, err := m.Function("fv_" + name + "_" + op)
		if err != nil {
			return nil, fmt.Errorf("fieldvec: %w", err)
		}
		v.fn[op] = f
	}
	return v, nil
}

// Device returns the device the operations run on.
func (v *Vec[E]) Device() *gpu.Device { return v.dev }

// fieldName is E's kernel name infix.
func fieldName[E Element]() string {
	var z E
	switch any(z).(type) {
	case babybear.Element:
		return "babybear"
	case koalabear.Element:
		return "koalabear"
	case goldilocks.Element:
		return "goldilocks"
	case gf64.Element:
		return "gf64"
	}
	return "bn254"
}

func elemBytes[E Element]() int {
	var z E
	return int(unsafe.Sizeof(z))
}

// raw returns the stored words of es, as the kernels take them by value.
func raw[E Element](es ...E) []byte {
	b := make([]byte, 0, len(es)*elemBytes[E]())
	for i := range es {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&es[i])), elemBytes[E]())...)
	}
	return b
}

// check validates the destination and inputs of op: the same device, none
// freed, each input's length n (dst.Len()), and an input that overlaps dst
// only where inPlace allows it and then exactly.
func (v *Vec[E]) check(op string, inPlace bool, dst *gpu.Buffer[E], ins ...*gpu.Buffer[E]) error {
	if dst == nil {
		return fmt.Errorf("fieldvec: %s: nil destination: %w", op, gpu.ErrLength)
	}
	for _, b := range append([]*gpu.Buffer[E]{dst}, ins...) {
		if b == nil {
			return fmt.Errorf("fieldvec: %s: nil buffer: %w", op, gpu.ErrLength)
		}
		if b.Device() != v.dev {
			return fmt.Errorf("fieldvec: %s: a buffer is on another device: %w", op, gpu.ErrLength)
		}
		if b.Freed() {
			return fmt.Errorf("fieldvec: %s: a buffer was freed: %w", op, gpu.ErrClosed)
		}
	}
	for _, b := range ins {
		if b.Len() != dst.Len() {
			return fmt.Errorf("fieldvec: %s: an input of %d elements for %d: %w", op, b.Len(), dst.Len(), gpu.ErrLength)
		}
		if overlap(dst, b) && !(inPlace && dst.Ptr() == b.Ptr()) {
			return fmt.Errorf("fieldvec: %s: the destination overlaps an input: %w", op, gpu.ErrLength)
		}
	}
	return nil
}

func overlap[E Element](a, b *gpu.Buffer[E]) bool {
	a0, b0 := uint64(a.Ptr()), uint64(b.Ptr())
	return a.Bytes() > 0 && b.Bytes() > 0 && a0 < b0+uint64(b.Bytes()) && b0 < a0+uint64(a.Bytes())
}

// launch runs op over n elements, per elements a thread.
func (v *Vec[E]) launch(s *gpu.Stream, op string, n, per int, args ...any) error {
	if n == 0 {
		return nil
	}
	g := (n + per*block - 1) / (per * block)
	if lim := 32 * v.dev.Info().Multiprocessors; lim > 0 && g > lim {
		g = lim
	}
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: max(g, 1)}, Block: gpu.Dim3{X: block}, Stream: s}
	if err := v.fn[op].Launch(cfg, args...); err != nil {
		return fmt.Errorf("fieldvec: %s: %w", op, err)
	}
	if s == nil {
		return v.dev.Synchronize()
	}
	return nil
}

func (v *Vec[E]) binary(s *gpu.Stream, op string, dst, a, b *gpu.Buffer[E]) error {
	if err := v.check(op, true, dst, a, b); err != nil {
		return err
	}
	return v.launch(s, op, dst.Len(), 1, dst, a, b, uint64(dst.Len()))
}

func (v *Vec[E]) withConst(s *gpu.Stream, op string, dst, a *gpu.Buffer[E], c E) error {
	if err := v.check(op, true, dst, a); err != nil {
		return err
	}
	return v.launch(s, op, dst.Len(), 1, dst, a, raw(c), uint64(dst.Len()))
}

// Add sets dst[i] = a[i] + b[i].
func (v *Vec[E]) Add(s *gpu.Stream, dst, a, b *gpu.Buffer[E]) error {
	return v.binary(s, "add", dst, a, b)
}

// Sub sets dst[i] = a[i] − b[i].
func (v *Vec[E]) Sub(s *gpu.Stream, dst, a, b *gpu.Buffer[E]) error {
	return v.binary(s, "sub", dst, a, b)
}

// Mul sets dst[i] = a[i]·b[i].
func (v *Vec[E]) Mul(s *gpu.Stream, dst, a, b *gpu.Buffer[E]) error {
	return v.binary(s, "mul", dst, a, b)
}

// AddConst sets dst[i] = a[i] + c.
func (v *Vec[E]) AddConst(s *gpu.Stream, dst, a *gpu.Buffer[E], c E) error {
	return v.withConst(s, "addc", dst, a, c)
}

// SubConst sets dst[i] = a[i] − c.
func (v *Vec[E]) SubConst(s *gpu.Stream, dst, a *gpu.Buffer[E], c E) error {
	return v.withConst(s, "subc", dst, a, c)
}

// Scale sets dst[i] = a[i]·c.
func (v *Vec[E]) Scale(s *gpu.Stream, dst, a *gpu.Buffer[E], c E) error {
	return v.withConst(s, "scale", dst, a, c)
}

// ScaleIndexed sets dst[i] = a[i]·table[(i >> shift) mod len(table)]:
// shift 0 scales by values that repeat with period len(table), a larger
// shift by values constant on blocks of 2^shift entries. len(table) is a
// power of two up to MaxTable, shift below 64.
func (v *Vec[E]) ScaleIndexed(s *gpu.Stream, dst, a *gpu.Buffer[E], table []E, shift uint) error {
	if err := v.check("ScaleIndexed", true, dst, a); err != nil {
		return err
	}
	if k := len(table); k == 0 || k > MaxTable || k&(k-1) != 0 || shift > 63 {
		return fmt.Errorf("fieldvec: ScaleIndexed: a table of %d entries, shift %d: want a power of two up to %d, shift below 64: %w",
			len(table), shift, MaxTable, gpu.ErrLength)
	}
	t := make([]E, MaxTable)
	copy(t, table)
	par := append(raw(t...), raw32(uint32(shift), uint32(len(table)-1), 0, 0)...)
	return v.launch(s, "scaleidx", dst.Len(), 1, dst, a, par, uint64(dst.Len()))
}

// Invert sets dst[i] = 1/a[i], and 0 where a[i] is 0 (as gnark-crypto's
// BatchInvert and gf64.BatchInverse), a few products per element and one
// inversion per eight.
func (v *Vec[E]) Invert(s *gpu.Stream, dst, a *gpu.Buffer[E]) error {
	if err := v.check("Invert", true, dst, a); err != nil {
		return err
	}
	return v.launch(s, "inv", dst.Len(), 8, dst, a, uint64(dst.Len()))
}

// Geometric sets dst[i] = x0·r^i for i < dst.Len() ≤ 2^MaxBasis: the points
// g·ω^i of a coset with x0 = g, r = ω.
func (v *Vec[E]) Geometric(s *gpu.Stream, dst *gpu.Buffer[E], x0, r E) error {
	if err := v.check("Geometric", false, dst); err != nil {
		return err
	}
	if dst.Len() > 1<<MaxBasis {
		return fmt.Errorf("fieldvec: Geometric: %d points: at most 2^%d: %w", dst.Len(), MaxBasis, gpu.ErrLength)
	}
	t := make([]E, MaxBasis+1)
	t[0] = x0
	p := r
	for b := 1; b <= MaxBasis; b++ {
		t[b] = p
		p = mul(p, p)
	}
	return v.launch(s, "geometric", dst.Len(), 1, dst, raw(t...), uint64(dst.Len()))
}

// Span sets dst[i] = shift + Σ_b bit_b(i)·basis[b], the points of the affine
// subspace shift + span(basis) in DESIGN.md's order. dst.Len() must not
// pass 2^len(basis), len(basis) ≤ MaxBasis.
func (v *Vec[E]) Span(s *gpu.Stream, dst *gpu.Buffer[E], shift E, basis []E) error {
	if err := v.check("Span", false, dst); err != nil {
		return err
	}
	if len(basis) > MaxBasis || dst.Len() > 1<<len(basis) {
		return fmt.Errorf("fieldvec: Span: %d points from %d basis vectors (at most %d): %w", dst.Len(), len(basis), MaxBasis, gpu.ErrLength)
	}
	t := make([]E, MaxBasis+1)
	t[0] = shift
	copy(t[1:], basis)
	return v.launch(s, "span", dst.Len(), 1, dst, raw(t...), uint64(dst.Len()))
}

// Combine sets dst[i] = Σ_j c[j]·cols[j·n + i] for i < n = dst.Len(): the
// combination with coefficients c of the len(c) columns held end to end in
// cols. dst must not overlap cols.
func (v *Vec[E]) Combine(s *gpu.Stream, dst, cols *gpu.Buffer[E], c []E) error {
	if err := v.check("Combine", false, dst); err != nil {
		return err
	}
	n := dst.Len()
	if cols == nil || len(c) == 0 || cols.Len() != n*len(c) {
		return fmt.Errorf("fieldvec: Combine: %d coefficients for columns of %d elements: %w", len(c), n, gpu.ErrLength)
	}
	if err := v.check("Combine", false, cols); err != nil {
		return err
	}
	if overlap(dst, cols) {
		return fmt.Errorf("fieldvec: Combine: the destination overlaps the columns: %w", gpu.ErrLength)
	}
	for j0 := 0; j0 < len(c); j0 += combineMax {
		k := min(combineMax, len(c)-j0)
		t := make([]E, combineMax)
		copy(t, c[j0:j0+k])
		src, err := cols.View(j0*n, k*n)
		if err != nil {
			return err
		}
		acc := uint32(0)
		if j0 > 0 {
			acc = 1
		}
		if err := v.launch(s, "combine", n, 1, dst, src, raw(t...), uint32(k), acc, uint64(n)); err != nil {
			return err
		}
	}
	return nil
}

func raw32(ws ...uint32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&ws[0])), 4*len(ws))
}

// mul is E's product on the host.
func mul[E Element](a, b E) E {
	switch x := any(&a).(type) {
	case *babybear.Element:
		x.Mul(x, any(&b).(*babybear.Element))
	case *koalabear.Element:
		x.Mul(x, any(&b).(*koalabear.Element))
	case *goldilocks.Element:
		x.Mul(x, any(&b).(*goldilocks.Element))
	case *fr.Element:
		x.Mul(x, any(&b).(*fr.Element))
	case *gf64.Element:
		*x = gf64.Mul(*x, *any(&b).(*gf64.Element))
	}
	return a
}
