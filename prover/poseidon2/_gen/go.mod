module github.com/gfpoly/gfpoly/prover/poseidon2/_gen

go 1.26.8
