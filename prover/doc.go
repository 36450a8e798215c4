// Package prover is what a STARK/PCP prover calls to encode its execution
// trace: the low-degree extension (LDE) of every column and a Merkle
// commitment to the rows of the LDE, over GF(2^64) or a gnark-crypto prime
// field, on the CPU or a GPU, behind one interface.
//
// # Traces
//
// A Trace[E] is column-major: t[c][r] is row r of column c. Every column has
// the same length 2^k, 0 ≤ k ≤ MaxLogRows (26), and holds elements of one
// field: gf64.Element, or gnark-crypto's goldilocks.Element,
// babybear.Element, koalabear.Element or fr.Element (BN254), as they are, in
// Montgomery form. A Source[E] is a trace the encoder reads a chunk of
// columns at a time (a file, a generator); a Trace is one.
//
// # Encoders
//
// New[E](opts...) returns an Encoder[E] configured once: backend (CPU, or a
// GPU with WithGPU), blowup (2, 4, 8 or 16; WithBlowup), evaluation domains,
// Merkle hash (SHA-256 by default; WithHash takes any func() hash.Hash).
// Encode returns the LDE of every column; Commit encodes and commits; Open
// returns rows and authentication paths; Verify checks them against the root
// and needs no encoder. Backend is the part of Encoder that does not depend
// on the field, for tools that hold encoders of several fields.
//
// # Evaluation domains and order
//
// GF(2^64): the trace column is the evaluations of a polynomial of degree
// < 2^k over the message subspace S, the codeword its evaluations over the
// codeword subspace T, both in the subspace order of package domain (the
// i-th point is shift + Σ bit_j(i)·β_j). By default S = span(1, x, …,
// x^(k−1)) with shift 0 (point i is the element i) and T = x^63 + span(1, x,
// …, x^(n−1)), n = k + log2(blowup): a coset disjoint from S, as a prover
// wants.
//
// Prime fields: the column is the evaluations over gnark-crypto's domain of
// size 2^k (ω^i, natural order), the codeword the evaluations over the coset
// g·⟨ω'⟩ of the domain of size 2^k·blowup, where g is the domain's
// FrMultiplicativeGen (gnark-crypto's default coset shift), in natural order:
// row i of the LDE is p(g·ω'^i).
//
// # Commitment
//
// The Merkle tree has one leaf per LDE row, in row order. Leaf i is
// H(0x00 ‖ enc(row i)) and an internal node H(0x01 ‖ left ‖ right): the tag
// byte keeps leaves and nodes apart. enc(row) is the row's elements in column
// order, each as: gf64, 8 bytes little-endian (gf64.Element.Bytes); prime
// fields, gnark-crypto's canonical big-endian bytes of the regular
// (non-Montgomery) value (Element.Bytes, Element.Marshal): 8 bytes for
// Goldilocks, 4 for BabyBear and KoalaBear, 32 for BN254. An authentication
// path lists the sibling leaf's digest first, then the sibling at each level
// up to the root (excluded): log2(rows) digests.
//
// # Memory
//
// Commit holds the LDE (rows·blowup·columns elements), the tree above the
// leaves (rows·blowup − 1 digests: 32 bytes per LDE row with SHA-256), and,
// for a Source that is not a Trace, one chunk of trace columns
// (WithChunkColumns, default 16), plus a few kilobytes per hashing goroutine.
// An in-memory Trace is read in place.
//
// # Concurrency
//
// An Encoder is used by one goroutine at a time; it spreads its own work over
// all cores (WithWorkers). A Commitment is read-only after Commit and may be
// opened from several goroutines. Nothing a caller passes is modified.
package prover
