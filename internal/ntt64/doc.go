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
// all their stages at once, as radix-4 steps (two stages per load and
// store), then the three smallest stages together; larger blocks are split
// by radix-4 passes over the whole block, depth first, so a column of 2^20
// crosses the caches beyond L1 five times, not twenty. A radix-4 step
// multiplies by ω_4 = ±2^48 with a shift and a reduction, so it takes three
// general products, not four; the three smallest stages multiply only by
// 8th and 4th roots of unity, which in this field are powers of two
// (2^96 ≡ −1, ω_8 = −2^24), so all their products are shifts. The coset
// factors and the 1/n of the inverse ride on the first or last pass, on
// data in cache. A transform of 2^14 points or more spreads its passes and
// its blocks over the goroutines it is given.
//
// Twiddle tables hold ω_{2m}^j for every stage half-size m (n − 1 values)
// and ω_{4q}^{3j} for the radix-4 steps (n/2 values); the root of each
// stage does not depend on the transform's size, so the process keeps one
// forward and one inverse set, grown to the largest plan, and every plan
// shares it. Coset tables (g^i, or g^−i/n, in the order the transform needs
// them) are built per plan on first use.
//
// An Extender is the low-degree extension of prover/prime in natural order:
// the small inverse transform scales its coefficients by n^−1·g^rev(t)
// (the coset factors with the 1/n), and the large transform, whose input is
// those coefficients spread with stride B = N/n, skips its first log2 B
// stages, which would only copy each coefficient over its group of B: each
// block fills itself by replication. BitReverse permutes a column between
// natural and bit-reversed order by 8×8 tiles (tile m and tile rev(m),
// transposed with both coordinates bit-reversed), eight cache lines at a
// time.
//
// # Implementations
//
// The kernels (radix-2 and radix-4 passes, the three small stages, the
// replication, the tile permutation and element-wise products) have a
// generic pure-Go implementation, the reference, always built, and on amd64
// an AVX-512 one (AVX-512F: eight elements per register, the 64×64-bit
// products from four VPMULUDQ, the corrections as unsigned compares into
// mask registers and masked adds, two independent groups of columns
// interleaved instruction by instruction so that the products' dependency
// chains overlap; the small stages on 8×8 transposes of eight blocks). The
// fastest the CPU supports (read once from golang.org/x/sys/cpu) is chosen
// at initialisation. Tests walk every implementation through the registry
// in internal/cpufeat (cpufeat.Each("ntt64", ...)), and -v prints which ran;
// -tags purego builds the generic one alone. BENCHMARKS.md has the speed of
// each against gnark-crypto's transforms.
//
// # Concurrency
//
// A Plan is immutable once built and safe for concurrent use; concurrent
// transforms must not share a column. Nothing here is constant-time.
package ntt64
