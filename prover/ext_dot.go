package prover

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
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

// combineGoldilocks is combineExt for Goldilocks' E2, with lazy reduction:
// the 128-bit products of the Montgomery forms, alpha_j·f_j = R²·(α f),
// add up in three words a row and coordinate over all the columns
// (gnark-crypto's Goldilocks vectors have no assembly, and a Montgomery
// multiplication and an addition cost as much as several of these), and
// each sum is reduced once (goldilocksReduce) and brought back to
// Montgomery form by a multiplication by 1.
func combineGoldilocks(dst []glext.E2, cols [][]goldilocks.Element, alpha []glext.E2) {
	n := len(dst)
	blocks := (n + extBlock - 1) / extBlock
	parallelFor(blocks, func(b int) {
		lo, hi := b*extBlock, min((b+1)*extBlock, n)
		m := hi - lo
		buf, done := scratch[uint64](6 * extBlock)
		defer done()
		clear(buf)
		lo0, mi0, tp0 := buf[:m], buf[extBlock:extBlock+m], buf[2*extBlock:2*extBlock+m]
		lo1, mi1, tp1 := buf[3*extBlock:3*extBlock+m], buf[4*extBlock:4*extBlock+m], buf[5*extBlock:5*extBlock+m]
		for j, col := range cols {
			a0, a1 := alpha[j].A0[0], alpha[j].A1[0]
			f := col[lo:hi]
			for i := range f {
				x := f[i][0]
				var c uint64
				h, l := bits.Mul64(a0, x)
				lo0[i], c = bits.Add64(lo0[i], l, 0)
				mi0[i], c = bits.Add64(mi0[i], h, c)
				tp0[i] += c
				h, l = bits.Mul64(a1, x)
				lo1[i], c = bits.Add64(lo1[i], l, 0)
				mi1[i], c = bits.Add64(mi1[i], h, c)
				tp1[i] += c
			}
		}
		one := goldilocks.Element{1}
		d := dst[lo:hi]
		for i := range d {
			e0 := goldilocks.Element{goldilocksReduce(tp0[i], mi0[i], lo0[i])}
			e1 := goldilocks.Element{goldilocksReduce(tp1[i], mi1[i], lo1[i])}
			e0.Mul(&e0, &one)
			e1.Mul(&e1, &one)
			d[i] = glext.E2{A0: e0, A1: e1}
		}
	})
}

// goldilocksReduce returns top·2^128 + mid·2^64 + lo mod p, canonical,
// for top < 2^32 − 1, p = 2^64 − 2^32 + 1: 2^64 ≡ ε = 2^32 − 1 and
// 2^96 ≡ −1, so 2^128 ≡ −2^32.
func goldilocksReduce(top, mid, lo uint64) uint64 {
	const p, eps = 0xffffffff00000001, 0xffffffff
	// r = mid·2^64 + lo mod p (Plonky2's reduce128), then canonical.
	hh, hl := mid>>32, mid&eps
	t0, borrow := bits.Sub64(lo, hh, 0)
	if borrow != 0 {
		t0 -= eps
	}
	r, carry := bits.Add64(t0, hl*eps, 0)
	r += eps * carry
	if r >= p {
		r -= p
	}
	// − top·2^32.
	s := top << 32
	if r >= s {
		return r - s
	}
	return r + (p - s)
}
