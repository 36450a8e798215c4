package rs

import (
	"math/bits"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// erasure is the subspace-structured erasure decoder of a code of dimension
// 2^k over the codeword space T = shift + span(β_0..β_{n−1}).
//
// With E the erased positions and Π = ∏_{e∈E} (x − t_e), the product c·Π of
// the codeword polynomial c (degree < 2^k) and Π has degree < 2^k + |E| ≤ 2^n
// and is known at every point of T: w_t·Π(t) where t is present, 0 where
// it is erased. One inverse transform gives its coefficients, and since
// Π(t_e) = 0, (c·Π)′(t_e) = c(t_e)·Π′(t_e), so each erased symbol is
// (c·Π)′(t_e) / Π′(t_e). Coefficients of c·Π at degrees ≥ 2^k + |E| must vanish;
// when they do not, the present symbols are not on one polynomial of
// degree < 2^k.
//
// All polynomials live in the novel basis of β_0..β_{n−1}: its transforms are
// n·2^(n−1) multiplications, its formal derivative n·2^(n−1) more, and Π is
// built by a product tree over T's own blocks (each block of 2^j consecutive
// positions is a coset of span(β_0..β_{j−1})), where a fully erased block's
// factor is the coset's vanishing polynomial W_j(x) − W_j(t), two novel
// coefficients, and two partial factors are multiplied by transforms over
// span(β_0..β_j), each product's evaluations kept for its parent. Total
// O(2^n·n²) for scattered erasures, down to O(2^n·n) when they come in
// aligned blocks (whole blocks cost two coefficients, no transform).
type erasure struct {
	n, k  int
	nv    *novel
	off   []gf64.Element // Ŵ_j(shift), the twiddle offsets of T
	wsh   []gf64.Element // W_j(shift), unnormalized
	shift gf64.Element
	// T itself and, for j ≥ domainMin, span(β_0..β_{j−1}) with shift 0:
	// the transforms of these sizes are domain's novel-basis transforms
	// (same basis polynomials), smaller ones the loops of novel.go.
	t    *domain.Subspace
	span []*domain.Subspace
	// β_j + span(β_0..β_{j−1}): for j ≥ domainMin as a domain subspace, for
	// smaller j as the twiddle offsets offB[j] = Ŵ_l(β_j), l < j.
	shifted []*domain.Subspace
	offB    [][]gf64.Element
}

// domainMin is the smallest product-tree level whose transforms go to domain.
const domainMin = 8

func newErasure(t *domain.Subspace, k int) (*erasure, error) {
	shift, basis := t.Shift(), t.Basis()
	n := len(basis)
	e := &erasure{n: n, k: k, nv: newNovel(basis, domainMin), shift: shift, t: t}
	e.span = make([]*domain.Subspace, n+1)
	e.shifted = make([]*domain.Subspace, n)
	e.offB = make([][]gf64.Element, n)
	for j := 0; j <= n; j++ {
		if j < n && j < domainMin {
			e.offB[j] = make([]gf64.Element, j)
			e.nv.hatAt(e.offB[j], basis[j])
		}
		if j < domainMin {
			continue
		}
		v, err := domain.New(0, basis[:j]...)
		if err != nil {
			return nil, err
		}
		e.span[j] = v
		if j < n {
			if e.shifted[j], err = domain.New(basis[j], basis[:j]...); err != nil {
				return nil, err
			}
		}
	}
	e.off = make([]gf64.Element, n)
	e.nv.hatAt(e.off, shift)
	e.wsh = make([]gf64.Element, n+1)
	v := shift
	for j := 0; j <= n; j++ {
		e.wsh[j] = v
		if j < n {
			c := e.nv.w[j][j]
			v = gf64.Mul(v, v^c)
		}
	}
	return e, nil
}

// fwdShifted is the novel-basis transform over β_j + span(β_0..β_{j−1}).
func (e *erasure) fwdShifted(a []gf64.Element, j int) {
	if j >= domainMin {
		must(e.shifted[j].NovelFFT(a))
		return
	}
	e.nv.fft(a, j, j-1, e.offB[j])
}

// fwd and inv are the novel-basis transforms over span(β_0..β_{j−1}), shift 0.
func (e *erasure) fwd(a []gf64.Element, j int) {
	if j >= domainMin {
		must(e.span[j].NovelFFT(a))
		return
	}
	e.nv.fft(a, j, j-1, nil)
}

func (e *erasure) inv(a []gf64.Element, j int) {
	if j >= domainMin {
		must(e.span[j].NovelIFFT(a))
		return
	}
	e.nv.ifft(a, j, nil)
}

// wAt returns W_j(t_x) for the codeword point of index x whose bits below j
// are zero.
func (e *erasure) wAt(j, x int) gf64.Element {
	v, row := e.wsh[j], e.nv.w[j]
	for u := uint(x) >> uint(j); u != 0; u &= u - 1 {
		v ^= row[j+bits.TrailingZeros(u)]
	}
	return v
}

type nodeKind uint8

const (
	nodeEmpty   nodeKind = iota // no erasure in the block: the factor is 1
	nodeFull                    // all erased: the coset's vanishing polynomial
	nodePartial                 // degree < block size, novel coefficients in out
)

// node computes the erasure-locator factor of the block of positions
// [start, start+2^j). For nodePartial its 2^j novel coefficients are in co
// and, when hasEv, its evaluations over span(β_0..β_{j−1}) are in ev (the
// products the multiplication formed, kept for the parent). scratch holds at
// least 2^(j+1) elements.
func (e *erasure) node(j, start int, present []bool, co, ev, scratch []gf64.Element) (kind nodeKind, hasEv bool) {
	if j == 0 {
		if present[start] {
			return nodeEmpty, false
		}
		return nodeFull, false
	}
	if j == 1 {
		// Leaves inline: a leaf is empty or full.
		return e.merge(1, start, leaf(present[start]), false, leaf(present[start+1]), false, co, ev, scratch)
	}
	h := 1 << (j - 1)
	k0, ev0 := e.node(j-1, start, present, co[:h], ev[:h], scratch)
	k1, ev1 := e.node(j-1, start+h, present, co[h:], ev[h:], scratch)
	return e.merge(j, start, k0, ev0, k1, ev1, co, ev, scratch)
}

func leaf(present bool) nodeKind {
	if present {
		return nodeEmpty
	}
	return nodeFull
}

// parallelTreeMin is the smallest codeword dimension whose locator tree
// splits its two halves over two goroutines.
const parallelTreeMin = 12

// locator computes the erasure locator of all of T (node at level n); with
// par, the two halves of the tree run in parallel, each with half of scratch.
func (e *erasure) locator(present []bool, co, ev, scratch []gf64.Element, par bool) nodeKind {
	j := e.n
	if !par || j < parallelTreeMin {
		k, _ := e.node(j, 0, present, co, ev, scratch)
		return k
	}
	h := 1 << (j - 1)
	var k1 nodeKind
	var ev1 bool
	done := make(chan struct{})
	go func() {
		k1, ev1 = e.node(j-1, h, present, co[h:], ev[h:], scratch[2*h:])
		close(done)
	}()
	k0, ev0 := e.node(j-1, 0, present, co[:h], ev[:h], scratch[:2*h])
	<-done
	k, _ := e.merge(j, 0, k0, ev0, k1, ev1, co, ev, scratch)
	return k
}

// merge forms the factor of the block [start, start+2^j) from those of its
// halves, as node describes.
func (e *erasure) merge(j, start int, k0 nodeKind, ev0 bool, k1 nodeKind, ev1 bool, co, ev, scratch []gf64.Element) (kind nodeKind, hasEv bool) {
	h := 1 << (j - 1)
	w := e.nv.w[j-1][j-1] // W_{j−1}(β_{j−1})
	switch {
	case k0 == k1 && k0 != nodePartial:
		return k0, false
	case k0 == nodeEmpty && k1 == nodePartial:
		copy(co[:h], co[h:])
		clear(co[h:])
	case k0 == nodePartial && k1 == nodeEmpty:
		clear(co[h:])
	case k0 == nodeFull && k1 == nodeEmpty, k0 == nodeEmpty && k1 == nodeFull:
		// W_{j−1}(x) − W_{j−1}(t) = w·X_h + c: c on span(β_0..β_{j−2}),
		// c + w on its coset through β_{j−1}.
		rep := start
		if k1 == nodeFull {
			rep += h
		}
		c := e.wAt(j-1, rep)
		clear(co)
		co[0], co[h] = c, w
		for i := range h {
			ev[i], ev[h+i] = c, c^w
		}
		return nodePartial, true
	case k0 == nodeFull: // k1 partial: (w·X_h + c)·f = c·f + w·X_h·f
		c := e.wAt(j-1, start)
		gf64.ScaleVec(co[:h], co[h:], c)
		gf64.ScaleVec(co[h:], co[h:], w)
	case k1 == nodeFull: // k0 partial
		c := e.wAt(j-1, start+h)
		gf64.ScaleVec(co[h:], co[:h], w)
		gf64.ScaleVec(co[:h], co[:h], c)
	default: // both partial: multiply by evaluation over span(β_0..β_{j−1}).
		s0, s1 := scratch[:2*h], scratch[2*h:4*h]
		e.evalUp(s0, co[:h], ev[:h], ev0, j)
		e.evalUp(s1, co[h:], ev[h:], ev1, j)
		gf64.MulVec(ev, s0, s1)
		copy(co, ev)
		e.inv(co, j)
		return nodePartial, true
	}
	return nodePartial, false
}

// evalUp writes into s (2h elements) the evaluations over span(β_0..β_{j−1})
// of a partial child of level j−1 with the h novel coefficients co: the
// first half, over span(β_0..β_{j−2}), is the child's ev when hasEv, the
// second half is over that span shifted by β_{j−1}.
func (e *erasure) evalUp(s, co, ev []gf64.Element, hasEv bool, j int) {
	h := len(co)
	if hasEv {
		copy(s[:h], ev)
	} else {
		copy(s[:h], co)
		e.fwd(s[:h], j-1)
	}
	copy(s[h:], co)
	e.fwdShifted(s[h:], j-1)
}

// reconstruct writes the codeword that agrees with word at the present
// positions into dst (len 2^n each; dst may be word, otherwise they must not
// overlap). erased is the number of false entries of present, at most
// 2^n − 2^k. buf holds at least 4·2^n elements. It returns false when the
// present symbols are not on a polynomial of degree < 2^k (dst is then left
// unchanged). par allows two goroutines for the locator tree.
func (e *erasure) reconstruct(dst, word []gf64.Element, present []bool, erased int, buf []gf64.Element, par bool) bool {
	N := 1 << e.n
	pi, dpi, q := buf[:N], buf[N:2*N], buf[2*N:3*N]
	// The tree's evaluations go to dpi, its scratch is q and the fourth N.
	if e.locator(present, pi, dpi, buf[2*N:4*N], par) == nodeEmpty {
		clear(pi)
		pi[0] = gf64.One
	}
	e.nv.derivative(dpi, pi)
	e.tfwd(dpi) // Π′ over T
	e.tfwd(pi)  // Π over T
	gf64.MulVec(q, word, pi)
	for i, p := range present {
		if !p {
			q[i] = 0
		}
	}
	e.tinv(q) // c·Π in the novel basis
	for _, v := range q[(1<<e.k)+erased:] {
		if v != 0 {
			return false
		}
	}
	e.nv.derivative(pi, q)
	e.tfwd(pi) // (c·Π)′ over T
	// q is free: gather Π′ at the erased points, invert, divide.
	inv := q[:0]
	for i, p := range present {
		if !p {
			inv = append(inv, dpi[i])
		}
	}
	gf64.BatchInverse(inv, inv)
	c := 0
	for i, p := range present {
		if p {
			dst[i] = word[i]
		} else {
			dst[i] = gf64.Mul(pi[i], inv[c])
			c++
		}
	}
	return true
}

// tfwd and tinv are the novel-basis transforms over T.
func (e *erasure) tfwd(a []gf64.Element) {
	if e.n >= domainMin {
		must(e.t.NovelFFT(a))
		return
	}
	e.nv.fft(a, e.n, e.n-1, e.off)
}

func (e *erasure) tinv(a []gf64.Element) {
	if e.n >= domainMin {
		must(e.t.NovelIFFT(a))
		return
	}
	e.nv.ifft(a, e.n, e.off)
}
