package additive

import (
	"errors"
	"fmt"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/rs"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// A *Transforms runs rs.Code's encodings (rs.WithAccelerator).
var _ rs.Accelerator = (*Transforms)(nil)

// ErrOverlap is returned, wrapped, when an operation's source and
// destination buffers overlap where they may not.
var ErrOverlap = errors.New("additive: buffers overlap")

// Transforms runs the transforms of package domain on a device: Gao–Mateer
// FFT and IFFT (monomial basis), the novel-basis transforms, the basis
// conversions and the low-degree extension, on device buffers or, through
// pinned memory, on host slices. Every result equals domain's bit for bit.
//
// Columns: a device buffer holds one or more columns of a subspace's Size()
// elements back to back, in subspace order (DESIGN.md); every column of a
// buffer is transformed by one launch per pass. The transforms are bound by
// GF(2^64) multiplications (BENCHMARKS.md): a novel-basis transform of 2^m
// elements costs m·2^(m−1) of them, the Gao–Mateer FFT and IFFT about five
// times as many (the twists) plus m²/2 Taylor steps.
//
// The tables of a subspace (twiddles, twist powers; O(m·2^10 + 2^(m−8))
// elements) go to the device on its first use and stay there, keyed by the
// *domain.Subspace pointer, until Release or Close: reuse Subspace values.
// A Transforms is safe for concurrent use, except that Release must not run
// while work on the same subspace is in flight.
//
// gpu.Device memory: in-place transforms need nothing beyond the caller's buffer
// and the tables; LDE needs scratch for the source's novel coefficients
// (DeviceBytesLDE); an allocation that does not fit returns an error saying
// how many bytes were needed, matching gpu.ErrOutOfMemory.
type Transforms struct {
	d    *gpu.Device
	fn   *gpu.Function
	owns bool // close d with the transforms
	// tabLimit is the most product tables a pass may hold (shared memory).
	tabLimit int
	// chunk is the unit, in elements, in which the host calls' staging
	// copies and transfers overlap (hostChunk; tests make it small).
	chunk int

	mu    sync.Mutex
	plans map[*domain.Subspace]*fftPlan

	hostMu sync.Mutex // one host pipeline at a time
	stages [hostStreams]*stage
}

// New loads the transform kernels on d (the program "fft.cu": cuda/gf64.cu's
// multiplication and cuda/fft.cu, loaded once per device) and returns the
// transforms on it.
func New(d *gpu.Device) (*Transforms, error) {
	if d == nil {
		return nil, fmt.Errorf("additive: nil device: %w", gpu.ErrNoDevice)
	}
	m, err := d.Module("fft.cu")
	if err != nil {
		return nil, err
	}
	fn, err := m.Function("fft_pass")
	if err != nil {
		return nil, err
	}
	// The tile and up to maxTabsLimit product tables need more than the
	// default 48 KiB of shared memory; devices that do not allow it get
	// fewer tables.
	tabLimit := maxTabsLimit
	if fn.SetMaxDynamicSharedMem(tabOffset(tileLog)+maxTabsLimit*tabBytes) != nil {
		tabLimit = (48<<10 - tabOffset(tileLog)) / tabBytes
	}
	return &Transforms{d: d, fn: fn, tabLimit: tabLimit, chunk: hostChunk, plans: map[*domain.Subspace]*fftPlan{}}, nil
}

// Open opens a device (gpu.Open, with opts) and returns its transforms; the
// caller closes it with Close, which closes the device too. The error wraps
// gpu.ErrNoDevice when this machine has no usable GPU: callers then run
// package domain (or rs) on the CPU, and should say so.
func Open(opts ...gpu.Option) (*Transforms, error) {
	d, err := gpu.Open(opts...)
	if err != nil {
		return nil, err
	}
	t, err := New(d)
	if err != nil {
		d.Close()
		return nil, err
	}
	t.owns = true
	return t, nil
}

// gpu.Device returns the device the transforms run on.
func (t *Transforms) Device() *gpu.Device { return t.d }

// Prepare builds the tables of s and copies them to the device, so that the
// first transform on s does not pay for it.
func (t *Transforms) Prepare(s *domain.Subspace) error {
	_, err := t.plan(s)
	return err
}

// Release frees the device tables of s.
func (t *Transforms) Release(s *domain.Subspace) error {
	t.mu.Lock()
	p := t.plans[s]
	delete(t.plans, s)
	t.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.buf.Free()
}

// Close frees the tables and staging buffers; a Transforms from
// Open also closes its device.
func (t *Transforms) Close() error {
	t.mu.Lock()
	var errs []error
	for s, p := range t.plans {
		errs = append(errs, p.buf.Free())
		delete(t.plans, s)
	}
	t.mu.Unlock()
	t.hostMu.Lock()
	for i, st := range t.stages {
		if st != nil {
			errs = append(errs, st.free())
			t.stages[i] = nil
		}
	}
	t.hostMu.Unlock()
	if t.owns {
		errs = append(errs, t.d.Close())
	}
	return errors.Join(errs...)
}

// TableBytes returns the device memory held by the tables of all prepared
// subspaces.
func (t *Transforms) TableBytes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, p := range t.plans {
		n += p.bytes()
	}
	return n
}

func (t *Transforms) plan(s *domain.Subspace) (*fftPlan, error) {
	if s == nil {
		return nil, fmt.Errorf("additive: nil subspace: %w", domain.ErrMismatch)
	}
	if s.Dim() > domain.MaxTransformDim {
		return nil, fmt.Errorf("additive: %d-dimensional subspace, at most %d: %w", s.Dim(), domain.MaxTransformDim, domain.ErrDim)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.plans[s]; p != nil {
		return p, nil
	}
	p := newFFTPlan(s)
	if err := p.upload(t.d); err != nil {
		return nil, err
	}
	t.plans[s] = p
	return p, nil
}

// checkCols checks a buffer of columns of n elements and returns how many.
func (t *Transforms) checkCols(op, name string, b *gpu.Buffer[gf64.Element], n int) (int, error) {
	if b == nil {
		return 0, fmt.Errorf("additive: %s: %s is nil", op, name)
	}
	if b.Device() != t.d {
		return 0, fmt.Errorf("additive: %s: %s belongs to another device", op, name)
	}
	if b.Freed() {
		return 0, fmt.Errorf("additive: %s: %s freed: %w", op, name, gpu.ErrClosed)
	}
	if b.Len() == 0 || b.Len()%n != 0 {
		return 0, fmt.Errorf("additive: %s: %s has %d elements, not a positive multiple of the column length %d: %w",
			op, name, b.Len(), n, gpu.ErrLength)
	}
	return b.Len() / n, nil
}

// The in-place transforms. Each takes a buffer holding one or more columns
// of s.Size() elements back to back (column i is elements [i·Size,
// (i+1)·Size)) and transforms every column in place with one launch per
// pass. With a stream they submit the work and return; with a nil stream
// they wait for it.

// FFT is domain's Subspace.FFT on every column of a: monomial coefficients
// in, evaluations over s (subspace order) out.
func (t *Transforms) FFT(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("FFT", st, s, a, func(p *fftPlan, m int) []fftOp {
		return append(toNovelOps(p, m), fwdOps(p, m)...)
	})
}

// IFFT is domain's Subspace.IFFT on every column of a.
func (t *Transforms) IFFT(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("IFFT", st, s, a, func(p *fftPlan, m int) []fftOp {
		return append(invOps(p, m), fromNovelOps(p, m)...)
	})
}

// NovelFFT is domain's Subspace.NovelFFT on every column of a: novel-basis
// coefficients in, evaluations out.
func (t *Transforms) NovelFFT(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("NovelFFT", st, s, a, fwdOps)
}

// NovelIFFT is domain's Subspace.NovelIFFT on every column of a.
func (t *Transforms) NovelIFFT(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("NovelIFFT", st, s, a, invOps)
}

// MonomialToNovel is domain's Subspace.MonomialToNovel on every column of a.
func (t *Transforms) MonomialToNovel(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("MonomialToNovel", st, s, a, toNovelOps)
}

// NovelToMonomial is domain's Subspace.NovelToMonomial on every column of a.
func (t *Transforms) NovelToMonomial(st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error {
	return t.inPlace("NovelToMonomial", st, s, a, fromNovelOps)
}

func (t *Transforms) inPlace(op string, st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element], build func(*fftPlan, int) []fftOp) error {
	p, err := t.plan(s)
	if err != nil {
		return fmt.Errorf("additive: %s: %w", op, err)
	}
	m := p.m
	n := 1 << uint(m)
	cols, err := t.checkCols(op, "buffer", a, n)
	if err != nil {
		return err
	}
	passes := planFFT(build(p, m), m, defaultShape)
	if len(passes) == 0 {
		return nil
	}
	args := passArgs{in: uint64(a.Ptr()), out: uint64(a.Ptr()), inStride: uint64(n), outStride: uint64(n), inMask: ^uint64(0)}
	return t.d.Do(st, func(q *gpu.Queue) error {
		return t.submit(q, passes, m, args, cols)
	})
}

// LDE is domain.LDE on every column: src holds columns of from.Size()
// evaluations over from, dst as many columns of to.Size() elements, which
// get the evaluations over to of the same polynomials. src is not modified
// and must not overlap dst. The work needs from.Size()·8 bytes of device
// scratch per column unless from has dimension 0 (stream-ordered, freed when
// done).
func (t *Transforms) LDE(st *gpu.Stream, dst, src *gpu.Buffer[gf64.Element], from, to *domain.Subspace) error {
	if from == nil || to == nil {
		return fmt.Errorf("additive: LDE with a nil subspace: %w", domain.ErrMismatch)
	}
	k, n := from.Dim(), to.Dim()
	if k > n {
		return fmt.Errorf("additive: LDE from dimension %d to smaller dimension %d: %w", k, n, domain.ErrMismatch)
	}
	pf, err := t.plan(from)
	if err != nil {
		return fmt.Errorf("additive: LDE: %w", err)
	}
	pt, err := t.plan(to)
	if err != nil {
		return fmt.Errorf("additive: LDE: %w", err)
	}
	cols, err := t.checkCols("LDE", "src", src, 1<<uint(k))
	if err != nil {
		return err
	}
	if _, err := t.checkCols("LDE", "dst", dst, 1<<uint(n)); err != nil {
		return err
	}
	if dst.Len() != cols<<uint(n) {
		return fmt.Errorf("additive: LDE: %d source columns need %d destination elements, dst has %d: %w",
			cols, cols<<uint(n), dst.Len(), gpu.ErrLength)
	}
	if overlaps(uint64(src.Ptr()), src.Bytes(), uint64(dst.Ptr()), dst.Bytes()) {
		return fmt.Errorf("additive: LDE: src and dst: %w", ErrOverlap)
	}
	return t.ldeAt(st, uint64(dst.Ptr()), uint64(src.Ptr()), pf, pt, from, to, cols)
}

// ldeAt queues the LDE of cols columns at device address src to dst (the
// checked arguments of LDE).
func (t *Transforms) ldeAt(st *gpu.Stream, dst, src uint64, pf, pt *fftPlan, from, to *domain.Subspace, cols int) error {
	stage1, stage2 := ldeOps(pf, pt, from, to)
	return t.d.Do(st, func(q *gpu.Queue) error {
		return t.lde(q, dst, src, stage1, stage2, pf.m, pt.m, cols)
	})
}

// ldeOps returns the steps on the 2^k source columns (to the novel
// coefficients of to's first k basis elements) and on the 2^n target
// columns (the forward network on each coset).
func ldeOps(pf, pt *fftPlan, from, to *domain.Subspace) (stage1, stage2 []fftOp) {
	k := pf.m
	stage1 = invOps(pf, k)
	if !basisPrefix(from, to) {
		stage1 = append(stage1, fromNovelOps(pf, k)...)
		stage1 = append(stage1, toNovelOps(pt, k)...)
	}
	return stage1, fwdOps(pt, k)
}

// lde queues the LDE's passes (inside a device call).
func (t *Transforms) lde(q *gpu.Queue, dst, src uint64, stage1, stage2 []fftOp, k, n, cols int) error {
	coef := src
	body := func() error {
		p2 := planFFT(stage2, n, defaultShape)
		if len(p2) == 0 {
			p2 = []fftPass{{t: lowTile(n), sh: defaultShape}}
		}
		return t.submit(q, p2, n, passArgs{in: coef, out: dst, inStride: 1 << uint(k),
			outStride: 1 << uint(n), inMask: 1<<uint(k) - 1}, cols)
	}
	if len(stage1) == 0 {
		return body()
	}
	size := cols << uint(k+3)
	err := q.Scratch(size, func(p gpu.DevicePtr) error {
		coef = uint64(p)
		p1 := planFFT(stage1, k, defaultShape)
		if err := t.submit(q, p1, k, passArgs{in: src, out: uint64(p), inStride: 1 << uint(k),
			outStride: 1 << uint(k), inMask: ^uint64(0)}, cols); err != nil {
			return err
		}
		return body()
	})
	if errors.Is(err, gpu.ErrOutOfMemory) {
		return fmt.Errorf("additive: LDE needs %d bytes of device scratch (%d columns of 2^%d): %w", size, cols, k, err)
	}
	return err
}

// submit queues the passes, for cols columns of 2^M output elements; the
// first pass reads as a says, the others work in place on a.out. It runs
// inside a device call.
func (t *Transforms) submit(q *gpu.Queue, passes []fftPass, M int, a passArgs, cols int) error {
	for i := range passes {
		ps := &passes[i]
		if i > 0 {
			a = passArgs{in: a.out, out: a.out, inStride: a.outStride, outStride: a.outStride, inMask: ^uint64(0)}
		}
		grid := 1 << uint(M-ps.t.T)
		for c0 := 0; c0 < cols; c0 += maxGridY {
			nc := min(cols-c0, maxGridY)
			ac := a
			ac.in += 8 * a.inStride * uint64(c0)
			ac.out += 8 * a.outStride * uint64(c0)
			if err := q.Launch(t.fn, gpu.Dim3{X: grid, Y: nc}, gpu.Dim3{X: fftBlock}, ps.sharedBytes(t.tabLimit), ps.encode(ac, t.tabLimit)); err != nil {
				return fmt.Errorf("additive: %w", err)
			}
		}
	}
	return nil
}

const maxGridY = 65535

func overlaps(a uint64, na int, b uint64, nb int) bool {
	return na > 0 && nb > 0 && a < b+uint64(nb) && b < a+uint64(na)
}

// basisPrefix reports whether to's basis starts with from's basis.
func basisPrefix(from, to *domain.Subspace) bool {
	fb, tb := from.Basis(), to.Basis()
	if len(fb) > len(tb) {
		return false
	}
	for i, b := range fb {
		if tb[i] != b {
			return false
		}
	}
	return true
}

// DeviceBytesLDE returns the device memory an LDE of cols columns from
// dimension k to dimension n uses: the source and destination buffers and
// the scratch, not counting the subspace tables.
func DeviceBytesLDE(k, n, cols int) int {
	return cols * (2<<uint(k) + 1<<uint(n)) * 8
}
