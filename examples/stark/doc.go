// Command stark proves and verifies the worked STARK of package
// examples/internal/stark — a Fibonacci AIR, its trace and constraint
// quotient committed over the LDE, the out-of-domain check, one DEEP-FRI
// opening of both commitments, and the verifier — over one field: BabyBear
// or KoalaBear (challenges in E4), Goldilocks (E2), BN254, or GF(2^64)
// (GF(2^128)) over affine subspaces. The package documentation writes the
// AIR, the protocol, the GF(2^64) successor map and the soundness down.
//
//	go run ./examples/stark                          # BabyBear, 2^16 rows, 100 bits, blowup 4
//	go run ./examples/stark -field goldilocks -log-rows 20 -bits 100
//	go run ./examples/stark -field gf64              # 2^16 − 1 rows
//	go run ./examples/stark -blowup 8                # fewer queries, a larger LDE
//
// It proves twice, verifies the second proof from its bytes, and prints the
// second prove time (by phase; the first, which also builds what the prover
// keeps for a size, in parentheses), the verify time, the proof's bytes (by
// part) and the security: fri.NewConfig's preset for -bits at -blowup, and
// the smaller of its figure and the algebraic errors' around it.
// examples/compare runs the same proof for every field and device at one
// security, repeatedly, with medians, spreads and memory.
package main
