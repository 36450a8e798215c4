package fermat

import (
	"errors"
	"math/big"
	"math/bits"
)

// Digits is the number of radix-r digits of an Element (k in the seed).
const Digits = 8

// R is the radix r = 2^63 + 2^34; the modulus is p = R^8 + 1.
const R uint64 = 1<<63 + 1<<34

// rInv is the Möller–Granlund reciprocal of R: ⌊(2^128−1)/R⌋ − 2^64. R has
// its top bit set, so it is already normalised for the division by a
// precomputed inverse (divR).
var rInv = func() uint64 {
	q, _ := bits.Div64(^R, ^uint64(0), R)
	return q
}()

// Element is an element of Z/pZ, p = r^8 + 1, r = 2^63 + 2^34, in the
// seed's radix-r form: e[i] is the digit of r^i, so the value is
// Σ e[i]·r^i. The form is canonical: either every digit is below r, or
// e[7] = r and every other digit is 0 (the single element p−1 = r^8 ≡ −1).
// The zero value is 0. See the package documentation.
type Element [Digits]uint64

// ErrNotCanonical is returned by the transforms for an Element whose digits
// are not in the canonical form documented on Element.
var ErrNotCanonical = errors.New("fermat: element not in canonical radix-r form")

var modulus = func() *big.Int {
	rb := new(big.Int).SetUint64(R)
	p := new(big.Int).Exp(rb, big.NewInt(Digits), nil)
	return p.Add(p, big.NewInt(1))
}()

var radix = new(big.Int).SetUint64(R)

// Modulus returns a new copy of p = (2^63 + 2^34)^8 + 1.
func Modulus() *big.Int { return new(big.Int).Set(modulus) }

// IsCanonical reports whether z is in the canonical form documented on
// Element. Every method returns canonical elements when given canonical ones.
func (z *Element) IsCanonical() bool {
	if z[7] == R {
		return z[0]|z[1]|z[2]|z[3]|z[4]|z[5]|z[6] == 0
	}
	for _, d := range z {
		if d >= R {
			return false
		}
	}
	return true
}

// SetZero sets z to 0 and returns z.
func (z *Element) SetZero() *Element { *z = Element{}; return z }

// SetOne sets z to 1 and returns z.
func (z *Element) SetOne() *Element { *z = Element{1}; return z }

// SetUint64 sets z to v mod p and returns z.
func (z *Element) SetUint64(v uint64) *Element {
	*z = Element{}
	if v >= R {
		z[0], z[1] = v-R, 1
	} else {
		z[0] = v
	}
	return z
}

// SetRPow sets z to r^i (any integer i; r has order 16) and returns z.
func (z *Element) SetRPow(i int) *Element {
	one := Element{1}
	return z.MulByRPow(&one, i)
}

// SetBig sets z to v mod p (v may be negative or exceed p) and returns z.
// v is not modified.
func (z *Element) SetBig(v *big.Int) *Element {
	t := new(big.Int).Mod(v, modulus)
	*z = Element{}
	if t.Cmp(pMinus1) == 0 {
		z[7] = R
		return z
	}
	q, d := new(big.Int), new(big.Int)
	for i := 0; i < Digits && t.Sign() != 0; i++ {
		q.QuoRem(t, radix, d)
		z[i] = d.Uint64()
		t, q = q, t
	}
	return z
}

var pMinus1 = new(big.Int).Sub(modulus, big.NewInt(1))

// Big returns the value of z in [0, p) as a new *big.Int.
func (z *Element) Big() *big.Int {
	v := new(big.Int)
	d := new(big.Int)
	for i := Digits - 1; i >= 0; i-- {
		v.Mul(v, radix)
		v.Add(v, d.SetUint64(z[i]))
	}
	return v
}

// String returns the decimal value of z.
func (z *Element) String() string { return z.Big().String() }

// Equal reports whether z and x are the same element (both canonical).
func (z *Element) Equal(x *Element) bool { return *z == *x }

// IsZero reports whether z is 0.
func (z *Element) IsZero() bool { return *z == Element{} }

// Add sets z = x + y mod p and returns z. z may alias x or y.
func (z *Element) Add(x, y *Element) *Element {
	var d Element
	var c uint64
	for i := 0; i < Digits-1; i++ {
		s, co := bits.Add64(x[i], y[i], c)
		// x[i]+y[i]+c < 2r < 2^65: at most one r to take away, when the
		// sum carried out of the word or s ≥ r (no borrow from s − r).
		// Branch-free: the condition is random data.
		t, bo := bits.Sub64(s, R, 0)
		c = co | (bo ^ 1)
		m := -c
		d[i] = t&m | s&^m
	}
	// Top digits may be r (the element p−1): the sum is below 2r+1.
	s, co := bits.Add64(x[7], y[7], c)
	var k uint64
	for co != 0 || s >= R {
		var b uint64
		s, b = bits.Sub64(s, R, 0)
		co -= b
		k++
	}
	d[7] = s
	// value = D + k·r^8 ≡ D − k.
	finish(&d, k, 0)
	*z = d
	return z
}

// Sub sets z = x − y mod p and returns z. z may alias x or y.
func (z *Element) Sub(x, y *Element) *Element {
	var d Element
	var b uint64
	for i := 0; i < Digits-1; i++ {
		s, bo := bits.Sub64(x[i], y[i], b)
		d[i], b = s+(R&-bo), bo
	}
	s, bo := bits.Sub64(x[7], y[7], b)
	switch {
	case bo != 0: // x7 − y7 − b ∈ [−r, 0): value D − r^8 ≡ D + 1
		d[7] = s + R
		addOne(&d)
	case s >= R: // only r − 0 − 0: value D + r^8 ≡ D − 1
		d[7] = s - R
		finish(&d, 1, 0)
	default:
		d[7] = s
	}
	*z = d
	return z
}

// Neg sets z = −x mod p and returns z.
func (z *Element) Neg(x *Element) *Element {
	var zero Element
	return z.Sub(&zero, x)
}

// Double sets z = 2x mod p and returns z.
func (z *Element) Double(x *Element) *Element { return z.Add(x, x) }

// addOne adds 1 to d (digits below r, value D < r^8); D+1 = r^8 becomes the
// canonical form of p−1.
func addOne(d *Element) {
	for i := 0; i < Digits; i++ {
		if d[i]+1 < R {
			d[i]++
			return
		}
		d[i] = 0
	}
	*d = Element{7: R}
}

// finish sets d to the canonical form of D − (c1·r + c0) mod p, where every
// digit of d is below r and c0, c1 < r.
func finish(d *Element, c0, c1 uint64) {
	if c0|c1 == 0 {
		return
	}
	s, b := bits.Sub64(d[0], c0, 0)
	if b != 0 {
		s += R
	}
	d[0] = s
	s, b = bits.Sub64(d[1], c1, b)
	if b != 0 {
		s += R
	}
	d[1] = s
	for i := 2; i < Digits && b != 0; i++ {
		if d[i] != 0 {
			d[i]--
			b = 0
		} else {
			d[i] = R - 1
		}
	}
	if b != 0 {
		// D − c + r^8 is what the digits hold; the value is that plus 1.
		addOne(d)
	}
}

// divR returns ⌊(hi·2^64 + lo)/r⌋ and the remainder, for hi < r, by the
// Möller–Granlund division by a precomputed reciprocal (two products, no
// hardware division). It behaves like bits.Div64(hi, lo, R).
func divR(hi, lo uint64) (q, rem uint64) {
	q1, q0 := bits.Mul64(rInv, hi)
	var c uint64
	q0, c = bits.Add64(q0, lo, 0)
	q1, _ = bits.Add64(q1, hi, c)
	q1++
	rem = lo - q1*R
	if rem > q0 {
		q1--
		rem += R
	}
	if rem >= R {
		q1++
		rem -= R
	}
	return q1, rem
}

// The negacyclic product's coefficient i is P_i − N_i with P_i, N_i < 8r².
// Adding bias_i = 2^67·(r+1) (i = 0) or 2^67·(r−1) (i > 0), whose weighted sum
// Σ bias_i·r^i is 2^67·p ≡ 0, keeps every coefficient positive and below
// 2^131 (three words).
var bias0, bias = func() (b0, b [3]uint64) {
	hi, lo := bits.Mul64(1<<3, R+1) // 2^67·(r+1) = (r+1)·8·2^64
	b0 = [3]uint64{0, lo, hi}
	hi, lo = bits.Mul64(1<<3, R-1)
	b = [3]uint64{0, lo, hi}
	return
}()

// Mul sets z = x·y mod p and returns z. z may alias x or y.
//
// It follows the seed's Algorithm 3.3: the product of the digit polynomials
// modulo T^8 + 1 (64 word products into three-word accumulators), then the
// carries in radix r (two divisions by r per digit, by reciprocal), then the
// carry out of the top digit subtracted (r^8 ≡ −1).
func (z *Element) Mul(x, y *Element) *Element {
	// Product scanning: coefficient k of the negacyclic product, P_k − N_k
	// plus its bias, is summed in registers, then divided by r at once.
	var d Element
	var c0, c1 uint64 // carry into digit k, below 2^70
	for k := 0; k < Digits; k++ {
		b := &bias
		if k == 0 {
			b = &bias0
		}
		a0, a1, a2 := b[0], b[1], b[2]
		for i := 0; i <= k; i++ {
			hi, lo := bits.Mul64(x[i], y[k-i])
			var c uint64
			a0, c = bits.Add64(a0, lo, 0)
			a1, c = bits.Add64(a1, hi, c)
			a2 += c
		}
		for i := k + 1; i < Digits; i++ {
			hi, lo := bits.Mul64(x[i], y[k+Digits-i])
			var c uint64
			a0, c = bits.Sub64(a0, lo, 0)
			a1, c = bits.Sub64(a1, hi, c)
			a2 -= c
		}
		var c uint64
		a0, c = bits.Add64(a0, c0, 0)
		a1, c = bits.Add64(a1, c1, c)
		a2 += c
		q1, rem := divR(a2, a1)
		q0, dig := divR(rem, a0)
		d[k] = dig
		c0, c1 = q0, q1
	}
	// value = D + C·r^8 ≡ D − C with C = c1·2^64 + c0 < 2^70 < r².
	q, rem := divR(c1, c0)
	finish(&d, rem, q)
	*z = d
	return z
}

// Square sets z = x² mod p and returns z.
func (z *Element) Square(x *Element) *Element { return z.Mul(x, x) }

// MulByRPow sets z = x·r^i mod p and returns z, for any integer i (r has
// order 16 and r^8 = −1). It costs one subtraction: for 0 < i < 8 the digits
// of x shifted up by i places minus the i digits that wrap past r^8.
func (z *Element) MulByRPow(x *Element, i int) *Element {
	i &= 2*Digits - 1
	neg := i >= Digits
	s := i & (Digits - 1)
	if x[7] == R { // x = −1: the result is ∓r^s
		var e Element
		e[s] = 1
		if neg {
			*z = e
		} else {
			z.Neg(&e)
		}
		return z
	}
	if s == 0 {
		if neg {
			return z.Neg(x)
		}
		*z = *x
		return z
	}
	var a, b Element // a: digits shifted up, b: digits wrapped below
	copy(a[s:], x[:Digits-s])
	copy(b[:s], x[Digits-s:])
	if neg {
		return z.Sub(&b, &a)
	}
	return z.Sub(&a, &b)
}

// subMulByRPow sets z = (x − y)·r^s for 0 < s < 8 with one subtraction:
// x·r^s = X↑ − X↓ (digits moved up s places, minus the s that wrap past
// r^8), so (x − y)·r^s = (X↑ + Y↓) − (Y↑ + X↓), and each sum is a merge of
// digits at disjoint places, no arithmetic. It falls back to Sub and
// MulByRPow when x or y is p−1 (digit r).
func (z *Element) subMulByRPow(x, y *Element, s int) *Element {
	if x[7] == R || y[7] == R {
		var d Element
		d.Sub(x, y)
		return z.MulByRPow(&d, s)
	}
	var a, b Element
	copy(a[s:], x[:Digits-s])
	copy(a[:s], y[Digits-s:])
	copy(b[s:], y[:Digits-s])
	copy(b[:s], x[Digits-s:])
	return z.Sub(&a, &b)
}

// Exp sets z = x^e mod p and returns z; a negative e raises 1/x (0 for
// x = 0) to −e.
func (z *Element) Exp(x *Element, e *big.Int) *Element {
	base := *x
	if e.Sign() < 0 {
		base.Inverse(&base)
		e = new(big.Int).Neg(e)
	}
	var res Element
	res.SetOne()
	for i := e.BitLen() - 1; i >= 0; i-- {
		res.Square(&res)
		if e.Bit(i) == 1 {
			res.Mul(&res, &base)
		}
	}
	*z = res
	return z
}

// Inverse sets z = 1/x mod p (0 for x = 0) and returns z.
func (z *Element) Inverse(x *Element) *Element {
	if x.IsZero() {
		return z.SetZero()
	}
	v := x.Big()
	v.ModInverse(v, modulus)
	return z.SetBig(v)
}
