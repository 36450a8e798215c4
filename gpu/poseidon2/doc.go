// Package poseidon2 runs package prover/poseidon2's permutations on a GPU:
// BabyBear and KoalaBear of widths 16 and 24, Goldilocks of widths 8 and
// 12, with the parameters of any preset (or of NewWithParams within the
// kernels' bounds: at most 8 full and 32 partial rounds), bit for bit the
// CPU's.
//
// A Spec is one permutation in the form the kernels take (SpecOf); a
// TreeSpec a sponge and a compression, the leaves and nodes of a field
// Merkle tree (TreeSpecOf), which gpu/rowhash builds over the rows of a
// trace on the device (rowhash.NewField). Permutation runs batches of
// states held on the device (PermuteBatch), one state per thread.
//
// The kernels are cuda/poseidon2.cu, one module per field
// (cuda.Poseidon2Program), loaded through the gpu runtime: a state lives in
// one thread's registers, its width a template parameter, the round
// numbers, round constants and matrices a kernel parameter (the constant
// bank), so that one kernel serves every preset of a width. BabyBear and
// KoalaBear run in gnark-crypto's Montgomery form; Goldilocks states are
// read from it and written back, the arithmetic in between on canonical
// residues with Goldilocks' own reduction.
package poseidon2
