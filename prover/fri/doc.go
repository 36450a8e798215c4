// Package fri is gfpoly's polynomial commitment: a batched DEEP-FRI opening
// of committed LDEs (package prover's commitments, or any Oracle) at points
// of the challenge field, and its verifier, over both field kinds —
// multiplicative cosets of BabyBear, KoalaBear, Goldilocks and BN254, affine
// subspaces of GF(2^64) — with the folds, the proof encoding and the
// soundness calculator it is made of.
//
// # Use
//
//	cfg, _ := fri.NewConfig(fri.BabyBear, 100, 2)            // 100 conjectured bits, blowup 4
//	c, _ := enc.Commit(trace)                                // prover.New[babybear.Element](prover.WithBlowup(4))
//	tr, _ := transcript.New("my stark")
//	tr.AbsorbRoot("trace", c.Root())
//	z, _ := transcript.Draw[bbext.E4](tr, "z")
//	verifier := tr.Clone()                                   // the verifier replays the same transcript
//	proof, _ := fri.Open(tr, cfg, fri.Batch[babybear.Element, bbext.E4]{
//		Oracle: prover.Oracle[bbext.E4](c), Points: []bbext.E4{z, zNext}})
//	err := fri.Verify(verifier, cfg, []fri.Statement[bbext.E4]{{
//		Root: c.Root(), LogRows: 20, Columns: c.Columns(), Points: []bbext.E4{z, zNext}}}, proof)
//	// proof.Values[0][p][j] is column j at point p, proven when err is nil.
//
// # The protocol
//
// The statement is B commitments (batches) b, each an LDE of C_b columns of
// 2^(k_b) trace rows at blowup 2^LogBlowup (its rows are the evaluations
// over the codeword domain D_b; see package prover), with points z_(b,p) of
// the challenge field X. Open and Verify run the same transcript:
//
//  1. AbsorbBytes("fri config", [1, field, LogBlowup, logFinal, GrindingBits]
//     ‖ le32(Queries) ‖ u8(R) ‖ the R arities), logFinal = Config.LogFinalDegree
//     (at most the smallest k_b) and the arities the schedule below.
//
//  2. For each batch: AbsorbRoot("fri commitment", root), AbsorbBytes("fri
//     shape", le64(k_b) ‖ le64(C_b) ‖ le64(P_b)), Absorb("fri points", the
//     points), then for each point Absorb("fri values", its C_b values).
//
//  3. α = Draw("fri alpha"). With the terms numbered over batches, then
//     points, then columns (term (b, p, j) is number K_b + p·C_b + j), the
//     DEEP quotient of a height is the sum over the batches of that height
//
//     Q(x) = Σ_(b,p,j) α^(K_b + p·C_b + j)·(f_(b,j)(x) − f_(b,j)(z_(b,p)))/(x − z_(b,p)),
//
//     over the batch's codeword domain; its degree is below 2^(k_b).
//
//  4. Layer 0 is the quotient of the largest height, over D_0 (2^(L_0)
//     entries, L_0 = max k_b + LogBlowup). Round r (r < R) commits layer r
//     (a Merkle tree whose leaf j holds the a_r entries of one fold, below),
//     AbsorbRoot("fri layer", root), draws β_r = Draw("fri beta"), and folds
//     layer r by a_r with β_r (FoldCoset, FoldSubspace) into layer r + 1;
//     where batches have the height of layer r + 1, their quotient Q is
//     added times β_r^(a_r). The schedule folds by Arity, or by less where
//     the next height or the final size 2^(logFinal+LogBlowup) comes first
//     (Config.Schedule returns it).
//
//  5. Layer R, of 2^(logFinal+LogBlowup) entries, is sent as the final
//     polynomial P of degree < 2^logFinal in the monomial basis, constant
//     first (the interpolant of the first 2^logFinal entries, checked on all
//     by Open): Absorb("fri final", P's coefficients).
//
//  6. The proof of work: Grind(GrindingBits) by the prover, CheckGrind by
//     the verifier (package transcript).
//
//  7. Queries: q_1 … q_Queries = DrawIndices("fri queries", 2^(L_0),
//     Queries). Query q reaches entry q_r of layer r: q mod 2^(L_r) for
//     cosets, q >> (L_0 − L_r) for subspaces (the fold keeps the low bits of a
//     strided leaf's index, the high bits of a contiguous one's), and q_(r+1)
//     is the leaf of layer r that holds entry q_r. Each batch opens its rows
//     q_r (r its layer) and each layer r its leaves q_(r+1), as one
//     multi-path opening each (package merkle).
//
// The verifier, for each query: computes Q at row q_0 of the largest
// batches from their opened rows; for each round checks that entry q_r of the
// opened leaf equals the running value, folds the leaf (FoldCosetAt,
// FoldSubspaceAt), adds β_r^(a_r)·Q of the batches of layer r+1 at their
// row q_(r+1); and at the end checks that P at the point of entry q_R of the
// final domain equals the running value.
//
// Layer trees. The leaf of layer r is a row of a_r·d trace-field elements,
// d = [X : E] (1 BN254, 2 GF(2^128) and E2, 4 E4): entry t of the leaf in
// columns t·d … t·d + d − 1, its coordinates in the type's order (E4:
// B0.A0, B0.A1, B1.A0, B1.A1); the tree is package merkle's over those rows,
// with Config.Hash. Prime-field leaf j holds entries j + t·2^(L_(r+1)),
// binary-field leaf j entries j·a_r + t.
//
// Domains. Prime fields: a commitment of 2^k rows is evaluated over
// gnark-crypto's coset g·⟨ω⟩, g the field's GeneratorFullMultiplicativeGroup,
// ω of order 2^(k + LogBlowup) (package prover's domains); the layers are its
// images x ↦ x^(a_0·…·a_(r−1)). A smaller commitment joins a layer of
// another coset of the same size; adding its quotient is sound since a
// polynomial of degree < D over c·H is one of degree < D over c'·H. GF(2^64):
// the codeword subspace of Config.BinaryDomains, folded by Subspace.Fold; a
// smaller commitment must lie on the fold itself (NestedBinaryDomains gives
// such domains to the encoder and the Config), since subspaces map onto each
// other only GF(2)-linearly, which does not keep degrees.
//
// # Soundness of a proof
//
// Config.Schedule returns the Params of a statement; Open and Verify refuse
// an instance under MinBits conjectured bits unless AllowInsecure is set,
// and under Config.Bits (NewConfig's target) always.
// The bits are FRI's (below); DEEP adds an error of about (2^k + P)·B·C/|X|
// (the quotients' degrees and the batching's terms, ethSTARK §5), far below
// 2^-100 for the challenge fields here at k ≤ 30.
//
// # Proof bytes
//
// Proof.MarshalBinary writes the versioned encoding (its doc gives the
// layout), UnmarshalBinary reads it and nothing else, Sizes reports each
// part. A known answer: the BabyBear trace of 2^4 rows whose columns are
// i + 1 and 2i + 1 (row i), committed at blowup 4 with SHA-256 (package
// prover; root 836886169cec71eeae5772c7f98f03612ca55eaa52b41011ec073c58bfc4d3a1),
// opened at the point z = Draw[E4]("z") of transcript.New("gfpoly fri KAT")
// after AbsorbRoot("trace", root), with Config{LogBlowup: 2, Arity: 4,
// LogFinalDegree: 1, Queries: 8, GrindingBits: 4} (AllowInsecure), gives a
// proof of 1700 bytes whose SHA-256 is
// 8424fbdc95121b2eb8920002d9bc2fa5436d45019f0c674bba8565ecf7393514
// (package prover's TestKnownProof). Verify and UnmarshalBinary never panic on any input and reject with
// errors wrapping ErrProof, naming the check that failed.
//
// # Folding over cosets (prime fields)
//
// The trace fields are gnark-crypto's BabyBear, KoalaBear, Goldilocks and
// BN254 (Base); codeword values live in their challenge fields (Ext):
// BabyBear and KoalaBear E4, Goldilocks E2, BN254 fr itself. Any other
// pairing is refused with ErrField.
//
// A codeword of n = 2^ℓ entries over the coset g·⟨ω⟩ (ω of order n, g ≠ 0)
// is in natural order: entry i is f(g·ω^i). A fold by a ∈ {2, 4, 8, 16}
// with challenge β ∈ X writes m = n/a entries. Write
//
//	f(x) = Σ_{k<a} x^k · f_k(x^a).
//
// Then folded entry j is
//
//	F[j] = Σ_{k<a} β^k · f_k(y_j),  y_j = x_j^a,  x_j = g·ω^j,
//
// the codeword of Σ_k β^k f_k over the coset g^a·⟨ω^a⟩ (m entries, natural
// order). With ζ = ω^m, a primitive a-th root of unity, entry j needs
// the a values
//
//	v_t = f(x_j·ζ^t) = src[j + t·m],  t = 0 … a−1,
//
// and these a entries form one leaf of the layer's commitment: a query at
// folded index j opens entries j, j + m, j + 2m, …, j + (a−1)·m. From them,
// c_k = Σ_t ζ^(−t·k)·v_t = a·x_j^k·f_k(y_j) (an inverse DFT of size a), and
//
//	F[j] = (1/a) · Σ_{k<a} c_k · (β·x_j⁻¹)^k.
//
// For a = 2 this is the even/odd fold f(x) = f_e(x²) + x·f_o(x²) ↦ f_e +
// β·f_o: F[j] = (v_0 + v_1)/2 + β·(v_0 − v_1)/(2·x_j). A fold by a equals
// log2(a) successive folds by 2 with the challenges β, β², β⁴, … (each
// over the coset the previous produced), so a protocol may mix arities.
// The prover computes x_j⁻¹ as g⁻¹·ω^(−j), incrementally (no inversion per
// entry); FoldCosetAt, the verifier's side, inverts x_j once.
//
// # Folding over affine subspaces (GF(2^64))
//
// A codeword over the affine subspace S = s + span(β_0, …, β_{d−1}) of
// GF(2^64) (package domain; entry i is f(S.Element(i)), element i = s +
// Σ_r bit_r(i)·β_r) has GF(2^128) values (package field/gf128). A fold by 2
// pairs entries 2j and 2j + 1, the points x = S.Element(2j) and x + β_0,
// which q(X) = X·(X + β_0), the vanishing polynomial of {0, β_0}, sends to
// the same point. With
//
//	f(X) = g(q(X)) + X·h(q(X)),
//
// (deg g, deg h < deg f / 2) the folded entry j is g(q(x)) + β·h(q(x)):
//
//	h = (f(x) + f(x + β_0))/β_0,   g = f(x) + x·h,   F[j] = f(x) + (x + β)·h.
//
// The folded domain is q(S) = S.Fold(1): shift q(s), basis q(β_1), …,
// q(β_{d−1}), and its element j is q(S.Element(2j)) (domain.Subspace.Fold).
//
// A fold by 2^k is k folds by 2, round r (r < k) over S_r = S.Fold(r) with
// challenge β^(2^r). Its leaf j is the 2^k consecutive entries j·2^k …
// j·2^k + 2^k − 1: the coset S.Element(j·2^k) + span(β_0, …, β_{k−1}),
// which q_k = L_{V_k}, the vanishing polynomial of V_k = span(β_0, …,
// β_{k−1}), maps to element j of S.Fold(k). In closed form: with W_0(X) =
// X and W_r = L_{V_r}, and f(X) = Σ_{t<2^k} (Π_{r: bit_r(t)=1} W_r(X)) ·
// f_t(q_k(X)), the folded entry j is Σ_t β^t·f_t(q_k(x)) at x =
// S.Element(j·2^k). FoldSubspaceAt, the verifier's side, runs the same k
// rounds on one leaf.
//
// Note the different leaf layouts: a prime-field leaf is strided (entries
// j + t·n/a), a binary-field leaf is contiguous (entries j·a + t). Both are
// what the natural orders of the two domains make cosets.
//
// # Soundness
//
// Params describes one FRI instance (rate, degree, arities, queries,
// grinding, challenge field size). ConjecturedBits is the security under the
// ethSTARK conjecture, min(Queries·LogBlowup + GrindingBits, ExtBits −
// log2 n₀); UniqueDecodingBits and JohnsonBits are the proven bounds of
// the unique decoding and Johnson-bound regimes (BCIKS20), ProvenBits the
// better of the two; the formulas are in their docs. Check refuses
// parameters under MinBits (80) conjectured bits unless AllowInsecure is
// set; Preset picks parameters for a target, and refuses targets the
// challenge field cannot reach (128 bits for every field but BN254). The
// calculator covers FRI only: DEEP, batching and hash errors are the
// caller's to add.
//
// # Errors, aliasing, concurrency
//
// Bad caller input (an arity not in {2, 4, 8, 16} or larger than the
// codeword, wrong lengths, a zero shift, a generator of the wrong order, a
// leaf index outside the layer, inconsistent parameters) returns an error
// wrapping ErrArity, ErrLength, ErrDomain, ErrField or ErrParams; nothing
// panics on caller data, and a failing fold leaves dst untouched.
// FoldCoset may fold in place (dst = src[:n/a]); FoldSubspace's dst must
// not overlap src. The whole-codeword folds split their work over
// GOMAXPROCS goroutines for codewords of more than 2^12 folded entries;
// everything is safe for concurrent use on disjoint destinations. Each call
// allocates its scratch once per goroutine (FoldCoset: a·256 values plus
// two rows; FoldSubspace: 16 KiB), nothing per entry.
//
// Open and Verify continue the transcript they are given, which is not safe
// for concurrent use (clone it for a verifier, as in Use); several Opens of
// different commitments with their own transcripts may run at once. Open
// spreads its work over GOMAXPROCS goroutines and its proof does not depend
// on their number; it holds, beyond the commitments, the quotient and the
// layers (for a largest LDE of N rows and values of x bytes: about
// 2·N·x bytes at a time, 128 MiB for N = 2^22 E4 values) and each layer's
// tree. What an Oracle returns is checked (lengths, its domain's points at
// rows 0, 1 and the powers of two, its openings against its root) and its
// panics become errors wrapping ErrOracle. Verify reads every proof
// without panicking: counts are checked against the bytes before anything
// is allocated, and every opened row and leaf against its root before it is
// used.
//
// # Implementation of the opening
//
// The claims are the Oracle's Evaluate (package prover: barycentric, one
// pass over the first 2^k rows). The quotient of a batch reads its
// combination G = CombinePowers(α) (one pass over the LDE) and, for P
// points, writes Σ_p c_p·(G − V_p)/(x − z_p) as one fraction (G·A(x) −
// B(x))/D(x), D = Π_p (x − z_p), whose denominators are inverted together
// by Montgomery's trick over chunks of 1024 rows (GF(2^128): gf128's vector
// products and BatchInverse; the prime fields: gnark-crypto's E2/E4
// arithmetic), chunks over the cores. Layers are folded by FoldCoset or
// FoldSubspace into buffers advised for huge pages, and laid out as their
// trees' columns in one parallel pass.
//
// # On the GPU
//
// When every batch's Oracle is a DeviceOracle on one device (a
// *prover.Commitment kept there: prover.WithGPU, WithGPUs, through
// prover.Oracle), Open runs the opening there, with the same transcript
// and the same proof bytes as on the host (Proof.Ran says where it ran):
//
//   - the claims: the Oracle's Evaluate, on the device in package prover;
//   - each batch's quotient: CombinePowersDevice leaves G on the device,
//     and one kernel (cuda/fri.cu) evaluates (G·A(x) − B(x))/D(x) at every
//     point of the batch's domain, four rows per thread sharing one
//     inversion, writing the layer in the column layout of its tree (leaf
//     j's a entries, coordinate by coordinate), or adding β^a times it to
//     the layer a later batch joins;
//   - each round: the layer's tree by package gpu/rowhash (SHA-256 or the
//     Poseidon2 field trees), its root the only thing that comes back; the
//     fold by one kernel per leaf (cosets: the inverse DFT of size a and
//     Horner's rule; subspaces: the a − 1 butterflies of its levels),
//     written in the next layer's layout;
//   - the buffers (the layers, their trees and hash states, a batch's
//     combination) are reserved first from the budget of the first batch's
//     oracle (ReserveDevice: the encoder's WithDeviceBudget) and allocated
//     before the transcript moves; an opening that does not fit runs on
//     the host, Ran saying why;
//   - the rounds stop on the device when a layer has fewer than 512
//     leaves: that layer (a few KiB) comes back and the host finishes the
//     rounds and interpolates the final polynomial;
//   - grinding (SHA-256 transcripts, the default): the nonces are searched
//     on the device in chunks, the smallest kept (rowhash.Grind), and
//     CheckGrind checks and absorbs it;
//   - the openings: the queried rows and paths are gathered on the device.
//
// Everything the device needs is allocated before the transcript moves,
// so a device that lacks the memory, a hash without kernels (another byte
// hash, a Poseidon2 width without kernels), more than 8 points in a batch
// or a commitment in host memory leave the opening to the host, with the
// reason in Proof.Ran; Config.Host asks for the host. A commitment spread
// over several devices opens on its first one (the combination of each
// device's columns is summed on the host and uploaded).
//
// # Implementation
//
// FoldCoset reads each entry once and works on blocks of 256 leaves: the a
// strided rows src[t·m + j0 …] are the inputs of a vector inverse DFT
// (sums, differences and products by a base-field twiddle done on the
// values' coordinates as one base-field vector through gnark-crypto's
// vector kernels, AVX-512 where present), then Horner's rule in β·x_j⁻¹
// elementwise, x_j⁻¹ carried from block to block by one vector scaling by
// ω^(−256). FoldCosetAt runs the same arithmetic on one leaf with scalars.
// FoldSubspace keeps the points divided by β_0, which makes them XORs of a
// table (x ↦ x/β_0 is GF(2)-linear), so a fold by 2 costs one GF(2^128)
// product per pair, done by gf128.MulVec over chunks of 128 pairs; a fold
// by 2^k runs its k levels on 1024-entry blocks held in cache. Nothing
// here is constant-time: a prover's folds are public computations.
package fri
