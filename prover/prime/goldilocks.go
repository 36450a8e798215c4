package prime

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"

	"github.com/gfpoly/gfpoly/internal/ntt64"
)

// goldilocksOps runs Goldilocks transforms on the module's own kernels
// (internal/ntt64) instead of gnark-crypto's: the same results bit for bit,
// because both compute the exact transform on canonical values, ntt64
// applies every twiddle and scale factor in plain form so that the
// Montgomery factor 2^64 of gnark-crypto's elements passes through, and its
// roots of unity are gnark-crypto's (checked here against the domain).
type goldilocksOps struct {
	d    *goldilocksfft.Domain
	plan *ntt64.Plan
}

func newGoldilocksOps(d *goldilocksfft.Domain) (*goldilocksOps, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil goldilocks domain", ErrDomain)
	}
	v := domainView[goldilocks.Element]{
		field: "goldilocks", card: d.Cardinality,
		gen: d.Generator, genInv: d.GeneratorInv, cardInv: d.CardinalityInv,
		shift: d.FrMultiplicativeGen, shiftInv: d.FrMultiplicativeGenInv,
		twiddles: orNil(d.Twiddles()), twiddlesInv: orNil(d.TwiddlesInv()),
		cosetTable: orNil(d.CosetTable()), cosetTableInv: orNil(d.CosetTableInv()),
		generator: goldilocksfft.Generator,
	}
	if err := checkDomain(&v); err != nil {
		return nil, err
	}
	logN := bits.TrailingZeros64(d.Cardinality)
	if d.Generator.Bits()[0] != ntt64.RootOfUnity(logN) {
		// checkDomain compared Generator with gnark-crypto's own root; this
		// only fails if ntt64.Root stopped being gnark-crypto's.
		return nil, fmt.Errorf("%w: goldilocks domain generator is not the root of unity ntt64 uses", ErrDomain)
	}
	plan, err := ntt64.NewPlan(logN, d.FrMultiplicativeGen.Bits()[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDomain, err)
	}
	return &goldilocksOps{d: d, plan: plan}, nil
}

func (g *goldilocksOps) name() string        { return "goldilocks" }
func (g *goldilocksOps) cardinality() uint64 { return g.d.Cardinality }
func (g *goldilocksOps) domain() any         { return g.d }

func (g *goldilocksOps) transform(a []goldilocks.Element, o Order, inverse, coset bool, tasks int) {
	// goldilocks.Element is [1]uint64: the column is a []uint64 of
	// Montgomery-form values.
	u := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(a))), len(a))
	g.plan.Transform(u, o == DIT, inverse, coset, tasks)
	if o == Natural {
		g.plan.BitReverse(u, tasks)
	}
}

func (g *goldilocksOps) cosetShift() goldilocks.Element { return g.d.FrMultiplicativeGen }

func (g *goldilocksOps) mulVec(a, b []goldilocks.Element) {
	v := goldilocks.Vector(a)
	v.Mul(a, b)
}

func (g *goldilocksOps) expTable(w goldilocks.Element, t []goldilocks.Element) {
	goldilocksfft.BuildExpTable(w, t)
}

func (g *goldilocksOps) bitReverse(a []goldilocks.Element, tasks int) {
	g.plan.BitReverse(unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(a))), len(a)), tasks)
}

// goldilocksNatural returns the Natural-order LDE from small to large on
// ntt64's extension (E is goldilocks.Element): the input is copied to the
// end of dst (src may overlap dst's head) and extended in place.
func goldilocksNatural[E Element](small, large *goldilocksOps) (func(dst, src []E, tasks int), error) {
	x, err := ntt64.NewExtender(small.plan, large.plan)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBlowup, err)
	}
	return func(dst, src []E, tasks int) {
		d := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
		s := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
		copy(d[len(d)-len(s):], s)
		x.Extend(d, tasks)
	}, nil
}

var _ fieldOps[goldilocks.Element] = (*goldilocksOps)(nil)
