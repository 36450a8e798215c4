package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// The lowest network levels on groups of consecutive elements: levels 3..0
// on 16-element groups (net16) and levels 5..0 on 64-element groups
// (net64). On amd64 with AVX-512 a group stays in registers
// (kernels_network_amd64.s): one pass over the chunk instead of a transposition and a
// vector pass or a call per block for each level; net16Generic and
// net64Generic are the references the kernels are tested against.
//
// Twiddles, for a chunk whose level-r base twiddle is base[r]: a level
// r ≥ 3 block b (chunk-local) has base[r] ^ loc[r][b]; for r < 3, pair q in
// the pair order of smallForward has base[r] ^ locExp[r][q].

// netBases returns the base twiddles of levels 0..5 (those below k) of the
// chunk at off.
func (p *plan) netBases(off, k int) [6]gf64.Element {
	var b [6]gf64.Element
	for r := 0; r < min(k, 6); r++ {
		b[r] = p.twiddle(r, off>>uint(r+1))
	}
	return b
}

// netLevels returns how many of the lowest levels of a chunk of 2^k
// elements the kernels run: 6, 4 or 0.
func (p *plan) netLevels(k int) int {
	switch {
	case !p.tun.net:
		return 0
	case k >= 6 && p.L >= 6:
		return 6
	case k >= 4 && p.L >= 4:
		return 4
	}
	return 0
}

// netForward runs levels lv-1..0 (lv = netLevels(k)) of the forward network
// on the chunk a (2^k elements, k ≤ p.L) at off.
func (p *plan) netForward(a []gf64.Element, off, lv int) {
	b := p.netBases(off, lv)
	if lv == 6 {
		net64Fwd(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], p.loc[4], p.loc[5], &b)
		return
	}
	net16Fwd(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], &b)
}

// netInverse undoes netForward.
func (p *plan) netInverse(a []gf64.Element, off, lv int) {
	b := p.netBases(off, lv)
	if lv == 6 {
		net64Inv(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], p.loc[4], p.loc[5], &b)
		return
	}
	net16Inv(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], &b)
}

// blockLevel runs level r ≥ 3 (forward or inverse) on a, with twiddle
// base ^ loc[b] for block b.
func blockLevel(a, loc []gf64.Element, base gf64.Element, r int, inv bool) {
	h := 1 << uint(r)
	for b := 0; b < len(a)>>uint(r+1); b++ {
		c := base ^ loc[b]
		for i := b << uint(r+1); i < b<<uint(r+1)+h; i++ {
			if inv {
				a[i+h] ^= a[i]
				a[i] ^= gf64.Mul(c, a[i+h])
			} else {
				a[i] ^= gf64.Mul(c, a[i+h])
				a[i+h] ^= a[i]
			}
		}
	}
}

// pairLevel runs level r < 3 (forward or inverse) on a, with twiddle
// base ^ locExp[q] for pair q.
func pairLevel(a, locExp []gf64.Element, base gf64.Element, r int, inv bool) {
	h := 1 << uint(r)
	for q := 0; q < len(a)/2; q++ {
		i := (q>>uint(r))<<uint(r+1) | q&(h-1)
		c := base ^ locExp[q]
		if inv {
			a[i+h] ^= a[i]
			a[i] ^= gf64.Mul(c, a[i+h])
		} else {
			a[i] ^= gf64.Mul(c, a[i+h])
			a[i+h] ^= a[i]
		}
	}
}

// net16Generic is the reference for net16FwdAVX512: levels 3..0 of a
// (len(a) a multiple of 16), level by level.
func net16Generic(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	blockLevel(a, loc3, base[3], 3, false)
	for r, loc := range [3][]gf64.Element{loc2, loc1, loc0} {
		pairLevel(a, loc, base[2-r], 2-r, false)
	}
}

// net16InvGeneric undoes net16Generic.
func net16InvGeneric(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[6]gf64.Element) {
	for r, loc := range [3][]gf64.Element{loc0, loc1, loc2} {
		pairLevel(a, loc, base[r], r, true)
	}
	blockLevel(a, loc3, base[3], 3, true)
}

// net64Generic is the reference for net64FwdAVX512: levels 5..0 of a
// (len(a) a multiple of 64).
func net64Generic(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	blockLevel(a, loc5, base[5], 5, false)
	blockLevel(a, loc4, base[4], 4, false)
	net16Generic(a, loc0, loc1, loc2, loc3, base)
}

// net64InvGeneric undoes net64Generic.
func net64InvGeneric(a, loc0, loc1, loc2, loc3, loc4, loc5 []gf64.Element, base *[6]gf64.Element) {
	net16InvGeneric(a, loc0, loc1, loc2, loc3, base)
	blockLevel(a, loc4, base[4], 4, true)
	blockLevel(a, loc5, base[5], 5, true)
}

// Three levels r, r-1, r-2 of a block of 8·st elements at once (radix8Fwd,
// radix8Inv): a column of the eight slices a[k·st:(k+1)·st] stays in
// registers for the three levels, so a pass over the block does three
// levels instead of one. tw holds the block's twiddles: level r, then the
// two of level r-1, then the four of level r-2.

// radix8Tw returns the twiddles of the block of level r at off.
func (p *plan) radix8Tw(off, r int) [7]gf64.Element {
	b := off >> uint(r+1)
	return [7]gf64.Element{
		p.twiddle(r, b),
		p.twiddle(r-1, 2*b), p.twiddle(r-1, 2*b+1),
		p.twiddle(r-2, 4*b), p.twiddle(r-2, 4*b+1), p.twiddle(r-2, 4*b+2), p.twiddle(r-2, 4*b+3),
	}
}

// radix8TwLoc returns the twiddles of chunk-local block b of level r from
// the chunk's base twiddles bases(r) and the loc tables.
func (p *plan) radix8TwLoc(b, r int, base func(int) gf64.Element) [7]gf64.Element {
	l0, l1, l2 := p.loc[r], p.loc[r-1], p.loc[r-2]
	b0, b1, b2 := base(r), base(r-1), base(r-2)
	return [7]gf64.Element{
		b0 ^ l0[b],
		b1 ^ l1[2*b], b1 ^ l1[2*b+1],
		b2 ^ l2[4*b], b2 ^ l2[4*b+1], b2 ^ l2[4*b+2], b2 ^ l2[4*b+3],
	}
}

// radix8Generic is the reference for radix8FwdAVX512.
func radix8Generic(a []gf64.Element, tw *[7]gf64.Element) {
	st := len(a) / 8
	s := func(k int) []gf64.Element { return a[k*st : (k+1)*st] }
	bf := func(u, v []gf64.Element, c gf64.Element) {
		for i := range u {
			u[i] ^= gf64.Mul(c, v[i])
			v[i] ^= u[i]
		}
	}
	for k := 0; k < 4; k++ {
		bf(s(k), s(k+4), tw[0])
	}
	for k := 0; k < 8; k += 4 {
		bf(s(k), s(k+2), tw[1+k/4])
		bf(s(k+1), s(k+3), tw[1+k/4])
	}
	for k := 0; k < 8; k += 2 {
		bf(s(k), s(k+1), tw[3+k/2])
	}
}

// radix8InvGeneric undoes radix8Generic.
func radix8InvGeneric(a []gf64.Element, tw *[7]gf64.Element) {
	st := len(a) / 8
	s := func(k int) []gf64.Element { return a[k*st : (k+1)*st] }
	ibf := func(u, v []gf64.Element, c gf64.Element) {
		for i := range u {
			v[i] ^= u[i]
			u[i] ^= gf64.Mul(c, v[i])
		}
	}
	for k := 0; k < 8; k += 2 {
		ibf(s(k), s(k+1), tw[3+k/2])
	}
	for k := 0; k < 8; k += 4 {
		ibf(s(k), s(k+2), tw[1+k/4])
		ibf(s(k+1), s(k+3), tw[1+k/4])
	}
	for k := 0; k < 4; k++ {
		ibf(s(k), s(k+4), tw[0])
	}
}

// radix8ColsGeneric is radix8Cols on the generic code: the three levels on
// a copy of columns [lo, hi) of the eight slices of src, copied to dst.
func radix8ColsGeneric(dst, src []gf64.Element, lo, hi int, tw *[7]gf64.Element, inv bool) {
	st, w := len(dst)/8, hi-lo
	t := make([]gf64.Element, 8*w)
	for k := 0; k < 8; k++ {
		copy(t[k*w:(k+1)*w], src[k*st+lo:k*st+hi])
	}
	if inv {
		radix8InvGeneric(t, tw)
	} else {
		radix8Generic(t, tw)
	}
	for k := 0; k < 8; k++ {
		copy(dst[k*st+lo:k*st+hi], t[k*w:(k+1)*w])
	}
}
