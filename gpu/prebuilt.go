package gpu

// Prebuilt kernel images.
//
// Every module the library compiles from cuda/*.cu with its default settings
// is also shipped compiled, in cuda/prebuilt: one gzip-compressed image per
// module and target, named by the same kind of key as the disk cache (a
// hash of the program name, the source text, the NVRTC options and the
// image kind). A device whose target has images loads them instead of
// running NVRTC, so that the first use of a module costs milliseconds
// instead of the 1–30 s of compiling it, and a machine with the CUDA driver
// but no NVRTC can run the library's kernels. A key is a hash of the exact
// source, so an image can only be used for the source it was built from: a
// change to cuda/*.cu without new images falls back to NVRTC, and
// TestPrebuiltFresh fails until the images are rebuilt (see
// cuda/prebuilt/README.md).

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/gfpoly/gfpoly/cuda"
)

// prebuiltKeyVersion stands where a cache key has the NVRTC version: an
// image is found by its source and options, whichever NVRTC built it.
const prebuiltKeyVersion = "prebuilt"

// moduleSource is a module the library compiles: its program name and text.
type moduleSource struct{ name, src string }

// shippedModules returns every program the library compiles
// (cuda.Programs), with its text.
func shippedModules() ([]moduleSource, error) {
	var mods []moduleSource
	for _, name := range cuda.Programs() {
		src, err := cuda.Program(name)
		if err != nil {
			return nil, err
		}
		mods = append(mods, moduleSource{name, src})
	}
	return mods, nil
}

// targetOptions returns the NVRTC options for a target ("sm_90": cubin,
// "compute_90": PTX).
func targetOptions(arch string) []string {
	return append([]string{"--gpu-architecture=" + arch}, compileOptions...)
}

func targetIsCubin(arch string) bool { return strings.HasPrefix(arch, "sm_") }

// prebuiltPath is where the image of a module for a target is in
// cuda.Prebuilt.
func prebuiltPath(name, src, arch string) string {
	return "prebuilt/" + arch + "/" + cacheKey(name, src, targetOptions(arch), prebuiltKeyVersion, targetIsCubin(arch)) + ".gz"
}

var (
	prebuiltOnce    sync.Once
	prebuiltTargets map[string]bool
)

// hasPrebuilt reports whether the binary carries images for the target.
func hasPrebuilt(arch string) bool {
	prebuiltOnce.Do(func() {
		prebuiltTargets = map[string]bool{}
		ents, _ := fs.ReadDir(cuda.Prebuilt, "prebuilt")
		for _, e := range ents {
			if e.IsDir() {
				prebuiltTargets[e.Name()] = true
			}
		}
	})
	return prebuiltTargets[arch]
}

// prebuiltTargetFor picks the images for a device of compute capability sm
// (e.g. 90): its own machine code if the binary has it, else, when
// ptxToo, the PTX of the newest virtual architecture not newer than the
// device, which the driver compiles on loading.
func prebuiltTargetFor(sm int, ptxToo bool) (string, bool) {
	if a := fmt.Sprintf("sm_%d", sm); hasPrebuilt(a) {
		return a, true
	}
	if !ptxToo {
		return "", false
	}
	for v := sm; v >= 50; v-- {
		if a := fmt.Sprintf("compute_%d", v); hasPrebuilt(a) {
			return a, true
		}
	}
	return "", false
}

// prebuiltHook, when set (by tests), replaces the images that prebuiltImage
// returns, such as by ones the driver refuses.
var prebuiltHook func(name string, image []byte) []byte

// prebuiltImage returns the NUL-terminated image of a module for a target,
// or nil when the binary has none (for this exact source).
func prebuiltImage(name, src, arch string) ([]byte, error) {
	gz, err := cuda.Prebuilt.ReadFile(prebuiltPath(name, src, arch))
	if err != nil {
		return nil, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("gpu: prebuilt image of %s for %s: %w", name, arch, err)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		return nil, fmt.Errorf("gpu: prebuilt image of %s for %s: %w", name, arch, err)
	}
	if buf.Len() == 0 {
		return nil, fmt.Errorf("gpu: prebuilt image of %s for %s is empty", name, arch)
	}
	buf.WriteByte(0)
	if prebuiltHook != nil {
		return prebuiltHook(name, buf.Bytes()), nil
	}
	return buf.Bytes(), nil
}

// prebuiltManifest is the name of the list of images in cuda/prebuilt.
const prebuiltManifest = "MANIFEST"

// buildPrebuilt compiles every shipped module for each target with rtc and,
// when all of them compiled, writes the images under dir
// (dir/<target>/<key>.gz, replacing those directories) and a manifest
// listing them. Modules compile in parallel.
func buildPrebuilt(rtc *nvrtc, dir string, targets []string) error {
	mods, err := shippedModules()
	if err != nil {
		return err
	}
	type job struct {
		m    moduleSource
		arch string
		rel  string // path under dir
		gz   []byte
		size int
		err  error
	}
	var jobs []*job
	for _, arch := range targets {
		if !strings.HasPrefix(arch, "sm_") && !strings.HasPrefix(arch, "compute_") {
			return fmt.Errorf("gpu: prebuilt target %q: want sm_XY or compute_XY", arch)
		}
		for _, m := range mods {
			rel := strings.TrimPrefix(prebuiltPath(m.name, m.src, arch), "prebuilt/")
			jobs = append(jobs, &job{m: m, arch: arch, rel: rel})
		}
	}
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			img, err := rtc.compile(j.m.name, j.m.src, targetOptions(j.arch), targetIsCubin(j.arch))
			if err != nil {
				j.err = err
				return
			}
			img = img[:len(img)-1]
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(img)
			j.err = zw.Close()
			j.gz, j.size = buf.Bytes(), len(img)
		})
	}
	wg.Wait()
	var b strings.Builder
	fmt.Fprintf(&b, "# gfpoly prebuilt kernel images, built by NVRTC %d.%d (%s).\n", rtc.major, rtc.minor, rtc.path)
	b.WriteString("# image, module, image bytes, gzip bytes, source sha256 prefix\n")
	for _, j := range jobs {
		if j.err != nil {
			return fmt.Errorf("gpu: prebuilt %s for %s: %w", j.m.name, j.arch, j.err)
		}
		sum := sha256.Sum256([]byte(j.m.src))
		fmt.Fprintf(&b, "%s %s %d %d %s\n", j.rel, j.m.name, j.size, len(j.gz), hex.EncodeToString(sum[:8]))
	}
	for _, arch := range targets {
		if err := os.RemoveAll(filepath.Join(dir, arch)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, arch), 0o755); err != nil {
			return err
		}
	}
	for _, j := range jobs {
		if err := os.WriteFile(filepath.Join(dir, j.rel), j.gz, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, prebuiltManifest), []byte(b.String()), 0o644)
}

// manifestEntry is a line of cuda/prebuilt/MANIFEST.
type manifestEntry struct {
	path, module string
	size, gzSize int
}

// readManifest parses the embedded manifest and returns its NVRTC version
// and entries.
func readManifest() (nvrtcVersion string, ents []manifestEntry, err error) {
	b, err := cuda.Prebuilt.ReadFile("prebuilt/" + prebuiltManifest)
	if err != nil {
		return "", nil, err
	}
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			if v, ok := strings.CutPrefix(line, "# gfpoly prebuilt kernel images, built by NVRTC "); ok {
				nvrtcVersion, _, _ = strings.Cut(v, " ")
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) != 5 {
			return "", nil, fmt.Errorf("gpu: prebuilt manifest line %d: %q", i+1, line)
		}
		size, err1 := strconv.Atoi(f[2])
		gzSize, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil {
			return "", nil, fmt.Errorf("gpu: prebuilt manifest line %d: %q", i+1, line)
		}
		ents = append(ents, manifestEntry{path: f[0], module: f[1], size: size, gzSize: gzSize})
	}
	return nvrtcVersion, ents, nil
}
