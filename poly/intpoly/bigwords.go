package intpoly

import (
	"math/big"
	"math/bits"
	"unsafe"
)

// Conversions between big.Int's words (32 or 64 bits, by platform) and the
// 64-bit limbs this package computes with.

const wordBits = bits.UintSize

// nlimbs returns how many 64-bit limbs the words ws make.
func nlimbs(ws []big.Word) int {
	if wordBits == 64 {
		return len(ws)
	}
	return (len(ws) + 1) / 2
}

// limb returns 64-bit limb t of ws (t < nlimbs(ws)).
func limb(ws []big.Word, t int) uint64 {
	if wordBits == 64 {
		return uint64(ws[t])
	}
	v := uint64(ws[2*t])
	if 2*t+1 < len(ws) {
		v |= uint64(ws[2*t+1]) << 32
	}
	return v
}

// wordsPerLimb is how many big.Words a 64-bit limb takes.
const wordsPerLimb = 64 / wordBits

// putLimbs writes the limbs l into dst (len(l)·wordsPerLimb words).
func putLimbs(dst []big.Word, l []uint64) {
	if wordBits == 64 {
		for t, v := range l {
			dst[t] = big.Word(v)
		}
		return
	}
	for t, v := range l {
		dst[2*t] = big.Word(v)
		dst[2*t+1] = big.Word(v >> 32)
	}
}

// limbsOf returns ws's memory as 64-bit limbs on 64-bit platforms (the
// same words: MulBig reads its operands and writes its product in place,
// without copies of 2^28-bit operands), and a new zeroed slice of
// nlimbs(ws) limbs on 32-bit ones (putLimbs then writes it back).
func limbsOf(ws []big.Word) []uint64 {
	if wordBits == 64 {
		return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(ws))), len(ws))
	}
	return make([]uint64, nlimbs(ws))
}
