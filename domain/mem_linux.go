//go:build linux

package domain

import (
	"syscall"
	"unsafe"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// mapBuf returns n zero elements mapped outside the Go heap and marked for
// transparent huge pages (the gathers read them with strides of tens of
// KiB: 4 KiB pages would cost a TLB miss per row), or nil if mapping
// fails. unmapBuf releases it.
func mapBuf(n int) []gf64.Element {
	b, err := syscall.Mmap(-1, 0, 8*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; ignored where unsupported
	return unsafe.Slice((*gf64.Element)(unsafe.Pointer(&b[0])), n)
}

func unmapBuf(a []gf64.Element) {
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 8*len(a)))
}
