//go:build !purego

package poseidon2

const haveKernel = false

func kernel16(*perm31, *lanes) { panic("poseidon2: no 16-lane kernel in this build") }
