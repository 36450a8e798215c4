package gpu

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	buildPrebuiltDir = flag.String("gpu.buildprebuilt", "", "run TestBuildPrebuilt: compile every shipped module with NVRTC into this directory (cuda/prebuilt's layout)")
	prebuiltTargetsF = flag.String("gpu.prebuilttargets", "sm_90", "TestBuildPrebuilt's targets, comma-separated (sm_XY: cubin, compute_XY: PTX)")
)

// TestBuildPrebuilt writes cuda/prebuilt's images with this machine's NVRTC
// (-gpu.buildprebuilt DIR); it needs NVRTC, not a device.
func TestBuildPrebuilt(t *testing.T) {
	if *buildPrebuiltDir == "" {
		t.Skip("run with -gpu.buildprebuilt DIR")
	}
	rtc, err := loadNVRTC("")
	require.NoError(t, err, "NVRTC")
	t0 := time.Now()
	require.NoError(t, buildPrebuilt(rtc, *buildPrebuiltDir, strings.Split(*prebuiltTargetsF, ",")))
	t.Logf("built %s with NVRTC %d.%d in %v", *prebuiltTargetsF, rtc.major, rtc.minor, time.Since(t0))
}

// prebuiltImages returns the embedded image paths (relative to prebuilt/).
func prebuiltImages(t *testing.T) []string {
	var files []string
	err := fs.WalkDir(cuda.Prebuilt, "prebuilt", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.HasSuffix(p, ".gz") {
			files = append(files, strings.TrimPrefix(p, "prebuilt/"))
		}
		return nil
	})
	require.NoError(t, err)
	sort.Strings(files)
	return files
}

// TestPrebuiltFresh checks, without a device, that cuda/prebuilt has an
// image of every shipped module, built from the current sources, for every
// target it covers, that sm_90 is one of them, and that the manifest lists
// exactly the images there, with their sizes.
func TestPrebuiltFresh(t *testing.T) {
	_, ents, err := readManifest()
	require.NoError(t, err)
	mods, err := shippedModules()
	require.NoError(t, err)
	listed := map[string]manifestEntry{}
	targets := map[string]bool{}
	for _, e := range ents {
		if _, dup := listed[e.path]; dup {
			assert.Fail(t, "manifest lists "+e.path+" twice")
		}
		listed[e.path] = e
		targets[path.Dir(e.path)] = true
	}
	assert.True(t, targets["sm_90"] && hasPrebuilt("sm_90"), "no prebuilt images for sm_90 (targets %v)", targets)
	want := map[string]string{} // image path -> module
	for arch := range targets {
		assert.True(t, hasPrebuilt(arch), "manifest lists target %s, which has no directory", arch)
		for _, m := range mods {
			p := strings.TrimPrefix(prebuiltPath(m.name, m.src, arch), "prebuilt/")
			want[p] = m.name
			e, ok := listed[p]
			if !assert.True(t, ok, "%s for %s: no image of the current source (want %s): cuda/prebuilt is stale; rebuild it (cuda/prebuilt/README.md)", m.name, arch, p) {
				continue
			}
			assert.Equal(t, m.name, e.module, "%s: the manifest's module", p)
		}
	}
	files := prebuiltImages(t)
	for _, f := range files {
		_, ok := want[f]
		assert.True(t, ok, "cuda/prebuilt/%s is no shipped module's current image (left over from an older source?)", f)
		e, ok := listed[f]
		if !assert.True(t, ok, "cuda/prebuilt/%s is not in the manifest", f) {
			continue
		}
		gz, err := cuda.Prebuilt.ReadFile("prebuilt/" + f)
		require.NoError(t, err)
		assert.Len(t, gz, e.gzSize, "%s: gzip bytes against the manifest", f)
		r, err := gzip.NewReader(bytes.NewReader(gz))
		require.NoError(t, err)
		img, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.Len(t, img, e.size, "%s: image bytes against the manifest", f)
		if targetIsCubin(path.Dir(f)) {
			assert.True(t, bytes.HasPrefix(img, []byte("\x7fELF")), "%s: a cubin that is not an ELF file", f)
		} else {
			assert.True(t, bytes.Contains(img, []byte(".target "+strings.Replace(path.Dir(f), "compute_", "sm_", 1))), "%s: PTX without its .target line", f)
		}
	}
	assert.Len(t, ents, len(files), "manifest entries against images")
}

// TestPrebuiltLookup checks the key and target choices without a device.
func TestPrebuiltLookup(t *testing.T) {
	mods, err := shippedModules()
	require.NoError(t, err)
	require.Len(t, mods, len(cuda.Programs()), "shipped modules")
	names := map[string]bool{}
	for _, m := range mods {
		assert.False(t, names[m.name], "two shipped modules named %s", m.name)
		names[m.name] = true
		img, err := prebuiltImage(m.name, m.src, "sm_90")
		if assert.NoError(t, err, "%s: prebuilt sm_90 image", m.name) && assert.NotEmpty(t, img, "%s: prebuilt sm_90 image", m.name) {
			assert.Zero(t, img[len(img)-1], "%s: image not NUL-terminated", m.name)
		}
		// Any change to the text, the target or the name misses.
		img, err = prebuiltImage(m.name, m.src+"\n", "sm_90")
		assert.NoError(t, err, "%s: changed source", m.name)
		assert.Nil(t, img, "%s: an image for a changed source", m.name)
		img, err = prebuiltImage(m.name+"x", m.src, "sm_90")
		assert.NoError(t, err, "%s: another name", m.name)
		assert.Nil(t, img, "%s: an image for another name", m.name)
		img, err = prebuiltImage(m.name, m.src, "sm_89")
		assert.NoError(t, err, "%s: sm_89", m.name)
		assert.Nil(t, img, "%s: an image for sm_89", m.name)
	}
	a, ok := prebuiltTargetFor(90, false)
	assert.True(t, ok, "a target for sm_90")
	assert.Equal(t, "sm_90", a, "target for sm_90")
	a, ok = prebuiltTargetFor(89, false)
	assert.False(t, ok, "target for sm_89 without PTX = %q", a)
	a, ok = prebuiltTargetFor(75, true)
	assert.False(t, ok, "target for sm_75 = %q: no image is that old", a)
	if hasPrebuilt("compute_90") {
		a, ok = prebuiltTargetFor(100, true)
		assert.True(t, ok, "a target for sm_100 with PTX")
		assert.Equal(t, "compute_90", a, "target for sm_100 with PTX")
	}
}

// TestCompiledWithoutNVRTC checks the error of a module that neither an
// image nor NVRTC can provide.
func TestCompiledWithoutNVRTC(t *testing.T) {
	d := &Device{cfg: &config{}, rtcErr: fmt.Errorf("%w: cannot load NVRTC", ErrNoDevice), pbArch: "sm_90"}
	_, _, err := d.compiled("mine.cu", "extern \"C\" __global__ void k() {}", true)
	assert.ErrorIs(t, err, ErrCompile)
	assert.ErrorContains(t, err, "mine.cu")
	assert.ErrorContains(t, err, "cannot load NVRTC")
	src, err := cuda.Sources.ReadFile("gf32.cu")
	require.NoError(t, err)
	img, origin, err := d.compiled("gf32.cu", string(src), true)
	require.NoError(t, err, "gf32.cu")
	assert.Equal(t, "prebuilt", origin, "gf32.cu's origin")
	assert.True(t, bytes.HasPrefix(img, []byte("\x7fELF")), "gf32.cu: not a cubin")
}

// loadAll uses every shipped module of d and returns them by name, with the
// time each first use took.
func loadAll(t *testing.T, d *Device) (map[string]*Module, map[string]time.Duration) {
	took := map[string]time.Duration{}
	timed := func(name string, f func() error) {
		t0 := time.Now()
		require.NoError(t, f(), name)
		took[name] = time.Since(t0)
	}
	for _, name := range cuda.Programs() {
		timed(name, func() error { _, err := d.Module(name); return err })
	}
	mods := map[string]*Module{}
	d.resMu.Lock()
	for _, m := range d.modules {
		mods[m.name] = m
	}
	d.resMu.Unlock()
	return mods, took
}

// TestPrebuiltLoads opens the device with the prebuilt images (and no disk
// cache), uses every module and checks that each came from an image, then
// opens it without them and checks that a module comes from NVRTC. It
// prints the first-use times.
func TestPrebuiltLoads(t *testing.T) {
	testDevice(t) // skips without a device
	d, err := Open(WithoutCache())
	require.NoError(t, err)
	defer d.Close()
	info := d.Info()
	if !info.Prebuilt {
		t.Skipf("no prebuilt images for %s (sm_%d%d)", info.Name, info.Major, info.Minor)
	}
	mods, took := loadAll(t, d)
	fmt.Printf("\nprebuilt, %s\n\n| module | first use (load) |\n|---|---|\n", info)
	for _, name := range slices.Sorted(maps.Keys(took)) {
		fmt.Printf("| %s | %.1f ms |\n", name, took[name].Seconds()*1e3)
	}
	shipped, err := shippedModules()
	require.NoError(t, err)
	for _, s := range shipped {
		if m := mods[s.name]; assert.NotNil(t, m, "%s: not loaded", s.name) {
			assert.Equal(t, "prebuilt", m.origin, "%s: where it was loaded from", s.name)
		}
	}
	assert.Len(t, mods, len(shipped), "modules loaded against shipped")

	d2, err := Open(WithoutCache(), WithoutPrebuilt())
	require.NoError(t, err)
	defer d2.Close()
	assert.False(t, d2.Info().Prebuilt, "WithoutPrebuilt: Info().Prebuilt set")
	m, err := d2.Module("gf32.cu")
	require.NoError(t, err)
	assert.Equal(t, "nvrtc", m.origin, "WithoutPrebuilt: where gf32.cu came from")
}

// TestPrebuiltMatchesNVRTC compiles every shipped module with this machine's
// NVRTC and checks that the images are the same bytes, when the NVRTC
// version is the one that built them.
func TestPrebuiltMatchesNVRTC(t *testing.T) {
	d := testDevice(t)
	ver, ents, err := readManifest()
	require.NoError(t, err)
	if d.rtc == nil || d.info.NVRTCVersion != ver {
		t.Skipf("images built by NVRTC %s, this machine has %q", ver, d.info.NVRTCVersion)
	}
	mods, err := shippedModules()
	require.NoError(t, err)
	byName := map[string]moduleSource{}
	for _, m := range mods {
		byName[m.name] = m
	}
	var wg sync.WaitGroup
	errs := make([]error, len(ents))
	for i, e := range ents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := byName[e.module]
			arch := path.Dir(e.path)
			img, err := d.rtc.compile(m.name, m.src, targetOptions(arch), targetIsCubin(arch))
			if err != nil {
				errs[i] = err
				return
			}
			pre, err := prebuiltImage(m.name, m.src, arch)
			if err != nil {
				errs[i] = err
			} else if !bytes.Equal(img, pre) {
				errs[i] = fmt.Errorf("%s for %s: NVRTC %s gives %d bytes, the image has %d or differs", m.name, arch, ver, len(img)-1, len(pre)-1)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
}

// TestOpenWithoutNVRTC opens the device as if NVRTC were missing: every
// module of the library loads from the images and computes what the test
// device computes, a source of the caller's fails with ErrCompile, and
// without the images Open fails with ErrNoDevice.
func TestOpenWithoutNVRTC(t *testing.T) {
	ref := testDevice(t) // skips without a device
	noNVRTC := func(c *config) error { c.noNVRTC = true; return nil }
	if !ref.Info().Prebuilt {
		t.Skipf("no prebuilt images for %s", ref.Info())
	}
	d, err := Open(noNVRTC, WithoutCache())
	require.NoError(t, err)
	defer d.Close()
	info := d.Info()
	assert.Empty(t, info.NVRTCVersion, "Info = %s", info)
	assert.True(t, info.Prebuilt, "Info = %s", info)
	assert.Nil(t, d.rtc, "NVRTC loaded")
	assert.Contains(t, info.String(), "NVRTC none")
	mods, _ := loadAll(t, d)
	for name, m := range mods {
		assert.Equal(t, "prebuilt", m.origin, "%s: where it was loaded from", name)
	}
	_, err = d.LoadModule("mine.cu", "extern \"C\" __global__ void k() {}")
	assert.ErrorIs(t, err, ErrCompile, "LoadModule without NVRTC")
	// A product through the images, against package field/gf64.
	m, err := d.Module("gf64.cu")
	require.NoError(t, err)
	f, err := m.Function("gf64_mul_thread")
	require.NoError(t, err)
	const n = 1 << 14
	a, b := randomWords[gf64.Element](n, 7), randomWords[gf64.Element](n, 8)
	want := make([]gf64.Element, n)
	gf64.MulVec(want, a, b)
	da, db, dc := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
	defer da.Free()
	defer db.Free()
	defer dc.Free()
	require.NoError(t, da.Upload(a))
	require.NoError(t, db.Upload(b))
	require.NoError(t, f.Launch(LaunchConfig{Grid: Dim3{X: n / 256}, Block: Dim3{X: 256}}, dc, da, db, uint64(n)))
	got := make([]gf64.Element, n)
	require.NoError(t, dc.Download(got))
	testutil.EqualSlices(t, want, got, "gf64_mul_thread 2^14 without NVRTC against gf64.MulVec")
	_, err = Open(noNVRTC, WithoutPrebuilt())
	assert.ErrorIs(t, err, ErrNoDevice, "Open without NVRTC and images")
}

// TestPrebuiltRefused makes the driver refuse the images (as an older
// driver refuses a newer toolkit's cubins): with NVRTC the module compiles
// instead; without it Open fails with ErrNoDevice, saying so.
func TestPrebuiltRefused(t *testing.T) {
	ref := testDevice(t) // skips without a device
	if !ref.Info().Prebuilt || ref.rtc == nil {
		t.Skipf("needs prebuilt images and NVRTC: %s", ref.Info())
	}
	prebuiltHook = func(name string, image []byte) []byte {
		if name == "gf32.cu" || name == "gf64.cu" {
			return []byte("not a cubin\x00")
		}
		return image
	}
	defer func() { prebuiltHook = nil }()
	d, err := Open(WithoutCache())
	require.NoError(t, err)
	defer d.Close()
	m, err := d.Module("gf32.cu")
	require.NoError(t, err)
	assert.Equal(t, "nvrtc", m.origin, "refused image: where gf32.cu came from")
	m, err = d.Module(cuda.MerkleProgram("gf64"))
	require.NoError(t, err)
	assert.Equal(t, "prebuilt", m.origin, "where merkle_gf64.cu came from")
	_, err = Open(func(c *config) error { c.noNVRTC = true; return nil })
	assert.ErrorIs(t, err, ErrNoDevice, "Open without NVRTC, images refused")
	assert.ErrorContains(t, err, "do not load", "Open without NVRTC, images refused")
}

var compileTimes = flag.Bool("gpu.compiletimes", false, "run TestCompileTimes: NVRTC compile and load time of each kernel module, no disk cache")

// TestCompileTimes times the first use of each kernel module on a device
// opened without the disk cache and without the prebuilt images: NVRTC
// compilation plus loading, what a machine pays once when the binary has
// no images for its GPU (later runs load the cached image). Run with
// -gpu.compiletimes; TestPrebuiltLoads prints the same rows with images.
func TestCompileTimes(t *testing.T) {
	if !*compileTimes {
		t.Skip("run with -gpu.compiletimes")
	}
	testDevice(t) // skips without a device
	d, err := Open(WithoutCache(), WithoutPrebuilt())
	require.NoError(t, err)
	defer d.Close()
	fmt.Printf("\n%s, NVRTC %s, target %s (cubin %v)\n\n| module | first use (compile + load) |\n|---|---|\n",
		d.Info().Name, d.Info().NVRTCVersion, d.Info().Target, d.cubin)
	_, took := loadAll(t, d)
	for _, name := range slices.Sorted(maps.Keys(took)) {
		fmt.Printf("| %s | %.1f s |\n", name, took[name].Seconds())
	}
}
