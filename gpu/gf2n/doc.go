// Package gf2n multiplies batches of elements of the binary fields GF(2^n),
// n = 128, 256, 512, 1024 and 2048, on a GPU: the GPU twin of package
// field/gf2n's MulVec, equal to it bit for bit.
//
// # Representation
//
// The fields, their polynomials and the element layout are field/gf2n's: an
// element is n/64 uint64 words, least significant first (bit j of word i is
// the coefficient of x^(64i+j)), and a batch is the elements end to end in
// one []uint64 on the host or one gpu.Buffer[uint64] on the device. A
// Multiplier is made for one *field/gf2n.Field; its kernels read the
// polynomial's exponents from it.
//
// # Operations
//
// Multiplier.MulVec multiplies two batches on the device into a third, on a
// stream (queued, or waited for with a nil stream). The buffers must have
// the same length, a whole number of elements, or MulVec returns an error
// wrapping gpu.ErrLength; they must start on a 16-byte boundary (every
// buffer from gpu.Alloc, and every view of one at a whole element, does).
// The destination may be one of the inputs; partially overlapping views are
// not allowed. Multiplier.MulVecHost does the same on Go slices: the batch
// goes to the device and back in parts of 32 MiB per operand through pinned
// staging buffers on two streams, so that one part's copies and product
// overlap the next part's staging; Close frees the staging.
//
// # Designs
//
// The kernels are cuda/gf2n.cu, one module per field size (GF2N_W, the
// words of an element, fixed at compile time), loaded through the gpu
// runtime on first use. There are four designs (Design):
//
//   - PerThread: each thread multiplies whole elements. Karatsuba on 64-bit
//     words down to single words; each 64×64-bit carry-less product is
//     three 32×32-bit ones (Karatsuba again), each built from 16 integer
//     multiplications of operands split into every fourth bit (the carries
//     of a class never reach its next bit); the 2n-bit product is reduced
//     by shifting each high word by the polynomial's exponents. The levels
//     of two words (four at n = 256) are unrolled in registers; the larger
//     ones are functions of their own over local arrays, which keeps the
//     kernels small and, measured, runs faster than unrolling more (which
//     spills). 3^log2(n/32) products of 32 bits per element, against
//     (n/32)² for schoolbook.
//   - RegisterCache: the seed's design (Ben-Sasson, Hamilis, Silberstein and
//     Tromer, "Fast multiplication in binary fields on GPUs via register
//     cache"). A warp takes 32 elements and transposes them by warp
//     shuffles into n rows of 32-bit words in shared memory, row r holding
//     bit r of each element: bit-sliced, so that a product is ANDs and
//     XORs of rows. The rows form n/32 blocks; two blocks are multiplied by
//     the warp's n = 32 product, lane l holding row l of each and taking
//     the rows it needs from other lanes by shuffles (the register cache),
//     and the large product is built by schoolbook over all pairs of blocks,
//     as the seed's hybrid builds large fields on its n = 32 product. The
//     product's high rows are folded onto the low ones (one shuffle per
//     exponent of the polynomial) and the chunk is transposed back.
//   - SharedMemory: RegisterCache with the n = 32 product reading rows from
//     shared memory, the seed's baseline.
//   - RegisterCacheKaratsuba: RegisterCache with Karatsuba over the blocks,
//     unrolled into 3^log2(n/32) block products whose operands are sums of
//     blocks and whose results add at fixed offsets: the GPU Karatsuba the
//     seed leaves as future work. Every lane works on every product, so
//     the load stays balanced.
//
// PerThread is the fastest at every n; BENCHMARKS.md has the numbers of
// each design, the host-to-host call and the comparison with NTL and with
// field/gf2n on the CPU.
//
// # Concurrency
//
// A Multiplier is safe for concurrent use; its MulVecHost calls run one at
// a time. Nothing here is constant-time in a sense that matters for secret
// data.
package gf2n
