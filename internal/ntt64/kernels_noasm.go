
package ntt64

// The generic kernels alone (no assembly yet).
var (
	asmKernels          []*kernelSet
	asmKernelsAvailable []bool
)
