// Package primentt runs prime-field number-theoretic transforms on a GPU, on
// gnark-crypto's own element types and with gnark-crypto's semantics: the
// GPU twin of the fft.Domain transforms and of package prover/prime's LDE.
//
// The fields are BN254's scalar field (fr.Element), Goldilocks
// (goldilocks.Element), BabyBear (babybear.Element) and KoalaBear
// (koalabear.Element). Elements are uploaded as they are, in gnark-crypto's
// Montgomery form and memory layout, and every result equals gnark-crypto's
// bit for bit: NTT's FFT, FFTInverse, CosetFFT and CosetFFTInverse are
// Domain.FFT and Domain.FFTInverse, without and with fft.OnCoset(), in the
// orders DIF (natural in, bit-reversed out: fft.DIF), DIT (bit-reversed in,
// natural out: fft.DIT) and Natural (natural in and out). LDE extends
// columns from a small domain to a large one of 2, 4, 8 or 16 times its
// size, evaluated on the large domain's coset: small.FFTInverse, then
// large.FFT(·, fft.OnCoset()) on the zero-padded coefficients.
//
// Both are built from a gnark-crypto *fft.Domain of the element's field
// (ecc/bn254/fr/fft, field/goldilocks/fft, ...) and check it: a domain of
// another field returns an error wrapping ErrField, a nil or inconsistent
// one (its fields are not what fft.NewDomain computes) or one above 2^30
// elements ErrDomain. The domain's tables (twiddles, coset powers, 1/n) go
// to the device at construction and stay until Close: about 8·√n + 8,192
// elements, and for BN254 above 2^11 the constants of its products, 2^k +
// n/2^k pairs of 64 bytes per direction (k = min(logn, 16), or 17 and 18
// at the sizes where that saves a product: 2^17, 2^18, 2^25 to 2^27),
// and for the 31-bit fields the pass twiddles of each middle pass of up to
// 8 bits on bits [lo, lo+nst), 2^(lo+nst) ≤ 2^18 elements per direction.
// At 2^26 that is under 1 MiB for Goldilocks, 2 MiB for the 31-bit fields,
// 36 MiB for BN254. NewNTT reads a domain's cardinality, roots, coset shift and
// inverses, not gnark-crypto's precomputed tables (it checks them where a
// domain has them): a domain built with fft.WithoutPrecompute() serves
// the same and spares the host those tables, about 4n elements (8 GiB for
// BN254 at 2^26).
//
// A device buffer of k·n elements holds k columns of n, column j at
// elements [j·n, (j+1)·n), transformed in one launch sequence (a batch):
// k from 1 to the buffer's size, one grid row per column, 65535 columns a
// launch. A transform of one shared-memory tile (2^11 elements for BN254,
// 2^12 for the others) runs in one pass; larger ones in two to four
// four-step passes, each a set of small transforms over a window of index
// bits followed (DIF) or preceded (DIT) by one twiddle product per element.
// A lone column (and a few columns that would leave multiprocessors idle)
// takes the passes a search measured fastest for its size and field,
// where one beat the default (most sizes of 2^12..2^23, and the 31-bit
// fields' 2^25 and 2^26; BN254's up to 2^20 with 2 elements per thread,
// the latency of each thread's chain of products being what bounds it
// there, Goldilocks' 2^13..2^17 with 4 instead of 8 and the 31-bit
// fields' 2^12..2^20 with 8 instead of 16), or else passes with smaller
// tiles, so that every pass has at least one block per multiprocessor; natural order takes passes of its
// own where they were measured faster than the DIF order's (BN254 2^19
// and 2^20). BN254 computes on 32-bit limbs in
// PTX carry chains, lazily reduced between the four-step stages, with
// Shoup products by the table constants and by 1/n; Goldilocks multiplies
// by the radix-8 twiddles of DIF passes as shifts; the 31-bit fields' middle
// passes read their twiddles from tables laid out as the data instead of
// building them. Natural order above
// one tile runs the DIF passes (or the inverse's) out of place through k·n
// elements of temporary device memory, taken in stream order for the call:
// the first pass reads the columns, the last writes them back in natural
// order, in runs of consecutive elements, so no separate bit reversal
// follows. Where that was measured slower (a few sizes, natBitrev), where
// no temporary memory is to be had, and for one tile, the passes run in
// place and a bit reversal follows, in pairs of square tiles through
// shared memory at about the device's copy rate. The LDE multiplies its n
// coefficients by the coset powers while spreading them over the large
// domain, so the large transform has no coset pass.
//
// Calls take a stream: they queue their work and return, or wait for it
// with a nil stream. On a stream, a transform's passes are captured as a
// CUDA graph on its second call with the same buffer, column count, order
// and direction and queued as one unit from then on (graph.go): one
// submission instead of one per pass. Every kernel is a programmatic
// dependent launch (gpu's Queue.LaunchDependent; Hopper): it may start
// while the kernel ahead of it on the stream finishes and waits for that
// kernel's writes before touching memory, which hides the gap between
// passes. An NTT or LDE is safe for concurrent use; calls on the same
// buffer must be ordered by the caller.
//
// Challenges live in each field's extension (Ext): gnark-crypto's
// extensions.E4 of BabyBear and KoalaBear, Goldilocks' extensions.E2, and
// for BN254 fr.Element itself. CombineExt combines base columns with
// extension coefficients in one pass (Combine with base coefficients);
// EvalCoset evaluates columns held as values on a coset (a Coset, or
// LDECoset of an LDE's domain) at extension points by the barycentric
// formula, exactly: both equal gnark-crypto's arithmetic bit for bit.
//
// The kernels are cuda/ntt_fields.cu, ntt_passes.cu, ntt_fourstep.cu,
// ntt_bn254.cu and ntt_combine.cu, one module per field (cuda.NTTProgram),
// and cuda/ntt_ext.cu after ntt_fields.cu for the extension fields
// (cuda.ExtProgram), loaded through the gpu runtime.
package primentt
