package gf64

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Element is an element of GF(2^64): bit i is the coefficient of x^i.
type Element uint64

const (
	// Zero is the additive identity.
	Zero Element = 0
	// One is the multiplicative identity.
	One Element = 1
	// X is the element x, the class of the indeterminate; it generates the
	// field over GF(2).
	X Element = 2
)

// Poly is the low part of the reduction polynomial x^64 + x^4 + x^3 + x + 1.
const Poly = 0x1b

// traceMask has bit i set where Tr(x^i) = 1. TestTraceMask recomputes it.
const traceMask = 0xa000000000000000

// Add returns a + b (XOR).
func Add(a, b Element) Element { return a ^ b }

// Mul returns a · b.
func Mul(a, b Element) Element { return mul(a, b) }

// Square returns a².
func Square(a Element) Element { return squareGeneric(a) }

// SquareN returns a^(2^n), n repeated squarings.
func SquareN(a Element, n int) Element { return squareN(a, n) }

// Inverse returns a⁻¹. Inverse(0) returns 0: the map a ↦ a^(2^64−2) is used
// for every input, which is the inverse for a ≠ 0 and sends 0 to 0. Callers
// that must reject zero should check IsZero first.
func Inverse(a Element) Element {
	// Itoh–Tsujii: a^(2^64-2) = (a^(2^63-1))^2, with a^(2^k-1) built by the
	// chain 1, 2, 3, 6, 7, 14, 15, 30, 31, 62, 63.
	x1 := a
	x2 := mul(squareGeneric(x1), x1)   // 2^2-1
	x3 := mul(squareGeneric(x2), x1)   // 2^3-1
	x6 := mul(SquareN(x3, 3), x3)      // 2^6-1
	x7 := mul(squareGeneric(x6), x1)   // 2^7-1
	x14 := mul(SquareN(x7, 7), x7)     // 2^14-1
	x15 := mul(squareGeneric(x14), x1) // 2^15-1
	x30 := mul(SquareN(x15, 15), x15)  // 2^30-1
	x31 := mul(squareGeneric(x30), x1) // 2^31-1
	x62 := mul(SquareN(x31, 31), x31)  // 2^62-1
	x63 := mul(squareGeneric(x62), x1) // 2^63-1
	return squareGeneric(x63)
}

// Div returns a / b. Division by zero returns 0 (see Inverse).
func Div(a, b Element) Element { return mul(a, Inverse(b)) }

// Exp returns a^e, with a^0 = 1 for every a (0^0 = 1).
func Exp(a Element, e uint64) Element {
	r := One
	for e != 0 {
		if e&1 == 1 {
			r = mul(r, a)
		}
		a = squareGeneric(a)
		e >>= 1
	}
	return r
}

// Sqrt returns the unique b with b² = a, which is a^(2^63).
func Sqrt(a Element) Element { return SquareN(a, 63) }

// Trace returns the absolute trace Tr(a) = a + a² + a⁴ + … + a^(2^63), which
// lies in GF(2) = {0, 1}. Tr is GF(2)-linear and takes each value on half the
// field.
func Trace(a Element) Element {
	v := uint64(a) & traceMask
	v ^= v >> 32
	v ^= v >> 16
	v ^= v >> 8
	v ^= v >> 4
	v ^= v >> 2
	v ^= v >> 1
	return Element(v & 1)
}

// IsZero reports whether a = 0.
func (a Element) IsZero() bool { return a == 0 }

// Equal reports whether a = b.
func (a Element) Equal(b Element) bool { return a == b }

// Uint64 returns a's bits as an integer.
func (a Element) Uint64() uint64 { return uint64(a) }

// String returns a as 16 lowercase hexadecimal digits with a 0x prefix, the
// coefficient of x^63 first.
func (a Element) String() string {
	var buf [18]byte
	buf[0], buf[1] = '0', 'x'
	var raw [8]byte
	binary.BigEndian.PutUint64(raw[:], uint64(a))
	hex.Encode(buf[2:], raw[:])
	return string(buf[:])
}

// MarshalText encodes a as String does.
func (a Element) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ErrSyntax is returned (wrapped) when text does not encode an element.
var ErrSyntax = errors.New("gf64: invalid element syntax")

// UnmarshalText decodes a hexadecimal element with an optional 0x or 0X
// prefix and at most 16 digits, the form String and MarshalText write.
func (a *Element) UnmarshalText(text []byte) error {
	s := string(text)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if len(s) == 0 || len(s) > 16 {
		return fmt.Errorf("%w: %q: want 1 to 16 hexadecimal digits", ErrSyntax, text)
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrSyntax, text, err)
	}
	*a = Element(v)
	return nil
}

// Bytes returns a as 8 bytes, little-endian: byte 0 holds the coefficients of
// x^0..x^7.
func (a Element) Bytes() [8]byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(a))
	return b
}

// SetBytes sets a from 8 little-endian bytes, the encoding of Bytes. Any other
// length is an error and leaves a unchanged.
func (a *Element) SetBytes(b []byte) error {
	if len(b) != 8 {
		return fmt.Errorf("gf64: SetBytes needs 8 bytes, got %d", len(b))
	}
	*a = Element(binary.LittleEndian.Uint64(b))
	return nil
}

// Random returns an element read from r: 8 bytes, little-endian. With a
// uniform source (crypto/rand.Reader, a seeded math/rand/v2 ChaCha8) the
// element is uniform over the field.
func Random(r io.Reader) (Element, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, fmt.Errorf("gf64: reading random element: %w", err)
	}
	return Element(binary.LittleEndian.Uint64(b[:])), nil
}

// RandomVec fills dst with elements read from r, as Random does.
func RandomVec(dst []Element, r io.Reader) error {
	var buf [512]byte
	for len(dst) > 0 {
		n := min(len(dst), len(buf)/8)
		if _, err := io.ReadFull(r, buf[:8*n]); err != nil {
			return fmt.Errorf("gf64: reading random elements: %w", err)
		}
		for i := range n {
			dst[i] = Element(binary.LittleEndian.Uint64(buf[8*i:]))
		}
		dst = dst[n:]
	}
	return nil
}

func checkLen(op string, n1, n2 int) {
	if n1 != n2 {
		panic(fmt.Sprintf("gf64: %s: length mismatch: %d and %d", op, n1, n2))
	}
}

// MulVec sets dst[i] = a[i] · b[i]. dst may alias a or b.
func MulVec(dst, a, b []Element) {
	checkLen("MulVec", len(dst), len(a))
	checkLen("MulVec", len(dst), len(b))
	mulVec(dst, a, b)
}

// ScaleVec sets dst[i] = a[i] · c. dst may alias a.
func ScaleVec(dst, a []Element, c Element) {
	checkLen("ScaleVec", len(dst), len(a))
	scaleVec(dst, a, c)
}

// MulAddVec sets dst[i] ^= a[i] · c, the additive-FFT butterfly. dst may
// alias a (then dst[i] = dst[i]·(c+1)).
func MulAddVec(dst, a []Element, c Element) {
	checkLen("MulAddVec", len(dst), len(a))
	mulAddVec(dst, a, c)
}

// AddVec sets dst[i] = a[i] + b[i]. dst may alias a or b.
func AddVec(dst, a, b []Element) {
	checkLen("AddVec", len(dst), len(a))
	checkLen("AddVec", len(dst), len(b))
	addVecGeneric(dst, a, b)
}

// BatchInverse sets dst[i] = a[i]⁻¹ using Montgomery's trick: about three
// multiplications per element and one field inversion per block of
// batchInvBlock elements. Zeros are allowed: where a[i] = 0, dst[i] = 0 (as
// Inverse(0) = 0) and every other entry is still inverted. dst may alias a. It
// returns the number of zero entries, so callers that must reject zeros can
// check for a non-zero count.
func BatchInverse(dst, a []Element) int {
	checkLen("BatchInverse", len(dst), len(a))
	zeros := 0
	var prefix [batchInvBlock]Element
	for start := 0; start < len(a); start += batchInvBlock {
		end := min(start+batchInvBlock, len(a))
		zeros += batchInverseBlock(dst[start:end], a[start:end], prefix[:end-start])
	}
	return zeros
}

const batchInvBlock = 256

func batchInverseBlock(dst, a, prefix []Element) int {
	acc := One
	zeros := 0
	for i, v := range a {
		prefix[i] = acc
		if v == 0 {
			zeros++
			continue
		}
		acc = Mul(acc, v)
	}
	inv := Inverse(acc) // inverse of the product of the non-zero entries
	for i := len(a) - 1; i >= 0; i-- {
		v := a[i]
		if v == 0 {
			dst[i] = 0
			continue
		}
		dst[i] = Mul(inv, prefix[i])
		inv = Mul(inv, v)
	}
	return zeros
}

// Butterfly applies the forward additive-FFT butterfly to every pair:
// u[i] += c·v[i], then v[i] += u[i]. u and v must not overlap.
func Butterfly(u, v []Element, c Element) {
	checkLen("Butterfly", len(u), len(v))
	butterfly(u, v, c)
}

// InvButterfly undoes Butterfly: v[i] += u[i], then u[i] += c·v[i]. u and v
// must not overlap.
func InvButterfly(u, v []Element, c Element) {
	checkLen("InvButterfly", len(u), len(v))
	invButterfly(u, v, c)
}
