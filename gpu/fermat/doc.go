// Package fermat runs the FFT over the generalized Fermat prime field
// Z/pZ, p = r^8 + 1, r = 2^63 + 2^34 (seed 001, Mohajerani), on a GPU: the
// GPU twin of field/fermat, bit-identical to its FFT and IFFT, and products
// of big integers through it (field/fermat's MulBig on the device).
//
// # Device layout
//
// A vector of n elements is a gpu.Buffer[fermat.Element] (field/fermat's
// Element): element i is 8 little-endian uint64 digits in radix r, digit k
// the coefficient of r^k, canonical as field/fermat defines it; the
// buffer's bytes are those of the []Element on the host, so uploads and
// downloads are plain copies. The kernels read and write this
// element-major layout with 16-byte accesses in which a warp covers 2 KiB
// of consecutive elements (every byte of every sector it touches used);
// inside a pass the data sit digit-major in shared memory (the seed's
// coalesced structure-of-arrays form, Section 4.1), so that a warp's
// accesses to one digit of 32 elements are 32 consecutive words.
//
// # The transform
//
// Transformer.FFT runs field/fermat's Stockham FFT pass for pass, one
// launch per pass on one stream (n = 2^k: ⌈k/4⌉ launches, plus a copy when
// that count is odd, the transform being in place): a first pass of radix
// 2, 4 or 8 when k is not a multiple of 4 (one thread per small DFT, no
// twiddles), then radix-16 passes. A radix-16 pass gives each block of 256
// threads 32 DFT-16s: each thread loads two of a DFT's 16 inputs,
// multiplies them by their twiddles ω^E = r^(E div n/16)·ω^(E mod n/16) (one
// general product by an entry of a table of n/16 powers of ω, then a digit
// shift by a run-time power of r: a three-step barrel of selects and one
// subtraction), and the DFT-16 runs as four radix-2 levels in shared
// memory whose twiddles are all powers of r. Warp q holds the pair (t,
// t+h) of each level chosen so that the level's shift depends on q alone
// (no divergence); the shift is a rotation of the digits by three-step
// barrels of selects at run time and (a−b)·r^s one subtraction of merged
// digits, so every warp runs the same code (one compile-time copy of the
// butterfly per shift, each warp in its own, ran 1.3–1.5× slower with
// fewer instructions to execute; eight copies of the pass's code in flight
// at once, more than the instruction caches hold, is the likely reason,
// not profiled), with no register array indexed at run time. The outputs go through shared memory
// and leave in output order, 16 runs of 32 elements or one run of 512.
// General products (the seed's Algorithm 3.3: 64 digit products by product
// scanning into three-word accumulators, divisions by r through a
// precomputed reciprocal) happen only on the twiddles, between the DFT-16s.
// IFFT is the forward transform read at −i, times 1/n: one more kernel
// that swaps the pairs (i, n−i) and multiplies.
//
// The twiddle table (field/fermat's, computed on the host's cores) and 1/n
// are kept per length for the Transformer's life (4n bytes for length n);
// one scratch vector of n elements is kept and grown as needed. Lengths
// are the powers of two 1 … 2^62 that device memory holds (2^k elements
// take 2^(k+7) bytes with the scratch); others return an error wrapping
// field/fermat's ErrLength naming them. The device does not check that
// elements are canonical; FFTHost and IFFTHost do (ErrNotCanonical).
//
// # Big integers
//
// MulBig cuts |x| and |y| into b-bit chunks on the device (b as
// field/fermat chooses: 2b + ⌈log2 chunks⌉ ≤ 504, so each coefficient of
// the product is below p and comes back exact), transforms both, multiplies
// pointwise, transforms back, converts each coefficient to 8 binary words
// (Horner's rule in radix r) and sums for each 64-bit word of the product
// the coefficient words that land on it (128-bit sums); the carries, a few
// bits a word, run on the host. Its report test sets it against
// gpu/intntt, the same product by 31-bit primes and CRT (BENCHMARKS.md).
//
// # Concurrency
//
// A Transformer runs one call at a time (a mutex); calls queued on
// different streams must not overlap, as they share the scratch buffer.
// The kernels are cuda/fermat.cu (cuda.FermatProgram). Tests compare every
// kernel path with field/fermat on the device, and skip with the reason
// where there is none; TestKernelsOnHost also runs the shipped kernel file
// on any machine with g++ (compiled as C++, a block's threads as host
// threads), through the same launch sequences, against field/fermat and
// math/big.
package fermat
