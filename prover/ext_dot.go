package prover

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/field/goldilocks"
)

// goldilocksDot is Σ a[i]·b[i] in Goldilocks with one reduction in all:
// the 128-bit products of the Montgomery forms (a·R)(b·R) add up in 192
// bits, that sum is reduced mod p once (R²·Σ a·b mod p), and a Montgomery
// multiplication by 1 takes out the extra R. gnark-crypto's Goldilocks
// vectors have no assembly; this is about three times as fast as a
// Montgomery multiplication and an addition per term.
func goldilocksDot(a, b []goldilocks.Element) goldilocks.Element {
	b = b[:len(a)]
	var lo, mid, top uint64
	for i := range a {
		h, l := bits.Mul64(a[i][0], b[i][0])
		var c uint64
		lo, c = bits.Add64(lo, l, 0)
		mid, c = bits.Add64(mid, h, c)
		top += c
	}
	const p = 0xffffffff00000001
	r := bits.Rem64(top, mid, p)
	r = bits.Rem64(r, lo, p)
	out, one := goldilocks.Element{r}, goldilocks.Element{1}
	out.Mul(&out, &one)
	return out
}
