package intntt

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

const block = 256 // threads per block of the element-wise kernels

func workers() int { return runtime.GOMAXPROCS(0) }

// Accelerator multiplies integer polynomials and big integers on one
// device; it implements intpoly.Accelerator. Calls run one at a time (a
// mutex), each on the Accelerator's own stream.
type Accelerator struct {
	d   *gpu.Device
	fns map[string]*gpu.Function
	s   *gpu.Stream

	mu    sync.Mutex
	plans map[[2]int]*devPlan
	bufs  map[string]*gpu.Buffer[uint64]
	host  *gpu.HostBuffer[uint64]
}

// devPlan is a plan's constants and twiddle tables on the device.
type devPlan struct {
	c                         *consts
	p, pinv, one, s, roots, e *gpu.Buffer[uint32]
	m, h, tw                  *gpu.Buffer[uint32]
	pw                        map[int]*gpu.Buffer[uint32] // reduction tables by operand width
}

// pwTable returns the plan's reduction table of operands of W limbs.
func (a *Accelerator) pwTable(pl *devPlan, W int) (*gpu.Buffer[uint32], error) {
	if b, ok := pl.pw[W]; ok {
		return b, nil
	}
	b, err := upload32(a.d, pl.c.pw(W))
	if err != nil {
		return nil, err
	}
	pl.pw[W] = b
	return b, nil
}

var kernelNames = append([]string{"intntt_reduce", "intntt_twiddles", "intntt_pointwise", "intntt_crt", "intntt_gather", "intntt_carry_blocks", "intntt_carry_scan", "intntt_carry_apply"}, passNames[:]...)

// New returns an Accelerator on d, loading the kernels of cuda/intntt.cu.
func New(d *gpu.Device) (*Accelerator, error) {
	if d == nil {
		return nil, fmt.Errorf("intntt: nil device: %w", gpu.ErrNoDevice)
	}
	mod, err := d.Module(cuda.IntNTTProgram)
	if err != nil {
		return nil, err
	}
	a := &Accelerator{d: d, fns: map[string]*gpu.Function{}, plans: map[[2]int]*devPlan{}, bufs: map[string]*gpu.Buffer[uint64]{}}
	for _, n := range kernelNames {
		if a.fns[n], err = mod.Function(n); err != nil {
			return nil, err
		}
	}
	if a.s, err = d.NewStream(); err != nil {
		return nil, err
	}
	return a, nil
}

// Close frees the Accelerator's plans, buffers and stream.
func (a *Accelerator) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var errs []error
	for _, pl := range a.plans {
		for _, b := range []*gpu.Buffer[uint32]{pl.p, pl.pinv, pl.one, pl.s, pl.roots, pl.e, pl.m, pl.h, pl.tw} {
			errs = append(errs, b.Free())
		}
		for _, b := range pl.pw {
			errs = append(errs, b.Free())
		}
	}
	a.plans = map[[2]int]*devPlan{}
	for _, b := range a.bufs {
		errs = append(errs, b.Free())
	}
	a.bufs = map[string]*gpu.Buffer[uint64]{}
	if a.host != nil {
		errs = append(errs, a.host.Free())
		a.host = nil
	}
	if a.s != nil {
		errs = append(errs, a.s.Close())
		a.s = nil
	}
	return errors.Join(errs...)
}

func upload32(d *gpu.Device, v []uint32) (*gpu.Buffer[uint32], error) {
	b, err := gpu.Alloc[uint32](d, max(len(v), 1))
	if err != nil {
		return nil, err
	}
	if len(v) > 0 {
		if err := b.Upload(v); err != nil {
			b.Free()
			return nil, err
		}
	}
	return b, nil
}

// plan returns the device plan of 2^logN points and need bits.
func (a *Accelerator) plan(c *consts) (*devPlan, error) {
	key := [2]int{c.logN, c.k}
	if pl, ok := a.plans[key]; ok {
		return pl, nil
	}
	pl := &devPlan{c: c, pw: map[int]*gpu.Buffer[uint32]{}}
	var err error
	for _, x := range []struct {
		b **gpu.Buffer[uint32]
		v []uint32
	}{{&pl.p, c.p}, {&pl.pinv, c.pinv}, {&pl.one, c.one}, {&pl.s, c.s}, {&pl.roots, c.roots}, {&pl.e, c.e}, {&pl.m, c.m}, {&pl.h, c.h}} {
		if *x.b, err = upload32(a.d, x.v); err != nil {
			return nil, err
		}
	}
	half := (1 << c.logN) / 2
	if pl.tw, err = gpu.Alloc[uint32](a.d, max(2*c.k*half, 1)); err != nil {
		return nil, err
	}
	if half > 0 {
		err = a.d.Do(a.s, func(q *gpu.Queue) error {
			return q.Launch(a.fns["intntt_twiddles"], gpu.Dim3{X: grid(half), Y: c.k, Z: 2}, gpu.Dim3{X: block}, 0,
				pl.tw, uint64(half), uint32(c.k), pl.p, pl.pinv, pl.roots, pl.one)
		})
		if err == nil {
			err = a.s.Synchronize()
		}
		if err != nil {
			return nil, err
		}
	}
	a.plans[key] = pl
	return pl, nil
}

func grid(n int) int { return max(min((n+block-1)/block, 1<<16), 1) }

// buf returns the Accelerator's scratch buffer of that name, of at least n
// words.
func (a *Accelerator) buf(name string, n int) (*gpu.Buffer[uint64], error) {
	n = max(n, 1)
	if b, ok := a.bufs[name]; ok {
		if b.Len() >= n {
			return b.View(0, n)
		}
		if err := b.Free(); err != nil {
			return nil, err
		}
		delete(a.bufs, name)
	}
	b, err := gpu.Alloc[uint64](a.d, n)
	if err != nil {
		return nil, err
	}
	a.bufs[name] = b
	return b, nil
}

// residues returns scratch for k·N residues as 32-bit words.
func (a *Accelerator) residues(name string, k, N int) (gpu.DevicePtr, error) {
	b, err := a.buf(name, (k*N+1)/2)
	if err != nil {
		return 0, err
	}
	return b.Ptr(), nil
}

// operand is one factor on the device: n coefficients of w limbs (nl
// limbs in all), signed or not.
type operand struct {
	ptr    gpu.DevicePtr
	nl, n  int
	w      int
	signed bool
}

// convolve queues the product of x and y (y nil: x squared) modulo the
// plan's primes and its recovery into out: n coefficients of outW limbs.
func (a *Accelerator) convolve(q *gpu.Queue, pl *devPlan, x, y *operand, out gpu.DevicePtr, n, outW int, ra, rb gpu.DevicePtr, pwx, pwy *gpu.Buffer[uint32], signed bool) error {
	c := pl.c
	N := 1 << c.logN
	red := func(r gpu.DevicePtr, o *operand, pw *gpu.Buffer[uint32]) error {
		sg := uint32(0)
		if o.signed {
			sg = 1
		}
		return q.Launch(a.fns["intntt_reduce"], gpu.Dim3{X: grid(N), Y: c.k}, gpu.Dim3{X: block}, 0,
			r, o.ptr, uint64(o.nl), uint32(o.w), sg, uint64(o.n), uint64(N), pl.p, pl.pinv, pw)
	}
	fwd := func(r gpu.DevicePtr) error {
		for _, ps := range forwardPasses(c.logN) {
			if err := a.launchPass(q, pl, ps, r); err != nil {
				return err
			}
		}
		return nil
	}
	if err := red(ra, x, pwx); err != nil {
		return err
	}
	if err := fwd(ra); err != nil {
		return err
	}
	other := ra
	if y != nil {
		if err := red(rb, y, pwy); err != nil {
			return err
		}
		if err := fwd(rb); err != nil {
			return err
		}
		other = rb
	}
	if err := q.Launch(a.fns["intntt_pointwise"], gpu.Dim3{X: grid(N), Y: c.k}, gpu.Dim3{X: block}, 0,
		ra, other, uint64(N), pl.p, pl.pinv, pl.s); err != nil {
		return err
	}
	for _, ps := range inversePasses(c.logN) {
		if err := a.launchPass(q, pl, ps, ra); err != nil {
			return err
		}
	}
	sg := uint32(0)
	if signed {
		sg = 1
	}
	return q.Launch(a.fns["intntt_crt"], gpu.Dim3{X: grid(n)}, gpu.Dim3{X: block}, 0,
		out, uint32(outW), uint64(n), ra, uint64(N), uint32(c.k), pl.p, pl.pinv, pl.e, pl.m, pl.h, uint32(c.l), sg)
}

func (a *Accelerator) launchPass(q *gpu.Queue, pl *devPlan, ps pass, r gpu.DevicePtr) error {
	c := pl.c
	N := 1 << c.logN
	tw := pl.tw.Ptr()
	if ps.kind >= inv1 {
		tw += gpu.DevicePtr(4 * c.k * (N / 2))
	}
	var g, b int
	switch ps.kind {
	case fwd1, inv1:
		g, b = grid(N/2), block
	case fwd2, inv2:
		g, b = grid(N/4), block
	default:
		g, b = N>>ps.arg, min(1<<(ps.arg-1), tileThr)
	}
	return q.Launch(a.fns[passNames[ps.kind]], gpu.Dim3{X: g, Y: c.k}, gpu.Dim3{X: b}, 0,
		r, uint64(N), uint32(c.logN), uint32(ps.arg), tw, pl.p, pl.pinv)
}

// Shape describes a device-resident product for MulPackedDevice: the
// widths (limbs per coefficient) of a, b and dst and bounds |a_i| < 2^BitsA,
// |b_j| < 2^BitsB that the caller guarantees.
type Shape struct {
	WidthA, WidthB, WidthDst int
	BitsA, BitsB             int
}

// MulPackedDevice sets dst to the product of the packed polynomials a and b
// on the device (intpoly.Packed's layout, in device buffers), queued on
// stream s (nil: the default stream, and it waits). dst must hold
// len(a)/WidthA + len(b)/WidthB − 1 coefficients of WidthDst limbs, and
// WidthDst must hold the product's bound; the bounds are trusted (a
// coefficient past them gives a wrong product). The Accelerator's scratch
// is reused by its next call: calls on different streams must not overlap.
func (a *Accelerator) MulPackedDevice(s *gpu.Stream, dst, x, y *gpu.Buffer[uint64], sh Shape) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mulPackedDevice(s, dst, x, y, sh)
}

func (a *Accelerator) mulPackedDevice(s *gpu.Stream, dst, x, y *gpu.Buffer[uint64], sh Shape) error {
	if sh.WidthA < 1 || sh.WidthB < 1 || sh.WidthDst < 1 || sh.BitsA < 0 || sh.BitsB < 0 {
		return fmt.Errorf("%w: intntt: shape %+v: widths must be at least 1, bits at least 0", intpoly.ErrWidth, sh)
	}
	if x.Len()%sh.WidthA != 0 || y.Len()%sh.WidthB != 0 || dst.Len()%sh.WidthDst != 0 {
		return fmt.Errorf("%w: intntt: buffers of %d, %d and %d limbs are not whole coefficients of widths %d, %d and %d",
			intpoly.ErrWidth, x.Len(), y.Len(), dst.Len(), sh.WidthA, sh.WidthB, sh.WidthDst)
	}
	la, lb := x.Len()/sh.WidthA, y.Len()/sh.WidthB
	n := 0
	if la > 0 && lb > 0 {
		n = la + lb - 1
	}
	if dst.Len()/sh.WidthDst != n {
		return fmt.Errorf("%w: intntt: dst has %d coefficients, the product has %d", intpoly.ErrWidth, dst.Len()/sh.WidthDst, n)
	}
	if n == 0 {
		return nil
	}
	need := sh.BitsA + sh.BitsB + log2Ceil(min(la, lb)) + 1
	if need > 64*sh.WidthDst {
		return fmt.Errorf("%w: intntt: the product's coefficients need %d bits, dst.Width %d holds %d", intpoly.ErrWidth, need, sh.WidthDst, 64*sh.WidthDst)
	}
	c, err := newConsts(log2Ceil(n), need)
	if err != nil {
		return err
	}
	pl, err := a.plan(c)
	if err != nil {
		return err
	}
	N := 1 << c.logN
	square := x.Ptr() == y.Ptr() && sh.WidthA == sh.WidthB && la == lb
	ra, err := a.residues("ra", c.k, N)
	if err != nil {
		return err
	}
	rb := ra
	if !square {
		if rb, err = a.residues("rb", c.k, N); err != nil {
			return err
		}
	}
	pwx, err := a.pwTable(pl, sh.WidthA)
	if err != nil {
		return err
	}
	pwy, err := a.pwTable(pl, sh.WidthB)
	if err != nil {
		return err
	}
	ox := &operand{ptr: x.Ptr(), nl: x.Len(), n: la, w: sh.WidthA, signed: true}
	oy := &operand{ptr: y.Ptr(), nl: y.Len(), n: lb, w: sh.WidthB, signed: true}
	if square {
		oy = nil
	}
	return a.d.Do(s, func(q *gpu.Queue) error {
		return a.convolve(q, pl, ox, oy, dst.Ptr(), n, sh.WidthDst, ra, rb, pwx, pwy, true)
	})
}

// stage copies the slices into the pinned staging buffer back to back and
// returns it (grown as needed to at least n words).
func (a *Accelerator) staging(n int) ([]uint64, error) {
	if a.host == nil || a.host.Len() < n {
		if a.host != nil {
			if err := a.host.Free(); err != nil {
				return nil, err
			}
			a.host = nil
		}
		h, err := gpu.AllocHost[uint64](a.d, max(n, 1))
		if err != nil {
			return nil, err
		}
		a.host = h
	}
	return a.host.Slice()[:n], nil
}

// toDevice copies host words through the pinned staging buffer (at offset
// off) into b, on the Accelerator's stream.
func (a *Accelerator) toDevice(b *gpu.Buffer[uint64], off int, src []uint64) error {
	if len(src) == 0 {
		return nil
	}
	parallelCopy(a.host.Slice()[off:off+len(src)], src)
	hv, err := a.host.View(off, len(src))
	if err != nil {
		return err
	}
	return b.UploadAsync(a.s, hv)
}

// fromDevice copies b into dst through the staging buffer at offset off.
func (a *Accelerator) fromDevice(dst []uint64, off int, b *gpu.Buffer[uint64]) error {
	hv, err := a.host.View(off, len(dst))
	if err != nil {
		return err
	}
	if err := b.DownloadAsync(a.s, hv); err != nil {
		return err
	}
	if err := a.s.Synchronize(); err != nil {
		return err
	}
	parallelCopy(dst, a.host.Slice()[off:off+len(dst)])
	return nil
}

// MulPacked sets dst to a·b (intpoly.Accelerator): a and b cross to the
// device through pinned memory, the product comes back the same way. The
// bounds are the operands' exact largest bit lengths. dst must have
// a.Len()+b.Len()−1 coefficients (0 when either has none) of a Width that
// holds the product's bound; anything else returns an error wrapping
// intpoly.ErrWidth.
func (a *Accelerator) MulPacked(dst, x, y intpoly.Packed) error {
	for _, p := range []intpoly.Packed{dst, x, y} {
		if p.Width < 1 || len(p.Limbs)%p.Width != 0 {
			return fmt.Errorf("%w: intntt: Width %d with %d limbs", intpoly.ErrWidth, p.Width, len(p.Limbs))
		}
	}
	la, lb := x.Len(), y.Len()
	n := 0
	if la > 0 && lb > 0 {
		n = la + lb - 1
	}
	if dst.Len() != n {
		return fmt.Errorf("%w: intntt: dst has %d coefficients, the product has %d", intpoly.ErrWidth, dst.Len(), n)
	}
	if n == 0 {
		return nil
	}
	sh := Shape{WidthA: x.Width, WidthB: y.Width, WidthDst: dst.Width, BitsA: maxBits(x), BitsB: maxBits(y)}
	if sh.BitsA == 0 || sh.BitsB == 0 {
		clear(dst.Limbs)
		return nil
	}
	// Past the primes' capacity, say so before staging anything (intpoly
	// then multiplies by slices).
	if _, err := primesFor(log2Ceil(n), sh.BitsA+sh.BitsB+log2Ceil(min(la, lb))+1); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	square := la == lb && x.Width == y.Width && &x.Limbs[0] == &y.Limbs[0]
	if _, err := a.staging(max(len(x.Limbs)+len(y.Limbs), len(dst.Limbs))); err != nil {
		return err
	}
	dx, err := a.buf("x", len(x.Limbs))
	if err != nil {
		return err
	}
	dy := dx
	if !square {
		if dy, err = a.buf("y", len(y.Limbs)); err != nil {
			return err
		}
	}
	dd, err := a.buf("dst", len(dst.Limbs))
	if err != nil {
		return err
	}
	if err := a.toDevice(dx, 0, x.Limbs); err != nil {
		return err
	}
	if !square {
		if err := a.toDevice(dy, len(x.Limbs), y.Limbs); err != nil {
			return err
		}
	}
	if err := a.mulPackedDevice(a.s, dd, dx, dy, sh); err != nil {
		return err
	}
	return a.fromDevice(dst.Limbs, 0, dd)
}

// MulNat sets z to x·y for non-negative integers in little-endian 64-bit
// limbs, len(z) = len(x)+len(y) (intpoly.Accelerator), host to host: x and
// y go up through the pinned staging buffer, MulNatDevice's launches run on
// the Accelerator's stream, z comes back the same way.
func (a *Accelerator) MulNat(z, x, y []uint64) error {
	if len(z) != len(x)+len(y) {
		return fmt.Errorf("%w: intntt: MulNat: z has %d limbs, x and y %d and %d", intpoly.ErrWidth, len(z), len(x), len(y))
	}
	if len(x) == 0 || len(y) == 0 {
		clear(z)
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	square := len(x) == len(y) && &x[0] == &y[0]
	if _, err := a.staging(len(z)); err != nil {
		return err
	}
	dx, err := a.buf("x", len(x))
	if err != nil {
		return err
	}
	dy := dx
	if !square {
		if dy, err = a.buf("y", len(y)); err != nil {
			return err
		}
	}
	dz, err := a.buf("dst", len(z))
	if err != nil {
		return err
	}
	if err := a.toDevice(dx, 0, x); err != nil {
		return err
	}
	if !square {
		if err := a.toDevice(dy, len(x), y); err != nil {
			return err
		}
	}
	if err := a.mulNatDevice(a.s, dz, dx, dy); err != nil {
		return err
	}
	return a.fromDevice(z, 0, dz)
}

// MulNatDevice sets z to x·y on the device, queued on stream s (nil: the
// default stream, and it waits): x, y and z hold non-negative integers as
// little-endian 64-bit limbs (limb t, of weight 2^(64t), at index t; any
// length, leading zero limbs allowed), and z must have len(x)+len(y)
// limbs; z must not overlap x or y, and x and y may be the same buffer (a
// square: one transform). The operands are cut into chunks of c limbs
// (c ≤ 4, chosen by natShape's cost model), multiplied as polynomials
// modulo 31-bit primes, each limb of z gets the sum of the coefficient
// limbs that land on it (intntt_gather, a 128-bit sum), and the carries
// resolve in three launches of carry lookahead (intntt_carry_*): nothing
// returns to the host. The Accelerator's scratch is reused by its next
// call: calls on different streams must not overlap.
func (a *Accelerator) MulNatDevice(s *gpu.Stream, z, x, y *gpu.Buffer[uint64]) error {
	if z.Len() != x.Len()+y.Len() {
		return fmt.Errorf("%w: intntt: MulNatDevice: z has %d limbs, x and y %d and %d", intpoly.ErrWidth, z.Len(), x.Len(), y.Len())
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mulNatDevice(s, z, x, y)
}

func (a *Accelerator) mulNatDevice(s *gpu.Stream, z, x, y *gpu.Buffer[uint64]) error {
	lx, ly, lz := x.Len(), y.Len(), z.Len()
	if lx == 0 || ly == 0 {
		if lz == 0 {
			return nil
		}
		// A product of no coefficients: the gather of none zeroes z.
		hi, err := a.buf("hi", lz)
		if err != nil {
			return err
		}
		return a.d.Do(s, func(q *gpu.Queue) error {
			return q.Launch(a.fns["intntt_gather"], gpu.Dim3{X: grid(lz)}, gpu.Dim3{X: block}, 0,
				z.Ptr(), hi.Ptr(), hi.Ptr(), uint64(0), uint32(1), uint32(1), uint64(lz))
		})
	}
	c, cs, err := natShape(lx, ly)
	if err != nil {
		return err
	}
	nx, ny := (lx+c-1)/c, (ly+c-1)/c
	n := nx + ny - 1
	wc := (128*c + log2Ceil(min(nx, ny)) + 63) / 64
	pl, err := a.plan(cs)
	if err != nil {
		return err
	}
	N := 1 << cs.logN
	square := x.Ptr() == y.Ptr() && lx == ly
	co, err := a.buf("co", n*wc)
	if err != nil {
		return err
	}
	hi, err := a.buf("hi", lz)
	if err != nil {
		return err
	}
	nb := (lz + carryThreads - 1) / carryThreads
	agg, err := a.buf("agg", (nb+2)/2) // nb+1 32-bit words
	if err != nil {
		return err
	}
	ra, err := a.residues("ra", cs.k, N)
	if err != nil {
		return err
	}
	rb := ra
	if !square {
		if rb, err = a.residues("rb", cs.k, N); err != nil {
			return err
		}
	}
	pw, err := a.pwTable(pl, c)
	if err != nil {
		return err
	}
	ox := &operand{ptr: x.Ptr(), nl: lx, n: nx, w: c}
	oy := &operand{ptr: y.Ptr(), nl: ly, n: ny, w: c}
	if square {
		oy = nil
	}
	return a.d.Do(s, func(q *gpu.Queue) error {
		if err := a.convolve(q, pl, ox, oy, co.Ptr(), n, wc, ra, rb, pw, pw, false); err != nil {
			return err
		}
		if err := q.Launch(a.fns["intntt_gather"], gpu.Dim3{X: grid(lz)}, gpu.Dim3{X: block}, 0,
			z.Ptr(), hi.Ptr(), co.Ptr(), uint64(n), uint32(wc), uint32(c), uint64(lz)); err != nil {
			return err
		}
		return a.carry(q, z.Ptr(), hi.Ptr(), lz, agg.Ptr(), nb)
	})
}

// carryThreads is INTNTT_CARRY_THREADS: limbs a block of the carry kernels.
const carryThreads = 1024

// carry queues the carries of lo + 2^64·hi into lo (lz limbs, nb blocks of
// carryThreads; agg holds nb+1 32-bit words).
func (a *Accelerator) carry(q *gpu.Queue, lo, hi gpu.DevicePtr, lz int, agg gpu.DevicePtr, nb int) error {
	if err := q.Launch(a.fns["intntt_carry_blocks"], gpu.Dim3{X: nb}, gpu.Dim3{X: carryThreads}, 0,
		lo, hi, uint64(lz), agg); err != nil {
		return err
	}
	if err := q.Launch(a.fns["intntt_carry_scan"], gpu.Dim3{X: 1}, gpu.Dim3{X: carryThreads}, 0,
		agg, uint64(nb)); err != nil {
		return err
	}
	return q.Launch(a.fns["intntt_carry_apply"], gpu.Dim3{X: nb}, gpu.Dim3{X: carryThreads}, 0,
		lo, lo, hi, uint64(lz), agg)
}

// parallelCopy copies src to dst (same length) on all cores when large.
func parallelCopy(dst, src []uint64) {
	const grain = 1 << 16
	w := min(workers(), len(src)/grain)
	if w <= 1 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	step := (len(src) + w - 1) / w
	for lo := 0; lo < len(src); lo += step {
		hi := min(lo+step, len(src))
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	wg.Wait()
}

var _ intpoly.Accelerator = (*Accelerator)(nil)
