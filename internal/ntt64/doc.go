// Package ntt64 is the number-theoretic transform over the Goldilocks field
// GF(P), P = 2^64 − 2^32 + 1, on the CPU: the kernels behind prover/prime's
// Goldilocks transforms.
//
// # Representation
//
// Values are uint64 in [0, P), the canonical representatives. A column may
// carry a fixed factor on every value: gnark-crypto's goldilocks.Element
// stores x·2^64 mod P (Montgomery form), and because the transforms are
// linear and apply every twiddle and scale factor in plain form (a
// Montgomery-free product a·w mod P), the factor passes through: the output
// is the Montgomery form of the plain transform, bit for bit what
// gnark-crypto's fft.Domain computes. Products use the reduction special to
// P: with 2^64 ≡ 2^32 − 1 and 2^96 ≡ −1, a 128-bit product hi·2^64 + lo with
// hi = hh·2^32 + hl reduces to lo − hh + hl·(2^32 − 1), two corrections and
// one final conditional subtraction. Every kernel keeps every value
// canonical, so no pass is needed at the end.
//
// # Transforms
//
// A Plan of n = 2^k points (k ≤ 32) uses gnark-crypto's roots of unity
// (RootOfUnity(k) = Root^(2^(32−k))) and one coset shift. Plan.Transform runs
// forward or inverse, decimation in frequency (natural order in, bit-reversed
// out) or in time (bit-reversed in, natural out), on the subgroup or its
// coset, in place, with the semantics of gnark-crypto's Domain.FFT and
// Domain.FFTInverse.
//
// The stages are those of the radix-2 Gentleman–Sande (DIF) and
// Cooley–Tukey (DIT) networks, grouped for the memory hierarchy: blocks of
// 2^10 or 2^11 elements (16 KiB, with their twiddles within a 32 KiB L1) run
// all their stages at once, as radix-4 passes (two stages per load and
// store), then the three smallest stages together; larger blocks are split
// by radix-4 passes over the whole block, depth first, so a column of 2^20
// crosses the caches beyond L1 five times, not twenty. The coset factors and
// the 1/n of the inverse ride on the first or last pass, on data in cache.
// A transform of 2^14 points or more spreads its passes and its blocks over
// the goroutines it is given.
//
// Twiddle tables hold ω_{2m}^j for every stage half-size m (n − 1 values);
// the root of each stage does not depend on the transform's size, so the
// process keeps one forward and one inverse table, grown to the largest
// plan, and every plan shares it. Coset tables (g^i, or g^−i/n, in the
// order the transform needs them) are built per plan on first use.
//
// # Implementations
//
// The kernels (a radix-2 pass, a radix-4 pass, the three small stages, and
// element-wise products) have a generic pure-Go implementation, the
// reference, always built, and on amd64 an AVX-512 one (AVX-512F: eight
// elements per register, the 64×64-bit products from four VPMULUDQ, the
// corrections as unsigned compares into mask registers and masked adds; the
// three small stages on two 8-element blocks at a time, rearranged between
// stages with VSHUFI64X2 and VPERMT2Q). The fastest the CPU supports (read
// once from golang.org/x/sys/cpu) is chosen at initialisation. Tests walk
// every implementation through the registry in internal/cpufeat
// (cpufeat.Each("ntt64", ...)); -tags purego builds the generic one alone.
//
// # Concurrency
//
// A Plan is immutable once built and safe for concurrent use; concurrent
// transforms must not share a column. Nothing here is constant-time.
package ntt64
