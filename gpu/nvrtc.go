package gpu

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// nvrtc holds the NVRTC entry points, bound with purego.
type nvrtc struct {
	path         string
	major, minor int
	archs        []int // supported SM versions, e.g. 75, 80, 90; empty if unknown

	nvrtcVersion             func(major, minor *int32) int32
	nvrtcCreateProgram       func(p *uintptr, src string, name string, nh int32, headers, names unsafe.Pointer) int32
	nvrtcCompileProgram      func(p uintptr, nopt int32, opts unsafe.Pointer) int32
	nvrtcGetProgramLogSize   func(p uintptr, n *uintptr) int32
	nvrtcGetProgramLog       func(p uintptr, log *byte) int32
	nvrtcGetPTXSize          func(p uintptr, n *uintptr) int32
	nvrtcGetPTX              func(p uintptr, ptx *byte) int32
	nvrtcGetCUBINSize        func(p uintptr, n *uintptr) int32  // optional
	nvrtcGetCUBIN            func(p uintptr, cubin *byte) int32 // optional
	nvrtcDestroyProgram      func(p *uintptr) int32
	nvrtcGetNumSupportedArch func(n *int32) int32     // optional
	nvrtcGetSupportedArchs   func(archs *int32) int32 // optional
}

var (
	nvrtcMu    sync.Mutex
	nvrtcLibs  = map[string]*nvrtc{}
	nvrtcFails = map[string]error{}
)

// loadNVRTC loads NVRTC from path, or from the usual names when path is empty,
// once per process for each path.
func loadNVRTC(path string) (*nvrtc, error) {
	nvrtcMu.Lock()
	defer nvrtcMu.Unlock()
	if l, ok := nvrtcLibs[path]; ok {
		return l, nil
	}
	if err, ok := nvrtcFails[path]; ok {
		return nil, err
	}
	l, err := openNVRTC(path)
	if err != nil {
		nvrtcFails[path] = err
		return nil, err
	}
	nvrtcLibs[path] = l
	return l, nil
}

func openNVRTC(path string) (*nvrtc, error) {
	names := []string{path}
	if path == "" {
		names = nvrtcNames()
	}
	var h uintptr
	var errs []string
	for _, name := range names {
		var err error
		h, err = openLibrary(name)
		if err == nil {
			path = name
			break
		}
		errs = append(errs, err.Error())
	}
	if h == 0 {
		return nil, fmt.Errorf("%w: cannot load NVRTC (tried %s): %s", ErrNoDevice, strings.Join(names, ", "), strings.Join(errs, "; "))
	}
	l := &nvrtc{path: path}
	b := binder{h: h}
	b.bind(&l.nvrtcVersion, "nvrtcVersion")
	b.bind(&l.nvrtcCreateProgram, "nvrtcCreateProgram")
	b.bind(&l.nvrtcCompileProgram, "nvrtcCompileProgram")
	b.bind(&l.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize")
	b.bind(&l.nvrtcGetProgramLog, "nvrtcGetProgramLog")
	b.bind(&l.nvrtcGetPTXSize, "nvrtcGetPTXSize")
	b.bind(&l.nvrtcGetPTX, "nvrtcGetPTX")
	b.bind(&l.nvrtcDestroyProgram, "nvrtcDestroyProgram")
	if b.optional(&l.nvrtcGetCUBINSize, "nvrtcGetCUBINSize") != b.optional(&l.nvrtcGetCUBIN, "nvrtcGetCUBIN") {
		l.nvrtcGetCUBINSize, l.nvrtcGetCUBIN = nil, nil
	}
	if b.optional(&l.nvrtcGetNumSupportedArch, "nvrtcGetNumSupportedArchs") {
		b.optional(&l.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs")
	}
	if b.err != nil {
		return nil, fmt.Errorf("%w: NVRTC at %s: %v", ErrNoDevice, path, b.err)
	}
	var major, minor int32
	if r := l.nvrtcVersion(&major, &minor); r != 0 {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, nvrtcError("nvrtcVersion", r))
	}
	l.major, l.minor = int(major), int(minor)
	if l.nvrtcGetNumSupportedArch != nil && l.nvrtcGetSupportedArchs != nil {
		var n int32
		if l.nvrtcGetNumSupportedArch(&n) == 0 && n > 0 && n < 1024 {
			a := make([]int32, n)
			if l.nvrtcGetSupportedArchs(&a[0]) == 0 {
				for _, v := range a {
					l.archs = append(l.archs, int(v))
				}
			}
		}
	}
	return l, nil
}

func nvrtcError(op string, r int32) error {
	return &Error{Op: op, Code: int(r), Name: nvrtcErrorNames[int(r)]}
}

// target picks the compilation target for a device of compute capability
// sm (e.g. 90): real machine code (cubin) for sm itself when NVRTC knows it
// and can emit cubin, else PTX for the newest virtual architecture NVRTC
// supports that is not newer than the device.
func (l *nvrtc) target(sm int) (arch string, cubin bool) {
	best := sm
	if len(l.archs) > 0 {
		best = 0
		for _, a := range l.archs {
			if a <= sm && a > best {
				best = a
			}
		}
		if best == 0 {
			best = l.archs[0]
		}
	}
	if best == sm && l.nvrtcGetCUBIN != nil {
		return fmt.Sprintf("sm_%d", sm), true
	}
	return fmt.Sprintf("compute_%d", best), false
}

// compile compiles src to cubin or PTX (NUL-terminated) with the options.
// A compilation error carries NVRTC's log.
func (l *nvrtc) compile(name, src string, opts []string, cubin bool) ([]byte, error) {
	var prog uintptr
	if r := l.nvrtcCreateProgram(&prog, src, name, 0, nil, nil); r != 0 {
		return nil, nvrtcError("nvrtcCreateProgram", r)
	}
	defer l.nvrtcDestroyProgram(&prog)
	bufs := make([][]byte, len(opts))
	ptrs := make([]*byte, len(opts)+1)
	for i, o := range opts {
		bufs[i] = cString(o)
		ptrs[i] = &bufs[i][0]
	}
	r := l.nvrtcCompileProgram(prog, int32(len(opts)), unsafe.Pointer(&ptrs[0]))
	runtime.KeepAlive(bufs)
	runtime.KeepAlive(ptrs)
	if r != 0 {
		log := l.log(prog)
		if r == 6 { // NVRTC_ERROR_COMPILATION
			return nil, fmt.Errorf("%w: %s: %s", ErrCompile, name, log)
		}
		return nil, fmt.Errorf("%w: %v: %s", ErrCompile, nvrtcError("nvrtcCompileProgram", r), log)
	}
	sizeFn, getFn, what := l.nvrtcGetPTXSize, l.nvrtcGetPTX, "PTX"
	if cubin {
		sizeFn, getFn, what = l.nvrtcGetCUBINSize, l.nvrtcGetCUBIN, "CUBIN"
	}
	var n uintptr
	if r := sizeFn(prog, &n); r != 0 {
		return nil, nvrtcError("nvrtcGet"+what+"Size", r)
	}
	if n == 0 {
		return nil, fmt.Errorf("gpu: NVRTC produced an empty %s for %s", what, name)
	}
	out := make([]byte, n+1) // +1 keeps PTX NUL-terminated
	if r := getFn(prog, &out[0]); r != 0 {
		return nil, nvrtcError("nvrtcGet"+what, r)
	}
	return out, nil
}

func (l *nvrtc) log(prog uintptr) string {
	var n uintptr
	if l.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return "(no log)"
	}
	b := make([]byte, n)
	if l.nvrtcGetProgramLog(prog, &b[0]) != 0 {
		return "(no log)"
	}
	return strings.TrimRight(string(b[:n-1]), "\x00\n ")
}
