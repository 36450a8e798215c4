package main

import "fmt"

// The Goldilocks kernels permute 8 states at once, one per 64-bit lane:
// state word j of the 8 lanes sits in register Z<j>. They take and give
// Montgomery words (x·2^64 mod p, goldilocks.Element) and compute on
// canonical values in between, with p = 2^64 − 2^32 + 1, ε = 2^32 − 1 =
// 2^64 mod p and 2^96 ≡ −1:
//   - a + b: s = a + b mod 2^64; with a carry the sum is s + ε, else
//     min(s, s + ε mod 2^64) unsigned.
//   - a − b: d = a − b mod 2^64, minus ε where it borrowed.
//   - a·b: the 128-bit product hi·2^64 + lo from four 32×32 products; with
//     hi = hh·2^32 + hl, it is ≡ lo − hh + hl·ε, each step corrected by ε
//     on a borrow or a carry, then min(r, r + ε) canonical.
//   - Montgomery to canonical: x·2^−64 ≡ −x·2^32; back: x·2^64, the
//     reduction of the 128-bit value x·2^64.
//
// Round constants, internal diagonal: canonical, from the caller.

type glKernel struct {
	width int
	hl    bool
	eps   string
	prime string
	t     [10]string // t0..t4: mul; t5: S-box; t6: the sum; t7: broadcasts; t8, t9: add
}

func newGLKernel(width int, hl bool) *glKernel {
	k := &glKernel{width: width, hl: hl, eps: "Z30", prime: "Z31"}
	for i := range k.t {
		k.t[i] = zr(20 + i)
	}
	return k
}

// add sets r = a + b mod p (scratch t8, t9).
func (k *glKernel) add(a, b, r string) {
	s, cmp := r, a
	switch {
	case r == a && r == b:
		s = k.t[9]
	case r == a:
		cmp = b
	}
	ins("VPADDQ %s, %s, %s", b, a, s)
	ins("VPCMPUQ $1, %s, %s, K3", cmp, s) // carry: s < a (or b)
	ins("VPADDQ %s, %s, %s", k.eps, s, k.t[8])
	ins("VPMINUQ %s, %s, %s", k.t[8], s, r)
	ins("VMOVDQA64 %s, K3, %s", k.t[8], r)
}

// canon sets r = min(x, x + ε mod 2^64), x below 2^64: x mod p when x < 2p
// (scratch s).
func (k *glKernel) canon(x, r, s string) {
	ins("VPADDQ %s, %s, %s", k.eps, x, s)
	ins("VPMINUQ %s, %s, %s", s, x, r)
}

// reduce sets r = (hi·2^64 + lo) mod p; hi and lo are clobbered (scratch
// t0).
func (k *glKernel) reduce(hi, lo, r string) {
	t0 := k.t[0]
	ins("VPSRLQ $32, %s, %s", hi, t0) // hh
	ins("VPANDQ %s, %s, %s", k.eps, hi, hi)
	ins("VPCMPUQ $1, %s, %s, K3", t0, lo) // lo < hh
	ins("VPSUBQ %s, %s, %s", t0, lo, lo)
	ins("VPSUBQ %s, %s, K3, %s", k.eps, lo, lo)
	ins("VPSLLQ $32, %s, %s", hi, t0)
	ins("VPSUBQ %s, %s, %s", hi, t0, t0) // hl·ε
	ins("VPADDQ %s, %s, %s", t0, lo, lo)
	ins("VPCMPUQ $1, %s, %s, K3", t0, lo) // carry
	ins("VPADDQ %s, %s, K3, %s", k.eps, lo, lo)
	k.canon(lo, r, t0)
}

// mul sets r = a·b mod p (temporaries t0..t4); r may be a or b.
func (k *glKernel) mul(a, b, r string) {
	t0, t1, t2, t3, t4 := k.t[0], k.t[1], k.t[2], k.t[3], k.t[4]
	ins("VPSRLQ $32, %s, %s", a, t0)     // a1
	ins("VPMULUDQ %s, %s, %s", b, a, t2) // p00
	p10 := t4
	if a == b {
		ins("VPMULUDQ %s, %s, %s", t0, a, t3)  // p01 = p10
		ins("VPMULUDQ %s, %s, %s", t0, t0, t1) // p11
		p10 = t3
	} else {
		ins("VPSRLQ $32, %s, %s", b, t1)       // b1
		ins("VPMULUDQ %s, %s, %s", t1, a, t3)  // p01
		ins("VPMULUDQ %s, %s, %s", b, t0, t4)  // p10
		ins("VPMULUDQ %s, %s, %s", t1, t0, t1) // p11
	}
	ins("VPSRLQ $32, %s, %s", t2, t0)
	ins("VPADDQ %s, %s, %s", t0, p10, t4) // t = p10 + p00>>32
	ins("VPANDQ %s, %s, %s", k.eps, t4, t0)
	ins("VPADDQ %s, %s, %s", t0, t3, t3) // u = p01 + t mod 2^32
	ins("VPSRLQ $32, %s, %s", t4, t4)
	ins("VPADDQ %s, %s, %s", t4, t1, t1)
	ins("VPSRLQ $32, %s, %s", t3, t0)
	ins("VPADDQ %s, %s, %s", t0, t1, t1) // hi = p11 + t>>32 + u>>32
	ins("VPSLLQ $32, %s, %s", t3, t3)
	ins("VPBLENDMD %s, %s, K2, %s", t3, t2, t2) // lo = u<<32 | p00 mod 2^32
	k.reduce(t1, t2, r)
}

func (k *glKernel) sbox(x string) {
	x2 := k.t[5]
	k.mul(x, x, x2)
	k.mul(x2, x, x)
	k.mul(x2, x2, x2)
	k.mul(x, x2, x)
}

func (k *glKernel) external() {
	t := k.t
	for b := 0; b < k.width; b += 4 {
		x0, x1, x2, x3 := zr(b), zr(b+1), zr(b+2), zr(b+3)
		if k.hl {
			k.add(x0, x1, t[0])
			k.add(x2, x3, t[1])
			k.add(x1, x1, t[2])
			k.add(t[2], t[1], t[2]) // t2 = 2x1 + t1
			k.add(x3, x3, t[3])
			k.add(t[3], t[0], t[3]) // t3 = 2x3 + t0
			k.add(t[1], t[1], t[4])
			k.add(t[4], t[4], t[4])
			k.add(t[4], t[3], t[4]) // t4 = 4t1 + t3
			k.add(t[0], t[0], t[5])
			k.add(t[5], t[5], t[5])
			k.add(t[5], t[2], t[5]) // t5 = 4t0 + t2
			k.add(t[3], t[5], x0)
			ins("VMOVDQA64 %s, %s", t[5], x1)
			k.add(t[2], t[4], x2)
			ins("VMOVDQA64 %s, %s", t[4], x3)
			continue
		}
		k.add(x0, x1, t[0])
		k.add(x2, x3, t[1])
		k.add(t[0], t[1], t[2])
		k.add(t[2], x1, t[3])
		k.add(t[2], x3, t[2])
		k.add(x0, x0, x3)
		k.add(x3, t[2], x3)
		k.add(x2, x2, x1)
		k.add(x1, t[3], x1)
		k.add(t[0], t[3], x0)
		k.add(t[1], t[2], x2)
	}
	for j := range 4 {
		ins("VMOVDQA64 %s, %s", zr(j), t[j])
	}
	for b := 4; b < k.width; b += 4 {
		for j := range 4 {
			k.add(t[j], zr(b+j), t[j])
		}
	}
	for i := range k.width {
		k.add(zr(i), t[i%4], zr(i))
	}
}

func (k *glKernel) text() {
	m := "MDSMat4"
	if k.hl {
		m = "HLMDSMat4"
	}
	name := fmt.Sprintf("x8Goldilocks%d%s", k.width, m)
	fmt.Fprintf(&asm, "// func %s(st *lanesGL, ext, intl, diag *uint64, half, partial int)\n", name)
	fmt.Fprintf(&asm, "TEXT ·%s(SB), NOSPLIT, $0-48\n", name)
	ins("MOVQ st+0(FP), DI")
	ins("MOVQ ext+8(FP), SI")
	ins("MOVQ intl+16(FP), R8")
	ins("MOVQ diag+24(FP), R9")
	ins("MOVQ half+32(FP), CX")
	ins("MOVQ partial+40(FP), DX")
	ins("MOVQ $0xffffffff, AX")
	ins("VPBROADCASTQ AX, %s", k.eps)
	ins("MOVQ $0xffffffff00000001, AX")
	ins("VPBROADCASTQ AX, %s", k.prime)
	ins("MOVL $0xaaaa, AX")
	ins("KMOVW AX, K2")
	// Montgomery to canonical: x ← −(x·2^32 mod p).
	for j := range k.width {
		x := zr(j)
		ins("VMOVDQU64 %d(DI), %s", 64*j, x)
		ins("VPSRLQ $32, %s, %s", x, k.t[1])
		ins("VPSLLQ $32, %s, %s", x, k.t[2])
		k.reduce(k.t[1], k.t[2], x)
		ins("VPSUBQ %s, %s, %s", x, k.prime, x)
		k.canon(x, x, k.t[0])
	}
	k.external()
	ins("XORQ R10, R10")
	asm.WriteString("half:\n")
	ins("MOVQ CX, BX")
	asm.WriteString("full:\n")
	for i := range k.width {
		ins("VPBROADCASTQ %d(SI), %s", 8*i, k.t[7])
		k.add(zr(i), k.t[7], zr(i))
		k.sbox(zr(i))
	}
	k.external()
	ins("ADDQ $%d, SI", 8*k.width)
	ins("DECQ BX")
	ins("JNZ full")
	ins("TESTQ R10, R10")
	ins("JNZ done")
	ins("INCQ R10")
	ins("TESTQ DX, DX")
	ins("JZ half")
	asm.WriteString("partial:\n")
	t := k.t
	// x_1 + … + x_{t−1}, before the S-box of x_0, in four sums.
	for j := range 4 {
		ins("VMOVDQA64 %s, %s", zr(1+j), t[j])
	}
	for i := 5; i < k.width; i++ {
		k.add(t[(i-5)%4], zr(i), t[(i-5)%4])
	}
	k.add(t[0], t[1], t[0])
	k.add(t[2], t[3], t[2])
	k.add(t[0], t[2], t[6])
	ins("VPBROADCASTQ (R8), %s", t[7])
	k.add("Z0", t[7], "Z0")
	k.sbox("Z0")
	k.add(t[6], "Z0", t[6])
	for i := range k.width {
		ins("VPBROADCASTQ %d(R9), %s", 8*i, t[7])
		k.mul(zr(i), t[7], zr(i))
		k.add(zr(i), t[6], zr(i))
	}
	ins("ADDQ $8, R8")
	ins("DECQ DX")
	ins("JNZ partial")
	ins("JMP half")
	asm.WriteString("done:\n")
	// Canonical to Montgomery: x ← x·2^64 mod p.
	for j := range k.width {
		x := zr(j)
		ins("VPXORQ %s, %s, %s", k.t[2], k.t[2], k.t[2])
		ins("VMOVDQA64 %s, %s", x, k.t[1])
		k.reduce(k.t[1], k.t[2], x)
		ins("VMOVDQU64 %s, %d(DI)", x, 64*j)
	}
	ins("VZEROUPPER")
	ins("RET")
	asm.WriteString("\n")
}
