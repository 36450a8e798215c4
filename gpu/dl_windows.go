package gpu

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// libcudaNames are the CUDA driver's library names, tried in order. The
// driver installs nvcuda.dll in the system directory.
var libcudaNames = []string{"nvcuda.dll"}

// nvrtcNames are the names NVRTC is looked for under when no path is given:
// the toolkit's DLLs (CUDA 13 keeps them in bin\x64, earlier releases in bin)
// under %CUDA_PATH%, then the bare names on the loader's search path.
func nvrtcNames() []string {
	base := []string{"nvrtc64_130_0.dll", "nvrtc64_120_0.dll", "nvrtc64_112_0.dll"}
	var names []string
	if root := os.Getenv("CUDA_PATH"); root != "" {
		for _, dir := range []string{filepath.Join(root, "bin", "x64"), filepath.Join(root, "bin")} {
			for _, b := range base {
				names = append(names, filepath.Join(dir, b))
			}
		}
	}
	return append(names, base...)
}

// openLibrary loads a DLL: a bare name from the system directory first
// (where the driver's nvcuda.dll lives) and then the usual search path, a
// path as it is.
func openLibrary(name string) (uintptr, error) {
	if filepath.Base(name) == name {
		if h, err := windows.LoadLibraryEx(name, 0, windows.LOAD_LIBRARY_SEARCH_SYSTEM32); err == nil {
			return uintptr(h), nil
		}
	}
	h, err := windows.LoadLibrary(name)
	return uintptr(h), err
}

// librarySymbol returns the address of a DLL's exported function.
func librarySymbol(h uintptr, name string) (uintptr, error) {
	return windows.GetProcAddress(windows.Handle(h), name)
}
