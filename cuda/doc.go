// Package cuda holds the CUDA C++ sources of gfpoly's GPU kernels, embedded
// into the binary with //go:embed so that a program built with
// CGO_ENABLED=0 carries them, and says how they are joined into programs:
// the compilation units that package gpu compiles with NVRTC at run time
// (Programs, Program) or loads from the images in Prebuilt, compiled from
// them ahead of time. This package does nothing itself.
//
// A file needs no headers and no toolkit beyond NVRTC; kernels are declared
// extern "C" so that their names are stable. The files, and the operation
// packages under gpu/ that launch them:
//
//   - gf64.cu: GF(2^64) = GF(2)[x]/(x^64+x^4+x^3+x+1) vector products in two
//     designs (gpu/gfvec): one element per thread (a 64×64 carry-less
//     product built from 32-bit integer multiplications with holes,
//     Karatsuba on halves), and the bit-sliced design of Ben-Sasson,
//     Hamilis, Silberstein and Tromer (chunks of 32 elements × 64 rows of
//     32-bit words, transposition kernels, ring multiplication with a
//     warp-shuffle register cache or with shared memory, 2-gapped
//     reduction). Program "gf64.cu".
//   - gf32.cu: the same for GF(2^32) = GF(2)[x]/(x^32+x^7+x^3+x^2+1).
//     Program "gf32.cu".
//   - gf128.cu: GF(2^128) = GF(2^64)[y]/(y²+y+x^63) (field/gf128, 16-byte
//     elements a0 then a1) on gf64.cu's products (gpu/gfvec's GF128):
//     element-wise products, batch inversion (Montgomery's trick per
//     thread), the combination of GF(2^64) columns with GF(2^128)
//     coefficients (unreduced partial products, one reduction), and the
//     evaluation of columns at GF(2^128) points by the subspace's
//     barycentric formula (weights from inverted norms, inner products by
//     four-bit-window table lookups in shared memory). Program "gf128.cu":
//     gf64.cu, then gf128.cu.
//   - fft.cu: the additive FFT of package domain on a GPU (gpu/additive):
//     the Lin–Chung–Han butterfly network, the Gao–Mateer basis conversion
//     (Taylor-expansion steps and twists) and the LDE's per-coset networks,
//     several levels per pass on shared-memory tiles of 2^11 elements.
//     Program "fft.cu": gf64.cu, then fft.cu.
//   - ntt_fields.cu, ntt_passes.cu, ntt_fourstep.cu, ntt_bn254.cu:
//     prime-field NTTs on gnark-crypto's element layouts (BN254 scalar
//     field, Goldilocks, BabyBear, KoalaBear, Montgomery form) for
//     gpu/primentt: the fields' arithmetic; the one-tile radix-2 and
//     register passes, bit reversal and the LDE's zero-padding; the
//     four-step passes (a small transform per pass, one twiddle product per
//     element between passes) and the entry points; BN254 products on
//     32-bit limbs in PTX carry chains and BN254's four-step passes. One
//     program per field, NTTProgram: the files in that order (ntt_bn254.cu
//     in BN254's only), after defines that keep that field's kernels only.
//   - merkle.cu: SHA-256 Merkle trees over the rows of column-major data
//     (gpu/rowhash): per-row streaming states fed a group of columns at a
//     time, the elements' canonical byte encodings (GF(2^64) little-endian;
//     gnark-crypto elements reduced from Montgomery form, big-endian), and
//     one launch per tree level. One program per element type,
//     MerkleProgram.
//   - gf2n.cu: batched products in GF(2^n), n = 128 ... 2048 (gpu/gf2n,
//     field/gf2n's fields and layout): one element per thread by Karatsuba
//     on 64-bit words (32x32 carry-less products by integer multiplications
//     with holes), and the bit-sliced design of Ben-Sasson, Hamilis,
//     Silberstein and Tromer built on the warp's n = 32 product (register
//     cache or shared memory), by schoolbook or Karatsuba over 32-row
//     blocks. One program per field size, GF2nProgram: a define of the
//     element's words, then gf2n.cu.
//   - fermat.cu: the FFT over the generalized Fermat prime
//     p = (2^63+2^34)^8+1 (gpu/fermat, field/fermat's radix-r elements of
//     eight 64-bit digits, element-major): field/fermat's Stockham passes,
//     radix-16 DFTs of digit shifts in shared memory with one general
//     product per element between passes, and the big-integer product's
//     chunking and recombination. Program "fermat.cu".
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
