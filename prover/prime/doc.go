// Package prime runs prime-field number-theoretic transforms (NTTs) on
// batches of columns, on gnark-crypto's own types, so that a prover built on
// gnark-crypto can do the same work as gfpoly's binary-field path (many
// columns, evaluations to evaluations, all cores) without converting its data.
//
// # Fields and representation
//
// Four fields, each with gnark-crypto's element type and fft package:
//
//	BN254 scalar field  fr.Element          ecc/bn254/fr/fft    2-adicity 28
//	Goldilocks          goldilocks.Element  field/goldilocks/fft 2-adicity 32
//	BabyBear            babybear.Element    field/babybear/fft  2-adicity 27
//	KoalaBear           koalabear.Element   field/koalabear/fft 2-adicity 24
//
// Elements are in gnark-crypto's Montgomery form, exactly as gnark-crypto
// stores them; nothing is converted. The BN254, BabyBear and KoalaBear
// transforms are gnark-crypto's own (Domain.FFT and Domain.FFTInverse); the
// Goldilocks transforms run on the module's kernels (internal/ntt64: the
// reduction special to 2^64 − 2^32 + 1, radix-4 passes blocked for the
// caches, assembly where the CPU has it), with the domain's own roots and
// shift, and give the same elements bit for bit. This package validates the
// domain and the shapes, schedules many columns over the cores, adds the
// natural-to-natural order and the low-degree extension, and returns errors
// where gnark-crypto would silently compute garbage (a column of the wrong
// length, a domain whose fields do not belong together). Results are bit for
// bit those of gnark-crypto, for canonical elements (every element
// gnark-crypto produces is).
//
// # Domains
//
// An NTT wraps one *fft.Domain built by gnark-crypto's fft.NewDomain (with or
// without precomputed tables, with any coset shift). The generic constructors
// New and NewLDE take the domain as any and return an error wrapping ErrField
// when it belongs to another field than the element type; the typed ones
// (NewBN254, NewGoldilocksLDE, ...) let the compiler check it. Construction
// checks that the cardinality is a power of two within the field's 2-adicity,
// that Generator is gnark-crypto's root of unity of that order, that the
// inverses match, that the coset shift is not zero, and that precomputed
// tables have the domain's size.
//
// # Orders and cosets
//
// A column of an n-element domain with generator ω holds either the n
// coefficients c_0..c_{n-1} of a polynomial p or its evaluations p(s·ω^i),
// with s = 1 for FFT and FFTInverse and s = g, the domain's
// FrMultiplicativeGen, for CosetFFT and CosetFFTInverse. Order says how the
// input and the output are laid out: DIF (gnark-crypto's fft.DIF) reads
// natural order and writes bit-reversed order, DIT (fft.DIT) reads
// bit-reversed order and writes natural order, Natural reads and writes
// natural order. Bit-reversed order puts entry bitreverse(i) at position i.
//
// # Low-degree extension
//
// LDE takes n evaluations of p (degree < n) on the small domain's subgroup
// ⟨ω_n⟩ and returns its N = blowup·n evaluations (blowup 2, 4, 8 or 16) on
// the large domain's coset g·⟨ω_N⟩, g = the large domain's
// FrMultiplicativeGen: gnark-crypto's default is the field's multiplicative
// generator (5 for BN254, 7 for Goldilocks, 31 for BabyBear, 3 for KoalaBear),
// and fft.WithShift chooses another. The result is exactly
// small.FFTInverse followed by large.FFT(·, fft.OnCoset()) on the zero-padded
// coefficients.
//
// # Aliasing, allocation and concurrency
//
// The transforms work in place on the caller's columns. LDE.Encode leaves src
// unchanged and writes dst; src[i] may overlap dst[i] (src[i] = dst[i][:n]
// extends in place), but a column must not overlap another column. When a call
// returns an error it has modified nothing.
//
// A batch call runs its columns on the NTT's workers (WithWorkers, default
// GOMAXPROCS): with at least as many columns as workers each column runs on
// one goroutine, with fewer columns each transform runs in parallel on its
// share of the workers (gnark-crypto's parallel transform, or ntt64's for
// Goldilocks). A call allocates a constant few bytes, nothing per column,
// beyond what the transforms allocate: gnark-crypto's (their goroutines;
// tables for domains built WithoutPrecompute; for BabyBear and KoalaBear
// domains above 2^22, a bit-reversed coset table per DIT coset transform),
// and for Goldilocks the goroutines of a column split over several workers
// and, in a Natural-order LDE of such a column, one copy of its n
// coefficients. The first Natural- or DIT-order Encode of an LDE builds a
// table of n elements (g^rev(t)): the LDE multiplies the n coefficients by
// the coset factors before spreading them, so its large transform is a
// plain DIT (no coset pass over N elements, and none of gnark-crypto's
// bit-reversed reads of its coset table).
//
// Goldilocks builds its own tables: at construction, the twiddles (one
// forward and one inverse set shared by every Goldilocks NTT and LDE of the
// process, 1.5·N words each for the largest N built so far) and, for an LDE,
// n words of scale factors; on the first coset transform of an NTT, the
// coset table it needs (n words). The Goldilocks LDE in Natural order
// multiplies the coset factors into the small inverse transform and starts
// the large transform at stage log2(blowup) from replicated coefficients,
// with the same result as the composition above.
//
// NTT and LDE values are immutable after construction and safe for concurrent
// use; concurrent calls must not share columns. Nothing here is constant-time.
package prime
