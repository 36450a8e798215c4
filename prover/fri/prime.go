package fri

import (
	"fmt"
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
)

// Base is the set of prime trace fields whose codewords live on
// multiplicative cosets: gnark-crypto's element types.
type Base interface {
	babybear.Element | koalabear.Element | goldilocks.Element | fr.Element
}

// Ext is the set of challenge fields of the prime trace fields: BabyBear
// and KoalaBear take their E4, Goldilocks its E2, BN254 the field itself.
// FoldCoset and FoldCosetAt accept only the matching pairs (ErrField).
type Ext interface {
	bbext.E4 | kbext.E4 | glext.E2 | fr.Element
}

// primeOps is the arithmetic the prime folds need: the base field F of the
// domain points and the challenge field X of the values.
type primeOps[F, X any] interface {
	mul(a, b F) F
	inv(a F) F // 1/a; a ≠ 0
	exp(a F, e uint64) F
	fromUint(v uint64) F
	isZero(a F) bool
	isOne(a F) bool
	xadd(a, b X) X
	xsub(a, b X) X
	xmul(a, b X) X
	xscale(a X, b F) X // a·b
	vecOps[F, X]
}

type bbOps struct{}

func (bbOps) mul(a, b babybear.Element) babybear.Element { a.Mul(&a, &b); return a }
func (bbOps) inv(a babybear.Element) babybear.Element    { a.Inverse(&a); return a }
func (bbOps) exp(a babybear.Element, e uint64) babybear.Element {
	var one babybear.Element
	one.SetOne()
	return expBy(a, one, e, func(x, y babybear.Element) babybear.Element { x.Mul(&x, &y); return x })
}
func (bbOps) fromUint(v uint64) babybear.Element             { var z babybear.Element; z.SetUint64(v); return z }
func (bbOps) isZero(a babybear.Element) bool                 { return a.IsZero() }
func (bbOps) isOne(a babybear.Element) bool                  { return a.IsOne() }
func (bbOps) xadd(a, b bbext.E4) bbext.E4                    { a.Add(&a, &b); return a }
func (bbOps) xsub(a, b bbext.E4) bbext.E4                    { a.Sub(&a, &b); return a }
func (bbOps) xmul(a, b bbext.E4) bbext.E4                    { a.Mul(&a, &b); return a }
func (bbOps) xscale(a bbext.E4, b babybear.Element) bbext.E4 { a.MulByElement(&a, &b); return a }

type kbOps struct{}

func (kbOps) mul(a, b koalabear.Element) koalabear.Element { a.Mul(&a, &b); return a }
func (kbOps) inv(a koalabear.Element) koalabear.Element    { a.Inverse(&a); return a }
func (kbOps) exp(a koalabear.Element, e uint64) koalabear.Element {
	var one koalabear.Element
	one.SetOne()
	return expBy(a, one, e, func(x, y koalabear.Element) koalabear.Element { x.Mul(&x, &y); return x })
}
func (kbOps) fromUint(v uint64) koalabear.Element             { var z koalabear.Element; z.SetUint64(v); return z }
func (kbOps) isZero(a koalabear.Element) bool                 { return a.IsZero() }
func (kbOps) isOne(a koalabear.Element) bool                  { return a.IsOne() }
func (kbOps) xadd(a, b kbext.E4) kbext.E4                     { a.Add(&a, &b); return a }
func (kbOps) xsub(a, b kbext.E4) kbext.E4                     { a.Sub(&a, &b); return a }
func (kbOps) xmul(a, b kbext.E4) kbext.E4                     { a.Mul(&a, &b); return a }
func (kbOps) xscale(a kbext.E4, b koalabear.Element) kbext.E4 { a.MulByElement(&a, &b); return a }

type glOps struct{}

func (glOps) mul(a, b goldilocks.Element) goldilocks.Element { a.Mul(&a, &b); return a }
func (glOps) inv(a goldilocks.Element) goldilocks.Element    { a.Inverse(&a); return a }
func (glOps) exp(a goldilocks.Element, e uint64) goldilocks.Element {
	var one goldilocks.Element
	one.SetOne()
	return expBy(a, one, e, func(x, y goldilocks.Element) goldilocks.Element { x.Mul(&x, &y); return x })
}
func (glOps) fromUint(v uint64) goldilocks.Element {
	var z goldilocks.Element
	z.SetUint64(v)
	return z
}
func (glOps) isZero(a goldilocks.Element) bool                 { return a.IsZero() }
func (glOps) isOne(a goldilocks.Element) bool                  { return a.IsOne() }
func (glOps) xadd(a, b glext.E2) glext.E2                      { a.Add(&a, &b); return a }
func (glOps) xsub(a, b glext.E2) glext.E2                      { a.Sub(&a, &b); return a }
func (glOps) xmul(a, b glext.E2) glext.E2                      { a.Mul(&a, &b); return a }
func (glOps) xscale(a glext.E2, b goldilocks.Element) glext.E2 { a.MulByElement(&a, &b); return a }

type bnOps struct{}

func (bnOps) mul(a, b fr.Element) fr.Element { a.Mul(&a, &b); return a }
func (bnOps) inv(a fr.Element) fr.Element    { a.Inverse(&a); return a }
func (bnOps) exp(a fr.Element, e uint64) fr.Element {
	var one fr.Element
	one.SetOne()
	return expBy(a, one, e, func(x, y fr.Element) fr.Element { x.Mul(&x, &y); return x })
}
func (bnOps) fromUint(v uint64) fr.Element                 { var z fr.Element; z.SetUint64(v); return z }
func (bnOps) isZero(a fr.Element) bool                     { return a.IsZero() }
func (bnOps) isOne(a fr.Element) bool                      { return a.IsOne() }
func (bnOps) xadd(a, b fr.Element) fr.Element              { a.Add(&a, &b); return a }
func (bnOps) xsub(a, b fr.Element) fr.Element              { a.Sub(&a, &b); return a }
func (bnOps) xmul(a, b fr.Element) fr.Element              { a.Mul(&a, &b); return a }
func (bnOps) xscale(a fr.Element, b fr.Element) fr.Element { a.Mul(&a, &b); return a }

// expBy is square-and-multiply with a uint64 exponent (allocation-free,
// unlike the elements' big.Int Exp); one is the field's 1.
func expBy[F any](a, one F, e uint64, mul func(x, y F) F) F {
	r := one
	for i := bits.Len64(e) - 1; i >= 0; i-- {
		r = mul(r, r)
		if e>>uint(i)&1 == 1 {
			r = mul(r, a)
		}
	}
	return r
}

// opsFor returns the arithmetic of the pair (F, X), or an error wrapping
// ErrField when X is not F's challenge field.
func opsFor[F Base, X Ext]() (primeOps[F, X], error) {
	var f F
	var x X
	var o any
	switch any(f).(type) {
	case babybear.Element:
		if _, ok := any(x).(bbext.E4); ok {
			o = bbOps{}
		}
	case koalabear.Element:
		if _, ok := any(x).(kbext.E4); ok {
			o = kbOps{}
		}
	case goldilocks.Element:
		if _, ok := any(x).(glext.E2); ok {
			o = glOps{}
		}
	case fr.Element:
		if _, ok := any(x).(fr.Element); ok {
			o = bnOps{}
		}
	}
	if o == nil {
		return nil, fmt.Errorf("fri: %T values do not belong to %T domains: %w", x, f, ErrField)
	}
	return o.(primeOps[F, X]), nil
}
