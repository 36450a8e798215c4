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
// GPU with WithGPU), blowup (2, 4, 8 or 16; WithBlowup), evaluation domains
// (WithBinaryDomains, GF(2^64) only; PrimeDomains returns a prime-field
// encoder's), Merkle hash (SHA-256 by default; WithHash takes a
// func() hash.Hash whose hashes take any byte string, checked at New and at
// every use; WithMerkle takes a merkle.Hasher, a byte hash or a field hash
// such as merkle.Poseidon2 over the trace's own elements). Encode returns the LDE of every column (EncodeInto
// writes it into the caller's buffers); Commit encodes and commits (CommitInto
// into the caller's buffers; CommitLDE commits an LDE the caller has); Open
// returns rows and authentication paths;
// Verify checks them against the root and needs no encoder; CombineExt and
// Evaluate take challenges from the extension fields (see "Challenges,
// combinations and evaluations"). Backend is the
// part of Encoder that does not depend on the field, for tools that hold
// encoders of several fields.
//
// The backends, each checked at compile time against Encoder:
//
//	field        CPU                                 GPU (WithGPU)
//	GF(2^64)     rs.Code.EncodeBatch                 additive.Transforms.LDEBatch
//	Goldilocks,  prover/prime LDE (gnark-crypto's    primentt.LDE (pinned staging,
//	BabyBear,    fft.Domain transforms, columns      copies on all cores)
//	KoalaBear,   over all cores)
//	BN254
//
// GPU and CPU backends give the same LDE and the same tree, bit for bit.
// With the default hash, a GPU backend also hashes the rows on the device
// (gpu/rowhash): each group of columns is absorbed into the rows' SHA-256
// states while the group's LDE is on the device. CommitInto then copies the
// LDE into the caller's columns and the digests above the leaves to the host;
// CommitLDE uploads the LDE it is given. A Poseidon2 tree (WithMerkle of
// merkle.Poseidon2) is hashed on the device the same way, each row's sponge
// absorbing a group of columns at a time (gpu/rowhash.NewField on
// cuda/poseidon2.cu). With WithHash or another WithMerkle hash, or without
// device memory for the hashing, the tree is built on the CPU.
//
// # Commitments kept on the device
//
// On a GPU backend with the default hash or a Poseidon2 tree, Commit keeps the LDE and its Merkle
// tree in device memory: the trace goes up a group of columns at a time
// (from Go memory through pinned staging, copies overlapped with the
// transforms; from a PinnedTrace directly; from a DeviceTrace, written by the
// caller's own kernels, with no copy at all), each group's LDE is written into
// one device buffer and hashed there, and only the root comes back. What a
// prover does next reads a few rows and columns: Open gathers the rows and
// the path digests it needs on the device (one kernel, one small copy);
// Combine and CombineDevice compute the random linear combination of the
// columns there; DeviceLDE hands the buffer to the caller's kernels; LDE and
// LDEInto copy the whole LDE to the host only when called. Results equal the
// CPU backend's bit for bit.
//
// Such a commitment holds its device memory until its Close (there is no
// finalizer: memory is freed when the caller says so), within a budget per
// encoder (WithDeviceBudget; Encoder.DeviceMemory reads it and what is in
// use). A Commit whose LDE and tree would pass the budget, or that meets a
// device out of memory, makes its LDE in host memory as CommitInto does and
// says why (Commitment.Resident, and a Progress report of phase
// "fallback"); it is never an error.
//
// # Several GPUs
//
// WithGPUs(devs...) spreads the work over several devices of one host. A
// trace's columns are split into contiguous runs, one per device (uneven
// where the devices do not divide the columns); each device uploads its
// columns, computes their LDE and keeps it: the LDE never moves. The rows'
// SHA-256 hashes read every column in order, so the hash states move
// instead (gpu/rowhash, copied with the CUDA driver's peer copies, direct
// between GPUs that have peer access; only the live words of a state: 36
// bytes a row where a device's columns end on a SHA-256 block, as 16
// BabyBear or 8 GF(2^64) columns do, at most 96): device 0 absorbs its
// columns into the states, device 1 continues from them with its own, and
// so on. The rows are cut into blocks (up to 4 per device) that pass
// through this chain one after another, so the devices hash different
// blocks at the same time; block b's subtree is built from the last
// device's states on device b mod d, so that every device shares the
// trees, and the host hashes the blocks' roots up to the root. Roots,
// openings, LDEs and combinations equal the single-GPU and CPU backends',
// bit for bit. Open gathers each device's columns of the rows and each
// block's path from its device; Combine combines each device's columns
// there and adds the partial sums on the first device; DeviceParts lists
// each device's columns. The same code runs on one GPU opened as several
// Device values (gpu.Open on one ordinal, sharing its context and memory),
// where the copies are plain device-to-device copies: that is how it is
// tested on a machine of one GPU, and there it shows the overhead of the
// split, not a speed-up. fri.Open on such a commitment runs on the first
// device: each device combines its own columns, the partial sums are added
// there, and the folds and layer trees of the one combined codeword
// follow on that device.
//
// A device that cannot run (closed, failing, kernels that do not build) is
// New's error, naming it; with WithDeviceLoss New leaves it out instead,
// tells the caller, and runs on the others, with the same results. A
// device that dies after New fails the calls that reach it with its error;
// a new encoder with WithDeviceLoss over the same devices goes on without
// it.
//
// On a host of 4 H200s joined by NVLink, 2^22 rows × 64 columns at blowup
// 4 commit in 39 ms (GF(2^64)) and 14 ms (BabyBear) on the four, against
// 140 and 34 ms on one of them, the trace in pinned memory (PinnedTrace):
// about 3.6× and 2.5×. From Go memory the trace is first copied into
// pinned staging by the host, whose memory bandwidth the devices share: 52
// and 28 ms (2.7×, 1.6×). Every encoder keeps the device buffers of its last closed
// commitment for the next one of the same shape, since allocations cost
// more once the GPUs map each other's memory (BENCHMARKS.md, "Several
// devices").
//
// A single GF(2^64) column too large for one device goes to SpreadLDE,
// which splits the codeword's rows instead: a power-of-two run of rows in
// subspace order is a coset of a smaller subspace, and the column's LDE on
// it is a transform of the same coefficients, so each device computes its
// rows from the whole column and nothing moves between devices.
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
// # Challenges, combinations and evaluations
//
// After the commitment a prover draws challenges and works with them: a
// random linear combination of the columns (the batching of DEEP/FRI) and
// the values of the trace polynomials at out-of-domain points. Challenges
// come from the challenge field X of the trace field, Ext's table: GF(2^128)
// for GF(2^64), Goldilocks' E2, BabyBear's and KoalaBear's E4 (gnark-crypto's
// types), BN254 itself. A function given an X of another field returns an
// error wrapping ErrField.
//
// Soundness. Two different sets of columns give the same combination for at
// most #columns/|K| of the coefficients drawn from a field K
// (Schwartz–Zippel), so a combination is sound to about log2|K| −
// log2(#columns) bits: Combine's coefficients from the trace field give 31 −
// log2(#columns) bits for BabyBear and KoalaBear, 64 − log2(#columns) for
// GF(2^64) and Goldilocks; CombineExt's from X give 124, 128 and 128
// (BN254: 254) less log2(#columns). CombinePowers(c, α) is CombineExt with
// α^j for column j, one element drawn for all columns (Plonky3's batching),
// with the same bound. An evaluation at a random point z of X is likewise
// sound to log2|X| − log2(degree) bits.
//
//	CombineExt(c, α)[i]   = Σ_j α_j·col_j[i]     (col_j embedded in X)
//	CombinePowers(c, α)[i] = Σ_j α^j·col_j[i]
//	Evaluate(c, z)[p][j]  = p_j(z_p),  p_j of degree < n = Rows()/blowup
//
// A combination is one pass over the LDE, on all cores, a block of rows at a
// time: each coordinate of E4 over BabyBear or KoalaBear is a combination
// in that field (gnark-crypto's vector kernels); Goldilocks' sums of
// 128-bit products and GF(2^128)'s (gf128.CombineBase) are reduced once a
// coordinate; the elements are those of the field arithmetic done term by
// term, exactly.
//
// Evaluation. The trace polynomial p of a column has degree < n, so n
// distinct points of the codeword determine it; Evaluate reads the first n
// rows of the LDE, x_i = CodewordPoint(i), contiguous in memory. With
// barycentric weights λ_i = 1/Π_{j≠i}(x_i − x_j) and z not a node,
//
//	p(z) = Σ_i λ_i·f_i/(z − x_i) / Σ_i λ_i/(z − x_i)
//
// (the second barycentric form: the denominator is the same sum for the
// constant 1, so common factors of the λ_i cancel). For GF(2^64) the first
// 2^k rows of the codeword subspace T form the affine subspace S' = shift +
// span(β_0..β_(k−1)), all λ_i are equal (Z'(x_i) = Π_{v∈V, v≠0} v, V the
// span), and this is p(z) = Z(z)/Z'·Σ_i f_i/(z − x_i), Z(X) = L_V(X + shift).
// For a prime field the nodes are g·ω'^i, i < n, a geometric progression
// (row i of the LDE is p(g·ω'^i)), whose weights are, up to a common
// factor, 1/((−1)^i·ω'^(i(i−1)/2 + i(n−1−i))·P_i·P_(n−1−i)) with P_m =
// Π_{k=1..m}(1 − ω'^k): computed once per commitment (n trace-field
// elements, kept with the commitment).
//
// The divisions stay in the trace field F: with χ_z(T) = N_{X/F}(T − z), the
// characteristic polynomial of z (degree d = [X:F], coefficients in F, zero
// at no node), and h_z = χ_z/(T − z), 1/(z − x) = −h_z(x)/χ_z(x). For the
// points z_1..z_P of one call (up to 16/d at a time), Δ = Π_p χ_(z_p) and
// G_p = h_(z_p)·Π_(q≠p) χ_(z_q), every sum above is −Σ_k G_p,k·S_k with the
// moments S_k = Σ_i f_i·W_i·x_i^k, W_i = λ_i/Δ(x_i), k < d·P: one batch
// inversion of Δ(x_i) per row in F for all the points, and d·P trace-field
// inner products per column, which read the column once (KoalaBear's four
// at a time as one E4-by-base inner product). A point of the codeword
// domain (a trace-field element embedded in X: CodewordPoint(i)) returns
// the stored row i, exactly.
//
// Domain points. TracePoint(i) and CodewordPoint(i) (CodewordPoints for a
// range, one multiplication or XOR a point) give the points of a
// commitment's rows without building its domains; PrimeDomains and
// BinaryDomainsOf return an encoder's domains.
//
// Drawing challenges. DrawExt maps a byte stream (a transcript's output) to
// a uniform element of X, coordinate by coordinate in the type's order
// (E4: B0.A0, B0.A1, B1.A0, B1.A1; E2 and GF(2^128): A0, A1), each by
// rejection sampling of little-endian words: BabyBear and KoalaBear, 4
// bytes with the top bit cleared, accepted below p; Goldilocks, 8 bytes
// accepted below p; BN254, 32 bytes with the top two bits cleared,
// accepted below r; GF(2^64), 8 bytes, always accepted. The value of a
// coordinate is the canonical integer, not its Montgomery form. Test
// vectors: from the stream SHA-256("gfpoly DrawExt" ‖ i), i = 0, 1, … as 4
// bytes big-endian, block after block, the first two elements drawn are
// (coordinates in the type's order)
//
//	BabyBear E4     544100730 255781108 1820113961 1705851555
//	                25869814 920718931 1153219346 743318446
//	KoalaBear E4    the same (no word rejected)
//	Goldilocks E2   1098571494338744698 16549948681378118697
//	                13177829734333726198 12415900456239020818
//	GF(2^128)       0x0f3ee8f4206e517a 0xe5ad3aa3ec7cbc29
//	                0xb6e10e53018abdf6 0xac4e23aec4bcbb12
//	BN254           20039825681588141316195240779737185769233161932979655587086224877406374482298
//	                12612762812761375889353116435150249938466641840282406193868635351834925399269
//
// Commitments kept on the device are combined and evaluated there, and
// only the results come back (CombineExt, Evaluate): the combination is
// gpu/gfvec's GF128.CombineBase or gpu/primentt's CombineExt, one pass over
// the device's LDE; the evaluation reads the rows that form the coset
// g·⟨ω'^blowup⟩ (primentt.EvalCoset) or the subspace of the first n rows
// (GF128.EvalSubspace) and finds the points of the domain on the host.
// CombineExtDevice and CombinePowersDevice leave the combination on the
// device. A commitment spread over several devices combines and evaluates
// each device's columns there; the partial combinations are added on the
// host (and, for CombineExtDevice, the sum uploaded to the first device).
// Every backend gives the same elements, bit for bit.
//
// # Commitment
//
// The commitment is package merkle's tree over the rows of the LDE: one
// leaf per LDE row, in row order, leaf i = H(0x00 ‖ enc(row i)) and node j =
// H(0x01 ‖ child 2j ‖ child 2j+1), with H SHA-256 by default or WithHash's.
// The package documentation of prover/merkle gives the exact byte strings
// (enc: gf64 8 bytes little-endian, prime fields gnark-crypto's canonical
// big-endian bytes), the order of an authentication path (the sibling
// leaf's digest first, then one sibling per level up to the root,
// excluded) and test vectors. Open returns rows with their paths (an
// Opening; Verify checks them with no encoder); OpenMulti opens many rows
// at once with each needed node sent once (a MultiOpening, with its node
// order and versioned binary encoding; VerifyMulti checks it): for 100
// random rows of 2^22, 1440 digests against 2200 for single paths. The
// trees of FRI's layers (prover/fri) are the same trees.
//
// A hash given with WithHash must take every byte string (WithHash says what
// is checked); a field hash given with WithHash needs a byte-packing
// adapter. No root, opening or verdict comes out of a hash that fails: every
// error wraps ErrHash. WithMerkle(merkle.Poseidon2[E](preset, width)) makes
// the tree over the LDE's own elements instead (BabyBear, KoalaBear,
// Goldilocks): leaf i = S(row i), the Poseidon2 sponge over the row, and
// node j = C(child 2j, child 2j+1), the compression of two digests, with no
// tags (prover/merkle, "Field trees"); with the Plonky3 preset the root is
// Plonky3's MerkleTreeMmcs's over the LDE. VerifyWith and VerifyMultiWith
// check its openings.
//
// On the CPU, rows are hashed on all cores (WithWorkers); with the default
// SHA-256 on an amd64 CPU with AVX-512, 16 leaves (or nodes) at once, one
// per vector lane (package merkle); the digests are SHA-256's, byte for
// byte. A GPU backend hashes the rows on the device (gpu/rowhash), digest
// for digest the same tree.
//
// # Memory
//
// Commit holds the LDE (rows·blowup·columns elements), the tree above the
// leaves (rows·blowup − 1 digests: 32 bytes per LDE row with SHA-256), and,
// for a Source that is not a Trace, one chunk of trace columns
// (WithChunkColumns, default 16), plus a few kilobytes per hashing goroutine.
// An in-memory Trace is read in place. For 2^20 rows × 32 GF(2^64) columns
// at blowup 4 that is 1024 MiB of LDE and 128 MiB of tree. A GPU backend
// adds pinned staging and device buffers for one chunk (GF(2^64): groups of
// at most 1 GiB of device memory, managed by package gpu) and, for hashing on
// the device, 128 bytes of device memory and 32 of pinned memory per LDE row
// (row states and the tree), kept for the next commitment of as many rows
// until Close. A commitment kept on the device holds its LDE and tree there
// instead of in host memory (1152 MiB of device memory for the example
// above) until its Close; while it is made, the encoder also uses the row
// states (96 bytes per LDE row), two groups of staged columns (32 MiB each,
// pinned and on the device) and the transforms' scratch, kept for its next
// commitment.
//
// # Concurrency
//
// An Encoder is used by one goroutine at a time; it spreads its own work over
// all cores (WithWorkers). A Commitment is read-only after Commit and may be
// opened, combined and copied from several goroutines, and closed from any
// of them (the calls that come after Close return ErrClosed). Nothing a
// caller passes is modified.
package prover
