package domain

import (
	"math/bits"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// The butterfly network of the Lin–Chung–Han transform. For a polynomial
// D = Σ d_i X_i in the novel basis, level r pairs the positions that differ
// in bit r; block b of level r (positions b·2^(r+1) .. (b+1)·2^(r+1)) uses
// the twiddle c = Ŵ_r(s + Σ_j bit_j(b)·v_{r+1+j}) for all its pairs (u, v):
//
//	forward: u += c·v, then v += u      (levels m-1 down to 0)
//	inverse: v += u,   then u += c·v    (levels 0 up to m-1)
//
// The forward network maps novel coefficients to evaluations in subspace
// order (Lin, Chung, Han, FOCS 2014). Blocks at levels r ≥ L are processed
// depth first, so that each half fits in cache before the levels below it
// run; levels r < L run one chunk of 2^L elements at a time.
//
// With the AVX-512 kernels (network_net16.go, net16_amd64.s), three levels
// run per pass above level 5 (radix8Fwd: one column of eight slices in
// registers), and levels 5..0 run in registers on 64-element groups
// (net64Fwd). Without them, big blocks run two levels per sweep
// (forward4), chunks use gf64.Butterfly per block and the lane
// transposition for the last three levels.

func trailingZeros(u uint) int { return bits.TrailingZeros(u) }

// forward applies levels r..0 to a (length 2^(r+1)), whose first element
// has index off.
func (p *plan) forward(a []gf64.Element, off, r int, sc *scratch) {
	if r < p.L {
		p.forwardChunk(a, off, sc)
		return
	}
	if p.tun.net && r-2 >= p.L {
		tw := p.radix8Tw(off, r)
		radix8Fwd(a, &tw)
		e := len(a) >> 3
		for i := 0; i < 8; i++ {
			p.forward(a[i*e:(i+1)*e], off+i*e, r-3, sc)
		}
		return
	}
	if r-1 >= p.L && len(a) >= p.tun.radix4Min {
		p.forward4(a, off, r)
		q := len(a) >> 2
		for i := 0; i < 4; i++ {
			p.forward(a[i*q:(i+1)*q], off+i*q, r-2, sc)
		}
		return
	}
	h := len(a) >> 1
	gf64.Butterfly(a[:h], a[h:], p.twiddle(r, off>>uint(r+1)))
	p.forward(a[:h], off, r-1, sc)
	p.forward(a[h:], off+h, r-1, sc)
}

// forward4 applies levels r and r-1 to a (length 2^(r+1)) in one sweep.
func (p *plan) forward4(a []gf64.Element, off, r int) {
	q := len(a) >> 2
	c1 := p.twiddle(r, off>>uint(r+1))
	c0a := p.twiddle(r-1, off>>uint(r))
	c0b := p.twiddle(r-1, (off>>uint(r))+1)
	const w = 512
	for o := 0; o < q; o += w {
		e := min(o+w, q)
		gf64.Butterfly(a[o:e], a[2*q+o:2*q+e], c1)
		gf64.Butterfly(a[q+o:q+e], a[3*q+o:3*q+e], c1)
		gf64.Butterfly(a[o:e], a[q+o:q+e], c0a)
		gf64.Butterfly(a[2*q+o:2*q+e], a[3*q+o:3*q+e], c0b)
	}
}

// inverse4 undoes forward4.
func (p *plan) inverse4(a []gf64.Element, off, r int) {
	q := len(a) >> 2
	c1 := p.twiddle(r, off>>uint(r+1))
	c0a := p.twiddle(r-1, off>>uint(r))
	c0b := p.twiddle(r-1, (off>>uint(r))+1)
	const w = 512
	for o := 0; o < q; o += w {
		e := min(o+w, q)
		gf64.InvButterfly(a[o:e], a[q+o:q+e], c0a)
		gf64.InvButterfly(a[2*q+o:2*q+e], a[3*q+o:3*q+e], c0b)
		gf64.InvButterfly(a[o:e], a[2*q+o:2*q+e], c1)
		gf64.InvButterfly(a[q+o:q+e], a[3*q+o:3*q+e], c1)
	}
}

// inverse undoes forward.
func (p *plan) inverse(a []gf64.Element, off, r int, sc *scratch) {
	if r < p.L {
		p.inverseChunk(a, off, sc)
		return
	}
	if p.tun.net && r-2 >= p.L {
		e := len(a) >> 3
		for i := 0; i < 8; i++ {
			p.inverse(a[i*e:(i+1)*e], off+i*e, r-3, sc)
		}
		tw := p.radix8Tw(off, r)
		radix8Inv(a, &tw)
		return
	}
	if r-1 >= p.L && len(a) >= p.tun.radix4Min {
		q := len(a) >> 2
		for i := 0; i < 4; i++ {
			p.inverse(a[i*q:(i+1)*q], off+i*q, r-2, sc)
		}
		p.inverse4(a, off, r)
		return
	}
	h := len(a) >> 1
	p.inverse(a[:h], off, r-1, sc)
	p.inverse(a[h:], off+h, r-1, sc)
	gf64.InvButterfly(a[:h], a[h:], p.twiddle(r, off>>uint(r+1)))
}

// forwardChunk applies levels k-1..0 to a block a of 2^k ≤ 2^L elements.
func (p *plan) forwardChunk(a []gf64.Element, off int, sc *scratch) {
	k := bits.Len(uint(len(a))) - 1
	for r := k - 1; r >= 0; r-- {
		if lv := p.netLevels(k); lv > 0 && r == lv-1 {
			p.netForward(a, off, lv)
			return
		}
		if r == laneLevels-1 && k >= laneLevels+3 {
			p.smallKForward(a, off, laneLevels, sc)
			return
		}
		if lv := p.netLevels(k); lv > 0 && r-2 >= lv {
			base := func(r int) gf64.Element { return p.twiddle(r, off>>uint(r+1)) }
			n := 8 << uint(r-2)
			for b := 0; b < len(a)/n; b++ {
				tw := p.radix8TwLoc(b, r, base)
				radix8Fwd(a[b*n:(b+1)*n], &tw)
			}
			r -= 2
			continue
		}
		base := p.twiddle(r, off>>uint(r+1))
		if r < smallLevels {
			p.smallForward(a, r, base, sc)
			continue
		}
		h := 1 << uint(r)
		for b, c := range p.loc[r][:len(a)>>uint(r+1)] {
			i := b << uint(r+1)
			gf64.Butterfly(a[i:i+h], a[i+h:i+2*h], base^c)
		}
	}
}

// inverseChunk undoes forwardChunk.
func (p *plan) inverseChunk(a []gf64.Element, off int, sc *scratch) {
	k := bits.Len(uint(len(a))) - 1
	r0 := 0
	if lv := p.netLevels(k); lv > 0 {
		p.netInverse(a, off, lv)
		r0 = lv
	} else if k >= laneLevels+3 {
		p.smallKInverse(a, off, laneLevels, sc)
		r0 = laneLevels
	}
	for r := r0; r < k; r++ {
		if r0 > 0 && r0 == p.netLevels(k) && r+2 < k {
			base := func(r int) gf64.Element { return p.twiddle(r, off>>uint(r+1)) }
			n := 8 << uint(r)
			for b := 0; b < len(a)/n; b++ {
				tw := p.radix8TwLoc(b, r+2, base)
				radix8Inv(a[b*n:(b+1)*n], &tw)
			}
			r += 2
			continue
		}
		base := p.twiddle(r, off>>uint(r+1))
		if r < smallLevels {
			p.smallInverse(a, r, base, sc)
			continue
		}
		h := 1 << uint(r)
		for b, c := range p.loc[r][:len(a)>>uint(r+1)] {
			i := b << uint(r+1)
			gf64.InvButterfly(a[i:i+h], a[i+h:i+2*h], base^c)
		}
	}
}

// smallForward runs level r (2^r < 2^smallLevels) on a chunk: the second
// members of all pairs are gathered and multiplied by their twiddles with one
// vector multiplication.
func (p *plan) smallForward(a []gf64.Element, r int, base gf64.Element, sc *scratch) {
	half := len(a) >> 1
	v, tw := sc.v[:half], sc.tw[:half]
	loc := p.locExp[r][:half]
	h := 1 << uint(r)
	mask := h - 1
	switch r {
	case 0:
		for q := range v {
			v[q] = a[2*q+1]
			tw[q] = base ^ loc[q]
		}
		gf64.MulVec(v, v, tw)
		for q := range v {
			u := a[2*q] ^ v[q]
			a[2*q] = u
			a[2*q+1] ^= u
		}
	default:
		for q := range v {
			i := (q&^mask)<<1 | q&mask
			v[q] = a[i+h]
			tw[q] = base ^ loc[q]
		}
		gf64.MulVec(v, v, tw)
		for q := range v {
			i := (q&^mask)<<1 | q&mask
			u := a[i] ^ v[q]
			a[i] = u
			a[i+h] ^= u
		}
	}
}

// smallInverse undoes smallForward.
func (p *plan) smallInverse(a []gf64.Element, r int, base gf64.Element, sc *scratch) {
	half := len(a) >> 1
	v, tw := sc.v[:half], sc.tw[:half]
	loc := p.locExp[r][:half]
	h := 1 << uint(r)
	mask := h - 1
	for q := range v {
		i := (q&^mask)<<1 | q&mask
		x := a[i+h] ^ a[i]
		a[i+h] = x
		v[q] = x
		tw[q] = base ^ loc[q]
	}
	gf64.MulVec(v, v, tw)
	for q := range v {
		i := (q&^mask)<<1 | q&mask
		a[i] ^= v[q]
	}
}

// forwardTrunc applies the whole forward network (m = p.m) to a, of which
// only the first 2^j entries may be non-zero: the levels r ≥ j only copy
// the first block, so they are replaced by copies.
func (p *plan) forwardTrunc(a []gf64.Element, j int, sc *scratch) {
	bs := 1 << uint(j)
	if j == 0 {
		for i := bs; i < len(a); i += bs {
			copy(a[i:i+bs], a[:bs])
		}
		return
	}
	// Block 0 is the source of the others: transform it last.
	for i := bs; i < len(a); i += bs {
		p.forwardFrom(a[i:i+bs], a[:bs], i, j-1, sc)
	}
	p.forward(a[:bs], 0, j-1, sc)
}

// forwardFrom is forward on a copy of src written to dst (same length, not
// overlapping): the first pass of three levels reads src, which saves the
// separate copy.
func (p *plan) forwardFrom(dst, src []gf64.Element, off, r int, sc *scratch) {
	if !p.tun.net || r-2 < p.L {
		copy(dst, src)
		p.forward(dst, off, r, sc)
		return
	}
	tw := p.radix8Tw(off, r)
	radix8FwdFrom(dst, src, &tw)
	e := len(dst) >> 3
	for i := 0; i < 8; i++ {
		p.forward(dst[i*e:(i+1)*e], off+i*e, r-3, sc)
	}
}

// Levels 0, 1 and 2 of a block of n ≥ 64 elements run on its transpose:
// lane t (t < 8) holds the elements 8j+t, so that every butterfly of these
// levels pairs two whole lanes, with one twiddle per group j.

// transposeIn sets l[t·g+j] = a[8j+t], g = len(a)/8.
func transposeIn(l, a []gf64.Element) {
	g := len(a) / 8
	l = l[:len(a)]
	for j := 0; j < g; j++ {
		x := a[8*j : 8*j+8 : 8*j+8]
		l[j], l[g+j], l[2*g+j], l[3*g+j] = x[0], x[1], x[2], x[3]
		l[4*g+j], l[5*g+j], l[6*g+j], l[7*g+j] = x[4], x[5], x[6], x[7]
	}
}

// transposeOut undoes transposeIn.
func transposeOut(a, l []gf64.Element) {
	g := len(a) / 8
	l = l[:len(a)]
	for j := 0; j < g; j++ {
		x := a[8*j : 8*j+8 : 8*j+8]
		x[0], x[1], x[2], x[3] = l[j], l[g+j], l[2*g+j], l[3*g+j]
		x[4], x[5], x[6], x[7] = l[4*g+j], l[5*g+j], l[6*g+j], l[7*g+j]
	}
}

// laneTwiddles sets tw[j] = base ^ loc[stride·j + q].
func laneTwiddles(tw, loc []gf64.Element, base gf64.Element, stride, q int) {
	for j := range tw {
		tw[j] = base ^ loc[stride*j+q]
	}
}

// laneLevels is the number of network levels (0..laneLevels-1) that run on
// the transpose of a block with 2^laneLevels lanes.
const laneLevels = 3

// transposeK sets l[t·g+j] = a[j·2^K+t] (g = len(a)/2^K); transposeKOut
// undoes it.
func transposeK(l, a []gf64.Element, K int) {
	if K == 3 {
		transposeIn(l, a)
		return
	}
	w := 1 << uint(K)
	g := len(a) >> uint(K)
	for j := 0; j < g; j++ {
		x := a[j*w : (j+1)*w : (j+1)*w]
		for t, v := range x {
			l[t*g+j] = v
		}
	}
}

func transposeKOut(a, l []gf64.Element, K int) {
	if K == 3 {
		transposeOut(a, l)
		return
	}
	w := 1 << uint(K)
	g := len(a) >> uint(K)
	for j := 0; j < g; j++ {
		x := a[j*w : (j+1)*w : (j+1)*w]
		for t := range x {
			x[t] = l[t*g+j]
		}
	}
}

// smallKForward runs levels K-1..0 of the forward network on a block a
// (len ≥ 2^(K+3)) starting at index off, on its transpose.
func (p *plan) smallKForward(a []gf64.Element, off, K int, sc *scratch) {
	g := len(a) >> uint(K)
	l := sc.t[:len(a)]
	tw, tmp := sc.tw[:g], sc.v[:g]
	transposeK(l, a, K)
	for r := K - 1; r >= 0; r-- {
		base := p.twiddle(r, off>>uint(r+1))
		h := 1 << uint(r)
		for tb := 0; tb < 1<<uint(K); tb += 2 * h {
			laneTwiddles(tw, p.loc[r], base, 1<<uint(K-1-r), tb>>uint(r+1))
			for t := tb; t < tb+h; t++ {
				butterflyVec(l[t*g:(t+1)*g], l[(t+h)*g:(t+h+1)*g], tw, tmp)
			}
		}
	}
	transposeKOut(a, l, K)
}

// smallKInverse undoes smallKForward.
func (p *plan) smallKInverse(a []gf64.Element, off, K int, sc *scratch) {
	g := len(a) >> uint(K)
	l := sc.t[:len(a)]
	tw, tmp := sc.tw[:g], sc.v[:g]
	transposeK(l, a, K)
	for r := 0; r < K; r++ {
		base := p.twiddle(r, off>>uint(r+1))
		h := 1 << uint(r)
		for tb := 0; tb < 1<<uint(K); tb += 2 * h {
			laneTwiddles(tw, p.loc[r], base, 1<<uint(K-1-r), tb>>uint(r+1))
			for t := tb; t < tb+h; t++ {
				invButterflyVec(l[t*g:(t+1)*g], l[(t+h)*g:(t+h+1)*g], tw, tmp)
			}
		}
	}
	transposeKOut(a, l, K)
}

// butterflyVec is the forward butterfly with one twiddle per pair:
// u[i] += tw[i]·v[i], then v[i] += u[i].
func butterflyVec(u, v, tw, tmp []gf64.Element) {
	gf64.MulVec(tmp, v, tw)
	xorInto(u, tmp)
	xorInto(v, u)
}

// invButterflyVec undoes butterflyVec.
func invButterflyVec(u, v, tw, tmp []gf64.Element) {
	xorInto(v, u)
	gf64.MulVec(tmp, v, tw)
	xorInto(u, tmp)
}
