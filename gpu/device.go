package gpu

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// Option configures Open.
type Option func(*config) error

type config struct {
	ordinal    int
	nvrtc      string
	cacheDir   string // "" = default, "-" = no cache
	noPrebuilt bool
	pbTarget   string // tests: the prebuilt images to use, such as PTX where cubins exist
	noNVRTC    bool   // tests: behave as if NVRTC were missing
}

// WithOrdinal selects the CUDA device by its ordinal (default 0).
func WithOrdinal(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("gpu: device ordinal %d is negative", n)
		}
		c.ordinal = n
		return nil
	}
}

// WithNVRTC loads NVRTC from the given library path instead of searching
// libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12 on the loader path and in
// /usr/local/cuda/lib64.
func WithNVRTC(path string) Option {
	return func(c *config) error {
		if path == "" {
			return errors.New("gpu: empty NVRTC path")
		}
		c.nvrtc = path
		return nil
	}
}

// WithCacheDir stores compiled kernel modules in dir instead of
// os.UserCacheDir()/gfpoly. The directory is created when needed.
func WithCacheDir(dir string) Option {
	return func(c *config) error {
		if dir == "" {
			return errors.New("gpu: empty cache directory")
		}
		c.cacheDir = dir
		return nil
	}
}

// WithoutCache compiles kernel modules on every Open and keeps nothing on disk.
func WithoutCache() Option {
	return func(c *config) error {
		c.cacheDir = "-"
		return nil
	}
}

// WithoutPrebuilt compiles every kernel module with NVRTC (or takes it from
// the disk cache), ignoring the images compiled ahead of time that the
// binary carries (package cuda's Prebuilt). By default a device whose
// architecture has images loads them: no compilation, and no NVRTC needed.
func WithoutPrebuilt() Option {
	return func(c *config) error {
		c.noPrebuilt = true
		return nil
	}
}

func newConfig(opts []Option) (*config, error) {
	c := &config{}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("gpu: nil option")
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.cacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			c.cacheDir = filepath.Join(dir, "gfpoly")
		} else {
			c.cacheDir = "-"
		}
	}
	return c, nil
}

// Info describes a device.
type Info struct {
	Name               string // e.g. "NVIDIA H100 80GB HBM3"
	Ordinal            int
	TotalMemory        uint64 // bytes of device memory
	Multiprocessors    int
	Major, Minor       int // compute capability
	MaxThreadsPerBlock int
	SharedMemPerBlock  int // bytes, without opting in to more
	L2CacheSize        int // bytes
	ClockRateKHz       int
	DriverVersion      int    // e.g. 13000 for CUDA 13.0
	NVRTCVersion       string // e.g. "13.0"; empty without NVRTC
	NVRTCPath          string
	Target             string // what the kernels are compiled for, e.g. "sm_90"
	// Prebuilt is set when the library's kernels load from images compiled
	// ahead of time for Target (see WithoutPrebuilt) instead of NVRTC.
	Prebuilt bool
}

func (i Info) String() string {
	nvrtc, kern := i.NVRTCVersion, "kernels for"
	if nvrtc == "" {
		nvrtc = "none"
	}
	if i.Prebuilt {
		kern = "prebuilt kernels for"
	}
	return fmt.Sprintf("%s (device %d, sm_%d%d, %d SMs, %.1f GiB, driver %d.%d, NVRTC %s, %s %s)",
		i.Name, i.Ordinal, i.Major, i.Minor, i.Multiprocessors, float64(i.TotalMemory)/(1<<30),
		i.DriverVersion/1000, i.DriverVersion%1000/10, nvrtc, kern, i.Target)
}

// Device is an open CUDA device: a context on it and one goroutine, locked to
// its OS thread, that runs all work in that context. Its methods are safe for
// concurrent use.
type Device struct {
	info   Info
	drv    *driver
	rtc    *nvrtc // nil when NVRTC is missing and prebuilt images stand in
	rtcErr error  // why rtc is nil
	cfg    *config
	dev    int32
	ctx    uintptr
	arch   string // NVRTC's target for this device
	cubin  bool
	pbArch string // the prebuilt images' target, "" when none are used
	pools  bool   // stream-ordered allocation available

	jobs   chan func() // the device goroutine's: set-up and teardown
	run    sync.Mutex  // held by the call in progress (do)
	ctxOut uintptr     // cuCtxGetCurrent's result (under run; on the heap with d)

	mu     sync.RWMutex // held for reading by calls in flight, for writing by Close
	closed bool

	resMu   sync.Mutex
	allocs  map[uint64]bool         // live device allocations
	hosts   map[uintptr]*hostRecord // live pinned host allocations
	modules map[string]*Module      // loaded modules by name
}

// Open loads the CUDA driver and NVRTC, picks a device and starts the
// goroutine that owns its context. It returns an error wrapping ErrNoDevice
// when there is no driver or no device, or when there is no NVRTC and the
// binary has no prebuilt kernel images for the device (it has them for
// sm_90: H100, H200, GH200). Kernel modules are loaded, or compiled, when
// first used.
func Open(opts ...Option) (*Device, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	drv, err := loadDriver()
	if err != nil {
		return nil, err
	}
	var count int32
	if r := drv.cuDeviceGetCount(&count); r != cudaSuccess {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, drv.errorf("cuDeviceGetCount", r))
	}
	if count == 0 {
		return nil, fmt.Errorf("%w: the driver reports no CUDA device", ErrNoDevice)
	}
	if cfg.ordinal >= int(count) {
		return nil, fmt.Errorf("%w: device ordinal %d, but there are %d devices", ErrNoDevice, cfg.ordinal, count)
	}
	rtc, rtcErr := loadNVRTC(cfg.nvrtc)
	if cfg.noNVRTC {
		rtc, rtcErr = nil, fmt.Errorf("%w: NVRTC turned off", ErrNoDevice)
	}
	if rtcErr != nil {
		// Without NVRTC the device needs images of every module.
		if cfg.noPrebuilt || cfg.nvrtc != "" {
			return nil, rtcErr
		}
		sm, err := drv.computeCapability(cfg.ordinal)
		if err != nil {
			return nil, err
		}
		if _, ok := prebuiltTargetFor(sm, true); !ok {
			return nil, fmt.Errorf("%w; and this binary has no prebuilt kernels for sm_%d", rtcErr, sm)
		}
	}
	d := &Device{
		drv:     drv,
		rtc:     rtc,
		rtcErr:  rtcErr,
		cfg:     cfg,
		jobs:    make(chan func()),
		allocs:  map[uint64]bool{},
		hosts:   map[uintptr]*hostRecord{},
		modules: map[string]*Module{},
	}
	started := make(chan error, 1)
	go d.loop(started)
	if err := <-started; err != nil {
		return nil, err
	}
	return d, nil
}

// loop is the device goroutine: it binds the context to its thread and runs
// submitted jobs until Close.
func (d *Device) loop(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := d.setup(); err != nil {
		started <- err
		return
	}
	started <- nil
	for job := range d.jobs {
		job()
	}
}

func (d *Device) setup() error {
	drv := d.drv
	if r := drv.cuDeviceGet(&d.dev, int32(d.cfg.ordinal)); r != cudaSuccess {
		return fmt.Errorf("%w: %v", ErrNoDevice, drv.errorf("cuDeviceGet", r))
	}
	if r := drv.cuDevicePrimaryCtxRetain(&d.ctx, d.dev); r != cudaSuccess {
		return fmt.Errorf("%w: %v", ErrNoDevice, drv.errorf("cuDevicePrimaryCtxRetain", r))
	}
	if r := drv.cuCtxSetCurrent(d.ctx); r != cudaSuccess {
		drv.cuDevicePrimaryCtxRelease(d.dev)
		return fmt.Errorf("%w: %v", ErrNoDevice, drv.errorf("cuCtxSetCurrent", r))
	}
	name := make([]byte, 256)
	if r := drv.cuDeviceGetName(&name[0], int32(len(name)), d.dev); r == cudaSuccess {
		d.info.Name = goString(&name[0])
	}
	drv.cuDeviceTotalMem(&d.info.TotalMemory, d.dev)
	attr := func(a int32) int {
		var v int32
		if drv.cuDeviceGetAttribute(&v, a, d.dev) != cudaSuccess {
			return 0
		}
		return int(v)
	}
	d.info.Ordinal = d.cfg.ordinal
	d.info.MaxThreadsPerBlock = attr(1)
	d.info.SharedMemPerBlock = attr(8)
	d.info.ClockRateKHz = attr(13)
	d.info.Multiprocessors = attr(16)
	d.info.L2CacheSize = attr(38)
	d.info.Major = attr(75)
	d.info.Minor = attr(76)
	d.pools = attr(115) != 0 && drv.cuMemAllocAsync != nil && drv.cuMemFreeAsync != nil
	d.info.DriverVersion = drv.version
	sm := d.info.Major*10 + d.info.Minor
	if d.rtc != nil {
		d.info.NVRTCVersion = fmt.Sprintf("%d.%d", d.rtc.major, d.rtc.minor)
		d.info.NVRTCPath = d.rtc.path
		d.arch, d.cubin = d.rtc.target(sm)
	}
	d.info.Target = d.arch
	if !d.cfg.noPrebuilt {
		// The device's own machine code when the binary has it; PTX, which
		// the driver compiles, only where NVRTC is missing.
		a, ok := prebuiltTargetFor(sm, d.rtc == nil)
		if t := d.cfg.pbTarget; t != "" {
			a, ok = t, hasPrebuilt(t)
		}
		if ok {
			d.pbArch = a
			d.info.Target, d.info.Prebuilt = a, true
		}
	}
	if d.rtc == nil {
		// A cubin from a newer toolkit than the driver does not load: find
		// out now, while Open can still say so, with the smallest module.
		if d.pbArch == "" {
			drv.cuDevicePrimaryCtxRelease(d.dev)
			return fmt.Errorf("%w; and no prebuilt kernels are used", d.rtcErr)
		}
		if err := d.probePrebuilt(); err != nil {
			drv.cuDevicePrimaryCtxRelease(d.dev)
			return fmt.Errorf("%w: no NVRTC (%v), and the prebuilt kernels for %s do not load: %v", ErrNoDevice, d.rtcErr, d.pbArch, err)
		}
	}
	return nil
}

// Info describes the device.
func (d *Device) Info() Info { return d.info }

// do runs f with the device's context current and returns its error. It
// returns ErrClosed after Close. A panic in f becomes an error.
//
// f runs on the calling goroutine, locked to its thread, with the context
// made current there (and the thread's previous context restored after),
// one call at a time per device (d.run): the same serial order as the
// device goroutine's jobs, without the two goroutine switches a hop to it
// costs (about 22 µs on the H100 machine, more than a small kernel; issue
// 24, BENCHMARKS.md). The device goroutine keeps the context's set-up and
// teardown.
func (d *Device) do(f func() error) (err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.closed {
		return ErrClosed
	}
	d.run.Lock()
	runtime.LockOSThread()
	prev := d.drv.currentContext(&d.ctxOut)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("gpu: internal error: %v", p)
		}
		if prev != d.ctx && prev != 0 {
			d.drv.setContext(prev) // a call of another device's do in progress on this thread
		}
		runtime.UnlockOSThread()
		d.run.Unlock()
	}()
	if prev != d.ctx {
		if r := d.drv.setContext(d.ctx); r != cudaSuccess {
			return d.drv.errorf("cuCtxSetCurrent", r)
		}
	}
	return f()
}

// Synchronize waits until all work submitted to the device has finished and
// returns the first asynchronous error, if any.
func (d *Device) Synchronize() error {
	return d.do(func() error { return d.drv.errorf("cuCtxSynchronize", d.drv.cuCtxSynchronize()) })
}

// cudaErrorPeerAccessAlreadyEnabled is CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED.
const cudaErrorPeerAccessAlreadyEnabled = 704

// EnablePeerAccess lets d reach peer's memory directly
// (cuCtxEnablePeerAccess in d's context), so that Buffer.CopyFrom into d's
// buffers from peer's goes over the link between the GPUs instead of being
// staged by the driver; call it both ways for copies both ways. Device
// values opened on one ordinal share its context and need nothing; access
// enabled before is not an error. Where the GPUs cannot reach each other
// it returns an error wrapping ErrNoPeerAccess, and copies between them
// still work, staged.
func (d *Device) EnablePeerAccess(peer *Device) error {
	if peer == nil {
		return fmt.Errorf("gpu: EnablePeerAccess: nil peer device: %w", ErrNoDevice)
	}
	if peer.isClosed() {
		return fmt.Errorf("gpu: EnablePeerAccess: the peer device is closed: %w", ErrClosed)
	}
	if peer.ctx == d.ctx {
		return d.do(func() error { return nil }) // ErrClosed when d is
	}
	return d.do(func() error {
		var can int32
		if err := d.drv.errorf("cuDeviceCanAccessPeer", d.drv.cuDeviceCanAccessPeer(&can, d.dev, peer.dev)); err != nil {
			return err
		}
		if can == 0 {
			return fmt.Errorf("gpu: device %d cannot reach the memory of device %d: %w", d.info.Ordinal, peer.info.Ordinal, ErrNoPeerAccess)
		}
		r := d.drv.cuCtxEnablePeerAccess(peer.ctx, 0)
		if r == cudaErrorPeerAccessAlreadyEnabled {
			return nil
		}
		return d.drv.errorf("cuCtxEnablePeerAccess", r)
	})
}

// MemInfo returns the free and total device memory in bytes.
func (d *Device) MemInfo() (free, total uint64, err error) {
	err = d.do(func() error { return d.drv.errorf("cuMemGetInfo", d.drv.cuMemGetInfo(&free, &total)) })
	return free, total, err
}

// Close waits for submitted work, frees every buffer, stream, event and module
// still held, releases the context and stops the device goroutine. Closing
// twice is harmless; other methods return ErrClosed afterwards.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	done := make(chan error, 1)
	d.jobs <- func() { done <- d.teardown() }
	err := <-done
	close(d.jobs)
	return err
}

func (d *Device) teardown() error {
	drv := d.drv
	errs := []error{drv.errorf("cuCtxSynchronize", drv.cuCtxSynchronize())}
	d.resMu.Lock()
	defer d.resMu.Unlock()
	for _, m := range d.modules {
		errs = append(errs, drv.errorf("cuModuleUnload", drv.cuModuleUnload(m.h)))
	}
	d.modules = map[string]*Module{}
	for p := range d.allocs {
		errs = append(errs, drv.errorf("cuMemFree", drv.cuMemFree(p)))
	}
	d.allocs = map[uint64]bool{}
	for _, h := range d.hosts {
		errs = append(errs, drv.errorf("cuMemFreeHost", drv.cuMemFreeHost(h.p)))
		h.freed.Store(true)
	}
	d.hosts = map[uintptr]*hostRecord{}
	errs = append(errs, drv.errorf("cuDevicePrimaryCtxRelease", drv.cuDevicePrimaryCtxRelease(d.dev)))
	return errors.Join(errs...)
}
