module github.com/gfpoly/gfpoly/prover/merkle/_gen

go 1.26.8
