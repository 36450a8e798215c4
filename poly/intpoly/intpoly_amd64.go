//go:build amd64 && !purego

package intpoly

import (
	"math/bits"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The AVX-512 IFMA kernels: 50-bit primes in 64-bit lanes, products by
// VPMADD52LUQ/VPMADD52HUQ (the low and high 52 bits of 52×52-bit
// products), eight residues per instruction. x/sys/cpu also checks that
// the OS saves the ZMM registers.
var hasIFMA = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512IFMA

var ifmaKernels = &kernels{
	name:       "avx512ifma",
	family:     primes50,
	shoupShift: 52,
	montShift:  52,
	soa:        true,
	bflyCost:   0.18,
	coefCost:   18,
	crossover:  1 << 16,
	fwdCols:    fwdColsIFMA,
	invCols:    invColsIFMA,
	fwdRow:     fwdRowIFMA,
	invRow:     invRowIFMA,
	pointwise:  pointwiseIFMA52,
	scatter:    scatterColsIFMA,
	digitBits:  52,
	sumDigits:  sumDigitsIFMA52,
}

var implKernels = []*kernels{genericKernels, ifmaKernels}

var implAvailable = []bool{true, hasIFMA}

// The assembly works on whole levels. Rows are eight residues at
// x + r·stride (stride in elements): a level with half-size hr rows cuts
// the rows into blocks of 2·hr; block b pairs row r with row r+hr with the
// twiddle w[b] (Shoup quotient q[b]). Contiguous data is rows of eight with
// stride 8; the first phase's columns are rows of eight with the row
// length as stride.

// fwdLevelIFMA behaves like fwdLevelGeneric (52-bit Shoup quotients) on
// blocks rows of eight.
//
//go:noescape
func fwdLevelIFMA(x *uint64, stride, hr, blocks int, w, q *uint64, p uint64)

// invLevelIFMA behaves like invLevelGeneric likewise.
//
//go:noescape
func invLevelIFMA(x *uint64, stride, hr, blocks int, w, q *uint64, p uint64)

// fwdTailIFMA runs the last three forward levels (h = 4, 2, 1) on groups
// of 16 contiguous residues, with the twiddles of each level (w4/q4: two per
// group, w2/q2: four, w1/q1: eight). It leaves each group in the order
// (x0 x2 x4 x6 x8 x10 x12 x14 | x1 x3 … x15) of the level-1 pairs instead of
// the generic order; invTailIFMA expects that order and restores the
// natural one, and the pointwise product does not care.
//
//go:noescape
func fwdTailIFMA(x *uint64, groups int, w4, q4, w2, q2, w1, q1 *uint64, p uint64)

// invTailIFMA undoes fwdTailIFMA (up to the factor 8).
//
//go:noescape
func invTailIFMA(x *uint64, groups int, w4, q4, w2, q2, w1, q1 *uint64, p uint64)

// pointwiseIFMA behaves like pointwise52 on n (a multiple of 8) residues.
//
//go:noescape
func pointwiseIFMA(a, b *uint64, n int, p, pinv uint64)

// garnerIFMA sets a[j] to (a[j] − prev[j] + 2p)·c mod p in [0, 2p) by
// 52-bit Shoup products (cq = ⌊c·2^52/p⌋), for n (a multiple of 8)
// residues a[j] < 2p and prev[j] < 2^50: one step of the CRT's digits.
//
//go:noescape
func garnerIFMA(a, prev *uint64, n int, c, cq, p uint64)

// scatterNT copies 64 residues from s+64·r to x+stride·r for r < rows
// (rows ≥ 1) by non-temporal stores; x must be 64-byte aligned and stride
// a multiple of 8.
//
//go:noescape
func scatterNT(x, s *uint64, stride, rows int)

// scatterColsIFMA is scatterCols with stores that bypass the cache: the
// rows are far apart and will not be read again before the cache lines
// would be evicted, so ordinary stores would read each line from memory
// first only to write it back later. Misaligned destinations take the
// plain copy.
func scatterColsIFMA(x, s []uint64, stride, rows int) {
	if rows < 1 || stride%8 != 0 || uintptr(unsafe.Pointer(&x[0]))%64 != 0 {
		scatterCols(x, s, stride, rows)
		return
	}
	_ = x[(rows-1)*stride+colBlock-1]
	_ = s[rows*colBlock-1]
	scatterNT(&x[0], &s[0], stride, rows)
}

// sumDigitsIFMA sets d[j] to Σ_l dg[l·stride + j]·w[2l] mod p in [0, 2p)
// for j < n (a multiple of 8), l < pieces (at least 1): 52-bit Shoup
// products of digits below 2^52, each partial sum brought below 2p.
//
//go:noescape
func sumDigitsIFMA(d, dg *uint64, n, stride, pieces int, w *uint64, p uint64)

// sumDigitsIFMA52 is kernels.sumDigits on IFMA (52-bit digits and
// quotients), the last n mod 8 residues in Go.
func sumDigitsIFMA52(d, dg, w []uint64, p uint64) {
	n := len(d)
	pieces := len(dg) / n
	_ = w[2*pieces-1]
	m := n &^ 7
	if m > 0 {
		_ = dg[(pieces-1)*n+m-1]
		sumDigitsIFMA(&d[0], &dg[0], m, n, pieces, &w[0], p)
	}
	for j := m; j < n; j++ {
		var acc uint64
		for l := range pieces {
			acc += shoup52(dg[l*n+j], w[2*l], w[2*l+1], p)
			if acc >= 2*p {
				acc -= 2 * p
			}
		}
		d[j] = acc
	}
}

func garnerStepIFMA(a, prev []uint64, c, cq, p uint64) {
	n := len(a) &^ 7
	if n > 0 {
		_ = prev[n-1]
		garnerIFMA(&a[0], &prev[0], n, c, cq, p)
	}
	for j := n; j < len(a); j++ {
		a[j] = shoup52(a[j]-prev[j]+2*p, c, cq, p)
	}
}

func init() {
	if hasIFMA {
		primes50.garnerStep = garnerStepIFMA
	}
}

// soaHalves splits a structure-of-arrays table into twiddles and quotients.
func soaHalves(tw []uint64) (w, q []uint64) {
	h := len(tw) / 2
	return tw[:h], tw[h:]
}

func fwdColsIFMA(x []uint64, stride, rows int, tw []uint64, p uint64, from int) {
	w, q := soaHalves(tw)
	_ = x[(rows-1)*stride+colGroup-1]
	for m, hr := 1<<from, rows>>(from+1); hr >= 1; m, hr = 2*m, hr/2 {
		fwdLevelIFMA(&x[0], stride, hr, m, &w[0], &q[0], p)
	}
}

func invColsIFMA(x []uint64, stride, rows int, tw []uint64, p uint64) {
	w, q := soaHalves(tw)
	_ = x[(rows-1)*stride+colGroup-1]
	m := rows / 2
	for hr := 1; hr <= rows/2; m, hr = m/2, 2*hr {
		invLevelIFMA(&x[0], stride, hr, m, &w[0], &q[0], p)
	}
}

func fwdRowIFMA(x []uint64, i int, tw []uint64, p uint64) {
	n := len(x)
	if n < 16 {
		fwdRow52(x, i, tw, p)
		return
	}
	w, q := soaHalves(tw)
	m := 1
	for h := n / 2; h >= 8; m, h = 2*m, h/2 {
		fwdLevelIFMA(&x[0], 8, h/8, m, &w[i*m], &q[i*m], p)
	}
	// m = n/8: the sub-blocks of 8 at level h = 4.
	fwdTailIFMA(&x[0], n/16, &w[i*m], &q[i*m], &w[2*i*m], &q[2*i*m], &w[4*i*m], &q[4*i*m], p)
}

func invRowIFMA(x []uint64, i int, tw []uint64, p uint64) {
	n := len(x)
	if n < 16 {
		invRow52(x, i, tw, p)
		return
	}
	w, q := soaHalves(tw)
	m := n / 8
	invTailIFMA(&x[0], n/16, &w[i*m], &q[i*m], &w[2*i*m], &q[2*i*m], &w[4*i*m], &q[4*i*m], p)
	for h := 8; h <= n/2; h *= 2 {
		m /= 2
		invLevelIFMA(&x[0], 8, h/8, m, &w[i*m], &q[i*m], p)
	}
}

func pointwiseIFMA52(a, b []uint64, p uint64) {
	n := len(a) &^ 7
	if n > 0 {
		_ = b[n-1]
		pointwiseIFMA(&a[0], &b[0], n, p, newMont(p).pinv&mask52)
	}
	if n < len(a) {
		pointwise52(a[n:], b[n:len(a)], p)
	}
}

// ---------------------------------------------------------------------------
// The same arithmetic in Go, for transforms shorter than 16 on this path
// (and as the statement of what the assembly computes).

const mask52 = 1<<52 - 1

// shoup52 returns a value ≡ a·w (mod p) in [0, 2p) for a < 2^52 and
// wq = ⌊w·2^52/p⌋: q = ⌊a·wq/2^52⌋ is ⌊a·w/p⌋ or one less.
func shoup52(a, w, wq, p uint64) uint64 {
	hi, lo := bits.Mul64(a, wq)
	q := hi<<12 | lo>>52
	return a*w - q*p
}

func fwdRow52(x []uint64, i int, tw []uint64, p uint64) {
	w, q := soaHalves(tw)
	p2 := 2 * p
	for m, h := 1, len(x)/2; h >= 1; m, h = 2*m, h/2 {
		for b := range m {
			z, zq := w[i*m+b], q[i*m+b]
			for j := b * 2 * h; j < b*2*h+h; j++ {
				a := x[j]
				if a >= p2 {
					a -= p2
				}
				t := shoup52(x[j+h], z, zq, p)
				x[j], x[j+h] = a+t, a-t+p2
			}
		}
	}
}

func invRow52(x []uint64, i int, tw []uint64, p uint64) {
	w, q := soaHalves(tw)
	p2 := 2 * p
	m := len(x) / 2
	for h := 1; h <= len(x)/2; m, h = m/2, 2*h {
		for b := range m {
			z, zq := w[i*m+b], q[i*m+b]
			for j := b * 2 * h; j < b*2*h+h; j++ {
				s := x[j] + x[j+h]
				if s >= p2 {
					s -= p2
				}
				x[j], x[j+h] = s, shoup52(x[j]-x[j+h]+p2, z, zq, p)
			}
		}
	}
}

// pointwise52 sets a[j] to a[j]·b[j]·2^−52 mod p in [0, 2p) (Montgomery
// with R = 2^52), for a, b < 4p < 2^52.
func pointwise52(a, b []uint64, p uint64) {
	pinv := newMont(p).pinv & mask52
	p2 := 2 * p
	for j, x := range a {
		y := b[j]
		if x >= p2 {
			x -= p2
		}
		if y >= p2 {
			y -= p2
		}
		hi, lo := bits.Mul64(x, y)
		h52 := hi<<12 | lo>>52
		m := (lo & mask52) * pinv & mask52
		mh, ml := bits.Mul64(m, p)
		a[j] = h52 - (mh<<12 | ml>>52) + p
	}
}
