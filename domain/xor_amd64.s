//go:build amd64 && !purego

#include "textflag.h"

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
