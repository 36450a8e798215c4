// Package domain holds affine subspaces of GF(2^64) and the additive FFT
// and IFFT over them.
//
// # Subspaces and order
//
// A Subspace is a shift s and an ordered basis β_0..β_{m−1}, linearly
// independent over GF(2). Its element i is s + Σ_j bit_j(i)·β_j: bit 0 of i
// selects β_0. Every transform input and output in this package uses this
// order (DESIGN.md). New accepts up to MaxDim basis elements; the transforms
// accept dimensions up to MaxTransformDim (40).
//
// # Transforms
//
// FFT takes the 2^m coefficients of a polynomial in the monomial basis
// (a[0] the constant term) and returns its 2^m evaluations in subspace
// order; IFFT is its exact inverse. FFTTrunc skips the work on trailing zero
// coefficients.
//
// The novel polynomial basis of Lin, Chung and Han (FOCS 2014) is defined by
// the basis only, not the shift: with W_r(x) = Π_{a ∈ span(β_0..β_{r−1})}(x−a)
// (W_0(x) = x) and Ŵ_r = W_r / W_r(β_r), the basis polynomial X_i is the
// product of the Ŵ_r for the bits r set in i; deg X_i = i. NovelFFT and
// NovelIFFT map novel coefficients to evaluations and back with m·2^(m−1)
// multiplications; MonomialToNovel and NovelToMonomial convert coefficients.
//
// FFT is MonomialToNovel followed by NovelFFT: the monomial-to-novel
// conversion is Gao–Mateer's recursion (twists g(x) = f(β·x) and Taylor
// expansions at x²−x, Algorithms 3.4 and 3.5 of the seed thesis) split on
// the first basis element and left unshuffled, and the Gao–Mateer merges
// are then exactly the novel-basis butterflies.
//
// LDE maps evaluations over a subspace S to evaluations over a larger T;
// its output equals T.FFT of the zero-padded S.IFFT, bit for bit. It is fast
// when T's basis starts with S's basis (any shift): S's novel coefficients
// are then T's, and T is 2^(n−k) cosets of S's linear space, each one
// forward network of size 2^k. Other targets go through the monomial basis.
//
// # Memory, aliasing, concurrency
//
// Transforms work in place on the caller's slice; a wrong length returns an
// error wrapping ErrLength and leaves the slice untouched. Each Subspace
// builds its plan (O(m²) field elements plus tables of a few thousand
// elements) on first use. After that, transforms of fewer than 2^18
// elements allocate nothing; larger ones split their work over GOMAXPROCS
// goroutines (a few small allocations per call for the goroutines). Batch
// functions (FFTBatch, LDEBatch, …) spread the columns over GOMAXPROCS
// goroutines instead. A Subspace is immutable and safe for concurrent use.
//
// Big arrays are processed in cache-sized pieces: the butterfly network
// depth first, and the monomial/novel conversion with its first three
// Taylor levels and the twist fused into one pass over memory, and depth
// first too: after a few depths over the whole array, groups of its
// independent interleaved subproblems are gathered into a buffer (one per
// goroutine: pooled, 32 KiB or 1 MiB; for transforms of more than 2^22
// elements also 32 MiB, mapped outside the Go heap on Linux and released at
// the end of the call), finished there and scattered back.
//
// # Code layout
//
// Every choice of code path is made in one place and recorded in a plan:
//
//   - subspace.go: Subspace, its limits and errors.
//   - transform.go, lde.go, batch.go: the public API (check → plan → run).
//   - plan.go: the plan of a subspace for a kernel set: the twiddle and twist
//     tables, the step of every network level (plan.steps: chunk, radix-2,
//     4 or 8) and of every chunk size (plan.recipes), the conversion's
//     recipe for every array size (plan.convs: gather depth, fused or plain
//     depths) and the step of the Taylor expansion for every block size
//     and stride (plan.taylorSteps), and the tuning (radix-8 kernels,
//     radix-4 threshold, gathered sizes, parallel threshold) as fields with
//     their defaults (defaultTuning); tests build plans with other tunings
//     instead of setting globals. Subspace.Levels
//     exports the constants the twiddles and twist factors come from, so
//     that package gpu/additive builds its device tables from this plan.
//   - network.go: the network executor: forward and inverse walk the same
//     steps in mirror order with a budget of goroutines (one: everything on
//     the calling goroutine, allocation-free), and the chunk levels.
//   - convert.go: the monomial ↔ novel conversion executor (depth first,
//     gathered subproblems, fused twist-and-Taylor passes), same budget.
//   - goroutines.go, mem.go: goroutine helpers; scratch and gather buffers.
//   - kernels.go: the kernel sets (generic, avx512), chosen there and
//     registered in internal/cpufeat as "domain"; kernels_*.go and
//     kernels_*_amd64.s: each assembly kernel beside its generic twin.
//
// Nothing here is constant-time: running time depends only on sizes, but
// no effort is made against side channels.
package domain
