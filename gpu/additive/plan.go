package additive

import (
	"encoding/binary"
	"fmt"
	"github.com/gfpoly/gfpoly/gpu"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// The device transforms are sequences of steps on an array of 2^M elements
// (one column), each step touching the positions that differ in one or two
// index bits:
//
//   - fwd(r), inv(r): level r of the Lin–Chung–Han butterfly network; the pair
//     (i, i+2^r) of block b = i>>(r+1) uses the twiddle Ŵ_r(s + Σ_j bit_j(b)·v_{r+1+j});
//     forward: u ^= t·v, v ^= u; inverse: v ^= u, u ^= t·v.
//   - taylor(p), untaylor(p): one step of the Taylor expansion at x²−x on the
//     quartets (i, i+q, i+2q, i+3q), q = 2^p: x2 ^= x3, x1 ^= x2 (and back).
//   - twist(r), untwist(r): a[i] *= β_r^(i>>r) (or β_r^-(i>>r)), the Gao–Mateer
//     twist of depth r.
//
// These are exactly the operations of package domain (network.go,
// convert.go), in the same order, with the constants of domain's plan
// (Subspace.Levels, newFFTPlan), so the results are the same field
// elements. A planner groups consecutive steps into passes: a pass loads a
// tile of 2^T elements into shared memory, runs its steps there and stores
// the tile back. The tile holds the index bits [0, c) and [lo, lo+T−c); every
// step of the pass touches only those bits.

type fftOpKind uint32

const (
	kFwd fftOpKind = iota
	kInv
	kTaylor
	kUntaylor
	kTwist
	kUntwist
)

// Tile shape.
const (
	tileLog   = 11 // 2^11 elements (16 KiB) of shared memory per block
	tabLog    = 10 // twiddle and power tables: low 10 index bits / the rest
	maxPassOp = 64 // steps per pass (kernel parameter size)
	fftBlock  = 256
)

// fftOp is one step. p is the plan whose tables it uses.
type fftOp struct {
	kind fftOpKind
	bit  int
	p    *fftPlan
}

// bits returns the lowest and highest index bit the step touches, or
// (-1, -1) for a twist (element-wise).
func (o fftOp) bits() (int, int) {
	switch o.kind {
	case kFwd, kInv:
		return o.bit, o.bit
	case kTaylor, kUntaylor:
		return o.bit, o.bit + 1
	}
	return -1, -1
}

// tables returns the op's low and high tables.
func (o fftOp) tables() (lo, hi []gf64.Element) {
	switch o.kind {
	case kFwd, kInv:
		return o.p.netLo[o.bit], o.p.netHi[o.bit]
	case kTwist:
		return o.p.powLo[o.bit], o.p.powHi[o.bit]
	case kUntwist:
		return o.p.ipowLo[o.bit], o.p.ipowHi[o.bit]
	}
	return nil, nil
}

// passShape is how the planner shapes passes and their sweeps.
//
// The high passes' tiles: 2^highT elements, rows of 2^highC consecutive
// elements (2^6: 512 bytes) and a window of highT−highC index bits. Rows of
// 2^6 put every level of a window at local bit ≥ 6, so all of them multiply
// through product tables; it takes one more pass than rows of 2^4 (7-bit
// windows, whose lowest two levels multiplied with fft_mul) and is 3–10%
// faster on the H200 (BENCHMARKS.md). The Gao–Mateer conversion's passes
// (Taylor steps and twists) keep rows of 2^convC: they have no products to
// gain and one more pass lost 12% there.
//
// Product tables (cuda/fft.cu, fft_tab_mul): a butterfly level at local bit
// lb ≥ tabMin multiplies by its twiddles through tables of 2 KiB built in
// shared memory per tile, 2^(T−1−lb) of them, each serving 2^lb
// butterflies; a sweep uses at most maxTabs tables (the levels that do not
// fit multiply with fft_mul). Adjacent butterfly levels run as one radix-4
// sweep unless noRadix4.
//
// The library plans with defaultShape, the shape measured fastest
// (BENCHMARKS.md); the tests check the planner and the kernel's reference
// model under other shapes too.
type passShape struct {
	highT, highC, convC int
	tabMin, maxTabs     int
	noRadix4            bool
}

var defaultShape = passShape{highT: tileLog, highC: 6, convC: 4, tabMin: 6, maxTabs: 48}

// tile is the shape of a pass: local bits [0, c) are index bits [0, c),
// local bits [c, T) are index bits [lo, lo+T−c).
type tile struct{ T, c, lo int }

func (t tile) h() int { return t.T - t.c }

// local returns the local bit of index bit p, or -1.
func (t tile) local(p int) int {
	switch {
	case p < t.c:
		return p
	case p >= t.lo && p < t.lo+t.h():
		return t.c + p - t.lo
	}
	return -1
}

// fits reports whether op runs inside tile t.
func (t tile) fits(o fftOp) bool {
	lo, hi := o.bits()
	if lo < 0 {
		return true
	}
	a, b := t.local(lo), t.local(hi)
	return a >= 0 && b >= 0 && b == a+hi-lo
}

type fftPass struct {
	t   tile
	ops []fftOp
	sh  passShape
}

// lowTile is the tile of contiguous 2^min(M, tileLog) elements.
func lowTile(M int) tile {
	T := min(M, tileLog)
	return tile{T: T, c: T, lo: T}
}

// planFFT groups ops, on columns of 2^M elements, into passes of shape sh:
// each pass takes the tile that runs the most of the following steps.
func planFFT(ops []fftOp, M int, sh passShape) []fftPass {
	var passes []fftPass
	for i := 0; i < len(ops); {
		cands := []tile{lowTile(M)}
		if M > tileLog {
			// Place a window at the first step that touches bits.
			for _, o := range ops[i:] {
				lo, hi := o.bits()
				if lo < 0 {
					continue
				}
				c := sh.highC
				if o.kind != kFwd && o.kind != kInv {
					c = sh.convC
				}
				h := sh.highT - c
				for _, w := range []int{hi - h + 1, lo} {
					w = min(max(w, c), M-h)
					cands = append(cands, tile{T: sh.highT, c: c, lo: w})
				}
				break
			}
		}
		best, bestN := cands[0], -1
		for _, t := range cands {
			n := 0
			for n < maxPassOp && i+n < len(ops) && t.fits(ops[i+n]) {
				n++
			}
			if n > bestN {
				best, bestN = t, n
			}
		}
		if bestN <= 0 {
			panic(fmt.Sprintf("additive: no tile fits step %+v of a 2^%d transform", ops[i], M))
		}
		passes = append(passes, fftPass{t: best, ops: ops[i : i+bestN], sh: sh})
		i += bestN
	}
	return passes
}

// Step lists of the transforms on columns of 2^M elements (M ≤ p.m).

func fwdOps(p *fftPlan, M int) []fftOp {
	ops := make([]fftOp, 0, M)
	for r := M - 1; r >= 0; r-- {
		ops = append(ops, fftOp{kFwd, r, p})
	}
	return ops
}

func invOps(p *fftPlan, M int) []fftOp {
	ops := make([]fftOp, 0, M)
	for r := 0; r < M; r++ {
		ops = append(ops, fftOp{kInv, r, p})
	}
	return ops
}

// toNovelOps: for each depth r, twist then the Taylor steps from the
// largest blocks down (domain's conversion, depth by depth).
func toNovelOps(p *fftPlan, M int) []fftOp {
	var ops []fftOp
	for r := 0; r < M; r++ {
		ops = append(ops, fftOp{kTwist, r, p})
		for q := M - 2; q >= r; q-- {
			ops = append(ops, fftOp{kTaylor, q, p})
		}
	}
	return ops
}

// fromNovelOps undoes toNovelOps (domain's fromNovel).
func fromNovelOps(p *fftPlan, M int) []fftOp {
	var ops []fftOp
	for r := M - 1; r >= 0; r-- {
		for q := r; q <= M-2; q++ {
			ops = append(ops, fftOp{kUntaylor, q, p})
		}
		ops = append(ops, fftOp{kUntwist, r, p})
	}
	return ops
}

// fftPlan holds the tables of one subspace: host copies (for the planner's
// reference executor in the tests) and one device buffer with all of them.
type fftPlan struct {
	m int
	// Network level r, block b < 2^(m−1−r): twiddle = netLo[r][b & 1023] ^
	// netHi[r][b >> 10].
	netLo, netHi [][]gf64.Element
	// Twist depth r, exponent e < 2^(m−r), β_r = Levels()[r].Twist:
	// β_r^e = powLo[r][e & 1023] · powHi[r][e >> 10]; ipow for β_r^-1.
	powLo, powHi, ipowLo, ipowHi [][]gf64.Element

	buf  *gpu.Buffer[gf64.Element]
	addr map[*gf64.Element]uint64 // first element of a host table -> device address
}

// newFFTPlan builds the device tables of s from domain's constants
// (Subspace.Levels: Base = Ŵ_r(s), Span[j] = Ŵ_r(v_{r+1+j}), the twist
// factor of depth r), so that the device and the CPU transforms use the
// same field elements from one source. s must have at most
// domain.MaxTransformDim dimensions (Transforms.plan checks).
func newFFTPlan(s *domain.Subspace) *fftPlan {
	lv, err := s.Levels()
	if err != nil {
		panic(fmt.Sprintf("additive: tables of a subspace the caller did not check: %v", err))
	}
	m := len(lv)
	p := &fftPlan{m: m}
	p.netLo, p.netHi = make([][]gf64.Element, m), make([][]gf64.Element, m)
	p.powLo, p.powHi = make([][]gf64.Element, m), make([][]gf64.Element, m)
	p.ipowLo, p.ipowHi = make([][]gf64.Element, m), make([][]gf64.Element, m)
	for r, l := range lv {
		nlo := min(len(l.Span), tabLog)
		p.netLo[r] = xorSpan(0, l.Span[:nlo])
		p.netHi[r] = xorSpan(l.Base, l.Span[nlo:])
		ne := m - r // exponents < 2^(m-r)
		p.powLo[r], p.powHi[r] = powTables(l.Twist, ne)
		p.ipowLo[r], p.ipowHi[r] = powTables(gf64.Inverse(l.Twist), ne)
	}
	return p
}

// xorSpan returns t[i] = base ^ Σ_j bit_j(i)·v[j] for i < 2^len(v).
func xorSpan(base gf64.Element, v []gf64.Element) []gf64.Element {
	t := make([]gf64.Element, 1<<uint(len(v)))
	t[0] = base
	for j, x := range v {
		h := 1 << uint(j)
		for i := 0; i < h; i++ {
			t[h+i] = t[i] ^ x
		}
	}
	return t
}

// powTables returns lo[e] = b^e for e < 2^min(ne, 10) and hi[e] = b^(1024·e)
// for e < 2^max(ne−10, 0).
func powTables(b gf64.Element, ne int) (lo, hi []gf64.Element) {
	nlo := min(ne, tabLog)
	lo = powSpan(b, nlo)
	step := gf64.SquareN(b, tabLog) // b^1024
	hi = powSpan(step, max(ne-tabLog, 0))
	return lo, hi
}

// powSpan returns t[e] = b^e for e < 2^n, by doubling.
func powSpan(b gf64.Element, n int) []gf64.Element {
	t := make([]gf64.Element, 1<<uint(n))
	t[0] = gf64.One
	f := b // b^(2^j)
	for j := 0; j < n; j++ {
		h := 1 << uint(j)
		gf64.ScaleVec(t[h:2*h], t[:h], f)
		f = gf64.Square(f)
	}
	return t
}

// tables lists every host table of the plan, in device-buffer order.
func (p *fftPlan) tables() [][]gf64.Element {
	var ts [][]gf64.Element
	for r := 0; r < p.m; r++ {
		ts = append(ts, p.netLo[r], p.netHi[r], p.powLo[r], p.powHi[r], p.ipowLo[r], p.ipowHi[r])
	}
	return ts
}

// upload copies all tables to one device buffer.
func (p *fftPlan) upload(d *gpu.Device) error {
	ts := p.tables()
	n := 0
	for _, t := range ts {
		n += len(t)
	}
	all := make([]gf64.Element, 0, n)
	offs := make([]int, len(ts))
	for i, t := range ts {
		offs[i] = len(all)
		all = append(all, t...)
	}
	buf, err := gpu.Alloc[gf64.Element](d, max(n, 1))
	if err != nil {
		return fmt.Errorf("additive: FFT tables of a %d-dimensional subspace (%d bytes): %w", p.m, 8*n, err)
	}
	if n > 0 {
		if err := buf.Upload(all); err != nil {
			buf.Free()
			return err
		}
	}
	p.buf = buf
	p.addr = make(map[*gf64.Element]uint64, len(ts))
	for i, t := range ts {
		p.addr[&t[0]] = uint64(buf.Ptr()) + 8*uint64(offs[i])
	}
	return nil
}

// bytes returns the plan's device memory.
func (p *fftPlan) bytes() int {
	if p.buf == nil {
		return 0
	}
	return p.buf.Bytes()
}

// Kernel parameter block of fft_pass (cuda/fft.cu, struct Pass), built field
// by field.
const (
	passHeader = 64
	opBytes    = 32
)

const (
	tabBytes     = 2048
	maxTabsLimit = 64 // the kernel's dynamic shared memory is sized for this many
)

// Op flags of the kernel (FftOp.flags).
const (
	opPair = 1 // this butterfly level and the next run in one sweep (radix 4)
	opTab  = 2 // this butterfly level multiplies through product tables
)

// sweeps returns the kernel flags of the pass's ops and the most product
// tables one sweep holds, at most min(sh.maxTabs, limit). Adjacent butterfly
// levels of one direction pair up (forward r then r−1, inverse r then r+1);
// within a sweep the first level's tables come first.
func (p *fftPass) sweeps(limit int) (flags []uint32, tabs int) {
	flags = make([]uint32, len(p.ops))
	for i := 0; i < len(p.ops); i++ {
		o := p.ops[i]
		if o.kind != kFwd && o.kind != kInv {
			continue
		}
		n := 1
		if !p.sh.noRadix4 && i+1 < len(p.ops) && p.ops[i+1].kind == o.kind {
			b2 := p.ops[i+1].bit
			lb, lb2 := p.t.local(o.bit), p.t.local(b2)
			if (o.kind == kFwd && b2+1 == o.bit && lb2+1 == lb) || (o.kind == kInv && b2 == o.bit+1 && lb2 == lb+1) {
				flags[i] |= opPair
				n = 2
			}
		}
		used := 0
		for j := i; j < i+n; j++ {
			lb := p.t.local(p.ops[j].bit)
			if d := 1 << uint(p.t.T-1-lb); lb >= p.sh.tabMin && used+d <= min(p.sh.maxTabs, limit) {
				flags[j] |= opTab
				used += d
			}
		}
		tabs = max(tabs, used)
		i += n - 1
	}
	return flags, tabs
}

// tabOffset is the byte offset of the product tables in the kernel's shared
// memory: after the tile, 256-byte aligned.
func tabOffset(T int) int { return (8<<uint(T) + 255) &^ 255 }

// sharedBytes returns the dynamic shared memory of a pass.
func (p *fftPass) sharedBytes(limit int) int {
	_, tabs := p.sweeps(limit)
	if tabs == 0 {
		return 8 << uint(p.t.T)
	}
	return tabOffset(p.t.T) + tabs*tabBytes
}

// passArgs describes where a pass reads and writes.
type passArgs struct {
	in, out             uint64 // device addresses of column 0
	inStride, outStride uint64 // elements between columns
	inMask              uint64 // input index = output index & inMask
}

func (p *fftPass) encode(a passArgs, limit int) []byte {
	b := make([]byte, passHeader+opBytes*maxPassOp)
	le := binary.LittleEndian
	le.PutUint64(b[0:], a.in)
	le.PutUint64(b[8:], a.out)
	le.PutUint64(b[16:], a.inStride)
	le.PutUint64(b[24:], a.outStride)
	le.PutUint64(b[32:], a.inMask)
	le.PutUint32(b[40:], uint32(p.t.T))
	le.PutUint32(b[44:], uint32(p.t.c))
	le.PutUint32(b[48:], uint32(p.t.lo))
	le.PutUint32(b[52:], uint32(p.t.h()))
	le.PutUint32(b[56:], uint32(len(p.ops)))
	le.PutUint32(b[60:], 0) // flags: none
	opFlags, _ := p.sweeps(limit)
	for i, o := range p.ops {
		e := b[passHeader+opBytes*i:]
		lo, _ := o.bits()
		lb := 0
		if lo >= 0 {
			lb = p.t.local(lo)
		}
		le.PutUint32(e[0:], uint32(o.kind))
		le.PutUint32(e[4:], uint32(o.bit))
		le.PutUint32(e[8:], uint32(lb))
		le.PutUint32(e[12:], opFlags[i])
		if tl, th := o.tables(); tl != nil {
			le.PutUint64(e[16:], o.p.addr[&tl[0]])
			le.PutUint64(e[24:], o.p.addr[&th[0]])
		}
	}
	return b
}

// runPassesRef runs passes on the host exactly as the kernel does (same tile
// index mapping and step order): the reference the tests check the planner
// with, and the model of cuda/fft.cu. in and out hold cols columns.
func runPassesRef(passes []fftPass, M int, out, in []gf64.Element, inLen, cols int, inMask uint64) {
	outLen := 1 << uint(M)
	for pi, ps := range passes {
		src, srcLen, mask := out, outLen, ^uint64(0)
		if pi == 0 {
			src, srcLen, mask = in, inLen, inMask
		}
		t := ps.t
		N := 1 << uint(t.T)
		flags, _ := ps.sweeps(maxTabsLimit)
		gap := t.lo - t.c
		sh := make([]gf64.Element, N)
		for col := 0; col < cols; col++ {
			for tl := 0; tl < outLen/N; tl++ {
				tb := (uint64(tl)&(1<<uint(gap)-1))<<uint(t.c) | (uint64(tl)>>uint(gap))<<uint(t.lo+t.h())
				g := func(l int) uint64 {
					return uint64(l)&(1<<uint(t.c)-1) | uint64(l>>uint(t.c))<<uint(t.lo) | tb
				}
				for l := range sh {
					sh[l] = src[col*srcLen+int(g(l)&mask)]
				}
				for i, o := range ps.ops {
					runOpRef(sh, o, t, g, flags[i]&opTab != 0)
				}
				for l := range sh {
					out[col*outLen+int(g(l))] = sh[l]
				}
			}
		}
	}
}

// runOpRef runs one step on a tile; with tab, a butterfly level multiplies
// through product tables as the kernel does.
func runOpRef(sh []gf64.Element, o fftOp, t tile, g func(int) uint64, tab bool) {
	N := len(sh)
	lo, _ := o.bits()
	lb := 0
	if lo >= 0 {
		lb = t.local(lo)
	}
	tl, th := o.tables()
	look := func(x uint64) gf64.Element {
		return tl[x&(1<<tabLog-1)] ^ th[x>>tabLog]
	}
	h := 1 << uint(lb)
	switch o.kind {
	case kFwd, kInv:
		var tabs [][]uint64 // table of the twiddle of butterflies i0 with i0>>(lb+1) = d
		if tab {
			tabs = make([][]uint64, 1<<uint(t.T-1-lb))
			for d := range tabs {
				tabs[d] = tabBuildRef(look(g(d<<uint(lb+1)) >> uint(o.bit+1)))
			}
		}
		for q := 0; q < N/2; q++ {
			i0 := (q>>uint(lb))<<uint(lb+1) | q&(h-1)
			mul := func(x gf64.Element) gf64.Element {
				if tab {
					return tabMulRef(tabs[i0>>uint(lb+1)], x)
				}
				return gf64.Mul(look(g(i0)>>uint(o.bit+1)), x)
			}
			u, v := sh[i0], sh[i0+h]
			if o.kind == kFwd {
				u ^= mul(v)
				v ^= u
			} else {
				v ^= u
				u ^= mul(v)
			}
			sh[i0], sh[i0+h] = u, v
		}
	case kTaylor, kUntaylor:
		for q := 0; q < N/4; q++ {
			i0 := (q>>uint(lb))<<uint(lb+2) | q&(h-1)
			x1, x2, x3 := sh[i0+h], sh[i0+2*h], sh[i0+3*h]
			if o.kind == kTaylor {
				x2 ^= x3
				x1 ^= x2
			} else {
				x1 ^= x2
				x2 ^= x3
			}
			sh[i0+h], sh[i0+2*h] = x1, x2
		}
	case kTwist, kUntwist:
		for l := range sh {
			e := g(l) >> uint(o.bit)
			f := tl[e&(1<<tabLog-1)]
			if e>>tabLog != 0 {
				f = gf64.Mul(f, th[e>>tabLog])
			}
			sh[l] = gf64.Mul(sh[l], f)
		}
	}
}

// tabBuildRef returns the product table of w as fft_tab_build lays it out
// (256 words: row k, slot v^k holds w·(v·x^(4k))), built the same way.
func tabBuildRef(w gf64.Element) []uint64 {
	xtime := func(a uint64) uint64 { return a<<1 ^ uint64(int64(a)>>63)&0x1b }
	tab := make([]uint64, tabBytes/8)
	for k := 0; k < 16; k++ {
		p0 := uint64(w)
		if n := uint(4 * k); n > 0 {
			hi := p0 >> (64 - n)
			p0 = p0<<n ^ hi ^ hi<<1 ^ hi<<3 ^ hi<<4
		}
		p := [4]uint64{p0, xtime(p0), 0, 0}
		p[2] = xtime(p[1])
		p[3] = xtime(p[2])
		for v := 0; v < 16; v++ {
			var e uint64
			for j := 0; j < 4; j++ {
				if v>>uint(j)&1 != 0 {
					e ^= p[j]
				}
			}
			tab[16*k+(v^k)] = e
		}
	}
	return tab
}

// tabMulRef returns w·x from the table of w as fft_tab_mul does: byte
// offsets of the nibbles' slots from shifts and masks, 16 loads.
func tabMulRef(tab []uint64, x gf64.Element) gf64.Element {
	xl, xh := uint32(x), uint32(x>>32)
	src := [4]uint32{
		xl<<3&0x78787878 ^ 0x30201000, // nibbles 0, 2, 4, 6
		xl>>1&0x78787878 ^ 0x38281808, // 1, 3, 5, 7
		xh<<3&0x78787878 ^ 0x70605040, // 8, 10, 12, 14
		xh>>1&0x78787878 ^ 0x78685848, // 9, 11, 13, 15
	}
	var r uint64
	for k := 0; k < 16; k++ {
		s := src[k>>3*2+k&1] // k even: e, odd: o; k ≥ 8: the high word
		off := 128*k + int(s>>uint(8*(k&7>>1))&0xff)
		r ^= tab[off/8]
	}
	return gf64.Element(r)
}
