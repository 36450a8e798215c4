//go:build !amd64 || purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

func net16Fwd(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	net16Generic(a, loc0, loc1, loc2, loc3, base)
}

func net16Inv(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	net16InvGeneric(a, loc0, loc1, loc2, loc3, base)
}

func net64Fwd(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	net64Generic(a, loc0, loc1, loc2, loc3, loc4, loc5, base)
}

func net64Inv(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	net64InvGeneric(a, loc0, loc1, loc2, loc3, loc4, loc5, base)
}

func radix8Fwd(a []gf64.Element, tw *[7]gf64.Element) { radix8Generic(a, tw) }

func radix8Inv(a []gf64.Element, tw *[7]gf64.Element) { radix8InvGeneric(a, tw) }

func radix8FwdFrom(dst, src []gf64.Element, tw *[7]gf64.Element) {
	copy(dst, src)
	radix8Generic(dst, tw)
}

func radix8Cols(dst, src []gf64.Element, lo, hi int, tw *[7]gf64.Element, inv bool) {
	radix8ColsGeneric(dst, src, lo, hi, tw, inv)
}
