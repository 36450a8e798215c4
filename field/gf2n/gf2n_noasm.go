package gf2n

var implAvailable = [numImpls]bool{implGeneric: true}

// kernels holds a field's assembly kernels; there are none in this build.
type kernels struct{}

func kernelsFor(n int) kernels { return kernels{} }

func (f *Field) mulVec(z, x, y []uint64, count int) { f.mulVecGeneric(z, x, y, count) }
func (f *Field) square(z, x []uint64)               { f.squareGeneric(z, x) }
