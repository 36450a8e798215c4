// Package rs implements Reed–Solomon codes over affine subspaces of GF(2^64):
// the low-degree extension (LDE) a STARK/PCP prover applies to each
// execution-trace column, a codeword test, and erasure decoding.
//
// # The code
//
// A Code is built from two affine subspaces of package domain: the message
// space S of dimension k and the codeword space T of dimension n > k. A
// message is the 2^k evaluations over S (in the subspace order of domain:
// element i is shift + Σ_j bit_j(i)·β_j) of a polynomial f of degree < 2^k;
// its codeword is the 2^n evaluations of f over T, in T's order. Encoding
// equals T.FFT(S.IFFT(msg) zero-padded), bit for bit; EncodeCoeffs starts
// from f's monomial coefficients (c_0 first).
//
// # Layouts
//
// Systematic: S lies inside T (New finds this whatever the bases are; ask
// for it with WithSystematic). Message symbol i is codeword symbol
// Position(i) — simply i when T's basis starts with S's basis and the
// shifts agree, as for T = S.Extend(...). General: S is not inside T, for
// example T a coset disjoint from S, as STARK provers use to keep the trace
// domain out of the evaluation domain; the codeword holds no copy of the
// message. Encoding is fastest when T's basis starts with S's basis (either
// layout): the polynomial then stays in the novel basis of Lin, Chung and
// Han between the two spaces.
//
// # Checking and decoding
//
// Verify tests the degree bound with one inverse novel-basis transform over T
// (X_i has degree i, so a word is a codeword exactly when its novel
// coefficients from 2^k on vanish). Reconstruct and Decode recover the
// codeword and the message from any 2^k or more present symbols, in
// O(2^n·n) field operations plus a product tree of at most O(2^n·n²): the
// erasure locator Π (the vanishing polynomial of the erased points) is built
// over T's own coset blocks, the received word times Π is interpolated, and
// each erased symbol is (c·Π)′/Π′ there, with the formal derivative taken in
// the novel basis. More present symbols than 2^k are checked for
// consistency (ErrNotCodeword); fewer fail with ErrTooFewSymbols. They take
// the received word with a mask of present positions; ReconstructAt and
// DecodeAt take (position, value) pairs instead, such as the answers to a
// verifier's queries, and reject positions out of range or repeated
// (ErrPosition).
//
// # Errors, aliasing, concurrency
//
// Wrong lengths, mismatched batch shapes and nil slices return errors that
// wrap ErrLength and say what was wrong; nothing a caller passes is
// modified, except dst, and Reconstruct's dst may be the word itself. dst
// must not otherwise overlap an input. A Code is immutable and safe for
// concurrent use by many goroutines; scratch space is pooled per Code, and
// EncodeBatch spreads whole columns over GOMAXPROCS goroutines (or, with
// WithWorkers, over helper goroutines the Code keeps), allocating nothing in
// rs in steady state (domain's entry points allocate a closure per call). WithAccelerator
// sends Encode and EncodeBatch to an Accelerator instead, such as package
// gpu's transforms. Nothing here is constant-time.
package rs
