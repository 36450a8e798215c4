package domain

import (
	"math/bits"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// The monomial ↔ novel conversion executor: toNovel and fromNovel run the
// depths of Gao–Mateer's recursion (twist, Taylor expansion) with a budget
// of goroutines, depth first with gathered subproblems for big arrays; the
// Taylor steps and the fused twist-and-Taylor pass below them.

// toNovelFlat runs depths r0..log2(len(a))-1 of the conversion one after the
// other, each over the whole array: the reference for toNovel.
func (p *plan) toNovelFlat(a []gf64.Element, r0, procs int, sc *scratch) {
	for r := r0; 1<<uint(r) < len(a); r++ {
		p.twistTaylor(a, r, procs, sc)
	}
}

// fromNovelFlat undoes toNovelFlat.
func (p *plan) fromNovelFlat(a []gf64.Element, r0, procs int, sc *scratch) {
	for r := bits.TrailingZeros(uint(len(a))) - 1; r >= r0; r-- {
		p.untwistTaylor(a, r, procs, sc)
	}
}

// Depth-first conversion. Every depth r of the conversion runs Taylor
// levels over the whole array: the ones on blocks bigger than the caches
// cost a pass over memory each, about five per depth at 2^30. But after
// depth k the 2^k interleaved subproblems (stride 2^k) are independent:
// gathering 2^gatherLog consecutive ones, b[t·G+u] = a[t·2^k+j0+u] (whole
// cache lines), gives a contiguous array on which depth r ≥ k of a is depth
// r−k+gatherLog with the twist factors of depth r (plan.shifted); it is
// converted there, recursively, and scattered back. The depths before k run
// over the whole array; k is chosen so that the gathered array has the
// size of the next smaller cache level (deepLogs), where it is finished,
// with further levels of gathering inside it.
//
// Which depths gather and which run fused is decided when the plan is
// built: the recipe of each array size (plan.convs, newConvRecipe).

// convRecipe is how the conversion of an array of 2^n elements runs
// (plan.convs[n]).
type convRecipe struct {
	// gather: the depth k after which toNovel gathers the interleaved
	// subproblems in groups (the depths before it run over the whole
	// array; the gathered arrays have the size of tun.deepLogs' largest
	// entry below n), or -1: every depth runs over the whole array.
	gather int
	// steps[r] (r < n) is how depth r runs over the whole array: depthPlain
	// (twist, then taylor) or depthFused (the twist and the first fuseK
	// Taylor levels in one pass over memory, then the sub-blocks).
	steps []uint8
}

// The steps of a conversion depth over the whole array (convRecipe.steps).
const (
	depthPlain = iota
	depthFused
)

// newConvRecipe returns the recipe of an array of 2^n elements under tun.
func newConvRecipe(n int, tun tuning) convRecipe {
	c := convRecipe{gather: -1, steps: make([]uint8, n)}
	for r := range c.steps {
		if canFuseTwist(1<<uint(n), r) {
			c.steps[r] = depthFused
		}
	}
	t := -1
	for _, l := range tun.deepLogs {
		if l < n {
			t = l
		}
	}
	if t >= 0 {
		if k := max(n+gatherLog-t, gatherLog); k <= n-2 {
			c.gather = k
		}
	}
	return c
}

// toNovel runs depths r0..log2(len(a))-1 of the conversion on a, depth
// first, with a budget of procs goroutines, as the plan's recipe for
// len(a) says. With r0 = 0 it converts the 2^j = len(a) monomial
// coefficients (j ≤ m) to the novel basis: novel coefficients below 2^j
// only depend on v_0..v_{j-1}. r0 is 0, or gatherLog inside a gathered
// group: never above the gather depth.
func (p *plan) toNovel(a []gf64.Element, r0, procs int, sc *scratch) {
	k := p.convs[bits.TrailingZeros(uint(len(a)))].gather
	if k < 0 {
		p.toNovelFlat(a, r0, procs, sc)
		return
	}
	for r := r0; r < k; r++ {
		p.twistTaylor(a, r, procs, sc)
	}
	p.shifted(k-gatherLog).eachGroup(a, k, procs, false, sc)
}

// fromNovel undoes toNovel.
func (p *plan) fromNovel(a []gf64.Element, r0, procs int, sc *scratch) {
	k := p.convs[bits.TrailingZeros(uint(len(a)))].gather
	if k < 0 {
		p.fromNovelFlat(a, r0, procs, sc)
		return
	}
	p.shifted(k-gatherLog).eachGroup(a, k, procs, true, sc)
	for r := k - 1; r >= r0; r-- {
		p.untwistTaylor(a, r, procs, sc)
	}
}

// shifted returns the plan whose depth r is depth r+off of p, for the
// depths r ≥ gatherLog that gathered arrays use: only the twist factors
// (and the fused-pass twist tables) are filled in. They are built once per
// plan, on first use.
func (p *plan) shifted(off int) *plan {
	root := p
	if p.root != nil {
		root, off = p.root, p.off+off
	}
	root.shiftOnce.Do(func() {
		root.shifts = make([]*plan, root.m)
		for o := range root.shifts {
			q := &plan{m: root.m - o, tw: root.tw[o:], twInv: root.twInv[o:], root: root, off: o, tun: root.tun,
				convs: root.convs, taylorSteps: root.taylorSteps}
			nf := min(q.m, fuseTabLog)
			q.fuseTab, q.fuseTabInv = make([][]gf64.Element, nf), make([][]gf64.Element, nf)
			for r := gatherLog; r < nf; r++ {
				q.fuseTab[r], _ = powTable(q.tw[r], r, fuseW)
				q.fuseTabInv[r], _ = powTable(q.twInv[r], r, fuseW)
			}
			root.shifts[o] = q
		}
	})
	return root.shifts[off]
}

// eachGroup gathers each run of 2^gatherLog consecutive stride-2^k
// subproblems of a into a contiguous buffer, converts it with q (depths
// gatherLog and up; back to monomial if inv) and scatters it back. The
// groups are spread over procs goroutines, each with its buffer.
func (q *plan) eachGroup(a []gf64.Element, k, procs int, inv bool, sc *scratch) {
	groups := 1 << uint(k-gatherLog)
	if procs <= 1 {
		q.groups(a, k, 0, groups, inv, sc)
		return
	}
	parRange(groups, 1, procs, func(lo, hi int) {
		withScratch(func(sc *scratch) { q.groups(a, k, lo, hi, inv, sc) })
	})
}

func (q *plan) groups(a []gf64.Element, k, lo, hi int, inv bool, sc *scratch) {
	const g = 1 << gatherLog
	bp := getBuf(len(a) >> uint(k-gatherLog))
	b := bp.b
	for grp := lo; grp < hi; grp++ {
		gatherRows(b, a[grp*g:], 1<<uint(k))
		if inv {
			q.fromNovel(b, gatherLog, 1, sc)
		} else {
			q.toNovel(b, gatherLog, 1, sc)
		}
		scatterRows(a[grp*g:], b, 1<<uint(k))
	}
	putBuf(bp)
}

// gatherRowsGeneric sets b[t·G+u] = a[t·stride+u] for t < len(b)/G, u < G
// (G = 2^gatherLog): the reference for gatherRows.
func gatherRowsGeneric(b, a []gf64.Element, stride int) {
	const g = 1 << gatherLog
	for t := 0; t < len(b)/g; t++ {
		copy(b[t*g:(t+1)*g], a[t*stride:t*stride+g])
	}
}

// scatterRowsGeneric undoes gatherRowsGeneric.
func scatterRowsGeneric(a, b []gf64.Element, stride int) {
	const g = 1 << gatherLog
	for t := 0; t < len(b)/g; t++ {
		copy(a[t*stride:t*stride+g], b[t*g:(t+1)*g])
	}
}

// twist multiplies a[i] by tw[r]^(i>>r) (or its inverse): coefficient t of
// every depth-r subproblem by β^t, with a budget of procs goroutines.
func (p *plan) twist(a []gf64.Element, r, procs int, sc *scratch, inv bool) {
	if procs <= 1 {
		p.twistAt(a, 0, r, sc, inv)
		return
	}
	align := max(chunk, 1<<uint(r))
	parRange(len(a), align, procs, func(lo, hi int) {
		withScratch(func(sc *scratch) { p.twistAt(a[lo:hi], lo, r, sc, inv) })
	})
}

// twistAt is twist on the part a of a longer array that starts at index i0,
// a multiple of 2^r and of 2^L.
func (p *plan) twistAt(a []gf64.Element, i0, r int, sc *scratch, inv bool) {
	b := p.tw[r]
	if inv {
		b = p.twInv[r]
	}
	if r >= twistRunLog {
		run := 1 << uint(r)
		f := gf64.Exp(b, uint64(i0>>uint(r)))
		for i := 0; i < len(a); i += run {
			if i+i0 != 0 {
				gf64.ScaleVec(a[i:i+run], a[i:i+run], f)
			}
			f = gf64.Mul(f, b)
		}
		return
	}
	tab, step := p.twTab[r], p.twStep[r]
	if inv {
		tab, step = p.twInvTab[r], p.twInvStep[r]
	}
	n := min(len(tab), len(a))
	tab = tab[:n]
	f := gf64.Exp(step, uint64(i0/len(tab)))
	t := sc.t[:n]
	for i := 0; i < len(a); i += n {
		if i+i0 == 0 {
			gf64.MulVec(a[:n], a[:n], tab)
		} else {
			gf64.ScaleVec(t, tab, f)
			gf64.MulVec(a[i:i+n], a[i:i+n], t)
		}
		f = gf64.Mul(f, step)
	}
}

// taylor is taylorBlock with a budget of procs goroutines: blocks of at
// least tun.parMin elements XOR their quarters in parallel and split the budget
// between their halves.
func (p *plan) taylor(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < p.tun.parMin || n <= 4*s {
		p.taylorBlock(a, s)
		return
	}
	q := n >> 2
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	p1 := procs / 2
	both(procs, func() { p.taylor(a[:2*q], s, p1) }, func() { p.taylor(a[2*q:], s, procs-p1) })
}

// untaylor undoes taylor.
func (p *plan) untaylor(a []gf64.Element, s, procs int) {
	n := len(a)
	if procs <= 1 || n < p.tun.parMin || n <= 4*s {
		p.untaylorBlock(a, s)
		return
	}
	q := n >> 2
	p1 := procs / 2
	both(procs, func() { p.untaylor(a[:2*q], s, p1) }, func() { p.untaylor(a[2*q:], s, procs-p1) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[q+lo:q+hi], a[2*q+lo:2*q+hi]) })
	parRange(q, chunk, procs, func(lo, hi int) { xorInto(a[2*q+lo:2*q+hi], a[3*q+lo:3*q+hi]) })
}

// The steps of the Taylor expansion of a block of n elements at stride s
// (plan.taylorSteps, taylorStepOf), by size:
const (
	tsNone     = iota // n ≤ 2s: nothing to expand
	tsLow             // n = lowN: all levels in registers (taylorLow)
	tsFused           // the first fuseK levels in one pass (taylorFused), then the sub-blocks
	tsFusedLow        // tsFused with sub-blocks of lowN elements: taylorLow over all of them
	tsSmall           // quarters shorter than smallTaylor: level by level (taylorSmall)
	tsSplit           // one level (two quarter XORs), then each half
	tsSplitLow        // tsSplit with halves of lowN elements: taylorLow over both
)

// taylorStepOf returns the step of the Taylor expansion of a block of 2^k
// elements at stride 2^j.
func taylorStepOf(k, j int) uint8 {
	n, s := 1<<uint(k), 1<<uint(j)
	q := n >> 2
	switch {
	case n <= 2*s:
		return tsNone
	case n == lowN:
		return tsLow
	case n >= fuseSegs*s && n >= fuseSubs*lowN:
		if e := n / fuseSubs; e == lowN && 4*s <= e {
			return tsFusedLow
		}
		return tsFused
	case q < smallTaylor:
		return tsSmall
	case 2*q == lowN && 4*s <= 2*q:
		return tsSplitLow
	}
	return tsSplit
}

// taylorStep returns the plan's step for a block of n elements at stride s.
func (p *plan) taylorStep(n, s int) uint8 {
	return p.taylorSteps[bits.TrailingZeros(uint(n))][bits.TrailingZeros(uint(s))]
}

// taylorBlock replaces each of the interleaved polynomials a[k], a[k+s],
// a[k+2s], … (k < s) by its Taylor expansion at x²−x (Algorithm 3.4): the
// coefficient pairs (h_i0, h_i1) of f = Σ (h_i0 + h_i1·x)(x²−x)^i land at
// positions 2i·s+k and (2i+1)·s+k. It runs the plan's step for the size.
//
// With quarters f = f0 + x^(n/2)(f1 + x^(n/4) f2): h = f1+f2,
// g0 = f0 + x^(n/4)·h, g1 = h + x^(n/4)·f2, f = g0 + g1·(x²−x)^(n/4).
func (p *plan) taylorBlock(a []gf64.Element, s int) {
	switch st := p.taylorStep(len(a), s); st {
	case tsLow:
		taylorLow(a, s)
	case tsFused, tsFusedLow:
		p.taylorFused(a, s, st == tsFusedLow)
	case tsSmall:
		taylorSmall(a, s)
	case tsSplit, tsSplitLow:
		q := len(a) >> 2
		xorInto(a[2*q:3*q], a[3*q:])
		xorInto(a[q:2*q], a[2*q:3*q])
		if st == tsSplitLow {
			taylorLow(a, s) // both halves at once
			return
		}
		p.taylorBlock(a[:2*q], s)
		p.taylorBlock(a[2*q:], s)
	}
}

// taylorLowGeneric runs taylorBlock(block, s) on each lowN-element block of a:
// the reference for taylorLow.
func taylorLowGeneric(a []gf64.Element, s int) {
	for i := 0; i+lowN <= len(a); i += lowN {
		taylorSmall(a[i:i+lowN], s)
	}
}

// untaylorLowGeneric undoes taylorLowGeneric.
func untaylorLowGeneric(a []gf64.Element, s int) {
	for i := 0; i+lowN <= len(a); i += lowN {
		untaylorSmall(a[i:i+lowN], s)
	}
}

// untaylorBlock undoes taylorBlock: the same step, backwards.
func (p *plan) untaylorBlock(a []gf64.Element, s int) {
	switch st := p.taylorStep(len(a), s); st {
	case tsLow:
		untaylorLow(a, s)
	case tsFused, tsFusedLow:
		p.untaylorFused(a, s, st == tsFusedLow)
	case tsSmall:
		untaylorSmall(a, s)
	case tsSplit, tsSplitLow:
		q := len(a) >> 2
		if st == tsSplitLow {
			untaylorLow(a, s)
		} else {
			p.untaylorBlock(a[:2*q], s)
			p.untaylorBlock(a[2*q:], s)
		}
		xorInto(a[q:2*q], a[2*q:3*q])
		xorInto(a[2*q:3*q], a[3*q:])
	}
}

// fusedOps lists the segment XORs (dst ^= src) of the first fuseK Taylor
// levels of a block cut into fuseSegs segments, in order.
var fusedOps = func() [][2]int {
	var ops [][2]int
	for lvl := 0; lvl < fuseK; lvl++ {
		span := fuseSegs >> uint(lvl) // segments per block at this level
		q := span / 4
		for base := 0; base < fuseSegs; base += span {
			for i := 0; i < q; i++ {
				ops = append(ops, [2]int{base + 2*q + i, base + 3*q + i})
			}
			for i := 0; i < q; i++ {
				ops = append(ops, [2]int{base + q + i, base + 2*q + i})
			}
		}
	}
	return ops
}()

// taylorFused runs the first fuseK levels of taylor on a big block column
// chunk by column chunk, so that each chunk of the segments stays in L1,
// then the rest on each of the fuseSubs sub-blocks (low: they have lowN
// elements, one taylorLow call for all).
func (p *plan) taylorFused(a []gf64.Element, s int, low bool) {
	fusedColumns(a, 0, len(a)/fuseSegs, nil)
	if low {
		taylorLow(a, s)
		return
	}
	e := len(a) / fuseSubs
	for i := 0; i < fuseSubs; i++ {
		p.taylorBlock(a[i*e:(i+1)*e], s)
	}
}

// untaylorFused undoes taylorFused.
func (p *plan) untaylorFused(a []gf64.Element, s int, low bool) {
	if low {
		untaylorLow(a, s)
	} else {
		e := len(a) / fuseSubs
		for i := 0; i < fuseSubs; i++ {
			p.untaylorBlock(a[i*e:(i+1)*e], s)
		}
	}
	unfusedColumns(a, 0, len(a)/fuseSegs, nil)
}

// taylor3Generic runs the fused Taylor levels (fusedOps) on columns [o,
// o+w) of the 16 segments of a: the reference for taylor3.
func taylor3Generic(a []gf64.Element, o, w int) {
	seg := len(a) / fuseSegs
	for _, op := range fusedOps {
		d, x := op[0]*seg+o, op[1]*seg+o
		xorInto(a[d:d+w], a[x:x+w])
	}
}

// untaylor3Generic undoes taylor3Generic.
func untaylor3Generic(a []gf64.Element, o, w int) {
	seg := len(a) / fuseSegs
	for k := len(fusedOps) - 1; k >= 0; k-- {
		op := fusedOps[k]
		d, x := op[0]*seg+o, op[1]*seg+o
		xorInto(a[d:d+w], a[x:x+w])
	}
}

// fusedColumns runs the fused Taylor levels on the columns [lo, hi) of the
// fuseSegs segments of a; tw, if not nil, twists each slice first.
func fusedColumns(a []gf64.Element, lo, hi int, tw *twister) {
	seg := len(a) / fuseSegs
	for o := lo; o < hi; o += fuseW {
		w := min(fuseW, hi-o)
		if tw != nil {
			tw.apply(a, seg, o, w)
		}
		taylor3(a, o, w)
	}
}

// unfusedColumns undoes fusedColumns (the twist, if any, last).
func unfusedColumns(a []gf64.Element, lo, hi int, tw *twister) {
	seg := len(a) / fuseSegs
	for o := lo; o < hi; o += fuseW {
		w := min(fuseW, hi-o)
		untaylor3(a, o, w)
		if tw != nil {
			tw.apply(a, seg, o, w)
		}
	}
}

// twister applies the depth-r twist (a[i] *= β^(i>>r)) to the fuseSegs slices
// a[j·seg+o : j·seg+o+w] of a fused pass, for increasing o starting at o0;
// f[j] is β^((j·seg+o)>>r) for the next o.
type twister struct {
	b, step gf64.Element
	r       int
	tab     []gf64.Element
	f       [fuseSegs]gf64.Element
}

func (p *plan) newTwister(r, seg, o0 int, inv bool) *twister {
	t := new(twister)
	p.initTwister(t, r, seg, o0, inv)
	return t
}

func (p *plan) initTwister(t *twister, r, seg, o0 int, inv bool) {
	*t = twister{b: p.tw[r], r: r}
	if inv {
		t.b = p.twInv[r]
	}
	if r < fuseTabLog {
		t.tab = p.fuseTab[r]
		if inv {
			t.tab = p.fuseTabInv[r]
		}
		t.step = gf64.Exp(t.b, fuseW>>uint(r))
	}
	for j := range t.f {
		t.f[j] = gf64.Exp(t.b, uint64((j*seg+o0)>>uint(r)))
	}
}

func (t *twister) apply(a []gf64.Element, seg, o, w int) {
	for j := 0; j < fuseSegs; j++ {
		sl := a[j*seg+o : j*seg+o+w]
		if t.tab != nil {
			gf64.MulVec(sl, sl, t.tab[:w])
			if t.f[j] != gf64.One {
				gf64.ScaleVec(sl, sl, t.f[j])
			}
			t.f[j] = gf64.Mul(t.f[j], t.step)
			continue
		}
		if t.f[j] != gf64.One {
			gf64.ScaleVec(sl, sl, t.f[j])
		}
		if (o+w)&(1<<uint(t.r)-1) == 0 {
			t.f[j] = gf64.Mul(t.f[j], t.b)
		}
	}
}

// canFuseTwist reports whether depth r of the conversion of an array of n
// elements runs as one fused twist-and-Taylor pass (newConvRecipe).
func canFuseTwist(n, r int) bool { return n >= fuseMin && n >= fuseSegs<<uint(r) }

// twistTaylor is twist then taylor at depth r, fused into one pass over
// memory where the plan's recipe for len(a) says, with a budget of procs
// goroutines; untwistTaylor runs the same steps backwards.
func (p *plan) twistTaylor(a []gf64.Element, r, procs int, sc *scratch) {
	if p.convs[bits.TrailingZeros(uint(len(a)))].steps[r] == depthPlain {
		p.twist(a, r, procs, sc, false)
		p.taylor(a, 1<<uint(r), procs)
		return
	}
	p.fusedPass(a, r, procs, false)
	p.subTaylors(a, 1<<uint(r), procs, false)
}

// untwistTaylor undoes twistTaylor.
func (p *plan) untwistTaylor(a []gf64.Element, r, procs int, sc *scratch) {
	if p.convs[bits.TrailingZeros(uint(len(a)))].steps[r] == depthPlain {
		p.untaylor(a, 1<<uint(r), procs)
		p.twist(a, r, procs, sc, true)
		return
	}
	p.subTaylors(a, 1<<uint(r), procs, true)
	p.fusedPass(a, r, procs, true)
}

// fusedPass runs the depth-r twist and the fused Taylor levels on all
// columns of a (inv: their inverse, twist last), column ranges spread over
// the budget.
func (p *plan) fusedPass(a []gf64.Element, r, procs int, inv bool) {
	seg := len(a) / fuseSegs
	if procs <= 1 {
		var tw twister
		p.initTwister(&tw, r, seg, 0, inv)
		if inv {
			unfusedColumns(a, 0, seg, &tw)
		} else {
			fusedColumns(a, 0, seg, &tw)
		}
		return
	}
	parRange(seg, fuseW, procs, func(lo, hi int) {
		if inv {
			unfusedColumns(a, lo, hi, p.newTwister(r, seg, lo, true))
		} else {
			fusedColumns(a, lo, hi, p.newTwister(r, seg, lo, false))
		}
	})
}

// subTaylors runs the rest of the Taylor expansion (inv: its inverse) on
// the fuseSubs sub-blocks of a after a fused pass, spread over the budget.
func (p *plan) subTaylors(a []gf64.Element, s, procs int, inv bool) {
	if procs <= 1 {
		p.subTaylorRange(a, s, 0, fuseSubs, inv)
		return
	}
	parRange(fuseSubs, 1, procs, func(lo, hi int) { p.subTaylorRange(a, s, lo, hi, inv) })
}

// subTaylorRange runs sub-blocks [lo, hi) of subTaylors.
func (p *plan) subTaylorRange(a []gf64.Element, s, lo, hi int, inv bool) {
	e := len(a) / fuseSubs
	for i := lo; i < hi; i++ {
		if inv {
			p.untaylorBlock(a[i*e:(i+1)*e], s)
		} else {
			p.taylorBlock(a[i*e:(i+1)*e], s)
		}
	}
}

// taylorSmall is taylor for a block whose quarters are shorter than
// smallTaylor: the levels run one after the other over all sub-blocks.
func taylorSmall(a []gf64.Element, s int) {
	for n := len(a); n > 2*s; n >>= 1 {
		q := n >> 2
		if q == 1 { // s = 1, the last level: blocks of 4
			for i := 0; i+3 < len(a); i += 4 {
				b := a[i : i+4 : i+4]
				b[2] ^= b[3]
				b[1] ^= b[2]
			}
			continue
		}
		for i := 0; i < len(a); i += n {
			b := a[i : i+n : i+n]
			for j := 0; j < q; j++ {
				b[2*q+j] ^= b[3*q+j]
			}
			for j := 0; j < q; j++ {
				b[q+j] ^= b[2*q+j]
			}
		}
	}
}

// untaylorSmall undoes taylorSmall.
func untaylorSmall(a []gf64.Element, s int) {
	n := 4 * s
	for ; n <= len(a); n <<= 1 {
		q := n >> 2
		if q == 1 {
			for i := 0; i+3 < len(a); i += 4 {
				b := a[i : i+4 : i+4]
				b[1] ^= b[2]
				b[2] ^= b[3]
			}
			continue
		}
		for i := 0; i < len(a); i += n {
			b := a[i : i+n : i+n]
			for j := 0; j < q; j++ {
				b[q+j] ^= b[2*q+j]
			}
			for j := 0; j < q; j++ {
				b[2*q+j] ^= b[3*q+j]
			}
		}
	}
}

// xorInto sets dst[i] ^= src[i].
func xorInto(dst, src []gf64.Element) {
	if len(dst) >= 16 {
		xorLong(dst, src)
		return
	}
	xorGeneric(dst, src)
}

// xorGeneric is the reference for the XOR kernels.
func xorGeneric(dst, src []gf64.Element) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] ^= src[i]
	}
}
