package prover

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/fieldvec"
	"github.com/gfpoly/gfpoly/gpu/gfvec"
	"github.com/gfpoly/gfpoly/gpu/primentt"
)

// The extension-field operations (CombineExt, Evaluate) on a commitment
// kept on the device: each device runs the kernels of gpu/gfvec (GF(2^64)
// columns, GF(2^128) challenges) and gpu/primentt (the prime fields and
// their extensions) on the columns it holds, and only results come back: a
// combination's Rows() elements of X, an evaluation's points × columns.
// With several devices each combines or evaluates its own run of columns,
// all at once; the partial combinations are added on the first device
// (exact field additions, so the elements equal the CPU's).

// extPart is one device's run of a commitment's columns.
type extPart[E Element] struct {
	first int            // the index of the first column
	cols  *gpu.Buffer[E] // the columns end to end, rows elements each
	r     *resident[E]   // that device's resident state (its kernels)
}

// gf128Kernels returns the device's GF(2^128) kernels, loaded on first use.
func (r *resident[E]) gf128Kernels() (*gfvec.GF128, error) {
	r.g128Once.Do(func() { r.g128, r.g128Err = gfvec.NewGF128(r.dev) })
	return r.g128, r.g128Err
}

// fieldVec returns the device's element-wise kernels, loaded on first use.
func (r *resident[E]) fieldVec() (*fieldvec.Vec[E], error) {
	r.fvOnce.Do(func() { r.fv, r.fvErr = fieldvec.New[E](r.dev) })
	return r.fv, r.fvErr
}

// combineExtParts runs dst[i] = Σ_j alpha[j]·col_j[i] over the columns of
// one or several devices into dst, a buffer of rows elements on the first:
// every device combines its own columns at the same time (the first into
// dst), and the others' partial sums are copied to the first device and
// added there, coordinate by coordinate (exact field additions, so the
// elements equal the CPU's). The stores' lock is held by the caller.
func combineExtParts[E Element, X Ext](parts []extPart[E], rows int, alpha []X, dst *gpu.Buffer[X]) error {
	tmp := make([]*gpu.Buffer[X], len(parts))
	defer func() {
		for _, b := range tmp {
			if b != nil {
				b.Free()
			}
		}
	}()
	err := eachDevice(len(parts), func(i int) error {
		p := parts[i]
		out := dst
		if i > 0 {
			var err error
			if tmp[i], err = gpu.Alloc[X](p.cols.Device(), rows); err != nil {
				return err
			}
			out = tmp[i]
		}
		return combineExtOn(p, out, alpha[p.first:p.first+p.cols.Len()/rows])
	})
	if err != nil || len(parts) == 1 {
		return err
	}
	fv, err := parts[0].r.fieldVec()
	if err != nil {
		return err
	}
	part, err := gpu.Alloc[X](dst.Device(), rows)
	if err != nil {
		return err
	}
	defer part.Free()
	sum, err := gpu.ViewAs[E](dst)
	if err != nil {
		return err
	}
	add, err := gpu.ViewAs[E](part)
	if err != nil {
		return err
	}
	for _, b := range tmp[1:] {
		if err := part.CopyFrom(nil, b); err != nil {
			return err
		}
		if err := fv.Add(nil, sum, sum, add); err != nil {
			return err
		}
	}
	return nil
}

// combineExtOn runs the combination of one device's columns into dst.
func combineExtOn[E Element, X Ext](p extPart[E], dst *gpu.Buffer[X], alpha []X) error {
	switch cols := any(p.cols).(type) {
	case *gpu.Buffer[gf64.Element]:
		g, err := p.r.gf128Kernels()
		if err != nil {
			return err
		}
		return g.CombineBase(nil, any(dst).(*gpu.Buffer[gf128.Element]), cols, any(alpha).([]gf128.Element))
	case *gpu.Buffer[goldilocks.Element]:
		return primentt.CombineExt(nil, any(dst).(*gpu.Buffer[glext.E2]), cols, any(alpha).([]glext.E2))
	case *gpu.Buffer[babybear.Element]:
		return primentt.CombineExt(nil, any(dst).(*gpu.Buffer[bbext.E4]), cols, any(alpha).([]bbext.E4))
	case *gpu.Buffer[koalabear.Element]:
		return primentt.CombineExt(nil, any(dst).(*gpu.Buffer[kbext.E4]), cols, any(alpha).([]kbext.E4))
	case *gpu.Buffer[fr.Element]:
		return primentt.CombineExt(nil, any(dst).(*gpu.Buffer[fr.Element]), cols, any(alpha).([]fr.Element))
	}
	return fmt.Errorf("prover: no device combination for %v: %w", FieldOf[E](), ErrUnavailable)
}

// combineExtDevice is CombineExtInto for a commitment kept on the device.
func combineExtDevice[E Element, X Ext](c *Commitment[E], dst, alpha []X) error {
	return c.dev.withParts("CombineExt", func(parts []extPart[E]) error {
		out, err := gpu.Alloc[X](parts[0].cols.Device(), c.rows)
		if err != nil {
			return err
		}
		defer out.Free()
		if err := combineExtParts(parts, c.rows, alpha, out); err != nil {
			return err
		}
		return out.Download(dst)
	})
}

// CombineExtDevice is CombineExt for a commitment kept on the device, with
// the result left there: a new buffer of Rows() elements of X that the
// caller owns and frees, on the commitment's device (the first one, for a
// commitment spread over several: their partial sums are copied there
// and added). A commitment in host memory returns an
// error wrapping ErrUnavailable; other errors as CombineExt's.
func CombineExtDevice[E Element, X Ext](c *Commitment[E], alpha []X) (*gpu.Buffer[X], error) {
	if err := checkExt[E, X]("CombineExtDevice"); err != nil {
		return nil, err
	}
	if len(alpha) != c.cols {
		return nil, fmt.Errorf("prover: CombineExtDevice: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if _, err := c.hostLDE("CombineExtDevice"); err != nil {
		return nil, err
	}
	if c.dev == nil {
		return nil, fmt.Errorf("prover: CombineExtDevice: the commitment is in host memory: %w", ErrUnavailable)
	}
	var out *gpu.Buffer[X]
	err := c.dev.withParts("CombineExtDevice", func(parts []extPart[E]) error {
		var err error
		if out, err = gpu.Alloc[X](parts[0].cols.Device(), c.rows); err != nil {
			return err
		}
		return combineExtParts(parts, c.rows, alpha, out)
	})
	if err != nil {
		if out != nil {
			out.Free()
		}
		return nil, fmt.Errorf("prover: CombineExtDevice: %w", err)
	}
	return out, nil
}

// CombineExtDeviceInto is CombineExtDevice into dst, a buffer of Rows()
// elements of X on the commitment's device (the first one, for a
// commitment spread over several). A dst of another length or device
// returns an error wrapping ErrShape; other errors as CombineExtDevice's.
func CombineExtDeviceInto[E Element, X Ext](c *Commitment[E], dst *gpu.Buffer[X], alpha []X) error {
	if err := checkExt[E, X]("CombineExtDeviceInto"); err != nil {
		return err
	}
	if len(alpha) != c.cols {
		return fmt.Errorf("prover: CombineExtDeviceInto: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if _, err := c.hostLDE("CombineExtDeviceInto"); err != nil {
		return err
	}
	if c.dev == nil {
		return fmt.Errorf("prover: CombineExtDeviceInto: the commitment is in host memory: %w", ErrUnavailable)
	}
	return c.dev.withParts("CombineExtDeviceInto", func(parts []extPart[E]) error {
		if dst == nil || dst.Freed() || dst.Len() != c.rows || dst.Device() != parts[0].cols.Device() {
			return fmt.Errorf("a destination that is not a live buffer of %d elements on the commitment's device: %w", c.rows, ErrShape)
		}
		return combineExtParts(parts, c.rows, alpha, dst)
	})
}

// deviceOf returns the device holding c's LDE (the first of several), nil
// for a commitment in host memory or a closed one.
func deviceOf[E Element](c *Commitment[E]) *gpu.Device {
	if _, err := c.hostLDE("Device"); err != nil || c.dev == nil {
		return nil
	}
	var d *gpu.Device
	_ = c.dev.withParts("Device", func(parts []extPart[E]) error {
		d = parts[0].cols.Device()
		return nil
	})
	return d
}

// CombinePowersDevice is CombinePowers for a commitment kept on the
// device, the result left there as CombineExtDevice leaves it.
func CombinePowersDevice[E Element, X Ext](c *Commitment[E], alpha X) (*gpu.Buffer[X], error) {
	if err := checkExt[E, X]("CombinePowersDevice"); err != nil {
		return nil, err
	}
	return CombineExtDevice(c, powers(alpha, c.cols))
}

// evalDeviceMax is the most points one device evaluation takes
// (gfvec.GF128.EvalSubspace's limit).
const evalDeviceMax = 32

// evaluateDevice is EvaluateInto for a commitment kept on the device: every
// device evaluates its columns at every point (the kernels find the points
// of the domain themselves), and the values come back.
func evaluateDevice[E Element, X Ext](c *Commitment[E], dst [][]X, points []X, n int) error {
	rows := c.rows
	var sub any // GF(2^64): the codeword's first n points; prime: the coset
	if FieldOf[E]() == GF64 {
		_, cw, err := c.binarySpaces("Evaluate")
		if err != nil {
			return err
		}
		s, err := cw.Sub(log2(n))
		if err != nil {
			return fmt.Errorf("prover: Evaluate: %w", err)
		}
		sub = s
	} else {
		g, w, err := primeRoots[E](rows)
		if err != nil {
			return err
		}
		om := baseOf[E]().exp(w, uint64(c.code.blowup))
		switch any(g).(type) {
		case goldilocks.Element:
			sub = coset[goldilocks.Element](n, g, om, c.code.blowup)
		case babybear.Element:
			sub = coset[babybear.Element](n, g, om, c.code.blowup)
		case koalabear.Element:
			sub = coset[koalabear.Element](n, g, om, c.code.blowup)
		case fr.Element:
			sub = coset[fr.Element](n, g, om, c.code.blowup)
		}
	}
	return c.dev.withParts("Evaluate", func(parts []extPart[E]) error {
		for lo := 0; lo < len(points); lo += evalDeviceMax {
			pts := points[lo:min(lo+evalDeviceMax, len(points))]
			for _, p := range parts {
				ncols := p.cols.Len() / rows
				out, err := gpu.Alloc[X](p.cols.Device(), len(pts)*ncols)
				if err != nil {
					return err
				}
				err = evalOn(p, out, ncols, rows, sub, pts)
				vals := make([]X, len(pts)*ncols)
				if err == nil {
					err = out.Download(vals)
				}
				out.Free()
				if err != nil {
					return err
				}
				for k := range pts {
					copy(dst[lo+k][p.first:p.first+ncols], vals[k*ncols:(k+1)*ncols])
				}
			}
		}
		return nil
	})
}

// coset is primentt's coset of n points g·ω^j, every step-th row.
func coset[F primentt.Element](n int, g, omega any, step int) primentt.Coset[F] {
	return primentt.Coset[F]{N: n, Shift: g.(F), Omega: omega.(F), Step: step}
}

// evalOn evaluates one device's ncols columns (rows elements each) at the
// points into dst[k·ncols + c].
func evalOn[E Element, X Ext](p extPart[E], dst *gpu.Buffer[X], ncols, rows int, sub any, points []X) error {
	switch cols := any(p.cols).(type) {
	case *gpu.Buffer[gf64.Element]:
		g, err := p.r.gf128Kernels()
		if err != nil {
			return err
		}
		return g.EvalSubspace(nil, any(dst).(*gpu.Buffer[gf128.Element]), cols, rows, sub.(*domain.Subspace), any(points).([]gf128.Element))
	case *gpu.Buffer[goldilocks.Element]:
		return primentt.EvalCoset(nil, any(dst).(*gpu.Buffer[glext.E2]), cols, ncols, sub.(primentt.Coset[goldilocks.Element]), any(points).([]glext.E2))
	case *gpu.Buffer[babybear.Element]:
		return primentt.EvalCoset(nil, any(dst).(*gpu.Buffer[bbext.E4]), cols, ncols, sub.(primentt.Coset[babybear.Element]), any(points).([]bbext.E4))
	case *gpu.Buffer[koalabear.Element]:
		return primentt.EvalCoset(nil, any(dst).(*gpu.Buffer[kbext.E4]), cols, ncols, sub.(primentt.Coset[koalabear.Element]), any(points).([]kbext.E4))
	case *gpu.Buffer[fr.Element]:
		return primentt.EvalCoset(nil, any(dst).(*gpu.Buffer[fr.Element]), cols, ncols, sub.(primentt.Coset[fr.Element]), any(points).([]fr.Element))
	}
	return fmt.Errorf("prover: no device evaluation for %v: %w", FieldOf[E](), ErrUnavailable)
}

// withParts runs f on the commitment's device columns with the store
// locked (so that Close waits for it); a closed store returns ErrClosed.
func (st *devStore[E]) withParts(op string, f func([]extPart[E]) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lde == nil {
		return fmt.Errorf("prover: %s: %w", op, ErrClosed)
	}
	if err := f([]extPart[E]{{first: 0, cols: st.lde, r: st.r}}); err != nil {
		return fmt.Errorf("prover: %s on the device: %w", op, err)
	}
	return nil
}

func (ms *multiStore[E]) withParts(op string, f func([]extPart[E]) error) error {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.closed() {
		return fmt.Errorf("prover: %s: %w", op, ErrClosed)
	}
	parts := make([]extPart[E], len(ms.st))
	for i, st := range ms.st {
		parts[i] = extPart[E]{first: ms.first[i], cols: st.lde, r: st.r}
	}
	if err := f(parts); err != nil {
		return fmt.Errorf("prover: %s on the devices: %w", op, err)
	}
	return nil
}
