//go:build !amd64 || purego

package prover

const haveX16 = false

func sha256x16Blocks(state *[8][16]uint32, base *byte, offsets *[16]int32, nblocks int) {
	panic("prover: internal error: no 16-lane SHA-256 on this platform")
}
