//go:build amd64 && !purego

#include "textflag.h"

// The four lowest levels (3, 2, 1, 0) of the butterfly network on 16-element
// groups, in registers. A group is loaded as A = a[0..7], B = a[8..15];
// level 3 pairs A and B lane by lane, and for each lower level the group is
// permuted into (U, V), the first and second members of its eight pairs in
// pair order, so that the twiddles of level r are the eight consecutive
// entries locExp[r][8j .. 8j+7] of group j (level 3: loc[3][j], broadcast),
// each XORed with the level's base twiddle. net16FwdAVX512 behaves like
// net16Generic, net16InvAVX512 like net16InvGeneric.
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

// NSETUP loads the arguments and constants. DI: a, CX: groups, R8..R11:
// loc0, loc1, loc2 (advancing 64 bytes a group), loc3 (8 bytes a group);
// Z25..Z28: the base twiddles of levels 0..3, broadcast.
#define NSETUP \
	MOVQ            a+0(FP), DI; \
	MOVQ            groups+8(FP), CX; \
	MOVQ            loc0+16(FP), R8; \
	MOVQ            loc1+24(FP), R9; \
	MOVQ            loc2+32(FP), R10; \
	MOVQ            loc3+40(FP), R11; \
	MOVQ            base+48(FP), AX; \
	VPBROADCASTQ    (AX), Z25; \
	VPBROADCASTQ    8(AX), Z26; \
	VPBROADCASTQ    16(AX), Z27; \
	VPBROADCASTQ    24(AX), Z28; \
	MOVQ            $0x1b, AX; \
	VPBROADCASTQ    AX, Z31; \
	VBROADCASTI32X4 net16red<>(SB), Z29; \
	VMOVDQU64       net16p1a<>(SB), Z24; \
	VMOVDQU64       net16p1b<>(SB), Z23

// func net16FwdAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[4]gf64.Element)
TEXT ·net16FwdAVX512(SB), NOSPLIT, $0-56
	NSETUP
	VMOVDQU64 net16pba<>(SB), Z22
	VMOVDQU64 net16pbb<>(SB), Z21
	TESTQ     CX, CX
	JZ        nf_done

nf_loop:
	VMOVDQU64    (DI), Z0
	VMOVDQU64    64(DI), Z1
	// level 3: A, B
	VPBROADCASTQ (R11), Z2
	VPXORQ       Z28, Z2, Z2
	FWD(Z0, Z1, Z2, NMUL8)
	// level 2: U = [A0..3, B0..3], V = [A4..7, B4..7]
	VSHUFI64X2   $0x44, Z1, Z0, Z3
	VSHUFI64X2   $0xEE, Z1, Z0, Z4
	VPXORQ       (R10), Z27, Z2
	FWD(Z3, Z4, Z2, NMUL8P)
	// level 1: U = [A0 A1 A4 A5 B0 B1 B4 B5], V = [A2 A3 A6 A7 B2 B3 B6 B7]
	VMOVDQA64    Z3, Z5
	VPERMT2Q     Z4, Z24, Z5
	VPERMT2Q     Z4, Z23, Z3
	VPXORQ       (R9), Z26, Z2
	FWD(Z5, Z3, Z2, NMUL8)
	// level 0: U = even elements, V = odd elements
	VPUNPCKLQDQ  Z3, Z5, Z0
	VPUNPCKHQDQ  Z3, Z5, Z1
	VPXORQ       (R8), Z25, Z2
	FWD(Z0, Z1, Z2, NMUL8P)
	// back to A, B
	VMOVDQA64    Z0, Z5
	VPERMT2Q     Z1, Z22, Z5
	VPERMT2Q     Z1, Z21, Z0
	VMOVDQU64    Z5, (DI)
	VMOVDQU64    Z0, 64(DI)
	ADDQ         $128, DI
	ADDQ         $64, R8
	ADDQ         $64, R9
	ADDQ         $64, R10
	ADDQ         $8, R11
	DECQ         CX
	JNZ          nf_loop

nf_done:
	VZEROUPPER
	RET

// func net16InvAVX512(a *gf64.Element, groups int, loc0, loc1, loc2, loc3 *gf64.Element, base *[4]gf64.Element)
TEXT ·net16InvAVX512(SB), NOSPLIT, $0-56
	NSETUP
	VMOVDQU64 net16pea<>(SB), Z22
	VMOVDQU64 net16peb<>(SB), Z21
	TESTQ     CX, CX
	JZ        ni_done

ni_loop:
	VMOVDQU64    (DI), Z0
	VMOVDQU64    64(DI), Z1
	// level 0: U = even elements, V = odd elements
	VMOVDQA64    Z0, Z5
	VPERMT2Q     Z1, Z22, Z5
	VPERMT2Q     Z1, Z21, Z0
	VPXORQ       (R8), Z25, Z2
	INV(Z5, Z0, Z2, NMUL8P)
	// level 1
	VPUNPCKLQDQ  Z0, Z5, Z3
	VPUNPCKHQDQ  Z0, Z5, Z4
	VPXORQ       (R9), Z26, Z2
	INV(Z3, Z4, Z2, NMUL8)
	// level 2
	VMOVDQA64    Z3, Z5
	VPERMT2Q     Z4, Z24, Z5
	VPERMT2Q     Z4, Z23, Z3
	VPXORQ       (R10), Z27, Z2
	INV(Z5, Z3, Z2, NMUL8P)
	// level 3: A, B
	VSHUFI64X2   $0x44, Z3, Z5, Z0
	VSHUFI64X2   $0xEE, Z3, Z5, Z1
	VPBROADCASTQ (R11), Z2
	VPXORQ       Z28, Z2, Z2
	INV(Z0, Z1, Z2, NMUL8)
	VMOVDQU64    Z0, (DI)
	VMOVDQU64    Z1, 64(DI)
	ADDQ         $128, DI
	ADDQ         $64, R8
	ADDQ         $64, R9
	ADDQ         $64, R10
	ADDQ         $8, R11
	DECQ         CX
	JNZ          ni_loop

ni_done:
	VZEROUPPER
	RET
