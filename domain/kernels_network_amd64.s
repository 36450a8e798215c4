//go:build amd64 && !purego

#include "textflag.h"

// The lowest levels of the butterfly network in registers: levels 3..0 on
// 16-element groups (net16*) or levels 5..0 on 64-element groups (net64*).
// A 16-element group is held as A = a[0..7], B = a[8..15]; levels ≥ 3 pair
// whole registers lane by lane (one broadcast twiddle per block, loc[r]
// entries), and for each level r < 3 the group is permuted into (U, V), the
// first and second members of its eight pairs in pair order, so that the
// twiddles are the eight consecutive entries locExp[r][8g .. 8g+7] of
// 16-element group g. Every twiddle is XORed with its level's base twiddle.
// net16FwdAVX512 behaves like net16Generic, net16InvAVX512 like
// net16InvGeneric, net64FwdAVX512 like net64Generic, net64InvAVX512 like
// net64InvGeneric.
//
// Products use VPCLMULQDQ on the even and odd qwords and one of two
// reductions (as in field/gf64): REDUCE8 with two more carry-less
// multiplications by 0x1b (Z31), REDUCE8P with shifts and a VPSHUFB lookup
// of the top four bits (table in Z29). Alternating them spreads the work
// over the carry-less multiplier's port and the shift port.

DATA net16red<>+0(SB)/8, $0x6c77415a362d1b00
DATA net16red<>+8(SB)/8, $0xc3d8eef59982b4af
GLOBL net16red<>(SB), RODATA|NOPTR, $16

// Permutation indexes for VPERMT2Q (index ≥ 8: second table).
// p1a/p1b: (U, V) of level 2 <-> (U, V) of level 1 (an involution pair).
DATA net16p1a<>+0(SB)/8, $0
DATA net16p1a<>+8(SB)/8, $1
DATA net16p1a<>+16(SB)/8, $8
DATA net16p1a<>+24(SB)/8, $9
DATA net16p1a<>+32(SB)/8, $4
DATA net16p1a<>+40(SB)/8, $5
DATA net16p1a<>+48(SB)/8, $12
DATA net16p1a<>+56(SB)/8, $13
GLOBL net16p1a<>(SB), RODATA|NOPTR, $64
DATA net16p1b<>+0(SB)/8, $2
DATA net16p1b<>+8(SB)/8, $3
DATA net16p1b<>+16(SB)/8, $10
DATA net16p1b<>+24(SB)/8, $11
DATA net16p1b<>+32(SB)/8, $6
DATA net16p1b<>+40(SB)/8, $7
DATA net16p1b<>+48(SB)/8, $14
DATA net16p1b<>+56(SB)/8, $15
GLOBL net16p1b<>(SB), RODATA|NOPTR, $64
// pba/pbb: (U, V) of level 0 -> (A, B).
DATA net16pba<>+0(SB)/8, $0
DATA net16pba<>+8(SB)/8, $8
DATA net16pba<>+16(SB)/8, $1
DATA net16pba<>+24(SB)/8, $9
DATA net16pba<>+32(SB)/8, $2
DATA net16pba<>+40(SB)/8, $10
DATA net16pba<>+48(SB)/8, $3
DATA net16pba<>+56(SB)/8, $11
GLOBL net16pba<>(SB), RODATA|NOPTR, $64
DATA net16pbb<>+0(SB)/8, $4
DATA net16pbb<>+8(SB)/8, $12
DATA net16pbb<>+16(SB)/8, $5
DATA net16pbb<>+24(SB)/8, $13
DATA net16pbb<>+32(SB)/8, $6
DATA net16pbb<>+40(SB)/8, $14
DATA net16pbb<>+48(SB)/8, $7
DATA net16pbb<>+56(SB)/8, $15
GLOBL net16pbb<>(SB), RODATA|NOPTR, $64
// pea/peb: (A, B) -> (U, V) of level 0 (even and odd elements).
DATA net16pea<>+0(SB)/8, $0
DATA net16pea<>+8(SB)/8, $2
DATA net16pea<>+16(SB)/8, $4
DATA net16pea<>+24(SB)/8, $6
DATA net16pea<>+32(SB)/8, $8
DATA net16pea<>+40(SB)/8, $10
DATA net16pea<>+48(SB)/8, $12
DATA net16pea<>+56(SB)/8, $14
GLOBL net16pea<>(SB), RODATA|NOPTR, $64
DATA net16peb<>+0(SB)/8, $1
DATA net16peb<>+8(SB)/8, $3
DATA net16peb<>+16(SB)/8, $5
DATA net16peb<>+24(SB)/8, $7
DATA net16peb<>+32(SB)/8, $9
DATA net16peb<>+40(SB)/8, $11
DATA net16peb<>+48(SB)/8, $13
DATA net16peb<>+56(SB)/8, $15
GLOBL net16peb<>(SB), RODATA|NOPTR, $64

// NREDUCE8 reduces the even-qword products E and odd-qword products O and
// leaves the eight results, in order, in E. Clobbers O, T0..T3.
#define NREDUCE8(E, O, T0, T1, T2, T3) \
	VPCLMULQDQ  $0x01, Z31, E, T0; \
	VPCLMULQDQ  $0x01, Z31, O, T1; \
	VPCLMULQDQ  $0x01, Z31, T0, T2; \
	VPCLMULQDQ  $0x01, Z31, T1, T3; \
	VPTERNLOGQ  $0x96, T2, T0, E; \
	VPTERNLOGQ  $0x96, T3, T1, O; \
	VPUNPCKLQDQ O, E, E

// NREDUCE8P is NREDUCE8 with shifts and a table lookup (Z29).
#define NREDUCE8P(E, O, T0, T1, T2, T3) \
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

// NMUL8 sets E = X·T lane-wise; NMUL8P likewise with NREDUCE8P.
#define NMUL8(X, T, E, O, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, T, X, E; \
	VPCLMULQDQ $0x11, T, X, O; \
	NREDUCE8(E, O, T0, T1, T2, T3)

#define NMUL8P(X, T, E, O, T0, T1, T2, T3) \
	VPCLMULQDQ $0x00, T, X, E; \
	VPCLMULQDQ $0x11, T, X, O; \
	NREDUCE8P(E, O, T0, T1, T2, T3)

// Forward butterfly on (U, V) with twiddles T: U ^= T·V, V ^= U.
#define FWD(U, V, T, M) \
	M(V, T, Z10, Z11, Z12, Z13, Z14, Z15); \
	VPXORQ Z10, U, U; \
	VPXORQ U, V, V

// Inverse butterfly: V ^= U, U ^= T·V.
#define INV(U, V, T, M) \
	VPXORQ U, V, V; \
	M(V, T, Z10, Z11, Z12, Z13, Z14, Z15); \
	VPXORQ Z10, U, U

// Registers: Z20..Z23, Z28, Z30: base twiddles of levels 0..5, broadcast;
// Z24, Z25: p1a, p1b; Z26, Z27: pba, pbb (forward) or pea, peb (inverse);
// Z29: reduction table; Z31: 0x1b. DI: a; CX: groups; R8..R10: locExp of
// levels 0..2 (64 bytes per 16 elements); R11..R13: loc of levels 3..5 (8
// bytes per block). Z0..Z5, Z10..Z15: scratch.
#define NSETUP(boff) \
	MOVQ            a+0(FP), DI; \
	MOVQ            groups+8(FP), CX; \
	MOVQ            loc0+16(FP), R8; \
	MOVQ            loc1+24(FP), R9; \
	MOVQ            loc2+32(FP), R10; \
	MOVQ            loc3+40(FP), R11; \
	MOVQ            base+boff(FP), AX; \
	VPBROADCASTQ    (AX), Z20; \
	VPBROADCASTQ    8(AX), Z21; \
	VPBROADCASTQ    16(AX), Z22; \
	VPBROADCASTQ    24(AX), Z23; \
	VPBROADCASTQ    32(AX), Z28; \
	VPBROADCASTQ    40(AX), Z30; \
	MOVQ            $0x1b, AX; \
	VPBROADCASTQ    AX, Z31; \
	VBROADCASTI32X4 net16red<>(SB), Z29; \
	VMOVDQU64       net16p1a<>(SB), Z24; \
	VMOVDQU64       net16p1b<>(SB), Z25

#define FWDPERMS \
	VMOVDQU64 net16pba<>(SB), Z26; \
	VMOVDQU64 net16pbb<>(SB), Z27

#define INVPERMS \
	VMOVDQU64 net16pea<>(SB), Z26; \
	VMOVDQU64 net16peb<>(SB), Z27

// BCAST sets Z2 to the twiddle whose offset is at o(R), plus base B.
#define BCAST(o, R, B) \
	VPBROADCASTQ o(R), Z2; \
	VPXORQ       B, Z2, Z2

// LOW3F runs levels 2, 1, 0 forward on the 16-element group (X, Y), whose
// level-r twiddles are at o(R8..R10), and stores it at d0(DI), d1(DI).
#define LOW3F(X, Y, o, d0, d1) \
	VSHUFI64X2  $0x44, Y, X, Z3; \
	VSHUFI64X2  $0xEE, Y, X, Z4; \
	VPXORQ      o(R10), Z22, Z2; \
	FWD(Z3, Z4, Z2, NMUL8P); \
	VMOVDQA64   Z3, Z5; \
	VPERMT2Q    Z4, Z24, Z5; \
	VPERMT2Q    Z4, Z25, Z3; \
	VPXORQ      o(R9), Z21, Z2; \
	FWD(Z5, Z3, Z2, NMUL8); \
	VPUNPCKLQDQ Z3, Z5, Z0; \
	VPUNPCKHQDQ Z3, Z5, Z1; \
	VPXORQ      o(R8), Z20, Z2; \
	FWD(Z0, Z1, Z2, NMUL8P); \
	VMOVDQA64   Z0, Z5; \
	VPERMT2Q    Z1, Z26, Z5; \
	VPERMT2Q    Z1, Z27, Z0; \
	VMOVDQU64   Z5, d0(DI); \
	VMOVDQU64   Z0, d1(DI)

// LOW3I undoes LOW3F on (X, Y) in registers.
#define LOW3I(X, Y, o) \
	VMOVDQA64   X, Z5; \
	VPERMT2Q    Y, Z26, Z5; \
	VPERMT2Q    Y, Z27, X; \
	VPXORQ      o(R8), Z20, Z2; \
	INV(Z5, X, Z2, NMUL8P); \
	VPUNPCKLQDQ X, Z5, Z3; \
	VPUNPCKHQDQ X, Z5, Z4; \
	VPXORQ      o(R9), Z21, Z2; \
	INV(Z3, Z4, Z2, NMUL8); \
	VMOVDQA64   Z3, Z5; \
	VPERMT2Q    Z4, Z24, Z5; \
	VPERMT2Q    Z4, Z25, Z3; \
	VPXORQ      o(R10), Z22, Z2; \
	INV(Z5, Z3, Z2, NMUL8P); \
	VSHUFI64X2  $0x44, Z3, Z5, X; \
	VSHUFI64X2  $0xEE, Z3, Z5, Y

// Setup, loads and stores of the radix-8 kernels (below).
#define R8SETUP \
	MOVQ            dst+0(FP), DI; \
	MOVQ            src+8(FP), SI; \
	MOVQ            st+16(FP), BX; \
	MOVQ            cols+24(FP), CX; \
	MOVQ            tw+32(FP), AX; \
	VPBROADCASTQ    (AX), Z20; \
	VPBROADCASTQ    8(AX), Z21; \
	VPBROADCASTQ    16(AX), Z22; \
	VPBROADCASTQ    24(AX), Z23; \
	VPBROADCASTQ    32(AX), Z24; \
	VPBROADCASTQ    40(AX), Z25; \
	VPBROADCASTQ    48(AX), Z26; \
	MOVQ            $0x1b, AX; \
	VPBROADCASTQ    AX, Z31; \
	VBROADCASTI32X4 net16red<>(SB), Z29; \
	SHRQ            $3, CX; \
	SHLQ            $3, BX; \
	LEAQ            (BX)(BX*2), R11; \
	LEAQ            (DI)(BX*4), R8; \
	LEAQ            (SI)(BX*4), R9

#define R8LOAD \
	VMOVDQU64 (SI), Z6; \
	VMOVDQU64 (SI)(BX*1), Z7; \
	VMOVDQU64 (SI)(BX*2), Z8; \
	VMOVDQU64 (SI)(R11*1), Z9; \
	VMOVDQU64 (R9), Z16; \
	VMOVDQU64 (R9)(BX*1), Z17; \
	VMOVDQU64 (R9)(BX*2), Z18; \
	VMOVDQU64 (R9)(R11*1), Z19

#define R8STORE \
	VMOVDQU64 Z6, (DI); \
	VMOVDQU64 Z7, (DI)(BX*1); \
	VMOVDQU64 Z8, (DI)(BX*2); \
	VMOVDQU64 Z9, (DI)(R11*1); \
	VMOVDQU64 Z16, (R8); \
	VMOVDQU64 Z17, (R8)(BX*1); \
	VMOVDQU64 Z18, (R8)(BX*2); \
	VMOVDQU64 Z19, (R8)(R11*1); \
	ADDQ      $64, DI; \
	ADDQ      $64, R8; \
	ADDQ      $64, SI; \
	ADDQ      $64, R9; \
	DECQ      CX

// func net16FwdAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[6]gf64.Element)
TEXT ·net16FwdAVX512(SB), NOSPLIT, $0-56
	NSETUP(48)
	FWDPERMS
	TESTQ CX, CX
	JZ    nf_done

nf_loop:
	VMOVDQU64 (DI), Z6
	VMOVDQU64 64(DI), Z7
	BCAST(0, R11, Z23)
	FWD(Z6, Z7, Z2, NMUL8)
	LOW3F(Z6, Z7, 0, 0, 64)
	ADDQ      $128, DI
	ADDQ      $64, R8
	ADDQ      $64, R9
	ADDQ      $64, R10
	ADDQ      $8, R11
	DECQ      CX
	JNZ       nf_loop

nf_done:
	VZEROUPPER
	RET

// func net16InvAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[6]gf64.Element)
TEXT ·net16InvAVX512(SB), NOSPLIT, $0-56
	NSETUP(48)
	INVPERMS
	TESTQ CX, CX
	JZ    ni_done

ni_loop:
	VMOVDQU64 (DI), Z6
	VMOVDQU64 64(DI), Z7
	LOW3I(Z6, Z7, 0)
	BCAST(0, R11, Z23)
	INV(Z6, Z7, Z2, NMUL8)
	VMOVDQU64 Z6, (DI)
	VMOVDQU64 Z7, 64(DI)
	ADDQ      $128, DI
	ADDQ      $64, R8
	ADDQ      $64, R9
	ADDQ      $64, R10
	ADDQ      $8, R11
	DECQ      CX
	JNZ       ni_loop

ni_done:
	VZEROUPPER
	RET

// The 64-element group is held in Z6, Z7, Z8, Z9, Z16, Z17, Z18, Z19
// (a[0..7] .. a[56..63]).
#define LOAD64 \
	VMOVDQU64 (DI), Z6; \
	VMOVDQU64 64(DI), Z7; \
	VMOVDQU64 128(DI), Z8; \
	VMOVDQU64 192(DI), Z9; \
	VMOVDQU64 256(DI), Z16; \
	VMOVDQU64 320(DI), Z17; \
	VMOVDQU64 384(DI), Z18; \
	VMOVDQU64 448(DI), Z19

#define NEXT64 \
	ADDQ $512, DI; \
	ADDQ $256, R8; \
	ADDQ $256, R9; \
	ADDQ $256, R10; \
	ADDQ $32, R11; \
	ADDQ $16, R12; \
	ADDQ $8, R13; \
	DECQ CX

// func net64FwdAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3, loc4, loc5 *gf64.Element, base *[6]gf64.Element)
TEXT ·net64FwdAVX512(SB), NOSPLIT, $0-72
	NSETUP(64)
	MOVQ loc4+48(FP), R12
	MOVQ loc5+56(FP), R13
	FWDPERMS
	TESTQ CX, CX
	JZ    n64f_done

n64f_loop:
	LOAD64
	// level 5
	BCAST(0, R13, Z30)
	FWD(Z6, Z16, Z2, NMUL8)
	FWD(Z7, Z17, Z2, NMUL8P)
	FWD(Z8, Z18, Z2, NMUL8)
	FWD(Z9, Z19, Z2, NMUL8P)
	// level 4
	BCAST(0, R12, Z28)
	FWD(Z6, Z8, Z2, NMUL8)
	FWD(Z7, Z9, Z2, NMUL8P)
	BCAST(8, R12, Z28)
	FWD(Z16, Z18, Z2, NMUL8)
	FWD(Z17, Z19, Z2, NMUL8P)
	// level 3
	BCAST(0, R11, Z23)
	FWD(Z6, Z7, Z2, NMUL8)
	BCAST(8, R11, Z23)
	FWD(Z8, Z9, Z2, NMUL8P)
	BCAST(16, R11, Z23)
	FWD(Z16, Z17, Z2, NMUL8)
	BCAST(24, R11, Z23)
	FWD(Z18, Z19, Z2, NMUL8P)
	// levels 2..0, one 16-element group at a time
	LOW3F(Z6, Z7, 0, 0, 64)
	LOW3F(Z8, Z9, 64, 128, 192)
	LOW3F(Z16, Z17, 128, 256, 320)
	LOW3F(Z18, Z19, 192, 384, 448)
	NEXT64
	JNZ   n64f_loop

n64f_done:
	VZEROUPPER
	RET

// func net64InvAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3, loc4, loc5 *gf64.Element, base *[6]gf64.Element)
TEXT ·net64InvAVX512(SB), NOSPLIT, $0-72
	NSETUP(64)
	MOVQ loc4+48(FP), R12
	MOVQ loc5+56(FP), R13
	INVPERMS
	TESTQ CX, CX
	JZ    n64i_done

n64i_loop:
	LOAD64
	LOW3I(Z6, Z7, 0)
	LOW3I(Z8, Z9, 64)
	LOW3I(Z16, Z17, 128)
	LOW3I(Z18, Z19, 192)
	// level 3
	BCAST(0, R11, Z23)
	INV(Z6, Z7, Z2, NMUL8)
	BCAST(8, R11, Z23)
	INV(Z8, Z9, Z2, NMUL8P)
	BCAST(16, R11, Z23)
	INV(Z16, Z17, Z2, NMUL8)
	BCAST(24, R11, Z23)
	INV(Z18, Z19, Z2, NMUL8P)
	// level 4
	BCAST(0, R12, Z28)
	INV(Z6, Z8, Z2, NMUL8)
	INV(Z7, Z9, Z2, NMUL8P)
	BCAST(8, R12, Z28)
	INV(Z16, Z18, Z2, NMUL8)
	INV(Z17, Z19, Z2, NMUL8P)
	// level 5
	BCAST(0, R13, Z30)
	INV(Z6, Z16, Z2, NMUL8)
	INV(Z7, Z17, Z2, NMUL8P)
	INV(Z8, Z18, Z2, NMUL8)
	INV(Z9, Z19, Z2, NMUL8P)
	VMOVDQU64 Z6, (DI)
	VMOVDQU64 Z7, 64(DI)
	VMOVDQU64 Z8, 128(DI)
	VMOVDQU64 Z9, 192(DI)
	VMOVDQU64 Z16, 256(DI)
	VMOVDQU64 Z17, 320(DI)
	VMOVDQU64 Z18, 384(DI)
	VMOVDQU64 Z19, 448(DI)
	NEXT64
	JNZ   n64i_loop

n64i_done:
	VZEROUPPER
	RET

// Three network levels at once on the eight slices a[k·st .. (k+1)·st]
// (st a multiple of 8), columns [0, cols) (cols a multiple of 8), read from
// src and written to dst (equal, or not overlapping): the top level pairs slices k and k+4 (twiddle
// tw[0]), the next k and k+2 (tw[1] for slices 0..3, tw[2] for 4..7), the
// last k and k+1 (tw[3+k/2]). One column of eight elements of each slice
// stays in registers for all three levels. radix8FwdAVX512 behaves like
// radix8Generic, radix8InvAVX512 like radix8InvGeneric.
// func radix8FwdAVX512(dst, src *gf64.Element, st, cols int, tw *[7]gf64.Element)
TEXT ·radix8FwdAVX512(SB), NOSPLIT, $0-40
	R8SETUP
	TESTQ CX, CX
	JZ    r8f_done

r8f_loop:
	R8LOAD
	FWD(Z6, Z16, Z20, NMUL8)
	FWD(Z7, Z17, Z20, NMUL8P)
	FWD(Z8, Z18, Z20, NMUL8)
	FWD(Z9, Z19, Z20, NMUL8P)
	FWD(Z6, Z8, Z21, NMUL8)
	FWD(Z7, Z9, Z21, NMUL8P)
	FWD(Z16, Z18, Z22, NMUL8)
	FWD(Z17, Z19, Z22, NMUL8P)
	FWD(Z6, Z7, Z23, NMUL8)
	FWD(Z8, Z9, Z24, NMUL8P)
	FWD(Z16, Z17, Z25, NMUL8)
	FWD(Z18, Z19, Z26, NMUL8P)
	R8STORE
	JNZ r8f_loop

r8f_done:
	VZEROUPPER
	RET

// func radix8InvAVX512(dst, src *gf64.Element, st, cols int, tw *[7]gf64.Element)
TEXT ·radix8InvAVX512(SB), NOSPLIT, $0-40
	R8SETUP
	TESTQ CX, CX
	JZ    r8i_done

r8i_loop:
	R8LOAD
	INV(Z6, Z7, Z23, NMUL8)
	INV(Z8, Z9, Z24, NMUL8P)
	INV(Z16, Z17, Z25, NMUL8)
	INV(Z18, Z19, Z26, NMUL8P)
	INV(Z6, Z8, Z21, NMUL8)
	INV(Z7, Z9, Z21, NMUL8P)
	INV(Z16, Z18, Z22, NMUL8)
	INV(Z17, Z19, Z22, NMUL8P)
	INV(Z6, Z16, Z20, NMUL8)
	INV(Z7, Z17, Z20, NMUL8P)
	INV(Z8, Z18, Z20, NMUL8)
	INV(Z9, Z19, Z20, NMUL8P)
	R8STORE
	JNZ r8i_loop

r8i_done:
	VZEROUPPER
	RET
