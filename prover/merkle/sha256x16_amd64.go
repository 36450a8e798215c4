//go:build !purego

package merkle

import "golang.org/x/sys/cpu"

// haveX16: the 16-lane kernel needs AVX-512F (rotates, ternary logic,
// 32-bit and 128-bit shuffles) and AVX-512BW (the byte shuffle).
var haveX16 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW

// sha256x16Blocks runs nblocks SHA-256 compressions on 16 lanes: state[w][l]
// is word w of lane l's chaining value, lane l's blocks start at
// base + l·stride and follow each other. It behaves like 16 calls of the
// generic block function of crypto/sha256.
//
//go:noescape
func sha256x16Blocks(state *[8][16]uint32, base *byte, stride, nblocks int)
