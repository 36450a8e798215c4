//go:build !amd64 || purego

package ntt64

// No assembly in this build: the generic kernels alone.
var (
	asmKernels          []*kernelSet
	asmKernelsAvailable []bool
)
