// Package cuda holds the CUDA C++ sources of gfpoly's GPU kernels, embedded
// into the binary with //go:embed so that a program built with
// CGO_ENABLED=0 carries them. Package gpu compiles them at run time with NVRTC
// for the device's own architecture, or loads the images in Prebuilt that
// were compiled from them ahead of time; this package does nothing itself.
//
// Each .cu file is one module. A file needs no headers and no toolkit beyond
// NVRTC: its kernels are declared extern "C" so that their names are stable.
// The files and what they hold:
//
//   - gf64.cu: GF(2^64) = GF(2)[x]/(x^64+x^4+x^3+x+1) vector products in two
//     designs: one element per thread (a 64×64 carry-less product built from
//     32-bit integer multiplications with holes, Karatsuba on halves), and the
//     bit-sliced design of Ben-Sasson, Hamilis, Silberstein and Tromer (chunks
//     of 32 elements × 64 rows of 32-bit words, transposition kernels, ring
//     multiplication with a warp-shuffle register cache or with shared memory,
//     2-gapped reduction).
//   - gf32.cu: the same for GF(2^32) = GF(2)[x]/(x^32+x^7+x^3+x^2+1).
//   - fft.cu: the additive FFT of package domain on a GPU (gpu.Transforms):
//     the Lin–Chung–Han butterfly network, the Gao–Mateer basis conversion
//     (Taylor-expansion steps and twists) and the LDE's per-coset networks,
//     several levels per pass on shared-memory tiles of 2^11 elements; it is
//     compiled together with gf64.cu's multiplication.
//   - ntt_prime.cu: prime-field NTTs on gnark-crypto's element layouts
//     (BN254 scalar field, Goldilocks, BabyBear, KoalaBear, Montgomery form)
//     for gpu.PrimeNTT and gpu.PrimeLDE: radix-2 and register passes over
//     shared-memory tiles, four-step passes (a small transform per pass, one
//     twiddle product per element between passes), BN254 products on 32-bit
//     limbs in PTX carry chains, bit reversal and the LDE's zero-padding.
//   - merkle.cu: SHA-256 Merkle trees over the rows of column-major data
//     (gpu.RowHasher): per-row streaming states fed a group of columns at a
//     time, the elements' canonical byte encodings (GF(2^64) little-endian;
//     gnark-crypto elements reduced from Montgomery form, big-endian), and
//     one launch per tree level.
package cuda

import "embed"

// Sources holds the embedded kernel sources, by file name ("gf64.cu", ...).
//
//go:embed *.cu
var Sources embed.FS

// Prebuilt is rebuilt by go generate ./cuda on a machine with NVRTC 13.0
// (no GPU needed).
//
//go:generate go test ../gpu -run ^TestBuildPrebuilt$ -count=1 -args -gpu.buildprebuilt ../cuda/prebuilt -gpu.prebuilttargets sm_90,compute_90

// Prebuilt holds the modules package gpu compiles from Sources, compiled
// ahead of time: prebuilt/<target>/<key>.gz, gzip-compressed cubins (target
// sm_XY) or PTX (compute_XY), and prebuilt/MANIFEST, which lists them.
// Package gpu loads an image instead of running NVRTC when its key, a hash
// of the exact program text and compiler options, matches; prebuilt/README.md
// says how they are built.
//
//go:embed prebuilt
var Prebuilt embed.FS
