//go:build !linux

package intpoly

// adviseHuge does nothing off Linux.
func adviseHuge([]uint64) {}
