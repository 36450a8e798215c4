//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 kernels for the Goldilocks transforms: eight elements per 512-bit
// register. Each function behaves exactly like the generic function named in
// its comment (kernels_generic.go); kernels_amd64.go calls them only with
// the shapes they handle (multiples of eight, blocks of 16 for the 8-point
// kernels) and leaves the rest to the generic code.
//
// Registers: Z31 = P and Z30 = eps = 2^32 − 1 in every lane, for the whole
// function. Every value in and out is canonical (< P).
//
// Products. VPMULUDQ multiplies the low 32 bits of each lane, so x·w takes
// four of them on the halves (ll, lh, hl, hh); the 128-bit product is
//	t  = lh + ll>>32            (no carry: < 2^64)
//	t2 = hl + (t & eps)         (no carry)
//	hi = hh + t>>32 + t2>>32,  lo = t2<<32 | ll & eps,
// and REDUCE takes hi·2^64 + lo to lo − hh + hl·eps with hi = hh·2^32 + hl,
// as reduce in field.go does: a borrow of lo − hh is fixed by subtracting
// eps, a carry of the sum by adding eps, and the result is brought below P
// by min(r, r − P) (r − P wraps above r when r < P).
//
// Sums. ADDMOD computes a + b as a − (P − b), adding P back on a borrow;
// SUBMOD computes a − b, adding P back on a borrow. Both keep values
// canonical.

#define CONSTS \
	MOVQ         $0xffffffff00000001, AX; \
	VPBROADCASTQ AX, Z31; \
	MOVQ         $0xffffffff, AX; \
	VPBROADCASTQ AX, Z30

// REDUCE sets R = HI·2^64 + LO mod P. Clobbers LO, T1, T2, K1, K2.
#define REDUCE(HI, LO, R, T1, T2) \
	VPSRLQ   $32, HI, T1; \
	VPMULUDQ Z30, HI, T2; \
	VPCMPUQ  $1, T1, LO, K1; \
	VPSUBQ   T1, LO, LO; \
	VPSUBQ   Z30, LO, K1, LO; \
	VPADDQ   T2, LO, LO; \
	VPCMPUQ  $1, T2, LO, K2; \
	VPADDQ   Z30, LO, K2, LO; \
	VPSUBQ   Z31, LO, T1; \
	VPMINUQ  T1, LO, R

// MULMOD sets X = X·W mod P. Clobbers T1..T5, K1, K2; keeps W.
#define MULMOD(X, W, T1, T2, T3, T4, T5) \
	VPSRLQ     $32, X, T1; \
	VPSRLQ     $32, W, T2; \
	VPMULUDQ   W, X, T3; \
	VPMULUDQ   T2, X, T4; \
	VPMULUDQ   W, T1, T5; \
	VPMULUDQ   T2, T1, T1; \
	VPSRLQ     $32, T3, T2; \
	VPADDQ     T2, T4, T4; \
	VPANDQ     Z30, T4, T2; \
	VPADDQ     T2, T5, T5; \
	VPSRLQ     $32, T4, T4; \
	VPADDQ     T4, T1, T1; \
	VPSRLQ     $32, T5, T2; \
	VPADDQ     T2, T1, T1; \
	VPSLLQ     $32, T5, T5; \
	VPTERNLOGQ $0xF8, Z30, T3, T5; \
	REDUCE(T1, T5, X, T2, T3)

// ADDMOD sets R = A + B mod P. T must differ from A and R. Clobbers K3.
#define ADDMOD(A, B, R, T) \
	VPSUBQ  B, Z31, T; \
	VPCMPUQ $1, T, A, K3; \
	VPSUBQ  T, A, R; \
	VPADDQ  Z31, R, K3, R

// SUBMOD sets R = A − B mod P. Clobbers K4.
#define SUBMOD(A, B, R) \
	VPCMPUQ $1, B, A, K4; \
	VPSUBQ  B, A, R; \
	VPADDQ  Z31, R, K4, R

// REDUCE2 is REDUCE on two independent pairs, instruction by instruction
// interleaved so that the two dependency chains overlap.
#define REDUCE2(HI, LO, R, T1, T2, HIb, LOb, Rb, T1b, T2b) \
	VPSRLQ   $32, HI, T1; \
	VPSRLQ   $32, HIb, T1b; \
	VPMULUDQ Z30, HI, T2; \
	VPMULUDQ Z30, HIb, T2b; \
	VPCMPUQ  $1, T1, LO, K1; \
	VPCMPUQ  $1, T1b, LOb, K5; \
	VPSUBQ   T1, LO, LO; \
	VPSUBQ   T1b, LOb, LOb; \
	VPSUBQ   Z30, LO, K1, LO; \
	VPSUBQ   Z30, LOb, K5, LOb; \
	VPADDQ   T2, LO, LO; \
	VPADDQ   T2b, LOb, LOb; \
	VPCMPUQ  $1, T2, LO, K2; \
	VPCMPUQ  $1, T2b, LOb, K6; \
	VPADDQ   Z30, LO, K2, LO; \
	VPADDQ   Z30, LOb, K6, LOb; \
	VPSUBQ   Z31, LO, T1; \
	VPSUBQ   Z31, LOb, T1b; \
	VPMINUQ  T1, LO, R; \
	VPMINUQ  T1b, LOb, Rb

// MULMOD2 is MULMOD on two independent pairs (X, W) and (Xb, Wb),
// interleaved. Clobbers T1..T5, T1b..T5b, K1, K2, K5, K6.
#define MULMOD2(X, W, T1, T2, T3, T4, T5, Xb, Wb, T1b, T2b, T3b, T4b, T5b) \
	VPSRLQ     $32, X, T1; \
	VPSRLQ     $32, Xb, T1b; \
	VPSRLQ     $32, W, T2; \
	VPSRLQ     $32, Wb, T2b; \
	VPMULUDQ   W, X, T3; \
	VPMULUDQ   Wb, Xb, T3b; \
	VPMULUDQ   T2, X, T4; \
	VPMULUDQ   T2b, Xb, T4b; \
	VPMULUDQ   W, T1, T5; \
	VPMULUDQ   Wb, T1b, T5b; \
	VPMULUDQ   T2, T1, T1; \
	VPMULUDQ   T2b, T1b, T1b; \
	VPSRLQ     $32, T3, T2; \
	VPSRLQ     $32, T3b, T2b; \
	VPADDQ     T2, T4, T4; \
	VPADDQ     T2b, T4b, T4b; \
	VPANDQ     Z30, T4, T2; \
	VPANDQ     Z30, T4b, T2b; \
	VPADDQ     T2, T5, T5; \
	VPADDQ     T2b, T5b, T5b; \
	VPSRLQ     $32, T4, T4; \
	VPSRLQ     $32, T4b, T4b; \
	VPADDQ     T4, T1, T1; \
	VPADDQ     T4b, T1b, T1b; \
	VPSRLQ     $32, T5, T2; \
	VPSRLQ     $32, T5b, T2b; \
	VPADDQ     T2, T1, T1; \
	VPADDQ     T2b, T1b, T1b; \
	VPSLLQ     $32, T5, T5; \
	VPSLLQ     $32, T5b, T5b; \
	VPTERNLOGQ $0xF8, Z30, T3, T5; \
	VPTERNLOGQ $0xF8, Z30, T3b, T5b; \
	REDUCE2(T1, T5, X, T2, T3, T1b, T5b, Xb, T2b, T3b)

// ADDMOD2, SUBMOD2 and MUL48x2 are ADDMOD, SUBMOD and MUL48 on two
// independent operand sets, interleaved.
#define ADDMOD2(A, B, R, T, Ab, Bb, Rb, Tb) \
	VPSUBQ  B, Z31, T; \
	VPSUBQ  Bb, Z31, Tb; \
	VPCMPUQ $1, T, A, K3; \
	VPCMPUQ $1, Tb, Ab, K4; \
	VPSUBQ  T, A, R; \
	VPSUBQ  Tb, Ab, Rb; \
	VPADDQ  Z31, R, K3, R; \
	VPADDQ  Z31, Rb, K4, Rb

#define SUBMOD2(A, B, R, Ab, Bb, Rb) \
	VPCMPUQ $1, B, A, K3; \
	VPCMPUQ $1, Bb, Ab, K4; \
	VPSUBQ  B, A, R; \
	VPSUBQ  Bb, Ab, Rb; \
	VPADDQ  Z31, R, K3, R; \
	VPADDQ  Z31, Rb, K4, Rb

#define MUL48x2(X, T1, T2, T3, T4, Xb, T1b, T2b, T3b, T4b) \
	VPSRLQ $16, X, T1; \
	VPSRLQ $16, Xb, T1b; \
	VPSLLQ $48, X, T2; \
	VPSLLQ $48, Xb, T2b; \
	REDUCE2(T1, T2, X, T3, T4, T1b, T2b, Xb, T3b, T4b)

// DIF4X2 is the radix-4 DIF step of difRadix4AVX512 on two groups of eight
// columns, interleaved: x0..x3 in Z0..Z3 and Z8..Z11, twiddle operands
// (registers or memory) W1 = ω^j, W2 = ω^2j, W3 = ω^3j for each group. The
// results land in Z3, Z4, Z2, Z0 (x0, x1, x2, x3) and Z11, Z12, Z10, Z8.
#define DIF4X2(W1, W2, W3, W1b, W2b, W3b) \
	ADDMOD2(Z0, Z2, Z4, Z5, Z8, Z10, Z12, Z13); \
	SUBMOD2(Z0, Z2, Z0, Z8, Z10, Z8); \
	ADDMOD2(Z1, Z3, Z2, Z5, Z9, Z11, Z10, Z13); \
	SUBMOD2(Z1, Z3, Z1, Z9, Z11, Z9); \
	MUL48x2(Z1, Z16, Z17, Z18, Z19, Z9, Z21, Z22, Z23, Z24); \
	ADDMOD2(Z4, Z2, Z3, Z5, Z12, Z10, Z11, Z13); \
	SUBMOD2(Z4, Z2, Z4, Z12, Z10, Z12); \
	ADDMOD2(Z0, Z1, Z2, Z5, Z8, Z9, Z10, Z13); \
	SUBMOD2(Z0, Z1, Z0, Z8, Z9, Z8); \
	MULMOD2(Z4, W2, Z16, Z17, Z18, Z19, Z20, Z12, W2b, Z21, Z22, Z23, Z24, Z25); \
	MULMOD2(Z2, W1, Z16, Z17, Z18, Z19, Z20, Z10, W1b, Z21, Z22, Z23, Z24, Z25); \
	MULMOD2(Z0, W3, Z16, Z17, Z18, Z19, Z20, Z8, W3b, Z21, Z22, Z23, Z24, Z25)

// DIT4X2 is the radix-4 DIT step of ditRadix4AVX512 on two groups of eight
// columns, interleaved: x0..x3 in Z0..Z3 and Z8..Z11, twiddle operands W1
// (for x2), W2 (for x1), W3 (for x3) for each group. The results land in
// Z3, Z1, Z4, Z0 (x0, x1, x2, x3) and Z11, Z9, Z12, Z8.
#define DIT4X2(W1, W2, W3, W1b, W2b, W3b) \
	MULMOD2(Z1, W2, Z16, Z17, Z18, Z19, Z20, Z9, W2b, Z21, Z22, Z23, Z24, Z25); \
	MULMOD2(Z2, W1, Z16, Z17, Z18, Z19, Z20, Z10, W1b, Z21, Z22, Z23, Z24, Z25); \
	MULMOD2(Z3, W3, Z16, Z17, Z18, Z19, Z20, Z11, W3b, Z21, Z22, Z23, Z24, Z25); \
	ADDMOD2(Z0, Z1, Z4, Z5, Z8, Z9, Z12, Z13); \
	SUBMOD2(Z0, Z1, Z0, Z8, Z9, Z8); \
	ADDMOD2(Z2, Z3, Z1, Z5, Z10, Z11, Z9, Z13); \
	SUBMOD2(Z2, Z3, Z2, Z10, Z11, Z10); \
	MUL48x2(Z2, Z16, Z17, Z18, Z19, Z10, Z21, Z22, Z23, Z24); \
	ADDMOD2(Z4, Z1, Z3, Z5, Z12, Z9, Z11, Z13); \
	SUBMOD2(Z4, Z1, Z4, Z12, Z9, Z12); \
	ADDMOD2(Z0, Z2, Z1, Z5, Z8, Z10, Z9, Z13); \
	SUBMOD2(Z0, Z2, Z0, Z8, Z10, Z8)

// MUL48 sets X = X·2^48 mod P: X·2^48 = (X>>16)·2^64 + X<<48, reduced.
// Clobbers T1..T4, K1, K2.
#define MUL48(X, T1, T2, T3, T4) \
	VPSRLQ $16, X, T1; \
	VPSLLQ $48, X, T2; \
	REDUCE(T1, T2, X, T3, T4)

// func difRadix4AVX512(a []uint64, q, j0, j1 int, tw, tw3 []uint64, neg int)
// Like difRadix4Generic; q, j0 and j1 are multiples of 8. With ω = ω_{4q}
// and i = ω^q = ω_4 = ±2^48 (2^48 for the forward root, −2^48 for the
// inverse one, neg = 1):
//	a = x0 + x2, c = x0 − x2, b = x1 + x3, d = (x1 − x3)·i,
//	x0 = a + b, x1 = (a − b)·ω^2j, x2 = (c + d)·ω^j, x3 = (c − d)·ω^3j,
// the two radix-2 stages with three general products instead of four.
// ω^j = tw[2q+j], ω^2j = tw[q+j], ω^3j = tw3[q+j]. For neg = 1 the loads of
// x1 and x3 trade places, which turns (x1 − x3)·2^48 into (x1 − x3)·(−2^48)
// and leaves x1 + x3 alone.
TEXT ·difRadix4AVX512(SB), NOSPLIT, $0-104
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ q+24(FP), DX
	MOVQ j0+32(FP), R8
	MOVQ j1+40(FP), CX
	MOVQ tw_base+48(FP), R10
	MOVQ tw3_base+72(FP), R11
	LEAQ (BX)(R9*8), R9       // end of a
	SHLQ $3, DX               // q in bytes
	LEAQ (DX)(DX*2), R12      // 3q in bytes
	LEAQ (R10)(DX*1), R13     // ω^2j: tw[q:]
	LEAQ (R10)(DX*2), R10     // ω^j: tw[2q:]
	LEAQ (R11)(DX*1), R11     // ω^3j: tw3[q:]
	MOVQ DX, SI               // load offset of x1
	MOVQ R12, DI              // load offset of x3
	CMPQ neg+96(FP), $0
	JEQ  dif4q
	XCHGQ SI, DI

dif4q:
	// q = 8: one group of columns per block; interleave two blocks instead,
	// with the twiddles in registers.
	CMPQ      DX, $64
	JNE       dif4block
	VMOVDQU64 (R10), Z6
	VMOVDQU64 (R13), Z7
	VMOVDQU64 (R11), Z14

dif4q8:
	LEAQ      512(BX), R14
	CMPQ      R14, R9
	JA        dif4block
	VMOVDQU64 (BX), Z0
	VMOVDQU64 (BX)(SI*1), Z1
	VMOVDQU64 128(BX), Z2
	VMOVDQU64 (BX)(DI*1), Z3
	VMOVDQU64 256(BX), Z8
	VMOVDQU64 256(BX)(SI*1), Z9
	VMOVDQU64 384(BX), Z10
	VMOVDQU64 256(BX)(DI*1), Z11
	DIF4X2(Z6, Z7, Z14, Z6, Z7, Z14)
	VMOVDQU64 Z3, (BX)
	VMOVDQU64 Z4, 64(BX)
	VMOVDQU64 Z2, 128(BX)
	VMOVDQU64 Z0, 192(BX)
	VMOVDQU64 Z11, 256(BX)
	VMOVDQU64 Z12, 320(BX)
	VMOVDQU64 Z10, 384(BX)
	VMOVDQU64 Z8, 448(BX)
	MOVQ      R14, BX
	JMP       dif4q8

dif4block:
	CMPQ BX, R9
	JAE  dif4done
	MOVQ R8, AX

dif4loop:
	LEAQ      16(AX), R14
	CMPQ      R14, CX
	JA        dif4single
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(SI*1), Z1
	VMOVDQU64 (R14)(DX*2), Z2
	VMOVDQU64 (R14)(DI*1), Z3
	VMOVDQU64 64(R14), Z8
	VMOVDQU64 64(R14)(SI*1), Z9
	VMOVDQU64 64(R14)(DX*2), Z10
	VMOVDQU64 64(R14)(DI*1), Z11
	DIF4X2((R10)(AX*8), (R13)(AX*8), (R11)(AX*8), 64(R10)(AX*8), 64(R13)(AX*8), 64(R11)(AX*8))
	VMOVDQU64 Z3, (R14)
	VMOVDQU64 Z4, (R14)(DX*1)
	VMOVDQU64 Z2, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)
	VMOVDQU64 Z11, 64(R14)
	VMOVDQU64 Z12, 64(R14)(DX*1)
	VMOVDQU64 Z10, 64(R14)(DX*2)
	VMOVDQU64 Z8, 64(R14)(R12*1)
	ADDQ      $16, AX
	JMP       dif4loop

dif4single:
	// the last eight columns when (j1 − j0)/8 is odd
	CMPQ      AX, CX
	JAE       dif4next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(SI*1), Z1
	VMOVDQU64 (R14)(DX*2), Z2
	VMOVDQU64 (R14)(DI*1), Z3
	VMOVDQU64 (R10)(AX*8), Z4
	VMOVDQU64 (R13)(AX*8), Z5
	VMOVDQU64 (R11)(AX*8), Z6

	ADDMOD(Z0, Z2, Z7, Z16)     // a
	SUBMOD(Z0, Z2, Z0)          // c
	ADDMOD(Z1, Z3, Z8, Z21)     // b
	SUBMOD(Z1, Z3, Z1)
	MUL48(Z1, Z21, Z22, Z23, Z24) // d
	ADDMOD(Z7, Z8, Z9, Z16)     // x0
	SUBMOD(Z7, Z8, Z7)
	ADDMOD(Z0, Z1, Z10, Z21)
	SUBMOD(Z0, Z1, Z0)
	MULMOD2(Z7, Z5, Z16, Z17, Z18, Z19, Z20, Z10, Z4, Z21, Z22, Z23, Z24, Z25)
	MULMOD(Z0, Z6, Z16, Z17, Z18, Z19, Z20)

	VMOVDQU64 Z9, (R14)
	VMOVDQU64 Z7, (R14)(DX*1)
	VMOVDQU64 Z10, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)

dif4next:
	LEAQ (BX)(DX*4), BX
	JMP  dif4block

dif4done:
	VZEROUPPER
	RET

// func ditRadix4AVX512(a []uint64, q, j0, j1 int, tw, tw3 []uint64, neg int)
// Like ditRadix4Generic; q, j0 and j1 are multiples of 8. With X1 = x1·ω^2j,
// X2 = x2·ω^j, X3 = x3·ω^3j and i as in difRadix4AVX512:
//	s = x0 + X1, t = x0 − X1, u = X2 + X3, v = (X2 − X3)·i,
//	x0 = s + u, x2 = s − u, x1 = t + v, x3 = t − v.
// For neg = 1 the loads of x2 and x3 trade places and so do their twiddles,
// which swaps X2 and X3.
TEXT ·ditRadix4AVX512(SB), NOSPLIT, $0-104
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ q+24(FP), DX
	MOVQ j0+32(FP), R8
	MOVQ j1+40(FP), CX
	MOVQ tw_base+48(FP), R10
	MOVQ tw3_base+72(FP), R11
	LEAQ (BX)(R9*8), R9
	SHLQ $3, DX
	LEAQ (DX)(DX*2), R12
	LEAQ (R10)(DX*1), R13     // ω^2j
	LEAQ (R10)(DX*2), R10     // ω^j, for x2
	LEAQ (R11)(DX*1), R11     // ω^3j, for x3
	LEAQ (DX)(DX*1), SI       // load offset of x2
	MOVQ R12, DI              // load offset of x3
	CMPQ neg+96(FP), $0
	JEQ  dit4q
	XCHGQ SI, DI
	XCHGQ R10, R11

dit4q:
	// q = 8: interleave two blocks, twiddles in registers.
	CMPQ      DX, $64
	JNE       dit4block
	VMOVDQU64 (R10), Z6
	VMOVDQU64 (R13), Z7
	VMOVDQU64 (R11), Z14

dit4q8:
	LEAQ      512(BX), R14
	CMPQ      R14, R9
	JA        dit4block
	VMOVDQU64 (BX), Z0
	VMOVDQU64 64(BX), Z1
	VMOVDQU64 (BX)(SI*1), Z2
	VMOVDQU64 (BX)(DI*1), Z3
	VMOVDQU64 256(BX), Z8
	VMOVDQU64 320(BX), Z9
	VMOVDQU64 256(BX)(SI*1), Z10
	VMOVDQU64 256(BX)(DI*1), Z11
	DIT4X2(Z6, Z7, Z14, Z6, Z7, Z14)
	VMOVDQU64 Z3, (BX)
	VMOVDQU64 Z1, 64(BX)
	VMOVDQU64 Z4, 128(BX)
	VMOVDQU64 Z0, 192(BX)
	VMOVDQU64 Z11, 256(BX)
	VMOVDQU64 Z9, 320(BX)
	VMOVDQU64 Z12, 384(BX)
	VMOVDQU64 Z8, 448(BX)
	MOVQ      R14, BX
	JMP       dit4q8

dit4block:
	CMPQ BX, R9
	JAE  dit4done
	MOVQ R8, AX

dit4loop:
	LEAQ      16(AX), R14
	CMPQ      R14, CX
	JA        dit4single
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R14)(SI*1), Z2
	VMOVDQU64 (R14)(DI*1), Z3
	VMOVDQU64 64(R14), Z8
	VMOVDQU64 64(R14)(DX*1), Z9
	VMOVDQU64 64(R14)(SI*1), Z10
	VMOVDQU64 64(R14)(DI*1), Z11
	DIT4X2((R10)(AX*8), (R13)(AX*8), (R11)(AX*8), 64(R10)(AX*8), 64(R13)(AX*8), 64(R11)(AX*8))
	VMOVDQU64 Z3, (R14)
	VMOVDQU64 Z1, (R14)(DX*1)
	VMOVDQU64 Z4, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)
	VMOVDQU64 Z11, 64(R14)
	VMOVDQU64 Z9, 64(R14)(DX*1)
	VMOVDQU64 Z12, 64(R14)(DX*2)
	VMOVDQU64 Z8, 64(R14)(R12*1)
	ADDQ      $16, AX
	JMP       dit4loop

dit4single:
	// the last eight columns when (j1 − j0)/8 is odd
	CMPQ      AX, CX
	JAE       dit4next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R14)(SI*1), Z2
	VMOVDQU64 (R14)(DI*1), Z3
	VMOVDQU64 (R10)(AX*8), Z4
	VMOVDQU64 (R13)(AX*8), Z5
	VMOVDQU64 (R11)(AX*8), Z6

	MULMOD2(Z1, Z5, Z16, Z17, Z18, Z19, Z20, Z2, Z4, Z21, Z22, Z23, Z24, Z25)
	MULMOD(Z3, Z6, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z0, Z1, Z7, Z16)     // s
	SUBMOD(Z0, Z1, Z0)          // t
	ADDMOD(Z2, Z3, Z8, Z21)     // u
	SUBMOD(Z2, Z3, Z2)
	MUL48(Z2, Z21, Z22, Z23, Z24) // v
	ADDMOD(Z7, Z8, Z9, Z16)     // x0
	SUBMOD(Z7, Z8, Z7)          // x2
	ADDMOD(Z0, Z2, Z10, Z21)    // x1
	SUBMOD(Z0, Z2, Z0)          // x3

	VMOVDQU64 Z9, (R14)
	VMOVDQU64 Z10, (R14)(DX*1)
	VMOVDQU64 Z7, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)

dit4next:
	LEAQ (BX)(DX*4), BX
	JMP  dit4block

dit4done:
	VZEROUPPER
	RET

// func difRadix2AVX512(a []uint64, m int, tw []uint64)
// Like difRadix2Generic; m is a multiple of 8.
TEXT ·difRadix2AVX512(SB), NOSPLIT, $0-56
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ m+24(FP), DX
	MOVQ tw_base+32(FP), DI
	LEAQ (BX)(R9*8), R9
	MOVQ DX, CX               // m
	SHLQ $3, DX               // m in bytes
	LEAQ (DI)(DX*1), R10      // t = tw[m:]

dif2block:
	CMPQ BX, R9
	JAE  dif2done
	XORQ AX, AX

dif2loop:
	CMPQ      AX, CX
	JAE       dif2next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R10)(AX*8), Z4
	ADDMOD(Z0, Z1, Z7, Z16)
	SUBMOD(Z0, Z1, Z0)
	MULMOD(Z0, Z4, Z16, Z17, Z18, Z19, Z20)
	VMOVDQU64 Z7, (R14)
	VMOVDQU64 Z0, (R14)(DX*1)
	ADDQ      $8, AX
	JMP       dif2loop

dif2next:
	LEAQ (BX)(DX*2), BX
	JMP  dif2block

dif2done:
	VZEROUPPER
	RET

// func ditRadix2AVX512(a []uint64, m int, tw []uint64)
// Like ditRadix2Generic; m is a multiple of 8.
TEXT ·ditRadix2AVX512(SB), NOSPLIT, $0-56
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ m+24(FP), DX
	MOVQ tw_base+32(FP), DI
	LEAQ (BX)(R9*8), R9
	MOVQ DX, CX
	SHLQ $3, DX
	LEAQ (DI)(DX*1), R10

dit2block:
	CMPQ BX, R9
	JAE  dit2done
	XORQ AX, AX

dit2loop:
	CMPQ      AX, CX
	JAE       dit2next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R10)(AX*8), Z4
	MULMOD(Z1, Z4, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z0, Z1, Z7, Z16)
	SUBMOD(Z0, Z1, Z0)
	VMOVDQU64 Z7, (R14)
	VMOVDQU64 Z0, (R14)(DX*1)
	ADDQ      $8, AX
	JMP       dit2loop

dit2next:
	LEAQ (BX)(DX*2), BX
	JMP  dit2block

dit2done:
	VZEROUPPER
	RET

// The 8-point kernels (the three smallest stages) work on eight blocks of
// eight at a time: an 8×8 transpose puts element k of every block in Z8+k
// (C0..C7), the stages run between whole registers, and a second transpose
// puts the blocks back. Their twiddles are the 8th and 4th roots of unity,
// which in this field are powers of two: ω_8 = 2^120 = −2^24, ω_8^2 = 2^48,
// ω_8^3 = −2^72, ω_4 = 2^48 for the forward root, and ω_8^−1 = 2^72,
// ω_8^−2 = −2^48, ω_8^−3 = 2^24, ω_4^−1 = −2^48 for the inverse one
// (2^96 ≡ −1). So their products are shifts and one reduction (MUL24, MUL48,
// MUL72), and a negative root swaps the butterfly's subtraction.

// TRANSPOSE8 transposes the 8×8 matrix whose rows are R0..R7 (one block of
// eight per register) into T0..T7 (T_k = element k of every block).
// Clobbers R0..R7.
#define TRANSPOSE8(R0, R1, R2, R3, R4, R5, R6, R7, T0, T1, T2, T3, T4, T5, T6, T7) \
	VPUNPCKLQDQ R1, R0, T0; \
	VPUNPCKHQDQ R1, R0, T1; \
	VPUNPCKLQDQ R3, R2, T2; \
	VPUNPCKHQDQ R3, R2, T3; \
	VPUNPCKLQDQ R5, R4, T4; \
	VPUNPCKHQDQ R5, R4, T5; \
	VPUNPCKLQDQ R7, R6, T6; \
	VPUNPCKHQDQ R7, R6, T7; \
	VSHUFI64X2  $0x88, T2, T0, R0; \
	VSHUFI64X2  $0xDD, T2, T0, R1; \
	VSHUFI64X2  $0x88, T3, T1, R2; \
	VSHUFI64X2  $0xDD, T3, T1, R3; \
	VSHUFI64X2  $0x88, T6, T4, R4; \
	VSHUFI64X2  $0xDD, T6, T4, R5; \
	VSHUFI64X2  $0x88, T7, T5, R6; \
	VSHUFI64X2  $0xDD, T7, T5, R7; \
	VSHUFI64X2  $0x88, R4, R0, T0; \
	VSHUFI64X2  $0xDD, R4, R0, T4; \
	VSHUFI64X2  $0x88, R5, R1, T2; \
	VSHUFI64X2  $0xDD, R5, R1, T6; \
	VSHUFI64X2  $0x88, R6, R2, T1; \
	VSHUFI64X2  $0xDD, R6, R2, T5; \
	VSHUFI64X2  $0x88, R7, R3, T3; \
	VSHUFI64X2  $0xDD, R7, R3, T7

// MUL24 sets X = X·2^24 mod P: X·2^24 = (X>>40)·2^64 + X<<24.
#define MUL24(X) \
	VPSRLQ $40, X, Z18; \
	VPSLLQ $24, X, Z19; \
	REDUCE(Z18, Z19, X, Z20, Z21)

// MUL48S is MUL48 with the 8-point kernels' scratch registers.
#define MUL48S(X) \
	VPSRLQ $16, X, Z18; \
	VPSLLQ $48, X, Z19; \
	REDUCE(Z18, Z19, X, Z20, Z21)

// MUL72 sets X = X·2^72 mod P: X·2^72 = (X>>56)·2^128 + (X<<8)·2^64 and
// 2^128 ≡ −2^32, so X·2^72 ≡ (X<<8)·2^64 − (X>>56)·2^32.
#define MUL72(X) \
	VPSLLQ $8, X, Z18; \
	VPSRLQ $56, X, Z22; \
	VPSLLQ $32, Z22, Z22; \
	VPXORQ Z19, Z19, Z19; \
	REDUCE(Z18, Z19, X, Z20, Z21); \
	SUBMOD(X, Z22, X)

// BF sets (A, B) = (A + B, A − B); BFR sets (A, B) = (A + B, B − A); BFX
// sets (A, B) = (A − B, A + B).
#define BF(A, B) \
	ADDMOD(A, B, Z16, Z17); \
	SUBMOD(A, B, B); \
	VMOVDQA64 Z16, A

#define BFR(A, B) \
	ADDMOD(A, B, Z16, Z17); \
	SUBMOD(B, A, B); \
	VMOVDQA64 Z16, A

#define BFX(A, B) \
	ADDMOD(A, B, Z16, Z17); \
	SUBMOD(A, B, A); \
	VMOVDQA64 Z16, B

// The three DIF stages (half-sizes 4, 2, 1) on C0..C7 = Z8..Z15, forward
// and inverse roots.
#define DIF8FWD \
	BF(Z8, Z12); \
	BFR(Z9, Z13); MUL24(Z13); \
	BF(Z10, Z14); MUL48S(Z14); \
	BFR(Z11, Z15); MUL72(Z15); \
	BF(Z8, Z10); \
	BF(Z9, Z11); MUL48S(Z11); \
	BF(Z12, Z14); \
	BF(Z13, Z15); MUL48S(Z15); \
	BF(Z8, Z9); BF(Z10, Z11); BF(Z12, Z13); BF(Z14, Z15)

#define DIF8INV \
	BF(Z8, Z12); \
	BF(Z9, Z13); MUL72(Z13); \
	BFR(Z10, Z14); MUL48S(Z14); \
	BF(Z11, Z15); MUL24(Z15); \
	BF(Z8, Z10); \
	BFR(Z9, Z11); MUL48S(Z11); \
	BF(Z12, Z14); \
	BFR(Z13, Z15); MUL48S(Z15); \
	BF(Z8, Z9); BF(Z10, Z11); BF(Z12, Z13); BF(Z14, Z15)

// The three DIT stages (half-sizes 1, 2, 4), one macro per stage.
#define DIT8S1 \
	BF(Z8, Z9); BF(Z10, Z11); BF(Z12, Z13); BF(Z14, Z15)

#define DIT8S2FWD \
	BF(Z8, Z10); \
	MUL48S(Z11); BF(Z9, Z11); \
	BF(Z12, Z14); \
	MUL48S(Z15); BF(Z13, Z15)

#define DIT8S4FWD \
	BF(Z8, Z12); \
	MUL24(Z13); BFX(Z9, Z13); \
	MUL48S(Z14); BF(Z10, Z14); \
	MUL72(Z15); BFX(Z11, Z15)

#define DIT8S2INV \
	BF(Z8, Z10); \
	MUL48S(Z11); BFX(Z9, Z11); \
	BF(Z12, Z14); \
	MUL48S(Z15); BFX(Z13, Z15)

#define DIT8S4INV \
	BF(Z8, Z12); \
	MUL72(Z13); BF(Z9, Z13); \
	MUL48S(Z14); BFX(Z10, Z14); \
	MUL24(Z15); BF(Z11, Z15)

#define LOAD8 \
	VMOVDQU64 (BX), Z0; \
	VMOVDQU64 64(BX), Z1; \
	VMOVDQU64 128(BX), Z2; \
	VMOVDQU64 192(BX), Z3; \
	VMOVDQU64 256(BX), Z4; \
	VMOVDQU64 320(BX), Z5; \
	VMOVDQU64 384(BX), Z6; \
	VMOVDQU64 448(BX), Z7

#define STORE8 \
	VMOVDQU64 Z0, (BX); \
	VMOVDQU64 Z1, 64(BX); \
	VMOVDQU64 Z2, 128(BX); \
	VMOVDQU64 Z3, 192(BX); \
	VMOVDQU64 Z4, 256(BX); \
	VMOVDQU64 Z5, 320(BX); \
	VMOVDQU64 Z6, 384(BX); \
	VMOVDQU64 Z7, 448(BX)

#define FORWARD TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
#define BACK TRANSPOSE8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)

// func difTailAVX512(a []uint64, inv int)
// Like difTailGeneric with the forward (inv = 0) or inverse (inv = 1)
// roots; len(a) is a multiple of 64.
TEXT ·difTailAVX512(SB), NOSPLIT, $0-32
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	LEAQ (BX)(R9*8), R9
	CMPQ inv+24(FP), $0
	JNE  diftailinv

diftailfwd:
	CMPQ BX, R9
	JAE  diftaildone
	LOAD8
	FORWARD
	DIF8FWD
	BACK
	STORE8
	ADDQ $512, BX
	JMP  diftailfwd

diftailinv:
	CMPQ BX, R9
	JAE  diftaildone
	LOAD8
	FORWARD
	DIF8INV
	BACK
	STORE8
	ADDQ $512, BX
	JMP  diftailinv

diftaildone:
	VZEROUPPER
	RET

// DITHEADLOOP is one loop of ditHeadAVX512 running STAGES on every eight
// blocks, labels prefixed with L.
#define DITHEADLOOP(L, STAGES) \
L: \
	CMPQ BX, R9; \
	JAE  ditheaddone; \
	LOAD8; \
	FORWARD; \
	STAGES; \
	BACK; \
	STORE8; \
	ADDQ $512, BX; \
	JMP  L

// func ditHeadAVX512(a []uint64, inv, skip int)
// Like ditHeadGeneric with the forward (inv = 0) or inverse (inv = 1)
// roots, leaving out the first skip stages (0 ≤ skip ≤ 2); len(a) is a
// multiple of 64.
TEXT ·ditHeadAVX512(SB), NOSPLIT, $0-40
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	LEAQ (BX)(R9*8), R9
	MOVQ inv+24(FP), AX
	SHLQ $2, AX
	ADDQ skip+32(FP), AX      // 4·inv + skip
	CMPQ AX, $0
	JEQ  dithf0
	CMPQ AX, $1
	JEQ  dithf1
	CMPQ AX, $2
	JEQ  dithf2
	CMPQ AX, $4
	JEQ  dithi0
	CMPQ AX, $5
	JEQ  dithi1
	JMP  dithi2

	DITHEADLOOP(dithf0, DIT8S1; DIT8S2FWD; DIT8S4FWD)
	DITHEADLOOP(dithf1, DIT8S2FWD; DIT8S4FWD)
	DITHEADLOOP(dithf2, DIT8S4FWD)
	DITHEADLOOP(dithi0, DIT8S1; DIT8S2INV; DIT8S4INV)
	DITHEADLOOP(dithi1, DIT8S2INV; DIT8S4INV)
	DITHEADLOOP(dithi2, DIT8S4INV)

ditheaddone:
	VZEROUPPER
	RET

// Index vectors for replicateAVX512: lane k takes source value k>>logB.
DATA ·repIdx2+0(SB)/8, $0
DATA ·repIdx2+8(SB)/8, $0
DATA ·repIdx2+16(SB)/8, $1
DATA ·repIdx2+24(SB)/8, $1
DATA ·repIdx2+32(SB)/8, $2
DATA ·repIdx2+40(SB)/8, $2
DATA ·repIdx2+48(SB)/8, $3
DATA ·repIdx2+56(SB)/8, $3
GLOBL ·repIdx2(SB), RODATA|NOPTR, $64

DATA ·repIdx4+0(SB)/8, $0
DATA ·repIdx4+8(SB)/8, $0
DATA ·repIdx4+16(SB)/8, $0
DATA ·repIdx4+24(SB)/8, $0
DATA ·repIdx4+32(SB)/8, $1
DATA ·repIdx4+40(SB)/8, $1
DATA ·repIdx4+48(SB)/8, $1
DATA ·repIdx4+56(SB)/8, $1
GLOBL ·repIdx4(SB), RODATA|NOPTR, $64

// func replicateAVX512(dst, src []uint64, logB int)
// Like replicateGeneric for 1 ≤ logB ≤ 4; len(dst) = len(src)<<logB is a
// multiple of 8. For logB = 1, 2 each 64-byte store takes 8>>logB source
// values through a masked load (no read past src) and VPERMQ; for logB = 3,
// 4 each source value is broadcast to 1 or 2 stores.
TEXT ·replicateAVX512(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R9
	MOVQ src_base+24(FP), SI
	MOVQ logB+48(FP), CX
	LEAQ (DI)(R9*8), R9
	CMPQ CX, $3
	JAE  repbcast
	MOVQ $0x0f, AX
	VMOVDQU64 ·repIdx2(SB), Z1
	MOVQ $32, DX              // source bytes per store
	CMPQ CX, $1
	JEQ  repperm
	MOVQ $0x03, AX
	VMOVDQU64 ·repIdx4(SB), Z1
	MOVQ $16, DX

repperm:
	KMOVW AX, K1

repploop:
	CMPQ          DI, R9
	JAE           repdone
	VMOVDQU64.Z   (SI), K1, Z0
	VPERMQ        Z0, Z1, Z2
	VMOVDQU64     Z2, (DI)
	ADDQ          $64, DI
	ADDQ          DX, SI
	JMP           repploop

repbcast:
	CMPQ CX, $3
	JNE  repb16

repb8:
	CMPQ         DI, R9
	JAE          repdone
	VPBROADCASTQ (SI), Z0
	VMOVDQU64    Z0, (DI)
	ADDQ         $64, DI
	ADDQ         $8, SI
	JMP          repb8

repb16:
	CMPQ         DI, R9
	JAE          repdone
	VPBROADCASTQ (SI), Z0
	VMOVDQU64    Z0, (DI)
	VMOVDQU64    Z0, 64(DI)
	ADDQ         $128, DI
	ADDQ         $8, SI
	JMP          repb16

repdone:
	VZEROUPPER
	RET

// func bitrevTilesAVX512(x, y *uint64, stride int)
// Like bitrevTilesGeneric: row h of a tile is loaded into register
// rev3(h), so that after TRANSPOSE8 register l holds new row rev3(l) of the
// other tile, stored there. x and y may be equal.
TEXT ·bitrevTilesAVX512(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ stride+16(FP), DX
	SHLQ $3, DX                   // stride in bytes
	LEAQ (DX)(DX*2), R8           // 3·stride
	LEAQ (DX)(DX*4), R9           // 5·stride
	LEAQ (R8)(R8*1), R10          // 6·stride
	LEAQ (R9)(DX*2), R11          // 7·stride
	// rows h -> registers rev3(h): 0→0, 1→4, 2→2, 3→6, 4→1, 5→5, 6→3, 7→7
	VMOVDQU64 (SI), Z0
	VMOVDQU64 (SI)(DX*1), Z4
	VMOVDQU64 (SI)(DX*2), Z2
	VMOVDQU64 (SI)(R8*1), Z6
	VMOVDQU64 (SI)(DX*4), Z1
	VMOVDQU64 (SI)(R9*1), Z5
	VMOVDQU64 (SI)(R10*1), Z3
	VMOVDQU64 (SI)(R11*1), Z7
	VMOVDQU64 (DI), Z16
	VMOVDQU64 (DI)(DX*1), Z20
	VMOVDQU64 (DI)(DX*2), Z18
	VMOVDQU64 (DI)(R8*1), Z22
	VMOVDQU64 (DI)(DX*4), Z17
	VMOVDQU64 (DI)(R9*1), Z21
	VMOVDQU64 (DI)(R10*1), Z19
	VMOVDQU64 (DI)(R11*1), Z23
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	TRANSPOSE8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31)
	// register l -> row rev3(l) of the other tile
	VMOVDQU64 Z8, (DI)
	VMOVDQU64 Z9, (DI)(DX*4)
	VMOVDQU64 Z10, (DI)(DX*2)
	VMOVDQU64 Z11, (DI)(R10*1)
	VMOVDQU64 Z12, (DI)(DX*1)
	VMOVDQU64 Z13, (DI)(R9*1)
	VMOVDQU64 Z14, (DI)(R8*1)
	VMOVDQU64 Z15, (DI)(R11*1)
	VMOVDQU64 Z24, (SI)
	VMOVDQU64 Z25, (SI)(DX*4)
	VMOVDQU64 Z26, (SI)(DX*2)
	VMOVDQU64 Z27, (SI)(R10*1)
	VMOVDQU64 Z28, (SI)(DX*1)
	VMOVDQU64 Z29, (SI)(R9*1)
	VMOVDQU64 Z30, (SI)(R8*1)
	VMOVDQU64 Z31, (SI)(R11*1)
	VZEROUPPER
	RET

// func mulVecAVX512(a, b []uint64)
// Like mulVecGeneric; len(a) is a multiple of 8 and len(b) ≥ len(a).
TEXT ·mulVecAVX512(SB), NOSPLIT, $0-48
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ b_base+24(FP), SI
	LEAQ (BX)(R9*8), R9

mulvecloop:
	CMPQ      BX, R9
	JAE       mulvecdone
	VMOVDQU64 (BX), Z0
	VMOVDQU64 (SI), Z1
	MULMOD(Z0, Z1, Z16, Z17, Z18, Z19, Z20)
	VMOVDQU64 Z0, (BX)
	ADDQ      $64, BX
	ADDQ      $64, SI
	JMP       mulvecloop

mulvecdone:
	VZEROUPPER
	RET

// func scaleVecAVX512(a []uint64, c uint64)
// Like scaleVecGeneric; len(a) is a multiple of 8.
TEXT ·scaleVecAVX512(SB), NOSPLIT, $0-32
	CONSTS
	MOVQ         a_base+0(FP), BX
	MOVQ         a_len+8(FP), R9
	MOVQ         c+24(FP), AX
	VPBROADCASTQ AX, Z1
	LEAQ         (BX)(R9*8), R9

scaleloop:
	CMPQ      BX, R9
	JAE       scaledone
	VMOVDQU64 (BX), Z0
	MULMOD(Z0, Z1, Z16, Z17, Z18, Z19, Z20)
	VMOVDQU64 Z0, (BX)
	ADDQ      $64, BX
	JMP       scaleloop

scaledone:
	VZEROUPPER
	RET
