// Package gpu is gfpoly's CUDA runtime in pure Go: devices, memory,
// streams, events, kernel modules and launches. It knows no operation; the
// GPU operations live in packages of their own that import it:
//
//   - gpu/gfvec: GF(2^64) and GF(2^32) vector products (field/gf64's twin);
//   - gpu/additive: the additive FFTs and the Reed–Solomon LDE of packages
//     domain and rs, with rs.Accelerator;
//   - gpu/primentt: prime-field NTTs and LDE on gnark-crypto's elements;
//   - gpu/rowhash: SHA-256 Merkle trees over the rows of device data.
//
// # Runtime
//
// Open loads the CUDA driver (libcuda.so.1) and NVRTC (libnvrtc.so) at run
// time through github.com/ebitengine/purego, so the package builds with
// CGO_ENABLED=0 and needs neither a CUDA toolkit nor a GPU to build. Where
// the driver or a device is missing, or NVRTC is missing and the binary has
// no prebuilt kernels for the device, Open returns an error wrapping
// ErrNoDevice and callers fall back to the CPU. Nothing happens at import
// time.
//
// A Device owns the device's primary context. Every driver call runs inside
// a device call: on the calling goroutine, locked to its OS thread with the
// context made current there (CUDA contexts are per thread) and the thread's
// previous context restored after, one call at a time per device, so the
// device's work keeps one order. A goroutine of the Device's own, locked to
// a thread, makes and releases the context. Its methods, and those of the
// buffers, streams and events made from it, can be called from any
// goroutine.
//
// Kernels are CUDA C++ sources embedded by package cuda, which joins them
// into programs (cuda.Programs). Device.Module loads a program by name, once
// per device: operation packages share their modules through it and keep no
// per-device state of their own. The programs are also embedded compiled
// (cuda.Prebuilt: cubins for sm_90, PTX for compute_90); where the device's
// architecture has them, a module loads its image, found by a hash of its
// exact text and options, and needs no NVRTC (WithoutPrebuilt turns this
// off). Otherwise it is compiled with NVRTC for the device's own
// architecture (a cubin for sm_XY where NVRTC can emit it, else PTX), cached
// under os.UserCacheDir()/gfpoly keyed by a hash of the source, target,
// options and NVRTC version, and loaded. Device.LoadModule compiles a source
// of the caller's. Module.Function finds a kernel and Function.Launch runs it
// with typed arguments (integers, floats, device pointers, buffers, or the
// bytes of a parameter struct built field by field).
//
// An operation of several launches queues them through Device.Do, which runs
// a function in one device call with a Queue on one stream: Launch, Copy
// (device to device) and Scratch (temporary device memory, allocated and
// freed in stream order), in one call instead of one per launch.
// LaunchDependent queues a kernel that may start before the one ahead of it
// finishes (programmatic dependent launch, compute capability 9.0 and up);
// the kernel waits for the one ahead with griddepcontrol.wait before it
// touches memory.
//
// Memory: Buffer[T] is device memory holding values of a pointer-free type T
// (Alloc, Upload, Download, View, Free; Reclaim moves an allocation into a
// new Buffer for a pool, leaving the old one freed); HostBuffer[T] is
// pinned host memory exposed as a Go slice (AllocHost, pinned for every
// device of the process), for fast and asynchronous copies.
// Streams order asynchronous work, events mark points in it and time it on
// the device. A nil *Stream means the default stream and makes an operation
// wait for its work.
//
// Errors: CUDA status codes are *Error values naming the call and the code;
// out-of-memory matches ErrOutOfMemory, mismatched lengths ErrLength, use
// after Close or Free ErrClosed, compilation failures ErrCompile (with the
// NVRTC log). Buffers are freed on every path; Close frees what is left.
// Operation packages wrap these sentinels in their own errors.
package gpu
