//go:build !amd64 || purego

package gf2n

var implAvailable = [numImpls]bool{implGeneric: true}

func (f *Field) mulVec(z, x, y []uint64, count int) { f.mulVecGeneric(z, x, y, count) }
func (f *Field) square(z, x []uint64)               { f.squareGeneric(z, x) }
