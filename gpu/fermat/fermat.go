package fermat

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gfpoly/gfpoly/cuda"
	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/gpu"
)

const (
	block     = 256 // threads per block of the element-wise kernels
	passBlock = 256 // threads per block of fermat_pass16 (its __launch_bounds__)
	passDFTs  = 32  // DFT-16s per block of fermat_pass16
	smallThr  = 128 // threads per block of fermat_pass2/4/8
)

var kernelNames = []string{"fermat_pass2", "fermat_pass4", "fermat_pass8", "fermat_pass16",
	"fermat_revscale", "fermat_mulvec", "fermat_from_chunks", "fermat_to_words", "fermat_gather"}

// Transformer runs the FFT over field/fermat's field, and products of big
// integers through it, on one device. Its results equal field/fermat's
// bit for bit. Calls run one at a time (a mutex): the scratch buffer and
// the staging buffer are the Transformer's.
type Transformer struct {
	d   *gpu.Device
	fns map[string]*gpu.Function
	s   *gpu.Stream

	mu      sync.Mutex
	plans   map[int]*plan // by log2 n
	scratch *gpu.Buffer[field.Element]
	bufs    map[string]*gpu.Buffer[uint64]
	ebufs   map[string]*gpu.Buffer[field.Element]
	hostW   *gpu.HostBuffer[uint64]        // pinned staging of MulBig
	hostE   *gpu.HostBuffer[field.Element] // pinned staging of FFTHost, IFFTHost
}

// plan holds one length's constants on the device: the twiddle table (n/16
// powers of RootOfUnity(n), for n ≥ 32) and 1/n.
type plan struct {
	logn    int
	tw, inv *gpu.Buffer[field.Element]
}

// New returns a Transformer on d, loading the kernels of cuda/fermat.cu
// (compiled by NVRTC on first use where no prebuilt image matches).
func New(d *gpu.Device) (*Transformer, error) {
	if d == nil {
		return nil, fmt.Errorf("fermat: nil device: %w", gpu.ErrNoDevice)
	}
	mod, err := d.Module(cuda.FermatProgram)
	if err != nil {
		return nil, err
	}
	return newWith(d, mod)
}

// newWith returns a Transformer running the kernels of mod (cuda/fermat.cu
// as compiled, or a variant of it in the tests).
func newWith(d *gpu.Device, mod *gpu.Module) (*Transformer, error) {
	var err error
	t := &Transformer{d: d, fns: map[string]*gpu.Function{}, plans: map[int]*plan{},
		bufs: map[string]*gpu.Buffer[uint64]{}, ebufs: map[string]*gpu.Buffer[field.Element]{}}
	for _, n := range kernelNames {
		if t.fns[n], err = mod.Function(n); err != nil {
			return nil, err
		}
	}
	if t.s, err = d.NewStream(); err != nil {
		return nil, err
	}
	return t, nil
}

// Close frees the Transformer's tables, buffers and stream.
func (t *Transformer) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []error
	for _, p := range t.plans {
		errs = append(errs, p.tw.Free(), p.inv.Free())
	}
	t.plans = map[int]*plan{}
	if t.scratch != nil {
		errs = append(errs, t.scratch.Free())
		t.scratch = nil
	}
	for _, b := range t.bufs {
		errs = append(errs, b.Free())
	}
	t.bufs = map[string]*gpu.Buffer[uint64]{}
	for _, b := range t.ebufs {
		errs = append(errs, b.Free())
	}
	t.ebufs = map[string]*gpu.Buffer[field.Element]{}
	if t.hostW != nil {
		errs = append(errs, t.hostW.Free())
		t.hostW = nil
	}
	if t.hostE != nil {
		errs = append(errs, t.hostE.Free())
		t.hostE = nil
	}
	if t.s != nil {
		errs = append(errs, t.s.Close())
		t.s = nil
	}
	return errors.Join(errs...)
}

// logLen returns log2 n for the lengths the transforms accept (the powers
// of two, as field/fermat), or an error wrapping field.ErrLength that names
// them.
func logLen(n int) (int, error) {
	if n <= 0 || n&(n-1) != 0 {
		return 0, fmt.Errorf("%w: %d: the GPU transforms take the powers of two 1, 2, 4, …, 2^%d (16^e among them) as far as device memory goes (2^k elements need 2^(k+7) bytes of data and scratch and 2^(k+2) of twiddles)",
			field.ErrLength, n, field.MaxLogLen)
	}
	return bits.TrailingZeros(uint(n)), nil
}

// twiddles returns the n/16 powers ω^i of ω = RootOfUnity(n), n = 2^k ≥ 32,
// computed on all cores (field/fermat's table, element for element).
func twiddles(k int) []field.Element {
	w, _ := field.RootOfUnity(1 << k)
	m := 1 << (k - 4)
	tw := make([]field.Element, m)
	parallel(m, 1<<10, func(lo, hi int) {
		var x field.Element
		x.Exp(&w, big.NewInt(int64(lo)))
		for i := lo; i < hi; i++ {
			tw[i] = x
			x.Mul(&x, &w)
		}
	})
	return tw
}

// plan returns the device constants of length 2^k, building them once.
func (t *Transformer) plan(k int) (*plan, error) {
	if p, ok := t.plans[k]; ok {
		return p, nil
	}
	var tw []field.Element
	if k > 4 {
		tw = twiddles(k)
	} else {
		tw = []field.Element{{1}}
	}
	var inv field.Element
	inv.SetBig(new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), uint(k)), field.Modulus()))
	p := &plan{logn: k}
	var err error
	if p.tw, err = upload(t.d, tw); err != nil {
		return nil, err
	}
	if p.inv, err = upload(t.d, []field.Element{inv}); err != nil {
		p.tw.Free()
		return nil, err
	}
	t.plans[k] = p
	return p, nil
}

func upload[T any](d *gpu.Device, v []T) (*gpu.Buffer[T], error) {
	b, err := gpu.Alloc[T](d, len(v))
	if err != nil {
		return nil, err
	}
	if err := b.Upload(v); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

// scratchBuf returns the scratch buffer of at least n elements.
func (t *Transformer) scratchBuf(n int) (*gpu.Buffer[field.Element], error) {
	if t.scratch != nil && t.scratch.Len() >= n {
		return t.scratch.View(0, n)
	}
	if t.scratch != nil {
		if err := t.scratch.Free(); err != nil {
			return nil, err
		}
		t.scratch = nil
	}
	b, err := gpu.Alloc[field.Element](t.d, n)
	if err != nil {
		return nil, err
	}
	t.scratch = b
	return b, nil
}

// buf and ebuf return the named scratch buffers of at least n words or
// elements.
func (t *Transformer) buf(name string, n int) (*gpu.Buffer[uint64], error) {
	return grow(t.d, t.bufs, name, n)
}

func (t *Transformer) ebuf(name string, n int) (*gpu.Buffer[field.Element], error) {
	return grow(t.d, t.ebufs, name, n)
}

func grow[T any](d *gpu.Device, m map[string]*gpu.Buffer[T], name string, n int) (*gpu.Buffer[T], error) {
	n = max(n, 1)
	if b, ok := m[name]; ok {
		if b.Len() >= n {
			return b.View(0, n)
		}
		if err := b.Free(); err != nil {
			return nil, err
		}
		delete(m, name)
	}
	b, err := gpu.Alloc[T](d, n)
	if err != nil {
		return nil, err
	}
	m[name] = b
	return b, nil
}

func grid(n int) int { return max(min((n+block-1)/block, 1<<16), 1) }

// FFT replaces the n elements of a (device memory, field/fermat's layout:
// element i is 8 little-endian uint64 digits) by their transform
// A_j = Σ_i a_i·ω^(ij), ω = field/fermat's RootOfUnity(n), natural order in
// and out, equal to field/fermat's FFT bit for bit. n must be a power of
// two (an error wrapping field/fermat's ErrLength otherwise) and every
// element canonical (the device does not check: a non-canonical element
// gives an unspecified result, never a crash). The work is queued on s
// (nil: the default stream, and FFT waits). Calls on different streams must
// not overlap: they share the Transformer's scratch buffer.
func (t *Transformer) FFT(s *gpu.Stream, a *gpu.Buffer[field.Element]) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.transform(s, a, false)
}

// IFFT replaces a by its inverse transform a_i = (1/n)·Σ_j A_j·ω^(−ij), as
// field/fermat's IFFT; lengths, streams and errors as for FFT.
func (t *Transformer) IFFT(s *gpu.Stream, a *gpu.Buffer[field.Element]) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.transform(s, a, true)
}

func (t *Transformer) transform(s *gpu.Stream, a *gpu.Buffer[field.Element], inverse bool) error {
	if a == nil {
		return fmt.Errorf("%w: fermat: nil buffer", field.ErrLength)
	}
	k, err := logLen(a.Len())
	if err != nil {
		return err
	}
	p, err := t.plan(k)
	if err != nil {
		return err
	}
	scr, err := t.scratchBuf(a.Len())
	if err != nil {
		return err
	}
	return t.d.Do(s, func(q *gpu.Queue) error {
		return t.queueTransform(q, p, a.Ptr(), scr.Ptr(), inverse)
	})
}

// queueTransform queues the transform of the 2^p.logn elements at a (in
// place, scr holding as many) on q.
func (t *Transformer) queueTransform(q *gpu.Queue, p *plan, a, scr gpu.DevicePtr, inverse bool) error {
	k := p.logn
	n := 1 << k
	res := a
	if n > 1 {
		src, dst := a, scr
		first := k % 4
		if first == 0 {
			first = 4
		}
		logns := 0
		for lr := first; ; lr = 4 {
			var err error
			if lr == 4 {
				g := (n/16 + passDFTs - 1) / passDFTs
				err = q.Launch(t.fns["fermat_pass16"], gpu.Dim3{X: g}, gpu.Dim3{X: passBlock}, 0,
					dst, src, p.tw, uint32(k), uint32(logns))
			} else {
				nj := n >> lr
				err = q.Launch(t.fns[fmt.Sprintf("fermat_pass%d", 1<<lr)], gpu.Dim3{X: (nj + smallThr - 1) / smallThr}, gpu.Dim3{X: smallThr}, 0,
					dst, src, uint32(k))
			}
			if err != nil {
				return err
			}
			src, dst = dst, src
			logns += lr
			if logns == k {
				break
			}
		}
		res = src
	}
	if inverse {
		return q.Launch(t.fns["fermat_revscale"], gpu.Dim3{X: grid(n/2 + 1)}, gpu.Dim3{X: block}, 0,
			a, res, uint32(k), p.inv)
	}
	if res != a {
		return q.Copy(a, res, 64*n)
	}
	return nil
}

// staging returns the pinned staging buffer *h, grown to at least n values.
func staging[T any](d *gpu.Device, h **gpu.HostBuffer[T], n int) (*gpu.HostBuffer[T], error) {
	if *h == nil || (*h).Len() < n {
		if *h != nil {
			if err := (*h).Free(); err != nil {
				return nil, err
			}
			*h = nil
		}
		b, err := gpu.AllocHost[T](d, max(n, 1))
		if err != nil {
			return nil, err
		}
		*h = b
	}
	return (*h).View(0, n)
}

// FFTHost replaces a (in host memory) by its transform on the device: a
// crosses to the device and back through a pinned staging buffer. Lengths
// and errors as field/fermat's FFT, non-canonical elements included
// (ErrNotCanonical, a unchanged).
func (t *Transformer) FFTHost(a []field.Element) error { return t.host2host(a, false) }

// IFFTHost is FFTHost's inverse, as field/fermat's IFFT.
func (t *Transformer) IFFTHost(a []field.Element) error { return t.host2host(a, true) }

// checkHost returns the error FFTHost and IFFTHost give for a: an
// unsupported length or a non-canonical element.
func checkHost(a []field.Element) error {
	if _, err := logLen(len(a)); err != nil {
		return err
	}
	for i := range a {
		if !a[i].IsCanonical() {
			return fmt.Errorf("%w: index %d: %v", field.ErrNotCanonical, i, [field.Digits]uint64(a[i]))
		}
	}
	return nil
}

func (t *Transformer) host2host(a []field.Element, inverse bool) error {
	if err := checkHost(a); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(a)
	hv, err := staging(t.d, &t.hostE, n)
	if err != nil {
		return err
	}
	dev, err := t.ebuf("data", n)
	if err != nil {
		return err
	}
	parallelCopy(hv.Slice(), a)
	if err := dev.UploadAsync(t.s, hv); err != nil {
		return err
	}
	if err := t.transform(t.s, dev, inverse); err != nil {
		return err
	}
	if err := dev.DownloadAsync(t.s, hv); err != nil {
		return err
	}
	if err := t.s.Synchronize(); err != nil {
		return err
	}
	parallelCopy(a, hv.Slice())
	return nil
}

// chunkBits returns the chunk size b for operands of xb and yb bits, as
// field/fermat's MulBig: the largest b ≤ 252 with 2b + ⌈log2 t⌉ ≤ 504, t
// the chunks of the shorter operand, so every coefficient of the product is
// below 2^504 < p.
func chunkBits(xb, yb int) int {
	m := min(xb, yb)
	for b := 252; ; b-- {
		t := (m + b - 1) / b
		if 2*b+bits.Len(uint(t-1)) <= 504 {
			return b
		}
	}
}

// MulBig returns x·y through the GPU transform, as field/fermat's MulBig
// does it on the CPU: |x| and |y| cut into b-bit chunks (b = 240 up to 2^24
// chunks), one per element, transformed, multiplied pointwise and
// transformed back on the device, each coefficient (below 2^504 < p, so
// exact) converted to binary there and summed per 64-bit word of the
// product at its bit offset (128-bit sums); the operands cross to the
// device and the sums back through pinned memory, and the last carries run
// on the host. x and y are not modified. Errors wrap field/fermat's ErrNil
// for a nil operand and ErrLength for operands past the transform's
// lengths.
func (t *Transformer) MulBig(x, y *big.Int) (*big.Int, error) {
	if x == nil || y == nil {
		return nil, fmt.Errorf("%w: MulBig", field.ErrNil)
	}
	if x.Sign() == 0 || y.Sign() == 0 {
		return new(big.Int), nil
	}
	xw, yw := words(x), words(y)
	sh, err := newShape(x.BitLen(), y.BitLen(), len(xw), len(yw))
	if err != nil {
		return nil, err
	}
	square := x == y
	t.mu.Lock()
	defer t.mu.Unlock()
	hb, err := staging(t.d, &t.hostW, max(len(xw)+len(yw), 2*sh.nz))
	if err != nil {
		return nil, err
	}
	hw := hb.Slice()
	dx, err := t.buf("x", len(xw))
	if err != nil {
		return nil, err
	}
	dy, err := t.buf("y", len(yw))
	if err != nil {
		return nil, err
	}
	parallelCopy(hw[:len(xw)], xw)
	parallelCopy(hw[len(xw):len(xw)+len(yw)], yw)
	for _, c := range []struct {
		b   *gpu.Buffer[uint64]
		off int
	}{{dx, 0}, {dy, len(xw)}} {
		hv, err := hb.View(c.off, c.b.Len())
		if err != nil {
			return nil, err
		}
		if err := c.b.UploadAsync(t.s, hv); err != nil {
			return nil, err
		}
	}
	lohi, err := t.mulWordsDevice(t.s, dx, dy, sh, square)
	if err != nil {
		return nil, err
	}
	hv, err := hb.View(0, 2*sh.nz)
	if err != nil {
		return nil, err
	}
	if err := lohi.DownloadAsync(t.s, hv); err != nil {
		return nil, err
	}
	if err := t.s.Synchronize(); err != nil {
		return nil, err
	}
	zb, z := newWords(sh.nz)
	if carryPass(z, hw[:sh.nz], hw[sh.nz:2*sh.nz]) != 0 {
		panic("fermat: MulBig carry past the product") // a bug, not bad input
	}
	res := fromWords(zb, z)
	if x.Sign() != y.Sign() {
		res.Neg(res)
	}
	return res, nil
}

// shape is a big-integer product's layout: operands of nx and ny words cut
// into na and nb chunks of b bits, a transform of 2^k points, nz words of
// product.
type shape struct {
	nx, ny, na, nb, b, k, nz int
}

func newShape(xbits, ybits, nx, ny int) (shape, error) {
	b := chunkBits(xbits, ybits)
	sh := shape{nx: nx, ny: ny, b: b, na: (xbits + b - 1) / b, nb: (ybits + b - 1) / b, nz: nx + ny}
	n := 1
	for n < sh.na+sh.nb-1 {
		n <<= 1
	}
	k, err := logLen(n)
	if err != nil {
		return sh, fmt.Errorf("fermat: MulBig operands too long: %w", err)
	}
	sh.k = k
	return sh, nil
}

// mulWordsDevice queues the product of the integers in dx and dy (sh's
// words) on s and returns the buffer of its per-word sums: lo words, then
// hi words, sh.nz each. With square, dy is not read (dx times itself).
func (t *Transformer) mulWordsDevice(s *gpu.Stream, dx, dy *gpu.Buffer[uint64], sh shape, square bool) (*gpu.Buffer[uint64], error) {
	n := 1 << sh.k
	p, err := t.plan(sh.k)
	if err != nil {
		return nil, err
	}
	scr, err := t.scratchBuf(n)
	if err != nil {
		return nil, err
	}
	ea, err := t.ebuf("a", n)
	if err != nil {
		return nil, err
	}
	eb := ea
	if !square {
		if eb, err = t.ebuf("b", n); err != nil {
			return nil, err
		}
	}
	lohi, err := t.buf("lohi", 2*sh.nz)
	if err != nil {
		return nil, err
	}
	count := sh.na + sh.nb - 1
	err = t.d.Do(s, func(q *gpu.Queue) error {
		chunks := func(e *gpu.Buffer[field.Element], w *gpu.Buffer[uint64], nw, nc int) error {
			return q.Launch(t.fns["fermat_from_chunks"], gpu.Dim3{X: grid(n)}, gpu.Dim3{X: block}, 0,
				e, w, uint64(nw), uint64(nc), uint32(sh.b), uint64(n))
		}
		if err := chunks(ea, dx, sh.nx, sh.na); err != nil {
			return err
		}
		if err := t.queueTransform(q, p, ea.Ptr(), scr.Ptr(), false); err != nil {
			return err
		}
		if !square {
			if err := chunks(eb, dy, sh.ny, sh.nb); err != nil {
				return err
			}
			if err := t.queueTransform(q, p, eb.Ptr(), scr.Ptr(), false); err != nil {
				return err
			}
		}
		if err := q.Launch(t.fns["fermat_mulvec"], gpu.Dim3{X: grid(n)}, gpu.Dim3{X: block}, 0,
			ea, ea, eb, uint64(n)); err != nil {
			return err
		}
		if err := t.queueTransform(q, p, ea.Ptr(), scr.Ptr(), true); err != nil {
			return err
		}
		if err := q.Launch(t.fns["fermat_to_words"], gpu.Dim3{X: grid(count)}, gpu.Dim3{X: block}, 0,
			ea, uint64(count)); err != nil {
			return err
		}
		return q.Launch(t.fns["fermat_gather"], gpu.Dim3{X: grid(sh.nz)}, gpu.Dim3{X: block}, 0,
			lohi, lohi.Ptr()+gpu.DevicePtr(8*sh.nz), ea, uint64(count), uint32(sh.b), uint64(sh.nz))
	})
	if err != nil {
		return nil, err
	}
	return lohi, nil
}

// carryPass sets z to the words of Σ_u (hi[u]·2^64 + lo[u])·2^(64u), that
// is lo plus hi moved up one word, and returns the carry out of the top
// word. The words are added in parallel ranges, each from a carry of 0;
// the carries out of the ranges (0, 1 or 2) then ripple into the next ones.
func carryPass(z, lo, hi []uint64) uint64 {
	n := len(z)
	w := min(runtime.GOMAXPROCS(0), max(1, n/(1<<16)))
	outs := make([]uint64, w)
	var wg sync.WaitGroup
	for i := range w {
		a, b := i*n/w, (i+1)*n/w
		wg.Go(func() {
			var c uint64
			for u := a; u < b; u++ {
				var h uint64
				if u > 0 {
					h = hi[u-1]
				}
				var c1, c2 uint64
				z[u], c1 = bits.Add64(lo[u], h, 0)
				z[u], c2 = bits.Add64(z[u], c, 0)
				c = c1 + c2
			}
			outs[i] = c
		})
	}
	wg.Wait()
	var top uint64
	if n > 0 {
		top = hi[n-1]
	}
	for i := range w {
		c := outs[i]
		for u := (i + 1) * n / w; c != 0 && u < n; u++ {
			z[u], c = bits.Add64(z[u], c, 0)
		}
		top += c
	}
	return top
}

// words returns |x| as little-endian 64-bit words (x's own words where a
// big.Word is 64 bits: read only).
func words(x *big.Int) []uint64 {
	bw := x.Bits()
	if bits.UintSize == 64 {
		if len(bw) == 0 {
			return nil
		}
		return unsafe.Slice((*uint64)(unsafe.Pointer(&bw[0])), len(bw))
	}
	w := make([]uint64, (len(bw)+1)/2)
	for i, v := range bw {
		w[i/2] |= uint64(v) << (32 * (i % 2))
	}
	return w
}

// newWords returns n zero words for a product: where a big.Word is 64 bits,
// the big.Word slice and the same memory as uint64s (fromWords then copies
// nothing); otherwise nil and the words.
func newWords(n int) ([]big.Word, []uint64) {
	if bits.UintSize == 64 {
		bw := make([]big.Word, n)
		if n == 0 {
			return bw, nil
		}
		return bw, unsafe.Slice((*uint64)(unsafe.Pointer(&bw[0])), n)
	}
	return nil, make([]uint64, n)
}

// fromWords returns the integer of the words z; bw is newWords' big.Word
// slice of z, or nil.
func fromWords(bw []big.Word, z []uint64) *big.Int {
	if bits.UintSize == 64 {
		return new(big.Int).SetBits(bw)
	}
	bw = make([]big.Word, 2*len(z))
	for i, v := range z {
		bw[2*i], bw[2*i+1] = big.Word(v), big.Word(v>>32)
	}
	return new(big.Int).SetBits(bw)
}

// parallel runs f over [0, n) in contiguous ranges of at least grain
// indices on up to GOMAXPROCS goroutines.
func parallel(n, grain int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), (n+grain-1)/grain)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := i*n/w, (i+1)*n/w
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// parallelCopy copies src to dst (same length) on all cores when large.
func parallelCopy[T any](dst, src []T) {
	parallel(len(src), 1<<16, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}
