// Package fri holds the folding and soundness layers of the FRI polynomial
// commitment: one round's fold of a codeword, for the prover (a whole
// codeword) and the verifier (one leaf), over multiplicative cosets of the
// prime fields and over affine subspaces of GF(2^64), and the soundness
// calculator that picks the number of queries.
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
