module github.com/gfpoly/gfpoly

go 1.26.8

require (
	github.com/bits-and-blooms/bitset v1.25.0 // indirect
	github.com/consensys/gnark-crypto v0.22.0 // indirect
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
