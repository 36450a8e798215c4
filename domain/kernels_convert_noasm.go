//go:build !amd64 || purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// avx512Available: the generic build has no assembly kernels.
const avx512Available = false

// xorLong sets dst[i] ^= src[i]; len(src) ≥ len(dst).
func xorLong(dst, src []gf64.Element) { xorGeneric(dst, src) }

func taylor3(a []gf64.Element, o, w int)   { taylor3Generic(a, o, w) }
func untaylor3(a []gf64.Element, o, w int) { untaylor3Generic(a, o, w) }

func taylorLow(a []gf64.Element, s int)   { taylorLowGeneric(a, s) }
func untaylorLow(a []gf64.Element, s int) { untaylorLowGeneric(a, s) }

func gatherRows(b, a []gf64.Element, stride int)  { gatherRowsGeneric(b, a, stride) }
func scatterRows(a, b []gf64.Element, stride int) { scatterRowsGeneric(a, b, stride) }
