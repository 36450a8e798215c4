package gfvec

import (
	"fmt"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
)

// Design selects how the kernels compute.
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

// kernels holds one field's kernels for one design.
type kernels struct {
	d      *gpu.Device
	design Design
	rows   int // words per chunk: the field's degree
	mul    *gpu.Function
	scale  *gpu.Function
	muladd *gpu.Function
	toCh   *gpu.Function // bit-sliced designs only
	fromCh *gpu.Function

	// Per-thread kernels with 16-byte accesses, vec elements per access,
	// used when every pointer is 16-byte aligned (tests set noVec to run the
	// others on aligned buffers too).
	vec                   int
	mulV, scaleV, muladdV *gpu.Function
	noVec                 bool
}

func load(d *gpu.Device, program, prefix string, rows int, design Design) (*kernels, error) {
	if design < 0 || design >= numDesigns {
		return nil, fmt.Errorf("gfvec: unknown design %d", int(design))
	}
	if d == nil {
		return nil, fmt.Errorf("gfvec: nil device: %w", gpu.ErrNoDevice)
	}
	m, err := d.Module(program)
	if err != nil {
		return nil, err
	}
	k := &kernels{d: d, design: design, rows: rows}
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
		f    **gpu.Function
		name string
	}{{&k.mul, "mul"}, {&k.scale, "scale"}, {&k.muladd, "muladd"}} {
		if *p.f, err = m.Function(prefix + "_" + chunk + p.name + suffix); err != nil {
			return nil, err
		}
	}
	if design == PerThread {
		k.vec = 128 / rows
		for _, p := range []struct {
			f    **gpu.Function
			name string
		}{{&k.mulV, "mul"}, {&k.scaleV, "scale"}, {&k.muladdV, "muladd"}} {
			if *p.f, err = m.Function(prefix + "_" + p.name + "_thread_vec"); err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

// grid returns the grid for n units of per blocks each: grid-stride loops,
// at most 32 blocks per multiprocessor.
func (k *kernels) grid(n, per int) gpu.Dim3 {
	g := (n + per - 1) / per
	if lim := k.d.Info().Multiprocessors * 32; lim > 0 && g > lim {
		g = lim
	}
	return gpu.Dim3{X: max(g, 1)}
}

// opKind is one vector operation: dst = a·b, dst = a·c or dst ^= a·c.
type opKind int

const (
	opMul opKind = iota
	opScale
	opMulAdd
)

// run queues op on stream s. dst, a, b are device addresses of n elements
// (b only for opMul); c is the constant as a kernel argument.
func (k *kernels) run(s *gpu.Stream, op opKind, dst, a, b gpu.DevicePtr, c any, n int) error {
	return k.d.Do(s, func(q *gpu.Queue) error {
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
				return q.Launch(fv, k.grid((n+k.vec-1)/k.vec, threadBlock), gpu.Dim3{X: threadBlock}, 0, args...)
			}
			return q.Launch(f, k.grid(n, threadBlock), gpu.Dim3{X: threadBlock}, 0, args...)
		}
		nch := (n + 31) / 32
		words := nch * k.rows
		bufs := 1
		if op != opScale {
			bufs = 2
		}
		return q.Scratch(bufs*words*4, func(p gpu.DevicePtr) error {
			sa, sb := p, p+gpu.DevicePtr(words*4)
			g, bl, ch := k.grid(nch, chunkWarps), gpu.Dim3{X: chunkBlock}, uint64(nch)
			steps := [][]any{{k.toCh, sa, a, uint64(n), ch}}
			switch op {
			case opMul:
				steps = append(steps,
					[]any{k.toCh, sb, b, uint64(n), ch},
					[]any{k.mul, sa, sa, sb, ch},
					[]any{k.fromCh, dst, sa, uint64(n), ch})
			case opScale:
				steps = append(steps,
					[]any{k.scale, sa, sa, c, ch},
					[]any{k.fromCh, dst, sa, uint64(n), ch})
			case opMulAdd:
				steps = append(steps,
					[]any{k.toCh, sb, dst, uint64(n), ch},
					[]any{k.muladd, sb, sa, c, ch},
					[]any{k.fromCh, dst, sb, uint64(n), ch})
			}
			for _, st := range steps {
				if err := q.Launch(st[0].(*gpu.Function), g, bl, 0, st[1:]...); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// check checks that the buffers live on d, are not freed and have the same
// length.
func check[T any](d *gpu.Device, op string, bufs ...*gpu.Buffer[T]) error {
	for i, b := range bufs {
		if b == nil {
			return fmt.Errorf("gfvec: %s: buffer %d is nil", op, i)
		}
		if b.Device() != d {
			return fmt.Errorf("gfvec: %s: buffer %d belongs to another device", op, i)
		}
		if b.Freed() {
			return fmt.Errorf("gfvec: %s: buffer %d freed: %w", op, i, gpu.ErrClosed)
		}
		if b.Len() != bufs[0].Len() {
			return fmt.Errorf("gfvec: %s: lengths %d and %d: %w", op, bufs[0].Len(), b.Len(), gpu.ErrLength)
		}
	}
	return nil
}

// GF64 runs GF(2^64) vector operations on device buffers with one design.
// Its results equal field/gf64's bit for bit.
type GF64 struct{ k *kernels }

// NewGF64 returns the GF(2^64) kernels of the given design on d, loading
// the module on first use.
func NewGF64(d *gpu.Device, design Design) (*GF64, error) {
	k, err := load(d, "gf64.cu", "gf64", 64, design)
	if err != nil {
		return nil, err
	}
	return &GF64{k}, nil
}

// Design returns the kernels' design.
func (g *GF64) Design() Design { return g.k.design }

// MulVec sets dst[i] = a[i]·b[i].
func (g *GF64) MulVec(s *gpu.Stream, dst, a, b *gpu.Buffer[gf64.Element]) error {
	if err := check(g.k.d, "GF64.MulVec", dst, a, b); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opMul, dst.Ptr(), a.Ptr(), b.Ptr(), nil, dst.Len())
}

// ScaleVec sets dst[i] = a[i]·c.
func (g *GF64) ScaleVec(s *gpu.Stream, dst, a *gpu.Buffer[gf64.Element], c gf64.Element) error {
	if err := check(g.k.d, "GF64.ScaleVec", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opScale, dst.Ptr(), a.Ptr(), 0, uint64(c), dst.Len())
}

// MulAddVec sets dst[i] ^= a[i]·c.
func (g *GF64) MulAddVec(s *gpu.Stream, dst, a *gpu.Buffer[gf64.Element], c gf64.Element) error {
	if err := check(g.k.d, "GF64.MulAddVec", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opMulAdd, dst.Ptr(), a.Ptr(), 0, uint64(c), dst.Len())
}

// GF32 runs vector operations in GF(2^32) = GF(2)[x]/(x^32+x^7+x^3+x^2+1),
// the seed's smaller field, on buffers of uint32 (bit i is the coefficient
// of x^i), with the same designs and rules as GF64.
type GF32 struct{ k *kernels }

// NewGF32 returns the GF(2^32) kernels of the given design on d.
func NewGF32(d *gpu.Device, design Design) (*GF32, error) {
	k, err := load(d, "gf32.cu", "gf32", 32, design)
	if err != nil {
		return nil, err
	}
	return &GF32{k}, nil
}

// Design returns the kernels' design.
func (g *GF32) Design() Design { return g.k.design }

// MulVec sets dst[i] = a[i]·b[i] in GF(2^32).
func (g *GF32) MulVec(s *gpu.Stream, dst, a, b *gpu.Buffer[uint32]) error {
	if err := check(g.k.d, "GF32.MulVec", dst, a, b); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opMul, dst.Ptr(), a.Ptr(), b.Ptr(), nil, dst.Len())
}

// ScaleVec sets dst[i] = a[i]·c in GF(2^32).
func (g *GF32) ScaleVec(s *gpu.Stream, dst, a *gpu.Buffer[uint32], c uint32) error {
	if err := check(g.k.d, "GF32.ScaleVec", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opScale, dst.Ptr(), a.Ptr(), 0, c, dst.Len())
}

// MulAddVec sets dst[i] ^= a[i]·c in GF(2^32).
func (g *GF32) MulAddVec(s *gpu.Stream, dst, a *gpu.Buffer[uint32], c uint32) error {
	if err := check(g.k.d, "GF32.MulAddVec", dst, a); err != nil || dst.Len() == 0 {
		return err
	}
	return g.k.run(s, opMulAdd, dst.Ptr(), a.Ptr(), 0, c, dst.Len())
}
