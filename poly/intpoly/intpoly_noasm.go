//go:build !amd64 || purego

package intpoly

var implKernels = []*kernels{genericKernels}

var implAvailable = []bool{true}
