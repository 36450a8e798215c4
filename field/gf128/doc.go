// Package gf128 implements arithmetic in GF(2^128) built as the quadratic
// extension of GF(2^64) (package field/gf64): the field a prover over
// GF(2^64) traces draws its challenges from.
//
// # Representation
//
// GF(2^128) is GF(2^64)[y] / (y² + y + C) with C = x^63, the element
// gf64.Element(1<<63). An Element is the pair (A0, A1) of GF(2^64)
// coefficients, a0 + a1·y; Y is y and Embed sends GF(2^64) into the field as
// a0 + 0·y.
//
// A quadratic y² + y + c over GF(2^64) is irreducible exactly when the
// absolute trace Tr(c) is 1. The trace is GF(2)-linear and Tr(x^i) = 1 only
// for i in {61, 63}, so every small integer c has trace 0 and gives a
// reducible polynomial. x^61 and x^63 are thus the trace-1 constants of
// lowest weight, and with either a product by C is a shift instead of a
// multiplication; C = x^63 is the convention: C·r is the 127-bit value
// (r>>1)·x^64 + r<<63, added to the other product of the same coefficient
// before its one reduction. With y² = y + C,
//
//	(a0 + a1 y)(b0 + b1 y) = (a0b0 + C·a1b1) + (a0b1 + a1b0 + a1b1) y.
//
// Conjugate is the Frobenius a ↦ a^(2^64), which sends y to y + 1 and fixes
// exactly GF(2^64); Norm(a) = a·Conjugate(a) lies in GF(2^64), and Inverse
// is Conjugate(a)/Norm(a): one GF(2^64) inversion.
//
// Known answer: for a = 0x123456789abcdef0 + 0xfedcba9876543210·y and
// b = 0x0f1e2d3c4b5a6978 + 0x8796a5b4c3d2e1f0·y,
//
//	a·b = 0x6baf3ee4ab2bfc80 + 0x75b44f6103d3395a·y,
//
// and y·y = x^63 + y. The tests compute both with a bit-by-bit reference.
//
// # Layout and encodings
//
// An Element is two uint64s in the order A0, A1; Bytes writes A0
// little-endian, then A1 little-endian (16 bytes), which is also how an
// Element lies in memory on little-endian machines. String and MarshalText
// write "0x<a0>+0x<a1>*y" with each coefficient as 16 hexadecimal digits,
// the coefficient of x^63 first (gf64's String); UnmarshalText reads it back.
//
// # Vectors
//
// The vector functions (MulVec, ScaleVec, MulByBaseVec, ScaleBaseVec,
// MulAddBaseVec, CombineBase, AddVec, BatchInverse) take the destination
// first, allocate nothing, and panic with a message naming both lengths when
// their slices differ in length; that is a programming error, not a data
// error. A destination of Elements may be the same slice as an input of
// Elements (exact aliasing) where the function says so; partially overlapping
// slices are not allowed, and a destination never overlaps the memory of a
// GF(2^64) input. MulVec, ScaleVec, MulByBaseVec and BatchInverse split
// batches of 2^14 elements or more over GOMAXPROCS goroutines (in parts of
// whole blocks of the widest kernels); below that, and always for
// ScaleBaseVec, MulAddBaseVec, CombineBase and AddVec, they run on the
// calling goroutine: callers that want every core for those split the rows
// into blocks and call them from several goroutines, as package prover
// does.
//
// CombineBase is the linear combination Σ_j coeffs[j]·cols[j] of GF(2^64)
// columns with GF(2^128) coefficients. It sums the unreduced 128-bit
// carry-less products of each row over all columns and reduces each output
// coefficient once, so it costs about two carry-less products per column and
// row, no more than the GF(2^64) combination with one coefficient.
//
// # Implementations
//
// Mul and the vector multiplications have a generic pure-Go implementation,
// always compiled, and on amd64 two assembly implementations: one built on
// PCLMULQDQ (one element per 128-bit register) and one built on AVX-512
// VPCLMULQDQ (four elements per 512-bit register, the same code lane by
// lane). The vector kernels work on pairs of elements: MulVec takes
// Karatsuba's three carry-less products per element and two more for C·a1b1,
// ScaleVec three (C·c1 precomputed), MulByBaseVec two, and the shifts and one
// PSHUFB lookup of gf64's reduction reduce two coefficients per instruction. The AVX-512 kernels work on blocks
// of eight elements (rows, for CombineBase) and leave the rest to the
// PCLMULQDQ kernels; scalar Mul (so Inverse's and BatchInverse's products)
// uses PCLMULQDQ on both assembly paths. The fastest implementation the CPU
// supports (read once from golang.org/x/sys/cpu) is chosen when the package
// is initialised; building with -tags purego forces the generic code.
// Implementations reports which ones this process can use and which one is
// active. The GF(2^64) arithmetic of Norm, Inverse and MulByBase is gf64's,
// with gf64's own choice of implementation. BENCHMARKS.md has the speed of
// each.
//
// Tests run every test body under each available implementation (the
// registry in internal/cpufeat; other packages' tests can do the same with
// cpufeat.Each("gf128", ...)) and, with -v, print which implementations ran.
// "go test ./field/gf128 -args -gf128.skip=avx512" leaves one out.
//
// # Constant time
//
// The assembly and the generic carry-less products (integer multiplications
// on split operands, internal/clmul) run in time independent of the operand
// values. Inverse, Exp and BatchInverse are not constant-time in their
// exponent or in the positions of zero inputs. Nothing here is meant for
// secret data; gf128 is built for the public computations of a prover.
//
// # Concurrency
//
// Elements are values. All functions are safe for concurrent use on disjoint
// destination slices.
package gf128
