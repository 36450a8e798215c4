package gf128

import (
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Element is a0 + a1·y in GF(2^128) = GF(2^64)[y] / (y² + y + C), with a0
// and a1 elements of gf64's GF(2^64). The zero value is 0.
type Element struct {
	A0, A1 gf64.Element
}

// C is the constant term of the defining polynomial y² + y + C: x^63, an
// element of absolute trace 1 (so the polynomial has no root in GF(2^64) and
// is irreducible), and the one of lowest weight whose product is a shift.
const C = gf64.Element(1 << 63)

var (
	// Zero is the additive identity.
	Zero = Element{}
	// One is the multiplicative identity.
	One = Element{A0: 1}
	// Y is the class of y, a root of y² + y + C.
	Y = Element{A1: 1}
)

// Embed returns b as an element of GF(2^128): b + 0·y. It is a ring
// homomorphism: Mul(Embed(a), Embed(b)) = Embed(gf64.Mul(a, b)).
func Embed(b gf64.Element) Element { return Element{A0: b} }

// Project returns a as an element of GF(2^64) and true when a lies in the
// subfield (a1 = 0); otherwise 0 and false.
func Project(a Element) (gf64.Element, bool) {
	if a.A1 != 0 {
		return 0, false
	}
	return a.A0, true
}

// Add returns a + b (XOR of the coefficients).
func Add(a, b Element) Element { return Element{a.A0 ^ b.A0, a.A1 ^ b.A1} }

// Mul returns a · b by Karatsuba: three GF(2^64) products.
//
//	(a0 + a1 y)(b0 + b1 y) = (m0 + C·m1) + (m2 + m0) y,
//	m0 = a0 b0, m1 = a1 b1, m2 = (a0 + a1)(b0 + b1).
func Mul(a, b Element) Element { return mulGeneric(a, b) }

func mulGeneric(a, b Element) Element {
	m0 := gf64.Mul(a.A0, b.A0)
	m1 := gf64.Mul(a.A1, b.A1)
	m2 := gf64.Mul(a.A0^a.A1, b.A0^b.A1)
	return Element{m0 ^ gf64.Mul(m1, C), m2 ^ m0}
}

// MulByBase returns a · b for b in GF(2^64): two GF(2^64) products.
func MulByBase(a Element, b gf64.Element) Element {
	return Element{gf64.Mul(a.A0, b), gf64.Mul(a.A1, b)}
}

// Square returns a² = (a0² + C·a1²) + a1² y.
func Square(a Element) Element {
	s1 := gf64.Square(a.A1)
	return Element{gf64.Square(a.A0) ^ gf64.Mul(s1, C), s1}
}

// Conjugate returns the Frobenius image a^(2^64) = (a0 + a1) + a1 y, which
// sends y to the other root y + 1 and fixes GF(2^64).
func Conjugate(a Element) Element { return Element{a.A0 ^ a.A1, a.A1} }

// Norm returns a · Conjugate(a) = a0² + a0 a1 + C a1², an element of GF(2^64).
func Norm(a Element) gf64.Element {
	return gf64.Square(a.A0) ^ gf64.Mul(a.A0, a.A1) ^ gf64.Mul(gf64.Square(a.A1), C)
}

// Inverse returns a⁻¹ = Conjugate(a) / Norm(a). Inverse(0) returns 0, as
// gf64.Inverse does.
func Inverse(a Element) Element {
	return MulByBase(Conjugate(a), gf64.Inverse(Norm(a)))
}

// IsZero reports whether a = 0.
func (a Element) IsZero() bool { return a.A0 == 0 && a.A1 == 0 }
