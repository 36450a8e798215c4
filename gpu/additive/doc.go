// Package additive runs the additive FFTs of package domain, and the
// Reed–Solomon low-degree extension built on them, on a GPU.
//
// Transforms (New on an open gpu.Device, or Open to open one too) holds the
// kernels and the tables of the subspaces it has met. It runs, on device
// buffers the caller owns:
//
//   - FFT and IFFT: the Gao–Mateer transforms between a polynomial's
//     monomial coefficients and its evaluations over an affine subspace
//     (domain's Subspace.FFT and IFFT);
//   - NovelFFT and NovelIFFT: the Lin–Chung–Han transforms in the novel
//     polynomial basis, and the conversions MonomialToNovel and
//     NovelToMonomial;
//   - LDE: the evaluations of the same polynomials over a larger subspace
//     (domain.LDE).
//
// Every result equals package domain's bit for bit: the device runs the
// same steps (butterfly levels, Taylor-expansion steps, twists) on the same
// field elements, in the subspace order of DESIGN.md (element i of a
// subspace is s + Σ_j bit_j(i)·β_j). GF(2^64) is field/gf64's field.
//
// A buffer holds one or more columns of a subspace's Size() elements back to
// back; every column is transformed by one launch per pass. A pass loads a
// tile of 2^11 elements (index bits [0, c) and a window of higher bits) into
// shared memory and runs several steps on it; butterfly levels at tile bits
// of 6 and up multiply by their twiddles through product tables built in
// shared memory, two levels per sweep. A subspace's tables (twiddles and
// twist powers, O(m·2^10 + 2^(m−8)) elements, spanned from the constants
// of domain's plan, Subspace.Levels) go to the device on its first
// use and stay there, keyed by the *domain.Subspace pointer, until Release
// or Close: reuse Subspace values.
//
// The host calls (LDEBatch, FFTHost, ...) take columns in Go slices and
// stream them through pinned staging buffers in groups, over two streams,
// so that copies overlap the transforms. LDEBatch has the method set of
// rs.Accelerator: a *Transforms given to rs.WithAccelerator runs an rs.Code's
// encodings. LDEBatchThen also hands each group's LDE, while it is on the
// device, to a function of the caller's (package prover hashes it there with
// gpu/rowhash).
//
// Operations on device buffers take a stream: they queue their work and
// return, or wait for it with a nil stream. Bad lengths return errors
// wrapping gpu.ErrLength, bad subspaces domain's errors, overlapping
// buffers ErrOverlap, and scratch that does not fit an error matching
// gpu.ErrOutOfMemory that says how much was needed. A Transforms is safe
// for concurrent use, except that Release must not run while work on the
// same subspace is in flight; its host calls run one at a time.
//
// The kernels are cuda/fft.cu, compiled with cuda/gf64.cu's multiplication
// (the program "fft.cu"), loaded through the gpu runtime.
package additive
