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

// func difRadix4AVX512(a []uint64, q, j0, j1 int, tw []uint64)
// Like difRadix4Generic; q, j0 and j1 are multiples of 8.
TEXT ·difRadix4AVX512(SB), NOSPLIT, $0-72
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ q+24(FP), DX
	MOVQ j0+32(FP), R8
	MOVQ j1+40(FP), CX
	MOVQ tw_base+48(FP), DI
	LEAQ (BX)(R9*8), R9       // end of a
	SHLQ $3, DX               // q in bytes
	LEAQ (DX)(DX*2), R12      // 3q in bytes
	LEAQ (DI)(DX*2), R10      // t2 = tw[2q:]
	LEAQ (DI)(R12*1), R11     // t2[q:] = tw[3q:]
	LEAQ (DI)(DX*1), R13      // t1 = tw[q:]

dif4block:
	CMPQ BX, R9
	JAE  dif4done
	MOVQ R8, AX

dif4loop:
	CMPQ      AX, CX
	JAE       dif4next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R14)(DX*2), Z2
	VMOVDQU64 (R14)(R12*1), Z3
	VMOVDQU64 (R10)(AX*8), Z4
	VMOVDQU64 (R11)(AX*8), Z5
	VMOVDQU64 (R13)(AX*8), Z6

	// half-size 2q: (x0, x2) and (x1, x3)
	ADDMOD(Z0, Z2, Z7, Z16)
	SUBMOD(Z0, Z2, Z0)
	MULMOD(Z0, Z4, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z1, Z3, Z8, Z21)
	SUBMOD(Z1, Z3, Z1)
	MULMOD(Z1, Z5, Z21, Z22, Z23, Z24, Z25)

	// half-size q: (y0, y1) and (y2, y3)
	ADDMOD(Z7, Z8, Z9, Z16)
	SUBMOD(Z7, Z8, Z7)
	MULMOD(Z7, Z6, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z0, Z1, Z10, Z21)
	SUBMOD(Z0, Z1, Z0)
	MULMOD(Z0, Z6, Z21, Z22, Z23, Z24, Z25)

	VMOVDQU64 Z9, (R14)
	VMOVDQU64 Z7, (R14)(DX*1)
	VMOVDQU64 Z10, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)
	ADDQ      $8, AX
	JMP       dif4loop

dif4next:
	LEAQ (BX)(DX*4), BX
	JMP  dif4block

dif4done:
	VZEROUPPER
	RET

// func ditRadix4AVX512(a []uint64, q, j0, j1 int, tw []uint64)
// Like ditRadix4Generic; q, j0 and j1 are multiples of 8.
TEXT ·ditRadix4AVX512(SB), NOSPLIT, $0-72
	CONSTS
	MOVQ a_base+0(FP), BX
	MOVQ a_len+8(FP), R9
	MOVQ q+24(FP), DX
	MOVQ j0+32(FP), R8
	MOVQ j1+40(FP), CX
	MOVQ tw_base+48(FP), DI
	LEAQ (BX)(R9*8), R9
	SHLQ $3, DX
	LEAQ (DX)(DX*2), R12
	LEAQ (DI)(DX*2), R10
	LEAQ (DI)(R12*1), R11
	LEAQ (DI)(DX*1), R13

dit4block:
	CMPQ BX, R9
	JAE  dit4done
	MOVQ R8, AX

dit4loop:
	CMPQ      AX, CX
	JAE       dit4next
	LEAQ      (BX)(AX*8), R14
	VMOVDQU64 (R14), Z0
	VMOVDQU64 (R14)(DX*1), Z1
	VMOVDQU64 (R14)(DX*2), Z2
	VMOVDQU64 (R14)(R12*1), Z3
	VMOVDQU64 (R10)(AX*8), Z4
	VMOVDQU64 (R11)(AX*8), Z5
	VMOVDQU64 (R13)(AX*8), Z6

	// half-size q: (x0, x1·w) and (x2, x3·w)
	MULMOD(Z1, Z6, Z16, Z17, Z18, Z19, Z20)
	MULMOD(Z3, Z6, Z21, Z22, Z23, Z24, Z25)
	ADDMOD(Z0, Z1, Z7, Z16)
	SUBMOD(Z0, Z1, Z0)
	ADDMOD(Z2, Z3, Z8, Z21)
	SUBMOD(Z2, Z3, Z2)

	// half-size 2q: (y0, y2·t2[j]) and (y1, y3·t2[j+q])
	MULMOD(Z8, Z4, Z16, Z17, Z18, Z19, Z20)
	MULMOD(Z2, Z5, Z21, Z22, Z23, Z24, Z25)
	ADDMOD(Z7, Z8, Z9, Z16)
	SUBMOD(Z7, Z8, Z7)
	ADDMOD(Z0, Z2, Z10, Z21)
	SUBMOD(Z0, Z2, Z0)

	VMOVDQU64 Z9, (R14)
	VMOVDQU64 Z10, (R14)(DX*1)
	VMOVDQU64 Z7, (R14)(DX*2)
	VMOVDQU64 Z0, (R14)(R12*1)
	ADDQ      $8, AX
	JMP       dit4loop

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

// Permutations of the 8-point kernels, which work on two blocks A = a0..a7
// and B = b0..b7 at a time (see difTailAVX512 and ditHeadAVX512).
DATA ·permInterleaveLo+0(SB)/8, $0
DATA ·permInterleaveLo+8(SB)/8, $8
DATA ·permInterleaveLo+16(SB)/8, $1
DATA ·permInterleaveLo+24(SB)/8, $9
DATA ·permInterleaveLo+32(SB)/8, $2
DATA ·permInterleaveLo+40(SB)/8, $10
DATA ·permInterleaveLo+48(SB)/8, $3
DATA ·permInterleaveLo+56(SB)/8, $11
GLOBL ·permInterleaveLo(SB), RODATA|NOPTR, $64

DATA ·permInterleaveHi+0(SB)/8, $4
DATA ·permInterleaveHi+8(SB)/8, $12
DATA ·permInterleaveHi+16(SB)/8, $5
DATA ·permInterleaveHi+24(SB)/8, $13
DATA ·permInterleaveHi+32(SB)/8, $6
DATA ·permInterleaveHi+40(SB)/8, $14
DATA ·permInterleaveHi+48(SB)/8, $7
DATA ·permInterleaveHi+56(SB)/8, $15
GLOBL ·permInterleaveHi(SB), RODATA|NOPTR, $64

DATA ·permDifOutA+0(SB)/8, $0
DATA ·permDifOutA+8(SB)/8, $8
DATA ·permDifOutA+16(SB)/8, $4
DATA ·permDifOutA+24(SB)/8, $12
DATA ·permDifOutA+32(SB)/8, $2
DATA ·permDifOutA+40(SB)/8, $10
DATA ·permDifOutA+48(SB)/8, $6
DATA ·permDifOutA+56(SB)/8, $14
GLOBL ·permDifOutA(SB), RODATA|NOPTR, $64

DATA ·permDifOutB+0(SB)/8, $1
DATA ·permDifOutB+8(SB)/8, $9
DATA ·permDifOutB+16(SB)/8, $5
DATA ·permDifOutB+24(SB)/8, $13
DATA ·permDifOutB+32(SB)/8, $3
DATA ·permDifOutB+40(SB)/8, $11
DATA ·permDifOutB+48(SB)/8, $7
DATA ·permDifOutB+56(SB)/8, $15
GLOBL ·permDifOutB(SB), RODATA|NOPTR, $64

DATA ·permEven+0(SB)/8, $0
DATA ·permEven+8(SB)/8, $2
DATA ·permEven+16(SB)/8, $4
DATA ·permEven+24(SB)/8, $6
DATA ·permEven+32(SB)/8, $8
DATA ·permEven+40(SB)/8, $10
DATA ·permEven+48(SB)/8, $12
DATA ·permEven+56(SB)/8, $14
GLOBL ·permEven(SB), RODATA|NOPTR, $64

DATA ·permOdd+0(SB)/8, $1
DATA ·permOdd+8(SB)/8, $3
DATA ·permOdd+16(SB)/8, $5
DATA ·permOdd+24(SB)/8, $7
DATA ·permOdd+32(SB)/8, $9
DATA ·permOdd+40(SB)/8, $11
DATA ·permOdd+48(SB)/8, $13
DATA ·permOdd+56(SB)/8, $15
GLOBL ·permOdd(SB), RODATA|NOPTR, $64

// Twiddle layouts, as VPERMQ indices into tw[0..8) = [·, 1, 1, ω4, 1, ω8,
// ω8², ω8³]: W4 = [1, 1, ω8, ω8, ω8², ω8², ω8³, ω8³] (half-size 4, lanes
// paired a/b), W2dif = [1, 1, ω4, ω4, 1, 1, ω4, ω4], W2dit = [1, 1, 1, 1, ω4,
// ω4, ω4, ω4].
DATA ·idxW4+0(SB)/8, $4
DATA ·idxW4+8(SB)/8, $4
DATA ·idxW4+16(SB)/8, $5
DATA ·idxW4+24(SB)/8, $5
DATA ·idxW4+32(SB)/8, $6
DATA ·idxW4+40(SB)/8, $6
DATA ·idxW4+48(SB)/8, $7
DATA ·idxW4+56(SB)/8, $7
GLOBL ·idxW4(SB), RODATA|NOPTR, $64

DATA ·idxW2dif+0(SB)/8, $2
DATA ·idxW2dif+8(SB)/8, $2
DATA ·idxW2dif+16(SB)/8, $3
DATA ·idxW2dif+24(SB)/8, $3
DATA ·idxW2dif+32(SB)/8, $2
DATA ·idxW2dif+40(SB)/8, $2
DATA ·idxW2dif+48(SB)/8, $3
DATA ·idxW2dif+56(SB)/8, $3
GLOBL ·idxW2dif(SB), RODATA|NOPTR, $64

DATA ·idxW2dit+0(SB)/8, $2
DATA ·idxW2dit+8(SB)/8, $2
DATA ·idxW2dit+16(SB)/8, $2
DATA ·idxW2dit+24(SB)/8, $2
DATA ·idxW2dit+32(SB)/8, $3
DATA ·idxW2dit+40(SB)/8, $3
DATA ·idxW2dit+48(SB)/8, $3
DATA ·idxW2dit+56(SB)/8, $3
GLOBL ·idxW2dit(SB), RODATA|NOPTR, $64

// func difTailAVX512(a, tw []uint64)
// Like difTailGeneric; len(a) is a multiple of 16. Two blocks A, B at a
// time: U = [a0 b0 a1 b1 a2 b2 a3 b3], V = [a4 b4 … a7 b7] for half-size 4;
// P = [a0 b0 a1 b1 a4 b4 a5 b5], Q = [a2 b2 a3 b3 a6 b6 a7 b7] for
// half-size 2; E = [a0 b0 a4 b4 a2 b2 a6 b6], O = [a1 b1 a5 b5 a3 b3 a7 b7]
// for half-size 1; then back to A and B.
TEXT ·difTailAVX512(SB), NOSPLIT, $0-48
	CONSTS
	MOVQ      a_base+0(FP), BX
	MOVQ      a_len+8(FP), R9
	MOVQ      tw_base+24(FP), DI
	LEAQ      (BX)(R9*8), R9
	VMOVDQU64 (DI), Z14
	VMOVDQU64 ·idxW4(SB), Z15
	VPERMQ    Z14, Z15, Z12         // W4
	VMOVDQU64 ·idxW2dif(SB), Z15
	VPERMQ    Z14, Z15, Z13         // W2
	VMOVDQU64 ·permInterleaveLo(SB), Z26
	VMOVDQU64 ·permInterleaveHi(SB), Z27
	VMOVDQU64 ·permDifOutA(SB), Z28
	VMOVDQU64 ·permDifOutB(SB), Z29

diftailloop:
	CMPQ      BX, R9
	JAE       diftaildone
	VMOVDQU64 (BX), Z0
	VMOVDQU64 64(BX), Z1
	VMOVDQA64 Z0, Z2
	VPERMT2Q  Z1, Z26, Z2           // U
	VPERMT2Q  Z1, Z27, Z0           // V

	// half-size 4
	ADDMOD(Z2, Z0, Z3, Z16)
	SUBMOD(Z2, Z0, Z2)
	MULMOD(Z2, Z12, Z16, Z17, Z18, Z19, Z20)   // Z3 = U', Z2 = V'

	// half-size 2
	VSHUFI64X2 $0x44, Z2, Z3, Z4    // P
	VSHUFI64X2 $0xEE, Z2, Z3, Z5    // Q
	ADDMOD(Z4, Z5, Z6, Z16)
	SUBMOD(Z4, Z5, Z4)
	MULMOD(Z4, Z13, Z16, Z17, Z18, Z19, Z20)   // Z6 = P', Z4 = Q'

	// half-size 1
	VSHUFI64X2 $0x88, Z4, Z6, Z7    // E
	VSHUFI64X2 $0xDD, Z4, Z6, Z8    // O
	ADDMOD(Z7, Z8, Z9, Z16)
	SUBMOD(Z7, Z8, Z7)              // Z9 = E', Z7 = O'

	VMOVDQA64 Z9, Z10
	VPERMT2Q  Z7, Z28, Z10          // A
	VPERMT2Q  Z7, Z29, Z9           // B
	VMOVDQU64 Z10, (BX)
	VMOVDQU64 Z9, 64(BX)
	ADDQ      $128, BX
	JMP       diftailloop

diftaildone:
	VZEROUPPER
	RET

// func ditHeadAVX512(a, tw []uint64)
// Like ditHeadGeneric; len(a) is a multiple of 16. Two blocks A, B at a
// time: E = [a0 b0 a2 b2 a4 b4 a6 b6], O = [a1 b1 …] for half-size 1;
// U1 = [a0 b0 a4 b4 a1 b1 a5 b5], V1 = [a2 b2 a6 b6 a3 b3 a7 b7] for
// half-size 2; U2 = [a0 b0 a1 b1 a2 b2 a3 b3], V2 = [a4 b4 … a7 b7] for
// half-size 4; then back to A and B.
TEXT ·ditHeadAVX512(SB), NOSPLIT, $0-48
	CONSTS
	MOVQ      a_base+0(FP), BX
	MOVQ      a_len+8(FP), R9
	MOVQ      tw_base+24(FP), DI
	LEAQ      (BX)(R9*8), R9
	VMOVDQU64 (DI), Z14
	VMOVDQU64 ·idxW4(SB), Z15
	VPERMQ    Z14, Z15, Z12         // W4
	VMOVDQU64 ·idxW2dit(SB), Z15
	VPERMQ    Z14, Z15, Z13         // W2
	VMOVDQU64 ·permEven(SB), Z28
	VMOVDQU64 ·permOdd(SB), Z29

ditheadloop:
	CMPQ        BX, R9
	JAE         ditheaddone
	VMOVDQU64   (BX), Z0
	VMOVDQU64   64(BX), Z1
	VPUNPCKLQDQ Z1, Z0, Z2          // E
	VPUNPCKHQDQ Z1, Z0, Z3          // O

	// half-size 1
	ADDMOD(Z2, Z3, Z4, Z16)
	SUBMOD(Z2, Z3, Z2)              // Z4 = E', Z2 = O'

	// half-size 2
	VSHUFI64X2 $0x88, Z2, Z4, Z5    // U1
	VSHUFI64X2 $0xDD, Z2, Z4, Z6    // V1
	MULMOD(Z6, Z13, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z5, Z6, Z7, Z16)
	SUBMOD(Z5, Z6, Z5)              // Z7 = U1', Z5 = V1'

	// half-size 4
	VSHUFI64X2 $0x88, Z5, Z7, Z8    // U2
	VSHUFI64X2 $0xDD, Z5, Z7, Z9    // V2
	MULMOD(Z9, Z12, Z16, Z17, Z18, Z19, Z20)
	ADDMOD(Z8, Z9, Z10, Z16)
	SUBMOD(Z8, Z9, Z8)              // Z10 = U2', Z8 = V2'

	VMOVDQA64 Z10, Z11
	VPERMT2Q  Z8, Z28, Z11          // A
	VPERMT2Q  Z8, Z29, Z10          // B
	VMOVDQU64 Z11, (BX)
	VMOVDQU64 Z10, 64(BX)
	ADDQ      $128, BX
	JMP       ditheadloop

ditheaddone:
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
