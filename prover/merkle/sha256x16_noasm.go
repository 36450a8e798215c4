//go:build !amd64 || purego

package merkle

const haveX16 = false

func sha256x16Blocks(state *[8][16]uint32, base *byte, stride, nblocks int) {
	panic("merkle: internal error: no 16-lane SHA-256 on this platform")
}
