//go:build amd64 && !purego

#include "textflag.h"

// The three Taylor levels of fusedOps on 16 segments of seg elements each,
// columns [0, w) (w a multiple of 8), one 8-element column group at a time in
// registers. taylor3AVX512 behaves like taylor3Generic, untaylor3AVX512 like
// untaylor3Generic.
#define LOAD16 \
	VMOVDQU64 (DX), Z1; \
	VMOVDQU64 (SI), Z2; \
	VMOVDQU64 (DI), Z3; \
	VMOVDQU64 (AX)(R10*1), Z4; \
	VMOVDQU64 (DX)(R10*1), Z5; \
	VMOVDQU64 (SI)(R10*1), Z6; \
	VMOVDQU64 (DI)(R10*1), Z7; \
	VMOVDQU64 (AX)(R11*1), Z8; \
	VMOVDQU64 (DX)(R11*1), Z9; \
	VMOVDQU64 (SI)(R11*1), Z10; \
	VMOVDQU64 (DI)(R11*1), Z11; \
	VMOVDQU64 (AX)(R12*1), Z12; \
	VMOVDQU64 (DX)(R12*1), Z13; \
	VMOVDQU64 (SI)(R12*1), Z14; \
	VMOVDQU64 (DI)(R12*1), Z15

#define STORE14 \
	VMOVDQU64 Z1, (DX); \
	VMOVDQU64 Z2, (SI); \
	VMOVDQU64 Z3, (DI); \
	VMOVDQU64 Z4, (AX)(R10*1); \
	VMOVDQU64 Z5, (DX)(R10*1); \
	VMOVDQU64 Z6, (SI)(R10*1); \
	VMOVDQU64 Z7, (DI)(R10*1); \
	VMOVDQU64 Z8, (AX)(R11*1); \
	VMOVDQU64 Z9, (DX)(R11*1); \
	VMOVDQU64 Z10, (SI)(R11*1); \
	VMOVDQU64 Z11, (DI)(R11*1); \
	VMOVDQU64 Z12, (AX)(R12*1); \
	VMOVDQU64 Z13, (DX)(R12*1); \
	VMOVDQU64 Z14, (SI)(R12*1)

#define SETUP \
	MOVQ base+0(FP), AX; \
	MOVQ seg+8(FP), BX; \
	SHLQ $3, BX; \
	MOVQ w+16(FP), CX; \
	SHRQ $3, CX; \
	LEAQ (AX)(BX*1), DX; \
	LEAQ (DX)(BX*1), SI; \
	LEAQ (SI)(BX*1), DI; \
	MOVQ BX, R10; \
	SHLQ $2, R10; \
	LEAQ (R10)(R10*1), R11; \
	LEAQ (R11)(R10*1), R12

#define ADVANCE \
	ADDQ $64, AX; \
	ADDQ $64, DX; \
	ADDQ $64, SI; \
	ADDQ $64, DI


// func xorSSE2(dst, src []Element)
// dst[i] ^= src[i] for i < len(dst); behaves like xorGeneric.
TEXT ·xorSSE2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	CMPQ CX, $8
	JB   tail

loop8:
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU (DI), X4
	MOVOU 16(DI), X5
	MOVOU 32(DI), X6
	MOVOU 48(DI), X7
	PXOR  X4, X0
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	MOVOU X0, (DI)
	MOVOU X1, 16(DI)
	MOVOU X2, 32(DI)
	MOVOU X3, 48(DI)
	ADDQ  $64, SI
	ADDQ  $64, DI
	SUBQ  $8, CX
	CMPQ  CX, $8
	JAE   loop8

tail:
	TESTQ CX, CX
	JZ    done

loop1:
	MOVQ (SI), AX
	XORQ AX, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  loop1

done:
	RET

// func xorAVX512(dst, src []Element)
// dst[i] ^= src[i] for i < len(dst); behaves like xorGeneric.
TEXT ·xorAVX512(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	CMPQ CX, $32
	JB   tail8

loop32:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VPXORQ    (DI), Z0, Z0
	VPXORQ    64(DI), Z1, Z1
	VPXORQ    128(DI), Z2, Z2
	VPXORQ    192(DI), Z3, Z3
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	VMOVDQU64 Z2, 128(DI)
	VMOVDQU64 Z3, 192(DI)
	ADDQ      $256, SI
	ADDQ      $256, DI
	SUBQ      $32, CX
	CMPQ      CX, $32
	JAE       loop32

tail8:
	CMPQ CX, $8
	JB   tail1
	VMOVDQU64 (SI), Z0
	VPXORQ    (DI), Z0, Z0
	VMOVDQU64 Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX
	JMP       tail8

tail1:
	VZEROUPPER
	TESTQ CX, CX
	JZ    done

loop1:
	MOVQ (SI), AX
	XORQ AX, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  loop1

done:
	RET

// func taylor3AVX512(base *Element, seg, w int)
TEXT ·taylor3AVX512(SB), NOSPLIT, $0-24
	SETUP
	TESTQ CX, CX
	JZ    t3done

t3loop:
	LOAD16
	VPXORQ Z12, Z8, Z8
	VPXORQ Z13, Z9, Z9
	VPXORQ Z14, Z10, Z10
	VPXORQ Z15, Z11, Z11
	VPXORQ Z8, Z4, Z4
	VPXORQ Z9, Z5, Z5
	VPXORQ Z10, Z6, Z6
	VPXORQ Z11, Z7, Z7
	VPXORQ Z6, Z4, Z4
	VPXORQ Z7, Z5, Z5
	VPXORQ Z4, Z2, Z2
	VPXORQ Z5, Z3, Z3
	VPXORQ Z14, Z12, Z12
	VPXORQ Z15, Z13, Z13
	VPXORQ Z12, Z10, Z10
	VPXORQ Z13, Z11, Z11
	VPXORQ Z3, Z2, Z2
	VPXORQ Z2, Z1, Z1
	VPXORQ Z7, Z6, Z6
	VPXORQ Z6, Z5, Z5
	VPXORQ Z11, Z10, Z10
	VPXORQ Z10, Z9, Z9
	VPXORQ Z15, Z14, Z14
	VPXORQ Z14, Z13, Z13
	STORE14
	ADVANCE
	DECQ CX
	JNZ  t3loop
	VZEROUPPER

t3done:
	RET

// func untaylor3AVX512(base *Element, seg, w int)
TEXT ·untaylor3AVX512(SB), NOSPLIT, $0-24
	SETUP
	TESTQ CX, CX
	JZ    u3done

u3loop:
	LOAD16
	VPXORQ Z14, Z13, Z13
	VPXORQ Z15, Z14, Z14
	VPXORQ Z10, Z9, Z9
	VPXORQ Z11, Z10, Z10
	VPXORQ Z6, Z5, Z5
	VPXORQ Z7, Z6, Z6
	VPXORQ Z2, Z1, Z1
	VPXORQ Z3, Z2, Z2
	VPXORQ Z13, Z11, Z11
	VPXORQ Z12, Z10, Z10
	VPXORQ Z15, Z13, Z13
	VPXORQ Z14, Z12, Z12
	VPXORQ Z5, Z3, Z3
	VPXORQ Z4, Z2, Z2
	VPXORQ Z7, Z5, Z5
	VPXORQ Z6, Z4, Z4
	VPXORQ Z11, Z7, Z7
	VPXORQ Z10, Z6, Z6
	VPXORQ Z9, Z5, Z5
	VPXORQ Z8, Z4, Z4
	VPXORQ Z15, Z11, Z11
	VPXORQ Z14, Z10, Z10
	VPXORQ Z13, Z9, Z9
	VPXORQ Z12, Z8, Z8
	STORE14
	ADVANCE
	DECQ CX
	JNZ  u3loop
	VZEROUPPER

u3done:
	RET
