//go:build !amd64 || purego

package poseidon2

// haveKernel: the kernels are AVX-512 assembly, built on amd64 without
// the purego tag only.
const haveKernel = false

func kernel16(*perm31, *lanes) { panic("poseidon2: no 16-lane kernel in this build") }

func kernelRows16(*perm31, *[256]uint32) { panic("poseidon2: no 16-lane kernel in this build") }

func rowsToLanes8(*[8][16]uint32, *uint32, int) { panic("poseidon2: no 16-lane kernel in this build") }

func lanesToRows8(*uint32, int, *[8][16]uint32) { panic("poseidon2: no 16-lane kernel in this build") }

func kernel8(*permGL, *lanesGL) { panic("poseidon2: no 8-lane kernel in this build") }
