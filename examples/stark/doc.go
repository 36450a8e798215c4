// Command stark is a worked STARK on gfpoly's prover: an AIR (the Fibonacci
// recurrence), its trace committed with package prover, the constraints'
// quotient computed over the low-degree extension (LDE) and committed, the
// out-of-domain check, one batched DEEP-FRI opening of both commitments
// (package prover/fri), and the verifier, generic over the prime fields
// BabyBear and KoalaBear (challenges in their E4), Goldilocks (E2) and BN254.
//
//	go run ./examples/stark                          # BabyBear, 2^16 rows, 100 bits
//	go run ./examples/stark -field goldilocks -log-rows 20 -bits 100
//
// It proves, verifies from the proof's bytes, and prints the prove time (by
// phase), the verify time, the proof's bytes (by part) and the security.
// stark.go is the protocol, field.go the arithmetic it needs of
// gnark-crypto's types, main.go the command.
//
// # The AIR
//
// Two columns a, b of n = 2^k rows (3 ≤ k ≤ 24), over the trace domain
// H = ⟨ω⟩ (row i at ω^i, ω gnark-crypto's generator of order n: the
// encoder's message domain):
//
//	transition  a_(i+1) = b_i,  b_(i+1) = a_i + b_i   for i < n − 1
//	boundary    a_0 = 1,  b_0 = 1,  b_(n−1) = output   (the public input)
//
// As polynomials of degree < n, a(x) and b(x) interpolate the columns on H,
// and the next row is x ↦ ω·x: the transition constraints are
//
//	c_0(x) = a(ωx) − b(x),  c_1(x) = b(ωx) − a(x) − b(x),
//
// of degree 1 in the trace, zero on H but at its last point ω^(n−1). They
// are divisible by Z_H(x)/(x − ω^(n−1)) = (x^n − 1)/(x − ω^(n−1)), the
// boundary terms by (x − 1) and (x − ω^(n−1)), and with α a challenge of
// the extension X (a challenge from the trace field would give about 31
// bits for BabyBear),
//
//	Q(x) = (c_0(x) + α·c_1(x))·(x − ω^(n−1))/(x^n − 1)
//	     + α²·(a(x) − 1)/(x − 1) + α³·(b(x) − 1)/(x − 1) + α⁴·(b(x) − output)/(x − ω^(n−1)).
//
// For a trace that satisfies the AIR, Q is a polynomial of degree < n − 1
// (the transition part is a constant, since c_0 and c_1 have degree < n and
// n − 1 roots; the boundary parts have degree < n − 1): it fits a commitment
// of n rows at the trace's blowup. For one that breaks any constraint at any
// row, Q has a pole in H: it is no polynomial at all.
//
// # The protocol
//
// The transcript (package prover/transcript, SHA-256) starts from the label
// "gfpoly examples/stark: Fibonacci AIR", AbsorbBytes("air", [field, k, 2])
// and Absorb("public output", output); both sides run the same calls.
//
//  1. The trace is committed: prover.New with WithBlowup(4), Commit. Its LDE
//     has N = 4n rows over the coset g·⟨ω'⟩, row i at x_i = g·ω'^i
//     (CodewordPoint(i); ω' of order N, ω = ω'^4, g gnark-crypto's coset
//     shift). AbsorbRoot("trace"), α = Draw[X]("alpha").
//  2. Q is computed on the LDE rows: the next-row value a(ω·x_i) is row
//     i + 4 (mod N), x_i^n takes 4 values, and the divisions are one batch
//     inversion. Each c_k is a trace-field column, so coordinate j of Q
//     (X over E has basis e_j: E4 1, u, v, u·v in gnark-crypto's memory
//     order; E2 1, u; BN254 1) is the trace-field column Σ_k (α^k)_j·c_k:
//     Q is committed as its d = [X : E] coordinate columns, polynomials of
//     the same degree, with CommitLDE (their values are already the LDE over
//     the same coset). AbsorbRoot("quotient").
//  3. z = Draw[X]("z"), refused if z^n = 1. fri.Open proves the trace's
//     columns at z and z·ω and the quotient's at z, one proof for both
//     commitments (two Batches; package fri absorbs the values).
//  4. The verifier replays the transcript, runs fri.Verify with the two
//     statements, and checks the AIR at z with the proven values: the
//     expression of Q above at z equals Σ_j e_j·Q_j(z).
//
// A proof is the two roots and the FRI proof; its encoding is a version
// byte, each root with its length byte, and fri.Proof's own encoding.
// Every rejection of verify and of the decoding wraps ErrRejected (and
// fri.ErrProof where package fri rejected). The prover does not check its
// trace: given one that breaks the AIR, fri.Open refuses its quotient (the
// last FRI layer is not of low degree: an error wrapping fri.ErrOracle);
// a cheating prover who commits a low-degree quotient instead gets an
// opening through FRI and is caught by the check at z.
//
// # Soundness
//
// The FRI parameters are fri.NewConfig's preset for -bits conjectured bits
// at blowup 4 (42 queries and 16 bits of grinding for 100), which Open and
// Verify enforce for the trace's height. Around FRI the algebra adds, in
// a union bound over X: the batching of the 5 constraints by powers of α
// (4/|X|), the check at z of an identity of degree ≤ 2n (2n/|X|), and DEEP's
// (n + 2)·(2·2 + d)/|X| (package fri's estimate); the command prints the
// sum, 2^-104 for BabyBear at 2^16 rows, and the smaller of the two figures.
//
// # GF(2^64)
//
// Not here. Over an affine subspace of GF(2^64), the trace's "next row"
// is not a multiplication by a root of unity, and the successor map needs
// its own domain of a multiplicative orbit (libSTARK's construction) rather
// than package prover's subspace order; this example does not build it.
//
// # Concurrency
//
// A starkProver is used by one goroutine at a time (its encoder's rule);
// verify may run on any number of goroutines.
package main
