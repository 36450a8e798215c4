//go:build linux

package main

import (
	"syscall"
	"time"
	"unsafe"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// alloc returns n zero elements. Large buffers are mapped directly and
// marked for transparent huge pages: the transform sweeps the whole array
// many times, and 2 MiB pages spare it most TLB misses.
func alloc(n int) []gf64.Element {
	if n < 1<<20 {
		return make([]gf64.Element, n)
	}
	b, err := syscall.Mmap(-1, 0, 8*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]gf64.Element, n)
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; ignored where unsupported
	return unsafe.Slice((*gf64.Element)(unsafe.Pointer(&b[0])), n)
}

// cpuTime returns the user plus system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
