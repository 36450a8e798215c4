//go:build !amd64 || purego

package prover

const haveX16 = false

func sha256x16Blocks(state *[8][16]uint32, base *byte, stride, nblocks int) {
	panic("prover: internal error: no 16-lane SHA-256 on this platform")
}
