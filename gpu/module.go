package gpu

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Module is a compiled CUDA module loaded on a device; its kernels are
// found with Function. Modules live until the Device is closed.
type Module struct {
	d      *Device
	name   string
	h      uintptr
	origin string // "prebuilt", "cache" or "nvrtc": where its image came from

	mu  sync.Mutex
	fns map[string]*Function
}

// compileOptions are passed to NVRTC for every module, after the target.
var compileOptions = []string{"-std=c++17"}

// Module returns the module of the library's program name (one of
// cuda.Programs, such as "gf64.cu"), loading it on first use from the
// binary's prebuilt image or compiling it with NVRTC. A device loads each
// program once: later calls, from any package, return the same Module, so
// operation packages share their kernels on a device without holding state
// of their own.
func (d *Device) Module(name string) (*Module, error) {
	d.resMu.Lock()
	m := d.modules[name]
	d.resMu.Unlock()
	if m != nil {
		return m, nil
	}
	src, err := cuda.Program(name)
	if err != nil {
		return nil, fmt.Errorf("gpu: no kernel program %q", name)
	}
	return d.loadModule(name, src, true)
}

// LoadModule compiles CUDA C++ source src with NVRTC for this device and
// loads it. name names the program in compiler messages. Compilation errors
// wrap ErrCompile and carry NVRTC's log. A source of the library's own, as
// its calls build it, loads from the binary's prebuilt images instead.
func (d *Device) LoadModule(name, src string) (*Module, error) {
	return d.loadModule(name, src, false)
}

var compileMu sync.Mutex // one module compiled at a time per process

func (d *Device) loadModule(name, src string, shared bool) (*Module, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	compileMu.Lock()
	defer compileMu.Unlock()
	if shared {
		d.resMu.Lock()
		m := d.modules[name]
		d.resMu.Unlock()
		if m != nil {
			return m, nil
		}
	}
	image, origin, err := d.compiled(name, src, true)
	if err != nil {
		return nil, err
	}
	m := &Module{d: d, name: name, origin: origin, fns: map[string]*Function{}}
	// load loads image and records the module, in one job on the device
	// goroutine (so that Close, which unloads what is recorded, sees it).
	load := func(image []byte) error {
		err := d.do(func() error {
			if err := d.drv.errorf("cuModuleLoadData", d.drv.cuModuleLoadData(&m.h, unsafe.Pointer(&image[0]))); err != nil {
				return err
			}
			d.resMu.Lock()
			key := name
			if !shared {
				key = fmt.Sprintf("%s#%x", name, m.h)
			}
			d.modules[key] = m
			d.resMu.Unlock()
			return nil
		})
		runtime.KeepAlive(image)
		return err
	}
	err = load(image)
	if err != nil && origin == "prebuilt" && d.rtc != nil {
		// A driver older than the images' compiler refuses them: compile.
		if image, m.origin, err = d.compiled(name, src, false); err == nil {
			err = load(image)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: loading module %s: %w", name, err)
	}
	return m, nil
}

// cacheKey identifies a compiled module: the source, the target, the options
// and the NVRTC version all change the output.
func cacheKey(name, src string, opts []string, nvrtcVersion string, cubin bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "gfpoly-kernel-cache v1\x00%s\x00%d\x00%s\x00%v\x00", name, len(src), nvrtcVersion, cubin)
	h.Write([]byte(src))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(opts, "\x00")))
	kind := "ptx"
	if cubin {
		kind = "cubin"
	}
	return hex.EncodeToString(h.Sum(nil)[:16]) + "." + kind
}

// compiled returns the NUL-terminated module image, and where it came from:
// the binary's prebuilt images (when prebuilt is set and the device uses
// them), the disk cache, or NVRTC, storing a fresh compilation in the cache
// (best effort).
func (d *Device) compiled(name, src string, prebuilt bool) ([]byte, string, error) {
	if prebuilt && d.pbArch != "" {
		image, err := prebuiltImage(name, src, d.pbArch)
		if err != nil {
			return nil, "", err
		}
		if image != nil {
			return image, "prebuilt", nil
		}
	}
	if d.rtc == nil {
		return nil, "", fmt.Errorf("%w: %s: the binary has no prebuilt image of this source for %s, and there is no NVRTC to compile it: %v",
			ErrCompile, name, d.pbArch, d.rtcErr)
	}
	opts := targetOptions(d.arch)
	key := cacheKey(name, src, opts, d.info.NVRTCVersion, d.cubin)
	var path string
	if d.cfg.cacheDir != "-" {
		path = filepath.Join(d.cfg.cacheDir, key)
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return append(b, 0), "cache", nil
		}
	}
	image, err := d.rtc.compile(name, src, opts, d.cubin)
	if err != nil {
		return nil, "", err
	}
	if path != "" {
		writeCache(path, image[:len(image)-1])
	}
	return image, "nvrtc", nil
}

// probePrebuilt loads and unloads the prebuilt gf64.cu, on the device
// goroutine during setup: an error says the driver cannot load the images.
func (d *Device) probePrebuilt() error {
	src, err := cuda.Sources.ReadFile("gf64.cu")
	if err != nil {
		return err
	}
	image, err := prebuiltImage("gf64.cu", string(src), d.pbArch)
	if err != nil {
		return err
	}
	if image == nil {
		return fmt.Errorf("no image of gf64.cu")
	}
	var h uintptr
	if err := d.drv.errorf("cuModuleLoadData", d.drv.cuModuleLoadData(&h, unsafe.Pointer(&image[0]))); err != nil {
		return err
	}
	return d.drv.errorf("cuModuleUnload", d.drv.cuModuleUnload(h))
}

// writeCache writes b to path atomically, ignoring failures: the cache is an
// optimisation only.
func writeCache(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// Function is a kernel of a loaded module.
type Function struct {
	m    *Module
	name string
	h    uintptr
}

// Function returns the kernel called name (declared extern "C").
func (m *Module) Function(name string) (*Function, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f := m.fns[name]; f != nil {
		return f, nil
	}
	f := &Function{m: m, name: name}
	err := m.d.do(func() error {
		return m.d.drv.errorf("cuModuleGetFunction", m.d.drv.cuModuleGetFunction(&f.h, m.h, name))
	})
	if err != nil {
		return nil, fmt.Errorf("gpu: kernel %s in %s: %w", name, m.name, err)
	}
	m.fns[name] = f
	return f, nil
}

// Dim3 is a grid or block shape; zero fields count as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) norm() (x, y, z uint32, err error) {
	f := func(v int) (uint32, error) {
		if v == 0 {
			return 1, nil
		}
		if v < 0 || v > 1<<31-1 {
			return 0, fmt.Errorf("gpu: launch dimension %d out of range", v)
		}
		return uint32(v), nil
	}
	if x, err = f(d.X); err != nil {
		return
	}
	if y, err = f(d.Y); err != nil {
		return
	}
	z, err = f(d.Z)
	return
}

// LaunchConfig says how to run a kernel.
type LaunchConfig struct {
	Grid, Block Dim3
	SharedMem   int     // dynamic shared memory per block, bytes
	Stream      *Stream // nil: the default stream, and Launch waits for the kernel
}

// Launch runs the kernel with the given arguments, which must match the
// kernel's parameters in order and type: int32, uint32, int64, uint64,
// float32, float64, gf64.Element, DevicePtr, a *Buffer (passed as its device
// address), or a []byte holding a parameter's bytes (for structs laid out by
// the caller). Go int is refused as ambiguous.
func (f *Function) Launch(cfg LaunchConfig, args ...any) error {
	params, keep, err := packArgs(args)
	if err != nil {
		return fmt.Errorf("gpu: launching %s: %w", f.name, err)
	}
	err = f.m.d.onStream(cfg.Stream, func(h uintptr) error {
		return f.launch(cfg.Grid, cfg.Block, cfg.SharedMem, h, params)
	})
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: launching %s: %w", f.name, err)
	}
	return nil
}

// launch runs inside a device call.
func (f *Function) launch(grid, block Dim3, shmem int, stream uintptr, params []unsafe.Pointer) error {
	return f.launchAs(grid, block, shmem, stream, params, false)
}

// launchAs runs inside a device call; dependent asks for a programmatic
// dependent launch (Queue.LaunchDependent) where the device and driver
// have it.
func (f *Function) launchAs(grid, block Dim3, shmem int, stream uintptr, params []unsafe.Pointer, dependent bool) error {
	gx, gy, gz, err := grid.norm()
	if err != nil {
		return err
	}
	bx, by, bz, err := block.norm()
	if err != nil {
		return err
	}
	if shmem < 0 || shmem > 1<<30 {
		return fmt.Errorf("gpu: shared memory size %d out of range", shmem)
	}
	var pp unsafe.Pointer
	if len(params) > 0 {
		pp = unsafe.Pointer(&params[0])
	}
	drv := f.m.d.drv
	if dependent && drv.launchExSym != 0 && f.m.d.info.Major >= 9 {
		attr := &cuLaunchAttribute{id: cuLaunchAttributeProgrammaticStreamSerialization}
		attr.value[0] = 1 // programmaticStreamSerializationAllowed
		cfg := &cuLaunchConfig{gridX: gx, gridY: gy, gridZ: gz, blockX: bx, blockY: by, blockZ: bz,
			sharedMem: uint32(shmem), stream: stream, attrs: attr, numAttrs: 1}
		r := drv.launchEx(cfg, f.h, pp)
		runtime.KeepAlive(params)
		runtime.KeepAlive(cfg)
		runtime.KeepAlive(attr)
		return drv.errorf("cuLaunchKernelEx", r)
	}
	r := drv.launch(f.h, gx, gy, gz, bx, by, bz, uint32(shmem), stream, pp)
	runtime.KeepAlive(params)
	return drv.errorf("cuLaunchKernel", r)
}

// MaxActiveBlocksPerSM returns how many blocks of the given size and dynamic
// shared memory fit on one multiprocessor at once.
func (f *Function) MaxActiveBlocksPerSM(block, sharedMem int) (int, error) {
	var n int32
	err := f.m.d.do(func() error {
		return f.m.d.drv.errorf("cuOccupancyMaxActiveBlocksPerMultiprocessor",
			f.m.d.drv.cuOccupancyMaxActiveBlocks(&n, f.h, int32(block), uintptr(sharedMem)))
	})
	return int(n), err
}

// SetMaxDynamicSharedMem allows the kernel to use up to bytes of dynamic
// shared memory per block (needed above 48 KiB).
func (f *Function) SetMaxDynamicSharedMem(bytes int) error {
	return f.m.d.do(func() error {
		// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
		return f.m.d.drv.errorf("cuFuncSetAttribute", f.m.d.drv.cuFuncSetAttribute(f.h, 8, int32(bytes)))
	})
}

// devicePointer is implemented by every *Buffer[T].
type devicePointer interface {
	devicePtr() (uint64, error)
}

func box[T any](v T) unsafe.Pointer {
	p := new(T)
	*p = v
	return unsafe.Pointer(p)
}

// packArgs builds the kernelParams array: one pointer per argument to a
// heap copy of its value. keep holds everything that must stay alive until
// the launch has been submitted.
func packArgs(args []any) (params []unsafe.Pointer, keep any, err error) {
	params = make([]unsafe.Pointer, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int32:
			params[i] = box(v)
		case uint32:
			params[i] = box(v)
		case int64:
			params[i] = box(v)
		case uint64:
			params[i] = box(v)
		case float32:
			params[i] = box(v)
		case float64:
			params[i] = box(v)
		case gf64.Element:
			params[i] = box(uint64(v))
		case DevicePtr:
			params[i] = box(uint64(v))
		case devicePointer:
			p, err := v.devicePtr()
			if err != nil {
				return nil, nil, fmt.Errorf("argument %d: %w", i, err)
			}
			params[i] = box(p)
		case []byte:
			if len(v) == 0 {
				return nil, nil, fmt.Errorf("argument %d: empty []byte", i)
			}
			c := append([]byte(nil), v...)
			params[i] = unsafe.Pointer(&c[0])
		case int:
			return nil, nil, fmt.Errorf("argument %d is a Go int; pass int32 or int64", i)
		default:
			return nil, nil, fmt.Errorf("argument %d has unsupported type %T", i, a)
		}
	}
	return params, params, nil
}
