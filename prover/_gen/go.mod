module github.com/gfpoly/gfpoly/prover/_gen

go 1.26.8
