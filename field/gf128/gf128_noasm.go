//go:build !amd64 || purego

package gf128

import "github.com/gfpoly/gfpoly/field/gf64"

var implAvailable = [numImpls]bool{implGeneric: true}

func mul(a, b Element) Element                        { return mulGeneric(a, b) }
func mulVec(dst, a, b []Element)                      { mulVecGeneric(dst, a, b) }
func scaleVec(dst, a []Element, c Element)            { scaleVecGeneric(dst, a, c) }
func mulByBaseVec(dst, a []Element, b []gf64.Element) { mulByBaseVecGeneric(dst, a, b) }
func combineBase(dst []Element, cols [][]gf64.Element, coeffs []Element, add bool) {
	combineBaseGeneric(dst, cols, coeffs, add)
}
