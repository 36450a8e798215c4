package primentt

import (
	"encoding/binary"
	"fmt"
	"math/bits"
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

// Constants of cuda/ntt_ext.cu's EvalCoset kernels.
const (
	evalMax     = 8   // EVAL_MAX: points a launch takes
	evalThreads = 256 // EVAL_THREADS
	evalPow     = 32  // EVAL_POW: g and ω^(2^b), b < 31
	evalK       = 8   // points x_j per thread (NTT_EXT's K)
)

// Coset is the coset g·⟨ω⟩ = {x_j = g·ω^j : j < N} on which EvalCoset
// reads each column, and where in the column it reads it: x_j's value is
// the column's entry j·Step. For the LDE of polynomials of degree < n
// committed on the coset of a domain of blowup·n elements (row i = p(g·ω'^i),
// g the domain's FrMultiplicativeGen, ω' its generator), the rows
// blowup·j form the coset g·⟨ω'^blowup⟩ of n points: Coset{N: n, Shift: g,
// Omega: ω'^blowup, Step: blowup} (LDECoset). Step 1 reads a column that
// holds the coset's n values alone.
type Coset[E Element] struct {
	N     int // the points: ω's order, a power of two up to 2^30
	Shift E   // g, not zero
	Omega E   // ω, of order N exactly
	Step  int // entries of a column between x_j and x_{j+1}, at least 1
}

// LDECoset returns the coset of n = Cardinality/blowup points on which an
// LDE over large (a gnark-crypto *fft.Domain of E's field, evaluated on
// its coset as NTT.CosetFFT and LDE.Encode do, natural order) holds the
// values of its polynomials of degree < n: Coset{N: n, Shift:
// FrMultiplicativeGen, Omega: Generator^blowup, Step: blowup}. blowup is a
// power of two dividing the cardinality. A domain of another field returns
// an error wrapping ErrField; a nil or inconsistent one, or a bad blowup,
// ErrDomain.
func LDECoset[E Element](large any, blowup int) (Coset[E], error) {
	var z E
	var c any
	var err error
	switch any(z).(type) {
	case fr.Element:
		c, err = ldeCoset[fr.Element](large, blowup, bn254Dom)
	case goldilocks.Element:
		c, err = ldeCoset[goldilocks.Element](large, blowup, goldilocksDom)
	case babybear.Element:
		c, err = ldeCoset[babybear.Element](large, blowup, babybearDom)
	case koalabear.Element:
		c, err = ldeCoset[koalabear.Element](large, blowup, koalabearDom)
	}
	if err != nil {
		return Coset[E]{}, err
	}
	return c.(Coset[E]), nil
}

func ldeCoset[E Element, P primeElem[E]](large any, blowup int, view func(any) (*primeDomain[E], string, error)) (Coset[E], error) {
	v, got, _ := view(large)
	if v == nil {
		switch got {
		case "nil":
			return Coset[E]{}, fmt.Errorf("%w: nil domain", ErrDomain)
		case "bn254", "goldilocks", "babybear", "koalabear":
			return Coset[E]{}, fmt.Errorf("%w: a %s domain for %T elements", ErrField, got, *new(E))
		}
		return Coset[E]{}, fmt.Errorf("%w: %s is not a gnark-crypto *fft.Domain", ErrDomain, got)
	}
	if err := checkPrimeDomain[E, P](v); err != nil {
		return Coset[E]{}, err
	}
	if blowup < 1 || blowup&(blowup-1) != 0 || uint64(blowup) > v.card {
		return Coset[E]{}, fmt.Errorf("%w: blowup %d of a domain of %d", ErrDomain, blowup, v.card)
	}
	w := v.gen
	for b := blowup; b > 1; b >>= 1 {
		P(&w).Mul(&w, &w)
	}
	return Coset[E]{N: int(v.card) / blowup, Shift: v.shift, Omega: w, Step: blowup}, nil
}

// EvalCoset evaluates ncols polynomials given by their values on a coset
// at the points: dst[k·ncols + c] = p_c(points[k]), for p_c the polynomial
// of degree < N taking column c's values on the coset, the columns held end
// to end in cols, N·Step elements each (cols.Len() = ncols·N·Step; see
// Coset). The points are in E's challenge field X. It is the barycentric
// formula
//
//	p(z) = (z^N − g^N)/(N·g^N) · Σ_j f_j·x_j/(z − x_j),
//
// computed exactly: the result equals gnark-crypto's evaluation of p_c at
// z, in any order, bit for bit. A point on the coset (z = x_j, in the base
// field) gives the column's entry j·Step. The host computes the scale
// factors and finds the points on the coset; the device computes the x_j,
// the weights x_j/(z − x_j) (one inversion per 8 points, Montgomery's
// trick) and the sums of every column (per block, then a second kernel),
// one pass over the columns per point, with temporary device memory of up to 8·ncols·⌈N/2048⌉ elements of X taken in
// stream order. dst must
// not overlap cols. Work is queued on s (nil: the default stream, and
// EvalCoset waits). Bad lengths return errors wrapping gpu.ErrLength, a
// freed buffer gpu.ErrClosed, X not E's challenge field ErrField, a bad
// coset (N not a power of two up to 2^30, g zero, ω not of order N)
// ErrDomain.
func EvalCoset[E Element, X Ext](s *gpu.Stream, dst *gpu.Buffer[X], cols *gpu.Buffer[E], ncols int, c Coset[E], points []X) error {
	plan, err := planEval(dst, cols, ncols, c, points)
	if err != nil {
		return fmt.Errorf("primentt: EvalCoset: %w", err)
	}
	d := dst.Device()
	name := fieldName[E]()
	m, err := d.Module(cuda.ExtProgram(name))
	if err != nil {
		return err
	}
	partial1, err := m.Function("ntt_" + name + "_eval_partial1")
	if err != nil {
		return err
	}
	sum, err := m.Function("ntt_" + name + "_eval_sum")
	if err != nil {
		return err
	}
	xs := int(unsafe.Sizeof(*new(X)))
	nb := (c.N + evalK*evalThreads - 1) / (evalK * evalThreads)
	colStride, step := uint64(c.N*c.Step), uint64(c.Step)
	err = d.Do(s, func(q *gpu.Queue) error {
		for k0 := 0; k0 < len(points); k0 += evalMax {
			k := min(evalMax, len(points)-k0)
			// z: the points off the coset, compacted (their slots);
			// sc: each point's scale factor; idx: EvalIndex.
			z := make([]byte, xs*evalMax)
			sc := make([]byte, xs*evalMax)
			idx := make([]byte, 8*evalMax)
			m := 0
			for i := range k {
				j, slot := uint32(0xffffffff), uint32(0)
				if plan.index[k0+i] >= 0 {
					j = uint32(plan.index[k0+i])
				} else {
					copy(z[m*xs:], extOperand(points[k0+i]))
					copy(sc[i*xs:], extOperand(plan.scale[k0+i]))
					slot = uint32(m)
					m++
				}
				binary.LittleEndian.PutUint32(idx[4*i:], j)
				binary.LittleEndian.PutUint32(idx[4*(evalMax+i):], slot)
			}
			out := dst.Ptr() + gpu.DevicePtr(k0*ncols*xs)
			reduce := func(part gpu.DevicePtr) error {
				return q.Launch(sum, gpu.Dim3{X: ncols, Y: k}, gpu.Dim3{X: evalThreads}, 0,
					out, part, uint32(nb), uint32(ncols), sc, idx, cols.Ptr(), colStride, step)
			}
			if m == 0 {
				if err := reduce(0); err != nil {
					return err
				}
				continue
			}
			err := q.Scratch(m*ncols*nb*xs, func(part gpu.DevicePtr) error {
				if err := q.Launch(partial1, gpu.Dim3{X: nb, Y: m}, gpu.Dim3{X: evalThreads}, 0,
					cols.Ptr(), colStride, step, uint32(c.N), uint32(ncols), plan.pow, z, uint32(m), part); err != nil {
					return err
				}
				return reduce(part)
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("primentt: EvalCoset: %w", err)
	}
	return nil
}

// evalPlan is what the host computes for EvalCoset.
type evalPlan[X any] struct {
	pow   []byte // EvalPow: g, ω^(2^b) as the kernels take them
	scale []X    // (z^N − g^N)/(N·g^N) per point
	index []int  // j where the point is x_j, else −1
}

// planEval checks EvalCoset's arguments and computes its plan.
func planEval[E Element, X Ext](dst *gpu.Buffer[X], cols *gpu.Buffer[E], ncols int, c Coset[E], points []X) (*evalPlan[X], error) {
	if !extOf[E, X]() {
		return nil, fmt.Errorf("%T is not the challenge field of %T: %w", *new(X), *new(E), ErrField)
	}
	if dst == nil || cols == nil {
		return nil, fmt.Errorf("nil buffer: %w", gpu.ErrLength)
	}
	if cols.Device() != dst.Device() {
		return nil, fmt.Errorf("the columns are on another device: %w", gpu.ErrLength)
	}
	if dst.Freed() || cols.Freed() {
		return nil, fmt.Errorf("a buffer was freed: %w", gpu.ErrClosed)
	}
	if overlap(uint64(dst.Ptr()), uint64(dst.Bytes()), uint64(cols.Ptr()), uint64(cols.Bytes())) {
		return nil, fmt.Errorf("dst overlaps the columns: %w", gpu.ErrLength)
	}
	return planArgs(dst.Len(), cols.Len(), ncols, c, points)
}

// planArgs checks EvalCoset's lengths and coset and computes its plan,
// for buffers of dstLen and colsLen elements.
func planArgs[E Element, X Ext](dstLen, colsLen, ncols int, c Coset[E], points []X) (*evalPlan[X], error) {
	if !extOf[E, X]() {
		return nil, fmt.Errorf("%T is not the challenge field of %T: %w", *new(X), *new(E), ErrField)
	}
	if c.N < 1 || c.N > 1<<maxPrimeLog || c.N&(c.N-1) != 0 {
		return nil, fmt.Errorf("%w: a coset of %d points (a power of two up to 2^%d)", ErrDomain, c.N, maxPrimeLog)
	}
	if ncols < 1 || c.Step < 1 || colsLen < 1 || colsLen/ncols/c.N/c.Step == 0 || colsLen != ncols*c.N*c.Step {
		return nil, fmt.Errorf("%d columns of %d points %d apart in %d elements: %w", ncols, c.N, c.Step, colsLen, gpu.ErrLength)
	}
	if uint64(c.N)*uint64(c.Step) > 1<<40 || ncols > 1<<31-1 {
		return nil, fmt.Errorf("%d columns of %d×%d elements: %w", ncols, c.N, c.Step, gpu.ErrLength)
	}
	if len(points) == 0 || dstLen < 1 || dstLen/len(points) != ncols || dstLen%len(points) != 0 {
		return nil, fmt.Errorf("%d results for %d points of %d columns: %w", dstLen, len(points), ncols, gpu.ErrLength)
	}
	var p any
	var err error
	switch any(c.Shift).(type) {
	case babybear.Element:
		p, err = planCoset[babybear.Element](any(c).(Coset[babybear.Element]), any(points).([]bbext.E4), bbHost)
	case koalabear.Element:
		p, err = planCoset[koalabear.Element](any(c).(Coset[koalabear.Element]), any(points).([]kbext.E4), kbHost)
	case goldilocks.Element:
		p, err = planCoset[goldilocks.Element](any(c).(Coset[goldilocks.Element]), any(points).([]glext.E2), glHost)
	case fr.Element:
		p, err = planCoset[fr.Element](any(c).(Coset[fr.Element]), any(points).([]fr.Element), frHost)
	}
	if err != nil {
		return nil, err
	}
	return p.(*evalPlan[X]), nil
}

// baseHost is what planCoset needs of a gnark-crypto element.
type baseHost[E any] interface {
	primeElem[E]
	Square(x *E) *E
	Inverse(x *E) *E
}

// extHost is what planCoset needs of the challenge field X of E.
type extHost[E, X any] struct {
	base func(z *X) (E, bool) // z's base coordinate, and whether z lies in the base field
	// scale returns (z^(2^logn) − gn)·c
	scale func(z X, logn int, gn, c *E) X
}

var (
	bbHost = extHost[babybear.Element, bbext.E4]{
		base: func(z *bbext.E4) (babybear.Element, bool) {
			return z.B0.A0, z.B0.A1.IsZero() && z.B1.IsZero()
		},
		scale: func(z bbext.E4, logn int, gn, c *babybear.Element) bbext.E4 {
			for range logn {
				z.Square(&z)
			}
			z.B0.A0.Sub(&z.B0.A0, gn)
			return *z.MulByElement(&z, c)
		},
	}
	kbHost = extHost[koalabear.Element, kbext.E4]{
		base: func(z *kbext.E4) (koalabear.Element, bool) {
			return z.B0.A0, z.B0.A1.IsZero() && z.B1.IsZero()
		},
		scale: func(z kbext.E4, logn int, gn, c *koalabear.Element) kbext.E4 {
			for range logn {
				z.Square(&z)
			}
			z.B0.A0.Sub(&z.B0.A0, gn)
			return *z.MulByElement(&z, c)
		},
	}
	glHost = extHost[goldilocks.Element, glext.E2]{
		base: func(z *glext.E2) (goldilocks.Element, bool) { return z.A0, z.A1.IsZero() },
		scale: func(z glext.E2, logn int, gn, c *goldilocks.Element) glext.E2 {
			for range logn {
				z.Square(&z)
			}
			z.A0.Sub(&z.A0, gn)
			return *z.MulByElement(&z, c)
		},
	}
	frHost = extHost[fr.Element, fr.Element]{
		base: func(z *fr.Element) (fr.Element, bool) { return *z, true },
		scale: func(z fr.Element, logn int, gn, c *fr.Element) fr.Element {
			for range logn {
				z.Square(&z)
			}
			z.Sub(&z, gn)
			return *z.Mul(&z, c)
		},
	}
)

// planCoset checks the coset and computes the plan of its points.
func planCoset[E Element, X any, P baseHost[E]](c Coset[E], points []X, h extHost[E, X]) (*evalPlan[X], error) {
	logn := bits.TrailingZeros(uint(c.N))
	if P(&c.Shift).IsZero() {
		return nil, fmt.Errorf("%w: coset shift 0", ErrDomain)
	}
	w := c.Omega
	for range logn - 1 {
		P(&w).Square(&w)
	}
	half := w // ω^(N/2), for N > 1
	P(&w).Square(&w)
	if !P(&w).IsOne() || (logn > 0 && P(&half).IsOne()) {
		return nil, fmt.Errorf("%w: ω is not of order %d", ErrDomain, c.N)
	}
	if logn == 0 && !P(&c.Omega).IsOne() {
		return nil, fmt.Errorf("%w: ω is not of order 1", ErrDomain)
	}
	plan := &evalPlan[X]{scale: make([]X, len(points)), index: make([]int, len(points))}
	// EvalPow
	plan.pow = append(plan.pow, baseOperand(c.Shift)...)
	w = c.Omega
	for range evalPow - 1 {
		plan.pow = append(plan.pow, baseOperand(w)...)
		P(&w).Square(&w)
	}
	// 1/(N·g^N), g^N
	gn := c.Shift
	for range logn {
		P(&gn).Square(&gn)
	}
	var inv E
	P(&inv).SetUint64(uint64(c.N))
	P(&inv).Mul(&inv, &gn)
	P(&inv).Inverse(&inv)
	gInv := c.Shift
	P(&gInv).Inverse(&gInv)
	for k := range points {
		plan.index[k] = -1
		if b, ok := h.base(&points[k]); ok {
			P(&b).Mul(&b, &gInv)
			plan.index[k] = cosetIndex[E, P](b, c.Omega, logn)
		}
		if plan.index[k] < 0 {
			plan.scale[k] = h.scale(points[k], logn, &gn, &inv)
		}
	}
	return plan, nil
}

// cosetIndex returns j with w^j = h for w of order 2^logn, or −1 where h
// is no power of w: Pohlig–Hellman, one bit of j at a time.
func cosetIndex[E any, P baseHost[E]](h, w E, logn int) int {
	t := h
	for range logn {
		P(&t).Square(&t)
	}
	if !P(&t).IsOne() {
		return -1
	}
	winv := w // w^(−2^i)
	P(&winv).Inverse(&winv)
	j := 0
	for i := range logn {
		t = h
		for range logn - 1 - i {
			P(&t).Square(&t)
		}
		if !P(&t).IsOne() {
			j |= 1 << i
			P(&h).Mul(&h, &winv)
		}
		P(&winv).Square(&winv)
	}
	return j
}
