//go:build amd64 && !purego

#include "textflag.h"

// GF(2^128) kernels for amd64: PCLMULQDQ (SSE, one element per 128-bit
// register) and AVX-512 VPCLMULQDQ (four elements per 512-bit register, the
// same code lane by lane). Each function behaves exactly like the generic
// function named in its comment; gf128_amd64.go checks lengths and calls them
// only with equal, non-overlapping (or exactly aliased, where documented)
// slices.
//
// An element a0 + a1·y sits in a register as [a0, a1]. Its product by b is
//	c0 = a0b0 + C·a1b1,  c1 = a0b1 + a1b0 + a1b1 = (a0 + a1)(b0 + b1) + a0b0.
// For m1 = h·x^64 + l, C·m1 ≡ l·x^63 + h·(x^127 mod P): two carry-less
// products by the constants of cTimes, added to a0b0 unreduced. The vector
// kernels work on two elements E, F at a time (in the AVX-512 kernels, the
// elements in the same lane of two registers): one unpack gathers
// [a0E, a0F] and [a1E, a1F], and Karatsuba takes three PCLMULQDQ per element
// for the products (MUL2E). By a constant c the kernels use a1·(C·c1) with
// C·c1 precomputed (scaleConst), three products in all (SCALE2E). Scalar Mul
// (MULE) forms the four products a_i·b_j.
//
// Reduction (REDPAIR) takes two unreduced 128-bit values U0, U1 at once: one
// unpack gives their low halves L = [U0.lo, U1.lo] and high halves
// H = [U0.hi, U1.hi], and
//	U mod P = L ^ H ^ H<<1 ^ H<<3 ^ H<<4 ^ g(H>>60),
// g(t) = (t ^ t>>1 ^ t>>3)·0x1b < 256 looked up with (V)PSHUFB in the 16-byte
// reduceTable (gf128_amd64.go), which leaves [U0 mod P, U1 mod P] in order.
// CombineBase sums the products of every column, unreduced, and reduces each
// output coefficient once.

// ---------------------------------------------------------------------------
// PCLMULQDQ (SSE) kernels. X13 holds reduceTable.

// REDPAIR reduces U0 and U1 and leaves [U0 mod P, U1 mod P] in U0.
// Clobbers H, T1, T2; U1 is read only by the first instructions, so T2 may
// be U1.
#define REDPAIR(U0, U1, H, T1, T2) \
	MOVO       U0, H; \
	PUNPCKLQDQ U1, U0; \
	PUNPCKHQDQ U1, H; \
	PXOR       H, U0; \
	MOVO       H, T1; \
	PSRLQ      $60, T1; \
	MOVO       X13, T2; \
	PSHUFB     T1, T2; \
	PXOR       T2, U0; \
	MOVO       H, T1; \
	PSLLQ      $1, T1; \
	PXOR       T1, U0; \
	PSLLQ      $3, H; \
	PXOR       H, U0; \
	PSLLQ      $1, H; \
	PXOR       H, U0

// MULE sets U0 = A·B for one element (cTimes in X15). Clobbers A, T0..T2.
#define MULE(A, B, U0, T0, T1, T2) \
	MOVO      A, U0; \
	PCLMULQDQ $0x00, B, U0; \
	MOVO      A, T0; \
	PCLMULQDQ $0x11, B, T0; \
	MOVO      A, T1; \
	PCLMULQDQ $0x01, B, T1; \
	PCLMULQDQ $0x10, B, A; \
	PXOR      T1, A; \
	PXOR      T0, A; \
	MOVO      T0, T1; \
	PCLMULQDQ $0x00, X15, T1; \
	PCLMULQDQ $0x11, X15, T0; \
	PXOR      T1, U0; \
	PXOR      T0, U0; \
	REDPAIR(U0, A, T0, T1, T2)

// SCALEE sets U0 = A·c for one element, with X14 = [c0, c1] and
// X12 = [C·c1, c0 + c1]. Clobbers A, T0..T2.
#define SCALEE(A, U0, T0, T1, T2) \
	MOVO      A, U0; \
	PCLMULQDQ $0x00, X14, U0; \
	MOVO      A, T0; \
	PCLMULQDQ $0x01, X12, T0; \
	MOVO      A, T1; \
	PCLMULQDQ $0x10, X14, T1; \
	PCLMULQDQ $0x11, X12, A; \
	PXOR      T0, U0; \
	PXOR      T1, A; \
	REDPAIR(U0, A, T0, T1, T2)

// BASEE sets U0 = A·b for one element A and b in the low qword of B.
// Clobbers A, T0..T2.
#define BASEE(A, B, U0, T0, T1, T2) \
	MOVO      A, U0; \
	PCLMULQDQ $0x00, B, U0; \
	PCLMULQDQ $0x01, B, A; \
	REDPAIR(U0, A, T0, T1, T2)

// MUL2E sets OE = AE·BE and OF = AF·BF for two elements by Karatsuba: with
// the low and high coefficients of the two elements gathered in
// AL = [a0E, a0F], AH = [a1E, a1F] (and the same for b), m0 = a0b0,
// m1 = a1b1 and m2 = (a0 + a1)(b0 + b1) take one PCLMULQDQ per element;
// c1 = m2 + m0 and c0 = m0 + C·m1, C·m1 as two products by cTimes (in X15).
// Five carry-less products per element: measured faster, on AMD Zen 5 and on
// Intel Xeon, than reducing m1 first and shifting (three products, more
// shuffles and shifts) or than four products a_i b_j. Uses X0..X9 (the inputs
// in X0..X3, the results in X7 and X4).
#define MUL2E \
	MOVO       X0, X4; \
	PUNPCKLQDQ X1, X4; \
	PUNPCKHQDQ X1, X0; \
	MOVO       X4, X1; \
	PXOR       X0, X1; \
	MOVO       X2, X5; \
	PUNPCKLQDQ X3, X5; \
	PUNPCKHQDQ X3, X2; \
	MOVO       X5, X3; \
	PXOR       X2, X3; \
	MOVO       X0, X6; \
	PCLMULQDQ  $0x00, X2, X6; \
	PCLMULQDQ  $0x11, X2, X0; \
	MOVO       X4, X7; \
	PCLMULQDQ  $0x00, X5, X7; \
	PCLMULQDQ  $0x11, X5, X4; \
	MOVO       X1, X8; \
	PCLMULQDQ  $0x00, X3, X8; \
	PCLMULQDQ  $0x11, X3, X1; \
	PXOR       X7, X8; \
	PXOR       X4, X1; \
	MOVO       X6, X9; \
	PCLMULQDQ  $0x00, X15, X9; \
	PCLMULQDQ  $0x11, X15, X6; \
	PXOR       X9, X7; \
	PXOR       X6, X7; \
	MOVO       X0, X9; \
	PCLMULQDQ  $0x00, X15, X9; \
	PCLMULQDQ  $0x11, X15, X0; \
	PXOR       X9, X4; \
	PXOR       X0, X4; \
	REDPAIR(X7, X8, X2, X3, X5); \
	REDPAIR(X4, X1, X2, X3, X5)

// SCALE2E sets X6 = X0·c and X0 = X1·c for two elements, three carry-less
// products each, with X14 = [c0, c1] and X12 = [C·c1, c0 + c1]:
//	a·c = (a0c0 + a1·C c1) + ((a0 + a1)(c0 + c1) + a0c0) y.
// Uses X0..X7.
#define SCALE2E \
	MOVO       X0, X4; \
	PUNPCKLQDQ X1, X4; \
	PUNPCKHQDQ X1, X0; \
	MOVO       X4, X1; \
	PXOR       X0, X1; \
	MOVO       X4, X5; \
	PCLMULQDQ  $0x00, X14, X5; \
	PCLMULQDQ  $0x01, X14, X4; \
	MOVO       X0, X6; \
	PCLMULQDQ  $0x00, X12, X6; \
	PCLMULQDQ  $0x01, X12, X0; \
	MOVO       X1, X7; \
	PCLMULQDQ  $0x10, X12, X7; \
	PCLMULQDQ  $0x11, X12, X1; \
	PXOR       X5, X6; \
	PXOR       X5, X7; \
	PXOR       X4, X0; \
	PXOR       X4, X1; \
	REDPAIR(X6, X7, X2, X3, X5); \
	REDPAIR(X0, X1, X2, X3, X5)

// func mulPCLMUL(a, b Element) Element
// Behaves like mulGeneric.
TEXT ·mulPCLMUL(SB), NOSPLIT, $0-48
	MOVOU ·reduceTable(SB), X13
	MOVOU ·cTimes(SB), X15
	MOVQ   a_A0+0(FP), X0
	MOVHPS a_A1+8(FP), X0
	MOVQ   b_A0+16(FP), X1
	MOVHPS b_A1+24(FP), X1
	MULE(X0, X1, X2, X3, X4, X5)
	MOVQ   X2, ret_A0+32(FP)
	MOVHPS X2, ret_A1+40(FP)
	RET

// func mulVecPCLMUL(dst, a, b []Element)
// Behaves like mulVecGeneric.
TEXT ·mulVecPCLMUL(SB), NOSPLIT, $0-72
	MOVOU ·reduceTable(SB), X13
	MOVOU ·cTimes(SB), X15
	MOVQ  dst_base+0(FP), DI
	MOVQ  dst_len+8(FP), CX
	MOVQ  a_base+24(FP), SI
	MOVQ  b_base+48(FP), DX

mv_p_loop2:
	CMPQ  CX, $2
	JB    mv_p_tail1
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU (DX), X2
	MOVOU 16(DX), X3
	MUL2E
	MOVOU X7, (DI)
	MOVOU X4, 16(DI)
	ADDQ  $32, SI
	ADDQ  $32, DX
	ADDQ  $32, DI
	SUBQ  $2, CX
	JMP   mv_p_loop2

mv_p_tail1:
	TESTQ CX, CX
	JZ    mv_p_done
	MOVOU (SI), X0
	MOVOU (DX), X1
	MULE(X0, X1, X2, X3, X4, X5)
	MOVOU X2, (DI)

mv_p_done:
	RET

// func scaleVecPCLMUL(dst, a []Element, c, k Element)
// Behaves like scaleVecGeneric; k = scaleConst(c).
TEXT ·scaleVecPCLMUL(SB), NOSPLIT, $0-80
	MOVOU ·reduceTable(SB), X13
	MOVQ  dst_base+0(FP), DI
	MOVQ  dst_len+8(FP), CX
	MOVQ  a_base+24(FP), SI
	MOVQ   c_A0+48(FP), X14
	MOVHPS c_A1+56(FP), X14
	MOVQ   k_A0+64(FP), X12
	MOVHPS k_A1+72(FP), X12

sv_p_loop2:
	CMPQ  CX, $2
	JB    sv_p_tail1
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	SCALE2E
	MOVOU X6, (DI)
	MOVOU X0, 16(DI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $2, CX
	JMP   sv_p_loop2

sv_p_tail1:
	TESTQ CX, CX
	JZ    sv_p_done
	MOVOU (SI), X0
	SCALEE(X0, X2, X3, X4, X5)
	MOVOU X2, (DI)

sv_p_done:
	RET

// func mulByBaseVecPCLMUL(dst, a []Element, b []gf64.Element)
// Behaves like mulByBaseVecGeneric.
TEXT ·mulByBaseVecPCLMUL(SB), NOSPLIT, $0-72
	MOVOU ·reduceTable(SB), X13
	MOVQ  dst_base+0(FP), DI
	MOVQ  dst_len+8(FP), CX
	MOVQ  a_base+24(FP), SI
	MOVQ  b_base+48(FP), DX

mb_p_loop2:
	CMPQ      CX, $2
	JB        mb_p_tail1
	MOVOU     (SI), X0
	MOVOU     16(SI), X6
	MOVOU     (DX), X1
	MOVO      X1, X7
	PUNPCKHQDQ X7, X7
	BASEE(X0, X1, X2, X3, X4, X5)
	BASEE(X6, X7, X8, X9, X10, X11)
	MOVOU     X2, (DI)
	MOVOU     X8, 16(DI)
	ADDQ      $32, SI
	ADDQ      $16, DX
	ADDQ      $32, DI
	SUBQ      $2, CX
	JMP       mb_p_loop2

mb_p_tail1:
	TESTQ CX, CX
	JZ    mb_p_done
	MOVOU (SI), X0
	MOVQ  (DX), X1
	BASEE(X0, X1, X2, X3, X4, X5)
	MOVOU X2, (DI)

mb_p_done:
	RET

// CBCOL accumulates the products of the base values in the two qwords of V
// (rows r and r+1) by the coefficient K = [c0, c1] into R0 (row r, c0),
// R1 (row r, c1), R2 (row r+1, c0) and R3 (row r+1, c1). Clobbers V, T0, T1.
#define CBCOL(V, K, R0, R1, R2, R3, T0, T1) \
	MOVO      V, T0; \
	PCLMULQDQ $0x00, K, T0; \
	PXOR      T0, R0; \
	MOVO      V, T1; \
	PCLMULQDQ $0x10, K, T1; \
	PXOR      T1, R1; \
	MOVO      V, T0; \
	PCLMULQDQ $0x01, K, T0; \
	PXOR      T0, R2; \
	PCLMULQDQ $0x11, K, V; \
	PXOR      V, R3

// func combineBasePCLMUL(dst []Element, cols [][]gf64.Element, coeffs []Element, off int, add bool)
// Behaves like combineBaseGeneric on rows off..len(dst)-1 (dst[off:] and
// cols[j][off:]); cols must not be empty.
TEXT ·combineBasePCLMUL(SB), NOSPLIT, $0-81
	MOVOU   ·reduceTable(SB), X13
	MOVQ    dst_base+0(FP), DI
	MOVQ    dst_len+8(FP), CX
	MOVQ    cols_base+24(FP), R8
	MOVQ    cols_len+32(FP), R9
	MOVQ    coeffs_base+48(FP), R10
	MOVQ    off+72(FP), R12
	MOVBLZX add+80(FP), R11
	SUBQ    R12, CX
	MOVQ    R12, AX
	SHLQ    $4, AX
	ADDQ    AX, DI
	SHLQ    $3, R12

cb_p_loop4:
	CMPQ CX, $4
	JB   cb_p_tail2
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
	PXOR X4, X4
	PXOR X5, X5
	PXOR X6, X6
	PXOR X7, X7
	MOVQ R8, SI
	MOVQ R10, DX
	MOVQ R9, BX

cb_p_col4:
	MOVQ  (SI), AX
	MOVOU (AX)(R12*1), X8
	MOVOU 16(AX)(R12*1), X9
	MOVOU (DX), X10
	CBCOL(X8, X10, X0, X1, X2, X3, X11, X12)
	CBCOL(X9, X10, X4, X5, X6, X7, X11, X12)
	ADDQ  $24, SI
	ADDQ  $16, DX
	DECQ  BX
	JNZ   cb_p_col4

	REDPAIR(X0, X1, X8, X9, X10)
	REDPAIR(X2, X3, X8, X9, X10)
	REDPAIR(X4, X5, X8, X9, X10)
	REDPAIR(X6, X7, X8, X9, X10)
	TESTQ R11, R11
	JZ    cb_p_store4
	MOVOU (DI), X8
	PXOR  X8, X0
	MOVOU 16(DI), X8
	PXOR  X8, X2
	MOVOU 32(DI), X8
	PXOR  X8, X4
	MOVOU 48(DI), X8
	PXOR  X8, X6

cb_p_store4:
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	MOVOU X4, 32(DI)
	MOVOU X6, 48(DI)
	ADDQ  $64, DI
	ADDQ  $32, R12
	SUBQ  $4, CX
	JMP   cb_p_loop4

cb_p_tail2:
	CMPQ CX, $2
	JB   cb_p_tail1
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
	MOVQ R8, SI
	MOVQ R10, DX
	MOVQ R9, BX

cb_p_col2:
	MOVQ  (SI), AX
	MOVOU (AX)(R12*1), X8
	MOVOU (DX), X10
	CBCOL(X8, X10, X0, X1, X2, X3, X11, X12)
	ADDQ  $24, SI
	ADDQ  $16, DX
	DECQ  BX
	JNZ   cb_p_col2

	REDPAIR(X0, X1, X8, X9, X10)
	REDPAIR(X2, X3, X8, X9, X10)
	TESTQ R11, R11
	JZ    cb_p_store2
	MOVOU (DI), X8
	PXOR  X8, X0
	MOVOU 16(DI), X8
	PXOR  X8, X2

cb_p_store2:
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	ADDQ  $32, DI
	ADDQ  $16, R12
	SUBQ  $2, CX

cb_p_tail1:
	TESTQ CX, CX
	JZ    cb_p_done
	PXOR  X0, X0
	PXOR  X1, X1
	MOVQ  R8, SI
	MOVQ  R10, DX
	MOVQ  R9, BX

cb_p_col1:
	MOVQ      (SI), AX
	MOVQ      (AX)(R12*1), X8
	MOVOU     (DX), X10
	MOVO      X8, X11
	PCLMULQDQ $0x00, X10, X11
	PXOR      X11, X0
	PCLMULQDQ $0x10, X10, X8
	PXOR      X8, X1
	ADDQ      $24, SI
	ADDQ      $16, DX
	DECQ      BX
	JNZ       cb_p_col1

	REDPAIR(X0, X1, X8, X9, X10)
	TESTQ R11, R11
	JZ    cb_p_store1
	MOVOU (DI), X8
	PXOR  X8, X0

cb_p_store1:
	MOVOU X0, (DI)

cb_p_done:
	RET

// ---------------------------------------------------------------------------
// AVX-512 VPCLMULQDQ kernels: the PCLMULQDQ kernels lane by lane, four
// elements per register. Z29 holds reduceTable in every 128-bit lane. The
// caller (gf128_amd64.go) passes a length that is a multiple of eight and
// hands the rest to the PCLMULQDQ kernels.

// REDPAIRZ is REDPAIR on four lanes. Clobbers H, T1, T2; T2 may be U1.
#define REDPAIRZ(U0, U1, H, T1, T2) \
	VPUNPCKHQDQ U1, U0, H; \
	VPUNPCKLQDQ U1, U0, U0; \
	VPSRLQ      $60, H, T1; \
	VPSHUFB     T1, Z29, T1; \
	VPTERNLOGQ  $0x96, T1, H, U0; \
	VPSLLQ      $1, H, T1; \
	VPSLLQ      $3, H, T2; \
	VPTERNLOGQ  $0x96, T2, T1, U0; \
	VPSLLQ      $4, H, T1; \
	VPXORQ      T1, U0, U0

// MUL2Z is MUL2E lane-wise: OE = AE·BE in Z12 and OF = AF·BF in Z13 for the
// elements of AE = Z0, AF = Z1, BE = Z2, BF = Z3, with cTimes in every lane
// of Z31. Uses Z0..Z15.
#define MUL2Z \
	VPUNPCKLQDQ Z1, Z0, Z4; \
	VPUNPCKHQDQ Z1, Z0, Z5; \
	VPXORQ      Z5, Z4, Z6; \
	VPUNPCKLQDQ Z3, Z2, Z7; \
	VPUNPCKHQDQ Z3, Z2, Z8; \
	VPXORQ      Z8, Z7, Z9; \
	VPCLMULQDQ  $0x00, Z8, Z5, Z10; \
	VPCLMULQDQ  $0x11, Z8, Z5, Z11; \
	VPCLMULQDQ  $0x00, Z7, Z4, Z12; \
	VPCLMULQDQ  $0x11, Z7, Z4, Z13; \
	VPCLMULQDQ  $0x00, Z9, Z6, Z14; \
	VPCLMULQDQ  $0x11, Z9, Z6, Z15; \
	VPXORQ      Z12, Z14, Z14; \
	VPXORQ      Z13, Z15, Z15; \
	VPCLMULQDQ  $0x00, Z31, Z10, Z0; \
	VPCLMULQDQ  $0x11, Z31, Z10, Z1; \
	VPTERNLOGQ  $0x96, Z1, Z0, Z12; \
	VPCLMULQDQ  $0x00, Z31, Z11, Z0; \
	VPCLMULQDQ  $0x11, Z31, Z11, Z1; \
	VPTERNLOGQ  $0x96, Z1, Z0, Z13; \
	REDPAIRZ(Z12, Z14, Z2, Z3, Z14); \
	REDPAIRZ(Z13, Z15, Z2, Z3, Z15)

// SCALE2Z is SCALE2E lane-wise: Z9 = Z0·c and Z10 = Z1·c, with Z30 =
// [c0, c1] and Z28 = [C·c1, c0 + c1] in every lane. Uses Z0..Z14.
#define SCALE2Z \
	VPUNPCKLQDQ Z1, Z0, Z4; \
	VPUNPCKHQDQ Z1, Z0, Z5; \
	VPXORQ      Z5, Z4, Z6; \
	VPCLMULQDQ  $0x00, Z30, Z4, Z7; \
	VPCLMULQDQ  $0x01, Z30, Z4, Z8; \
	VPCLMULQDQ  $0x00, Z28, Z5, Z9; \
	VPCLMULQDQ  $0x01, Z28, Z5, Z10; \
	VPCLMULQDQ  $0x10, Z28, Z6, Z11; \
	VPCLMULQDQ  $0x11, Z28, Z6, Z12; \
	VPXORQ      Z7, Z9, Z9; \
	VPXORQ      Z7, Z11, Z11; \
	VPXORQ      Z8, Z10, Z10; \
	VPXORQ      Z8, Z12, Z12; \
	REDPAIRZ(Z9, Z11, Z13, Z14, Z11); \
	REDPAIRZ(Z10, Z12, Z13, Z14, Z12)

// BASEZ sets U0 = A·b lane-wise for b in the low qword of each lane of B.
// Clobbers T0..T2; keeps A, B.
#define BASEZ(A, B, U0, T0, T1, T2) \
	VPCLMULQDQ $0x00, B, A, U0; \
	VPCLMULQDQ $0x01, B, A, T2; \
	REDPAIRZ(U0, T2, T0, T1, T2)

#define LOADZ \
	VBROADCASTI32X4 ·reduceTable(SB), Z29

// func mulVecAVX512(dst, a, b []Element)
// Behaves like mulVecGeneric; len(dst) is a multiple of 8.
TEXT ·mulVecAVX512(SB), NOSPLIT, $0-72
	LOADZ
	VBROADCASTI32X4 ·cTimes(SB), Z31
	MOVQ            dst_base+0(FP), DI
	MOVQ            dst_len+8(FP), CX
	MOVQ            a_base+24(FP), SI
	MOVQ            b_base+48(FP), DX

mv_z_loop8:
	CMPQ      CX, $8
	JB        mv_z_done
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 (DX), Z2
	VMOVDQU64 64(DX), Z3
	MUL2Z
	VMOVDQU64 Z12, (DI)
	VMOVDQU64 Z13, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DX
	ADDQ      $128, DI
	SUBQ      $8, CX
	JMP       mv_z_loop8

mv_z_done:
	VZEROUPPER
	RET

// func scaleVecAVX512(dst, a []Element, c, k Element)
// Behaves like scaleVecGeneric; k = scaleConst(c); len(dst) is a multiple
// of 8.
TEXT ·scaleVecAVX512(SB), NOSPLIT, $0-80
	LOADZ
	VBROADCASTI32X4 c+48(FP), Z30
	VBROADCASTI32X4 k+64(FP), Z28
	MOVQ            dst_base+0(FP), DI
	MOVQ            dst_len+8(FP), CX
	MOVQ            a_base+24(FP), SI

sv_z_loop8:
	CMPQ      CX, $8
	JB        sv_z_done
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	SCALE2Z
	VMOVDQU64 Z9, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $8, CX
	JMP       sv_z_loop8

sv_z_done:
	VZEROUPPER
	RET

// func mulByBaseVecAVX512(dst, a []Element, b []gf64.Element)
// Behaves like mulByBaseVecGeneric; len(dst) is a multiple of 8. VPERMQ by
// spreadIdx puts b[i] in the low qword of the lane of a[i].
TEXT ·mulByBaseVecAVX512(SB), NOSPLIT, $0-72
	LOADZ
	VMOVDQU64 ·spreadIdx(SB), Z26
	VMOVDQU64 ·spreadIdx+64(SB), Z27
	MOVQ      dst_base+0(FP), DI
	MOVQ      dst_len+8(FP), CX
	MOVQ      a_base+24(FP), SI
	MOVQ      b_base+48(FP), DX

mb_z_loop8:
	CMPQ      CX, $8
	JB        mb_z_done
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z8
	VMOVDQU64 (DX), Z6
	VPERMQ    Z6, Z26, Z1
	VPERMQ    Z6, Z27, Z9
	BASEZ(Z0, Z1, Z2, Z3, Z4, Z5)
	BASEZ(Z8, Z9, Z10, Z11, Z12, Z13)
	VMOVDQU64 Z2, (DI)
	VMOVDQU64 Z10, 64(DI)
	ADDQ      $128, SI
	ADDQ      $64, DX
	ADDQ      $128, DI
	SUBQ      $8, CX
	JMP       mb_z_loop8

mb_z_done:
	VZEROUPPER
	RET

// CBCOLZ is CBCOL lane-wise: V holds the base values of rows r..r+7 (lane l:
// rows r+2l, r+2l+1), K the coefficient in every lane. R0, R1 collect the
// even rows (c0, c1), R2, R3 the odd ones. Clobbers T0..T3; keeps V.
#define CBCOLZ(V, K, R0, R1, R2, R3, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, K, V, T0; \
	VPCLMULQDQ $0x10, K, V, T1; \
	VPCLMULQDQ $0x01, K, V, T2; \
	VPCLMULQDQ $0x11, K, V, T3; \
	VPXORQ     T0, R0, R0; \
	VPXORQ     T1, R1, R1; \
	VPXORQ     T2, R2, R2; \
	VPXORQ     T3, R3, R3

// CBOUTZ reduces the sums of CBCOLZ for rows r..r+7 and stores them at
// off(DI), adding what is there when R11 is set. Z26 and Z27 (interleaveIdx)
// put the even and odd rows back in order. Clobbers R0..R3, T0..T2.
#define CBOUTZ(R0, R1, R2, R3, off, T0, T1, T2) \
	REDPAIRZ(R0, R1, T0, T1, T2); \
	REDPAIRZ(R2, R3, T0, T1, T2); \
	VMOVDQU64 R0, R1; \
	VPERMT2Q  R2, Z26, R1; \
	VPERMT2Q  R2, Z27, R0; \
	TESTQ     R11, R11; \
	JZ        3(PC); \
	VPXORQ    off(DI), R1, R1; \
	VPXORQ    off+64(DI), R0, R0; \
	VMOVDQU64 R1, off(DI); \
	VMOVDQU64 R0, off+64(DI)

// func combineBaseAVX512(dst []Element, cols [][]gf64.Element, coeffs []Element, off int, add bool)
// Behaves like combineBaseGeneric on rows off..len(dst)-1; their number is a
// multiple of 8 and cols is not empty.
TEXT ·combineBaseAVX512(SB), NOSPLIT, $0-81
	LOADZ
	VMOVDQU64 ·interleaveIdx(SB), Z26
	VMOVDQU64 ·interleaveIdx+64(SB), Z27
	MOVQ      dst_base+0(FP), DI
	MOVQ      dst_len+8(FP), CX
	MOVQ      cols_base+24(FP), R8
	MOVQ      cols_len+32(FP), R9
	MOVQ      coeffs_base+48(FP), R10
	MOVQ      off+72(FP), R12
	MOVBLZX   add+80(FP), R11
	SUBQ      R12, CX
	MOVQ      R12, AX
	SHLQ      $4, AX
	ADDQ      AX, DI
	SHLQ      $3, R12

cb_z_loop16:
	CMPQ   CX, $16
	JB     cb_z_tail8
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ   R8, SI
	MOVQ   R10, DX
	MOVQ   R9, BX

cb_z_col16:
	MOVQ            (SI), AX
	VMOVDQU64       (AX)(R12*1), Z16
	VMOVDQU64       64(AX)(R12*1), Z17
	VBROADCASTI32X4 (DX), Z18
	CBCOLZ(Z16, Z18, Z0, Z1, Z2, Z3, Z19, Z20, Z21, Z22)
	CBCOLZ(Z17, Z18, Z4, Z5, Z6, Z7, Z23, Z24, Z25, Z28)
	ADDQ            $24, SI
	ADDQ            $16, DX
	DECQ            BX
	JNZ             cb_z_col16

	CBOUTZ(Z0, Z1, Z2, Z3, 0, Z19, Z20, Z21)
	CBOUTZ(Z4, Z5, Z6, Z7, 128, Z19, Z20, Z21)
	ADDQ $256, DI
	ADDQ $128, R12
	SUBQ $16, CX
	JMP  cb_z_loop16

cb_z_tail8:
	CMPQ   CX, $8
	JB     cb_z_done
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   R8, SI
	MOVQ   R10, DX
	MOVQ   R9, BX

cb_z_col8:
	MOVQ            (SI), AX
	VMOVDQU64       (AX)(R12*1), Z16
	VBROADCASTI32X4 (DX), Z18
	CBCOLZ(Z16, Z18, Z0, Z1, Z2, Z3, Z19, Z20, Z21, Z22)
	ADDQ            $24, SI
	ADDQ            $16, DX
	DECQ            BX
	JNZ             cb_z_col8

	CBOUTZ(Z0, Z1, Z2, Z3, 0, Z19, Z20, Z21)

cb_z_done:
	VZEROUPPER
	RET
