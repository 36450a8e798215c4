// Package gf64 implements arithmetic in the binary field GF(2^64).
//
// # Representation
//
// GF(2^64) is GF(2)[x] / (x^64 + x^4 + x^3 + x + 1). An Element is a uint64
// whose bit i is the coefficient of x^i: 0x1 is the field's one, 0x2 is x, and
// 0x8000000000000000 is x^63. The reduction polynomial is 2-gapped (its terms
// below x^64 all lie under x^32), so reducing a 128-bit carry-less product takes
// two multiplications by 0x1b. It is the polynomial used by libSTARK and libiop,
// so values can be compared with theirs.
//
// Addition is XOR. Every element is its own additive inverse, squaring is
// GF(2)-linear, and every element has exactly one square root.
//
// # Vectors
//
// The vector functions (MulVec, ScaleVec, MulAddVec, AddVec, BatchInverse,
// Butterfly, InvButterfly) take the destination first, allocate nothing, and
// panic with a message naming both lengths when their slices differ in length;
// that is a programming error, not a data error. Unless a function says
// otherwise, dst may be the same slice as any input (exact aliasing); partially
// overlapping slices are not allowed. Butterfly and InvButterfly, the
// additive-FFT layer primitives, update u and v in place; u and v must not
// overlap.
//
// # Implementations
//
// Mul, SquareN and the vector multiplications have a generic pure-Go
// implementation, always compiled, and on amd64 two assembly implementations:
// one built on PCLMULQDQ (one 64×64 carry-less product per instruction, two
// elements per 128-bit register) and one built on AVX-512 VPCLMULQDQ (four per
// instruction). The AVX-512 kernels work on blocks of eight elements and leave
// the last one to seven to the PCLMULQDQ kernels; scalar Mul and SquareN (so
// Inverse and Sqrt) use PCLMULQDQ on both assembly paths. The fastest implementation the CPU supports (read once
// from golang.org/x/sys/cpu) is chosen when the package is initialised;
// building with -tags purego forces the generic code. Implementations reports
// which ones this process can use and which one is active.
//
// The generic code multiplies with integer multiplications on operands split
// into five interleaved bit classes, so that carries never reach a kept bit.
// The by-constant operations (ScaleVec, MulAddVec, Butterfly, InvButterfly) on
// 128 elements or more instead build 8 tables of 256 multiples of the
// constant (16 KiB, on the stack) and sum eight lookups per product.
//
// Tests run every test body under each available implementation (the
// registry in internal/cpufeat switches them; other packages' tests can do the
// same with cpufeat.Each("gf64", ...)) and, with -v, print which
// implementations ran. "go test ./field/gf64 -args -gf64.skip=avx512" leaves
// one out. BENCHMARKS.md has the speed of each.
//
// # Constant time
//
// The assembly and the generic integer multiplications run in time independent
// of the operand values. The table lookups of the generic by-constant
// operations are not: their memory accesses depend on the data. Inverse, Exp
// and BatchInverse are not constant-time in their exponent or in the positions
// of zero inputs. Nothing here is meant for secret data; gf64 is built for the
// public computations of a prover.
//
// # Concurrency
//
// Elements are values. All functions are safe for concurrent use on disjoint
// destination slices.
package gf64
