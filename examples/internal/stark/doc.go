// Package stark is a worked STARK on gfpoly's prover: an AIR (a
// Fibonacci-like recurrence), its trace committed with package prover, the
// constraints' quotient computed over the low-degree extension (LDE) and
// committed, the out-of-domain check, one batched DEEP-FRI opening of both
// commitments (package prover/fri), and the verifier — one generic code for
// the prime fields BabyBear and KoalaBear (challenges in their E4),
// Goldilocks (E2) and BN254, over their multiplicative domains, and for
// GF(2^64) (challenges in GF(2^128)) over affine subspaces. The commands
// examples/stark (one proof, by phase) and examples/compare (every field and
// device at one security, repeated) run it.
//
// stark.go is the protocol, tracedomain.go the two kinds of trace domain and
// their successor maps, field.go the arithmetic the protocol needs of
// gnark-crypto's types and of gf64/gf128, instance.go the same STARK behind
// an interface that names no field type.
//
// # Use
//
//	cfg, _ := fri.NewConfig(fri.BabyBear, 100, 2)             // 100 conjectured bits, blowup 4
//	p, _ := stark.NewProver[babybear.Element, bbext.E4](cfg)  // prover.WithGPU(dev) for a GPU encoder
//	defer p.Close()
//	trace, output, _ := stark.Fibonacci[babybear.Element, bbext.E4](16)
//	proof, _ := p.Prove(trace, output)
//	err := stark.Verify(cfg, 16, output, proof)
//
// or, for a field chosen at run time, in, _ := stark.New(fri.BabyBear, 16,
// cfg); proof, _ := in.Prove(); data, _ := proof.MarshalBinary(); err :=
// in.Verify(data).
//
// On a GPU encoder (prover.WithGPU) the whole proof stays on the device:
// the trace's LDE and its tree are made and kept there (Commit); the
// quotient is evaluated over the commitment's DeviceLDE with gpu/fieldvec's
// vector kernels, the same passes as the host's on the same elements
// (device.go), and committed where it is (Encoder.CommitDeviceLDE); fri.Open
// on two commitments kept on the device runs there too (Phases.Ran says
// where each part ran). The proof equals the CPU encoder's byte for byte.
// A trace whose commitment could not be kept on the device (the budget)
// takes the host path: the quotient from a copy of the LDE, CommitLDE, the
// opening on the CPU.
//
// # The AIR
//
// Two columns a, b of T rows, the trace, over the trace domain D (n = 2^k
// points, 3 ≤ k ≤ 24, the encoder's message domain):
//
//	transition  a_(t+1) = b_t,  b_(t+1) = a_t + c·b_t   for t < T − 1
//	boundary    a_0 = 1,  b_0 = 1,  b_(T−1) = output     (the public input)
//
// with c = 1 over the prime fields (Fibonacci) and c = x over GF(2^64), where
// with c = 1 the recurrence only cycles through (1, 1), (1, 0), (0, 1).
// As polynomials of degree < n, a(X) and b(X) interpolate the columns on D.
// Where the successor of a row's point is the map N of degree 1, the
// transition constraints are
//
//	q_0(X) = a(N(X)) − b(X),  q_1(X) = b(N(X)) − a(X) − c·b(X),
//
// of degree < n, zero at every row's point but the last one's. Over a
// multiplicative domain N is one map; over a subspace it is two (below):
// D splits into pieces D_m, each with its map N_m, its vanishing polynomial
// Z_m and one point e_m where the transition is not enforced, and with α a
// challenge of the extension X (one from the trace field would give about 31
// bits for BabyBear), the quotient is
//
//	Q(X) = Σ_m (α^(2m)·q_0,m(X) + α^(2m+1)·q_1,m(X))·(X − e_m)/Z_m(X)
//	     + α^(2M)·(a(X) − 1)/(X − first) + α^(2M+1)·(b(X) − 1)/(X − first)
//	     + α^(2M+2)·(b(X) − output)/(X − last),
//
// first and last the points of rows 0 and T − 1. For a trace that satisfies
// the AIR, Q is a polynomial of degree < n (below, for each domain): it fits
// a commitment of n rows at the trace's blowup. For one that breaks any
// constraint at any row, Q has a pole in D: it is no polynomial at all.
//
// Prime fields: D = H = ⟨ω⟩, row t at ω^t (ω gnark-crypto's generator of
// order n), T = n rows; one piece, N(X) = ω·X, Z = X^n − 1, e = last =
// ω^(n−1), first = 1. The transition part of Q is a constant (q_0 and q_1
// have degree < n and n − 1 roots), the boundary parts have degree < n − 1.
//
// GF(2^64): D = S = span(1, x, …, x^(k−1)) (row index i at the element whose
// bits are i), the trace along the orbit of multiplication by x modulo a
// primitive polynomial p of degree k, libSTARK's successor: T = 2^k − 1 rows
// (the only lengths it allows), row t at x^t mod p, and 0 ∈ S holds no row.
// As one polynomial on S the successor has degree n/2; on the halves S_0
// (bit k−1 clear) and S_1 (set) it is N_0(X) = x·X and N_1(X) = x·X + p,
// of degree 1, with Z_0 the vanishing polynomial of the linear space S_0,
// Z_1(X) = Z_0(X + x^(k−1)), e_0 = 0 and e_1 = last = (p + 1)/x, first = 1.
// The transition parts of Q have degree ≤ n/2, the boundary parts < n − 1.
// tracedomain.go writes the map down with its references;
// TestLeastPrimitive, TestSuccessor, TestSuccessorDegree and TestVanishing
// check it.
//
// # The protocol
//
// The transcript (package prover/transcript, SHA-256) starts from the label
// "gfpoly examples/stark: Fibonacci AIR", AbsorbBytes("air", [field, k, LogBlowup])
// and Absorb("public output", output); both sides run the same calls.
//
//  1. The trace, placed on D, is committed: prover.New with WithBlowup(B),
//     B = 2^LogBlowup of the FRI Config (4 in the presets the commands use),
//     Commit. Its LDE has N = B·n rows over the codeword domain, row i at
//     x_i = CodewordPoint(i): the coset g·⟨ω'⟩ (ω' of order N, ω = ω'^B, g
//     gnark-crypto's coset shift) or the subspace x^63 + span(1, …,
//     x^(k+LogBlowup−1)). AbsorbRoot("trace"), α = Draw[X]("alpha").
//  2. Q is computed on the LDE rows. The columns at N_m(x_i): over the coset,
//     row i + B (mod N) of the LDE; over the subspace, where x·x_i is no
//     codeword point, an LDE of the trace onto the subspaces N_m(T) (the
//     images of the codeword subspace T, affine subspaces too). Z_m takes B
//     values over the coset (x_i^n repeats with period B), 2B over T (Z_0 is
//     constant on the cosets of S_0 in T); the divisions by X − first and X −
//     last are one batch inversion. Each term of Q is a trace-field column,
//     so coordinate j of Q (X over E has the basis e_j: E4 1, u, v, u·v in
//     gnark-crypto's memory order; E2 1, u; GF(2^128) 1, y; BN254 1) is the
//     trace-field column Σ_k (α^k)_j·q_k: Q is committed as its d = [X : E]
//     coordinate columns, polynomials of the same degree, with CommitLDE
//     (their values are already the LDE over the same domain).
//     AbsorbRoot("quotient").
//  3. z = Draw[X]("z"), refused where a divisor vanishes (z in D). fri.Open
//     proves the trace's columns at z and its successors N_m(z) (z·ω; x·z
//     and x·z + p) and the quotient's at z, one proof for both commitments
//     (two Batches; package fri absorbs the values).
//  4. The verifier replays the transcript, runs fri.Verify with the two
//     statements, and checks the AIR at z with the proven values: the
//     expression of Q above at z equals Σ_j e_j·Q_j(z).
//
// A proof is the two roots and the FRI proof; its encoding is a version
// byte, each root with its length byte, and fri.Proof's own encoding.
// Every rejection of Verify and of the decoding wraps ErrRejected (and
// fri.ErrProof where package fri rejected). The prover does not check its
// trace: given one that breaks the AIR, fri.Open refuses its quotient (the
// last FRI layer is not of low degree: an error wrapping fri.ErrOracle);
// a cheating prover who commits a low-degree quotient instead gets an
// opening through FRI and is caught by the check at z.
//
// # Soundness
//
// The FRI parameters are the caller's Config, usually fri.NewConfig's preset
// for a target of conjectured bits (at blowup 4: 42 queries and 16 bits of
// grinding for 100), which Open and Verify enforce for the trace's height.
// Around FRI the algebra adds, in a union bound over X: the batching of
// the K constraints by powers of α ((K − 1)/|X|), the check at z of an
// identity of degree ≤ 2n (2n/|X|), and DEEP's (n + P)·(2·P + d)/|X| for
// P trace points (package fri's estimate). Security returns both figures
// (the sum is 2^-104 for BabyBear at 2^16 rows); the proof's conjectured
// security is the smaller.
//
// # Concurrency
//
// A Prover (and an Instance) is used by one goroutine at a time (its
// encoder's rule); Verify may run on any number of goroutines.
package stark
