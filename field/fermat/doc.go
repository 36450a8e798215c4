// Package fermat implements the prime field Z/pZ for the generalized Fermat
// prime p = r^8 + 1, r = 2^63 + 2^34 (seed 001, Mohajerani), and its FFT.
//
// # Representation
//
// An Element is the seed's radix-r form: eight 64-bit digits, e[i] the digit
// of r^i, every digit below r, except for p−1 = r^8, which is (0, …, 0, r).
// Multiplying by r^i (r is a primitive 16th root of unity, r^8 = −1) moves
// digits up i places and subtracts the ones that wrap: MulByRPow costs one
// subtraction. Mul is the seed's Algorithm 3.3 (negacyclic product of the
// digit polynomials, then carries in radix r by divisions with a precomputed
// reciprocal).
package fermat
