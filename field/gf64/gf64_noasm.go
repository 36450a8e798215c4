//go:build !amd64 || purego

package gf64

var implAvailable = [numImpls]bool{implGeneric: true}

func mul(a, b Element) Element               { return mulGeneric(a, b) }
func squareN(a Element, n int) Element       { return squareNGeneric(a, n) }
func mulVec(dst, a, b []Element)             { mulVecGeneric(dst, a, b) }
func scaleVec(dst, a []Element, c Element)   { scaleVecGeneric(dst, a, c) }
func mulAddVec(dst, a []Element, c Element)  { mulAddVecGeneric(dst, a, c) }
func butterfly(u, v []Element, c Element)    { butterflyGeneric(u, v, c) }
func invButterfly(u, v []Element, c Element) { invButterflyGeneric(u, v, c) }
