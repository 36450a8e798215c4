package gpu

import (
	"errors"
	"fmt"
)

// ErrNoDevice is returned by Open, wrapped with the reason, when this machine
// cannot run the GPU code: no CUDA driver library, no CUDA device, or no
// NVRTC to compile the kernels. Callers fall back to the CPU on it.
var ErrNoDevice = errors.New("gpu: no usable CUDA device")

// ErrClosed is returned by every operation on a closed Device, or on a buffer,
// stream or event that was freed.
var ErrClosed = errors.New("gpu: device or resource closed")

// ErrLength is returned, wrapped with the lengths, when buffers passed to one
// operation differ in length.
var ErrLength = errors.New("gpu: mismatched lengths")

// ErrOutOfMemory matches (with errors.Is) the CUDA error a failed allocation
// returns when the device or the host has too little free memory.
var ErrOutOfMemory = errors.New("gpu: out of memory")

// ErrNoPeerAccess is returned by Device.EnablePeerAccess, wrapped, when two
// GPUs cannot reach each other's memory directly.
var ErrNoPeerAccess = errors.New("gpu: no peer access between the devices")

// ErrCompile is returned, wrapped with the NVRTC log, when a kernel source
// fails to compile.
var ErrCompile = errors.New("gpu: kernel compilation failed")

// Error is a status code returned by the CUDA driver API or by NVRTC.
type Error struct {
	Op   string // the call that failed, such as "cuMemAlloc"
	Code int    // the CUresult (or nvrtcResult for NVRTC calls)
	Name string // its name, such as "CUDA_ERROR_OUT_OF_MEMORY"
}

func (e *Error) Error() string {
	name := e.Name
	if name == "" {
		name = "unknown CUDA error"
	}
	if e.Op == "" {
		return fmt.Sprintf("gpu: %s (%d)", name, e.Code)
	}
	return fmt.Sprintf("gpu: %s: %s (%d)", e.Op, name, e.Code)
}

// Is reports whether e matches target; a CUDA out-of-memory code matches
// ErrOutOfMemory.
func (e *Error) Is(target error) bool {
	if target == ErrOutOfMemory {
		return !e.nvrtc() && (e.Code == cudaErrorOutOfMemory)
	}
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.nvrtc() == e.nvrtc()
}

func (e *Error) nvrtc() bool { return len(e.Op) >= 5 && e.Op[:5] == "nvrtc" }

const (
	cudaSuccess          = 0
	cudaErrorOutOfMemory = 2
)

// cudaErrorNames names the driver status codes this package meets, for when
// cuGetErrorName is unavailable.
var cudaErrorNames = map[int]string{
	0:   "CUDA_SUCCESS",
	1:   "CUDA_ERROR_INVALID_VALUE",
	2:   "CUDA_ERROR_OUT_OF_MEMORY",
	3:   "CUDA_ERROR_NOT_INITIALIZED",
	4:   "CUDA_ERROR_DEINITIALIZED",
	34:  "CUDA_ERROR_STUB_LIBRARY",
	46:  "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE",
	200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	218: "CUDA_ERROR_INVALID_PTX",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	400: "CUDA_ERROR_INVALID_HANDLE",
	500: "CUDA_ERROR_NOT_FOUND",
	600: "CUDA_ERROR_NOT_READY",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	719: "CUDA_ERROR_LAUNCH_FAILED",
	999: "CUDA_ERROR_UNKNOWN",
}

// nvrtcErrorNames names the nvrtcResult codes.
var nvrtcErrorNames = map[int]string{
	0:  "NVRTC_SUCCESS",
	1:  "NVRTC_ERROR_OUT_OF_MEMORY",
	2:  "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
	3:  "NVRTC_ERROR_INVALID_INPUT",
	4:  "NVRTC_ERROR_INVALID_PROGRAM",
	5:  "NVRTC_ERROR_INVALID_OPTION",
	6:  "NVRTC_ERROR_COMPILATION",
	7:  "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
	8:  "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
	9:  "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
	10: "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
	11: "NVRTC_ERROR_INTERNAL_ERROR",
}
