package gpu

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	devOnce sync.Once
	dev     *Device
	devErr  error
)

// testDevice returns the shared test device, or skips the test with the
// reason when this machine has none.
var prebuiltTargetFlag = flag.String("gpu.prebuilttarget", "", "open the tests' device with this target's prebuilt images (such as compute_90: the PTX, compiled by the driver)")

func testDevice(t testing.TB) *Device {
	t.Helper()
	devOnce.Do(func() {
		t0 := time.Now()
		var opts []Option
		if *prebuiltTargetFlag != "" {
			opts = append(opts, func(c *config) error { c.pbTarget = *prebuiltTargetFlag; return nil })
		}
		dev, devErr = Open(opts...)
		if devErr == nil && *prebuiltTargetFlag != "" && dev.Info().Target != *prebuiltTargetFlag {
			devErr = fmt.Errorf("-gpu.prebuilttarget %s: the device uses %s", *prebuiltTargetFlag, dev.Info().Target)
		}
		if devErr == nil {
			println("gpu: opened", dev.Info().String(), "in", time.Since(t0).String())
		}
	})
	if devErr != nil {
		if errors.Is(devErr, ErrNoDevice) {
			t.Skipf("no GPU: %v", devErr)
		}
		t.Fatalf("Open: %v", devErr)
	}
	return dev
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if dev != nil {
		if err := dev.Close(); err != nil {
			println("gpu: Close:", err.Error())
			code = 1
		}
	}
	os.Exit(code)
}

func TestErrorFormatting(t *testing.T) {
	e := &Error{Op: "cuMemAlloc", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY"}
	if got, want := e.Error(), "gpu: cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, ErrOutOfMemory) {
		t.Error("out-of-memory code does not match ErrOutOfMemory")
	}
	if errors.Is(&Error{Op: "cuLaunchKernel", Code: 719}, ErrOutOfMemory) {
		t.Error("launch failure matches ErrOutOfMemory")
	}
	if errors.Is(&Error{Op: "nvrtcCompileProgram", Code: 2}, ErrOutOfMemory) {
		t.Error("an NVRTC code matches ErrOutOfMemory")
	}
	if !errors.Is(e, &Error{Code: 2}) {
		t.Error("errors with the same code do not match")
	}
	if got := (&Error{Code: 12345}).Error(); !strings.Contains(got, "12345") {
		t.Errorf("unknown code formats as %q", got)
	}
	// Without a loaded driver, errorf falls back to the name table.
	var d *driver
	err := d.errorf("cuInit", 100)
	if err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Errorf("errorf(100) = %v", err)
	}
	if d.errorf("cuInit", 0) != nil {
		t.Error("errorf(0) is not nil")
	}
}

func TestOptions(t *testing.T) {
	if _, err := newConfig([]Option{WithOrdinal(-1)}); err == nil {
		t.Error("negative ordinal accepted")
	}
	if _, err := newConfig([]Option{WithNVRTC("")}); err == nil {
		t.Error("empty NVRTC path accepted")
	}
	if _, err := newConfig([]Option{WithCacheDir("")}); err == nil {
		t.Error("empty cache directory accepted")
	}
	if _, err := newConfig([]Option{nil}); err == nil {
		t.Error("nil option accepted")
	}
	c, err := newConfig([]Option{WithOrdinal(2), WithNVRTC("/x/libnvrtc.so"), WithCacheDir("/tmp/k")})
	if err != nil || c.ordinal != 2 || c.nvrtc != "/x/libnvrtc.so" || c.cacheDir != "/tmp/k" {
		t.Errorf("newConfig = %+v, %v", c, err)
	}
	c, err = newConfig([]Option{WithoutCache()})
	if err != nil || c.cacheDir != "-" {
		t.Errorf("WithoutCache: %+v, %v", c, err)
	}
	// Open rejects bad options before touching any library.
	if _, err := Open(WithOrdinal(-3)); err == nil || errors.Is(err, ErrNoDevice) {
		t.Errorf("Open(WithOrdinal(-3)) = %v", err)
	}
}

func TestCacheKey(t *testing.T) {
	base := cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90"}, "13.0", true)
	for name, k := range map[string]string{
		"name":    cacheKey("b.cu", "src", []string{"--gpu-architecture=sm_90"}, "13.0", true),
		"source":  cacheKey("a.cu", "src2", []string{"--gpu-architecture=sm_90"}, "13.0", true),
		"arch":    cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_80"}, "13.0", true),
		"nvrtc":   cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90"}, "12.8", true),
		"ptx":     cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90"}, "13.0", false),
		"options": cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90", "-G"}, "13.0", true),
	} {
		if k == base {
			t.Errorf("changing the %s does not change the cache key", name)
		}
	}
	if base != cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90"}, "13.0", true) {
		t.Error("cache key is not deterministic")
	}
	if !strings.HasSuffix(base, ".cubin") {
		t.Errorf("cubin key %q lacks .cubin", base)
	}
}

func TestWriteCache(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/sub/k.cubin"
	writeCache(p, []byte("image"))
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "image" {
		t.Fatalf("cache file = %q, %v", b, err)
	}
}

func TestPackArgs(t *testing.T) {
	params, _, err := packArgs([]any{int32(-1), uint32(2), int64(3), uint64(4), float32(5), float64(6), DevicePtr(7), []byte{1, 2, 3}})
	if err != nil || len(params) != 8 {
		t.Fatalf("packArgs: %v", err)
	}
	if v := *(*int32)(params[0]); v != -1 {
		t.Errorf("int32 arg = %d", v)
	}
	if v := *(*uint64)(params[6]); v != 7 {
		t.Errorf("DevicePtr arg = %d", v)
	}
	if _, _, err := packArgs([]any{1}); err == nil || !strings.Contains(err.Error(), "int32 or int64") {
		t.Errorf("Go int accepted: %v", err)
	}
	if _, _, err := packArgs([]any{"x"}); err == nil {
		t.Error("string accepted")
	}
	b := &Buffer[uint32]{st: &allocState{}}
	b.st.freed.Store(true)
	if _, _, err := packArgs([]any{b}); !errors.Is(err, ErrClosed) {
		t.Errorf("freed buffer as argument: %v", err)
	}
}

func TestByteSize(t *testing.T) {
	if s, err := byteSize[uint64](10); err != nil || s != 80 {
		t.Errorf("byteSize[uint64](10) = %d, %v", s, err)
	}
	if _, err := byteSize[uint64](-1); err == nil {
		t.Error("negative length accepted")
	}
	if _, err := byteSize[uint64](1 << 62); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("overflowing length: %v", err)
	}
	if _, err := byteSize[struct{}](1); err == nil {
		t.Error("zero-size element accepted")
	}
}

func TestNVRTCTarget(t *testing.T) {
	l := &nvrtc{archs: []int{75, 80, 86, 89, 90}, nvrtcGetCUBIN: func(uintptr, *byte) int32 { return 0 }}
	if a, c := l.target(90); a != "sm_90" || !c {
		t.Errorf("target(90) = %s, %v", a, c)
	}
	if a, c := l.target(100); a != "compute_90" || c {
		t.Errorf("target(100) = %s, %v", a, c)
	}
	l.nvrtcGetCUBIN = nil
	if a, c := l.target(90); a != "compute_90" || c {
		t.Errorf("target without cubin = %s, %v", a, c)
	}
}

func TestOpenWithoutDevice(t *testing.T) {
	d, err := Open()
	if err != nil {
		if !errors.Is(err, ErrNoDevice) {
			t.Fatalf("Open: %v (does not wrap ErrNoDevice)", err)
		}
		t.Skipf("no GPU (as expected on CI): %v", err)
	}
	d.Close()
}

func TestInfo(t *testing.T) {
	d := testDevice(t)
	i := d.Info()
	t.Logf("%s", i)
	if i.Name == "" || i.TotalMemory == 0 || i.Multiprocessors == 0 || i.Major == 0 {
		t.Errorf("incomplete info: %+v", i)
	}
	free, total, err := d.MemInfo()
	if err != nil || total == 0 || free > total {
		t.Errorf("MemInfo = %d, %d, %v", free, total, err)
	}
}
