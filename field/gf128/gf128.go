package gf128

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Element is a0 + a1·y in GF(2^128) = GF(2^64)[y] / (y² + y + C), with a0
// and a1 elements of gf64's GF(2^64). The zero value is 0.
type Element struct {
	A0, A1 gf64.Element
}

// C is the constant term of the defining polynomial y² + y + C: x^63, an
// element of absolute trace 1 (so the polynomial has no root in GF(2^64) and
// is irreducible) and of weight one, so that a product by C is a shift.
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

// Sub returns a − b, which is a + b: the field has characteristic 2.
func Sub(a, b Element) Element { return Add(a, b) }

// Mul returns a · b:
//
//	(a0 + a1 y)(b0 + b1 y) = (m0 + C·m1) + (m2 + m0) y,
//	m0 = a0 b0, m1 = a1 b1, m2 = (a0 + a1)(b0 + b1),
//
// three GF(2^64) products (Karatsuba), which is what the generic code and
// the vector kernels compute; the scalar assembly forms the four carry-less
// products a_i b_j instead, which is shorter for a single element.
func Mul(a, b Element) Element { return mul(a, b) }

// MulByBase returns a · b for b in GF(2^64): two GF(2^64) products.
func MulByBase(a Element, b gf64.Element) Element {
	return Element{gf64.Mul(a.A0, b), gf64.Mul(a.A1, b)}
}

// Square returns a² = (a0² + C·a1²) + a1² y.
func Square(a Element) Element {
	s1 := gf64.Square(a.A1)
	return Element{gf64.Square(a.A0) ^ mulByC(s1), s1}
}

// Exp returns a^e, with a^0 = 1 for every a (0^0 = 1). It takes time that
// depends on e.
func Exp(a Element, e uint64) Element {
	r := One
	for e != 0 {
		if e&1 == 1 {
			r = mul(r, a)
		}
		a = Square(a)
		e >>= 1
	}
	return r
}

// Conjugate returns the Frobenius image a^(2^64) = (a0 + a1) + a1 y, which
// sends y to the other root y + 1 and fixes GF(2^64).
func Conjugate(a Element) Element { return Element{a.A0 ^ a.A1, a.A1} }

// Norm returns a · Conjugate(a) = a0² + a0 a1 + C a1², an element of GF(2^64).
func Norm(a Element) gf64.Element {
	return gf64.Square(a.A0) ^ gf64.Mul(a.A0, a.A1) ^ mulByC(gf64.Square(a.A1))
}

// Inverse returns a⁻¹ = Conjugate(a) / Norm(a). Inverse(0) returns 0, as
// gf64.Inverse does.
func Inverse(a Element) Element {
	return MulByBase(Conjugate(a), gf64.Inverse(Norm(a)))
}

// Div returns a / b. Division by zero returns 0 (see Inverse).
func Div(a, b Element) Element { return mul(a, Inverse(b)) }

// IsZero reports whether a = 0.
func (a Element) IsZero() bool { return a.A0 == 0 && a.A1 == 0 }

// Equal reports whether a = b.
func (a Element) Equal(b Element) bool { return a == b }

// String returns a as "0x<a0>+0x<a1>*y", each coefficient as gf64 prints it
// (16 lowercase hexadecimal digits, the coefficient of x^63 first): y is
// "0x0000000000000000+0x0000000000000001*y".
func (a Element) String() string {
	return a.A0.String() + "+" + a.A1.String() + "*y"
}

// MarshalText encodes a as String does.
func (a Element) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ErrSyntax is returned (wrapped) when text does not encode an element.
var ErrSyntax = errors.New("gf128: invalid element syntax")

// UnmarshalText decodes the form String writes: two coefficients, each as
// gf64.Element.UnmarshalText accepts it (1 to 16 hexadecimal digits, an
// optional 0x prefix), joined by "+" and followed by "*y". On error a is
// unchanged.
func (a *Element) UnmarshalText(text []byte) error {
	s := string(text)
	body, ok := strings.CutSuffix(s, "*y")
	var a0s, a1s string
	if ok {
		a0s, a1s, ok = strings.Cut(body, "+")
	}
	if !ok {
		return fmt.Errorf("%w: %q: want a0+a1*y", ErrSyntax, text)
	}
	var e Element
	if err := e.A0.UnmarshalText([]byte(a0s)); err != nil {
		return fmt.Errorf("%w: %q: coefficient a0: %v", ErrSyntax, text, err)
	}
	if err := e.A1.UnmarshalText([]byte(a1s)); err != nil {
		return fmt.Errorf("%w: %q: coefficient a1: %v", ErrSyntax, text, err)
	}
	*a = e
	return nil
}

// Bytes returns a as 16 bytes: a0 little-endian (gf64's Bytes), then a1
// little-endian. This is also the layout of an Element in memory on
// little-endian machines.
func (a Element) Bytes() [16]byte {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(a.A0))
	binary.LittleEndian.PutUint64(b[8:], uint64(a.A1))
	return b
}

// SetBytes sets a from 16 bytes in the encoding of Bytes. Any other length is
// an error and leaves a unchanged.
func (a *Element) SetBytes(b []byte) error {
	if len(b) != 16 {
		return fmt.Errorf("gf128: SetBytes needs 16 bytes, got %d", len(b))
	}
	a.A0 = gf64.Element(binary.LittleEndian.Uint64(b[:8]))
	a.A1 = gf64.Element(binary.LittleEndian.Uint64(b[8:]))
	return nil
}

// Random returns an element read from r: 16 bytes in the encoding of Bytes.
// With a uniform source (crypto/rand.Reader, a seeded math/rand/v2 ChaCha8)
// the element is uniform over the field.
func Random(r io.Reader) (Element, error) {
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return Element{}, fmt.Errorf("gf128: reading random element: %w", err)
	}
	var e Element
	_ = e.SetBytes(b[:])
	return e, nil
}

// RandomVec fills dst with elements read from r, as Random does.
func RandomVec(dst []Element, r io.Reader) error {
	var buf [512]byte
	for len(dst) > 0 {
		n := min(len(dst), len(buf)/16)
		if _, err := io.ReadFull(r, buf[:16*n]); err != nil {
			return fmt.Errorf("gf128: reading random elements: %w", err)
		}
		for i := range n {
			_ = dst[i].SetBytes(buf[16*i : 16*i+16])
		}
		dst = dst[n:]
	}
	return nil
}

func checkLen(op string, n1, n2 int) {
	if n1 != n2 {
		panic(fmt.Sprintf("gf128: %s: length mismatch: %d and %d", op, n1, n2))
	}
}

// parallelElems is the batch size from which MulVec, ScaleVec,
// MulByBaseVec and BatchInverse spread the work over all cores: below it
// the cost of starting goroutines shows.
const parallelElems = 1 << 14

// wide reports whether a batch of n elements is spread over the cores.
func wide(n int) bool { return n >= parallelElems && runtime.GOMAXPROCS(0) > 1 }

// spread runs f over GOMAXPROCS parts of [0, n), whole multiples of unit
// elements (so that every part but the last runs on the widest kernels
// without a tail), one goroutine each. Callers run small batches (wide
// false) directly, which allocates nothing.
func spread(n, unit int, f func(lo, hi int)) {
	procs := runtime.GOMAXPROCS(0)
	per := (n + procs - 1) / procs
	per = (per + unit - 1) / unit * unit
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// MulVec sets dst[i] = a[i] · b[i]. dst may alias a or b. Batches of
// 2^14 elements or more are split over GOMAXPROCS goroutines.
func MulVec(dst, a, b []Element) {
	checkLen("MulVec", len(dst), len(a))
	checkLen("MulVec", len(dst), len(b))
	if !wide(len(dst)) {
		mulVec(dst, a, b)
		return
	}
	spread(len(dst), 8, func(lo, hi int) { mulVec(dst[lo:hi], a[lo:hi], b[lo:hi]) })
}

// ScaleVec sets dst[i] = a[i] · c. dst may alias a. Batches of 2^14
// elements or more are split over GOMAXPROCS goroutines.
func ScaleVec(dst, a []Element, c Element) {
	checkLen("ScaleVec", len(dst), len(a))
	if !wide(len(dst)) {
		scaleVec(dst, a, c)
		return
	}
	spread(len(dst), 8, func(lo, hi int) { scaleVec(dst[lo:hi], a[lo:hi], c) })
}

// MulByBaseVec sets dst[i] = a[i] · b[i] for b in GF(2^64). dst may alias
// a. Batches of 2^14 elements or more are split over GOMAXPROCS goroutines.
func MulByBaseVec(dst, a []Element, b []gf64.Element) {
	checkLen("MulByBaseVec", len(dst), len(a))
	checkLen("MulByBaseVec", len(dst), len(b))
	if !wide(len(dst)) {
		mulByBaseVec(dst, a, b)
		return
	}
	spread(len(dst), 8, func(lo, hi int) { mulByBaseVec(dst[lo:hi], a[lo:hi], b[lo:hi]) })
}

// ScaleBaseVec sets dst[i] = Embed(a[i]) · c: a column of GF(2^64) values
// scaled by an extension element. dst must not overlap a's memory.
func ScaleBaseVec(dst []Element, a []gf64.Element, c Element) {
	checkLen("ScaleBaseVec", len(dst), len(a))
	cols := [1][]gf64.Element{a}
	coeffs := [1]Element{c}
	combineBase(dst, cols[:], coeffs[:], false)
}

// MulAddBaseVec sets dst[i] += Embed(a[i]) · c, one term of a linear
// combination of GF(2^64) columns with extension coefficients (CombineBase
// does the whole combination at once, and faster). dst must not overlap a's
// memory.
func MulAddBaseVec(dst []Element, a []gf64.Element, c Element) {
	checkLen("MulAddBaseVec", len(dst), len(a))
	cols := [1][]gf64.Element{a}
	coeffs := [1]Element{c}
	combineBase(dst, cols[:], coeffs[:], true)
}

// CombineBase sets dst[i] = Σ_j coeffs[j] · cols[j][i]: the linear
// combination of GF(2^64) columns with GF(2^128) coefficients, as a prover
// forms it from a random challenge (DEEP and FRI batching). Every column must
// have len(dst) elements and there must be as many coefficients as columns;
// with no columns dst is set to zero. The carry-less products of each row are
// summed unreduced and each output coefficient is reduced once, so a
// combination costs about two GF(2^64) products per column and row. dst must
// not overlap any column's memory.
func CombineBase(dst []Element, cols [][]gf64.Element, coeffs []Element) {
	checkLen("CombineBase: columns and coefficients", len(cols), len(coeffs))
	for j := range cols {
		if len(cols[j]) != len(dst) {
			panic(fmt.Sprintf("gf128: CombineBase: length mismatch: %d and %d (column %d)", len(dst), len(cols[j]), j))
		}
	}
	if len(cols) == 0 {
		clear(dst)
		return
	}
	combineBase(dst, cols, coeffs, false)
}

// AddVec sets dst[i] = a[i] + b[i]. dst may alias a or b.
func AddVec(dst, a, b []Element) {
	checkLen("AddVec", len(dst), len(a))
	checkLen("AddVec", len(dst), len(b))
	if len(dst) == 0 {
		return
	}
	_ = a[len(dst)-1]
	_ = b[len(dst)-1]
	for i := range dst {
		dst[i] = Element{a[i].A0 ^ b[i].A0, a[i].A1 ^ b[i].A1}
	}
}

// BatchInverse sets dst[i] = a[i]⁻¹ using Montgomery's trick: three
// multiplications per element, done as vector products (MulVec) across
// batchInvLanes independent running products, and one field inversion per
// block of batchInvBlock elements. Zeros are allowed: where a[i] = 0,
// dst[i] = 0 (as Inverse(0) = 0) and every other entry is still inverted. dst
// may alias a. It returns the number of zero entries, so callers that must
// reject zeros can check for a non-zero count. Batches of 2^14 elements or
// more are split over GOMAXPROCS goroutines.
func BatchInverse(dst, a []Element) int {
	checkLen("BatchInverse", len(dst), len(a))
	if !wide(len(a)) {
		return batchInverseRun(dst, a)
	}
	var zeros atomic.Int64
	spread(len(a), batchInvBlock, func(lo, hi int) {
		zeros.Add(int64(batchInverseRun(dst[lo:hi], a[lo:hi])))
	})
	return int(zeros.Load())
}

// batchInverseRun is BatchInverse on the calling goroutine.
func batchInverseRun(dst, a []Element) int {
	zeros := 0
	var prefix [batchInvBlock]Element
	for start := 0; start < len(a); start += batchInvBlock {
		end := min(start+batchInvBlock, len(a))
		zeros += batchInverseBlock(dst[start:end], a[start:end], prefix[:end-start])
	}
	return zeros
}

const (
	batchInvLanes = 64   // running products side by side: element i is in lane i mod 64
	batchInvBlock = 1024 // elements per field inversion
)

// batchInverseBlock inverts up to batchInvBlock elements. Row r of the block
// is a[64r : 64r+64]; lane k keeps the running product of a[k], a[64+k], …
// (zeros replaced by one), so that each step is one MulVec over a row. The
// 64 lane products are inverted with the scalar trick (batchInverseLanes).
func batchInverseBlock(dst, a, prefix []Element) int {
	var acc, row [batchInvLanes]Element
	for k := range acc {
		acc[k] = One
	}
	zeros := 0
	for lo := 0; lo < len(a); lo += batchInvLanes {
		w := min(batchInvLanes, len(a)-lo)
		copy(prefix[lo:lo+w], acc[:w])
		for k, v := range a[lo : lo+w] {
			if v.IsZero() {
				zeros++
				v = One
			}
			row[k] = v
		}
		mulVec(acc[:w], acc[:w], row[:w])
	}
	var inv [batchInvLanes]Element
	batchInverseLanes(inv[:], acc[:])
	last := (len(a) - 1) / batchInvLanes * batchInvLanes
	for lo := last; lo >= 0; lo -= batchInvLanes {
		w := min(batchInvLanes, len(a)-lo)
		var zero uint64 // bit k: a[lo+k] = 0
		for k, v := range a[lo : lo+w] {
			if v.IsZero() {
				zero |= 1 << k
				v = One
			}
			row[k] = v
		}
		d := dst[lo : lo+w] // may be a[lo : lo+w], already copied into row
		mulVec(d, inv[:w], prefix[lo:lo+w])
		mulVec(inv[:w], inv[:w], row[:w])
		for zero != 0 {
			d[bits.TrailingZeros64(zero)] = Zero
			zero &= zero - 1
		}
	}
	return zeros
}

// batchInverseLanes sets inv[i] = acc[i]⁻¹ for non-zero acc[i] by the
// sequential trick, four running products side by side (a product's latency,
// not its throughput, bounds a single chain).
func batchInverseLanes(inv, acc []Element) {
	var prefix [batchInvLanes]Element
	run := [4]Element{One, One, One, One}
	for i, v := range acc {
		prefix[i] = run[i&3]
		run[i&3] = mul(run[i&3], v)
	}
	// r[j] = run[j]⁻¹ from one inversion of the product of all four.
	p01, p23 := mul(run[0], run[1]), mul(run[2], run[3])
	t := Inverse(mul(p01, p23))
	i01, i23 := mul(t, p23), mul(t, p01)
	r := [4]Element{mul(i01, run[1]), mul(i01, run[0]), mul(i23, run[3]), mul(i23, run[2])}
	for i := len(acc) - 1; i >= 0; i-- {
		inv[i] = mul(r[i&3], prefix[i])
		r[i&3] = mul(r[i&3], acc[i])
	}
}
