// Package gf2n implements arithmetic in the binary fields GF(2^n) for n =
// 128, 256, 512, 1024 and 2048, one element at a time and in batches.
//
// # Representation
//
// GF(2^n) is GF(2)[x] / (f) for the sparse irreducible polynomial f that
// Field.Poly returns:
//
//	n = 128   x^128  + x^7  + x^2  + x    + 1
//	n = 256   x^256  + x^10 + x^5  + x^2  + 1
//	n = 512   x^512  + x^8  + x^5  + x^2  + 1
//	n = 1024  x^1024 + x^19 + x^6  + x    + 1
//	n = 2048  x^2048 + x^19 + x^14 + x^13 + 1
//
// No trinomial of these degrees is irreducible (Swan's theorem), so each f
// is the pentanomial of lowest middle exponents (smallest second exponent,
// then third, then fourth), the entry of the published tables of low-weight
// irreducible polynomials and what NTL's BuildSparseIrred picks. The tests
// check that each f is irreducible (Rabin's and Ben-Or's tests, run with this
// package's own arithmetic) and that every pentanomial before it in that
// order is reducible.
//
// An element is n/64 uint64 words (Field.Words), least significant word
// first: bit j of word i is the coefficient of x^(64i+j). So the field's one
// is [1 0 … 0], x is [2 0 … 0] and x^(n−1) has only bit 63 of the last word
// set. A batch of elements is one []uint64 holding the elements one after
// the other, element k in words [k·Words, (k+1)·Words). A GPU kernel working
// on a device copy of such a slice sees the same words in the same order.
//
// GF(2^128) here is the field of GHASH (same polynomial), but GHASH writes
// its elements bit-reflected: the coefficient of x^0 is the most significant
// bit of the first byte. The tests convert between the two to check
// products against Go's AES-GCM.
//
// # Operations
//
// Field.Mul, Field.Square, Field.Add and Field.Inverse work on one element;
// their slices must hold exactly Words words, and another length is a
// programming error that panics (Inverse, which has an error result, returns
// ErrLength instead). Inverse of zero returns ErrZero. Field.MulVec and
// Field.AddVec work on batches: their slices must have the same length, a
// multiple of Words, or they return an error wrapping ErrLength and write
// nothing. MulVec spreads large batches over GOMAXPROCS goroutines. In every
// function the destination may be the same slice as an input (exact
// aliasing); partially overlapping slices are not allowed.
//
// # Multiplication
//
// A product is computed in two steps: the 2n-bit carry-less product of the
// operands, by Karatsuba's method on 64-bit pieces, then its reduction
// modulo f. Since f = x^n + r with r of degree below 64, x^n ≡ r: the high
// half H of the product is replaced by H·r, which overflows x^n by fewer
// than 64 bits, and that overflow is folded the same way once more.
//
// # Concurrency
//
// A Field holds no mutable state; New returns one shared *Field per size.
// All functions are safe for concurrent use on disjoint destinations.
//
// # Constant time
//
// The multiplications and squarings run in time independent of the operand
// values. Inverse does not (it returns early on zero), and nothing here is
// meant for secret data.
package gf2n
