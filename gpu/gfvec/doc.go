// Package gfvec runs vector operations of the binary fields GF(2^64) and
// GF(2^32) on a GPU: element-wise products (MulVec), products by a constant
// (ScaleVec) and multiply-accumulate (MulAddVec) on device buffers, equal
// bit for bit to package field/gf64 (and, for GF(2^32), to the bit-by-bit
// reference in the tests).
//
// GF(2^64) is GF(2)[x]/(x^64+x^4+x^3+x+1), an element a uint64 (gf64.Element)
// whose bit i is the coefficient of x^i; GF(2^32) is
// GF(2)[x]/(x^32+x^7+x^3+x^2+1), an element a uint32 in the same bit order.
//
// Each field comes in three designs (Design): PerThread, one element per
// thread, the carry-less product built from 32-bit integer multiplications
// of operands with holes (the fastest); and the seed's bit-sliced design
// (Ben-Sasson, Hamilis, Silberstein and Tromer): transposition kernels turn
// elements into chunks of 32 elements × n rows of 32-bit words and a warp
// multiplies two chunks exchanging rows through warp shuffles
// (RegisterCache) or through shared memory (SharedMemory, the seed's
// baseline), then reduces with the 2-gapped polynomial. BENCHMARKS.md
// compares them.
//
// Operations take a stream: they queue their work and return, or, with a
// nil stream, wait for it. dst may be the same buffer as an input; partially
// overlapping views are not allowed. Buffers of different lengths return an
// error wrapping gpu.ErrLength, freed ones gpu.ErrClosed. A GF64 or GF32 is
// safe for concurrent use.
//
// GF128 does the same for GF(2^128) = GF(2^64)[y]/(y² + y + x^63) (package
// field/gf128; an element is 16 bytes, A0 then A1) on buffers of
// gf128.Element, one element per thread: MulVec, ScaleVec, MulByBaseVec,
// BatchInverse, and the operations that mix the two fields a prover needs
// after the commitment: CombineBase, the combination of GF(2^64) columns
// with GF(2^128) coefficients in one pass, and EvalSubspace, the values of
// GF(2^64) columns (evaluations over an affine subspace) at GF(2^128)
// points by the barycentric formula. They equal field/gf128's functions
// (and the formula evaluated there) bit for bit.
//
// The kernels are cuda/gf64.cu, cuda/gf32.cu and cuda/gf128.cu, loaded
// through the gpu runtime (once per device, whichever package asks first).
package gfvec
