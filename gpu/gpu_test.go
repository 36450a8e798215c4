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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	if errors.Is(devErr, ErrNoDevice) {
		t.Skipf("no GPU: %v", devErr)
	}
	require.NoError(t, devErr, "Open")
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
	assert.Equal(t, "gpu: cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)", e.Error())
	assert.ErrorIs(t, e, ErrOutOfMemory, "out-of-memory code")
	assert.NotErrorIs(t, &Error{Op: "cuLaunchKernel", Code: 719}, ErrOutOfMemory, "launch failure")
	assert.NotErrorIs(t, &Error{Op: "nvrtcCompileProgram", Code: 2}, ErrOutOfMemory, "an NVRTC code")
	assert.ErrorIs(t, e, &Error{Code: 2}, "errors with the same code")
	assert.Contains(t, (&Error{Code: 12345}).Error(), "12345", "unknown code")
	// Without a loaded driver, errorf falls back to the name table.
	var d *driver
	assert.ErrorContains(t, d.errorf("cuInit", 100), "CUDA_ERROR_NO_DEVICE")
	assert.NoError(t, d.errorf("cuInit", 0), "errorf(0)")
}

func TestOptions(t *testing.T) {
	_, err := newConfig([]Option{WithOrdinal(-1)})
	assert.Error(t, err, "negative ordinal accepted")
	_, err = newConfig([]Option{WithNVRTC("")})
	assert.Error(t, err, "empty NVRTC path accepted")
	_, err = newConfig([]Option{WithCacheDir("")})
	assert.Error(t, err, "empty cache directory accepted")
	_, err = newConfig([]Option{nil})
	assert.Error(t, err, "nil option accepted")
	c, err := newConfig([]Option{WithOrdinal(2), WithNVRTC("/x/libnvrtc.so"), WithCacheDir("/tmp/k")})
	require.NoError(t, err)
	assert.Equal(t, 2, c.ordinal)
	assert.Equal(t, "/x/libnvrtc.so", c.nvrtc)
	assert.Equal(t, "/tmp/k", c.cacheDir)
	c, err = newConfig([]Option{WithoutCache()})
	require.NoError(t, err)
	assert.Equal(t, "-", c.cacheDir, "WithoutCache")
	c, err = newConfig([]Option{WithoutPrebuilt()})
	require.NoError(t, err)
	assert.True(t, c.noPrebuilt, "WithoutPrebuilt")
	// Open rejects bad options before touching any library.
	_, err = Open(WithOrdinal(-3))
	require.Error(t, err, "Open(WithOrdinal(-3))")
	assert.NotErrorIs(t, err, ErrNoDevice, "Open(WithOrdinal(-3))")
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
		assert.NotEqual(t, base, k, "changing the %s does not change the cache key", name)
	}
	assert.Equal(t, base, cacheKey("a.cu", "src", []string{"--gpu-architecture=sm_90"}, "13.0", true), "deterministic")
	assert.True(t, strings.HasSuffix(base, ".cubin"), "cubin key %q lacks .cubin", base)
}

func TestWriteCache(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/sub/k.cubin"
	writeCache(p, []byte("image"))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "image", string(b))
}

func TestPackArgs(t *testing.T) {
	params, _, err := packArgs([]any{int32(-1), uint32(2), int64(3), uint64(4), float32(5), float64(6), DevicePtr(7), []byte{1, 2, 3}})
	require.NoError(t, err)
	require.Len(t, params, 8)
	assert.Equal(t, int32(-1), *(*int32)(params[0]), "int32 arg")
	assert.Equal(t, uint64(7), *(*uint64)(params[6]), "DevicePtr arg")
	_, _, err = packArgs([]any{1})
	assert.ErrorContains(t, err, "int32 or int64", "Go int accepted")
	_, _, err = packArgs([]any{"x"})
	assert.Error(t, err, "string accepted")
	b := &Buffer[uint32]{st: &allocState{}}
	b.st.freed.Store(true)
	_, _, err = packArgs([]any{b})
	assert.ErrorIs(t, err, ErrClosed, "freed buffer as argument")
}

func TestByteSize(t *testing.T) {
	s, err := byteSize[uint64](10)
	require.NoError(t, err)
	assert.Equal(t, uintptr(80), s)
	_, err = byteSize[uint64](-1)
	assert.Error(t, err, "negative length accepted")
	_, err = byteSize[uint64](1 << 62)
	assert.ErrorIs(t, err, ErrOutOfMemory, "overflowing length")
	_, err = byteSize[struct{}](1)
	assert.Error(t, err, "zero-size element accepted")
}

func TestNVRTCTarget(t *testing.T) {
	l := &nvrtc{archs: []int{75, 80, 86, 89, 90}, nvrtcGetCUBIN: func(uintptr, *byte) int32 { return 0 }}
	a, c := l.target(90)
	assert.Equal(t, "sm_90", a)
	assert.True(t, c, "target(90) is a cubin")
	a, c = l.target(100)
	assert.Equal(t, "compute_90", a)
	assert.False(t, c, "target(100) is PTX")
	l.nvrtcGetCUBIN = nil
	a, c = l.target(90)
	assert.Equal(t, "compute_90", a, "target without cubin")
	assert.False(t, c, "target without cubin")
}

func TestOpenWithoutDevice(t *testing.T) {
	d, err := Open()
	if err != nil {
		require.ErrorIs(t, err, ErrNoDevice, "Open")
		t.Skipf("no GPU (as expected on CI): %v", err)
	}
	assert.NoError(t, d.Close())
}

func TestInfo(t *testing.T) {
	d := testDevice(t)
	i := d.Info()
	t.Logf("%s", i)
	assert.NotEmpty(t, i.Name)
	assert.NotZero(t, i.TotalMemory)
	assert.NotZero(t, i.Multiprocessors)
	assert.NotZero(t, i.Major)
	free, total, err := d.MemInfo()
	require.NoError(t, err)
	assert.NotZero(t, total)
	assert.LessOrEqual(t, free, total)
}
