package fermat

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// ErrNil is wrapped by the error MulBig returns for a nil operand.
var ErrNil = errors.New("fermat: nil operand")

// chunkBits returns the chunk size b for operands of xb and yb bits: the
// largest b ≤ 252 with 2b + ⌈log2 t⌉ ≤ 504, t the number of chunks of the
// shorter operand, so that every convolution coefficient (a sum of at most
// t products of two b-bit chunks) is below 2^504 < p and the transform
// returns it exactly.
func chunkBits(xb, yb int) int {
	m := min(xb, yb)
	for b := 252; ; b-- {
		t := (m + b - 1) / b
		if 2*b+bits.Len(uint(t-1)) <= 504 { // t·2^(2b) ≤ 2^504
			return b
		}
	}
}

// MulBig returns x·y as a new *big.Int through this package's FFT: |x| and
// |y| are cut into chunks of b bits (b = 240 up to 2^24 chunks), one chunk
// per field element (4 of its 8 radix-r digits), transformed, multiplied
// pointwise, transformed back, and each coefficient (below 2^504 < p, so
// exact) is added at its bit offset. x and y are not modified. It is the
// big-prime side of the seed's question (one prime of 505 bits against many
// word-size primes and CRT, as in poly/intpoly); BENCHMARKS.md compares
// them. It returns an error wrapping ErrNil for a nil operand.
func MulBig(x, y *big.Int) (*big.Int, error) {
	if x == nil || y == nil {
		return nil, fmt.Errorf("%w: MulBig", ErrNil)
	}
	if x.Sign() == 0 || y.Sign() == 0 {
		return new(big.Int), nil
	}
	xw, yw := words(x), words(y)
	b := chunkBits(x.BitLen(), y.BitLen())
	na := (x.BitLen() + b - 1) / b
	nb := (y.BitLen() + b - 1) / b
	n := 1
	for n < na+nb-1 {
		n <<= 1
	}
	if _, err := logLen(n); err != nil {
		return nil, fmt.Errorf("fermat: MulBig operands too long: %w", err)
	}
	fa, fb := make([]Element, n), make([]Element, n)
	split(fa[:na], xw, b)
	split(fb[:nb], yw, b)
	k, _ := logLen(n)
	transform(fa, k)
	transform(fb, k)
	parallel(n, 1<<10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			fa[i].Mul(&fa[i], &fb[i])
		}
	})
	if err := IFFT(fa); err != nil {
		return nil, err
	}
	z := make([]uint64, len(xw)+len(yw)+9)
	var c [Digits + 1]uint64
	for i := 0; i < na+nb-1; i++ {
		toWords(c[:Digits], &fa[i])
		addShifted(z, c[:], i*b)
	}
	res := fromWords(z)
	if x.Sign() != y.Sign() {
		res.Neg(res)
	}
	return res, nil
}

// words returns |x| as little-endian 64-bit words.
func words(x *big.Int) []uint64 {
	bw := x.Bits()
	if bits.UintSize == 64 {
		w := make([]uint64, len(bw))
		for i, v := range bw {
			w[i] = uint64(v)
		}
		return w
	}
	w := make([]uint64, (len(bw)+1)/2)
	for i, v := range bw {
		w[i/2] |= uint64(v) << (32 * (i % 2))
	}
	return w
}

func fromWords(z []uint64) *big.Int {
	if bits.UintSize == 64 {
		bw := make([]big.Word, len(z))
		for i, v := range z {
			bw[i] = big.Word(v)
		}
		return new(big.Int).SetBits(bw)
	}
	bw := make([]big.Word, 2*len(z))
	for i, v := range z {
		bw[2*i], bw[2*i+1] = big.Word(v), big.Word(v>>32)
	}
	return new(big.Int).SetBits(bw)
}

// split sets dst[i] to bits [i·b, (i+1)·b) of w (b ≤ 252), as elements.
func split(dst []Element, w []uint64, b int) {
	parallel(len(dst), 1<<10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var c [4]uint64
			off := i * b
			for j := 0; j < 4 && 64*j < b; j++ {
				c[j] = bitsAt(w, off+64*j)
			}
			// clear bits from b on
			for j := 0; j < 4; j++ {
				if lo := 64 * j; lo >= b {
					c[j] = 0
				} else if b-lo < 64 {
					c[j] &= 1<<(b-lo) - 1
				}
			}
			fromChunk(&dst[i], &c)
		}
	})
}

// bitsAt returns the 64 bits of w starting at bit off (zeros past the end).
func bitsAt(w []uint64, off int) uint64 {
	q, s := off/64, uint(off%64)
	var lo, hi uint64
	if q < len(w) {
		lo = w[q]
	}
	if q+1 < len(w) {
		hi = w[q+1]
	}
	if s == 0 {
		return lo
	}
	return lo>>s | hi<<(64-s)
}

// fromChunk sets e to the value of c (below 2^252 < r^4) in radix r.
func fromChunk(e *Element, c *[4]uint64) {
	*e = Element{}
	v := *c
	for d := 0; d < 4; d++ {
		var rem uint64
		for j := 3; j >= 0; j-- {
			v[j], rem = divR(rem, v[j])
		}
		e[d] = rem
	}
	// v is now ⌊c / r^4⌋ < 2^252/r^4 < 1
}

// toWords writes the value of e (below p < 2^505) as 8 little-endian words:
// Horner's rule in radix r.
func toWords(dst []uint64, e *Element) {
	clear(dst)
	for i := Digits - 1; i >= 0; i-- {
		carry := e[i]
		for j := range dst {
			hi, lo := bits.Mul64(dst[j], R)
			var c uint64
			lo, c = bits.Add64(lo, carry, 0)
			dst[j] = lo
			carry = hi + c
		}
	}
}

// addShifted adds c·2^off into z.
func addShifted(z, c []uint64, off int) {
	q, s := off/64, uint(off%64)
	var prev, carry uint64
	for j := 0; j < len(c); j++ {
		v := c[j] << s
		if s != 0 {
			v |= prev >> (64 - s)
		}
		prev = c[j]
		z[q+j], carry = bits.Add64(z[q+j], v, carry)
	}
	for i := q + len(c); carry != 0; i++ {
		z[i], carry = bits.Add64(z[i], 0, carry)
	}
}
