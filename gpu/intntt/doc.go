// Package intntt multiplies integer polynomials and big integers exactly on
// a GPU: the GPU twin of poly/intpoly (seed 004), plugged into it as an
// intpoly.Accelerator (intpoly.WithAccelerator(acc) sends Mul, MulBig and
// Multiplier.MulPacked here).
//
// # Method
//
// A product of polynomials with |a_i| < 2^bitsA, |b_j| < 2^bitsB and
// t = min(len a, len b) has coefficients below 2^need in magnitude, need =
// bitsA + bitsB + ⌈log2 t⌉ + 1 with the sign. It is computed modulo the
// fewest primes p < 2^31 with p ≡ 1 mod N (N the least power of two
// ≥ len a + len b − 1), largest first, whose product M ≥ 2^need; 31-bit
// primes suit the GPU's 32-bit multipliers (Montgomery products with
// R = 2^32, every value below p). The bounds are the operands' exact bit
// lengths (MulPacked scans them on the host) or the caller's
// (MulPackedDevice). One launch sequence on one stream does the rest, all
// primes at once (grid y = prime):
//
//   - reduce: each coefficient's limbs times precomputed R·2^(32u) mod p,
//     two's-complement sign by subtracting 2^(64W) mod p;
//   - forward transforms (decimation in frequency, natural to bit-reversed
//     order): two levels a pass over global memory while the stride
//     exceeds the tile, then the last twelve levels on tiles of 2^12
//     residues in shared memory;
//   - pointwise products, with the inverse's 1/N folded into one constant;
//   - inverse transforms (decimation in time, bit-reversed to natural): the
//     tile first, then the global passes;
//   - Chinese remaindering per coefficient, one thread each: Garner's
//     mixed-radix digits with precomputed products of inverses
//     (k(k−1)/2 Montgomery products), Horner's rule in 32-bit limbs, the
//     symmetric representative by comparing with (M−1)/2 and subtracting
//     M, written as two's complement limbs of the destination's width.
//
// Twiddle tables (w^m·R mod p, forward and inverse, N/2 per prime) are
// computed on the device once per (N, number of primes) and kept with the
// plan; so are the reduction tables per operand width.
//
// MulNat (and so MulBig) cuts each operand into chunks of c limbs (c ≤ 4
// chosen by a cost model, 2 for 2^20…2^28-bit operands: 9 primes), runs the
// same sequence unsigned, then a gather kernel sums for each limb of the
// product the coefficient limbs that land on it (a 128-bit sum lo + 2^64·hi,
// hi a few bits), and the carries resolve on the device by carry lookahead
// (intntt_carry_*): limb m's sum lo[m] + hi[m−1] generates or propagates a
// carry; a warp's 32 carries come from one 64-bit addition of its
// generate and propagate masks (ballots), a block's 32 warps the same way,
// and one more launch scans the blocks' summaries. Only the product's
// limbs return to the host.
//
// # Limits
//
// Transforms up to 2^27 points and up to 256 primes, and only as many as
// there are primes p ≡ 1 mod N below 2^31: about 99 at N = 2^21 (about
// 2100-bit coefficients), 10 at 2^24 (300 bits), 7 at 2^25. Past them a
// product returns an error wrapping intpoly.ErrTooLarge that names the
// limit, before anything is copied to the device; nothing wraps silently.
// intpoly's Mul and Multiplier.MulPacked, given this Accelerator, answer
// that error by cutting the coefficients into 64-bit slices, one product
// per pair of slices (each within 2·65 bits plus the length's), summed on
// the host: 2^24-point products of 256-bit coefficients take 16 of them.
// (Slicing in the transform domain instead, each slice transformed once
// and 5–6 primes a slice product, would cost about 1.4× one product;
// BENCHMARKS.md.)
//
// # Entry points
//
// MulPacked and MulNat are host to host (through a pinned staging buffer
// kept between calls). MulPackedDevice works on device buffers in
// intpoly.Packed's layout, MulNatDevice on device buffers of little-endian
// 64-bit limbs (limb t of weight 2^(64t) at index t), both queued on the
// caller's stream. An Accelerator runs one call at a time and reuses its
// scratch buffers.
//
// Results equal poly/intpoly's CPU results bit for bit (both are exact);
// the tests check it on random signed inputs, and check a Go
// transliteration of every kernel against the CPU on any machine. The
// kernels are cuda/intntt.cu (cuda.IntNTTProgram).
package intntt
