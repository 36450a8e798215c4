//go:build amd64 && !purego

#include "textflag.h"

// GF(2^64) kernels for amd64: PCLMULQDQ (SSE, two products per 128-bit
// register) and AVX-512 VPCLMULQDQ (eight products per pair of 512-bit
// registers). Each function behaves exactly like the generic function named in
// its comment; gf64_amd64.go checks lengths and calls them only with equal,
// non-overlapping (or exactly aliased, where documented) slices.
//
// Reduction. A carry-less product is lo + hi·x^64 with x^64 = 0x1b (mod P).
// T = hi·0x1b has at most 68 bits: T = tl + th·x^64 with th < 16, and
// th·0x1b < 256 needs no further reduction. So
//	a·b = lo ^ tl ^ th·0x1b.
// Two ways to compute it are used side by side (REDUCE2/REDUCE8 and
// REDUCE2P/REDUCE8P), so that the carry-less multiplier, which sits on one
// port, and the shift and logic units, on others, share the work:
//   - with carry-less multiplications, keeping the 128-bit lane layout of
//     PCLMULQDQ as it comes: the product of the even (or odd) qwords of a
//     lane lands as [lo, hi], T = clmul(P.hi, 0x1b) as [tl, th] and
//     U = clmul(T.hi, 0x1b) as [u, 0]; the low qword of P ^ T ^ U is the
//     reduced product, and one unpack puts even and odd results in order;
//   - with shifts: tl = hi ^ hi<<1 ^ hi<<3 ^ hi<<4 (mod x^64), and th·0x1b
//     depends only on the top four bits of hi, so it comes from a 16-entry
//     byte table with (V)PSHUFB.
// Every kernel is tested against a bit-by-bit reference on all paths.

// ---------------------------------------------------------------------------
// PCLMULQDQ (SSE) kernels. X15 holds 0x1b in its low qword; X14 holds the
// constant c in both qwords.

// REDUCE2 reduces the even-qword product E and the odd-qword product O of one
// lane and leaves the two results, in order, in E. Clobbers O, T0, T1.
#define REDUCE2(E, O, T0, T1) \
	MOVO       E, T0; \
	PCLMULQDQ  $0x01, X15, T0; \
	MOVO       O, T1; \
	PCLMULQDQ  $0x01, X15, T1; \
	PXOR       T0, E; \
	PXOR       T1, O; \
	PCLMULQDQ  $0x01, X15, T0; \
	PCLMULQDQ  $0x01, X15, T1; \
	PXOR       T0, E; \
	PXOR       T1, O; \
	PUNPCKLQDQ O, E

// REDUCE2P does what REDUCE2 does with one carry-less multiplication fewer
// per product. It separates the low halves L and high halves H of the two
// products and uses
//	lo + hi·x^64 = L ^ H ^ H<<1 ^ H<<3 ^ H<<4 ^ g(H>>60),
// where g(t) = (t ^ t>>1 ^ t>>3)·0x1b < 256 is the second reduction step for
// the top four bits t of H (they spill past x^63 in hi·0x1b), looked up with
// PSHUFB in the 16-byte reduceTable (gf64_amd64.go), kept in X13. The main loops reduce one
// pair with REDUCE2 and the next with REDUCE2P, so that the carry-less
// multiplier and the shift, shuffle and logic units share the work (measured
// faster than either alone). Clobbers O, T0, T1, T2.
#define REDUCE2P(E, O, T0, T1, T2) \
	MOVO       E, T0; \
	PUNPCKLQDQ O, E; \
	PUNPCKHQDQ O, T0; \
	PXOR       T0, E; \
	MOVO       T0, T1; \
	PSRLQ      $60, T1; \
	MOVO       X13, T2; \
	PSHUFB     T1, T2; \
	PXOR       T2, E; \
	MOVO       T0, T1; \
	PSLLQ      $1, T1; \
	PXOR       T1, E; \
	PSLLQ      $3, T0; \
	PXOR       T0, E; \
	PSLLQ      $1, T0; \
	PXOR       T0, E

// MUL2P is MUL2 reducing with REDUCE2P. Clobbers A, B, T0, T1.
#define MUL2P(A, B, E, T0, T1) \
	MOVO      A, E; \
	PCLMULQDQ $0x00, B, E; \
	PCLMULQDQ $0x11, B, A; \
	REDUCE2P(E, A, T0, T1, B)

// REDUCE1 reduces the product in P; the result is P's low qword. Clobbers T.
#define REDUCE1(P, T) \
	MOVO      P, T; \
	PCLMULQDQ $0x01, X15, T; \
	PXOR      T, P; \
	PCLMULQDQ $0x01, X15, T; \
	PXOR      T, P

// MUL2 sets E = A·B for the two qwords of A and B. Clobbers A, B, T0.
#define MUL2(A, B, E, T0) \
	MOVO      A, E; \
	PCLMULQDQ $0x00, B, E; \
	PCLMULQDQ $0x11, B, A; \
	REDUCE2(E, A, T0, B)

// MULC2 sets E = A·c for the two qwords of A (c in X14). Clobbers T0, T1, T2;
// keeps A.
#define MULC2(A, E, T0, T1, T2) \
	MOVO      A, E; \
	PCLMULQDQ $0x00, X14, E; \
	MOVO      A, T0; \
	PCLMULQDQ $0x01, X14, T0; \
	REDUCE2(E, T0, T1, T2)

// MULC2P is MULC2 reducing with REDUCE2P. Clobbers T0..T3; keeps A.
#define MULC2P(A, E, T0, T1, T2, T3) \
	MOVO      A, E; \
	PCLMULQDQ $0x00, X14, E; \
	MOVO      A, T0; \
	PCLMULQDQ $0x01, X14, T0; \
	REDUCE2P(E, T0, T1, T2, T3)

// MULC1 sets P = P·c for the low qword of P (c in X14). Clobbers T.
#define MULC1(P, T) \
	PCLMULQDQ $0x00, X14, P; \
	REDUCE1(P, T)

#define LOADK \
	MOVQ $0x1b, AX; \
	MOVQ AX, X15

#define LOADC(off) \
	MOVQ       off(FP), X14; \
	PUNPCKLQDQ X14, X14

// func mulPCLMUL(a, b Element) Element
// Behaves like mulGeneric.
TEXT ·mulPCLMUL(SB), NOSPLIT, $0-24
	MOVQ      a+0(FP), X0
	MOVQ      b+8(FP), X1
	LOADK
	PCLMULQDQ $0x00, X1, X0
	REDUCE1(X0, X2)
	MOVQ      X0, ret+16(FP)
	RET

// func squareNPCLMUL(a Element, n int) Element
// Behaves like n calls of squareGeneric (SquareN); n <= 0 returns a.
TEXT ·squareNPCLMUL(SB), NOSPLIT, $0-24
	MOVQ  a+0(FP), X0
	MOVQ  n+8(FP), CX
	LOADK
	TESTQ CX, CX
	JLE   sq_done

sq_loop:
	PCLMULQDQ $0x00, X0, X0
	REDUCE1(X0, X2)
	DECQ      CX
	JNZ       sq_loop

sq_done:
	MOVQ X0, ret+16(FP)
	RET

// func mulVecPCLMUL(dst, a, b []Element)
// Behaves like mulVecGeneric.
TEXT ·mulVecPCLMUL(SB), NOSPLIT, $0-72
	MOVOU ·reduceTable(SB), X13
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	LOADK

mv_p_loop4:
	CMPQ   CX, $4
	JB     mv_p_tail2
	MOVOU  (SI), X0
	MOVOU  (DX), X1
	MOVOU  16(SI), X4
	MOVOU  16(DX), X5
	MUL2(X0, X1, X2, X3)
	MUL2P(X4, X5, X6, X7, X8)
	MOVOU  X2, (DI)
	MOVOU  X6, 16(DI)
	ADDQ   $32, SI
	ADDQ   $32, DX
	ADDQ   $32, DI
	SUBQ   $4, CX
	JMP    mv_p_loop4

mv_p_tail2:
	CMPQ  CX, $2
	JB    mv_p_tail1
	MOVOU (SI), X0
	MOVOU (DX), X1
	MUL2(X0, X1, X2, X3)
	MOVOU X2, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DX
	ADDQ  $16, DI
	SUBQ  $2, CX

mv_p_tail1:
	TESTQ     CX, CX
	JZ        mv_p_done
	MOVQ      (SI), X0
	MOVQ      (DX), X1
	PCLMULQDQ $0x00, X1, X0
	REDUCE1(X0, X2)
	MOVQ      X0, (DI)

mv_p_done:
	RET

// func scaleVecPCLMUL(dst, a []Element, c Element)
// Behaves like scaleVecGeneric.
TEXT ·scaleVecPCLMUL(SB), NOSPLIT, $0-56
	MOVOU ·reduceTable(SB), X13
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	LOADK
	LOADC(c+48)

sv_p_loop4:
	CMPQ  CX, $4
	JB    sv_p_tail2
	MOVOU (SI), X0
	MOVOU 16(SI), X4
	MULC2(X0, X2, X1, X3, X8)
	MULC2P(X4, X6, X5, X7, X9, X12)
	MOVOU X2, (DI)
	MOVOU X6, 16(DI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	JMP   sv_p_loop4

sv_p_tail2:
	CMPQ  CX, $2
	JB    sv_p_tail1
	MOVOU (SI), X0
	MULC2(X0, X2, X1, X3, X8)
	MOVOU X2, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $2, CX

sv_p_tail1:
	TESTQ CX, CX
	JZ    sv_p_done
	MOVQ  (SI), X0
	MULC1(X0, X2)
	MOVQ  X0, (DI)

sv_p_done:
	RET

// func mulAddVecPCLMUL(dst, a []Element, c Element)
// Behaves like mulAddVecGeneric.
TEXT ·mulAddVecPCLMUL(SB), NOSPLIT, $0-56
	MOVOU ·reduceTable(SB), X13
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	LOADK
	LOADC(c+48)

ma_p_loop4:
	CMPQ  CX, $4
	JB    ma_p_tail2
	MOVOU (SI), X0
	MOVOU 16(SI), X4
	MULC2(X0, X2, X1, X3, X8)
	MULC2P(X4, X6, X5, X7, X9, X12)
	MOVOU (DI), X10
	MOVOU 16(DI), X11
	PXOR  X10, X2
	PXOR  X11, X6
	MOVOU X2, (DI)
	MOVOU X6, 16(DI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	JMP   ma_p_loop4

ma_p_tail2:
	CMPQ  CX, $2
	JB    ma_p_tail1
	MOVOU (SI), X0
	MULC2(X0, X2, X1, X3, X8)
	MOVOU (DI), X10
	PXOR  X10, X2
	MOVOU X2, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $2, CX

ma_p_tail1:
	TESTQ CX, CX
	JZ    ma_p_done
	MOVQ  (SI), X0
	MULC1(X0, X2)
	MOVQ  (DI), X10
	PXOR  X10, X0
	MOVQ  X0, (DI)

ma_p_done:
	RET

// func butterflyPCLMUL(u, v []Element, c Element)
// Behaves like butterflyGeneric: u ^= c·v, then v ^= u.
TEXT ·butterflyPCLMUL(SB), NOSPLIT, $0-56
	MOVOU ·reduceTable(SB), X13
	MOVQ u_base+0(FP), DI
	MOVQ u_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	LOADK
	LOADC(c+48)

bf_p_loop4:
	CMPQ  CX, $4
	JB    bf_p_tail2
	MOVOU (SI), X0
	MOVOU 16(SI), X4
	MULC2(X0, X2, X1, X3, X8)
	MULC2P(X4, X6, X5, X7, X9, X12)
	MOVOU (DI), X10
	MOVOU 16(DI), X11
	PXOR  X10, X2
	PXOR  X11, X6
	PXOR  X2, X0
	PXOR  X6, X4
	MOVOU X2, (DI)
	MOVOU X6, 16(DI)
	MOVOU X0, (SI)
	MOVOU X4, 16(SI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	JMP   bf_p_loop4

bf_p_tail2:
	CMPQ  CX, $2
	JB    bf_p_tail1
	MOVOU (SI), X0
	MULC2(X0, X2, X1, X3, X8)
	MOVOU (DI), X10
	PXOR  X10, X2
	PXOR  X2, X0
	MOVOU X2, (DI)
	MOVOU X0, (SI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $2, CX

bf_p_tail1:
	TESTQ CX, CX
	JZ    bf_p_done
	MOVQ  (SI), X0
	MOVO  X0, X4
	MULC1(X0, X2)
	MOVQ  (DI), X10
	PXOR  X10, X0
	PXOR  X0, X4
	MOVQ  X0, (DI)
	MOVQ  X4, (SI)

bf_p_done:
	RET

// func invButterflyPCLMUL(u, v []Element, c Element)
// Behaves like invButterflyGeneric: v ^= u, then u ^= c·v.
TEXT ·invButterflyPCLMUL(SB), NOSPLIT, $0-56
	MOVOU ·reduceTable(SB), X13
	MOVQ u_base+0(FP), DI
	MOVQ u_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	LOADK
	LOADC(c+48)

ib_p_loop4:
	CMPQ  CX, $4
	JB    ib_p_tail2
	MOVOU (SI), X0
	MOVOU 16(SI), X4
	MOVOU (DI), X10
	MOVOU 16(DI), X11
	PXOR  X10, X0
	PXOR  X11, X4
	MULC2(X0, X2, X1, X3, X8)
	MULC2P(X4, X6, X5, X7, X9, X12)
	PXOR  X10, X2
	PXOR  X11, X6
	MOVOU X2, (DI)
	MOVOU X6, 16(DI)
	MOVOU X0, (SI)
	MOVOU X4, 16(SI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	JMP   ib_p_loop4

ib_p_tail2:
	CMPQ  CX, $2
	JB    ib_p_tail1
	MOVOU (SI), X0
	MOVOU (DI), X10
	PXOR  X10, X0
	MULC2(X0, X2, X1, X3, X8)
	PXOR  X10, X2
	MOVOU X2, (DI)
	MOVOU X0, (SI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $2, CX

ib_p_tail1:
	TESTQ CX, CX
	JZ    ib_p_done
	MOVQ  (SI), X0
	MOVQ  (DI), X10
	PXOR  X10, X0
	MOVQ  X0, (SI)
	MULC1(X0, X2)
	PXOR  X10, X0
	MOVQ  X0, (DI)

ib_p_done:
	RET

// ---------------------------------------------------------------------------
// AVX-512 VPCLMULQDQ kernels. Z31 holds 0x1b in every qword, Z30 the constant
// c in every qword, Z29 reduceTable in every 128-bit lane. Sixteen products per main-loop iteration, then
// eight. The caller (gf64_amd64.go) passes a length that is a multiple of
// eight and hands the last one to seven elements to the PCLMULQDQ kernels: a
// masked block costs more than the scalar code for so few elements, and a
// masked store that a later load reads does not forward.

// REDUCE8 reduces the even-qword products E and odd-qword products O of
// eight elements and leaves the eight results, in order, in E. Clobbers O,
// T0..T3.
#define REDUCE8(E, O, T0, T1, T2, T3) \
	VPCLMULQDQ  $0x01, Z31, E, T0; \
	VPCLMULQDQ  $0x01, Z31, O, T1; \
	VPCLMULQDQ  $0x01, Z31, T0, T2; \
	VPCLMULQDQ  $0x01, Z31, T1, T3; \
	VPTERNLOGQ  $0x96, T2, T0, E; \
	VPTERNLOGQ  $0x96, T3, T1, O; \
	VPUNPCKLQDQ O, E, E

// REDUCE8P is the 512-bit REDUCE2P: it reduces with shifts and a VPSHUFB
// lookup in reduceTable (broadcast to every 128-bit lane of Z29) instead of
// the two reducing carry-less multiplications of REDUCE8. The by-constant
// main loops reduce one group of eight with REDUCE8 and the next with
// REDUCE8P: the shifts run on another port than the carry-less multiplier.
// (In MulVec, with two input streams, REDUCE8 alone measured faster.)
// Clobbers O, T0..T3.
#define REDUCE8P(E, O, T0, T1, T2, T3) \
	VPUNPCKHQDQ O, E, T0; \
	VPUNPCKLQDQ O, E, E; \
	VPSRLQ      $60, T0, T1; \
	VPSHUFB     T1, Z29, T1; \
	VPTERNLOGQ  $0x96, T1, T0, E; \
	VPSLLQ      $1, T0, T2; \
	VPSLLQ      $3, T0, T3; \
	VPTERNLOGQ  $0x96, T3, T2, E; \
	VPSLLQ      $4, T0, T1; \
	VPXORQ      T1, E, E

// MULC8P is MULC8 reducing with REDUCE8P.
#define MULC8P(A, E, O, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, Z30, A, E; \
	VPCLMULQDQ $0x01, Z30, A, O; \
	REDUCE8P(E, O, T0, T1, T2, T3)

// MUL8 sets E = A·B lane-wise. Clobbers O, T0..T3.
#define MUL8(A, B, E, O, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, B, A, E; \
	VPCLMULQDQ $0x11, B, A, O; \
	REDUCE8(E, O, T0, T1, T2, T3)

// MULC8 sets E = A·c lane-wise (c in Z30). Clobbers O, T0..T3; keeps A.
#define MULC8(A, E, O, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, Z30, A, E; \
	VPCLMULQDQ $0x01, Z30, A, O; \
	REDUCE8(E, O, T0, T1, T2, T3)

#define LOADK8 \
	MOVQ         $0x1b, AX; \
	VPBROADCASTQ AX, Z31; \
	VBROADCASTI32X4 ·reduceTable(SB), Z29

#define LOADC8(off) \
	MOVQ         off(FP), AX; \
	VPBROADCASTQ AX, Z30

// func mulVecAVX512(dst, a, b []Element)
// Behaves like mulVecGeneric.
TEXT ·mulVecAVX512(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	LOADK8

mv_z_loop16:
	CMPQ      CX, $16
	JB        mv_z_tail8
	VMOVDQU64 (SI), Z0
	VMOVDQU64 (DX), Z1
	VMOVDQU64 64(SI), Z8
	VMOVDQU64 64(DX), Z9
	MUL8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	MUL8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DX
	ADDQ      $128, DI
	SUBQ      $16, CX
	JMP       mv_z_loop16

mv_z_tail8:
	CMPQ      CX, $8
	JB        mv_z_done
	VMOVDQU64 (SI), Z0
	VMOVDQU64 (DX), Z1
	MUL8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	VMOVDQU64 Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DX
	ADDQ      $64, DI
	SUBQ      $8, CX

mv_z_done:
	VZEROUPPER
	RET

// func scaleVecAVX512(dst, a []Element, c Element)
// Behaves like scaleVecGeneric.
TEXT ·scaleVecAVX512(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	LOADK8
	LOADC8(c+48)

sv_z_loop16:
	CMPQ      CX, $16
	JB        sv_z_tail8
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z8
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	MULC8P(Z8, Z10, Z11, Z12, Z13, Z14, Z15)
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $16, CX
	JMP       sv_z_loop16

sv_z_tail8:
	CMPQ      CX, $8
	JB        sv_z_done
	VMOVDQU64 (SI), Z0
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	VMOVDQU64 Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX

sv_z_done:
	VZEROUPPER
	RET

// func mulAddVecAVX512(dst, a []Element, c Element)
// Behaves like mulAddVecGeneric.
TEXT ·mulAddVecAVX512(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	LOADK8
	LOADC8(c+48)

ma_z_loop16:
	CMPQ      CX, $16
	JB        ma_z_tail8
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z8
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	MULC8P(Z8, Z10, Z11, Z12, Z13, Z14, Z15)
	VPXORQ    (DI), Z2, Z2
	VPXORQ    64(DI), Z10, Z10
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $16, CX
	JMP       ma_z_loop16

ma_z_tail8:
	CMPQ      CX, $8
	JB        ma_z_done
	VMOVDQU64 (SI), Z0
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	VPXORQ    (DI), Z2, Z2
	VMOVDQU64 Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX

ma_z_done:
	VZEROUPPER
	RET

// func butterflyAVX512(u, v []Element, c Element)
// Behaves like butterflyGeneric: u ^= c·v, then v ^= u.
TEXT ·butterflyAVX512(SB), NOSPLIT, $0-56
	MOVQ u_base+0(FP), DI
	MOVQ u_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	LOADK8
	LOADC8(c+48)

bf_z_loop16:
	CMPQ      CX, $16
	JB        bf_z_tail8
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z8
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	MULC8P(Z8, Z10, Z11, Z12, Z13, Z14, Z15)
	VPXORQ    (DI), Z2, Z2
	VPXORQ    64(DI), Z10, Z10
	VPXORQ    Z2, Z0, Z0
	VPXORQ    Z10, Z8, Z8
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	VMOVDQU64 Z0, (SI)
	VMOVDQU64 Z8, 64(SI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $16, CX
	JMP       bf_z_loop16

bf_z_tail8:
	CMPQ      CX, $8
	JB        bf_z_done
	VMOVDQU64 (SI), Z0
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	VPXORQ    (DI), Z2, Z2
	VPXORQ    Z2, Z0, Z0
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z0, (SI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX

bf_z_done:
	VZEROUPPER
	RET

// func invButterflyAVX512(u, v []Element, c Element)
// Behaves like invButterflyGeneric: v ^= u, then u ^= c·v.
TEXT ·invButterflyAVX512(SB), NOSPLIT, $0-56
	MOVQ u_base+0(FP), DI
	MOVQ u_len+8(FP), CX
	MOVQ v_base+24(FP), SI
	LOADK8
	LOADC8(c+48)

ib_z_loop16:
	CMPQ      CX, $16
	JB        ib_z_tail8
	VMOVDQU64 (DI), Z1
	VMOVDQU64 64(DI), Z9
	VPXORQ    (SI), Z1, Z0
	VPXORQ    64(SI), Z9, Z8
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	MULC8P(Z8, Z10, Z11, Z12, Z13, Z14, Z15)
	VPXORQ    Z1, Z2, Z2
	VPXORQ    Z9, Z10, Z10
	VMOVDQU64 Z0, (SI)
	VMOVDQU64 Z8, 64(SI)
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $16, CX
	JMP       ib_z_loop16

ib_z_tail8:
	CMPQ      CX, $8
	JB        ib_z_done
	VMOVDQU64 (DI), Z1
	VPXORQ    (SI), Z1, Z0
	MULC8(Z0, Z2, Z3, Z4, Z5, Z6, Z7)
	VPXORQ    Z1, Z2, Z2
	VMOVDQU64 Z0, (SI)
	VMOVDQU64 Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX

ib_z_done:
	VZEROUPPER
	RET
