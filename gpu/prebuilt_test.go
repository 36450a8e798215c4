package gpu

import (
	"bytes"
	"compress/gzip"
	"errors"
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

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
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
	if err != nil {
		t.Fatalf("NVRTC: %v", err)
	}
	t0 := time.Now()
	must(t, buildPrebuilt(rtc, *buildPrebuiltDir, strings.Split(*prebuiltTargetsF, ",")))
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
	must(t, err)
	sort.Strings(files)
	return files
}

// TestPrebuiltFresh checks, without a device, that cuda/prebuilt has an
// image of every shipped module, built from the current sources, for every
// target it covers, that sm_90 is one of them, and that the manifest lists
// exactly the images there, with their sizes.
func TestPrebuiltFresh(t *testing.T) {
	_, ents, err := readManifest()
	must(t, err)
	mods, err := shippedModules()
	must(t, err)
	listed := map[string]manifestEntry{}
	targets := map[string]bool{}
	for _, e := range ents {
		if _, dup := listed[e.path]; dup {
			t.Errorf("manifest lists %s twice", e.path)
		}
		listed[e.path] = e
		targets[path.Dir(e.path)] = true
	}
	if !targets["sm_90"] || !hasPrebuilt("sm_90") {
		t.Errorf("no prebuilt images for sm_90 (targets %v)", targets)
	}
	want := map[string]string{} // image path -> module
	for arch := range targets {
		if !hasPrebuilt(arch) {
			t.Errorf("manifest lists target %s, which has no directory", arch)
		}
		for _, m := range mods {
			p := strings.TrimPrefix(prebuiltPath(m.name, m.src, arch), "prebuilt/")
			want[p] = m.name
			e, ok := listed[p]
			if !ok {
				t.Errorf("%s for %s: no image of the current source (want %s): cuda/prebuilt is stale; rebuild it (cuda/prebuilt/README.md)", m.name, arch, p)
				continue
			}
			if e.module != m.name {
				t.Errorf("%s: manifest says module %s, want %s", p, e.module, m.name)
			}
		}
	}
	files := prebuiltImages(t)
	for _, f := range files {
		if _, ok := want[f]; !ok {
			t.Errorf("cuda/prebuilt/%s is no shipped module's current image (left over from an older source?)", f)
		}
		e, ok := listed[f]
		if !ok {
			t.Errorf("cuda/prebuilt/%s is not in the manifest", f)
			continue
		}
		gz, err := cuda.Prebuilt.ReadFile("prebuilt/" + f)
		must(t, err)
		if len(gz) != e.gzSize {
			t.Errorf("%s: %d bytes, manifest says %d", f, len(gz), e.gzSize)
		}
		r, err := gzip.NewReader(bytes.NewReader(gz))
		must(t, err)
		img, err := io.ReadAll(r)
		must(t, err)
		if len(img) != e.size {
			t.Errorf("%s: image of %d bytes, manifest says %d", f, len(img), e.size)
		}
		if cubin := targetIsCubin(path.Dir(f)); cubin && !bytes.HasPrefix(img, []byte("\x7fELF")) {
			t.Errorf("%s: a cubin that is not an ELF file", f)
		} else if !cubin && !bytes.Contains(img, []byte(".target "+strings.Replace(path.Dir(f), "compute_", "sm_", 1))) {
			t.Errorf("%s: PTX without its .target line", f)
		}
	}
	if len(files) != len(ents) {
		t.Errorf("%d images, manifest lists %d", len(files), len(ents))
	}
}

// TestPrebuiltLookup checks the key and target choices without a device.
func TestPrebuiltLookup(t *testing.T) {
	mods, err := shippedModules()
	must(t, err)
	if len(mods) != len(cuda.Programs()) {
		t.Fatalf("%d shipped modules", len(mods))
	}
	names := map[string]bool{}
	for _, m := range mods {
		if names[m.name] {
			t.Errorf("two shipped modules named %s", m.name)
		}
		names[m.name] = true
		img, err := prebuiltImage(m.name, m.src, "sm_90")
		if err != nil || img == nil || img[len(img)-1] != 0 {
			t.Errorf("%s: prebuilt sm_90 image: %v (nil %v)", m.name, err, img == nil)
		}
		// Any change to the text, the target or the name misses.
		if img, err := prebuiltImage(m.name, m.src+"\n", "sm_90"); img != nil || err != nil {
			t.Errorf("%s: an image for a changed source (%v)", m.name, err)
		}
		if img, err := prebuiltImage(m.name+"x", m.src, "sm_90"); img != nil || err != nil {
			t.Errorf("%s: an image for another name (%v)", m.name, err)
		}
		if img, err := prebuiltImage(m.name, m.src, "sm_89"); img != nil || err != nil {
			t.Errorf("%s: an image for sm_89 (%v)", m.name, err)
		}
	}
	if a, ok := prebuiltTargetFor(90, false); !ok || a != "sm_90" {
		t.Errorf("target for sm_90 = %q, %v", a, ok)
	}
	if a, ok := prebuiltTargetFor(89, false); ok {
		t.Errorf("target for sm_89 without PTX = %q", a)
	}
	if a, ok := prebuiltTargetFor(75, true); ok {
		t.Errorf("target for sm_75 = %q: no image is that old", a)
	}
	if hasPrebuilt("compute_90") {
		if a, ok := prebuiltTargetFor(100, true); !ok || a != "compute_90" {
			t.Errorf("target for sm_100 with PTX = %q, %v", a, ok)
		}
	}
}

// TestCompiledWithoutNVRTC checks the error of a module that neither an
// image nor NVRTC can provide.
func TestCompiledWithoutNVRTC(t *testing.T) {
	d := &Device{cfg: &config{}, rtcErr: fmt.Errorf("%w: cannot load NVRTC", ErrNoDevice), pbArch: "sm_90"}
	_, _, err := d.compiled("mine.cu", "extern \"C\" __global__ void k() {}", true)
	if !errors.Is(err, ErrCompile) || !strings.Contains(err.Error(), "mine.cu") || !strings.Contains(err.Error(), "cannot load NVRTC") {
		t.Errorf("err = %v", err)
	}
	src, err := cuda.Sources.ReadFile("gf32.cu")
	must(t, err)
	img, origin, err := d.compiled("gf32.cu", string(src), true)
	if err != nil || origin != "prebuilt" || !bytes.HasPrefix(img, []byte("\x7fELF")) {
		t.Errorf("gf32.cu: origin %q, err %v", origin, err)
	}
}

// loadAll uses every shipped module of d and returns them by name, with the
// time each first use took.
func loadAll(t *testing.T, d *Device) (map[string]*Module, map[string]time.Duration) {
	took := map[string]time.Duration{}
	timed := func(name string, f func() error) {
		t0 := time.Now()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
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
	must(t, err)
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
	must(t, err)
	for _, s := range shipped {
		m := mods[s.name]
		if m == nil {
			t.Errorf("%s: not loaded", s.name)
		} else if m.origin != "prebuilt" {
			t.Errorf("%s: loaded from %s, want the prebuilt image", s.name, m.origin)
		}
	}
	if len(mods) != len(shipped) {
		t.Errorf("%d modules loaded, %d shipped", len(mods), len(shipped))
	}

	d2, err := Open(WithoutCache(), WithoutPrebuilt())
	must(t, err)
	defer d2.Close()
	if d2.Info().Prebuilt {
		t.Errorf("WithoutPrebuilt: Info().Prebuilt set")
	}
	m, err := d2.Module("gf32.cu")
	must(t, err)
	if m.origin != "nvrtc" {
		t.Errorf("WithoutPrebuilt: gf32.cu from %s", m.origin)
	}
}

// TestPrebuiltMatchesNVRTC compiles every shipped module with this machine's
// NVRTC and checks that the images are the same bytes, when the NVRTC
// version is the one that built them.
func TestPrebuiltMatchesNVRTC(t *testing.T) {
	d := testDevice(t)
	ver, ents, err := readManifest()
	must(t, err)
	if d.rtc == nil || d.info.NVRTCVersion != ver {
		t.Skipf("images built by NVRTC %s, this machine has %q", ver, d.info.NVRTCVersion)
	}
	mods, err := shippedModules()
	must(t, err)
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
		if err != nil {
			t.Error(err)
		}
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
	must(t, err)
	defer d.Close()
	info := d.Info()
	if info.NVRTCVersion != "" || !info.Prebuilt || d.rtc != nil || !strings.Contains(info.String(), "NVRTC none") {
		t.Errorf("Info = %s", info)
	}
	mods, _ := loadAll(t, d)
	for name, m := range mods {
		if m.origin != "prebuilt" {
			t.Errorf("%s from %s", name, m.origin)
		}
	}
	if _, err := d.LoadModule("mine.cu", "extern \"C\" __global__ void k() {}"); !errors.Is(err, ErrCompile) {
		t.Errorf("LoadModule without NVRTC: %v", err)
	}
	// A product through the images, against package field/gf64.
	m, err := d.Module("gf64.cu")
	must(t, err)
	f, err := m.Function("gf64_mul_thread")
	must(t, err)
	const n = 1 << 14
	a, b := randomWords[gf64.Element](n, 7), randomWords[gf64.Element](n, 8)
	want := make([]gf64.Element, n)
	gf64.MulVec(want, a, b)
	da, db, dc := mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n), mustAlloc[gf64.Element](t, d, n)
	must(t, da.Upload(a))
	must(t, db.Upload(b))
	must(t, f.Launch(LaunchConfig{Grid: Dim3{X: n / 256}, Block: Dim3{X: 256}}, dc, da, db, uint64(n)))
	got := make([]gf64.Element, n)
	must(t, dc.Download(got))
	if !slices.Equal(got, want) {
		t.Errorf("gf64_mul_thread 2^14 without NVRTC differs from gf64.MulVec")
	}
	if _, err := Open(noNVRTC, WithoutPrebuilt()); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Open without NVRTC and images: %v", err)
	}
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
	must(t, err)
	defer d.Close()
	m, err := d.Module("gf32.cu")
	must(t, err)
	if m.origin != "nvrtc" {
		t.Errorf("refused image: gf32.cu from %s, want nvrtc", m.origin)
	}
	m, err = d.Module(cuda.MerkleProgram("gf64"))
	must(t, err)
	if m.origin != "prebuilt" {
		t.Errorf("merkle_gf64.cu from %s, want prebuilt", m.origin)
	}
	_, err = Open(func(c *config) error { c.noNVRTC = true; return nil })
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "do not load") {
		t.Errorf("Open without NVRTC, images refused: %v", err)
	}
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
	must(t, err)
	defer d.Close()
	fmt.Printf("\n%s, NVRTC %s, target %s (cubin %v)\n\n| module | first use (compile + load) |\n|---|---|\n",
		d.Info().Name, d.Info().NVRTCVersion, d.Info().Target, d.cubin)
	_, took := loadAll(t, d)
	for _, name := range slices.Sorted(maps.Keys(took)) {
		fmt.Printf("| %s | %.1f s |\n", name, took[name].Seconds())
	}
}
