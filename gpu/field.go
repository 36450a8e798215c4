package gpu

import (
	"fmt"
	"runtime"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Design selects how the field kernels compute.
type Design int

const (
	// PerThread gives each thread whole elements: the carry-less product is
	// built from 32-bit integer multiplications of operands with holes
	// (Karatsuba over 32-bit halves for GF(2^64)). The fastest design.
	PerThread Design = iota
	// RegisterCache is the seed's bit-sliced design: transposition kernels
	// turn elements into chunks of 32 elements × n rows of 32-bit words, and
	// a warp multiplies two chunks exchanging rows by warp shuffles (the
	// "register cache"), then reduces with the 2-gapped polynomial.
	RegisterCache
	// SharedMemory is RegisterCache with the rows exchanged through shared
	// memory instead: the seed's baseline.
	SharedMemory
	numDesigns
)

// Designs lists every design, for tests and benchmarks.
var Designs = []Design{PerThread, RegisterCache, SharedMemory}

func (g Design) String() string {
	switch g {
	case PerThread:
		return "per-thread"
	case RegisterCache:
		return "register-cache"
	case SharedMemory:
		return "shared-memory"
	}
	return fmt.Sprintf("Design(%d)", int(g))
}

const (
	threadBlock = 256
	chunkWarps  = 8 // CHUNK_WARPS in the .cu files
	chunkBlock  = chunkWarps * 32
)

// fieldKernels holds one field's kernels for one design.
type fieldKernels struct {
	d      *Device
	design Design
	rows   int // words per chunk: the field's degree
	mul    *Function
	scale  *Function
	muladd *Function
	toCh   *Function // bit-sliced designs only
	fromCh *Function

	// Per-thread kernels with 16-byte accesses, vec elements per access,
	// used when every pointer is 16-byte aligned (noVec turns them off).
	vec                   int
	mulV, scaleV, muladdV *Function
	noVec                 bool
}

func (d *Device) loadField(src, prefix string, rows int, design Design) (*fieldKernels, error) {
	if design < 0 || design >= numDesigns {
		return nil, fmt.Errorf("gpu: unknown design %d", int(design))
	}
	m, err := d.Module(src)
	if err != nil {
		return nil, err
	}
	k := &fieldKernels{d: d, design: design, rows: rows}
	suffix := map[Design]string{PerThread: "_thread", RegisterCache: "_reg", SharedMemory: "_shared"}[design]
	chunk := ""
	if design != PerThread {
		chunk = "chunk_"
		if k.toCh, err = m.Function(prefix + "_to_chunks"); err != nil {
			return nil, err
		}
		if k.fromCh, err = m.Function(prefix + "_from_chunks"); err != nil {
			return nil, err
		}
	}
	for _, p := range []struct {
		f    **Function
		name string
	}{{&k.mul, "mul"}, {&k.scale, "scale"}, {&k.muladd, "muladd"}} {
		if *p.f, err = m.Function(prefix + "_" + chunk + p.name + suffix); err != nil {
			return nil, err
		}
	}
	if design == PerThread {
		k.vec = 128 / rows
		for _, p := range []struct {
			f    **Function
			name string
		}{{&k.mulV, "mul"}, {&k.scaleV, "scale"}, {&k.muladdV, "muladd"}} {
			if *p.f, err = m.Function(prefix + "_" + p.name + "_thread_vec"); err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

func (k *fieldKernels) threadGrid(n int) Dim3 {
	g := (n + threadBlock - 1) / threadBlock
	if lim := k.d.info.Multiprocessors * 32; lim > 0 && g > lim {
		g = lim
	}
	return Dim3{X: max(g, 1)}
}

func (k *fieldKernels) chunkGrid(nch int) Dim3 {
	g := (nch + chunkWarps - 1) / chunkWarps
	if lim := k.d.info.Multiprocessors * 32; lim > 0 && g > lim {
		g = lim
	}
	return Dim3{X: max(g, 1)}
}

// op is one vector operation: dst = a·b, dst = a·c or dst ^= a·c.
type opKind int

const (
	opMul opKind = iota
	opScale
	opMulAdd
)

// run submits op on the device goroutine. dst, a, b are device addresses of
// n elements (b only for opMul); c is the constant as a kernel argument.
func (k *fieldKernels) run(s *Stream, op opKind, dst, a, b uint64, c any, n int) error {
	return k.d.onStream(s, func(h uintptr) error {
		if k.design == PerThread {
			args := []any{dst, a, b, uint64(n)}
			f, fv := k.mul, k.mulV
			switch op {
			case opScale:
				args, f, fv = []any{dst, a, c, uint64(n)}, k.scale, k.scaleV
			case opMulAdd:
				args, f, fv = []any{dst, a, c, uint64(n)}, k.muladd, k.muladdV
			}
			if !k.noVec && (dst|a|b)%16 == 0 {
				return k.launch(fv, k.threadGrid((n+k.vec-1)/k.vec), threadBlock, h, args...)
			}
			return k.launch(f, k.threadGrid(n), threadBlock, h, args...)
		}
		nch := (n + 31) / 32
		words := uintptr(nch * k.rows)
		bufs := 1
		if op != opScale {
			bufs = 2
		}
		return k.d.withScratch(h, uintptr(bufs)*words*4, func(p uint64) error {
			sa, sb := p, p+uint64(words*4)
			g, ch := k.chunkGrid(nch), uint64(nch)
			var steps []func() error
			steps = append(steps, func() error { return k.launch(k.toCh, g, chunkBlock, h, sa, a, uint64(n), ch) })
			switch op {
			case opMul:
				steps = append(steps,
					func() error { return k.launch(k.toCh, g, chunkBlock, h, sb, b, uint64(n), ch) },
					func() error { return k.launch(k.mul, g, chunkBlock, h, sa, sa, sb, ch) },
					func() error { return k.launch(k.fromCh, g, chunkBlock, h, dst, sa, uint64(n), ch) })
			case opScale:
				steps = append(steps,
					func() error { return k.launch(k.scale, g, chunkBlock, h, sa, sa, c, ch) },
					func() error { return k.launch(k.fromCh, g, chunkBlock, h, dst, sa, uint64(n), ch) })
			case opMulAdd:
				steps = append(steps,
					func() error { return k.launch(k.toCh, g, chunkBlock, h, sb, dst, uint64(n), ch) },
					func() error { return k.launch(k.muladd, g, chunkBlock, h, sb, sa, c, ch) },
					func() error { return k.launch(k.fromCh, g, chunkBlock, h, dst, sb, uint64(n), ch) })
			}
			for _, st := range steps {
				if err := st(); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// launch packs args and launches f on stream h; it runs on the device
// goroutine.
func (k *fieldKernels) launch(f *Function, grid Dim3, block int, h uintptr, args ...any) error {
	params, keep, err := packArgs(args)
	if err != nil {
		return err
	}
	err = f.launch(grid, Dim3{X: block}, 0, h, params)
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: %s: %w", f.name, err)
	}
	return nil
}

// checkBuffers checks that the buffers live on d, are not freed and have the
// same length.
func checkBuffers[T any](d *Device, op string, bufs ...*Buffer[T]) error {
	for i, b := range bufs {
		if b == nil {
			return fmt.Errorf("gpu: %s: buffer %d is nil", op, i)
		}
		if b.d != d {
			return fmt.Errorf("gpu: %s: buffer %d belongs to another device", op, i)
		}
		if b.st.freed.Load() {
			return fmt.Errorf("gpu: %s: buffer %d freed: %w", op, i, ErrClosed)
		}
		if b.n != bufs[0].n {
			return fmt.Errorf("gpu: %s: lengths %d and %d: %w", op, bufs[0].n, b.n, ErrLength)
		}
	}
	return nil
}

// GF64 runs GF(2^64) vector operations on device buffers with one design.
// Its results equal field/gf64's bit for bit. Operations take a stream: they
// submit their work and return, or, with a nil stream, wait for it. dst may
// be the same buffer as an input; partially overlapping views are not
// allowed. A GF64 is safe for concurrent use.
type GF64 struct{ k *fieldKernels }

// GF64 returns the GF(2^64) kernels of the given design, compiling the
// module on first use.
func (d *Device) GF64(design Design) (*GF64, error) {
	if design < 0 || design >= numDesigns {
		return nil, fmt.Errorf("gpu: unknown design %d", int(design))
	}
	d.kernMu.Lock()
	defer d.kernMu.Unlock()
	if k := d.gf64[design]; k != nil {
		return k, nil
	}
	k, err := d.loadField("gf64.cu", "gf64", 64, design)
	if err != nil {
		return nil, err
	}
	d.gf64[design] = &GF64{k}
	return d.gf64[design], nil
}

// Design returns the kernels' design.
func (g *GF64) Design() Design { return g.k.design }

// MulVec sets dst[i] = a[i]·b[i].
func (g *GF64) MulVec(s *Stream, dst, a, b *Buffer[gf64.Element]) error {
	if err := checkBuffers(g.k.d, "GF64.MulVec", dst, a, b); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opMul, dst.ptr, a.ptr, b.ptr, nil, dst.n)
}

// ScaleVec sets dst[i] = a[i]·c.
func (g *GF64) ScaleVec(s *Stream, dst, a *Buffer[gf64.Element], c gf64.Element) error {
	if err := checkBuffers(g.k.d, "GF64.ScaleVec", dst, a); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opScale, dst.ptr, a.ptr, 0, uint64(c), dst.n)
}

// MulAddVec sets dst[i] ^= a[i]·c.
func (g *GF64) MulAddVec(s *Stream, dst, a *Buffer[gf64.Element], c gf64.Element) error {
	if err := checkBuffers(g.k.d, "GF64.MulAddVec", dst, a); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opMulAdd, dst.ptr, a.ptr, 0, uint64(c), dst.n)
}

// GF32 runs vector operations in GF(2^32) = GF(2)[x]/(x^32+x^7+x^3+x^2+1),
// the seed's smaller field, on buffers of uint32 (bit i is the coefficient
// of x^i), with the same designs and rules as GF64.
type GF32 struct{ k *fieldKernels }

// GF32 returns the GF(2^32) kernels of the given design.
func (d *Device) GF32(design Design) (*GF32, error) {
	if design < 0 || design >= numDesigns {
		return nil, fmt.Errorf("gpu: unknown design %d", int(design))
	}
	d.kernMu.Lock()
	defer d.kernMu.Unlock()
	if k := d.gf32[design]; k != nil {
		return k, nil
	}
	k, err := d.loadField("gf32.cu", "gf32", 32, design)
	if err != nil {
		return nil, err
	}
	d.gf32[design] = &GF32{k}
	return d.gf32[design], nil
}

// Design returns the kernels' design.
func (g *GF32) Design() Design { return g.k.design }

// MulVec sets dst[i] = a[i]·b[i] in GF(2^32).
func (g *GF32) MulVec(s *Stream, dst, a, b *Buffer[uint32]) error {
	if err := checkBuffers(g.k.d, "GF32.MulVec", dst, a, b); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opMul, dst.ptr, a.ptr, b.ptr, nil, dst.n)
}

// ScaleVec sets dst[i] = a[i]·c in GF(2^32).
func (g *GF32) ScaleVec(s *Stream, dst, a *Buffer[uint32], c uint32) error {
	if err := checkBuffers(g.k.d, "GF32.ScaleVec", dst, a); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opScale, dst.ptr, a.ptr, 0, c, dst.n)
}

// MulAddVec sets dst[i] ^= a[i]·c in GF(2^32).
func (g *GF32) MulAddVec(s *Stream, dst, a *Buffer[uint32], c uint32) error {
	if err := checkBuffers(g.k.d, "GF32.MulAddVec", dst, a); err != nil || dst.n == 0 {
		return err
	}
	return g.k.run(s, opMulAdd, dst.ptr, a.ptr, 0, c, dst.n)
}

// chunkOp runs only the chunk multiplication of a bit-sliced design on data
// already in chunk form (nch chunks of rows words each): C = A·B (B != 0) or
// C = A·c. For benchmarks of the seed's kernel alone.
func (k *fieldKernels) chunkOp(s *Stream, C, A, B uint64, c any, nch int) error {
	if k.design == PerThread {
		return fmt.Errorf("gpu: chunk kernels need a bit-sliced design")
	}
	return k.d.onStream(s, func(h uintptr) error {
		if B != 0 {
			return k.launch(k.mul, k.chunkGrid(nch), chunkBlock, h, C, A, B, uint64(nch))
		}
		return k.launch(k.scale, k.chunkGrid(nch), chunkBlock, h, C, A, c, uint64(nch))
	})
}
