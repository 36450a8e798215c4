package prover

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
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

// koalabearDotter packs the vectors four at a time into E4 elements
// (coordinate k of element i is u[k][i]) so that one pass of
// gnark-crypto's E4-by-base inner product (AVX-512 where the CPU has it:
// the column is read once for four products) gives four inner products:
// the E4 product by a base element is coordinate-wise.
type koalabearDotter struct {
	packed [][]kbext.E4
	rest   [][]koalabear.Element // the last m mod 4 vectors
	done   []func()
}

func (d *koalabearDotter) load(u [][]koalabear.Element) {
	d.release()
	d.packed, d.rest = d.packed[:0], u[len(u)/4*4:]
	for g := 0; g+4 <= len(u); g += 4 {
		p, done := scratch[kbext.E4](len(u[g]))
		d.done = append(d.done, done)
		a0, a1, a2, a3 := u[g], u[g+1][:len(p)], u[g+2][:len(p)], u[g+3][:len(p)]
		for i := range p {
			p[i] = kbext.E4{B0: kbext.E2{A0: a0[i], A1: a1[i]}, B1: kbext.E2{A0: a2[i], A1: a3[i]}}
		}
		d.packed = append(d.packed, p)
	}
}

func (d *koalabearDotter) dots(f []koalabear.Element, out []koalabear.Element) {
	for g, p := range d.packed {
		s := kbext.Vector(p).InnerProductByElement(f)
		out[4*g], out[4*g+1], out[4*g+2], out[4*g+3] = s.B0.A0, s.B0.A1, s.B1.A0, s.B1.A1
	}
	for k, v := range d.rest {
		w := koalabear.Vector(v)
		out[4*len(d.packed)+k] = w.InnerProduct(f)
	}
}

func (d *koalabearDotter) release() {
	for _, f := range d.done {
		f()
	}
	d.done = d.done[:0]
}
