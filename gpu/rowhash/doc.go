// Package rowhash builds Merkle trees over the rows of column-major data on
// a GPU: the commitment to a trace whose columns are on the device, hashed
// while they pass through it. New makes SHA-256 trees (below); NewField
// makes field trees, package prover/merkle's Poseidon2 trees digest for
// digest: each row's sponge state (the permutation's width of elements a
// row) stays on the device between groups of columns, the sponge absorbing
// them in overwrite mode, and Tree permutes a pending partial block, then
// compresses level after level (cuda/poseidon2.cu, gpu/poseidon2's
// TreeSpec). Both write the same node buffer: 32-byte digests, level 1
// first, the root last; a field digest holds its elements canonical and
// big-endian, as merkle's field trees do.
//
// A Hasher of R rows (a power of two) computes
//
//	leaf i = SHA-256(leafTag ‖ row i),  node = SHA-256(nodeTag ‖ left ‖ right),
//
// where row i is the concatenation, column by column, of its elements'
// canonical byte encodings: a GF(2^64) element (field/gf64) as 8 bytes
// little-endian, a gnark-crypto element (fr.Element of BN254,
// goldilocks.Element, babybear.Element, koalabear.Element) as Element.Bytes
// writes it, big-endian and reduced from the Montgomery form on the device.
// These are the trees package prover commits to.
//
// Columns are absorbed a group at a time (Absorb), into per-row streaming
// SHA-256 states of 96 bytes that stay on the device between groups, so the
// tree of a trace too large for the device is built while its columns pass
// through: an LDE hands each group it has computed to Absorb before the
// group is copied back (package prover joins gpu/additive's
// Transforms.LDEBatchThen to a Hasher this way). Tree then finishes the
// leaves and writes every level above them, one launch per level. Leaves
// are not stored.
//
// A commitment spread over several devices (package prover) splits the
// columns between them and the rows into blocks: AbsorbStrided hashes a
// block of rows of a taller matrix, and ContinueFrom carries a block's row
// states (96 bytes a row) to the device that holds the next columns, with
// the driver's peer copy, so that every row's message still reads its
// columns in order; the last device builds the blocks' subtrees.
//
// Work is queued on the stream a call is given; a nil stream means the
// default stream and waits. A row's message is a sequence, so Absorb calls
// on different streams must be ordered by the caller (events). A Hasher is
// not safe for concurrent use.
//
// The kernels are cuda/merkle.cu, one module per element type
// (cuda.MerkleProgram), loaded through the gpu runtime.
package rowhash
