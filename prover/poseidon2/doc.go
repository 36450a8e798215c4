// Package poseidon2 holds Poseidon2 permutations over BabyBear, KoalaBear and
// Goldilocks on gnark-crypto's element types, with Plonky3's parameters and
// gnark-crypto's, and the sponge and compression that make Merkle trees of
// field elements from them.
package poseidon2
