package gf2n

import (
	"fmt"

	"github.com/gfpoly/gfpoly/cuda"
	field "github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/gpu"
)

// Design selects how the kernels compute a product.
type Design int

const (
	// PerThread gives each thread whole elements: Karatsuba on 64-bit
	// words, each 64×64-bit carry-less product three 32×32-bit ones built
	// from integer multiplications of operands with holes, then the
	// reduction by shifts. The fastest design at every n.
	PerThread Design = iota
	// RegisterCache is the seed's design: bit-sliced chunks of 32 elements,
	// the n = 32 product of a warp exchanging rows by warp shuffles (the
	// register cache), built up to n by schoolbook over the (n/32)² pairs
	// of 32-row blocks, inputs and product in shared memory.
	RegisterCache
	// SharedMemory is RegisterCache with the n = 32 product reading its
	// rows from shared memory: the seed's baseline.
	SharedMemory
	// RegisterCacheKaratsuba is RegisterCache with the blocks multiplied by
	// Karatsuba instead of schoolbook: 3^log2(n/32) products of 32 rows
	// instead of (n/32)², the GPU Karatsuba the seed leaves as future work.
	RegisterCacheKaratsuba
	numDesigns
)

// Designs lists every design, for tests and benchmarks.
var Designs = []Design{PerThread, RegisterCache, SharedMemory, RegisterCacheKaratsuba}

func (g Design) String() string {
	switch g {
	case PerThread:
		return "per-thread"
	case RegisterCache:
		return "register-cache"
	case SharedMemory:
		return "shared-memory"
	case RegisterCacheKaratsuba:
		return "register-cache-karatsuba"
	}
	return fmt.Sprintf("Design(%d)", int(g))
}

// kernelNames are the designs' kernels in cuda/gf2n.cu.
var kernelNames = [numDesigns]string{"gf2n_mul_thread", "gf2n_mul_reg", "gf2n_mul_shared", "gf2n_mul_regkara"}

const (
	threadBlock = 128 // threads per block, per-thread design
	// chunkShared is the shared memory a bit-sliced block may use without
	// asking the driver for more; each warp takes 16n bytes of it.
	chunkShared   = 48 << 10
	maxChunkWarps = 8
)

// Multiplier multiplies batches of elements of one field GF(2^n) on one
// device, with one design. Its products equal field/gf2n's bit for bit. It
// is safe for concurrent use; host calls (MulVecHost) run one at a time.
type Multiplier struct {
	d      *gpu.Device
	f      *field.Field
	design Design
	fn     *gpu.Function
	exps   [3]int32 // middle exponents of the polynomial, highest first
	block  int      // threads per block
	shared int      // dynamic shared memory per block, bytes
	per    int      // elements per block and grid step: threads, or 32 per warp
	grid   int      // most blocks worth launching: those resident at once

	host hostState
}

// New returns the multiplier of field f (from field/gf2n's New) with the
// given design on d, loading the field's kernels on first use.
func New(d *gpu.Device, f *field.Field, design Design) (*Multiplier, error) {
	if design < 0 || design >= numDesigns {
		return nil, fmt.Errorf("gf2n: unknown design %d", int(design))
	}
	if d == nil {
		return nil, fmt.Errorf("gf2n: nil device: %w", gpu.ErrNoDevice)
	}
	if f == nil {
		return nil, fmt.Errorf("gf2n: nil field")
	}
	// The kernels reduce by x^n + x^e1 + x^e2 + x^e3 + 1 with every e
	// below 32 (a bit-sliced row folds within one warp): true of every
	// field field/gf2n has.
	poly := f.Poly()
	if len(poly) != 5 || poly[1] >= 32 {
		return nil, fmt.Errorf("gf2n: %v: the kernels need a pentanomial with middle exponents below 32", f)
	}
	mod, err := d.Module(cuda.GF2nProgram(f.N()))
	if err != nil {
		return nil, err
	}
	fn, err := mod.Function(kernelNames[design])
	if err != nil {
		return nil, err
	}
	m := &Multiplier{d: d, f: f, design: design, fn: fn,
		exps: [3]int32{int32(poly[1]), int32(poly[2]), int32(poly[3])}}
	if design == PerThread {
		m.block, m.per = threadBlock, threadBlock
	} else {
		warps := min(max(chunkShared/(16*f.N()), 1), maxChunkWarps)
		m.block, m.per, m.shared = 32*warps, 32*warps, 16*f.N()*warps
	}
	resident, err := fn.MaxActiveBlocksPerSM(m.block, m.shared)
	if err != nil {
		return nil, err
	}
	m.grid = max(resident, 1) * max(d.Info().Multiprocessors, 1)
	return m, nil
}

// Field returns the multiplier's field.
func (m *Multiplier) Field() *field.Field { return m.f }

// Design returns the multiplier's design.
func (m *Multiplier) Design() Design { return m.design }

// Device returns the device the multiplier runs on.
func (m *Multiplier) Device() *gpu.Device { return m.d }

// MulVec sets z[i] = x[i]·y[i] for every element of the batch, element i
// being words [i·Words, (i+1)·Words) of each buffer, as field/gf2n's
// Field.MulVec does with slices. The buffers must have the same length, a
// multiple of Words (else an error wrapping gpu.ErrLength), and start on a
// 16-byte boundary, as buffers from gpu.Alloc and their views at whole
// elements do. z may be x or y; partially overlapping views are not
// allowed. The work is queued on stream s; with a nil stream MulVec waits
// for it.
func (m *Multiplier) MulVec(s *gpu.Stream, z, x, y *gpu.Buffer[uint64]) error {
	if err := m.check("MulVec", z, x, y); err != nil {
		return err
	}
	count := z.Len() / m.f.Words()
	if count == 0 {
		return nil
	}
	return m.d.Do(s, func(q *gpu.Queue) error { return m.launch(q, z.Ptr(), x.Ptr(), y.Ptr(), count) })
}

// launch queues the product of count elements at the given addresses.
func (m *Multiplier) launch(q *gpu.Queue, z, x, y gpu.DevicePtr, count int) error {
	g := min((count+m.per-1)/m.per, m.grid)
	return q.Launch(m.fn, gpu.Dim3{X: g}, gpu.Dim3{X: m.block}, m.shared,
		z, x, y, uint64(count), m.exps[0], m.exps[1], m.exps[2])
}

// check checks that the buffers are there, live on m's device, are not
// freed, are aligned and have the same length, a whole number of elements.
func (m *Multiplier) check(op string, bufs ...*gpu.Buffer[uint64]) error {
	for i, b := range bufs {
		if b == nil {
			return fmt.Errorf("gf2n: %s: buffer %d is nil", op, i)
		}
		if b.Device() != m.d {
			return fmt.Errorf("gf2n: %s: buffer %d belongs to another device", op, i)
		}
		if b.Freed() {
			return fmt.Errorf("gf2n: %s: buffer %d freed: %w", op, i, gpu.ErrClosed)
		}
		if b.Len() != bufs[0].Len() {
			return fmt.Errorf("gf2n: %s: buffers of %d and %d words: %w", op, bufs[0].Len(), b.Len(), gpu.ErrLength)
		}
		if b.Len() > 0 && b.Ptr()%16 != 0 {
			return fmt.Errorf("gf2n: %s: buffer %d starts at %#x, not on a 16-byte boundary (a view that does not start at a whole element?)", op, i, uint64(b.Ptr()))
		}
	}
	if w := m.f.Words(); bufs[0].Len()%w != 0 {
		return fmt.Errorf("gf2n: %s: %d words is not a whole number of elements of GF(2^%d) (%d words each): %w", op, bufs[0].Len(), m.f.N(), w, gpu.ErrLength)
	}
	return nil
}
