package gpu

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driver holds the CUDA driver API entry points, bound with purego. Only
// functions present in every driver since CUDA 11.2 are required; the rest
// are nil when missing.
type driver struct {
	version int // cuDriverGetVersion, e.g. 13000

	cuInit                     func(flags uint32) int32
	cuDriverGetVersion         func(v *int32) int32
	cuGetErrorName             func(code int32, s **byte) int32
	cuDeviceGetCount           func(n *int32) int32
	cuDeviceGet                func(d *int32, ordinal int32) int32
	cuDeviceGetName            func(name *byte, n int32, d int32) int32
	cuDeviceTotalMem           func(b *uint64, d int32) int32
	cuDeviceGetAttribute       func(v *int32, attr int32, d int32) int32
	cuDevicePrimaryCtxRetain   func(ctx *uintptr, d int32) int32
	cuDevicePrimaryCtxRelease  func(d int32) int32
	cuCtxSetCurrent            func(ctx uintptr) int32
	cuCtxSynchronize           func() int32
	cuMemGetInfo               func(free, total *uint64) int32
	cuMemAlloc                 func(p *uint64, size uintptr) int32
	cuMemFree                  func(p uint64) int32
	cuMemAllocAsync            func(p *uint64, size uintptr, s uintptr) int32 // optional
	cuMemFreeAsync             func(p uint64, s uintptr) int32                // optional
	cuMemHostAlloc             func(p *unsafe.Pointer, size uintptr, flags uint32) int32
	cuMemFreeHost              func(p unsafe.Pointer) int32
	cuMemcpyHtoD               func(dst uint64, src unsafe.Pointer, size uintptr) int32
	cuMemcpyDtoH               func(dst unsafe.Pointer, src uint64, size uintptr) int32
	cuMemcpyDtoD               func(dst, src uint64, size uintptr) int32
	cuMemcpyHtoDAsync          func(dst uint64, src unsafe.Pointer, size uintptr, s uintptr) int32
	cuMemcpyDtoHAsync          func(dst unsafe.Pointer, src uint64, size uintptr, s uintptr) int32
	cuMemcpyDtoDAsync          func(dst, src uint64, size uintptr, s uintptr) int32
	cuMemsetD8Async            func(dst uint64, v uint8, n uintptr, s uintptr) int32
	cuMemcpyPeerAsync          func(dst uint64, dstCtx uintptr, src uint64, srcCtx uintptr, size uintptr, s uintptr) int32
	cuDeviceCanAccessPeer      func(can *int32, d, peer int32) int32
	cuCtxEnablePeerAccess      func(peer uintptr, flags uint32) int32
	cuStreamCreate             func(s *uintptr, flags uint32) int32
	cuStreamDestroy            func(s uintptr) int32
	cuStreamSynchronize        func(s uintptr) int32
	cuStreamWaitEvent          func(s, e uintptr, flags uint32) int32
	cuEventCreate              func(e *uintptr, flags uint32) int32
	cuEventDestroy             func(e uintptr) int32
	cuEventRecord              func(e, s uintptr) int32
	cuEventSynchronize         func(e uintptr) int32
	cuEventElapsedTime         func(ms *float32, start, end uintptr) int32
	cuModuleLoadData           func(m *uintptr, image unsafe.Pointer) int32
	cuModuleUnload             func(m uintptr) int32
	cuModuleGetFunction        func(f *uintptr, m uintptr, name string) int32
	cuFuncGetAttribute         func(v *int32, attr int32, f uintptr) int32
	cuFuncSetAttribute         func(f uintptr, attr int32, v int32) int32
	cuLaunchKernel             func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	cuOccupancyMaxActiveBlocks func(n *int32, f uintptr, block int32, shmem uintptr) int32

	// CUDA graphs (Graph), optional.
	cuStreamBeginCapture func(s uintptr, mode int32) int32
	cuStreamEndCapture   func(s uintptr, g *uintptr) int32
	cuGraphInstantiate   func(e *uintptr, g uintptr, flags uint64) int32
	cuGraphExecDestroy   func(e uintptr) int32
	cuGraphDestroy       func(g uintptr) int32

	// Entry points called on every launch and every call (Device.do),
	// through purego.SyscallN: no reflection, no allocation.
	launchSym, ctxGetSym, ctxSetSym uintptr
	graphLaunchSym                  uintptr // 0 without graphs
	launchExSym                     uintptr // cuLaunchKernelEx, 0 before CUDA 11.8
}

// cuLaunchConfig and cuLaunchAttribute are CUlaunchConfig and
// CUlaunchAttribute of cuda.h (64-bit layout).
type cuLaunchConfig struct {
	gridX, gridY, gridZ    uint32
	blockX, blockY, blockZ uint32
	sharedMem              uint32
	_                      uint32
	stream                 uintptr
	attrs                  *cuLaunchAttribute
	numAttrs               uint32
	_                      uint32
}

type cuLaunchAttribute struct {
	id    uint32
	_     uint32
	value [64]byte // CUlaunchAttributeValue, a union
}

// cuLaunchAttributeProgrammaticStreamSerialization is
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION.
const cuLaunchAttributeProgrammaticStreamSerialization = 6

var (
	driverOnce sync.Once
	driverLib  *driver
	driverErr  error
)

// loadDriver loads and initialises the CUDA driver once per process.
func loadDriver() (*driver, error) {
	driverOnce.Do(func() {
		driverLib, driverErr = openDriver()
	})
	return driverLib, driverErr
}

func openDriver() (*driver, error) {
	var h uintptr
	var err error
	for _, name := range libcudaNames {
		h, err = openLibrary(name)
		if err == nil {
			break
		}
	}
	if h == 0 {
		return nil, fmt.Errorf("%w: cannot load the CUDA driver (%v)", ErrNoDevice, err)
	}
	d := &driver{}
	b := binder{h: h}
	b.bind(&d.cuInit, "cuInit")
	b.bind(&d.cuDriverGetVersion, "cuDriverGetVersion")
	b.bind(&d.cuGetErrorName, "cuGetErrorName")
	b.bind(&d.cuDeviceGetCount, "cuDeviceGetCount")
	b.bind(&d.cuDeviceGet, "cuDeviceGet")
	b.bind(&d.cuDeviceGetName, "cuDeviceGetName")
	b.bind(&d.cuDeviceTotalMem, "cuDeviceTotalMem_v2")
	b.bind(&d.cuDeviceGetAttribute, "cuDeviceGetAttribute")
	b.bind(&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
	b.bind(&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")
	b.bind(&d.cuCtxSetCurrent, "cuCtxSetCurrent")
	b.bind(&d.cuCtxSynchronize, "cuCtxSynchronize")
	b.bind(&d.cuMemGetInfo, "cuMemGetInfo_v2")
	b.bind(&d.cuMemAlloc, "cuMemAlloc_v2")
	b.bind(&d.cuMemFree, "cuMemFree_v2")
	b.optional(&d.cuMemAllocAsync, "cuMemAllocAsync")
	b.optional(&d.cuMemFreeAsync, "cuMemFreeAsync")
	b.bind(&d.cuMemHostAlloc, "cuMemHostAlloc")
	b.bind(&d.cuMemFreeHost, "cuMemFreeHost")
	b.bind(&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	b.bind(&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	b.bind(&d.cuMemcpyDtoD, "cuMemcpyDtoD_v2")
	b.bind(&d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")
	b.bind(&d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")
	b.bind(&d.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")
	b.bind(&d.cuMemsetD8Async, "cuMemsetD8Async")
	b.bind(&d.cuMemcpyPeerAsync, "cuMemcpyPeerAsync")
	b.bind(&d.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer")
	b.bind(&d.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess")
	b.bind(&d.cuStreamCreate, "cuStreamCreate")
	b.bind(&d.cuStreamDestroy, "cuStreamDestroy_v2")
	b.bind(&d.cuStreamSynchronize, "cuStreamSynchronize")
	b.bind(&d.cuStreamWaitEvent, "cuStreamWaitEvent")
	b.bind(&d.cuEventCreate, "cuEventCreate")
	b.bind(&d.cuEventDestroy, "cuEventDestroy_v2")
	b.bind(&d.cuEventRecord, "cuEventRecord")
	b.bind(&d.cuEventSynchronize, "cuEventSynchronize")
	b.bind(&d.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")
	b.bind(&d.cuModuleLoadData, "cuModuleLoadData")
	b.bind(&d.cuModuleUnload, "cuModuleUnload")
	b.bind(&d.cuModuleGetFunction, "cuModuleGetFunction")
	b.bind(&d.cuFuncGetAttribute, "cuFuncGetAttribute")
	b.bind(&d.cuFuncSetAttribute, "cuFuncSetAttribute")
	b.bind(&d.cuLaunchKernel, "cuLaunchKernel")
	b.bind(&d.cuOccupancyMaxActiveBlocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor")
	graphs := b.optional(&d.cuStreamBeginCapture, "cuStreamBeginCapture_v2")
	graphs = b.optional(&d.cuStreamEndCapture, "cuStreamEndCapture") && graphs
	graphs = b.optional(&d.cuGraphInstantiate, "cuGraphInstantiateWithFlags") && graphs
	graphs = b.optional(&d.cuGraphExecDestroy, "cuGraphExecDestroy") && graphs
	graphs = b.optional(&d.cuGraphDestroy, "cuGraphDestroy") && graphs
	if sym, err := librarySymbol(h, "cuGraphLaunch"); graphs && err == nil {
		d.graphLaunchSym = sym
	}
	if sym, err := librarySymbol(h, "cuLaunchKernelEx"); err == nil {
		d.launchExSym = sym
	}
	for _, s := range []struct {
		p    *uintptr
		name string
	}{{&d.launchSym, "cuLaunchKernel"}, {&d.ctxGetSym, "cuCtxGetCurrent"}, {&d.ctxSetSym, "cuCtxSetCurrent"}} {
		if *s.p, err = librarySymbol(h, s.name); (err != nil || *s.p == 0) && b.err == nil {
			b.err = fmt.Errorf("symbol %s not found", s.name)
		}
	}
	if b.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, b.err)
	}
	if r := d.cuInit(0); r != cudaSuccess {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, d.errorf("cuInit", r))
	}
	var v int32
	if r := d.cuDriverGetVersion(&v); r == cudaSuccess {
		d.version = int(v)
	}
	return d, nil
}

// binder binds C functions to Go function variables, remembering the first
// missing symbol instead of panicking.
type binder struct {
	h   uintptr
	err error
}

// bind binds the first of names that the library exports.
func (b *binder) bind(fptr any, names ...string) {
	if !b.optional(fptr, names...) && b.err == nil {
		b.err = fmt.Errorf("symbol %s not found", names[0])
	}
}

func (b *binder) optional(fptr any, names ...string) bool {
	for _, name := range names {
		sym, err := librarySymbol(b.h, name)
		if err == nil && sym != 0 {
			purego.RegisterFunc(fptr, sym)
			return true
		}
	}
	return false
}

// launch calls cuLaunchKernel.
func (d *driver) launch(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params unsafe.Pointer) int32 {
	r, _, _ := purego.SyscallN(d.launchSym, f, uintptr(gx), uintptr(gy), uintptr(gz), uintptr(bx), uintptr(by), uintptr(bz),
		uintptr(shmem), s, uintptr(params), 0)
	return int32(r)
}

// launchEx calls cuLaunchKernelEx.
func (d *driver) launchEx(cfg *cuLaunchConfig, f uintptr, params unsafe.Pointer) int32 {
	r, _, _ := purego.SyscallN(d.launchExSym, uintptr(unsafe.Pointer(cfg)), f, uintptr(params), 0)
	return int32(r)
}

// graphLaunch calls cuGraphLaunch.
func (d *driver) graphLaunch(e, s uintptr) int32 {
	r, _, _ := purego.SyscallN(d.graphLaunchSym, e, s)
	return int32(r)
}

// currentContext returns the calling thread's current context (0: none),
// through out, which must not be on a goroutine's stack (it would move).
func (d *driver) currentContext(out *uintptr) uintptr {
	*out = 0
	if r, _, _ := purego.SyscallN(d.ctxGetSym, uintptr(unsafe.Pointer(out))); int32(r) != cudaSuccess {
		return 0
	}
	return *out
}

// setContext makes ctx current on the calling thread (cuCtxSetCurrent).
func (d *driver) setContext(ctx uintptr) int32 {
	r, _, _ := purego.SyscallN(d.ctxSetSym, ctx)
	return int32(r)
}

// errorf turns a non-zero CUresult into an *Error naming the call; it
// returns nil for CUDA_SUCCESS.
func (d *driver) errorf(op string, r int32) error {
	if r == cudaSuccess {
		return nil
	}
	e := &Error{Op: op, Code: int(r)}
	var s *byte
	if d != nil && d.cuGetErrorName != nil && d.cuGetErrorName(r, &s) == cudaSuccess && s != nil {
		e.Name = goString(s)
	} else {
		e.Name = cudaErrorNames[int(r)]
	}
	return e
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for i := 0; i < 4096; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

// cString returns s as a NUL-terminated byte slice.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// computeCapability returns the compute capability of the device of the
// given ordinal as 10*major + minor (no context needed).
func (d *driver) computeCapability(ordinal int) (int, error) {
	var dev, major, minor int32
	if r := d.cuDeviceGet(&dev, int32(ordinal)); r != cudaSuccess {
		return 0, fmt.Errorf("%w: %v", ErrNoDevice, d.errorf("cuDeviceGet", r))
	}
	if r := d.cuDeviceGetAttribute(&major, 75, dev); r != cudaSuccess {
		return 0, fmt.Errorf("%w: %v", ErrNoDevice, d.errorf("cuDeviceGetAttribute", r))
	}
	if r := d.cuDeviceGetAttribute(&minor, 76, dev); r != cudaSuccess {
		return 0, fmt.Errorf("%w: %v", ErrNoDevice, d.errorf("cuDeviceGetAttribute", r))
	}
	return int(10*major + minor), nil
}
