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
// Which step runs where is decided when the plan is built (plan.go): the
// step of every level above the chunks (plan.steps) and the recipe of a
// chunk of every size (plan.recipes). The executor below only follows
// them. With the radix-8 kernels (tuning.net: kernels_network.go,
// kernels_network_amd64.s), three levels run per pass above the chunks
// (radix8Fwd: one column of eight slices in registers), and levels 5..0 run
// in registers on 64-element groups (net64Fwd). Without them, big blocks
// run two levels per sweep (forward4), chunks use gf64.Butterfly per block
// and the lane transposition for the last three levels.

func trailingZeros(u uint) int { return bits.TrailingZeros(u) }

// The steps of the network above the chunks (plan.steps[r] for level r ≥ L;
// the block of level r has 2^(r+1) elements, so the step depends on r only).
const (
	stepChunk = iota // r < L: levels r..0 in one chunk (forwardChunk)
	step2            // level r alone, one gf64.Butterfly over the block
	step4            // levels r, r-1 in one sweep (forward4)
	step8            // levels r, r-1, r-2 in one sweep (radix8Fwd)
)

// levelsOf is how many levels one step runs.
var levelsOf = [...]int{step2: 1, step4: 2, step8: 3}

// forward applies levels r..0 to a (length 2^(r+1)), whose first element
// has index off, with a budget of procs goroutines: blocks of at least
// tun.parMin elements spread each step over the budget and split it among their
// sub-blocks; with a budget of one everything runs on the calling goroutine
// and allocates nothing. inverse walks the same steps in the mirror order.
func (p *plan) forward(a []gf64.Element, off, r, procs int, sc *scratch) {
	if r < 0 {
		return
	}
	par := procs > 1 && len(a) >= p.tun.parMin
	switch st := p.steps[r]; st {
	case stepChunk:
		p.forwardChunk(a, off, sc)
		return
	case step8:
		tw := p.radix8Tw(off, r)
		if par {
			radix8Par(a, a, tw, procs, false)
		} else {
			radix8Fwd(a, &tw)
		}
	case step4:
		c := p.radix4Tw(off, r)
		if par {
			radix4Par(a, c, procs, false)
		} else {
			forward4(a, 0, len(a)>>2, &c)
		}
	case step2:
		h := len(a) >> 1
		c := p.twiddle(r, off>>uint(r+1))
		if par {
			parRange(h, chunk, procs, func(lo, hi int) { gf64.Butterfly(a[lo:hi], a[h+lo:h+hi], c) })
		} else {
			gf64.Butterfly(a[:h], a[h:], c)
		}
	}
	p.subBlocks(a, off, r, procs, par, false, sc)
}

// inverse undoes forward: the same steps, sub-blocks first.
func (p *plan) inverse(a []gf64.Element, off, r, procs int, sc *scratch) {
	if r < 0 {
		return
	}
	par := procs > 1 && len(a) >= p.tun.parMin
	st := p.steps[r]
	if st == stepChunk {
		p.inverseChunk(a, off, sc)
		return
	}
	p.subBlocks(a, off, r, procs, par, true, sc)
	switch st {
	case step8:
		tw := p.radix8Tw(off, r)
		if par {
			radix8Par(a, a, tw, procs, true)
		} else {
			radix8Inv(a, &tw)
		}
	case step4:
		c := p.radix4Tw(off, r)
		if par {
			radix4Par(a, c, procs, true)
		} else {
			inverse4(a, 0, len(a)>>2, &c)
		}
	case step2:
		h := len(a) >> 1
		c := p.twiddle(r, off>>uint(r+1))
		if par {
			parRange(h, chunk, procs, func(lo, hi int) { gf64.InvButterfly(a[lo:hi], a[h+lo:h+hi], c) })
		} else {
			gf64.InvButterfly(a[:h], a[h:], c)
		}
	}
}

// subBlocks runs the network (levels below the step of level r) on the
// 2^levelsOf[step] sub-blocks of a: on the calling goroutine, or spread over
// the budget with a share of it each.
func (p *plan) subBlocks(a []gf64.Element, off, r, procs int, par, inv bool, sc *scratch) {
	lv := levelsOf[p.steps[r]]
	k := 1 << uint(lv)
	e := len(a) >> uint(lv)
	if !par {
		for i := 0; i < k; i++ {
			if inv {
				p.inverse(a[i*e:(i+1)*e], off+i*e, r-lv, 1, sc)
			} else {
				p.forward(a[i*e:(i+1)*e], off+i*e, r-lv, 1, sc)
			}
		}
		return
	}
	w := min(k, procs) // goroutines; goroutine g runs sub-blocks [g·k/w, (g+1)·k/w)
	parRange(w, 1, w, func(lo, hi int) {
		withScratch(func(sc *scratch) {
			for g := lo; g < hi; g++ {
				sub := procs / w
				if g >= w-procs%w {
					sub++
				}
				for i := g * k / w; i < (g+1)*k/w; i++ {
					if inv {
						p.inverse(a[i*e:(i+1)*e], off+i*e, r-lv, sub, sc)
					} else {
						p.forward(a[i*e:(i+1)*e], off+i*e, r-lv, sub, sc)
					}
				}
			}
		})
	})
}

// radix8Par is radix8Cols over all columns, spread over procs goroutines
// (tw passed by value: the closure's copy stays off the serial path).
func radix8Par(dst, src []gf64.Element, tw [7]gf64.Element, procs int, inv bool) {
	parRange(len(dst)>>3, chunk, procs, func(lo, hi int) { radix8Cols(dst, src, lo, hi, &tw, inv) })
}

// radix4Par is forward4 (inv: inverse4) over all columns, spread over procs
// goroutines.
func radix4Par(a []gf64.Element, c [3]gf64.Element, procs int, inv bool) {
	parRange(len(a)>>2, chunk, procs, func(lo, hi int) {
		if inv {
			inverse4(a, lo, hi, &c)
		} else {
			forward4(a, lo, hi, &c)
		}
	})
}

// newSteps returns the step of every level r of an m-dimensional plan with
// chunks of 2^L elements under tun.
func newSteps(m, L int, tun tuning) []uint8 {
	steps := make([]uint8, m)
	for r := range steps {
		switch {
		case r < L:
			steps[r] = stepChunk
		case tun.net && r-2 >= L:
			steps[r] = step8
		case r-1 >= L && 2<<uint(r) >= tun.radix4Min:
			steps[r] = step4
		default:
			steps[r] = step2
		}
	}
	return steps
}

// radix4Tw returns the twiddles of the block of level r at off: level r,
// then the two of level r-1.
func (p *plan) radix4Tw(off, r int) [3]gf64.Element {
	b := off >> uint(r+1)
	return [3]gf64.Element{p.twiddle(r, b), p.twiddle(r-1, 2*b), p.twiddle(r-1, 2*b+1)}
}

// forward4 applies levels r and r-1 to columns [lo, hi) of the four
// quarters of a block a in one sweep; c from radix4Tw.
func forward4(a []gf64.Element, lo, hi int, c *[3]gf64.Element) {
	q := len(a) >> 2
	const w = 512
	for o := lo; o < hi; o += w {
		e := min(o+w, hi)
		gf64.Butterfly(a[o:e], a[2*q+o:2*q+e], c[0])
		gf64.Butterfly(a[q+o:q+e], a[3*q+o:3*q+e], c[0])
		gf64.Butterfly(a[o:e], a[q+o:q+e], c[1])
		gf64.Butterfly(a[2*q+o:2*q+e], a[3*q+o:3*q+e], c[2])
	}
}

// inverse4 undoes forward4.
func inverse4(a []gf64.Element, lo, hi int, c *[3]gf64.Element) {
	q := len(a) >> 2
	const w = 512
	for o := lo; o < hi; o += w {
		e := min(o+w, hi)
		gf64.InvButterfly(a[o:e], a[q+o:q+e], c[1])
		gf64.InvButterfly(a[2*q+o:2*q+e], a[3*q+o:3*q+e], c[2])
		gf64.InvButterfly(a[o:e], a[2*q+o:2*q+e], c[0])
		gf64.InvButterfly(a[q+o:q+e], a[3*q+o:3*q+e], c[0])
	}
}

// The levels inside a chunk (blocks of at most 2^L elements) follow the
// plan's recipe for the block size (plan.recipes[k], top level first):
// forwardChunk runs it in order, inverseChunk runs the inverse of each step
// in the reverse order.
const (
	opBlocks = iota // level r: gf64.Butterfly per block, twiddles from loc
	opPairs         // level r < smallLevels: one vector multiplication (smallForward)
	opRadix8        // levels r, r-1, r-2 per block (radix8Fwd), twiddles from loc
	opLanes         // levels laneLevels-1..0 on the transposed block (smallKForward)
	opNet           // levels r..0 in the register kernels (net16/net64: r = 3 or 5)
)

// chunkStep is one step of a chunk recipe: op on levels from r down.
type chunkStep struct {
	op, r int8
}

// chunkRecipe returns the steps of a chunk of 2^k elements (k ≤ L), top
// level first.
func (p *plan) chunkRecipe(k int) []chunkStep {
	lv := p.netLevels(k)
	var steps []chunkStep
	for r := k - 1; r >= 0; r-- {
		switch {
		case lv > 0 && r == lv-1:
			return append(steps, chunkStep{opNet, int8(r)})
		case lv == 0 && r == laneLevels-1 && k >= laneLevels+3:
			return append(steps, chunkStep{opLanes, int8(r)})
		case lv > 0 && r-2 >= lv:
			steps = append(steps, chunkStep{opRadix8, int8(r)})
			r -= 2
		case r < smallLevels:
			steps = append(steps, chunkStep{opPairs, int8(r)})
		default:
			steps = append(steps, chunkStep{opBlocks, int8(r)})
		}
	}
	return steps
}

// forwardChunk applies levels k-1..0 to a block a of 2^k ≤ 2^L elements.
func (p *plan) forwardChunk(a []gf64.Element, off int, sc *scratch) {
	for _, st := range p.recipes[bits.Len(uint(len(a)))-1] {
		p.chunkStep(a, off, st, false, sc)
	}
}

// inverseChunk undoes forwardChunk: the same recipe backwards.
func (p *plan) inverseChunk(a []gf64.Element, off int, sc *scratch) {
	steps := p.recipes[bits.Len(uint(len(a)))-1]
	for i := len(steps) - 1; i >= 0; i-- {
		p.chunkStep(a, off, steps[i], true, sc)
	}
}

// chunkStep runs one recipe step (inv: its inverse) on the chunk a at off.
func (p *plan) chunkStep(a []gf64.Element, off int, st chunkStep, inv bool, sc *scratch) {
	r := int(st.r)
	switch st.op {
	case opNet:
		if inv {
			p.netInverse(a, off, r+1)
		} else {
			p.netForward(a, off, r+1)
		}
	case opLanes:
		if inv {
			p.smallKInverse(a, off, r+1, sc)
		} else {
			p.smallKForward(a, off, r+1, sc)
		}
	case opRadix8:
		base := func(r int) gf64.Element { return p.twiddle(r, off>>uint(r+1)) }
		n := 8 << uint(r-2)
		for b := 0; b < len(a)/n; b++ {
			tw := p.radix8TwLoc(b, r, base)
			if inv {
				radix8Inv(a[b*n:(b+1)*n], &tw)
			} else {
				radix8Fwd(a[b*n:(b+1)*n], &tw)
			}
		}
	case opPairs:
		base := p.twiddle(r, off>>uint(r+1))
		if inv {
			p.smallInverse(a, r, base, sc)
		} else {
			p.smallForward(a, r, base, sc)
		}
	case opBlocks:
		base := p.twiddle(r, off>>uint(r+1))
		h := 1 << uint(r)
		for b, c := range p.loc[r][:len(a)>>uint(r+1)] {
			i := b << uint(r+1)
			if inv {
				gf64.InvButterfly(a[i:i+h], a[i+h:i+2*h], base^c)
			} else {
				gf64.Butterfly(a[i:i+h], a[i+h:i+2*h], base^c)
			}
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
// the first block, so they are replaced by copies. Block 0 is the source of
// the others: it is transformed last.
func (p *plan) forwardTrunc(a []gf64.Element, j, procs int, sc *scratch) {
	bs := 1 << uint(j)
	nb := len(a) / bs
	first := a[:bs]
	switch {
	case procs <= 1:
		for b := 1; b < nb; b++ {
			p.forwardFrom(a[b*bs:(b+1)*bs], first, b*bs, j-1, 1, sc)
		}
	case nb < procs:
		// Fewer blocks than goroutines: each transform takes the budget.
		for b := 1; b < nb; b++ {
			copy(a[b*bs:(b+1)*bs], first)
		}
		for b := 0; b < nb; b++ {
			p.forward(a[b*bs:(b+1)*bs], b*bs, j-1, procs, sc)
		}
		return
	case j > 0 && bs >= p.tun.parMin && (nb-1)%procs != 0:
		// The blocks do not share evenly: split each transform instead.
		for b := nb - 1; b >= 1; b-- {
			p.forwardFrom(a[b*bs:(b+1)*bs], first, b*bs, j-1, procs, sc)
		}
	default:
		parRange(nb-1, 1, procs, func(lo, hi int) {
			withScratch(func(sc *scratch) {
				for b := hi; b > lo; b-- { // blocks 1..nb-1
					p.forwardFrom(a[b*bs:(b+1)*bs], first, b*bs, j-1, 1, sc)
				}
			})
		})
	}
	p.forward(first, 0, j-1, procs, sc)
}

// forwardFrom is forward on a copy of src written to dst (same length, not
// overlapping): a first radix-8 step reads src, which saves the separate
// copy.
func (p *plan) forwardFrom(dst, src []gf64.Element, off, r, procs int, sc *scratch) {
	par := procs > 1 && len(dst) >= p.tun.parMin
	if r < 0 || p.steps[r] != step8 {
		if par {
			parRange(len(dst), chunk, procs, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
		} else {
			copy(dst, src)
		}
		p.forward(dst, off, r, procs, sc)
		return
	}
	tw := p.radix8Tw(off, r)
	if par {
		radix8Par(dst, src, tw, procs, false)
	} else {
		radix8FwdFrom(dst, src, &tw)
	}
	p.subBlocks(dst, off, r, procs, par, false, sc)
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
