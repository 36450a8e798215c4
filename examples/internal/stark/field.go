package stark

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// arith is the arithmetic the STARK needs of a trace field E and its
// challenge field X: scalars of both, and vectors of E (dst first, equal
// lengths, dst may be one of the inputs) for the prover's passes over the LDE.
// One generic implementation, fieldOps, serves the four prime fields; gfOps
// is GF(2^64) with GF(2^128).
type arith[E, X any] interface {
	field() fri.Field
	// degree is [X : E], the number of E coordinates of an X.
	degree() int
	// rootOfUnity is gnark-crypto's generator of the 2^logN-th roots of
	// unity, the one its fft.Domain of that size (and so package prover's
	// domains) uses; GF(2^64) has none (its multiplicative group has odd
	// order).
	rootOfUnity(logN int) (E, error)

	fromUint(v uint64) E
	add(a, b E) E
	sub(a, b E) E
	mul(a, b E) E
	inv(a E) E // 1/a, a ≠ 0
	exp(a E, k uint64) E
	equal(a, b E) bool

	vadd(dst, a, b []E)
	vsub(dst, a, b []E)
	vmul(dst, a, b []E)
	vscale(dst, a []E, s E)    // dst[i] = a[i]·s
	vsubConst(dst, a []E, c E) // dst[i] = a[i] − c
	vinvert(dst, a []E)        // dst[i] = 1/a[i], every a[i] ≠ 0

	xadd(a, b X) X
	xsub(a, b X) X
	xmul(a, b X) X
	xinv(a X) X // 1/a, a ≠ 0
	xexp(a X, k uint64) X
	xequal(a, b X) bool
	xembed(a E) X
	// coords returns the degree() coordinates of *x over E, in memory: the
	// type's order (E4: B0.A0, B0.A1, B1.A0, B1.A1, the basis 1, u, v, u·v;
	// E2: A0, A1, the basis 1, u; GF(2^128): A0, A1, the basis 1, y; BN254:
	// x itself), which is also the order
	// of package prover's DrawExt and of the FRI layers' leaves.
	coords(x *X) []E
}

// baseOps, extOps and vecOps are the methods gnark-crypto's element, extension
// and vector types share, as constraints on their pointer types.
type baseOps[E any] interface {
	*E
	Add(x, y *E) *E
	Sub(x, y *E) *E
	Mul(x, y *E) *E
	Inverse(x *E) *E
	SetUint64(v uint64) *E
	Equal(x *E) bool
}

type extOps[X any] interface {
	*X
	Add(x, y *X) *X
	Sub(x, y *X) *X
	Mul(x, y *X) *X
	Inverse(x *X) *X
	Equal(x *X) bool
}

type vecOps[E any, V ~[]E] interface {
	*V
	Add(a, b V)
	Sub(a, b V)
	Mul(a, b V)
	ScalarMul(a V, b *E)
}

// fieldOps is arith on gnark-crypto's types: E with pointer type PE, X with
// PX, E's Vector V with PV (whose kernels are AVX-512 for BabyBear and
// KoalaBear where the CPU has it).
type fieldOps[E any, PE baseOps[E], X any, PX extOps[X], V ~[]E, PV vecOps[E, V]] struct {
	id          fri.Field
	generator   func(m uint64) (E, error)
	batchInvert func(a []E) []E
}

func arithOf[E fri.Element, X fri.Challenge]() (arith[E, X], error) {
	var a any
	switch any(*new(X)).(type) {
	case gf128.Element:
		a = gfOps{}
	case bbext.E4:
		a = fieldOps[babybear.Element, *babybear.Element, bbext.E4, *bbext.E4, babybear.Vector, *babybear.Vector]{
			fri.BabyBear, babybear.Generator, babybear.BatchInvert}
	case kbext.E4:
		a = fieldOps[koalabear.Element, *koalabear.Element, kbext.E4, *kbext.E4, koalabear.Vector, *koalabear.Vector]{
			fri.KoalaBear, koalabear.Generator, koalabear.BatchInvert}
	case glext.E2:
		a = fieldOps[goldilocks.Element, *goldilocks.Element, glext.E2, *glext.E2, goldilocks.Vector, *goldilocks.Vector]{
			fri.Goldilocks, goldilocks.Generator, goldilocks.BatchInvert}
	case fr.Element:
		a = fieldOps[fr.Element, *fr.Element, fr.Element, *fr.Element, fr.Vector, *fr.Vector]{
			fri.BN254, fr.Generator, fr.BatchInvert}
	}
	f, ok := a.(arith[E, X])
	if !ok {
		return nil, fmt.Errorf("stark: %T is not the challenge field of %T", *new(X), *new(E))
	}
	return f, nil
}

func (o fieldOps[E, PE, X, PX, V, PV]) field() fri.Field { return o.id }
func (o fieldOps[E, PE, X, PX, V, PV]) degree() int {
	return int(unsafe.Sizeof(*new(X)) / unsafe.Sizeof(*new(E)))
}
func (o fieldOps[E, PE, X, PX, V, PV]) rootOfUnity(logN int) (E, error) {
	return o.generator(1 << logN)
}

func (o fieldOps[E, PE, X, PX, V, PV]) fromUint(v uint64) E { var r E; PE(&r).SetUint64(v); return r }
func (o fieldOps[E, PE, X, PX, V, PV]) add(a, b E) E        { PE(&a).Add(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) sub(a, b E) E        { PE(&a).Sub(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) mul(a, b E) E        { PE(&a).Mul(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) inv(a E) E           { PE(&a).Inverse(&a); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) equal(a, b E) bool   { return PE(&a).Equal(&b) }
func (o fieldOps[E, PE, X, PX, V, PV]) exp(a E, k uint64) E {
	r := o.fromUint(1)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r = o.mul(r, a)
		}
		a = o.mul(a, a)
	}
	return r
}

func (o fieldOps[E, PE, X, PX, V, PV]) vadd(dst, a, b []E) { d := V(dst); PV(&d).Add(a, b) }
func (o fieldOps[E, PE, X, PX, V, PV]) vsub(dst, a, b []E) { d := V(dst); PV(&d).Sub(a, b) }
func (o fieldOps[E, PE, X, PX, V, PV]) vmul(dst, a, b []E) { d := V(dst); PV(&d).Mul(a, b) }
func (o fieldOps[E, PE, X, PX, V, PV]) vscale(dst, a []E, s E) {
	d := V(dst)
	PV(&d).ScalarMul(a, &s)
}
func (o fieldOps[E, PE, X, PX, V, PV]) vsubConst(dst, a []E, c E) {
	for i := range dst {
		PE(&dst[i]).Sub(&a[i], &c)
	}
}
func (o fieldOps[E, PE, X, PX, V, PV]) vinvert(dst, a []E) { copy(dst, o.batchInvert(a)) }

func (o fieldOps[E, PE, X, PX, V, PV]) xadd(a, b X) X      { PX(&a).Add(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) xsub(a, b X) X      { PX(&a).Sub(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) xmul(a, b X) X      { PX(&a).Mul(&a, &b); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) xinv(a X) X         { PX(&a).Inverse(&a); return a }
func (o fieldOps[E, PE, X, PX, V, PV]) xequal(a, b X) bool { return PX(&a).Equal(&b) }
func (o fieldOps[E, PE, X, PX, V, PV]) xexp(a X, k uint64) X {
	r := o.xembed(o.fromUint(1))
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r = o.xmul(r, a)
		}
		a = o.xmul(a, a)
	}
	return r
}
func (o fieldOps[E, PE, X, PX, V, PV]) xembed(a E) X {
	var x X
	o.coords(&x)[0] = a
	return x
}
func (o fieldOps[E, PE, X, PX, V, PV]) coords(x *X) []E {
	return unsafe.Slice((*E)(unsafe.Pointer(x)), o.degree())
}

// gfOps is arith on GF(2^64) (gf64, whose vector functions use VPCLMULQDQ
// where the CPU has it) with challenges in GF(2^128) (gf128). Addition and
// subtraction are both XOR; fromUint(v) is the element whose bits are v's
// (the polynomial Σ bit_i(v)·x^i), not an integer's image, which would be 0
// or 1.
type gfOps struct{}

func (gfOps) field() fri.Field { return fri.GF64 }
func (gfOps) degree() int      { return 2 }
func (gfOps) rootOfUnity(logN int) (gf64.Element, error) {
	return 0, fmt.Errorf("stark: GF(2^64) has no root of unity of order 2^%d", logN)
}

func (gfOps) fromUint(v uint64) gf64.Element               { return gf64.Element(v) }
func (gfOps) add(a, b gf64.Element) gf64.Element           { return a ^ b }
func (gfOps) sub(a, b gf64.Element) gf64.Element           { return a ^ b }
func (gfOps) mul(a, b gf64.Element) gf64.Element           { return gf64.Mul(a, b) }
func (gfOps) inv(a gf64.Element) gf64.Element              { return gf64.Inverse(a) }
func (gfOps) exp(a gf64.Element, k uint64) gf64.Element    { return gf64.Exp(a, k) }
func (gfOps) equal(a, b gf64.Element) bool                 { return a == b }
func (gfOps) vadd(dst, a, b []gf64.Element)                { gf64.AddVec(dst, a, b) }
func (gfOps) vsub(dst, a, b []gf64.Element)                { gf64.AddVec(dst, a, b) }
func (gfOps) vmul(dst, a, b []gf64.Element)                { gf64.MulVec(dst, a, b) }
func (gfOps) vscale(dst, a []gf64.Element, s gf64.Element) { gf64.ScaleVec(dst, a, s) }
func (gfOps) vinvert(dst, a []gf64.Element)                { gf64.BatchInverse(dst, a) }
func (gfOps) vsubConst(dst, a []gf64.Element, c gf64.Element) {
	for i := range dst {
		dst[i] = a[i] ^ c
	}
}

func (gfOps) xadd(a, b gf128.Element) gf128.Element        { return gf128.Add(a, b) }
func (gfOps) xsub(a, b gf128.Element) gf128.Element        { return gf128.Add(a, b) }
func (gfOps) xmul(a, b gf128.Element) gf128.Element        { return gf128.Mul(a, b) }
func (gfOps) xinv(a gf128.Element) gf128.Element           { return gf128.Inverse(a) }
func (gfOps) xexp(a gf128.Element, k uint64) gf128.Element { return gf128.Exp(a, k) }
func (gfOps) xequal(a, b gf128.Element) bool               { return a.Equal(b) }
func (gfOps) xembed(a gf64.Element) gf128.Element          { return gf128.Embed(a) }
func (gfOps) coords(x *gf128.Element) []gf64.Element {
	return unsafe.Slice(&x.A0, 2) // A0, A1: the struct's two fields in order
}
