package main

import (
	"fmt"
	"math/big"
	"strings"
)

// The kernels permute 16 states at once, one per 32-bit lane: state word j
// of all 16 lanes sits in register Z<j> for the whole permutation. Words
// are Montgomery forms (x·2^32 mod p) below p < 2^31, and every operation
// leaves its result below p again:
//   - a + b: r = a + b (< 2^32), then r = min(r, r − p) unsigned; a − b:
//     r = a − b, then r = min(r, r + p).
//   - a·b·2^−32: VPMULUDQ multiplies the even lanes into 64-bit products
//     x (the odd lanes after a 32-bit shift); q = x·p⁻¹ mod 2^32;
//     x − q·p is divisible by 2^32 and its high word h lies in (−p, p);
//     the odd and even high words are merged into one register and
//     min(h, h + p) unsigned is the result.
//   - x·2^−k, for p = c·2^s + 1 and k ≤ s: with x = hi·2^k + lo,
//     x·2^−k ≡ hi − lo·c·2^(s−k), in (−p, p), brought into [0, p) as a
//     difference; x/2 adds p to the odd lanes and shifts.
//
// Each kernel is one field and width with its internal diagonal V (the one
// Plonky3's and gnark-crypto's presets share) built into the code: every
// V_i is ±1, ±2, ±3, ±4 or ±2^−k, so V_i·x_i is shifts and additions.

var asm strings.Builder

func ins(format string, args ...any) { fmt.Fprintf(&asm, "\t"+format+"\n", args...) }

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
	f      field31
	width  int
	diag   []uint32 // canonical
	preg   string
	mu     string
	t      [6]string
	logC1  uint // log2(c + 1)
	pinv   uint32
	sumReg string
}

func zr(i int) string { return fmt.Sprintf("Z%d", i) }

func newKernel(f field31, width int, diag []uint32) *kernel {
	k := &kernel{f: f, width: width, diag: diag}
	k.preg, k.mu = zr(width), zr(width+1)
	for i := range k.t {
		k.t[i] = zr(width + 2 + i)
	}
	k.sumReg = k.t[5]
	for 1<<k.logC1 != f.c+1 {
		k.logC1++
	}
	inv := f.p()
	for range 4 {
		inv *= 2 - f.p()*inv
	}
	k.pinv = inv
	return k
}

// add sets r = a + b mod p, with scratch s (s differs from a, b, r).
func (k *kernel) add(a, b, r, s string) {
	ins("VPADDD %s, %s, %s", b, a, r)
	k.reduce(r, s)
}

// sub sets r = a − b mod p, with scratch s.
func (k *kernel) sub(a, b, r, s string) {
	ins("VPSUBD %s, %s, %s", b, a, r)
	ins("VPADDD %s, %s, %s", k.preg, r, s)
	ins("VPMINUD %s, %s, %s", s, r, r)
}

// reduce brings r, below 2p, below p (scratch s).
func (k *kernel) reduce(r, s string) {
	ins("VPSUBD %s, %s, %s", k.preg, r, s)
	ins("VPMINUD %s, %s, %s", s, r, r)
}

// mul sets r = a·b·2^−32 mod p with temporaries t0..t3; r may be a or b.
func (k *kernel) mul(a, b, r string) {
	t0, t1, t2, t3 := k.t[0], k.t[1], k.t[2], k.t[3]
	ins("VPSRLQ $32, %s, %s", a, t1)
	if a == b {
		ins("VPMULUDQ %s, %s, %s", t1, t1, t1)
	} else {
		ins("VPSRLQ $32, %s, %s", b, t2)
		ins("VPMULUDQ %s, %s, %s", t2, t1, t1)
	}
	ins("VPMULUDQ %s, %s, %s", b, a, t0)
	ins("VPMULUDQ %s, %s, %s", k.mu, t0, t2)
	ins("VPMULUDQ %s, %s, %s", k.mu, t1, t3)
	ins("VPMULUDQ %s, %s, %s", k.preg, t2, t2)
	ins("VPMULUDQ %s, %s, %s", k.preg, t3, t3)
	ins("VPSUBQ %s, %s, %s", t2, t0, t0)
	ins("VPSUBQ %s, %s, %s", t3, t1, t1)
	ins("VMOVSHDUP %s, K2, %s", t0, t1) // even lanes ← the high words of the even products
	ins("VPADDD %s, %s, %s", k.preg, t1, t0)
	ins("VPMINUD %s, %s, %s", t0, t1, r)
}

// sbox sets x = x^deg (temporaries t0..t4).
func (k *kernel) sbox(x string) {
	x2 := k.t[4]
	k.mul(x, x, x2)
	k.mul(x2, x, x) // x^3
	if k.f.deg == 3 {
		return
	}
	k.mul(x2, x2, x2) // x^4
	k.mul(x, x2, x)   // x^7
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
		ins("VMOVDQA64 %s, %s", zr(j), t[j])
	}
	for b := 4; b < k.width; b += 4 {
		for j := range 4 {
			k.add(t[j], zr(b+j), t[j], t[4])
		}
	}
	for i := range k.width {
		k.add(zr(i), t[i%4], zr(i), t[4])
	}
}

// partialSum sets sumReg = x_1 + … + x_{width−1} with four accumulators
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
	k.add(t[0], t[2], k.sumReg, t[4])
}

// scale sets x = |v|·x for the diagonal entry v (canonical), and reports
// whether v is negative (p − |v|).
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
		case (p + 1) / 2:
			ins("VPSLLD $31, %s, %s", x, k.t[0])
			ins("VPMOVD2M %s, K3", k.t[0])
			ins("VPADDD %s, %s, K3, %s", k.preg, x, x) // odd lanes: x + p (< 2^32)
			ins("VPSRLD $1, %s, %s", x, x)
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

// mul2expneg sets x = x·2^−e (temporaries t0..t2), 2 ≤ e ≤ s.
func (k *kernel) mul2expneg(x string, e uint) {
	hi, lo, t := k.t[0], k.t[1], k.t[2]
	b := k.f.s - e
	ins("VPSRLD $%d, %s, %s", e, x, hi)
	ins("VPSLLD $%d, %s, %s", 32-e, x, lo)
	ins("VPSRLD $%d, %s, %s", 32-e, lo, lo)
	if b > 0 {
		ins("VPSLLD $%d, %s, %s", b, lo, t)
		ins("VPADDD %s, %s, %s", t, hi, hi)
	} else {
		ins("VPADDD %s, %s, %s", lo, hi, hi)
	}
	ins("VPSLLD $%d, %s, %s", b+k.logC1, lo, lo)
	ins("VPSUBD %s, %s, %s", lo, hi, x) // hi + lo·2^b − lo·2^(b+log(c+1)) = hi − lo·c·2^b
	ins("VPADDD %s, %s, %s", k.preg, x, t)
	ins("VPMINUD %s, %s, %s", t, x, x)
}

func pow2inv(p uint32, e uint) uint32 {
	q := new(big.Int).SetUint64(uint64(p))
	v := new(big.Int).Exp(big.NewInt(2), big.NewInt(int64(e)), q)
	return uint32(v.ModInverse(v, q).Uint64())
}

func (k *kernel) text() error {
	name := fmt.Sprintf("x16%s%d", k.f.name, k.width)
	fmt.Fprintf(&asm, "// func %s(st *lanes, ext, intl *uint32, half, partial int)\n", name)
	fmt.Fprintf(&asm, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
	ins("MOVQ st+0(FP), DI")
	ins("MOVQ ext+8(FP), SI")
	ins("MOVQ intl+16(FP), R8")
	ins("MOVQ half+24(FP), CX")
	ins("MOVQ partial+32(FP), DX")
	ins("MOVL $%d, AX", k.f.p())
	ins("VPBROADCASTD AX, %s", k.preg)
	ins("MOVL $%d, AX", k.pinv)
	ins("VPBROADCASTD AX, %s", k.mu)
	ins("MOVL $0x5555, AX")
	ins("KMOVW AX, K2")
	for j := range k.width {
		ins("VMOVDQU32 %d(DI), %s", 64*j, zr(j))
	}
	k.external()
	// One copy of the full round serves both halves: R10 = 0 before the
	// partial rounds, 1 after.
	ins("XORQ R10, R10")
	asm.WriteString("half:\n")
	ins("MOVQ CX, BX")
	asm.WriteString("full:\n")
	for i := range k.width {
		ins("VPADDD.BCST %d(SI), %s, %s", 4*i, zr(i), zr(i))
		k.reduce(zr(i), k.t[0])
		k.sbox(zr(i))
	}
	k.external()
	ins("ADDQ $%d, SI", 4*k.width)
	ins("DECQ BX")
	ins("JNZ full")
	ins("TESTQ R10, R10")
	ins("JNZ done")
	ins("INCQ R10")
	asm.WriteString("partial:\n")
	// The sum of x_1 … x_{t−1} does not wait for the S-box of x_0.
	k.partialSum()
	ins("VPADDD.BCST (R8), Z0, Z0")
	k.reduce("Z0", k.t[0])
	k.sbox("Z0")
	k.add(k.sumReg, "Z0", k.sumReg, k.t[0])
	for i := range k.width {
		neg, err := k.scale(zr(i), k.diag[i])
		if err != nil {
			return err
		}
		if neg {
			k.sub(k.sumReg, zr(i), zr(i), k.t[0])
		} else {
			k.add(zr(i), k.sumReg, zr(i), k.t[0])
		}
	}
	ins("ADDQ $4, R8")
	ins("DECQ DX")
	ins("JNZ partial")
	ins("JMP half")
	asm.WriteString("done:\n")
	for j := range k.width {
		ins("VMOVDQU32 %s, %d(DI)", zr(j), 64*j)
	}
	ins("VZEROUPPER")
	ins("RET")
	asm.WriteString("\n")
	return nil
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
