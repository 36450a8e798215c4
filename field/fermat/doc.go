// Package fermat implements the prime field Z/pZ for the generalized Fermat
// prime p = r^8 + 1, r = 2^63 + 2^34 (about 2^504; seed 001, Mohajerani,
// Table 3.1), its FFT on the CPU, and big-integer products through that FFT.
//
// # Representation
//
// An Element is the seed's radix-r form (its Section 3.1): eight uint64
// digits, e[i] the digit of r^i, so the value is Σ e[i]·r^i. It is
// canonical: every digit is below r, except for p−1 = r^8, which is
// (0, …, 0, r). SetBig and Big convert from and to math/big; every method
// returns canonical elements when given canonical ones (IsCanonical checks
// a caller's, and the transforms reject others with ErrNotCanonical).
//
// The form is chosen for the FFT: r is a primitive 16th root of unity and
// r^8 = −1, so multiplying by r^i (MulByRPow) moves the digits up i places
// and subtracts the i that wrap past r^8: one subtraction, no products.
// Add and Sub carry in radix r (a digit sum is below 2r < 2^65). Mul is the
// seed's Algorithm 3.3: the product of the digit polynomials modulo T^8 + 1
// (64 word products into three-word accumulators, kept positive by adding
// a multiple of p spread over the digits), then carries in radix r, each a
// division of a 131-bit value by r through a precomputed reciprocal
// (Möller–Granlund: r has its top bit set, so no normalisation), then the
// carry out of r^8 subtracted.
//
// # Roots of unity and the FFT
//
// 2^272 divides p − 1 (TwoAdicity). RootOfUnity(n) returns, for every power
// of two n ≤ 2^MaxLogLen, the primitive n-th root ω with ω^(n/16) = r (the
// seed's Algorithm 3.1: a generator of the 2^272-th roots found once with
// math/big, raised to the power that makes its 16th root r, then squared
// down); RootOfUnity(2n)² = RootOfUnity(n) and RootOfUnity(16) = r.
//
// FFT(a) computes A_j = Σ_i a_i·ω^(ij), ω = RootOfUnity(len(a)), in place,
// natural order in and out; IFFT is its inverse (with the 1/n). It is a
// Stockham autosort FFT (the seed's six-step factorisation
// DFT_{16·J} = L(I ⊗ DFT_16)L·D·(I ⊗ DFT_J)L unrolled into passes that
// write each output where the next pass reads it, so no bit reversal):
// radix-16 passes (one radix-2, -4 or -8 pass first when log2 n is not a
// multiple of 4). Inside a pass every product is by a power of r: each
// DFT-16 is four radix-2 levels whose twiddles are digit shifts, with
// (a−b)·r^s done as one subtraction of merged digit vectors. General
// products happen only between passes, on the twiddle factors
// ω^E = r^(E div n/16)·ω^(E mod n/16), from a table of n/16 powers of ω
// cached per length for the life of the process (4n bytes for length n). Every pass is spread over GOMAXPROCS goroutines; the
// transform allocates one scratch vector of n elements.
//
// # Big-integer products
//
// MulBig(x, y) cuts |x| and |y| into 240-bit chunks (fewer bits past 2^24
// chunks; one chunk per element, so
// each product coefficient, a sum of at most 2^24 products of two chunks,
// stays below 2^504 < p and comes back exact), transforms both, multiplies
// pointwise, transforms back and adds the coefficients at their offsets.
// It answers the seed's question (one big prime, or many word-size primes
// and CRT as in poly/intpoly?) on the CPU; BENCHMARKS.md has the numbers.
//
// # GPU twin
//
// Package gpu/fermat is the GPU twin: the same transforms and MulBig on
// device buffers of Elements, bit for bit. The layout is shared: a vector
// of n elements is n·8 little-endian uint64 digits, element-major
// ([]Element as it lies in memory), and the device kernels work
// digit-major in shared memory (the seed's coalesced layout, Section 4.1).
// They run these Stockham passes and radix-16 digit-shift DFTs with this
// package's twiddle table (n/16 powers of RootOfUnity(n)), and every
// result is in the canonical form, so both sides agree bit for bit.
//
// # Concurrency and timing
//
// Element methods may alias their receiver with any argument; they are safe
// for concurrent use on distinct receivers. FFT and IFFT may be called
// concurrently on distinct slices. Nothing here is constant-time (carries,
// the p−1 special case and the reductions branch on data); the package is
// for public computations.
//
// Pure Go: no assembly, builds with CGO_ENABLED=0 and -tags purego alike.
package fermat
