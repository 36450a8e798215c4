//go:build !purego

package poseidon2

import "github.com/consensys/gnark-crypto/utils/cpu"

// haveKernel: the kernels need AVX-512F and DQ; gnark-crypto's
// SupportAVX512 (F, DQ, VBMI2, with ADX and BMI2) is the test the module
// uses for its own AVX-512 code, and switches it off with the noavx tag.
var haveKernel = cpu.SupportAVX512

// The kernels permute the 16 states of st (word j of lane l at st[j][l])
// as 16 calls of perm31.permute would, for one field and width each, with
// that field and width's standard internal diagonal (kernelFits): ext
// holds 2·half rounds of width constants, intl partial constants, each
// as p − c for the round constant c (a Montgomery word below p).

//go:noescape
func x16BabyBear16(st *lanes, ext, intl *uint32, half, partial int)

//go:noescape
func x16BabyBear24(st *lanes, ext, intl *uint32, half, partial int)

//go:noescape
func x16KoalaBear16(st *lanes, ext, intl *uint32, half, partial int)

//go:noescape
func x16KoalaBear24(st *lanes, ext, intl *uint32, half, partial int)

// x16BabyBear16Rows and x16KoalaBear16Rows permute 16 states of width 16
// laid end to end (state l at rows[16·l:]) as x16BabyBear16 and
// x16KoalaBear16 permute them transposed, transposing them in registers.

//go:noescape
func x16BabyBear16Rows(rows *[256]uint32, ext, intl *uint32, half, partial int)

//go:noescape
func x16KoalaBear16Rows(rows *[256]uint32, ext, intl *uint32, half, partial int)

// kernelRows16 permutes the 16 states of width 16 laid end to end in rows
// with the kernel of k's field (kernelFits(k), k.width == 16).
func kernelRows16(k *perm31, rows *[256]uint32) {
	if k.p == pBabyBear {
		x16BabyBear16Rows(rows, &k.kext[0], &k.kintl[0], k.half, k.partial)
		return
	}
	x16KoalaBear16Rows(rows, &k.kext[0], &k.kintl[0], k.half, k.partial)
}

// kernel16 permutes st with the kernel of k's field and width
// (kernelFits(k)).
func kernel16(k *perm31, st *lanes) {
	ext, intl := &k.kext[0], &k.kintl[0]
	switch {
	case k.p == pBabyBear && k.width == 16:
		x16BabyBear16(st, ext, intl, k.half, k.partial)
	case k.p == pBabyBear:
		x16BabyBear24(st, ext, intl, k.half, k.partial)
	case k.width == 16:
		x16KoalaBear16(st, ext, intl, k.half, k.partial)
	default:
		x16KoalaBear24(st, ext, intl, k.half, k.partial)
	}
}

// rowsToLanes8 sets dst[j][l] to word j of row l, for j < 8 and l < 16,
// row l starting stride bytes after row l−1 at src: 16 rows of 8 words
// made into 8 lanes rows, as lanes.gather does word by word.
//
//go:noescape
func rowsToLanes8(dst *[8][16]uint32, src *uint32, stride int)

// lanesToRows8 is the inverse of rowsToLanes8: word j of row l (stride
// bytes apart, from dst) becomes src[j][l], as lanes.scatter does.
//
//go:noescape
func lanesToRows8(dst *uint32, stride int, src *[8][16]uint32)

// The Goldilocks kernels permute the 8 states of st (word j of lane l at
// st[j][l], Montgomery words) as 8 calls of permGL.permute would, for one
// width and M4 each: ext holds 2·half rounds of width constants, intl
// partial constants, diag width entries, all canonical (not Montgomery).

//go:noescape
func x8Goldilocks8MDSMat4(st *lanesGL, ext, intl, diag *uint64, half, partial int)

//go:noescape
func x8Goldilocks8HLMDSMat4(st *lanesGL, ext, intl, diag *uint64, half, partial int)

//go:noescape
func x8Goldilocks12MDSMat4(st *lanesGL, ext, intl, diag *uint64, half, partial int)

//go:noescape
func x8Goldilocks12HLMDSMat4(st *lanesGL, ext, intl, diag *uint64, half, partial int)

// kernel8 permutes st with the kernel of k's width and M4.
func kernel8(k *permGL, st *lanesGL) {
	ext, intl, diag := &k.extC[0], &k.intlC[0], &k.diagC[0]
	switch {
	case k.width == 8 && !k.hl:
		x8Goldilocks8MDSMat4(st, ext, intl, diag, k.half, len(k.intl))
	case k.width == 8:
		x8Goldilocks8HLMDSMat4(st, ext, intl, diag, k.half, len(k.intl))
	case !k.hl:
		x8Goldilocks12MDSMat4(st, ext, intl, diag, k.half, len(k.intl))
	default:
		x8Goldilocks12HLMDSMat4(st, ext, intl, diag, k.half, len(k.intl))
	}
}
