// Package merkle holds the Merkle trees of the prover: trees over the rows
// of column-major data of GF(2^64) or a gnark-crypto prime field, their
// single and multi-path openings and the verification of both. One tree
// code serves the commitments to a trace's LDE (package prover) and FRI's
// layer commitments (package prover/fri).
//
// # Trees
//
// Commit(cols, h, workers) builds the tree over the rows of cols: cols[c][r]
// is row r of column c, every column of the same length N = 2^n (N ≥ 1),
// and the tree keeps cols without copying them. Build is Commit with a
// Hasher and a progress function; FromDigests makes a tree
// from digests computed elsewhere (gpu/rowhash's trees, built on a GPU from
// the same encoding); JoinRoots joins the roots of subtrees built apart
// (one per device) into the tree they form. A Tree answers Root, Open
// (rows and single authentication paths: an Opening) and OpenMulti (rows
// and the nodes their paths need, each once: a MultiOpening); Verify and
// VerifyMulti check them against a root and need no tree.
//
// A Hasher is the one value that says how a tree hashes: a byte hash
// (NewHasher: SHA-256, the zero Hasher, or any hash.Hash), whose leaves and
// nodes are the tagged byte strings below, or a field hash (Poseidon2,
// FieldHasher), whose leaves and nodes are elements ("Field trees"). Build,
// VerifyWith and VerifyMultiWith (and the methods of the same names) take
// either; Commit, Verify and VerifyMulti are the same with a byte hash
// given by its constructor (nil: SHA-256). Digests are Size() bytes either
// way, so roots, paths, MultiOpening.Nodes and the opening's encoding have
// one shape for every hash.
//
// # Leaves and nodes
//
// The tree has one leaf per row, in row order, and n levels above the
// leaves. A byte hash H (SHA-256 by default, or a caller's hash.Hash) is
// fed exactly these byte strings:
//
//	leaf i      H(0x00 ‖ enc(row i))                     1 + row bytes
//	node j      H(0x01 ‖ child 2j ‖ child 2j+1)          1 + 2·Size() bytes
//
// enc(row) is the row's elements in column order (AppendRow), each as:
// gf64, 8 bytes little-endian (gf64.Element.Bytes); prime fields,
// gnark-crypto's canonical big-endian bytes of the regular (non-Montgomery)
// value (Element.Bytes, Element.Marshal): 8 bytes for Goldilocks, 4 for
// BabyBear and KoalaBear, 32 for BN254 (ElementBytes). At every level, node
// j's children are nodes (or leaves) 2j and 2j+1 of the level below, the
// even one on the left; the root is the single node of the top level (for
// N = 1, the one leaf). The tag byte (LeafTag, NodeTag) keeps leaves and
// nodes apart. An authentication path lists the sibling leaf's digest
// first, then the sibling at each level up to the root (excluded): n
// digests. A MultiOpening sends each node that its rows' paths need once,
// and none that the rows determine: for 100 random rows of 2^22, 1440
// digests against 2200 for single paths. Its node order and its versioned
// binary encoding are in its documentation.
//
// Test vectors, with SHA-256: the 4 rows of two GF(2^64) columns
// (1, 2, 3, 4) and (5, 6, 7, 8) (leaf 0 is H(0x00 ‖ 01 00…00 ‖ 05 00…00))
// have the root
//
//	eb08e7ea2f5a542c7f51302872fd2e25f2eea29e58b9d5cb1e3da31984232d4d
//
// and the 2 rows of three BabyBear columns (1, 2), (3, 4), (5, 6) (leaf 0
// is H(0x00 ‖ 00000001 00000003 00000005)) the root
//
//	9ff12627b8a623f6f0e57ec6ade7a0b1a6922120bd471eb70c5191d28076dbf3
//
// (TestRootVector recomputes them with crypto/sha256 from this
// description; MultiOpening's documentation has a vector of its own.)
//
// # Field trees
//
// A field hash (Poseidon2[E](preset, width), or FieldHasher from a sponge
// and a compression of package poseidon2) hashes rows of BabyBear,
// KoalaBear or Goldilocks elements as they are, with no byte packing and no
// tags: with S the sponge and C the compression,
//
//	leaf i      S(row i)                  the row's elements in column order
//	node j      C(child 2j, child 2j+1)   two digests of d elements
//
// with the same levels, paths and node order as above. For Poseidon2, S is
// Plonky3's PaddingFreeSponge over the permutation of the given width
// (rate width − d, d elements out: from the zero state, each chunk of the
// row overwrites the front of the state, which is permuted; a last, shorter
// chunk too) and C Plonky3's TruncatedPermutation on the narrowest
// permutation that holds two digests (the first d elements of
// P(left ‖ right)): d = 8 for BabyBear and KoalaBear (sponge widths 16 or
// 24, nodes on width 16), d = 4 for Goldilocks (sponge widths 8 or 12,
// nodes on width 8). A digest's bytes are its d elements in the leaf
// encoding (AppendRow: canonical, big-endian), 32 bytes for every preset;
// Root, the paths, MultiOpening.Nodes and its encoding carry those bytes,
// and a verifier refuses a digest whose element is not below the modulus
// (ErrVerify) rather than reduce it. A field hash takes rows of its own
// field only: any other is refused with ErrField (CheckField), including
// GF(2^64) and BN254.
//
// With poseidon2.Plonky3 this is Plonky3's MerkleTreeMmcs (arity 2) over one
// matrix of power-of-two height, or over several matrices of one height (our
// columns are theirs, concatenated in order: Plonky3 hashes the rows of
// same-height matrices one after the other), for the configurations Plonky3
// uses (its examples' Poseidon2MerkleMmcs: PaddingFreeSponge<Perm24, 24, 16,
// 8> and TruncatedPermutation<Perm16, 2, 8, 16>; for Goldilocks
// <Perm12, 12, 8, 4> and <Perm8, 2, 4, 8>): the same root, element for
// element. What cannot be matched, and why: matrices of different heights
// (Plonky3 compresses a shorter matrix's row digests into the layer of its
// height, a tree shape with one matrix per tree cannot hold), heights that
// are not powers of two (Plonky3 pads a layer with zero digests; a tree
// here takes 2^n rows, as every LDE has), matrices over an extension field
// (Plonky3's ExtensionMmcs flattens each element into its base
// coefficients; rows here hold base elements), and the byte forms: Plonky3
// serializes digests and proofs with serde (its own field encodings), its
// opening proof is one sibling path per query, and a MultiOpening, which
// sends shared nodes once, has no counterpart there.
//
// Test vectors, Plonky3's configurations: the matrix of 4 rows and 20
// columns whose row r is 20r, 20r+1, …, 20r+19 (canonical values) has the
// roots (canonical values, then the root's bytes)
//
//	BabyBear, sponge width 24, nodes width 16:
//	    477796801 1855960366 1422415754 1551661697 487309186 1675881114 708495938 542049302
//	    1c7a99c16e9fb52e54c8578a5c7c7a811d0bbf8263e3ea9a2a3aca42204f0416
//	KoalaBear, sponge width 24, nodes width 16:
//	    2019747491 330375073 884513381 1802452703 665150260 1651631023 1486502190 410817345
//	    7862e6a313b11fa134b89a656b6f3edf27a563346271e3af589a392e187c9341
//	Goldilocks, sponge width 12, nodes width 8:
//	    1436968587307003017 3960283139444740970 9863010735600264414 13697743125710472293
//	    13f1235117d42c8936f5c0886892936a88e07401ef5164debe1828cc90858465
//
// and one row of 0, 1, …, 9 with BabyBear width 16 has for root (the one
// leaf) poseidon2's sponge known answer. TestPlonky3Vector recomputes them
// with Plonky3's algorithm written out on the permutations alone;
// TestFieldRootAgainstRecursion checks every preset and width against a
// recursive definition for 1 … 65 columns and 2^0 … 2^10 rows.
//
// There are no tags and the sponge does not pad, as in Plonky3: a leaf
// cannot pass for a node because a verifier knows the tree's height, but
// rows whose widths differ only by zeros at the end of the last chunk hash
// alike (the row (a, b) and the row (a, b, 0, 0) with one chunk). The
// verifier must know the width of the rows it checks, as package prover
// and FRI do (the commitment's columns); VerifyWith and VerifyMultiWith
// check that the rows have one width, not which.
//
// A field tree is built block by block on the workers: the sponge hashes
// 64 rows at a time (16 per kernel call on the AVX-512 kernels of package
// poseidon2 for BabyBear and KoalaBear, 8 for Goldilocks), their subtree
// is compressed up to its root in elements, and only then written out as
// bytes; the levels above the blocks are compressed from the blocks' roots,
// split among the workers while they are large (BenchmarkCommitField
// measures it against SHA-256).
//
// # Hashes
//
// A byte hash other than the default (NewHasher) must take every byte string:
// Write takes all of it without error, Sum appends Size() bytes, Size() is
// between 16 and 128, Reset starts over, and equal messages give equal
// digests on every instance. Byte hashes such as crypto/sha256, SHA-3 or
// Keccak-256 serve as they are; hashes over field elements (gnark-crypto's
// Poseidon2 and MiMC Merkle–Damgård hashers) take only whole blocks of
// canonical elements and need an adapter that packs bytes into elements,
// or, for Poseidon2, a field hash instead ("Field trees").
// The hash is probed once per message length a tree feeds it (a hash that
// refuses the messages, truncates them, gives every message one digest, or
// differs between instances or after Reset is refused) and checked at every
// use after that: a fault, or a panic in the hash on any goroutine, makes
// the call return an error wrapping ErrHash, with no root, opening or
// verdict.
//
// Rows are hashed on up to workers goroutines. With the default SHA-256 on
// an amd64 CPU with AVX-512 (F and BW), 16 leaves (or nodes) are hashed at
// once, one per vector lane (sha256x16_amd64.s, generated by _gen: go
// generate); the digests are SHA-256's, byte for byte. Elsewhere, and with
// -tags purego, crypto/sha256 hashes one message at a time.
//
// # Concurrency and aliasing
//
// A Tree is read-only once built and may be opened from several goroutines.
// It keeps the caller's columns, which must not change while it is in use.
// Openings share nothing with the tree; Verify, VerifyMulti and the
// encodings modify nothing they are given (UnmarshalBinary replaces its
// receiver's contents). Nothing here is constant-time: a tree hides
// nothing, it binds.
package merkle
