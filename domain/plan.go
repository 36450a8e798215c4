package domain

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Tuning constants of the transforms.
const (
	// chunkLog: the levels of the butterfly network whose blocks are smaller
	// than 2^chunkLog elements run chunk by chunk, with per-subspace tables
	// for the twiddles inside one chunk.
	chunkLog = 10
	chunk    = 1 << chunkLog
	// smallLevels: network levels r < smallLevels (pairs closer than
	// 2^smallLevels) gather their operands and use one vector multiplication
	// per chunk instead of a call per block.
	smallLevels = 3
	// twistRunLog: the twist of depth r scales runs of 2^r equal factors;
	// runs shorter than 2^twistRunLog use a table of factors per chunk.
	twistRunLog = 5
)

// The other constants of the engine, gathered here: sizes the kernels and
// the scratch arrays are built for (lowN, gatherLog, fuseK and laneLevels
// are also fixed in the assembly) and thresholds by size. The choices that
// vary by kernel set or that tests change are fields of tuning.

// gatherLog: gathered groups are 2^gatherLog consecutive subproblems
// (convert.go, toNovel); ≥ twistRunLog: gathered arrays never use twTab.
const gatherLog = 5

// lowN: blocks of lowN elements run all their Taylor levels in registers
// (taylorLow).
const lowN = 128

// fuseMin: Taylor expansions of blocks of at least fuseMin elements run
// their first fuseK levels in one pass over memory (taylorFused), on the
// fuseSegs segments of the block, column chunk by column chunk.
const (
	fuseMin  = 1 << 15
	fuseK    = 3
	fuseSegs = 2 << fuseK
	fuseSubs = 1 << fuseK // sub-blocks left for the recursion
)

// fuseW is the column width of one fused pass: fuseSegs slices of fuseW
// elements (32 KiB) stay in L1 while the fused Taylor levels run on them.
const (
	fuseW      = 1 << 12 / fuseSegs
	fuseTabLog = 12 - fuseK - 1 // log2(fuseW)
)

// smallTaylor: Taylor steps whose quarters are shorter than this run as
// plain loops over the whole small block (taylorSmall), level by level.
const smallTaylor = 8

// laneLevels is the number of network levels (0..laneLevels-1) that run on
// the transpose of a block with 2^laneLevels lanes.
const laneLevels = 3

// Gather buffers up to 2^bufPoolLog elements are pooled; bigger ones
// (the outermost level for the biggest arrays) are mapped per call (mapBuf)
// and released after it.
const bufPoolLog = 20

// plan holds what the transforms of one subspace need; it is built once
// and only read afterwards.
//
// Notation: v_j are the basis elements, s the shift, W_r the subspace
// polynomial of span(v_0..v_{r-1}) (W_0(x) = x) and Ŵ_r = W_r / W_r(v_r).
// The novel basis is X_i = Π_{bit r of i} Ŵ_r.
type plan struct {
	m int
	// ws[r] = Ŵ_r(s); wv[r][j] = Ŵ_r(v_{r+1+j}) for j < m-1-r. The twiddle
	// of level r, block b is Ŵ_r(s + Σ_j bit_j(b) v_{r+1+j}).
	ws []gf64.Element
	wv [][]gf64.Element
	// L = min(m, chunkLog); loc[r][b] = Σ_j bit_j(b) wv[r][j] for r < L and
	// b < 2^(L-1-r): twiddle offsets inside one chunk. locExp[r][p] =
	// loc[r][p>>r] for r < smallLevels, p < 2^(L-1): one per pair.
	L      int
	loc    [][]gf64.Element
	locExp [][]gf64.Element
	// Twist factors of the monomial <-> novel conversion: depth r scales
	// coefficient t of each depth-r subproblem by tw[r]^t.
	tw, twInv []gf64.Element
	// For r < twistRunLog: twTab[r][i] = tw[r]^(i>>r) for i < 2^L, and
	// twStep[r] = tw[r]^(2^L >> r); the same for the inverses.
	twTab, twInvTab   [][]gf64.Element
	twStep, twInvStep []gf64.Element
	// fuseTab[r][t] = tw[r]^(t>>r) for t < fuseW, r < fuseTabLog: the twist
	// of one fused column slice (taylorTwist); the same for the inverses.
	fuseTab, fuseTabInv [][]gf64.Element
	// shifts[o] is the plan of the gathered subproblems whose depth r is
	// depth r+o here (convert.go, shifted); root and off say which plan
	// and offset a shifted plan stands for.
	shiftOnce sync.Once
	shifts    []*plan
	root      *plan
	off       int
	// tun: the path choices this plan makes (tuning); steps[r] the step of
	// the network that starts at level r (network.go: stepChunk below L,
	// then step2, step4 or step8).
	tun   tuning
	steps []uint8
	// recipes[k] is the order of the steps inside a chunk of 2^k elements
	// (k ≤ L), top level first (network.go, chunkRecipe).
	recipes [][]chunkStep
	// convs[n] is the recipe of the monomial ↔ novel conversion of an
	// array of 2^n elements (n ≤ m): its gather depth and the step of each
	// depth (convert.go, newConvRecipe). taylorSteps[k][j] is the step of
	// the Taylor expansion of a block of 2^k elements at stride 2^j (j ≤
	// k ≤ m; convert.go, taylorStepOf). Both depend on sizes and the tuning
	// only: shifted plans share their root's.
	convs       []convRecipe
	taylorSteps [][]uint8
}

// tuning holds the choices the executors make by size and kernel set, with
// the defaults of defaultTuning; tests build plans with other values to
// reach every path at small sizes.
type tuning struct {
	// net: the radix-8 passes (three levels per sweep above the chunks) and
	// the net16/net64 register kernels for the lowest levels of a chunk.
	net bool
	// radix4Min: without net, blocks at least this long (larger than L2) run
	// two levels per sweep (forward4, inverse4), to halve the memory traffic.
	radix4Min int
	// deepLogs: the sizes (log2, increasing) of the gathered arrays of the
	// depth-first conversion; an array of 2^n elements is gathered into
	// arrays of the largest size below 2^n. The smallest fits L1, the next
	// L2, the last (32 MiB, one per goroutine) L3.
	deepLogs []int
	// parMin: single transforms of at least parMin elements (2 MiB by
	// default) split their work over GOMAXPROCS goroutines (spawning them
	// costs a few small allocations per call); smaller ones run on the
	// calling goroutine and allocate nothing. Inside a transform, steps on
	// blocks of at least parMin elements spread over the budget. A power
	// of two, at least 2^L.
	parMin int
}

// defaultTuning returns the tuning for the active kernel set.
func defaultTuning() tuning {
	return tuning{net: useAVX512, radix4Min: 1 << 18, deepLogs: []int{12, 17, 22}, parMin: 1 << 18}
}

// plan returns the plan of s for the active kernel set, built on first use.
func (s *Subspace) plan() *plan {
	k := activeKernels()
	s.once[k].Do(func() { s.p[k] = newPlan(s.shift, s.basis, defaultTuning()) })
	return s.p[k]
}

func newPlan(shift gf64.Element, basis []gf64.Element, tun tuning) *plan {
	m := len(basis)
	p := &plan{m: m, ws: make([]gf64.Element, m), wv: make([][]gf64.Element, m),
		tun: tun,
		tw:  make([]gf64.Element, m), twInv: make([]gf64.Element, m)}
	// w[t] = W_r(v_t), ws = W_r(s); W_{r+1}(x) = W_r(x)·(W_r(x) + W_r(v_r)).
	w := append([]gf64.Element(nil), basis...)
	sv := shift
	c := gf64.One // c_r: S^(r) = W_r(S)/c_r in the Gao–Mateer recursion
	for r := 0; r < m; r++ {
		piv := w[r]
		inv := gf64.Inverse(piv)
		p.ws[r] = gf64.Mul(sv, inv)
		p.wv[r] = make([]gf64.Element, m-1-r)
		for j := range p.wv[r] {
			p.wv[r][j] = gf64.Mul(w[r+1+j], inv)
		}
		p.tw[r] = gf64.Div(piv, c)
		p.twInv[r] = gf64.Inverse(p.tw[r])
		c = gf64.Square(piv)
		for t := r + 1; t < m; t++ {
			w[t] = gf64.Mul(w[t], w[t]^piv)
		}
		sv = gf64.Mul(sv, sv^piv)
	}
	p.L = min(m, chunkLog)
	L := p.L
	p.steps = newSteps(m, L, tun)
	p.recipes = make([][]chunkStep, L+1)
	for k := range p.recipes {
		p.recipes[k] = p.chunkRecipe(k)
	}
	p.convs = make([]convRecipe, m+1)
	p.taylorSteps = make([][]uint8, m+1)
	for n := range p.convs {
		p.convs[n] = newConvRecipe(n, tun)
		p.taylorSteps[n] = make([]uint8, n+1)
		for j := range p.taylorSteps[n] {
			p.taylorSteps[n][j] = taylorStepOf(n, j)
		}
	}
	p.loc = make([][]gf64.Element, L)
	for r := 0; r < L; r++ {
		n := 1 << uint(L-1-r)
		t := make([]gf64.Element, n)
		for j := 0; 1<<uint(j) < n; j++ {
			h := 1 << uint(j)
			for b := 0; b < h; b++ {
				t[h+b] = t[b] ^ p.wv[r][j]
			}
		}
		p.loc[r] = t
	}
	p.locExp = make([][]gf64.Element, min(L, smallLevels))
	for r := range p.locExp {
		half := 1 << uint(L-1)
		t := make([]gf64.Element, half)
		for q := range t {
			t[q] = p.loc[r][q>>uint(r)]
		}
		p.locExp[r] = t
	}
	nt := min(m, twistRunLog)
	p.twTab, p.twInvTab = make([][]gf64.Element, nt), make([][]gf64.Element, nt)
	p.twStep, p.twInvStep = make([]gf64.Element, nt), make([]gf64.Element, nt)
	for r := 0; r < nt; r++ {
		p.twTab[r], p.twStep[r] = powTable(p.tw[r], r, 1<<uint(L))
		p.twInvTab[r], p.twInvStep[r] = powTable(p.twInv[r], r, 1<<uint(L))
	}
	nf := min(m, fuseTabLog)
	p.fuseTab, p.fuseTabInv = make([][]gf64.Element, nf), make([][]gf64.Element, nf)
	for r := 0; r < nf; r++ {
		p.fuseTab[r], _ = powTable(p.tw[r], r, fuseW)
		p.fuseTabInv[r], _ = powTable(p.twInv[r], r, fuseW)
	}
	return p
}

// powTable returns t[i] = b^(i>>r) for i < n and b^(n>>r).
func powTable(b gf64.Element, r, n int) ([]gf64.Element, gf64.Element) {
	t := make([]gf64.Element, n)
	f := gf64.One
	for i := 0; i < n; i += 1 << uint(r) {
		for k := i; k < i+1<<uint(r); k++ {
			t[k] = f
		}
		f = gf64.Mul(f, b)
	}
	return t, f
}

// Level holds the constants from which the transforms of a subspace derive
// the twiddles of network level r and the twist factors of conversion
// depth r (Subspace.Levels). With β_j the basis, s the shift and Ŵ_r as in
// the package documentation:
type Level struct {
	// Base = Ŵ_r(s) and Span[j] = Ŵ_r(β_{r+1+j}) for j < m−1−r. The pairs
	// (i, i+2^r) of block b = i>>(r+1) of network level r use the twiddle
	// Ŵ_r(s + Σ_j bit_j(b)·β_{r+1+j}) = Base + Σ_j bit_j(b)·Span[j] (Ŵ_r is
	// GF(2)-linear).
	Base gf64.Element
	Span []gf64.Element
	// Twist = W_r(β_r) / W_{r−1}(β_{r−1})² (β_0 for r = 0): depth r of the
	// monomial → novel conversion multiplies element i of the array, the
	// coefficient i>>r of its depth-r subproblem, by Twist^(i>>r); the
	// novel → monomial conversion by Twist^−(i>>r).
	Twist gf64.Element
}

// Levels returns the constants of s's transforms, one Level for each r =
// 0 … Dim()−1, copied from the plan the CPU transforms use: another
// implementation of the same transforms (package gpu/additive builds its
// device tables from them) gets the same field elements without computing
// them again. Above MaxTransformDim it returns an error wrapping ErrDim.
func (s *Subspace) Levels() ([]Level, error) {
	if len(s.basis) > MaxTransformDim {
		return nil, fmt.Errorf("%w: Levels of a %d-dimensional subspace, at most %d",
			ErrDim, len(s.basis), MaxTransformDim)
	}
	p := s.plan()
	lv := make([]Level, p.m)
	for r := range lv {
		lv[r] = Level{Base: p.ws[r], Span: slices.Clone(p.wv[r]), Twist: p.tw[r]}
	}
	return lv, nil
}

// twiddle returns the twiddle of level r, block b: Ŵ_r(s + Σ_j bit_j(b)·v_{r+1+j}).
func (p *plan) twiddle(r, b int) gf64.Element {
	x := p.ws[r]
	w := p.wv[r]
	for u := uint(b); u != 0; u &= u - 1 {
		x ^= w[trailingZeros(u)]
	}
	return x
}
