package ntt64

import "fmt"

// Extender runs low-degree extensions from a small plan of n points to a
// large plan of N = n·2^logB points: from the n evaluations of a polynomial
// p of degree < n on the subgroup ⟨ω_n⟩ (natural order) to its N evaluations
// on the large plan's coset g·⟨ω_N⟩ (natural order), g the large plan's
// shift. The result is the large plan's forward coset transform (DIT, the
// input bit-reversed) of p's coefficients zero-padded to N, computed with
// less work:
//
//   - the small inverse transform (DIF: natural in, bit-reversed
//     coefficients out) multiplies its output by n^-1·g^rev(t) instead of
//     n^-1, so the coset factors cost no pass over N elements;
//   - in bit-reversed order over log N bits the zero-padded coefficients
//     sit at multiples of 2^logB, so the first logB DIT stages only copy
//     each coefficient over its group of 2^logB: the extension fills each
//     block from the coefficients (replicate) and starts at stage logB.
//
// An Extender is immutable and safe for concurrent use.
type Extender struct {
	small, large *Plan
	logB         int
	post         []uint64 // n^-1·g^rev_n(t)
}

// NewExtender returns the extension from small to large; large must be 2 to
// 16 times small's size.
func NewExtender(small, large *Plan) (*Extender, error) {
	logB := large.logN - small.logN
	if logB < 1 || logB > 4 {
		return nil, fmt.Errorf("%w: extension from 2^%d to 2^%d points, want a blowup of 2 to 16", ErrPlan, small.logN, large.logN)
	}
	post := make([]uint64, small.n)
	expTable(post, large.shift, small.nInv)
	bitReverse(post)
	return &Extender{small: small, large: large, logB: logB, post: post}, nil
}

// Extend computes the extension in place: on input a[N−n:] (the last n
// entries of a, len(a) = N) holds the n evaluations; on output a holds the
// N evaluations. Values are canonical and may carry a common factor
// (Montgomery form), as for Plan.Transform.
func (x *Extender) Extend(a []uint64, tasks int) {
	bigN, n := x.large.n, x.small.n
	if len(a) != bigN {
		panic(fmt.Sprintf("ntt64: Extend of %d elements with a plan for %d", len(a), bigN))
	}
	ks := k
	if bigN < 1<<parallelMinLog {
		tasks = 1
	}
	src := a[bigN-n:]
	smallKs := ks
	if n < 8 {
		smallKs = &genericKernels
	}
	x.small.dif(smallKs, src, &x.small.inv, nil, x.post, 1, tasks)
	if tasks > 1 {
		// The blocks run out of order: give them a copy of the
		// coefficients, which the first blocks would overwrite.
		src = append([]uint64(nil), src...)
	}
	if bigN < 8 {
		ks = &genericKernels
	}
	x.large.ditSpread(ks, a, src, x.logB, tasks)
}

// ditSpread runs the decimation-in-time stages on a block a whose input is
// src spread with stride 2^logB (zeros between): blocks that fit in L1 fill
// themselves from src and start at stage logB. With one task the blocks run
// in order, so src may be the end of the whole array: a block only writes
// where the blocks before it read.
func (p *Plan) ditSpread(ks *kernelSet, a, src []uint64, logB, tasks int) {
	n := len(a)
	if n <= 1<<p.leafLog {
		ditLeafSpread(ks, a, src, &p.fwd, logB)
		return
	}
	q := n / 4
	qs := q >> logB
	if tasks <= 1 {
		for i := range 4 {
			p.ditSpread(ks, a[i*q:(i+1)*q], src[i*qs:(i+1)*qs], logB, 1)
		}
		ditTop(ks, a, &p.fwd, nil, 0, q)
		return
	}
	par4(tasks, func(i, t int) { p.ditSpread(ks, a[i*q:(i+1)*q], src[i*qs:(i+1)*qs], logB, t) })
	parRange(q, tasks, func(j0, j1 int) { ditTop(ks, a, &p.fwd, nil, j0, j1) })
}

// ditLeafSpread fills a from src (each value 2^logB times) and runs the DIT
// stages from half-size 2^logB up.
//
// src may overlap a's end: in the in-order run of ditSpread a leaf of L
// elements finds its L/B values (B = 2^logB) at least L − L/B elements past
// its start, and replicate, which writes in increasing order and reads each
// value before the store that covers it, then never overwrites a value it
// has still to read: store i ends at (i+1)·8 elements, and the values it has
// not read start at L − L/B + (i+1)·8/B or later (B ≤ 8; (i+1)·16 and
// L − L/16 + i + 1 for B = 16).
func ditLeafSpread(ks *kernelSet, a, src []uint64, tw *twiddleSet, logB int) {
	n := len(a)
	ks.replicate(a, src, logB)
	if n < 8 {
		for m := 1 << logB; m < n; m *= 2 {
			ks.ditRadix2(a, m, tw.r2)
		}
		return
	}
	if logB < 3 {
		ks.ditHead(a, tw.r2, logB)
	}
	m := max(8, 1<<logB)
	for ; 4*m <= n; m *= 4 {
		ks.ditRadix4(a, m, 0, m, tw.r2, tw.r3)
	}
	if m < n {
		ks.ditRadix2(a, m, tw.r2)
	}
}
