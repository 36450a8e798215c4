package main

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// The kernels permute 16 states at once, one per 32-bit lane: state word j
// of all 16 lanes sits in register Z<j> for the whole permutation. Words
// are Montgomery forms (x·2^32 mod p) below p < 2^31; between the steps
// below every word is canonical again:
//   - a + b: r = a + b (< 2^32), then r = min(r, r − p) unsigned; a − b:
//     r = a − b, then r = min(r, r + p).
//   - x + c, a round constant: the kernels take p − c (in (0, p]) and
//     subtract it, which leaves a signed word in [−p, p), the input the
//     S-box takes as it is (no reduction).
//   - a·b·2^−32 for signed a, b in [−p, p]: VPMULDQ multiplies the even
//     lanes into signed 64-bit products x (the odd lanes after VMOVSHDUP
//     moves them down); q = x·p⁻¹ mod 2^32, read as signed; x − q·p is
//     divisible by 2^32 and its high word h lies in (−p, p), since
//     |x − q·p| ≤ p² + 2^31·p < 2^32·p; the odd and even high words are
//     merged into one register, and the S-box's powers chain on these
//     signed words. min(h, h + p) unsigned makes the last one canonical.
//   - x·2^−k, for p = c·2^s + 1 and k ≤ s: with x = hi·2^k + lo,
//     x·2^−k ≡ hi − lo·c·2^(s−k) (VPMULLD), in (−p, p), made canonical as
//     a product is; x/2 adds p to the odd lanes and shifts.
//
// Each kernel is one field and width with its internal diagonal V (the one
// Plonky3's and gnark-crypto's presets share) built into the code: V_0 is
// −2 and every other V_i is ±1, ±2, ±3, ±4 or ±2^−k, so V_i·x_i is shifts,
// additions and at most one VPMULLD. The partial round adds the sum of
// x_1 … x_{t−1} (taken while x_0 is in the S-box) to x_0 for the whole
// sum and subtracts x_0 from it for the new x_0 = sum − 2·x_0.

var asm strings.Builder

// sink, when set, collects the instructions ins writes (capture).
var sink *[]string

func ins(format string, args ...any) {
	line := fmt.Sprintf("\t"+format+"\n", args...)
	if sink != nil {
		*sink = append(*sink, line)
		return
	}
	asm.WriteString(line)
}

// capture returns the instructions f writes, instead of writing them.
func capture(f func()) []string {
	saved := sink
	var out []string
	sink = &out
	f()
	sink = saved
	return out
}

// merge writes independent sequences of instructions merged: one
// instruction of each of the others after every `every` of the first, then
// what is left. An out-of-order core then finds their dependency chains
// side by side in its window instead of one after the other.
func merge(seqs [][]string, every int) {
	if len(seqs) == 0 {
		return
	}
	first, others := seqs[0], seqs[1:]
	for i, line := range first {
		asm.WriteString(line)
		if (i+1)%every == 0 {
			for j := range others {
				if len(others[j]) > 0 {
					asm.WriteString(others[j][0])
					others[j] = others[j][1:]
				}
			}
		}
	}
	for _, o := range others {
		for _, line := range o {
			asm.WriteString(line)
		}
	}
}

type field31 struct {
	name, file string
	c, s       uint // p = c·2^s + 1, c + 1 a power of two
	deg        int
}

var fields31 = []field31{
	{"BabyBear", "babybear", 15, 27, 7},
	{"KoalaBear", "koalabear", 127, 24, 3},
}

func (f field31) p() uint32 { return uint32(f.c<<f.s + 1) }

type kernel struct {
	f     field31
	width int
	diag  []uint32  // canonical
	preg  string    // p in every word
	mu    string    // p⁻¹ mod 2^32 in every word
	t     [6]string // temporaries of the linear layers; t[5] holds the partial sum
	// boxes are register sets for S-boxes that run side by side (in
	// registers no state word uses): x², x's odd words, and the three
	// temporaries of a product. partialBox avoids t where there is room.
	boxes      [][5]string
	partialBox [5]string
	pinv       uint32
	consts     string   // the symbol of the kernel's constants
	table      []uint32 // its words, as the instructions broadcast them
}

func zr(i int) string { return fmt.Sprintf("Z%d", i) }

func regs(from, n int) []string {
	r := make([]string, n)
	for i := range r {
		r[i] = zr(from + i)
	}
	return r
}

func newKernel(f field31, width int, diag []uint32) *kernel {
	k := &kernel{f: f, width: width, diag: diag}
	inv := f.p()
	for range 4 {
		inv *= 2 - f.p()*inv
	}
	k.pinv = inv
	k.consts = fmt.Sprintf("x16%s%dConsts", f.name, width)
	k.preg, k.mu = zr(width), zr(width+1)
	// Width 16 leaves 14 registers: two S-boxes side by side in the full
	// rounds, and one beside the linear layer in the partial rounds;
	// width 24 leaves 6.
	free := regs(width+2, 30-width)
	copy(k.t[:], free)
	for i := 0; i+5 <= len(free); i += 5 {
		k.boxes = append(k.boxes, [5]string(free[i:i+5]))
	}
	k.partialBox = k.boxes[0]
	if n := len(free); n >= 11 {
		k.partialBox = [5]string(free[n-5:])
	}
	return k
}

// constant returns the memory operand of the 32-bit word v in the
// kernel's table (added on first use).
func (k *kernel) constant(v uint32) string {
	i := slices.Index(k.table, v)
	if i < 0 {
		i = len(k.table)
		k.table = append(k.table, v)
	}
	return fmt.Sprintf("·%s+%d(SB)", k.consts, 4*i)
}

// add sets r = a + b mod p, with scratch s (s differs from a, b, r).
func (k *kernel) add(a, b, r, s string) {
	ins("VPADDD %s, %s, %s", b, a, r)
	k.reduce(r, s)
}

// sub sets r = a − b mod p, with scratch s.
func (k *kernel) sub(a, b, r, s string) {
	ins("VPSUBD %s, %s, %s", b, a, r)
	k.canon(r, s)
}

// reduce brings r, below 2p, below p (scratch s).
func (k *kernel) reduce(r, s string) {
	ins("VPSUBD %s, %s, %s", k.preg, r, s)
	ins("VPMINUD %s, %s, %s", s, r, r)
}

// canon brings r, a signed word in (−p, p), into [0, p) (scratch s).
func (k *kernel) canon(r, s string) {
	ins("VPADDD %s, %s, %s", k.preg, r, s)
	ins("VPMINUD %s, %s, %s", s, r, r)
}

// odd sets r to the odd words of a moved onto the even ones, the words
// VPMULDQ reads (the shuffle unit's VMOVSHDUP, not a shift).
func (k *kernel) odd(a, r string) { ins("VMOVSHDUP %s, %s", a, r) }

// mul sets r = a·b·2^−32, a signed word in (−p, p), for signed a and b in
// [−p, p] whose odd words are in ao and bo (odd), with the temporaries
// m0..m2, which ao and bo may be (they are read first); r may be a, b,
// ao, bo or m1, not m0.
func (k *kernel) mul(a, ao, b, bo, r string, m [3]string) {
	ins("VPMULDQ %s, %s, %s", bo, ao, m[1])
	ins("VPMULDQ %s, %s, %s", b, a, m[0])
	ins("VPMULUDQ %s, %s, %s", k.mu, m[0], m[2])
	ins("VPMULDQ %s, %s, %s", k.preg, m[2], m[2])
	ins("VPSUBQ %s, %s, %s", m[2], m[0], m[0])
	ins("VPMULUDQ %s, %s, %s", k.mu, m[1], m[2])
	ins("VPMULDQ %s, %s, %s", k.preg, m[2], m[2])
	ins("VPSUBQ %s, %s, %s", m[2], m[1], r)
	ins("VMOVSHDUP %s, K2, %s", m[0], r) // even lanes ← the high words of the even products
}

// sbox sets x = x^deg, canonical, for a signed x in [−p, p), with the
// registers of box.
func (k *kernel) sbox(x string, box [5]string) {
	x2, xo, m := box[0], box[1], [3]string(box[2:])
	k.odd(x, xo)
	k.mul(x, xo, x, xo, x2, m)
	k.odd(x2, m[1])
	k.mul(x2, m[1], x, xo, x, m) // x^3
	if k.f.deg == 7 {
		// x^7 = x^3·x^4, x^4 = (x^2)^2.
		k.odd(x2, xo)
		k.mul(x2, xo, x2, xo, x2, m)
		k.odd(x, xo)
		k.odd(x2, m[1])
		k.mul(x, xo, x2, m[1], x, m)
	}
	k.canon(x, m[0])
}

// external multiplies the state by circ(2·M4, M4, …, M4), M4 = MDSMat4
// (temporaries t0..t4).
func (k *kernel) external() {
	t := k.t
	for b := 0; b < k.width; b += 4 {
		x0, x1, x2, x3 := zr(b), zr(b+1), zr(b+2), zr(b+3)
		k.add(x0, x1, t[0], t[4]) // t01
		k.add(x2, x3, t[1], t[4]) // t23
		k.add(t[0], t[1], t[2], t[4])
		k.add(t[2], x1, t[3], t[4]) // t01123
		k.add(t[2], x3, t[2], t[4]) // t01233
		k.add(x0, x0, x3, t[4])
		k.add(x3, t[2], x3, t[4]) // 3x0 + x1 + x2 + 2x3
		k.add(x2, x2, x1, t[4])
		k.add(x1, t[3], x1, t[4]) // x0 + 2x1 + 3x2 + x3
		k.add(t[0], t[3], x0, t[4])
		k.add(t[1], t[2], x2, t[4])
	}
	for j := range 4 {
		k.add(zr(j), zr(4+j), t[j], t[4])
	}
	for b := 8; b < k.width; b += 4 {
		for j := range 4 {
			k.add(t[j], zr(b+j), t[j], t[4])
		}
	}
	for i := range k.width {
		k.add(zr(i), t[i%4], zr(i), t[4])
	}
}

// partialSum sets t5 = x_1 + … + x_{width−1} with four accumulators
// (temporaries t0..t4).
func (k *kernel) partialSum() {
	t := k.t
	for j := range 4 {
		k.add(zr(1+2*j), zr(2+2*j), t[j], t[4])
	}
	for i := 9; i < k.width; i++ {
		k.add(t[(i-9)%4], zr(i), t[(i-9)%4], t[4])
	}
	k.add(t[0], t[1], t[0], t[4])
	k.add(t[2], t[3], t[2], t[4])
	k.add(t[0], t[2], t[5], t[4])
}

// scale sets x = |v|·x for the diagonal entry v (canonical), and reports
// whether v is negative (p − |v|); temporaries t0, t1.
func (k *kernel) scale(x string, v uint32) (neg bool, err error) {
	p := k.f.p()
	for _, n := range []bool{false, true} {
		w := v
		if n {
			w = p - v
		}
		switch w {
		case 1:
			return n, nil
		case 2:
			k.add(x, x, x, k.t[0])
			return n, nil
		case 3:
			k.add(x, x, k.t[1], k.t[0])
			k.add(k.t[1], x, x, k.t[0])
			return n, nil
		case 4:
			k.add(x, x, x, k.t[0])
			k.add(x, x, x, k.t[0])
			return n, nil
		case (p + 1) / 2: // x/2: odd x become (x + p)/2 = (x >> 1) + (p + 1)/2
			ins("VPTESTMD.BCST %s, %s, K3", k.constant(1), x)
			ins("VPSRLD $1, %s, %s", x, x)
			ins("VPADDD.BCST %s, %s, K3, %s", k.constant((p+1)/2), x, x)
			return n, nil
		}
		for e := uint(2); e <= k.f.s; e++ {
			if w == pow2inv(p, e) {
				k.mul2expneg(x, e)
				return n, nil
			}
		}
	}
	return false, fmt.Errorf("%s %d: diagonal entry %d is not ±1, ±2, ±3, ±4 or ±2^-k", k.f.name, k.width, v)
}

// mul2expneg sets x = x·2^−e, canonical (temporaries t0, t1), 2 ≤ e ≤ s.
func (k *kernel) mul2expneg(x string, e uint) {
	hi, lo := k.t[0], k.t[1]
	ins("VPSRLD $%d, %s, %s", e, x, hi)
	ins("VPANDD.BCST %s, %s, %s", k.constant(1<<e-1), x, lo)
	ins("VPMULLD.BCST %s, %s, %s", k.constant(uint32(k.f.c)<<(k.f.s-e)), lo, lo) // < c·2^s < p
	ins("VPSUBD %s, %s, %s", lo, hi, x)                                          // hi − lo·c·2^(s−e), in (−p, 2^(31−e))
	k.canon(x, k.t[0])
}

func pow2inv(p uint32, e uint) uint32 {
	q := new(big.Int).SetUint64(uint64(p))
	v := new(big.Int).Exp(big.NewInt(2), big.NewInt(int64(e)), q)
	return uint32(v.ModInverse(v, q).Uint64())
}

func (k *kernel) text() error {
	p := k.f.p()
	if k.diag[0] != p-2 {
		return fmt.Errorf("%s %d: the kernels take V_0 = −2, not %d", k.f.name, k.width, k.diag[0])
	}
	if err := k.permutation(false); err != nil {
		return err
	}
	if k.width == 16 {
		if err := k.permutation(true); err != nil {
			return err
		}
	}
	for i, v := range k.table {
		ins("DATA ·%s+%d(SB)/4, $%d", k.consts, 4*i, v)
	}
	ins("GLOBL ·%s(SB), RODATA|NOPTR, $%d", k.consts, 4*len(k.table))
	asm.WriteString("\n")
	return nil
}

// permutation writes the kernel on lanes (st[j][l], word j of state l) or,
// with rows (width 16 only), on 16 states laid end to end, transposed in
// the registers on the way in and out.
func (k *kernel) permutation(rows bool) error {
	p := k.f.p()
	name, arg := fmt.Sprintf("x16%s%d", k.f.name, k.width), "st *lanes"
	if rows {
		name, arg = name+"Rows", "rows *[256]uint32"
	}
	fmt.Fprintf(&asm, "// func %s(%s, ext, intl *uint32, half, partial int)\n", name, arg)
	fmt.Fprintf(&asm, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
	ins("MOVQ %s+0(FP), DI", strings.Fields(arg)[0])
	ins("MOVQ ext+8(FP), SI")
	ins("MOVQ intl+16(FP), R8")
	ins("MOVQ half+24(FP), CX")
	ins("MOVQ partial+32(FP), DX")
	for j := range k.width {
		ins("VMOVDQU32 %d(DI), %s", 64*j, zr(j))
	}
	if rows {
		transpose16x16()
	}
	ins("MOVL $%d, AX", p)
	ins("VPBROADCASTD AX, %s", k.preg)
	ins("MOVL $%d, AX", k.pinv)
	ins("VPBROADCASTD AX, %s", k.mu)
	ins("MOVL $0x5555, AX")
	ins("KMOVW AX, K2")
	k.external()
	// One copy of the full round serves both halves: R10 = 0 before the
	// partial rounds, 1 after.
	ins("XORQ R10, R10")
	asm.WriteString("half:\n")
	ins("MOVQ CX, BX")
	asm.WriteString("full:\n")
	// The S-boxes of len(boxes) words at a time, their instructions
	// interleaved.
	for i := 0; i < k.width; i += len(k.boxes) {
		var streams [][]string
		for j, box := range k.boxes {
			if i+j < k.width {
				x := zr(i + j)
				streams = append(streams, capture(func() {
					ins("VPSUBD.BCST %d(SI), %s, %s", 4*(i+j), x, x)
					k.sbox(x, box)
				}))
			}
		}
		merge(streams, 1)
	}
	k.external()
	ins("ADDQ $%d, SI", 4*k.width)
	ins("DECQ BX")
	ins("JNZ full")
	ins("TESTQ R10, R10")
	ins("JNZ done")
	ins("INCQ R10")
	asm.WriteString("partial:\n")
	// The sum of x_1 … x_{t−1} and the products V_i·x_i do not wait for
	// the S-box of x_0: where the S-box has registers of its own (width
	// 16), its instructions are interleaved with theirs.
	neg := make([]bool, k.width)
	var err error
	rest := func() {
		for i := 1; i < k.width && err == nil; i++ {
			neg[i], err = k.scale(zr(i), k.diag[i])
		}
	}
	sbox := func() {
		ins("VPSUBD.BCST (R8), Z0, Z0")
		k.sbox("Z0", k.partialBox)
	}
	if slices.Contains(k.t[:], k.partialBox[0]) {
		k.partialSum()
		sbox()
		rest()
	} else {
		merge([][]string{capture(func() { k.partialSum(); rest() }), capture(sbox)}, 2)
	}
	if err != nil {
		return err
	}
	sum := k.t[4]
	k.add(k.t[5], "Z0", sum, k.t[0])  // the whole sum
	k.sub(k.t[5], "Z0", "Z0", k.t[0]) // sum − 2·x_0
	for i := 1; i < k.width; i++ {
		if neg[i] {
			k.sub(sum, zr(i), zr(i), k.t[0])
		} else {
			k.add(zr(i), sum, zr(i), k.t[0])
		}
	}
	ins("ADDQ $4, R8")
	ins("DECQ DX")
	ins("JNZ partial")
	ins("JMP half")
	asm.WriteString("done:\n")
	if rows {
		transpose16x16()
	}
	for j := range k.width {
		ins("VMOVDQU32 %s, %d(DI)", zr(j), 64*j)
	}
	ins("VZEROUPPER")
	ins("RET")
	asm.WriteString("\n")
	return nil
}

// transpose16x16 transposes the 16×16 matrix of 32-bit words whose rows
// are Z0..Z15, in place (Z16..Z31 are clobbered): dword interleaves, then
// quadword interleaves (register 4g+w then holds, in its 128-bit lane L,
// word 4L+w of rows 4g..4g+3), then a 4×4 transposition of the 128-bit
// lanes of registers w, 4+w, 8+w, 12+w for each w.
func transpose16x16() {
	for i := 0; i < 16; i += 2 {
		ins("VPUNPCKLDQ Z%d, Z%d, Z%d", i+1, i, 16+i)
		ins("VPUNPCKHDQ Z%d, Z%d, Z%d", i+1, i, 17+i)
	}
	for g := 0; g < 16; g += 4 {
		ins("VPUNPCKLQDQ Z%d, Z%d, Z%d", 18+g, 16+g, g)
		ins("VPUNPCKHQDQ Z%d, Z%d, Z%d", 18+g, 16+g, g+1)
		ins("VPUNPCKLQDQ Z%d, Z%d, Z%d", 19+g, 17+g, g+2)
		ins("VPUNPCKHQDQ Z%d, Z%d, Z%d", 19+g, 17+g, g+3)
	}
	for w := range 4 {
		// lanes 0 and 2, and 1 and 3, of registers w, 4+w; then 8+w, 12+w
		ins("VSHUFI32X4 $0x88, Z%d, Z%d, Z%d", 4+w, w, 16+4*w)
		ins("VSHUFI32X4 $0xdd, Z%d, Z%d, Z%d", 4+w, w, 17+4*w)
		ins("VSHUFI32X4 $0x88, Z%d, Z%d, Z%d", 12+w, 8+w, 18+4*w)
		ins("VSHUFI32X4 $0xdd, Z%d, Z%d, Z%d", 12+w, 8+w, 19+4*w)
	}
	for w := range 4 {
		ins("VSHUFI32X4 $0x88, Z%d, Z%d, Z%d", 18+4*w, 16+4*w, w)
		ins("VSHUFI32X4 $0xdd, Z%d, Z%d, Z%d", 18+4*w, 16+4*w, 8+w)
		ins("VSHUFI32X4 $0x88, Z%d, Z%d, Z%d", 19+4*w, 17+4*w, 4+w)
		ins("VSHUFI32X4 $0xdd, Z%d, Z%d, Z%d", 19+4*w, 17+4*w, 12+w)
	}
}

// transpose8x8x2 transposes, in each 256-bit half at once, the 8×8 matrix
// of 32-bit words whose rows are the halves of Z0..Z7; the result is left
// in Z0..Z7 (Z8..Z24 are clobbered).
func transpose8x8x2() {
	for i := 0; i < 8; i += 2 {
		ins("VPUNPCKLDQ Z%d, Z%d, Z%d", i+1, i, 8+i)
		ins("VPUNPCKHDQ Z%d, Z%d, Z%d", i+1, i, 9+i)
	}
	// Within each 128-bit lane, Z16+m holds words m (and m+4) of four rows.
	for g := 0; g < 8; g += 4 {
		ins("VPUNPCKLQDQ Z%d, Z%d, Z%d", 10+g, 8+g, 16+g)
		ins("VPUNPCKHQDQ Z%d, Z%d, Z%d", 10+g, 8+g, 17+g)
		ins("VPUNPCKLQDQ Z%d, Z%d, Z%d", 11+g, 9+g, 18+g)
		ins("VPUNPCKHQDQ Z%d, Z%d, Z%d", 11+g, 9+g, 19+g)
	}
	for j := range 8 {
		m, n, q := 16+j%4, 20+j%4, j/4
		imm := q | (2+q)<<2 | q<<4 | (2+q)<<6
		ins("VSHUFI32X4 $0x%02x, Z%d, Z%d, Z24", imm, n, m)
		ins("VSHUFI32X4 $0xd8, Z24, Z24, Z%d", j)
	}
}

func transposes() {
	asm.WriteString(`// func rowsToLanes8(dst *[8][16]uint32, src *uint32, stride int)
TEXT ·rowsToLanes8(SB), NOSPLIT, $0-24
`)
	ins("MOVQ dst+0(FP), DI")
	ins("MOVQ src+8(FP), SI")
	ins("MOVQ stride+16(FP), CX")
	ins("LEAQ (SI)(CX*8), DX") // row 8
	for i := range 8 {
		ins("VMOVDQU32 (SI), Y%d", i)
		ins("VINSERTI64X4 $1, (DX), Z%d, Z%d", i, i)
		ins("ADDQ CX, SI")
		ins("ADDQ CX, DX")
	}
	transpose8x8x2()
	for j := range 8 {
		ins("VMOVDQU32 Z%d, %d(DI)", j, 64*j)
	}
	ins("VZEROUPPER")
	ins("RET")
	asm.WriteString(`
// func lanesToRows8(dst *uint32, stride int, src *[8][16]uint32)
TEXT ·lanesToRows8(SB), NOSPLIT, $0-24
`)
	ins("MOVQ dst+0(FP), DI")
	ins("MOVQ stride+8(FP), CX")
	ins("MOVQ src+16(FP), SI")
	for j := range 8 {
		ins("VMOVDQU32 %d(SI), Z%d", 64*j, j)
	}
	transpose8x8x2()
	ins("LEAQ (DI)(CX*8), DX")
	for i := range 8 {
		ins("VMOVDQU32 Y%d, (DI)", i)
		ins("VEXTRACTI64X4 $1, Z%d, (DX)", i)
		ins("ADDQ CX, DI")
		ins("ADDQ CX, DX")
	}
	ins("VZEROUPPER")
	ins("RET")
	asm.WriteString("\n")
}

func genAsm(dir, which string) (string, error) {
	out := map[string]string{"31": "kernels31_amd64.s", "goldilocks": "kernelsgl_amd64.s"}[which]
	fmt.Fprintf(&asm, "// Code generated by (cd _gen && go run . -asm %s > ../%s). DO NOT EDIT.\n\n", which, out)
	asm.WriteString("//go:build !purego\n\n#include \"textflag.h\"\n\n")
	if which == "goldilocks" {
		for _, w := range []int{8, 12} {
			for _, hl := range []bool{false, true} {
				newGLKernel(w, hl).text()
			}
		}
		return strings.TrimSuffix(asm.String(), "\n"), nil
	}
	transposes()
	for _, f := range fields31 {
		for _, w := range []int{16, 24} {
			t, err := readTable(dir, f.file, w)
			if err != nil {
				return "", err
			}
			diag := make([]uint32, w)
			for i, v := range t.InternalDiag {
				x, err := v.Int64()
				if err != nil {
					return "", err
				}
				diag[i] = uint32(x)
			}
			if p, _ := t.prime(); p != uint64(f.p()) || t.SBoxDegree != f.deg || len(diag) != w {
				return "", fmt.Errorf("%s %d: the table is not this field's", f.name, w)
			}
			if err := newKernel(f, w, diag).text(); err != nil {
				return "", err
			}
		}
	}
	return strings.TrimSuffix(asm.String(), "\n"), nil
}
