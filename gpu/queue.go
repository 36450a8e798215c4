package gpu

import (
	"fmt"
	"runtime"
)

// Queue submits work to one stream inside a device call. It exists only
// inside Device.Do: an operation that runs several kernels, copies and
// temporary allocations queues all of them through one Queue, in one device
// call, instead of one call per launch.
//
// Its methods queue work on the stream and return; they must be called
// from the function given to Do, never after it has returned.
type Queue struct {
	d *Device
	h uintptr // the stream's handle, 0 for the default stream
}

// Do runs f in one device call (the device's context current on this
// goroutine's thread, one call at a time per device) with a Queue on stream
// s, and returns f's error. With a nil stream the work goes to the default
// stream and Do waits for it to finish. f must use only q's methods and the
// addresses and lengths of buffers (Ptr, Len, Bytes): the device's other
// methods, and those of its buffers, streams and events, wait for the call
// in progress, which is f's.
func (d *Device) Do(s *Stream, f func(q *Queue) error) error {
	return d.onStream(s, func(h uintptr) error { return f(&Queue{d: d, h: h}) })
}

// Device returns the device the queue submits to.
func (q *Queue) Device() *Device { return q.d }

// Launch queues kernel fn on the queue's stream with the grid and block
// shapes and the dynamic shared memory (bytes) given; args are as for
// Function.Launch. fn must belong to the queue's device.
func (q *Queue) Launch(fn *Function, grid, block Dim3, sharedMem int, args ...any) error {
	return q.launch(fn, grid, block, sharedMem, false, args)
}

func (q *Queue) launch(fn *Function, grid, block Dim3, sharedMem int, dependent bool, args []any) error {
	if fn.m.d != q.d {
		return fmt.Errorf("gpu: launching %s: the kernel belongs to another device", fn.name)
	}
	params, keep, err := packArgs(args)
	if err != nil {
		return fmt.Errorf("gpu: launching %s: %w", fn.name, err)
	}
	err = fn.launchAs(grid, block, sharedMem, q.h, params, dependent)
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: launching %s: %w", fn.name, err)
	}
	return nil
}

// LaunchDependent queues fn as Launch does, as a programmatic dependent
// launch (compute capability 9.0 and later, CUDA 11.8 drivers and later;
// elsewhere an ordinary launch): fn's blocks may start while the kernel
// ahead of it on the stream is still running, once every block of that
// kernel has executed griddepcontrol.launch_dependents or finished, which
// hides the gap between two dependent kernels and the second one's set-up.
// fn must execute griddepcontrol.wait (cudaGridDependencySynchronize)
// before it reads or writes memory that the kernel ahead of it writes or
// reads; that wait returns once the kernel ahead has finished and its
// writes are visible. Inside a CUDA graph capture the dependency becomes a
// programmatic edge.
func (q *Queue) LaunchDependent(fn *Function, grid, block Dim3, sharedMem int, args ...any) error {
	return q.launch(fn, grid, block, sharedMem, true, args)
}

// Copy queues a copy of bytes bytes from device address src to device
// address dst.
func (q *Queue) Copy(dst, src DevicePtr, bytes int) error {
	if bytes < 0 {
		return fmt.Errorf("gpu: Queue.Copy of %d bytes", bytes)
	}
	if bytes == 0 {
		return nil
	}
	return q.d.drv.errorf("cuMemcpyDtoDAsync", q.d.drv.cuMemcpyDtoDAsync(uint64(dst), uint64(src), uintptr(bytes), q.h))
}

// Scratch runs f with bytes bytes of temporary device memory at p and frees
// it after the work f queued, on every path. Where the device has
// stream-ordered allocation the memory is allocated and freed in stream
// order, so f's kernels may use it after Scratch returns; otherwise Scratch
// waits for the stream before freeing it. Out of memory, the error matches
// ErrOutOfMemory.
func (q *Queue) Scratch(bytes int, f func(p DevicePtr) error) error {
	if bytes <= 0 {
		return fmt.Errorf("gpu: Queue.Scratch of %d bytes", bytes)
	}
	return q.d.withScratch(q.h, uintptr(bytes), func(p uint64) error { return f(DevicePtr(p)) })
}

// withScratch runs f with size bytes of temporary device memory, allocated
// in stream order on stream h when the device supports it, and frees it on
// every path. It runs inside a device call.
func (d *Device) withScratch(h uintptr, size uintptr, f func(p uint64) error) error {
	var p uint64
	if d.pools {
		if err := d.drv.errorf("cuMemAllocAsync", d.drv.cuMemAllocAsync(&p, size, h)); err != nil {
			return err
		}
		err := f(p)
		ferr := d.drv.errorf("cuMemFreeAsync", d.drv.cuMemFreeAsync(p, h))
		if err != nil {
			return err
		}
		return ferr
	}
	p, err := d.alloc(size)
	if err != nil {
		return err
	}
	err = f(p)
	serr := d.drv.errorf("cuStreamSynchronize", d.drv.cuStreamSynchronize(h))
	ferr := d.free(p)
	for _, e := range []error{err, serr, ferr} {
		if e != nil {
			return e
		}
	}
	return nil
}
