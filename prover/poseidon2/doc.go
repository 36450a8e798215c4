// Package poseidon2 holds Poseidon2 permutations over BabyBear, KoalaBear
// and Goldilocks on gnark-crypto's element types, with two families of
// parameters (Plonky3's and gnark-crypto's), and the sponge and the
// compression that turn them into the leaves and nodes of Merkle trees of
// field elements: with the Plonky3 preset, the digests of Plonky3's
// PaddingFreeSponge and TruncatedPermutation, so that a tree built from
// them has the root of Plonky3's MerkleTreeMmcs over the same matrix; with
// the gnark-crypto preset, bit for bit the permutations of gnark-crypto's
// field/<field>/poseidon2 packages (and their Compress and
// Merkle–Damgård hasher).
//
// # Elements
//
// States are slices of babybear.Element, koalabear.Element or
// goldilocks.Element (the Element constraint), in gnark-crypto's Montgomery
// form as gnark-crypto keeps them; nothing is converted on the way in or
// out. Every element passed in must be canonical (gnark-crypto's own
// operations only make canonical elements); NewWithParams checks the
// constants it is given.
//
// # Presets
//
// The permutation is Poseidon2 (Grassi, Khovratovich, Schofnegger,
// eprint 2023/323) as Params spells out: an initial multiplication by the
// external matrix M_E = circ(2·M4, …, M4), R_F/2 full rounds, R_P partial
// rounds (one S-box, on x_0, then M_I = J + diag(V)), R_F/2 full rounds.
//
//	field      t   preset        R_F  R_P  S-box  M4         V, round constants
//	BabyBear   16  Plonky3       8    13   x^7    MDSMat4    Plonky3 (1)
//	BabyBear   24  Plonky3       8    21   x^7    MDSMat4    Plonky3 (1)
//	KoalaBear  16  Plonky3       8    20   x^3    MDSMat4    Plonky3 (1)
//	KoalaBear  24  Plonky3       8    23   x^3    MDSMat4    Plonky3 (1)
//	Goldilocks 8   Plonky3       8    22   x^7    MDSMat4    Plonky3 (1)
//	Goldilocks 12  Plonky3       8    22   x^7    MDSMat4    Plonky3 (1)
//	BabyBear   16  gnark-crypto  8    13   x^7    MDSMat4    Plonky3's V, gnark-crypto's keys (2)
//	BabyBear   24  gnark-crypto  8    21   x^7    MDSMat4    Plonky3's V, gnark-crypto's keys (2)
//	KoalaBear  16  gnark-crypto  6    21   x^3    MDSMat4    Plonky3's V, gnark-crypto's keys (2)
//	KoalaBear  24  gnark-crypto  6    21   x^3    MDSMat4    Plonky3's V, gnark-crypto's keys (2)
//	Goldilocks 8   gnark-crypto  6    17   x^7    HLMDSMat4  gnark-crypto's V and keys (2)
//	Goldilocks 12  gnark-crypto  6    17   x^7    HLMDSMat4  gnark-crypto's V and keys (2)
//
// (1) Plonky3 at commit 5dc50e51436a811c62443e336f766015fecc9217: the round
// numbers of poseidon2_round_numbers_128, the literal tables
// <FIELD>_POSEIDON2_RC_<t>_{EXTERNAL_INITIAL,EXTERNAL_FINAL,INTERNAL} of
// baby-bear/, koala-bear/ and goldilocks/src/poseidon2.rs (the constants of
// default_<field>_poseidon2_<t>), and the internal diagonals of those files
// (MATRIX_DIAG_<t>_GOLDILOCKS; for the 31-bit fields, the arithmetic of
// internal_layer_mat_mul). testdata/plonky3 holds them in canonical form,
// with Plonky3's known answers, which the tests check.
// (2) gnark-crypto v0.22.0: NewParameters(t, R_F, R_P) and the round keys it
// derives from its seed; GetDefaultParameters for the narrow width, the
// sponge parameters its documentation names for the wide one; the
// diagonals diag8 and diag12 of field/goldilocks/poseidon2.
//
// PresetParams returns any preset's parameters and NewWithParams builds a
// permutation of other ones (any width that is a multiple of 4 up to 32, the
// field's S-box degree).
//
// # Sponge and compression
//
// A Sponge is Plonky3's PaddingFreeSponge<P, t, Rate, Out>, overwrite mode:
//
//	state = 0^t
//	for each block b of Rate input elements (the last one may be shorter):
//	    state[0:len(b)] = b        (the rest of the state is kept)
//	    state = P(state)
//	digest = state[0:Out]          (an empty input: Out zeros, no permutation)
//
// There is no padding: only inputs of a length the protocol fixes (the
// rows of a matrix) are collision resistant. The standard shape
// (Permutation.Sponge) has Out = DigestSize (8 for the 31-bit fields, 4 for
// Goldilocks) and Rate = t − Out: PaddingFreeSponge<_, 16, 8, 8>,
// <_, 24, 16, 8>, <_, 8, 4, 4> and <_, 12, 8, 4>.
//
// A Compression makes a node of two digests of Chunk elements:
//
//	Truncate (Plonky3's TruncatedPermutation<P, 2, Chunk, t>):
//	    digest = P(left ‖ right ‖ 0^(t−2·Chunk))[0:Chunk]
//	FeedForward (gnark-crypto's Permutation.Compress, Chunk = t/2):
//	    digest = P(left ‖ right)[Chunk:t] + right
//
// The standard compression (Permutation.Compression) is Truncate with
// Chunk = DigestSize. Compression.Chain is the Merkle–Damgård hash over a
// compression (h = 0^Chunk, h = Compress(h, block) per block of Chunk
// elements, a short last block padded with zeros in front), which with
// FeedForward is gnark-crypto's NewMerkleDamgardHasher fed the elements'
// big-endian bytes.
//
// Known answers (canonical integers), Plonky3 preset, from the examples and
// reproduced by a separate model of the definitions above:
//
//	BabyBear t=16, Sponge().Hash of 0, 1, …, 9:
//	    109871766 1072162525 734734822 1779529182 851455702 1097548423 803475089 1040688773
//	BabyBear t=16, Compression().Compress of 0…7 and 8…15:
//	    1906786279 1737026427 1959749225 700325316 1638050605 1021608788 1726691001 1761127344
//
// # Batches and layouts
//
// PermuteBatch takes states laid end to end (state i at [i·t, (i+1)·t)).
// HashRows takes a matrix row after row (row i at [i·rowLen, (i+1)·rowLen));
// HashColumns the same matrix as columns (row i is cols[0][i], cols[1][i],
// …), the layout of an LDE; both write digest i at dst[i·Out:]. CompressLayer
// takes one layer of a tree, children 2i and 2i+1 side by side, and writes
// parent i at dst[i·Chunk:]. A Merkle tree over one matrix (or over
// matrices of one height, their rows concatenated) as Plonky3's
// MerkleTreeMmcs builds it is HashColumns (or HashRows), then CompressLayer
// until one digest is left; shorter matrices, which Plonky3 injects into the
// upper layers, are the tree code's to place.
//
// # Implementations
//
// On amd64 with AVX-512 (gnark-crypto's utils/cpu.SupportAVX512, off with
// the purego or noavx build tags) the batch methods run on kernels
// generated by _gen: BabyBear and KoalaBear of widths 16 and 24 with the
// presets' internal diagonal on 16 states at once (one per 32-bit lane,
// signed Montgomery products in the S-boxes, two S-boxes interleaved, V as
// shifts, additions and one low multiplication; PermuteBatch of width 16
// transposes its 16 states in registers), Goldilocks of widths 8 and 12 on
// 8 states at once (one per 64-bit lane, canonical values inside,
// Montgomery at the edges). Permute runs one lane of the 16-lane kernels for the Plonky3
// preset of the 31-bit fields (faster than the Go code), gnark-crypto's own
// single-state AVX-512 permutation for its preset of those fields, and the
// Go code for Goldilocks. Everything else (other CPUs and builds, other
// parameters) runs in pure Go, without branches on the data. The results
// are the same on every path; the tests run each one.
//
// # Errors, concurrency, aliasing
//
// Constructors and methods return errors wrapping ErrWidth, ErrPreset,
// ErrParams or ErrLength for what a caller passed wrong; nothing panics on
// caller input. A Permutation, Sponge or Compression is immutable and safe
// for concurrent use. The batch methods spread their work over WithWorkers
// goroutines (default GOMAXPROCS, the calling goroutine among them) in
// pieces of 64 states, and return when it is done; with one worker (or one
// piece) the kernel paths allocate nothing. Permute and PermuteBatch work
// in place; Compress's dst may alias left or right, CompressLayer's dst may
// be the first half of children; otherwise outputs must not overlap inputs.
// Nothing here is claimed to run in constant time.
package poseidon2
