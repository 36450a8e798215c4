//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 IFMA transform kernels on 50-bit primes; see intpoly_amd64.go
// for what each computes (the Go functions named there are the reference).
// Register conventions inside every kernel:
//   Z31 = p, Z30 = 2p, Z29 = 2^52 − 1 (in every lane).

// SHOUP(Y, W, WQ, T, S1, S2): T = Y·W mod p in [0, 2p), for Y < 2^52:
// q = hi52(Y·WQ); T = (lo52(Y·W) − lo52(q·p)) mod 2^52. S1, S2 scratch.
#define SHOUP(Y, W, WQ, T, S1, S2) \
	VPXORQ S1, S1, S1 \
	VPMADD52HUQ WQ, Y, S1 \
	VPXORQ T, T, T \
	VPMADD52LUQ W, Y, T \
	VPXORQ S2, S2, S2 \
	VPMADD52LUQ Z31, S1, S2 \
	VPSUBQ S2, T, T \
	VPANDQ Z29, T, T

// FWD(X, Y, W, WQ): (X, Y) = (X + W·Y, X − W·Y), lazily: below 4p on entry
// and exit. Scratch Z20–Z23.
#define FWD(X, Y, W, WQ) \
	VPSUBQ Z30, X, Z20 \
	VPMINUQ Z20, X, X \
	SHOUP(Y, W, WQ, Z21, Z22, Z23) \
	VPSUBQ Z21, X, Y \
	VPADDQ Z30, Y, Y \
	VPADDQ Z21, X, X

// INV(X, Y, W, WQ): (X, Y) = (X + Y, (X − Y)·W), below 2p on entry and
// exit. Scratch Z20–Z24.
#define INV(X, Y, W, WQ) \
	VPADDQ Y, X, Z20 \
	VPSUBQ Y, X, Z24 \
	VPADDQ Z30, Z24, Z24 \
	VPSUBQ Z30, Z20, X \
	VPMINUQ Z20, X, X \
	SHOUP(Z24, W, WQ, Y, Z22, Z23)

#define CONSTS(pOff) \
	VPBROADCASTQ pOff(FP), Z31 \
	VPADDQ Z31, Z31, Z30 \
	MOVQ $0xfffffffffffff, AX \
	VPBROADCASTQ AX, Z29

// func fwdLevelIFMA(x *uint64, stride, hr, blocks int, w, q *uint64, p uint64)
TEXT ·fwdLevelIFMA(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), DI
	MOVQ stride+8(FP), SI
	SHLQ $3, SI
	MOVQ hr+16(FP), CX
	MOVQ blocks+24(FP), DX
	MOVQ w+32(FP), R8
	MOVQ q+40(FP), R9
	CONSTS(p+48)
	MOVQ CX, R10
	IMULQ SI, R10 // hr rows in bytes: from X's row to Y's
fblock:
	VPBROADCASTQ (R8), Z28
	VPBROADCASTQ (R9), Z27
	MOVQ DI, R11
	MOVQ CX, R12
frow:
	VMOVDQU64 (R11), Z0
	VMOVDQU64 (R11)(R10*1), Z1
	FWD(Z0, Z1, Z28, Z27)
	VMOVDQU64 Z0, (R11)
	VMOVDQU64 Z1, (R11)(R10*1)
	ADDQ SI, R11
	DECQ R12
	JNZ frow
	LEAQ (DI)(R10*2), DI
	ADDQ $8, R8
	ADDQ $8, R9
	DECQ DX
	JNZ fblock
	VZEROUPPER
	RET

// func invLevelIFMA(x *uint64, stride, hr, blocks int, w, q *uint64, p uint64)
TEXT ·invLevelIFMA(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), DI
	MOVQ stride+8(FP), SI
	SHLQ $3, SI
	MOVQ hr+16(FP), CX
	MOVQ blocks+24(FP), DX
	MOVQ w+32(FP), R8
	MOVQ q+40(FP), R9
	CONSTS(p+48)
	MOVQ CX, R10
	IMULQ SI, R10
iblock:
	VPBROADCASTQ (R8), Z28
	VPBROADCASTQ (R9), Z27
	MOVQ DI, R11
	MOVQ CX, R12
irow:
	VMOVDQU64 (R11), Z0
	VMOVDQU64 (R11)(R10*1), Z1
	INV(Z0, Z1, Z28, Z27)
	VMOVDQU64 Z0, (R11)
	VMOVDQU64 Z1, (R11)(R10*1)
	ADDQ SI, R11
	DECQ R12
	JNZ irow
	LEAQ (DI)(R10*2), DI
	ADDQ $8, R8
	ADDQ $8, R9
	DECQ DX
	JNZ iblock
	VZEROUPPER
	RET

// Lane indices for the tails. A group of 16 residues is X = x[0:8],
// Y = x[8:16]. Level h=4 works on U = (X0..3 Y0..3), V = (X4..7 Y4..7);
// level h=2 on U2 = (X0 X1 X4 X5 Y0 Y1 Y4 Y5), V2 = (X2 X3 X6 X7 Y2 Y3 Y6 Y7)
// (the same two-table permutation takes (U, V) to (U2, V2) and back);
// level h=1 on U3 = (X0 X2 X4 X6 Y0 Y2 Y4 Y6), V3 = (X1 X3 … Y7), the
// unpacked low and high quadwords of (U2, V2), which are what is stored.
DATA permA<>+0(SB)/8, $0
DATA permA<>+8(SB)/8, $1
DATA permA<>+16(SB)/8, $8
DATA permA<>+24(SB)/8, $9
DATA permA<>+32(SB)/8, $4
DATA permA<>+40(SB)/8, $5
DATA permA<>+48(SB)/8, $12
DATA permA<>+56(SB)/8, $13
GLOBL permA<>(SB), RODATA|NOPTR, $64

DATA permB<>+0(SB)/8, $2
DATA permB<>+8(SB)/8, $3
DATA permB<>+16(SB)/8, $10
DATA permB<>+24(SB)/8, $11
DATA permB<>+32(SB)/8, $6
DATA permB<>+40(SB)/8, $7
DATA permB<>+48(SB)/8, $14
DATA permB<>+56(SB)/8, $15
GLOBL permB<>(SB), RODATA|NOPTR, $64

// dup4: (t0 t0 t0 t0 t1 t1 t1 t1) from (t0 t1 …); dup2: (t0 t0 t1 t1 t2 t2 t3 t3).
DATA dup4<>+0(SB)/8, $0
DATA dup4<>+8(SB)/8, $0
DATA dup4<>+16(SB)/8, $0
DATA dup4<>+24(SB)/8, $0
DATA dup4<>+32(SB)/8, $1
DATA dup4<>+40(SB)/8, $1
DATA dup4<>+48(SB)/8, $1
DATA dup4<>+56(SB)/8, $1
GLOBL dup4<>(SB), RODATA|NOPTR, $64

DATA dup2<>+0(SB)/8, $0
DATA dup2<>+8(SB)/8, $0
DATA dup2<>+16(SB)/8, $1
DATA dup2<>+24(SB)/8, $1
DATA dup2<>+32(SB)/8, $2
DATA dup2<>+40(SB)/8, $2
DATA dup2<>+48(SB)/8, $3
DATA dup2<>+56(SB)/8, $3
GLOBL dup2<>(SB), RODATA|NOPTR, $64

#define TAILARGS \
	MOVQ x+0(FP), DI \
	MOVQ groups+8(FP), CX \
	MOVQ w4+16(FP), R8 \
	MOVQ q4+24(FP), R9 \
	MOVQ w2+32(FP), R10 \
	MOVQ q2+40(FP), R11 \
	MOVQ w1+48(FP), R12 \
	MOVQ q1+56(FP), R13 \
	CONSTS(p+64) \
	VMOVDQU64 permA<>(SB), Z16 \
	VMOVDQU64 permB<>(SB), Z17 \
	VMOVDQU64 dup4<>(SB), Z18 \
	VMOVDQU64 dup2<>(SB), Z19

// TWIDDLES loads the group's twiddles: Z10/Z11 level 4, Z12/Z13 level 2,
// Z14/Z15 level 1 (twiddle, quotient), in the lanes of U, U2, U3.
#define TWIDDLES \
	VBROADCASTI64X2 (R8), Z10 \
	VPERMQ Z10, Z18, Z10 \
	VBROADCASTI64X2 (R9), Z11 \
	VPERMQ Z11, Z18, Z11 \
	VBROADCASTI64X4 (R10), Z12 \
	VPERMQ Z12, Z19, Z12 \
	VBROADCASTI64X4 (R11), Z13 \
	VPERMQ Z13, Z19, Z13 \
	VMOVDQU64 (R12), Z14 \
	VMOVDQU64 (R13), Z15

#define TAILNEXT \
	ADDQ $128, DI \
	ADDQ $16, R8 \
	ADDQ $16, R9 \
	ADDQ $32, R10 \
	ADDQ $32, R11 \
	ADDQ $64, R12 \
	ADDQ $64, R13

// func fwdTailIFMA(x *uint64, groups int, w4, q4, w2, q2, w1, q1 *uint64, p uint64)
TEXT ·fwdTailIFMA(SB), NOSPLIT, $0-72
	TAILARGS
ftail:
	TWIDDLES
	VMOVDQU64 (DI), Z0
	VMOVDQU64 64(DI), Z1
	VSHUFI64X2 $0x44, Z1, Z0, Z2 // U
	VSHUFI64X2 $0xee, Z1, Z0, Z3 // V
	FWD(Z2, Z3, Z10, Z11)
	VMOVDQA64 Z16, Z4
	VPERMI2Q Z3, Z2, Z4          // U2
	VMOVDQA64 Z17, Z5
	VPERMI2Q Z3, Z2, Z5          // V2
	FWD(Z4, Z5, Z12, Z13)
	VPUNPCKLQDQ Z5, Z4, Z6       // U3
	VPUNPCKHQDQ Z5, Z4, Z7       // V3
	FWD(Z6, Z7, Z14, Z15)
	VMOVDQU64 Z6, (DI)
	VMOVDQU64 Z7, 64(DI)
	TAILNEXT
	DECQ CX
	JNZ ftail
	VZEROUPPER
	RET

// func invTailIFMA(x *uint64, groups int, w4, q4, w2, q2, w1, q1 *uint64, p uint64)
TEXT ·invTailIFMA(SB), NOSPLIT, $0-72
	TAILARGS
itail:
	TWIDDLES
	VMOVDQU64 (DI), Z6
	VMOVDQU64 64(DI), Z7
	INV(Z6, Z7, Z14, Z15)
	VPUNPCKLQDQ Z7, Z6, Z4       // U2
	VPUNPCKHQDQ Z7, Z6, Z5       // V2
	INV(Z4, Z5, Z12, Z13)
	VMOVDQA64 Z16, Z2
	VPERMI2Q Z5, Z4, Z2          // U
	VMOVDQA64 Z17, Z3
	VPERMI2Q Z5, Z4, Z3          // V
	INV(Z2, Z3, Z10, Z11)
	VSHUFI64X2 $0x44, Z3, Z2, Z0 // X
	VSHUFI64X2 $0xee, Z3, Z2, Z1 // Y
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	TAILNEXT
	DECQ CX
	JNZ itail
	VZEROUPPER
	RET

// func pointwiseIFMA(a, b *uint64, n int, p, pinv uint64)
TEXT ·pointwiseIFMA(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	CONSTS(p+24)
	VPBROADCASTQ pinv+32(FP), Z28
pw:
	VMOVDQU64 (DI), Z0
	VMOVDQU64 (SI), Z1
	VPSUBQ Z30, Z0, Z2
	VPMINUQ Z2, Z0, Z0
	VPSUBQ Z30, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VPXORQ Z3, Z3, Z3
	VPMADD52LUQ Z1, Z0, Z3 // lo
	VPXORQ Z4, Z4, Z4
	VPMADD52HUQ Z1, Z0, Z4 // hi
	VPXORQ Z5, Z5, Z5
	VPMADD52LUQ Z28, Z3, Z5 // m = lo·p^−1 mod 2^52
	VPXORQ Z6, Z6, Z6
	VPMADD52HUQ Z31, Z5, Z6 // hi52(m·p)
	VPSUBQ Z6, Z4, Z4
	VPADDQ Z31, Z4, Z4
	VMOVDQU64 Z4, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNZ pw
	VZEROUPPER
	RET

// func garnerIFMA(a, prev *uint64, n int, c, cq, p uint64)
TEXT ·garnerIFMA(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), DI
	MOVQ prev+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VPBROADCASTQ c+24(FP), Z28
	VPBROADCASTQ cq+32(FP), Z27
	CONSTS(p+40)
garner:
	VMOVDQU64 (DI), Z0
	VMOVDQU64 (SI), Z1
	VPSUBQ Z1, Z0, Z0
	VPADDQ Z30, Z0, Z0
	SHOUP(Z0, Z28, Z27, Z2, Z22, Z23)
	VMOVDQU64 Z2, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNZ garner
	VZEROUPPER
	RET

// func scatterNT(x, s *uint64, stride, rows int)
// Copies 64 residues (512 bytes) from s + 512·r to x + 8·stride·r for
// r < rows with non-temporal stores; x and 8·stride are multiples of 64.
TEXT ·scatterNT(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ stride+16(FP), DX
	SHLQ $3, DX
	MOVQ rows+24(FP), CX
scatter:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VMOVDQU64 256(SI), Z4
	VMOVDQU64 320(SI), Z5
	VMOVDQU64 384(SI), Z6
	VMOVDQU64 448(SI), Z7
	VMOVNTDQ Z0, (DI)
	VMOVNTDQ Z1, 64(DI)
	VMOVNTDQ Z2, 128(DI)
	VMOVNTDQ Z3, 192(DI)
	VMOVNTDQ Z4, 256(DI)
	VMOVNTDQ Z5, 320(DI)
	VMOVNTDQ Z6, 384(DI)
	VMOVNTDQ Z7, 448(DI)
	ADDQ $512, SI
	ADDQ DX, DI
	DECQ CX
	JNZ scatter
	SFENCE
	VZEROUPPER
	RET

// func sumDigitsIFMA(d, dg *uint64, n, stride, pieces int, w *uint64, p uint64)
TEXT ·sumDigitsIFMA(SB), NOSPLIT, $0-56
	MOVQ d+0(FP), DI
	MOVQ dg+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	MOVQ stride+24(FP), DX
	SHLQ $3, DX
	MOVQ pieces+32(FP), BX
	SHLQ $1, BX
	MOVQ w+40(FP), R8
	CONSTS(p+48)
sdblock:
	VPXORQ Z0, Z0, Z0
	MOVQ SI, R10
	XORQ R11, R11
sddigit:
	VMOVDQU64 (R10), Z1
	VPBROADCASTQ (R8)(R11*8), Z2
	VPBROADCASTQ 8(R8)(R11*8), Z3
	SHOUP(Z1, Z2, Z3, Z4, Z5, Z6)
	VPADDQ Z4, Z0, Z0
	VPSUBQ Z30, Z0, Z7
	VPMINUQ Z7, Z0, Z0
	ADDQ DX, R10
	ADDQ $2, R11
	CMPQ R11, BX
	JLT sddigit
	VMOVDQU64 Z0, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNZ sdblock
	VZEROUPPER
	RET
