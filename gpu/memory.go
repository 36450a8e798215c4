package gpu

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"
)

// DevicePtr is an address in device memory (a CUdeviceptr).
type DevicePtr uint64

// allocState is shared by an allocation and its views.
type allocState struct{ freed atomic.Bool }

// Buffer is an array of n values of type T in device memory, allocated with
// Alloc. T must be a fixed-size type without pointers (gf64.Element, uint32,
// a gnark-crypto field element, ...); its bytes are copied as they are.
//
// A Buffer is safe for concurrent use, but concurrent writes to the same
// memory race like any other memory. Free it when done; Device.Close frees
// what is left.
type Buffer[T any] struct {
	d     *Device
	ptr   uint64
	n     int
	owner bool
	st    *allocState
}

// byteSize returns n·sizeof(T), or an error for a negative, zero-size or
// overflowing request.
func byteSize[T any](n int) (uintptr, error) {
	var zero T
	es := unsafe.Sizeof(zero)
	if es == 0 {
		return 0, fmt.Errorf("gpu: element type %T has size 0", zero)
	}
	if n < 0 {
		return 0, fmt.Errorf("gpu: negative length %d", n)
	}
	if uint64(n) > math.MaxInt64/uint64(es) {
		return 0, fmt.Errorf("gpu: %d elements of %d bytes: %w", n, es, ErrOutOfMemory)
	}
	return uintptr(n) * es, nil
}

// Alloc allocates a device buffer of n values of type T. Its contents are
// undefined until written. Out of device memory, it returns an error matching
// ErrOutOfMemory.
func Alloc[T any](d *Device, n int) (*Buffer[T], error) {
	size, err := byteSize[T](n)
	if err != nil {
		return nil, err
	}
	b := &Buffer[T]{d: d, n: n, owner: true, st: &allocState{}}
	if n == 0 {
		if d.isClosed() {
			return nil, ErrClosed
		}
		return b, nil
	}
	err = d.do(func() error {
		p, err := d.alloc(size)
		b.ptr = p
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("gpu: allocating %d bytes: %w", size, err)
	}
	return b, nil
}

func (d *Device) isClosed() bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.closed
}

// alloc runs inside a device call.
func (d *Device) alloc(size uintptr) (uint64, error) {
	var p uint64
	if err := d.drv.errorf("cuMemAlloc", d.drv.cuMemAlloc(&p, size)); err != nil {
		return 0, err
	}
	d.resMu.Lock()
	d.allocs[p] = true
	d.resMu.Unlock()
	return p, nil
}

// free runs inside a device call.
func (d *Device) free(p uint64) error {
	d.resMu.Lock()
	live := d.allocs[p]
	delete(d.allocs, p)
	d.resMu.Unlock()
	if !live {
		return nil
	}
	return d.drv.errorf("cuMemFree", d.drv.cuMemFree(p))
}

// Len returns the number of values.
func (b *Buffer[T]) Len() int { return b.n }

// Bytes returns the size in bytes.
func (b *Buffer[T]) Bytes() int {
	s, _ := byteSize[T](b.n)
	return int(s)
}

// Device returns the device the buffer lives on.
func (b *Buffer[T]) Device() *Device { return b.d }

// Ptr returns the buffer's device address, for kernel arguments.
func (b *Buffer[T]) Ptr() DevicePtr { return DevicePtr(b.ptr) }

// Freed reports whether the buffer, or the buffer it is a view of, was
// freed. (Device.Close frees every buffer without marking it: operations
// on a closed device return ErrClosed.)
func (b *Buffer[T]) Freed() bool { return b.st.freed.Load() }

// devicePtr implements kernel-argument passing; it fails on a freed buffer.
func (b *Buffer[T]) devicePtr() (uint64, error) {
	if b.st.freed.Load() {
		return 0, ErrClosed
	}
	return b.ptr, nil
}

// View returns the values [off, off+n) of b as a Buffer sharing b's memory.
// Freeing a view does nothing; it becomes unusable when b is freed.
func (b *Buffer[T]) View(off, n int) (*Buffer[T], error) {
	if off < 0 || n < 0 || off > b.n || n > b.n-off {
		return nil, fmt.Errorf("gpu: view [%d, %d+%d) of a buffer of length %d: %w", off, off, n, b.n, ErrLength)
	}
	s, _ := byteSize[T](off)
	return &Buffer[T]{d: b.d, ptr: b.ptr + uint64(s), n: n, st: b.st}, nil
}

// ViewAs returns b's memory as a Buffer of U, for element types that are
// arrays of one another (an extension field's element and its
// coordinates): a view, as View's, of b.Bytes()/sizeof(U) values. A size
// that is not a whole number of U is an error wrapping ErrLength.
func ViewAs[U, T any](b *Buffer[T]) (*Buffer[U], error) {
	var u U
	us := int(unsafe.Sizeof(u))
	if us == 0 || b.Bytes()%us != 0 {
		return nil, fmt.Errorf("gpu: a view of %d bytes as elements of %d bytes: %w", b.Bytes(), us, ErrLength)
	}
	return &Buffer[U]{d: b.d, ptr: b.ptr, n: b.Bytes() / us, st: b.st}, nil
}

// Free releases the buffer's device memory. Freeing twice is harmless.
func (b *Buffer[T]) Free() error {
	if !b.owner || b.n == 0 || b.st.freed.Swap(true) {
		return nil
	}
	err := b.d.do(func() error { return b.d.free(b.ptr) })
	if err == ErrClosed {
		return nil // Close freed it
	}
	return err
}

// Reclaim moves b's device memory into a new Buffer, for a pool that
// reuses a large allocation (allocating and freeing a buffer of a GiB costs
// milliseconds, more once peer access maps every allocation into the other
// GPUs): b and every view of it then act as freed (Freed, ErrClosed), and
// the memory, its contents as they were, belongs to the buffer returned.
// Reclaim of a view or of a freed buffer returns an error wrapping
// ErrClosed.
func (b *Buffer[T]) Reclaim() (*Buffer[T], error) {
	if !b.owner {
		return nil, fmt.Errorf("gpu: Reclaim of a view (only the allocation can move): %w", ErrClosed)
	}
	if b.st.freed.Swap(true) {
		return nil, fmt.Errorf("gpu: Reclaim: buffer freed: %w", ErrClosed)
	}
	return &Buffer[T]{d: b.d, ptr: b.ptr, n: b.n, owner: true, st: &allocState{}}, nil
}

func (b *Buffer[T]) check(op string, n int) error {
	if b.st.freed.Load() {
		return fmt.Errorf("gpu: %s: buffer freed: %w", op, ErrClosed)
	}
	if n != b.n {
		return fmt.Errorf("gpu: %s: host length %d, device length %d: %w", op, n, b.n, ErrLength)
	}
	return nil
}

// Upload copies src to the buffer; len(src) must equal Len. It returns when
// the copy is done.
func (b *Buffer[T]) Upload(src []T) error {
	if err := b.check("Upload", len(src)); err != nil || b.n == 0 {
		return err
	}
	size := uintptr(b.Bytes())
	return b.d.do(func() error {
		return b.d.drv.errorf("cuMemcpyHtoD", b.d.drv.cuMemcpyHtoD(b.ptr, unsafe.Pointer(&src[0]), size))
	})
}

// Download copies the buffer to dst; len(dst) must equal Len. It returns when
// the copy is done, after the work already submitted to the device.
func (b *Buffer[T]) Download(dst []T) error {
	if err := b.check("Download", len(dst)); err != nil || b.n == 0 {
		return err
	}
	size := uintptr(b.Bytes())
	return b.d.do(func() error {
		return b.d.drv.errorf("cuMemcpyDtoH", b.d.drv.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr, size))
	})
}

// CopyFrom copies src, of the same length, into b on stream s, a stream of
// b's device (nil: the default stream, and CopyFrom waits for the copy). src
// may live on another device: between two contexts the copy is the
// driver's peer copy (cuMemcpyPeerAsync), direct where EnablePeerAccess has
// joined the devices, staged by the driver otherwise; Device values opened
// on one ordinal share its context, and the copy is a plain device-to-device
// copy. A copy from another device is ordered after that device's work only
// through events (Stream.Wait).
func (b *Buffer[T]) CopyFrom(s *Stream, src *Buffer[T]) error {
	if err := b.check("CopyFrom", src.n); err != nil {
		return err
	}
	if src.st.freed.Load() {
		return fmt.Errorf("gpu: CopyFrom: source freed: %w", ErrClosed)
	}
	if b.n == 0 {
		return nil
	}
	size := uintptr(b.Bytes())
	if src.d != b.d && src.d.isClosed() {
		return fmt.Errorf("gpu: CopyFrom: the source's device is closed: %w", ErrClosed)
	}
	if src.d.ctx != b.d.ctx {
		return b.d.onStream(s, func(h uintptr) error {
			return b.d.drv.errorf("cuMemcpyPeerAsync", b.d.drv.cuMemcpyPeerAsync(b.ptr, b.d.ctx, src.ptr, src.d.ctx, size, h))
		})
	}
	return b.d.onStream(s, func(h uintptr) error {
		return b.d.drv.errorf("cuMemcpyDtoDAsync", b.d.drv.cuMemcpyDtoDAsync(b.ptr, src.ptr, size, h))
	})
}

// UploadAsync copies the pinned src, of the same length, to b on stream s
// (nil: the default stream, and UploadAsync waits for the copy).
func (b *Buffer[T]) UploadAsync(s *Stream, src *HostBuffer[T]) error {
	if err := b.check("UploadAsync", src.Len()); err != nil {
		return err
	}
	if src.freed() {
		return fmt.Errorf("gpu: UploadAsync: host buffer freed: %w", ErrClosed)
	}
	if b.n == 0 {
		return nil
	}
	size := uintptr(b.Bytes())
	return b.d.onStream(s, func(h uintptr) error {
		return b.d.drv.errorf("cuMemcpyHtoDAsync", b.d.drv.cuMemcpyHtoDAsync(b.ptr, src.ptr(), size, h))
	})
}

// DownloadAsync copies b to the pinned dst, of the same length, on stream s
// (nil: the default stream, and DownloadAsync waits for the copy).
func (b *Buffer[T]) DownloadAsync(s *Stream, dst *HostBuffer[T]) error {
	if err := b.check("DownloadAsync", dst.Len()); err != nil {
		return err
	}
	if dst.freed() {
		return fmt.Errorf("gpu: DownloadAsync: host buffer freed: %w", ErrClosed)
	}
	if b.n == 0 {
		return nil
	}
	size := uintptr(b.Bytes())
	return b.d.onStream(s, func(h uintptr) error {
		return b.d.drv.errorf("cuMemcpyDtoHAsync", b.d.drv.cuMemcpyDtoHAsync(dst.ptr(), b.ptr, size, h))
	})
}

// hostRecord is a pinned host allocation.
type hostRecord struct {
	p     unsafe.Pointer
	freed atomic.Bool // set under Device.resMu
}

// HostBuffer is page-locked (pinned) host memory holding n values of type T,
// which the device copies to and from at full speed and asynchronously.
// Slice exposes it to Go code. Free it when done; Device.Close frees what is
// left, after which its slice must not be used.
type HostBuffer[T any] struct {
	d     *Device
	rec   *hostRecord
	s     []T
	owner bool
	st    *allocState
}

// cuMemHostAllocPortable is CU_MEMHOSTALLOC_PORTABLE: every context, not
// only the allocating device's, treats the memory as pinned.
const cuMemHostAllocPortable = 0x01

// AllocHost allocates pinned host memory for n values of type T, zeroed.
// The memory is pinned for every device of the process (portable), so a
// buffer allocated through one device uploads to and downloads from the
// others at full speed too.
func AllocHost[T any](d *Device, n int) (*HostBuffer[T], error) {
	size, err := byteSize[T](n)
	if err != nil {
		return nil, err
	}
	h := &HostBuffer[T]{d: d, owner: true, st: &allocState{}}
	if n == 0 {
		if d.isClosed() {
			return nil, ErrClosed
		}
		h.s = []T{}
		return h, nil
	}
	err = d.do(func() error {
		var p unsafe.Pointer
		if err := d.drv.errorf("cuMemHostAlloc", d.drv.cuMemHostAlloc(&p, size, cuMemHostAllocPortable)); err != nil {
			return err
		}
		h.rec = &hostRecord{p: p}
		d.resMu.Lock()
		d.hosts[uintptr(p)] = h.rec
		d.resMu.Unlock()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gpu: allocating %d pinned bytes: %w", size, err)
	}
	h.s = unsafe.Slice((*T)(h.rec.p), n)
	clear(h.s)
	return h, nil
}

// Slice returns the memory as a Go slice; nil after Free or Device.Close.
func (h *HostBuffer[T]) Slice() []T {
	if h.freed() {
		return nil
	}
	return h.s
}

// Len returns the number of values.
func (h *HostBuffer[T]) Len() int { return len(h.s) }

// View returns values [off, off+n) as a HostBuffer sharing h's memory, for
// asynchronous copies of parts. Freeing a view does nothing.
func (h *HostBuffer[T]) View(off, n int) (*HostBuffer[T], error) {
	if off < 0 || n < 0 || off > len(h.s) || n > len(h.s)-off {
		return nil, fmt.Errorf("gpu: view [%d, %d+%d) of a host buffer of length %d: %w", off, off, n, len(h.s), ErrLength)
	}
	return &HostBuffer[T]{d: h.d, rec: h.rec, s: h.s[off : off+n], st: h.st}, nil
}

func (h *HostBuffer[T]) freed() bool {
	return h.st.freed.Load() || (h.rec != nil && h.rec.freed.Load())
}

func (h *HostBuffer[T]) ptr() unsafe.Pointer {
	if len(h.s) == 0 {
		return nil
	}
	return unsafe.Pointer(&h.s[0])
}

// Free releases the pinned memory. Freeing twice is harmless.
func (h *HostBuffer[T]) Free() error {
	if !h.owner || h.rec == nil || h.st.freed.Swap(true) {
		return nil
	}
	err := h.d.do(func() error {
		h.d.resMu.Lock()
		live := !h.rec.freed.Swap(true)
		delete(h.d.hosts, uintptr(h.rec.p))
		h.d.resMu.Unlock()
		if !live {
			return nil
		}
		return h.d.drv.errorf("cuMemFreeHost", h.d.drv.cuMemFreeHost(h.rec.p))
	})
	if err == ErrClosed {
		return nil
	}
	return err
}
