package fri

import (
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
)

// Element is a trace field of the polynomial commitment: GF(2^64) or one of
// gnark-crypto's prime fields, in Montgomery form as gnark-crypto keeps them.
type Element interface {
	gf64.Element | Base
}

// Challenge is a challenge field: the codeword values of FRI and the
// opening points live there. GF(2^128) (package field/gf128) for GF(2^64),
// Goldilocks' E2, BabyBear's and KoalaBear's E4, BN254's fr itself.
type Challenge interface {
	gf128.Element | Ext
}

// alg is the scalar arithmetic the protocol needs of a pair (trace field E,
// challenge field X): X is a vector space of dimension deg over E, its
// elements deg consecutive E's in memory (A0, A1 for E2 and GF(2^128);
// B0.A0, B0.A1, B1.A0, B1.A1 for E4), the order of the leaf encoding.
type alg[E, X any] interface {
	field() Field
	deg() int
	emul(a, b E) E
	einv(a E) E // 1/a; a ≠ 0
	eone() E
	xadd(a, b X) X
	xsub(a, b X) X
	xmul(a, b X) X
	xinv(a X) X // 1/a; a ≠ 0
	xscale(a X, b E) X
	xembed(b E) X
}

// algFor returns the arithmetic of (E, X), or nil when X is not E's
// challenge field.
func algFor[E Element, X Challenge]() alg[E, X] {
	var e E
	var x X
	var a any
	switch any(e).(type) {
	case gf64.Element:
		if _, ok := any(x).(gf128.Element); ok {
			a = gfAlg{}
		}
	case babybear.Element:
		if _, ok := any(x).(bbext.E4); ok {
			a = primeAlg[babybear.Element, bbext.E4]{bbOps{}, BabyBear, 4}
		}
	case koalabear.Element:
		if _, ok := any(x).(kbext.E4); ok {
			a = primeAlg[koalabear.Element, kbext.E4]{kbOps{}, KoalaBear, 4}
		}
	case goldilocks.Element:
		if _, ok := any(x).(glext.E2); ok {
			a = primeAlg[goldilocks.Element, glext.E2]{glOps{}, Goldilocks, 2}
		}
	case fr.Element:
		if _, ok := any(x).(fr.Element); ok {
			a = primeAlg[fr.Element, fr.Element]{bnOps{}, BN254, 1}
		}
	}
	if a == nil {
		return nil
	}
	return a.(alg[E, X])
}

// primeAlg is alg over a prime field, on the fold's primeOps.
type primeAlg[F Base, X Ext] struct {
	o primeOps[F, X]
	f Field
	d int
}

func (p primeAlg[F, X]) kernel() any       { return p.o }
func (p primeAlg[F, X]) field() Field      { return p.f }
func (p primeAlg[F, X]) deg() int          { return p.d }
func (p primeAlg[F, X]) emul(a, b F) F     { return p.o.mul(a, b) }
func (p primeAlg[F, X]) einv(a F) F        { return p.o.inv(a) }
func (p primeAlg[F, X]) eone() F           { return p.o.fromUint(1) }
func (p primeAlg[F, X]) xadd(a, b X) X     { return p.o.xadd(a, b) }
func (p primeAlg[F, X]) xsub(a, b X) X     { return p.o.xsub(a, b) }
func (p primeAlg[F, X]) xmul(a, b X) X     { return p.o.xmul(a, b) }
func (p primeAlg[F, X]) xscale(a X, b F) X { return p.o.xscale(a, b) }
func (p primeAlg[F, X]) xembed(b F) X      { var z X; coordsOf[X, F](&z)[0] = b; return z }
func (p primeAlg[F, X]) xinv(a X) X        { return xinverse(a) }
func coordsOf[X, F any](x *X) []F {
	return unsafe.Slice((*F)(unsafe.Pointer(x)), unsafe.Sizeof(*x)/unsafe.Sizeof(*new(F)))
}

// xinverse inverts a challenge-field element with gnark-crypto's Inverse.
func xinverse[X any](a X) X {
	switch v := any(&a).(type) {
	case *bbext.E4:
		v.Inverse(v)
	case *kbext.E4:
		v.Inverse(v)
	case *glext.E2:
		v.Inverse(v)
	case *fr.Element:
		v.Inverse(v)
	}
	return a
}

// gfAlg is alg over GF(2^64) with values in GF(2^128).
type gfAlg struct{}

func (gfAlg) kernel() any                                          { return gfAlg{} }
func (gfAlg) field() Field                                         { return GF64 }
func (gfAlg) deg() int                                             { return 2 }
func (gfAlg) emul(a, b gf64.Element) gf64.Element                  { return gf64.Mul(a, b) }
func (gfAlg) einv(a gf64.Element) gf64.Element                     { return gf64.Inverse(a) }
func (gfAlg) eone() gf64.Element                                   { return 1 }
func (gfAlg) xadd(a, b gf128.Element) gf128.Element                { return gf128.Add(a, b) }
func (gfAlg) xsub(a, b gf128.Element) gf128.Element                { return gf128.Add(a, b) }
func (gfAlg) xmul(a, b gf128.Element) gf128.Element                { return gf128.Mul(a, b) }
func (gfAlg) xinv(a gf128.Element) gf128.Element                   { return gf128.Inverse(a) }
func (gfAlg) xscale(a gf128.Element, b gf64.Element) gf128.Element { return gf128.MulByBase(a, b) }
func (gfAlg) xembed(b gf64.Element) gf128.Element                  { return gf128.Embed(b) }

// xexp returns a^e in X by square and multiply.
func xexp[E, X any](o alg[E, X], a X, e uint64) X {
	r := o.xembed(o.eone())
	for i := 63; i >= 0; i-- {
		r = o.xmul(r, r)
		if e>>uint(i)&1 == 1 {
			r = o.xmul(r, a)
		}
	}
	return r
}

// eexp returns a^e in E.
func eexp[E, X any](o alg[E, X], a E, e uint64) E {
	r := o.eone()
	for i := 63; i >= 0; i-- {
		r = o.emul(r, r)
		if e>>uint(i)&1 == 1 {
			r = o.emul(r, a)
		}
	}
	return r
}
