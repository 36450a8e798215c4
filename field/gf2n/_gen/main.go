// Command _gen writes ../gf2n_amd64.s: the PCLMULQDQ and AVX-512 VPCLMULQDQ
// kernels of package gf2n, straight-line code for each field size. It is its
// own module; from field/gf2n/:
//
//	(cd _gen && go run . > ../gf2n_amd64.s)
//
// Each kernel is first written as a program on "chunks": 128-bit pieces of
// an element (PCLMULQDQ: one xmm register holds one chunk of one element)
// or the same chunk of four elements (AVX-512: one zmm register, one element
// per 128-bit lane, so that VPCLMULQDQ does the work of four PCLMULQDQ and
// Karatsuba's additions are plain XORs between registers). The program is
// the carry-less Karatsuba product of the two operands' chunks followed by
// the reduction modulo x^n + r. A small register allocator then maps its
// values onto the 15 (xmm) or 31 (zmm) registers not holding r, spilling to
// an aligned stack area with Belady's rule (evict the value used furthest
// ahead) and reloading the inputs from where they came from.
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// ---------------------------------------------------------------------------
// The chunk program.

type kind int

const (
	kLoad  kind = iota // dst = 16 or 64 bytes at mem
	kClmul             // dst = clmul(a, b) with imm selecting the 64-bit halves
	kXor               // dst = a ^ b
	kShl               // dst = a << 64 within each 128-bit lane
	kShr               // dst = a >> 64 within each 128-bit lane
	kShuf              // dst = VSHUFI64X2 imm of a, b (AVX-512 only)
	kStore             // mem = a
)

// rVal stands for the register that holds r, the low part of the reduction
// polynomial, for the whole kernel.
const rVal = -2

type ins struct {
	k    kind
	dst  int // value defined, or -1
	a, b int // values used, or -1
	imm  int
	mem  string
}

type prog struct {
	ins   []ins
	nvals int
}

func (p *prog) add(k kind, a, b, imm int, mem string) int {
	dst := -1
	if k != kStore {
		dst = p.nvals
		p.nvals++
	}
	p.ins = append(p.ins, ins{k, dst, a, b, imm, mem})
	return dst
}

func (p *prog) load(mem string) int             { return p.add(kLoad, -1, -1, 0, mem) }
func (p *prog) clmul(a, b, imm int) int         { return p.add(kClmul, a, b, imm, "") }
func (p *prog) xor(a, b int) int                { return p.add(kXor, a, b, 0, "") }
func (p *prog) shl(a int) int                   { return p.add(kShl, a, -1, 0, "") }
func (p *prog) shr(a int) int                   { return p.add(kShr, a, -1, 0, "") }
func (p *prog) shuf(a, b, imm int) int          { return p.add(kShuf, a, b, imm, "") }
func (p *prog) store(mem string, a int)         { p.add(kStore, a, -1, 0, mem) }
func (p *prog) xor3(a, b, c int) int            { return p.xor(p.xor(a, b), c) }
func mem(off int, base string) string           { return fmt.Sprintf("%d(%s)", off, base) }
func (p *prog) loadAt(off int, base string) int { return p.load(mem(off, base)) }

// mulChunk returns the 256-bit carry-less product of two chunks as two
// chunks: LL + (LH + HL)·x^64 + HH·x^128.
func (p *prog) mulChunk(a, b int) [2]int {
	ll := p.clmul(a, b, 0x00)
	hh := p.clmul(a, b, 0x11)
	mid := p.xor(p.clmul(a, b, 0x01), p.clmul(a, b, 0x10))
	return [2]int{p.xor(ll, p.shl(mid)), p.xor(hh, p.shr(mid))}
}

// karatsuba returns the 2m chunks of the carry-less product of the m chunks
// a and b (m a power of two): a·b = P0 + (P1 + P0 + P2)·X + P2·X², with X
// the weight of chunk m/2, P0 = a0·b0, P2 = a1·b1, P1 = (a0+a1)·(b0+b1).
func (p *prog) karatsuba(a, b []int) []int {
	m := len(a)
	if m == 1 {
		c := p.mulChunk(a[0], b[0])
		return c[:]
	}
	h := m / 2
	p0 := p.karatsuba(a[:h], b[:h])
	p2 := p.karatsuba(a[h:], b[h:])
	sa, sb := make([]int, h), make([]int, h)
	for i := range h {
		sa[i] = p.xor(a[i], a[h+i])
		sb[i] = p.xor(b[i], b[h+i])
	}
	p1 := p.karatsuba(sa, sb)
	r := make([]int, 2*m)
	copy(r[:h], p0[:h])
	copy(r[3*h:], p2[h:])
	// With s = P0[h+i] + P2[i], shared by the two chunks that overlap:
	// r[h+i] = P0[h+i] + P1[i] + P0[i] + P2[i] = P1[i] + P0[i] + s and
	// r[m+i] = P2[i] + P1[h+i] + P0[h+i] + P2[h+i] = P1[h+i] + P2[h+i] + s.
	for i := range h {
		s := p.xor(p0[h+i], p2[i])
		r[h+i] = p.xor3(p1[i], p0[i], s)
		r[m+i] = p.xor3(p1[h+i], p2[h+i], s)
	}
	return r
}

// reduce returns the m chunks of the 2m-chunk product prod modulo x^n + r,
// n = 128m. With H the high half, x^n ≡ r, so H is replaced by H·r: the low
// 64-bit half of each chunk times r lands on that chunk, the high half one
// word further up. H·r passes x^n by at most 63 bits, in the high word of
// the last such product; those bits fold down once more.
func (p *prog) reduce(prod []int) []int {
	m := len(prod) / 2
	out := make([]int, m)
	var carry int // the previous chunk's high product, shifted down
	for c := range m {
		h := prod[m+c]
		lo := p.clmul(h, rVal, 0x00)
		hi := p.clmul(h, rVal, 0x01)
		v := p.xor3(prod[c], lo, p.shl(hi))
		if c > 0 {
			v = p.xor(v, carry)
		}
		out[c] = v
		carry = p.shr(hi)
	}
	out[0] = p.xor(out[0], p.clmul(carry, rVal, 0x00))
	return out
}

// ---------------------------------------------------------------------------
// Machines and the register allocator.

type machine struct {
	name  string
	avx   bool
	nregs int // allocatable registers, 0 … nregs−1
	width int // bytes per chunk value
}

var (
	sse = machine{name: "PCLMUL", nregs: 15, width: 16}
	avx = machine{name: "AVX512", avx: true, nregs: 31, width: 64}
)

func (m machine) reg(i int) string {
	if i == rVal {
		if m.avx {
			return "Z31"
		}
		return "X15"
	}
	if m.avx {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("X%d", i)
}

func (m machine) movOp() string {
	if m.avx {
		return "VMOVDQU64"
	}
	return "MOVOU"
}

type alloc struct {
	m      machine
	p      *prog
	out    *strings.Builder
	uses   [][]int // instruction indices using each value, ascending
	cursor []int   // uses[v][cursor[v]:] are the uses not yet passed
	regOf  []int   // register holding each value, or −1
	slotOf []int   // spill slot offset, or −1
	remat  []string
	regVal []int // value in each register, or −1
	slots  []int // free slot offsets
	nslots int
	pinned map[int]bool
}

func (a *alloc) emit(format string, args ...any) {
	fmt.Fprintf(a.out, "\t"+format+"\n", args...)
}

// nextUse returns the index of the first use of v after instruction i, or
// a large number when there is none.
func (a *alloc) nextUse(v, i int) int {
	u := a.uses[v]
	for k := a.cursor[v]; k < len(u); k++ {
		if u[k] > i {
			return u[k]
		}
	}
	return 1 << 30
}

func (a *alloc) diesAt(v, i int) bool { return a.nextUse(v, i) == 1<<30 }

func (a *alloc) slotMem(off int) string { return mem(off, "R10") }

// getReg returns a free register, evicting the value whose next use is the
// furthest away (spilling it unless it can be reloaded from its source).
func (a *alloc) getReg(i int) int {
	for r, v := range a.regVal {
		if v < 0 {
			return r
		}
	}
	best, bestUse := -1, -1
	for r, v := range a.regVal {
		if a.pinned[r] {
			continue
		}
		if u := a.nextUse(v, i-1); u > bestUse {
			best, bestUse = r, u
		}
	}
	v := a.regVal[best]
	if a.remat[v] == "" && a.slotOf[v] < 0 {
		if len(a.slots) > 0 {
			a.slotOf[v] = a.slots[len(a.slots)-1]
			a.slots = a.slots[:len(a.slots)-1]
		} else {
			a.slotOf[v] = a.nslots * a.m.width
			a.nslots++
		}
		a.emit("%s %s, %s", a.m.movOp(), a.m.reg(best), a.slotMem(a.slotOf[v]))
	}
	a.regOf[v] = -1
	a.regVal[best] = -1
	return best
}

// where returns where v can be read from without a register: its source or
// its spill slot.
func (a *alloc) where(v int) string {
	if a.remat[v] != "" {
		return a.remat[v]
	}
	return a.slotMem(a.slotOf[v])
}

// fetch makes sure v is in a register and pins it for instruction i.
func (a *alloc) fetch(v, i int) int {
	if v == rVal {
		return rVal
	}
	if r := a.regOf[v]; r >= 0 {
		a.pinned[r] = true
		return r
	}
	r := a.getReg(i)
	a.emit("%s %s, %s", a.m.movOp(), a.where(v), a.m.reg(r))
	a.regOf[v], a.regVal[r] = r, v
	a.pinned[r] = true
	return r
}

// operand returns the assembly operand for source v of an AVX-512
// instruction: a register, or the memory v lives in when v is not in a
// register and is not used again soon (so loading it would only take a
// register away).
func (a *alloc) operand(v, i int) string {
	if v == rVal || a.regOf[v] >= 0 || a.nextUse(v, i) < i+8 {
		return a.m.reg(a.fetch(v, i))
	}
	return a.where(v)
}

func (a *alloc) release(v int) {
	if r := a.regOf[v]; r >= 0 {
		a.regVal[r] = -1
		a.regOf[v] = -1
	}
	if s := a.slotOf[v]; s >= 0 {
		a.slots = append(a.slots, s)
		a.slotOf[v] = -1
	}
}

func (a *alloc) define(v, r int) {
	a.regOf[v], a.regVal[r] = r, v
}

// run emits the program's instructions and returns the spill area's size.
func (a *alloc) run() int {
	p := a.p
	a.uses = make([][]int, p.nvals)
	isLoad := make([]bool, p.nvals)
	lastLoadUse, firstStore := -1, len(p.ins)
	for i, in := range p.ins {
		if in.k == kLoad {
			isLoad[in.dst] = true
		}
		for _, v := range []int{in.a, in.b} {
			if v >= 0 {
				a.uses[v] = append(a.uses[v], i)
				if isLoad[v] {
					lastLoadUse = max(lastLoadUse, i)
				}
			}
		}
		if in.k == kStore {
			firstStore = min(firstStore, i)
		}
	}
	// Loads are lazy and inputs are reloaded when evicted, which is only
	// right if no output is stored before the last input is read: z may be
	// the same slice as x or y.
	if lastLoadUse > firstStore {
		panic("an input is read after the first store")
	}
	a.cursor = make([]int, p.nvals)
	a.regOf = slices.Repeat([]int{-1}, p.nvals)
	a.slotOf = slices.Repeat([]int{-1}, p.nvals)
	a.remat = make([]string, p.nvals)
	a.regVal = slices.Repeat([]int{-1}, a.m.nregs)
	a.pinned = map[int]bool{}
	m := a.m
	for i, in := range p.ins {
		clear(a.pinned)
		switch in.k {
		case kLoad:
			a.remat[in.dst] = in.mem
		case kStore:
			r := a.fetch(in.a, i)
			a.emit("%s %s, %s", m.movOp(), m.reg(r), in.mem)
		case kClmul, kXor, kShuf:
			op := map[kind]string{kClmul: "PCLMULQDQ", kXor: "PXOR"}[in.k]
			if m.avx {
				op = map[kind]string{kClmul: "VPCLMULQDQ", kXor: "VPXORQ", kShuf: "VSHUFI64X2"}[in.k]
				ra := a.fetch(in.a, i)
				b := a.operand(in.b, i)
				var rd int
				switch {
				case a.diesAt(in.a, i):
					rd = ra
				case in.b >= 0 && a.regOf[in.b] >= 0 && a.diesAt(in.b, i):
					rd = a.regOf[in.b]
				default:
					rd = a.getReg(i)
				}
				if in.k == kXor {
					a.emit("%s %s, %s, %s", op, b, m.reg(ra), m.reg(rd))
				} else {
					a.emit("%s $0x%02x, %s, %s, %s", op, in.imm, b, m.reg(ra), m.reg(rd))
				}
				a.finish(in, i, rd)
				break
			}
			ra := a.fetch(in.a, i)
			rb := a.fetch(in.b, i)
			var rd int
			src := rb
			switch {
			case a.diesAt(in.a, i):
				rd = ra
			case in.k == kXor && a.diesAt(in.b, i):
				rd, src = rb, ra
			case in.k == kClmul && in.b != rVal && a.diesAt(in.b, i):
				// clmul(a, b) = clmul(b, a) with the halves' selectors swapped.
				rd, src = rb, ra
				in.imm = in.imm>>4 | in.imm&1<<4
			default:
				rd = a.getReg(i)
				a.emit("MOVOU %s, %s", m.reg(ra), m.reg(rd))
			}
			if in.k == kXor {
				a.emit("%s %s, %s", op, m.reg(src), m.reg(rd))
			} else {
				a.emit("%s $0x%02x, %s, %s", op, in.imm, m.reg(src), m.reg(rd))
			}
			a.finish(in, i, rd)
		case kShl, kShr:
			op := map[kind]string{kShl: "PSLLDQ", kShr: "PSRLDQ"}[in.k]
			ra := a.fetch(in.a, i)
			var rd int
			if a.diesAt(in.a, i) {
				rd = ra
			} else {
				rd = a.getReg(i)
				if !m.avx {
					a.emit("MOVOU %s, %s", m.reg(ra), m.reg(rd))
				}
			}
			if m.avx {
				a.emit("V%s $8, %s, %s", op, m.reg(ra), m.reg(rd))
			} else {
				a.emit("%s $8, %s", op, m.reg(rd))
			}
			a.finish(in, i, rd)
		}
		// Advance the use cursors of the sources past i, freeing the dead.
		for _, v := range []int{in.a, in.b} {
			if v < 0 {
				continue
			}
			for a.cursor[v] < len(a.uses[v]) && a.uses[v][a.cursor[v]] <= i {
				a.cursor[v]++
			}
			if a.cursor[v] == len(a.uses[v]) {
				a.release(v)
			}
		}
		if in.dst >= 0 && len(a.uses[in.dst]) == 0 {
			a.release(in.dst)
		}
	}
	return a.nslots * m.width
}

// finish records that instruction i left its result in register rd; a
// source that died there and shared rd gives it up.
func (a *alloc) finish(in ins, i, rd int) {
	for _, v := range []int{in.a, in.b} {
		if v >= 0 && a.regOf[v] == rd {
			a.regOf[v] = -1
			if s := a.slotOf[v]; s >= 0 {
				a.slots = append(a.slots, s)
				a.slotOf[v] = -1
			}
		}
	}
	a.regVal[rd] = -1
	a.define(in.dst, rd)
}

// ---------------------------------------------------------------------------
// Kernels.

var out strings.Builder

func w(format string, args ...any) { fmt.Fprintf(&out, format+"\n", args...) }

// kernel writes one TEXT symbol: a loop over count elements (PCLMULQDQ) or
// count/4 groups of four (AVX-512) running the program body builds, with x
// in SI, y in DX, z in DI, each advanced by step bytes per iteration.
func kernel(name, args string, argBytes int, m machine, step int, hasY bool, body func(p *prog)) {
	p := &prog{}
	body(p)
	var code strings.Builder
	a := &alloc{m: m, p: p, out: &code}
	spill := a.run()
	frame := 0
	if spill > 0 {
		frame = spill + 64 // room to align the spill area to 64 bytes
	}
	w("// func %s(%s)", name, args)
	w("TEXT ·%s(SB), 0, $%d-%d", name, frame, argBytes)
	w("\tMOVQ z+0(FP), DI")
	w("\tMOVQ x+8(FP), SI")
	if hasY {
		w("\tMOVQ y+16(FP), DX")
		w("\tMOVQ count+24(FP), CX")
		w("\tMOVQ r+32(FP), AX")
	} else {
		w("\tMOVQ count+16(FP), CX")
		w("\tMOVQ r+24(FP), AX")
	}
	if m.avx {
		w("\tSHRQ $2, CX")
		w("\tVPBROADCASTQ AX, Z31")
	} else {
		w("\tMOVQ AX, X15")
	}
	if spill > 0 {
		w("\tLEAQ 63(SP), R10")
		w("\tANDQ $-64, R10")
	}
	w("\tTESTQ CX, CX")
	w("\tJZ done")
	w("loop:")
	out.WriteString(code.String())
	w("\tADDQ $%d, SI", step)
	if hasY {
		w("\tADDQ $%d, DX", step)
	}
	w("\tADDQ $%d, DI", step)
	w("\tDECQ CX")
	w("\tJNZ loop")
	w("done:")
	if m.avx {
		w("\tVZEROUPPER")
	}
	w("\tRET")
	w("")
}

// loadSSE returns the m chunks of the element at base.
func loadSSE(p *prog, base string, m int) []int {
	c := make([]int, m)
	for i := range c {
		c[i] = p.loadAt(16*i, base)
	}
	return c
}

// loadAVX returns the m chunks of the four elements at base (elements of
// 16m bytes, one after the other), chunk c of element j in lane j of the
// c-th value: a 4×4 transposition of 128-bit lanes.
func loadAVX(p *prog, base string, m int) []int {
	size := 16 * m
	switch m {
	case 1:
		return []int{p.loadAt(0, base)}
	case 2:
		// Two registers hold (e0c0 e0c1 e1c0 e1c1) and (e2c0 e2c1 e3c0 e3c1).
		lo, hi := p.loadAt(0, base), p.loadAt(64, base)
		return []int{p.shuf(lo, hi, 0x88), p.shuf(lo, hi, 0xdd)}
	}
	c := make([]int, 0, m)
	for g := 0; g < m/4; g++ {
		e := [4]int{}
		for j := range e {
			e[j] = p.loadAt(j*size+64*g, base)
		}
		c = append(c, transpose4(p, e)...)
	}
	return c
}

// transpose4 transposes four registers seen as 4×4 matrices of 128-bit
// lanes: result k holds lane k of e0, e1, e2, e3 in its lanes 0..3.
func transpose4(p *prog, e [4]int) []int {
	t0 := p.shuf(e[0], e[1], 0x44) // e0[0] e0[1] e1[0] e1[1]
	t1 := p.shuf(e[0], e[1], 0xee) // e0[2] e0[3] e1[2] e1[3]
	t2 := p.shuf(e[2], e[3], 0x44)
	t3 := p.shuf(e[2], e[3], 0xee)
	return []int{p.shuf(t0, t2, 0x88), p.shuf(t0, t2, 0xdd), p.shuf(t1, t3, 0x88), p.shuf(t1, t3, 0xdd)}
}

// storeAVX undoes loadAVX: it writes chunks c (lane j = element j) as four
// elements at base.
func storeAVX(p *prog, base string, c []int) {
	m := len(c)
	size := 16 * m
	switch m {
	case 1:
		p.store(mem(0, base), c[0])
		return
	case 2:
		u0 := p.shuf(c[0], c[1], 0x44) // c0[0] c0[1] c1[0] c1[1]
		u1 := p.shuf(c[0], c[1], 0xee) // c0[2] c0[3] c1[2] c1[3]
		p.store(mem(0, base), p.shuf(u0, u0, 0xd8))
		p.store(mem(64, base), p.shuf(u1, u1, 0xd8))
		return
	}
	for g := 0; g < m/4; g++ {
		e := transpose4(p, [4]int(c[4*g:4*g+4]))
		for j := range e {
			p.store(mem(j*size+64*g, base), e[j])
		}
	}
}

func main() {
	w("// Code generated by (cd _gen && go run . > ../gf2n_amd64.s). DO NOT EDIT.")
	w("")
	w("//go:build !purego")
	w("")
	w("#include \"textflag.h\"")
	w("")
	for _, n := range []int{128, 256, 512, 1024, 2048} {
		m := n / 128
		size := n / 8
		kernel(fmt.Sprintf("mulPCLMUL%d", n), "z, x, y *uint64, count int, r uint64", 40, sse, size, true, func(p *prog) {
			prod := p.karatsuba(loadSSE(p, "SI", m), loadSSE(p, "DX", m))
			for c, v := range p.reduce(prod) {
				p.store(mem(16*c, "DI"), v)
			}
		})
		kernel(fmt.Sprintf("squarePCLMUL%d", n), "z, x *uint64, count int, r uint64", 32, sse, size, false, func(p *prog) {
			// Squaring is linear: chunk c of x squares to chunks 2c, 2c+1.
			var prod []int
			for _, c := range loadSSE(p, "SI", m) {
				prod = append(prod, p.clmul(c, c, 0x00), p.clmul(c, c, 0x11))
			}
			for c, v := range p.reduce(prod) {
				p.store(mem(16*c, "DI"), v)
			}
		})
		kernel(fmt.Sprintf("mulAVX512%d", n), "z, x, y *uint64, count int, r uint64", 40, avx, 4*size, true, func(p *prog) {
			prod := p.karatsuba(loadAVX(p, "SI", m), loadAVX(p, "DX", m))
			storeAVX(p, "DI", p.reduce(prod))
		})
	}
	os.Stdout.WriteString(out.String())
}
