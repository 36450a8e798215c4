//go:build !unix

package poly

// processCPU is not measured on this platform; the cpu-ns/op metric reads 0.
func processCPU() int64 { return 0 }
