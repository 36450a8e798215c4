// Package poly implements dense polynomials over GF(2^64).
//
// # Representation
//
// A Poly is a slice of field elements, p[i] the coefficient of x^i (the
// constant term first). The field is gf64's: GF(2)[x]/(x^64+x^4+x^3+x+1).
// Trailing zero coefficients are allowed in inputs and ignored; every Poly
// this package returns is normalized (its last coefficient is non-zero) and
// the zero polynomial is the empty slice, of Degree −1. Addition and
// subtraction are the same operation (characteristic 2).
//
// # Operations
//
//   - Evaluation: Eval (Horner) at one point, EvalPoints at many, and
//     EvalSubspace over an affine subspace of package domain, in its subspace
//     order (the additive FFT).
//   - Arithmetic: Add, Sub, Scale, Derivative, DivMod (long division, or
//     Newton iteration on the reversed divisor when both quotient and divisor
//     are long).
//   - Multiplication: MulSchoolbook, MulKaratsuba and MulFFT (evaluate on a
//     subspace of 2^m ≥ deg p + deg q + 1 points, multiply pointwise,
//     interpolate); Mul picks the fastest for the factor lengths by a cost
//     model fitted to measurements on the development machine
//     (BENCHMARKS.md).
//   - Interpolation: InterpolateSubspace (inverse additive FFT,
//     O(n log n)) and Interpolate through arbitrary distinct points
//     (barycentric Lagrange, O(n²)).
//   - Taylor expansion at x² − x (Gao–Mateer, Algorithm 3.4 of the seed
//     thesis) and its inverse, on Polys or in place.
//   - Vanishing polynomials of affine subspaces as Linearized polynomials
//     Σ c_i x^(2^i) + e, evaluated with eight table lookups per point, and
//     division by them (DivModLinearized, O(n·m) for a 2^m-degree divisor).
//   - Conversion to and from the Lin–Chung–Han novel basis of a subspace.
//
// # Aliasing and concurrency
//
// Functions never modify their arguments; results are freshly allocated
// and share no memory with the inputs, except Normalize (a reslice) and the
// functions named InPlace. Polys are plain slices: concurrent reads are
// safe, concurrent writes to the same Poly are not. A Linearized is
// immutable and safe for concurrent use. The FFT-based operations use the
// transforms of package domain, which spread large transforms over
// GOMAXPROCS goroutines; the subspaces MulFFT uses are built once per size
// and shared.
//
// # Errors
//
// Bad caller input returns an error that starts with "poly:" and wraps one
// of ErrDivisionByZero, ErrDuplicatePoint, ErrLength or ErrNilSubspace.
// Nothing here is constant-time.
package poly
