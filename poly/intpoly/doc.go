// Package intpoly multiplies polynomials with integer coefficients, and big
// integers, exactly, by number-theoretic transforms modulo several primes
// and Chinese remaindering (the multi-modular method of seed 004).
//
// # Entry points
//
//   - Mul(a, b) returns the product of two polynomials given as []*big.Int
//     (a[i] the coefficient of x^i, any sign and size): len(a)+len(b)−1
//     new coefficients.
//   - MulBig(x, y) returns x·y for *big.Int; below a measured crossover
//     (about 2^16 bits in the smaller operand with IFMA, 2^17.6 in pure
//     Go) it calls math/big.
//   - Multiplier multiplies Packed polynomials (fixed-width two's-complement
//     limbs, layout on Packed) of bounded lengths and coefficient sizes,
//     reusing one plan and its buffers: the fast path for callers with many
//     products of one shape, and the one without per-coefficient
//     allocations.
//
// # How a product is computed
//
// For polynomials with |a_i| < 2^bitsA, |b_j| < 2^bitsB, every coefficient
// of the product is a sum of at most t = min(len a, len b) products, so
// |c_k| < t·2^(bitsA+bitsB). The plan takes the fewest primes p_0 > p_1 > …
// (largest first) whose product M satisfies M ≥ 2^need with
// need = bitsA + bitsB + ⌈log2 t⌉ + 1; then each c_k is the symmetric
// representative of its residues, in (−M/2, M/2). Trailing zero
// coefficients do not count in t or the lengths. The transform length is
// the least power of two N ≥ len a + len b − 1 (trailing zeros dropped).
//
// Each prime p = c·2^28 + 1 (so lengths up to 2^28), found by a
// deterministic descending search below 2^62 (pure-Go kernels) or 2^50
// (AVX-512 IFMA kernels); up to 512 primes (a CRT modulus of about 31000
// bits with 62-bit primes, so |c_k| below about 2^15600). Products past
// either limit return ErrTooLarge naming it.
//
// Per prime: the inputs are reduced (one operand also multiplied by
// 2^64/N, so neither the Montgomery factor of the pointwise product nor the
// 1/N of the inverse transform costs a pass), both are transformed
// (Cooley–Tukey, natural to bit-reversed order), multiplied pointwise
// (Montgomery) and transformed back (Gentleman–Sande, bit-reversed to
// natural), so no pass permutes data. Twiddle products use Shoup's method
// with a precomputed quotient per twiddle and Harvey's lazy reduction
// (values kept below 4p): in pure Go this measured about 25% faster than
// Montgomery twiddles on the development machine. Long transforms run in
// two phases so that each touches memory once: the first log2(N/2^12)
// levels on columns of the N/2^12 × 2^12 matrix, then the rest of the
// forward transforms, the pointwise product and the inverse's first levels
// on each 32 KiB row while it is in cache, then the inverse's last levels
// on columns. A column task copies 64 columns of every row into a
// contiguous scratch block, transforms them there and writes them back
// (with non-temporal stores on IFMA): in place, a column's rows lie
// 32 KiB apart, a power of two that maps them to a few cache sets, and
// that made the column phases three times slower than the rows. An input
// of at most N/2 elements is read only up to N/2 (the first level's
// butterflies with a zero half copy the other half).
//
// Chinese remaindering is Garner's mixed-radix method with precomputed
// constants c_ji = p_j^−1 mod p_i (Shoup quotients too): digits α_i < p_i
// with X = α_0 + p_0(α_1 + p_1(α_2 + …)), computed prime by prime over
// blocks of 256 coefficients (k(k−1)/2 modular products per coefficient),
// then evaluated by Horner's rule in 64-bit limbs (about k²/2 word
// products). Mixed-radix digits compare like positional ones, so the sign
// of the symmetric representative comes from comparing the digits with
// those of (M−1)/2, and M − X has the digits p_i − 1 − α_i plus one: no
// multi-limb comparison or subtraction. Inputs of six limbs or more are
// reduced by an exact three-word dot product with the powers 2^(64t) mod p
// and one final reduction.
//
// MulBig cuts |x| and |y| into chunks of b bits (the coefficients of two
// polynomials with non-negative coefficients evaluated at 2^b), multiplies
// them as above without the sign bit (need = 2b + ⌈log2 t⌉), and adds each
// recovered coefficient at bit offset b·k (signed carries come from the
// final sign only). For every number of primes k it takes the largest b
// that fits and keeps the (k, b, N) of least modelled cost (intPlanFor in
// mulbig.go, constants timed on the development machine). For 2^16- to
// 2^30-bit operands that is 6 primes of 50 bits and chunks of 138 to 145
// bits with the IFMA kernels (transforms of 2^10 … 2^24), 9 to 17 primes of
// 62 bits and chunks of about 270 to 520 bits in pure Go. A task cuts its chunks
// into digits once (64-bit in pure Go, 52-bit on IFMA) and sums the digits'
// Shoup products with the powers 2^(64t) or 2^(52t) mod p prime by prime,
// on IFMA eight chunks at a time. The carries: each task recovers a
// range of coefficients into a sum of its own and stores the limbs no other
// task reaches straight into the product; the few limbs it shares with the
// next task are added afterwards.
//
// # Parallelism
//
// Every stage spreads over GOMAXPROCS goroutines (WithWorkers changes it):
// reduction and CRT over ranges of coefficients, transforms over all
// primes' column groups and rows at once, so that few primes still fill
// many cores.
//
// # Implementations
//
// The transform kernels come in a pure-Go version (62-bit primes) and,
// on amd64 with AVX-512 IFMA (and not built with -tags purego), an
// assembly version (50-bit primes, eight lanes of 52-bit multipliers); the
// fastest the CPU has is used. Their primes differ but both products are
// exact, so results are identical. The registry in internal/cpufeat
// switches them; tests run every available one and print which ran.
// Reduction of polynomial coefficients, the Horner step of the CRT and
// carries are pure Go on every path; the CRT digits' inner loop and
// MulBig's chunk reduction also run on IFMA with the 50-bit primes. The IFMA transforms work on whole levels (eight residues
// a lane each, twiddles broadcast), the last three levels of each row in
// registers with lane permutations; they leave each group of 16 evaluations
// in their own order, which only the pointwise product sees.
//
// Memory: a product of 2^L-point transforms with k primes holds 16·k·2^L
// bytes of residues and as much of twiddle tables. The residue buffers of
// Mul and MulBig come from a sync.Pool, so that repeated products reuse
// them (mapping and faulting in fresh memory took a tenth of a 2^28-bit
// product) and the garbage collector takes them back once unused for two
// cycles. On Linux a new buffer is advised to use transparent huge pages
// (madvise; honoured where THP is enabled on request): 512 times fewer page
// faults the first time, and the column phases' rows, 32 KiB apart, no
// longer need one TLB entry each. Tables up to 2^16 points
// are cached for the process; of the longer ones, those of the most recent
// length (all primes, at most 1 GiB) are kept until a product of another
// long length replaces them, so that repeated MulBig calls of one size do
// not rebuild them (at 2^28 bits: 6 primes × 2^22 points, 400 MB);
// the rest live with their plan or Multiplier.
//
// # Accelerators
//
// WithAccelerator(a) sends the products of Mul, MulBig and
// Multiplier.MulPacked to an Accelerator (a GPU, implemented in the GPU
// operations layer above this package), through the packed form and
// 64-bit limbs. Where the Accelerator refuses a polynomial product for its
// coefficients' size (ErrTooLarge: a GPU's 31-bit primes hold about 300
// bits at 2^24 points), Mul and MulPacked cut the coefficients into 64-bit
// slices, a_i = Σ_k a_(i,k)·2^(64k), and ask it for one product per pair
// of slices (k ≤ l for a square), summing them into the result on the
// host; an Accelerator that refuses those too returns its error.
//
// # Aliasing, concurrency, errors
//
// Inputs are never modified and results share no memory with them. Mul and
// MulBig are safe for concurrent use; a Multiplier is not (make one per
// goroutine). Bad input returns an error that starts with "intpoly:" and
// wraps ErrNil, ErrTooLarge or ErrWidth. Nothing here is constant-time.
package intpoly
