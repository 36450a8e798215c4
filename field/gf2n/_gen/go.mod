module github.com/gfpoly/gfpoly/field/gf2n/_gen

go 1.26.8
