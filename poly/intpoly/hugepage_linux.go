//go:build linux

package intpoly

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHuge asks the kernel to back the 2 MiB-aligned part of a large
// buffer with huge pages where transparent huge pages are enabled on
// request (madvise mode, a common default): the column phases touch rows
// 32 KiB apart, one 4 KiB page each, so with small pages nearly every row
// misses the TLB, and faulting in a fresh buffer takes 512 times as many
// faults. It is only advice: errors are ignored.
func adviseHuge(b []uint64) {
	const huge = 2 << 20
	if len(b)*8 < 2*huge {
		return
	}
	p := unsafe.Pointer(&b[0])
	start := uintptr(p)
	end := start + uintptr(len(b))*8
	lo, hi := (start+huge-1)&^(huge-1), end&^(huge-1)
	if lo >= hi {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo), unix.MADV_HUGEPAGE)
}
