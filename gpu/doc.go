// Package gpu is gfpoly's GPU backend: a small CUDA runtime in pure Go and
// the kernels built on it.
//
// # Runtime
//
// Open loads the CUDA driver (libcuda.so.1) and NVRTC (libnvrtc.so) at run
// time through github.com/ebitengine/purego, so the package builds with
// CGO_ENABLED=0 and needs neither a CUDA toolkit nor a GPU to build. Where
// the driver or a device is missing, or NVRTC is missing and the binary has
// no prebuilt kernels for the device, Open returns an error wrapping
// ErrNoDevice and callers fall back to the CPU. Nothing happens at import
// time.
//
// A Device owns the device's primary context and one goroutine locked to an
// OS thread, on which every driver call runs (CUDA contexts are per thread).
// Its methods, and those of the buffers, streams and events made from it, can
// be called from any goroutine.
//
// Kernels are CUDA C++ sources embedded by package cuda. The library's own
// modules are also embedded compiled (cuda.Prebuilt: cubins for sm_90, PTX
// for compute_90); where the device's architecture has them, a module loads
// its image, found by a hash of its exact source and options, and needs no
// NVRTC (WithoutPrebuilt turns this off). Otherwise Device.Module compiles
// one with NVRTC for the device's own architecture (a cubin for sm_XY where
// NVRTC can emit it, else PTX), caches the result under
// os.UserCacheDir()/gfpoly keyed by a hash of the source, target, options and
// NVRTC version, and loads it. Module.Function finds a kernel and
// Function.Launch runs it with typed arguments.
//
// Memory: Buffer[T] is device memory holding values of a pointer-free type T
// (Alloc, Upload, Download, View, Free); HostBuffer[T] is pinned host memory
// exposed as a Go slice (AllocHost), for fast and asynchronous copies.
// Streams order asynchronous work, events mark points in it and time it on
// the device. A nil *Stream means the default stream and makes an operation
// wait for its work.
//
// Errors: CUDA status codes are *Error values naming the call and the code;
// out-of-memory matches ErrOutOfMemory, mismatched lengths ErrLength, use
// after Close or Free ErrClosed, compilation failures ErrCompile (with the
// NVRTC log). Buffers are freed on every path; Close frees what is left.
//
// # Field kernels
//
// GF64 and GF32 run MulVec, ScaleVec and MulAddVec on device buffers, equal
// bit for bit to field/gf64 (and to the GF(2^32) reference in the tests), in
// three designs: PerThread (one element per thread, carry-less products from
// integer multiplications), and the seed's bit-sliced RegisterCache and its
// SharedMemory baseline (see Design). GF(2^64) is
// GF(2)[x]/(x^64+x^4+x^3+x+1) and GF(2^32) is GF(2)[x]/(x^32+x^7+x^3+x^2+1);
// bit i of an element is the coefficient of x^i. dst may alias an input
// exactly.
//
// # Additive FFT and Reed–Solomon LDE
//
// Transforms (NewTransforms, or OpenTransforms to open a device too) runs the
// transforms of package domain on device buffers the caller owns: FFT and
// IFFT (monomial basis, Gao–Mateer), NovelFFT and NovelIFFT (Lin–Chung–Han),
// the basis conversions, and LDE from a subspace to a larger one, for one
// column or many columns stored back to back in one launch sequence. A
// subspace's tables go to the device once (Prepare) and are reused. Results
// equal package domain's bit for bit. LDEBatch and the *Host calls take host
// slices and stream them through pinned staging buffers, overlapping copies
// with the transforms; LDEBatch has the method set of rs.Accelerator, so a
// *Transforms given to rs.WithAccelerator runs an rs.Code's encodings. The
// kernels are in cuda/fft.cu.
//
// # Prime-field NTTs
//
// PrimeNTT runs gnark-crypto's Domain.FFT and FFTInverse (DIF, DIT, with and
// without a coset, and natural order in and out) on device buffers of
// fr.Element (BN254), goldilocks.Element, babybear.Element or
// koalabear.Element in their Montgomery form, uploaded as they are, bit for
// bit equal to gnark-crypto; a buffer of k·n elements is k columns of n.
// PrimeLDE extends columns to a blowup of 2 to 16 on the large domain's
// coset. Both are built from a gnark-crypto *fft.Domain and refuse domains
// of another field (ErrPrimeField) or inconsistent ones (ErrPrimeDomain).
// The kernels are in cuda/ntt_prime.cu.
//
// # Merkle trees
//
// RowHasher builds a SHA-256 Merkle tree over the rows of column-major data
// of any of these element types (leaf = H(leafTag ‖ row), node = H(nodeTag ‖
// left ‖ right), the row's elements in their canonical byte encodings, as
// package prover commits). Columns are absorbed a group at a time into
// per-row streaming states, so the tree of a trace too large for the device
// is hashed while its columns pass through; Transforms.LDEBatchThen hands
// each group's LDE to such a consumer while it is on the device. The kernels
// are in cuda/merkle.cu.
package gpu
