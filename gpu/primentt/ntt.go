package primentt

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/gpu"
)

// Pass flags, as in the kernels (cuda/ntt_prime.cu).
const (
	fDIT       = 1
	fPreCoset  = 2
	fPostConst = 4
	fPostCoset = 8
	fIndexRev  = 16
	fCanon     = 64  // FS64: store canonical representatives (a transform's last pass)
	fPDLLate   = 128 // let the next kernel start after this one's last stores, not at its start
	fNatOut    = 256 // four-step passes: the bottom DIF pass writes natural order (out of place)
	fTwistTab  = 512 // ntt_<name>_tw_fs* (31-bit fields): rt is the pass's twist table (twistTable)
)

// NTT runs gnark-crypto-compatible NTTs of one domain on device
// buffers: its twiddles, coset powers and 1/n live on the device from
// construction to Close. A buffer of k·n elements holds k columns of n
// elements, one after the other, transformed in one launch sequence. It is
// safe for concurrent use (calls on the same buffer must be ordered by the
// caller, through one stream or events).
type NTT[E Element] struct {
	d    *gpu.Device
	k    *nttKernels
	logn int
	tabH int // split of the coset power tables

	tw, twInv          *gpu.Buffer[E] // per-position twiddles, the small end (twiddleTable, twPtr)
	cosetFwd, cosetInv *gpu.Buffer[E] // lo/hi power tables; cosetInv carries 1/n
	rt, rtInv          *gpu.Buffer[E] // lo/hi power tables of ω and 1/ω
	nInv               *gpu.Buffer[E]
	fsPlan             []nttPass      // four-step passes (above one tile)
	fsWide             []nttPass      // the passes for few columns (planWide), nil where fsPlan does
	fsLone             []nttPass      // the passes for few columns where one was measured (lonePlans), else nil
	loneLate           bool           // fsLone's passes let the next kernel start at their end (lateTrigger)
	fsLoneNat          []nttPass      // natural order's passes where fsLone's are not its fastest (loneNatPlans), else nil
	stdBlocks          int            // blocks per column of fsPlan's narrowest pass (1 for one tile)
	shoup, shoupInv    *gpu.Buffer[E] // BN254 four-step constants (bn254ShoupTable)
	shoupNInv          *gpu.Buffer[E] // BN254 four-step passes: 1/n as a Shoup pair (bn254Shoup.pair), for fPostConst
	shoupK             int
	twist, twistInv    *gpu.Buffer[E]   // 31-bit fields: the passes' twist tables one after the other (twistTable), nil where none
	twistOff           map[twistKey]int // a pass's table's offset in twist and twistInv
	sh8, sh8Inv        int              // Goldilocks: ω^(n/8) = 2^sh8, ω^(−n/8) = 2^sh8Inv (−1: another root, or n < 8)
	closeOnce          sync.Once
	field              string

	gmu    sync.Mutex
	graphs map[graphKey]*graphEntry // captured transforms (graph.go)
}

// NewNTT uploads the tables of domain, a gnark-crypto *fft.Domain of
// E's field (ecc/bn254/fr/fft for fr.Element, field/goldilocks/fft for
// goldilocks.Element, ...). A domain of another field returns an error
// wrapping ErrField; a nil, inconsistent or too large one ErrDomain.
func NewNTT[E Element](d *gpu.Device, domain any) (*NTT[E], error) {
	var z E
	var t any
	var err error
	switch any(z).(type) {
	case fr.Element:
		t, err = newNTT[fr.Element](d, domain, bn254Dom)
	case goldilocks.Element:
		t, err = newNTT[goldilocks.Element](d, domain, goldilocksDom)
	case babybear.Element:
		t, err = newNTT[babybear.Element](d, domain, babybearDom)
	case koalabear.Element:
		t, err = newNTT[koalabear.Element](d, domain, koalabearDom)
	}
	if err != nil {
		return nil, err
	}
	return t.(*NTT[E]), nil
}

// Len returns n, the domain's cardinality: the length of one column.
func (t *NTT[E]) Len() int { return 1 << t.logn }

// Field returns "bn254", "goldilocks", "babybear" or "koalabear".
func (t *NTT[E]) Field() string { return t.field }

// Close frees the device tables. Closing twice is harmless.
func (t *NTT[E]) Close() error {
	var err error
	t.closeOnce.Do(func() {
		err = t.closeGraphs()
		for _, b := range []*gpu.Buffer[E]{t.tw, t.twInv, t.cosetFwd, t.cosetInv, t.rt, t.rtInv, t.nInv, t.shoup, t.shoupInv, t.shoupNInv, t.twist, t.twistInv} {
			if b == nil {
				continue
			}
			if e := b.Free(); e != nil && err == nil {
				err = e
			}
		}
	})
	return err
}

// FFT evaluates each column (coefficients) on the subgroup ⟨ω⟩ in place:
// gnark-crypto's Domain.FFT(col, fft.DIF) for DIF, (col, fft.DIT) for
// DIT. With a nil stream it waits for the work. Natural order above one
// tile takes as much temporary device memory as data holds, for the
// duration of the call in stream order, and runs in place with a bit
// reversal where there is none to be had (the other transforms alike).
func (t *NTT[E]) FFT(s *gpu.Stream, data *gpu.Buffer[E], o Order) error {
	return t.run("FFT", s, data, o, false, false)
}

// FFTInverse interpolates each column from evaluations on ⟨ω⟩ in place:
// gnark-crypto's Domain.FFTInverse.
func (t *NTT[E]) FFTInverse(s *gpu.Stream, data *gpu.Buffer[E], o Order) error {
	return t.run("FFTInverse", s, data, o, true, false)
}

// CosetFFT evaluates each column on the coset g·⟨ω⟩, g the domain's
// FrMultiplicativeGen: gnark-crypto's Domain.FFT(col, dec, fft.OnCoset()).
func (t *NTT[E]) CosetFFT(s *gpu.Stream, data *gpu.Buffer[E], o Order) error {
	return t.run("CosetFFT", s, data, o, false, true)
}

// CosetFFTInverse interpolates each column from evaluations on g·⟨ω⟩:
// gnark-crypto's Domain.FFTInverse(col, dec, fft.OnCoset()).
func (t *NTT[E]) CosetFFTInverse(s *gpu.Stream, data *gpu.Buffer[E], o Order) error {
	return t.run("CosetFFTInverse", s, data, o, true, true)
}

// columns checks a buffer against the domain and returns its column count.
func (t *NTT[E]) columns(op string, b *gpu.Buffer[E]) (int, error) {
	if err := checkBuffers(t.d, op, b); err != nil {
		return 0, err
	}
	n := 1 << t.logn
	if b.Len() == 0 || b.Len()%n != 0 {
		return 0, fmt.Errorf("primentt: %s: buffer of %d elements is not a whole number of %s columns of %d: %w",
			op, b.Len(), t.field, n, gpu.ErrLength)
	}
	return b.Len() / n, nil
}

func (t *NTT[E]) run(op string, s *gpu.Stream, data *gpu.Buffer[E], o Order, inverse, coset bool) error {
	if o < DIF || o > Natural {
		return fmt.Errorf("primentt: %s: unknown order %v", op, o)
	}
	cols, err := t.columns(op, data)
	if err != nil {
		return err
	}
	if t.tw.Freed() {
		return fmt.Errorf("primentt: %s: NTT closed: %w", op, gpu.ErrClosed)
	}
	ptr, n := uint64(data.Ptr()), uint64(1)<<t.logn
	if s == nil {
		return t.d.Do(s, func(q *gpu.Queue) error { return t.launch(q, ptr, n, cols, o, inverse, coset) })
	}
	key := graphKey{ptr: ptr, cols: cols, o: o, inverse: inverse, coset: coset, noReg: t.k.noReg}
	var evicted []*gpu.Graph
	err = t.d.Do(s, func(q *gpu.Queue) error {
		g, ev := t.graph(q, key, func(q *gpu.Queue) error { return t.launch(q, ptr, n, cols, o, inverse, coset) })
		evicted = ev
		if g != nil {
			return q.LaunchGraph(g)
		}
		return t.launch(q, ptr, n, cols, o, inverse, coset)
	})
	for _, g := range evicted {
		if e := g.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// launch queues one transform of cols columns at ptr, colStride elements
// apart (inside a device call): one pass for a transform of one tile, the
// four-step passes above.
func (t *NTT[E]) launch(q *gpu.Queue, ptr, colStride uint64, cols int, o Order, inverse, coset bool) error {
	if t.logn == 0 {
		return nil // every transform of one element is the identity
	}
	dit := o == DIT
	if plan, late := t.planFor(cols, o); plan != nil {
		if np := t.natPlan(plan, inverse); o == Natural && np != nil {
			done, err := t.launchNatural(q, np, ptr, colStride, cols, inverse, coset, late || pdlLate)
			if done || err != nil {
				return err
			}
		}
		if err := t.launchFS(q, plan, ptr, ptr, colStride, cols, dit, inverse, coset, late || pdlLate, false); err != nil {
			return err
		}
	} else if err := t.launchTile(q, ptr, colStride, cols, dit, inverse, coset); err != nil {
		return err
	}
	if o == Natural {
		return t.bitrevOn(q, ptr, colStride, cols)
	}
	return nil
}

// Natural order above one tile runs the DIF passes out of place with the
// last one writing natural order (launchNatural), where the bit reversal
// after the passes in place is not faster. Measured on the H100
// (TestNaturalPaths, forward, one column; BENCHMARKS.md):
//   - natBitrev names the sizes where the bit reversal was faster:
//     BabyBear 2^22, Goldilocks 2^19 and BN254 2^14 (BabyBear 2^18 and
//     2^20 went out of place again with the plans of the narrow kernels:
//     8.8 against 9.6 us, 17.3 against 19.3). BN254 2^15 stays out of
//     place (19.9 against 23.1 us with its three-pass plan and the bit
//     reversal), and BN254 2^19 runs out of place in a plan of its own
//     (loneNatPlans). Every other
//     size from 2^13 to 2^26 was faster without the bit reversal, by up
//     to 19% (BabyBear 2^26: 1.035 -> 0.843 ms; BN254 2^16: 36.5 -> 25.2
//     us);
//   - the last pass writes runs of 2^logc consecutive outputs, one per
//     group of its tile; from 2^natWideMin elements its groups are widened
//     to natRun bytes where the launch bounds allow (BabyBear 2^25 in runs
//     of 32 B: 0.537 ms, of 128 B: 0.419; Goldilocks 2^25 of 32 B: 1.132,
//     64 B: 0.965, 128 B: 1.006), below it the plan's groups stay (more
//     blocks: BabyBear 2^16 in runs of 32 B 7.9 us, of 128 B 9.9 us).
var (
	natBitrev  = map[string]map[int]bool{"fs31": {22: true}, "goldilocks": {19: true}, "bn254": {14: true}}
	natRun     = map[string]int{"fs31": 128, "goldilocks": 64, "bn254": 128}
	natWideMin = 20
)

// natRunTest, where nonzero, replaces natRun and natWideMin and takes
// every size out of natBitrev (TestNaturalPaths): the runs in bytes, or
// −1 for the plan's groups at every size. natForce takes every size out of
// natBitrev alone (TestPlanSearch).
var (
	natRunTest int
	natForce   bool
)

// natPlan returns plan with its bottom pass as launchNatural runs it, or
// nil where the passes run in place and the bit reversal follows (a plan
// of one pass, natBitrev, noNatOut, no out-of-place kernels for the
// direction's tables).
func (t *NTT[E]) natPlan(plan []nttPass, inverse bool) []nttPass {
	key := t.k.info.fsKernels()
	if len(plan) < 2 || noNatOut || (natRunTest == 0 && !natForce && natBitrev[key][t.logn]) {
		return nil
	}
	for _, p := range []nttPass{plan[0], plan[len(plan)-1]} { // the passes out of place
		if t.k.fsKernel(p, false, true, t.sh8For(inverse)) == nil {
			return nil // Goldilocks on other roots of unity than gnark-crypto's
		}
	}
	run, wideMin := natRun[key], natWideMin
	if natRunTest != 0 {
		run, wideMin = max(natRunTest, 0), 0
	}
	out := slices.Clone(plan)
	p := &out[0] // the bottom pass, the last one of a DIF transform
	if t.logn >= wideMin && run > 0 {
		es := t.k.elemSize()
		maxc := min(t.logn-p.nst, bits.Len(uint(t.k.info.fsMaxThreads))-1+p.rl-p.nst)
		for c := max(p.logc, min(bits.Len(uint(run/es))-1, maxc)); c > p.logc; c-- {
			if w := (nttPass{p.lo, p.nst, c, p.rl}); fsShared(w, t.k.info, es) <= t.k.fsSharedLimit(p.nst) {
				p.logc = c // within the shared memory the kernel was given
				break
			}
		}
	}
	return out
}

// launchNatural queues a transform in natural order without a bit
// reversal: the DIF passes out of place through cols columns of temporary
// device memory (gpu.Queue.Scratch), the first reading the data and the
// last writing it back in natural order (fNatOut). It reports false,
// having queued nothing, where the temporary memory is not to be had
// (gpu.ErrOutOfMemory): the caller then runs the passes in place and the
// bit reversal.
func (t *NTT[E]) launchNatural(q *gpu.Queue, plan []nttPass, ptr, colStride uint64, cols int, inverse, coset, late bool) (bool, error) {
	queued := false
	err := q.Scratch(int(uint64(cols)*colStride*uint64(t.k.elemSize())), func(tmp gpu.DevicePtr) error {
		queued = true
		return t.launchFS(q, plan, ptr, uint64(tmp), colStride, cols, false, inverse, coset, late, true)
	})
	if !queued && errors.Is(err, gpu.ErrOutOfMemory) {
		return false, nil
	}
	return true, err
}

// twPtr returns the per-position twiddle table as the kernels index it,
// bit p's twiddles at n − 2^(p+1): the address of its small end
// (twiddleTable) less the n − 2^b entries not uploaded, which no kernel
// reads (b = min(logn, twiddleBits); 0 at one tile and below, where the
// table is whole). The kernels add their index to it in 64-bit
// arithmetic, so only the addresses they read need be in the buffer.
func (t *NTT[E]) twPtr(inverse bool) gpu.DevicePtr {
	b := t.tw
	if inverse {
		b = t.twInv
	}
	skip := uint64(1)<<t.logn - uint64(1)<<min(t.logn, twiddleBits)
	return b.Ptr() - gpu.DevicePtr(skip*uint64(t.k.elemSize()))
}

// launchTile queues the one pass of a transform of at most one tile: the
// coset powers on its loads, 1/n or the inverse coset powers on its stores.
func (t *NTT[E]) launchTile(q *gpu.Queue, ptr, colStride uint64, cols int, dit, inverse, coset bool) error {
	tw := t.twPtr(inverse)
	flags := uint32(0)
	if dit {
		flags |= fDIT
	}
	if coset && !inverse {
		flags |= fPreCoset
		if dit {
			flags |= fIndexRev // bit-reversed input
		}
	}
	post := t.nInv.Ptr()
	if inverse {
		if coset {
			flags |= fPostCoset
			post = t.cosetInv.Ptr()
			if !dit {
				flags |= fIndexRev // bit-reversed output
			}
		} else {
			flags |= fPostConst
		}
	}
	if pdlLate {
		flags |= fPDLLate
	}
	es := t.k.elemSize()
	n := 1 << t.logn
	f, block := t.k.pass, t.k.info.block
	if r := 1 << t.k.info.rlog; t.k.info.rlog > 0 && t.logn >= t.k.info.rlog && n/r >= 32 && !t.k.noReg {
		// registers: R elements per thread, up to rlog stages per exchange
		f, block = t.k.passReg, n/r
	}
	shared := (n + 1) * es
	for c0 := 0; c0 < cols; c0 += maxGridY {
		cn := min(cols-c0, maxGridY)
		if err := launchNTT(q, f, gpu.Dim3{X: 1, Y: cn}, gpu.Dim3{X: block}, shared,
			gpu.DevicePtr(ptr+uint64(c0)*colStride*uint64(es)), colStride, tw, t.cosetFwd.Ptr(), post,
			uint32(t.tabH), uint32(t.logn), uint32(0), uint32(t.logn), uint32(0), flags); err != nil {
			return err
		}
	}
	return nil
}

// maxGridY is the most columns one launch takes (the grid's y dimension).
const maxGridY = 65535

// fsLaunch is one four-step pass launch: its pass, flags and shape.
type fsLaunch struct {
	p             nttPass
	flags         uint32
	blocks, block int // per column
	shared        int
}

// fsLaunches returns the four-step passes of one transform in launch order
// (DIF top pass first, DIT bottom first) with their flags: the coset powers
// on the first pass's loads, 1/n or the inverse coset powers on the last
// pass's stores, as in the radix-2 passes; nat (DIF only) makes the last
// pass write natural order, where the inverse coset powers go by the
// natural index.
func fsLaunches(plan []nttPass, info nttFieldInfo, es int, dit, inverse, coset, late, nat bool) []fsLaunch {
	passes := slices.Clone(plan)
	if !dit {
		slices.Reverse(passes)
	}
	out := make([]fsLaunch, len(passes))
	for pi, p := range passes {
		flags := uint32(0)
		if dit {
			flags |= fDIT
		}
		if pi == 0 && coset && !inverse {
			flags |= fPreCoset
			if dit {
				flags |= fIndexRev
			}
		}
		if pi == len(passes)-1 {
			flags |= fCanon
		}
		if late {
			flags |= fPDLLate
		}
		if pi == len(passes)-1 && inverse {
			if coset {
				flags |= fPostCoset
				if !dit && !nat {
					flags |= fIndexRev
				}
			} else {
				flags |= fPostConst
			}
		}
		if pi == len(passes)-1 && nat {
			flags |= fNatOut
		}
		tile := 1 << (p.nst + p.logc)
		out[pi] = fsLaunch{p: p, flags: flags, block: tile >> p.rl, shared: fsShared(p, info, es)}
	}
	return out
}

// planFor returns the four-step passes a transform of cols columns runs:
// for one column, or where the columns alone leave multiprocessors idle
// under fsPlan (or its one-tile pass), fsLone where a plan was measured for
// the size and else fsWide; fsPlan for more columns; nil for the one-tile
// pass. The passes of a plan serve every direction, order and coset (the
// DIT transform runs them bottom first); natural order takes fsLoneNat
// instead of fsLone where one was measured. late says whether its passes
// let the next kernel start only at their end (lateTrigger).
func (t *NTT[E]) planFor(cols int, o Order) (plan []nttPass, late bool) {
	if t.lone(cols) {
		if o == Natural && t.fsLoneNat != nil {
			return t.fsLoneNat, false
		}
		if t.fsLone != nil {
			return t.fsLone, t.loneLate
		}
		if t.fsWide != nil {
			return t.fsWide, false
		}
	}
	return t.fsPlan, false
}

// lone reports whether cols columns take the plans of few columns: one
// column, or columns that leave multiprocessors idle under fsPlan.
func (t *NTT[E]) lone(cols int) bool {
	return cols == 1 || cols*t.stdBlocks < t.d.Info().Multiprocessors
}

// launchFS queues the four-step passes of one transform (inside a device
// call): in place at ptr, or with nat (DIF, natural order out) the first
// pass from ptr to tmp, the others in place in tmp but the last, from tmp
// to ptr (tmp and ptr: cols columns colStride apart).
func (t *NTT[E]) launchFS(q *gpu.Queue, plan []nttPass, ptr, tmp, colStride uint64, cols int, dit, inverse, coset, late, nat bool) error {
	tw, rt := t.twPtr(inverse), t.rt.Ptr()
	if inverse {
		rt = t.rtInv.Ptr()
	}
	es := t.k.elemSize()
	n := 1 << t.logn
	ls := fsLaunches(plan, t.k.info, es, dit, inverse, coset, late, nat)
	twisted := t.twisted(plan)
	for li, l := range ls {
		src, dst := ptr, ptr
		if nat {
			src, dst = tmp, tmp
			if li == 0 {
				src = ptr
			}
			if li == len(ls)-1 {
				dst = ptr
			}
		}
		post := t.nInv.Ptr()
		switch {
		case l.flags&fPostCoset != 0:
			post = t.cosetInv.Ptr()
		case t.shoupNInv != nil:
			post = t.shoupNInv.Ptr() // BN254: 1/n by a Shoup product (ntt_bn254_fs)
		}
		f, prt, flags := t.k.fsKernel(l.p, dit, src != dst, t.sh8For(inverse)), rt, l.flags
		if g := t.splitKernel(l.p, cols); g != nil && src == dst {
			f = g
		}
		if twisted && src == dst && l.p.rl == t.k.info.fsRlog && l.p.nst <= twistMaxNST {
			f = t.k.fs[fsKey{"tw_", false, l.p.nst}]
			if off, ok := t.twistOff[twistKey{l.p.lo, l.p.nst}]; ok {
				tb := t.twist
				if inverse {
					tb = t.twistInv
				}
				prt, flags = tb.Ptr()+gpu.DevicePtr(off*es), flags|fTwistTab
			}
		}
		if f == nil {
			return fmt.Errorf("primentt: %s NTT: no four-step pass of %d bits and 2^%d elements per thread (%d..%d bits are loaded; out of place: %v)", t.k.info.name, l.p.nst, l.p.rl, t.k.info.fsMinNST, t.k.info.fsMaxNST, src != dst)
		}
		var extra []any
		if t.shoup != nil { // BN254
			pw := t.shoup.Ptr()
			if inverse {
				pw = t.shoupInv.Ptr()
			}
			extra = []any{pw, uint32(t.shoupK)}
		}
		for c0 := 0; c0 < cols; c0 += maxGridY {
			cn := min(cols-c0, maxGridY)
			off := uint64(c0) * colStride * uint64(es)
			args := []any{gpu.DevicePtr(dst + off)}
			if src != dst { // the out-of-place kernels take the source next
				args = append(args, gpu.DevicePtr(src+off))
			}
			args = append(append(args, colStride, tw, prt, t.cosetFwd.Ptr(), post,
				uint32(t.tabH), uint32(t.rtH()), uint32(t.logn), uint32(l.p.lo), uint32(l.p.logc), flags), extra...)
			if err := launchNTT(q, f, gpu.Dim3{X: n >> (l.p.nst + l.p.logc), Y: cn}, gpu.Dim3{X: l.block}, l.shared, args...); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitSizes names the transforms of a lone column whose passes in place
// of the narrow kernels run in ntt_bn254_r1s_fs* (fsSplit): the same
// passes with the bottom pass and the passes above it compiled apart, as
// the out-of-place kernels have them. H200, BN254 2^13 DIF, three runs
// each (BENCHMARKS.md): forward 12.7–12.9 -> 12.2–12.4 us, inverse
// 13.7–13.9 -> 13.1–13.2 us. As the only kernels of 2^14 (both passes 7
// bits), of 2^17 and of 2^18 (6 bits) they measured 1–4% slower (2^12:
// within 1%), so the sizes that share the narrow kernels keep them.
var splitSizes = map[string]map[int]bool{"bn254": {13: true}}

// splitKernel returns the kernel of a pass in place of p's bits that
// splitSizes names for cols columns, or nil.
func (t *NTT[E]) splitKernel(p nttPass, cols int) *gpu.Function {
	if !splitSizes[t.k.info.name][t.logn] || !t.lone(cols) || p.rl != t.k.info.fsNarrowRL {
		return nil
	}
	return t.k.fs[fsKey{t.k.info.splitKind(), false, p.nst}]
}

// twisted reports whether a pass of plan takes a twist table. Then every
// in-place pass of the kernels' width and up to twistMaxNST bits runs in
// ntt_<name>_tw_fs* (with F_TWIST_TAB where it has a table), so that the
// passes of a size run the same kernel as before the tables: with the
// middle pass in a kernel of its own, in-place DIF transforms measured
// 2-3% slower at 2^23..2^25 on the H200 (the same code, the same tables),
// and the table's path in the kernels of the two-pass transforms slowed
// those (2^12..2^18) by 3-10%.
func (t *NTT[E]) twisted(plan []nttPass) bool {
	for _, p := range plan {
		if _, ok := t.twistOff[twistKey{p.lo, p.nst}]; ok && p.rl == t.k.info.fsRlog {
			return true
		}
	}
	return false
}

// goldilocksSH8 and goldilocksSH8Inv are the 8th roots of unity 2^SH8 that
// ntt_goldilocks_sh_fs* and ntt_goldilocks_shi_fs* are compiled for
// (cuda/ntt_fourstep.cu): ω^(n/8) and ω^(−n/8) of gnark-crypto's Goldilocks
// domains. DIT launches and passes above goldilocksSHMaxNST bits take
// FS64.
const (
	goldilocksSH8      = 120
	goldilocksSH8Inv   = 72 // ω^(−n/8), ntt_goldilocks_shi_fs*
	goldilocksSHMaxNST = 11
)

// goldilocksRoot8 returns w^(2^(logn−3)), the 8th root of unity of a
// domain of 2^logn elements with generator w.
func goldilocksRoot8(w goldilocks.Element, logn int) goldilocks.Element {
	for range logn - 3 {
		w.Square(&w)
	}
	return w
}

// goldilocksPow2Log returns s in [0, 192) with 2^s = w in Goldilocks (2
// has order 192), or −1.
func goldilocksPow2Log(w goldilocks.Element) int {
	var x, two goldilocks.Element
	x.SetOne()
	two.SetUint64(2)
	for s := range 192 {
		if x.Equal(&w) {
			return s
		}
		x.Mul(&x, &two)
	}
	return -1
}

// sh8For returns the 8th root of unity 2^sh8 of the direction's tables
// (−1: another root).
func (t *NTT[E]) sh8For(inverse bool) int {
	if inverse {
		return t.sh8Inv
	}
	return t.sh8
}

// rtH is the split of the ω power tables: lo has 2^rtH entries.
func (t *NTT[E]) rtH() int { return t.tabH }

// bitrevOn queues the bit-reversal permutation of cols columns: in tiles
// through shared memory (ntt_<field>_bitrev_tiled, rows of 2^bitrevB
// consecutive elements read and written, at about the copy rate) for columns
// of 2^(2·bitrevB) elements and more, element by element below.
func (t *NTT[E]) bitrevOn(q *gpu.Queue, ptr, colStride uint64, cols int) error {
	n := 1 << t.logn
	es := uint64(t.k.elemSize())
	tb, ft := t.k.info.bitrevB, t.k.bitrevT
	if t.k.bitrevT4 != nil && t.logn < t.k.info.bitrevSmallMax {
		tb, ft = t.k.info.bitrevSmallB, t.k.bitrevT4
	}
	f, g, block, shared := t.k.bitrev, min((n+255)/256, max(1, t.d.Info().Multiprocessors*16)), 256, 0
	if t.logn >= 2*tb {
		f, block = ft, 256
		g = min(1<<(t.logn-2*tb), max(1, t.d.Info().Multiprocessors*16))
		shared = bitrevShared(tb, int(es))
	}
	for c0 := 0; c0 < cols; c0 += maxGridY {
		cn := min(cols-c0, maxGridY)
		if err := launchNTT(q, f, gpu.Dim3{X: g, Y: cn}, gpu.Dim3{X: block}, shared,
			gpu.DevicePtr(ptr+uint64(c0)*colStride*es), colStride, uint32(t.logn)); err != nil {
			return err
		}
	}
	return nil
}

// bitrevShared is ntt_bitrev_tiled's shared memory: two tiles of 2^tb rows
// of 2^tb + 1 elements.
func bitrevShared(tb, es int) int { return 2 * (1 << tb) * ((1 << tb) + 1) * es }

// noDependent makes launchNTT launch as usual, pdlLate makes every pass
// trigger the next kernel at its end (tests: to time the programmatic
// dependent launches against ordinary ones and the trigger's places);
// noNatOut makes natural order run the passes in place and the bit
// reversal, as where launchNatural gets no temporary memory (tests).
var noDependent, pdlLate, noNatOut bool

// launchNTT queues a kernel of the NTT programs, every one of which waits
// for the kernel ahead of it before touching memory (pdl_begin, pdl_wait in
// cuda/ntt_fields.cu), as a programmatic dependent launch: on Hopper its
// blocks start while the kernel ahead finishes (the next pass of a
// transform, the bit reversal, the next transform), which hides the gap
// between dependent launches.
func launchNTT(q *gpu.Queue, f *gpu.Function, grid, block gpu.Dim3, shared int, args ...any) error {
	if noDependent {
		return q.Launch(f, grid, block, shared, args...)
	}
	return q.LaunchDependent(f, grid, block, shared, args...)
}
