package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// The four lowest network levels (3, 2, 1, 0) on groups of 16 consecutive
// elements. On amd64 with AVX-512 they run in registers (net16_amd64.s), one
// pass over the chunk instead of a transposition and three vector passes;
// net16Generic is the reference the kernel is tested against.
//
// For group j of a chunk, level r (r < 3) pairs its 8 pairs q = 8j..8j+7 in
// the pair order of smallForward, whose twiddles are base[r] ^ locExp[r][q];
// level 3 has one block, twiddle base[3] ^ loc[3][j].

// net16Levels is the number of levels the kernel runs.
const net16Levels = 4

// useNet16 reports whether forwardChunk and inverseChunk use the kernel; a
// variable so that tests can compare both ways.
var useNet16 = net16Available

// net16Bases returns the base twiddles of levels 0..3 of the chunk at off.
func (p *plan) net16Bases(off int) [4]gf64.Element {
	var b [4]gf64.Element
	for r := range b {
		b[r] = p.twiddle(r, off>>uint(r+1))
	}
	return b
}

// net16OK reports whether the kernel can run on a chunk of 2^k elements.
func (p *plan) net16OK(k int) bool {
	return useNet16 && k >= net16Levels && p.L >= net16Levels
}

// net16Forward runs levels 3..0 of the forward network on the chunk a
// (2^k ≥ 16 elements, k ≤ p.L) at off.
func (p *plan) net16Forward(a []gf64.Element, off int) {
	b := p.net16Bases(off)
	net16Fwd(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], &b)
}

// net16Inverse undoes net16Forward.
func (p *plan) net16Inverse(a []gf64.Element, off int) {
	b := p.net16Bases(off)
	net16Inv(a, p.locExp[0], p.locExp[1], p.locExp[2], p.loc[3], &b)
}

// net16Generic is the reference for net16FwdAVX512: levels 3..0 on the
// len(a)/16 groups of a.
func net16Generic(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[4]gf64.Element) {
	for j := 0; j < len(a)/16; j++ {
		g := a[16*j : 16*j+16]
		c := base[3] ^ loc3[j]
		for i := 0; i < 8; i++ {
			g[i] ^= gf64.Mul(c, g[i+8])
			g[i+8] ^= g[i]
		}
		for r, loc := range [3][]gf64.Element{loc2, loc1, loc0} {
			r = 2 - r
			h := 1 << uint(r)
			for q := 0; q < 8; q++ {
				i := (q>>uint(r))<<uint(r+1) | q&(h-1)
				c := base[r] ^ loc[8*j+q]
				g[i] ^= gf64.Mul(c, g[i+h])
				g[i+h] ^= g[i]
			}
		}
	}
}

// net16InvGeneric undoes net16Generic.
func net16InvGeneric(a, loc0, loc1, loc2, loc3 []gf64.Element, base *[4]gf64.Element) {
	for j := 0; j < len(a)/16; j++ {
		g := a[16*j : 16*j+16]
		for r, loc := range [3][]gf64.Element{loc0, loc1, loc2} {
			h := 1 << uint(r)
			for q := 0; q < 8; q++ {
				i := (q>>uint(r))<<uint(r+1) | q&(h-1)
				c := base[r] ^ loc[8*j+q]
				g[i+h] ^= g[i]
				g[i] ^= gf64.Mul(c, g[i+h])
			}
		}
		c := base[3] ^ loc3[j]
		for i := 0; i < 8; i++ {
			g[i+8] ^= g[i]
			g[i] ^= gf64.Mul(c, g[i+8])
		}
	}
}
