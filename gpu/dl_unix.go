//go:build !windows

package gpu

import (
	"path/filepath"

	"github.com/ebitengine/purego"
)

// libcudaNames are the CUDA driver's library names, tried in order.
var libcudaNames = []string{"libcuda.so.1", "libcuda.so"}

// nvrtcNames are the names NVRTC is looked for under when no path is given.
func nvrtcNames() []string {
	base := []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}
	names := append([]string{}, base...)
	for _, dir := range []string{"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"} {
		for _, b := range base {
			names = append(names, filepath.Join(dir, b))
		}
	}
	return names
}

// openLibrary loads a shared library with the system's dynamic loader.
func openLibrary(name string) (uintptr, error) {
	return purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

// librarySymbol returns the address of a library's exported symbol.
func librarySymbol(h uintptr, name string) (uintptr, error) {
	return purego.Dlsym(h, name)
}
