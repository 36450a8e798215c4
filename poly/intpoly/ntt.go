package intpoly

import "math/bits"

// Number-theoretic transforms modulo one prime, on slices of uint64
// residues.
//
// The forward transform takes coefficients in natural order to evaluations
// in bit-reversed order by Cooley–Tukey butterflies; the inverse takes them
// back by Gentleman–Sande butterflies, without the factor 1/N (the plan folds
// it into one operand). A product never needs the evaluations in any
// particular order, so neither direction permutes its data.
//
// Level ℓ (ℓ = 0 … L−1) of a length-2^L transform cuts the vector into 2^ℓ
// blocks of 2h = 2^(L−ℓ) elements; block b pairs x[j] with x[j+h] and uses
// the twiddle Z[b] = ω^brv(b), where ω is the primitive 2^L-th root of unity
// and brv reverses L−1 bits. Level ℓ uses the prefix Z[0 : 2^ℓ] of the same
// table, and the table of a length is a prefix of the table of any longer one
// (the roots of all lengths are powers of one family root). The forward
// butterfly is (x, y) ← (x + Z[b]·y, x − Z[b]·y); the inverse one is
// (x, y) ← (x + y, (x − y)·Z[b]^−1).
//
// Harvey's lazy reduction keeps every value below 4p between butterflies:
// the forward transform takes values below 4p and returns values below 4p;
// the inverse transform takes values below 2p and returns values below 2p.
// Twiddle products use Shoup's method with a precomputed quotient per
// twiddle.
//
// A long transform runs in two phases so that each touches memory once:
// viewing the vector as R rows of B = 2^blockLog elements, the first log R
// levels act on each column separately (R-point transforms of columns,
// taken colGroup columns at a time, with the twiddles Z[0:R/2]), and the
// remaining levels act on each row (a contiguous block that stays in
// cache; block i's sub-block b' at its local level ℓ' uses Z[i·2^ℓ' + b']).

const (
	blockLog = 12 // rows of 2^12 residues (32 KiB) for the second phase
	colGroup = 8  // columns per first-phase task: one cache line per row
)

// twiddles are the tables of one prime for one transform length, in the
// layout of the kernel set that built them.
type twiddles struct {
	logN int
	// fwd[2b], fwd[2b+1] = Z[b] and its Shoup quotient, b < N/2 (or
	// fwd[b], fwd[N/2+b] for kernels that want them apart); inv likewise
	// for Z[b]^−1.
	fwd, inv []uint64
}

// newTwiddles builds the tables of q for length 2^logN, with Shoup
// quotients ⌊w·2^shift/p⌋. It fills Z in index order: brv(2^j + c) =
// brv(2^j) + brv(c) for c < 2^j, so Z[2^j + c] = Z[2^j]·Z[c], one Shoup
// product per entry with the fixed factor Z[2^j] = ω^(2^(logN−2−j)).
func newTwiddles(q ntPrime, maxLog, logN int, shift uint, soa bool) *twiddles {
	t := &twiddles{logN: logN}
	half := (1 << logN) / 2
	if half == 0 {
		return t
	}
	p := q.p
	w := q.rootOfUnity(logN, maxLog)
	t.fwd = make([]uint64, 2*half)
	t.inv = make([]uint64, 2*half)
	// Z[b] goes to fwd[b·vs], its quotient to fwd[qo + b·vs] (inv
	// likewise).
	vs, qo := 2, 1
	if soa {
		vs, qo = 1, half
	}
	z, zi := t.fwd, t.inv
	z[0], zi[0] = 1, 1
	for j := 0; 1<<j < half; j++ {
		f := powMod(w, uint64(1)<<(logN-2-j), p)
		fi := invMod(f, p)
		fq, fiq := shoupQuot(f, p, 64), shoupQuot(fi, p, 64)
		lo := 1 << j
		for c := range lo {
			z[(lo+c)*vs] = reduce2p(shoupMul(z[c*vs], f, fq, p), p)
			zi[(lo+c)*vs] = reduce2p(shoupMul(zi[c*vs], fi, fiq, p), p)
		}
	}
	qf := newQuotFn(p, shift)
	for b := range half {
		z[qo+b*vs] = qf.quot(z[b*vs])
		zi[qo+b*vs] = qf.quot(zi[b*vs])
	}
	return t
}

// reduce2p maps x < 2p to x mod p.
func reduce2p(x, p uint64) uint64 {
	if x >= p {
		x -= p
	}
	return x
}

// kernels is one implementation of the transform kernels: pure Go on
// 62-bit primes, or AVX-512 IFMA on 50-bit primes. Everything around the
// transforms (reduction of the inputs, CRT, carries) is shared scalar Go.
type kernels struct {
	name   string
	family *primeFamily
	// shoupShift is the width of the Shoup quotients in the twiddle tables
	// and montShift that of the Montgomery radix of pointwise: 64 in pure
	// Go, 52 for IFMA's 52-bit multipliers.
	shoupShift, montShift uint
	// bflyCost is the cost of one butterfly in scalar Shoup products, and
	// coefCost that of the per-coefficient work besides the CRT (chunking,
	// carries), for MulBig's choice of chunk size (intPlanFor).
	bflyCost, coefCost float64
	// crossover is the size, in bits of MulBig's smaller operand, from
	// which its transforms beat math/big's Karatsuba (measured on the
	// development machine; TestTuneMulBig prints the timings).
	crossover int
	// soa lays the twiddle tables out as all twiddles, then all
	// quotients (fwd[b], fwd[N/2+b]) instead of in pairs, for vector loads.
	soa bool

	// fwdCols runs the first phase of the forward transform on the
	// colGroup columns starting at x[0]: rows x[r·stride:], r < rows, with
	// twiddles tw (Z[0:rows/2] in pairs), from level from on (the levels
	// before it done by the caller).
	fwdCols func(x []uint64, stride, rows int, tw []uint64, p uint64, from int)
	// invCols undoes fwdCols (up to the factor rows).
	invCols func(x []uint64, stride, rows int, tw []uint64, p uint64)
	// fwdRow runs the whole forward transform of block i, x (len a power
	// of two) of the second phase, with the whole table tw.
	fwdRow func(x []uint64, i int, tw []uint64, p uint64)
	// invRow undoes fwdRow (up to the factor len(x)).
	invRow func(x []uint64, i int, tw []uint64, p uint64)
	// pointwise sets a[j] to a[j]·b[j]·2^−montShift mod p, a and b below
	// 4p on entry, a below 2p on exit; b may be a.
	pointwise func(a, b []uint64, p uint64)
	// scatter writes a column phase's scratch block back (scatterCols or
	// a faster equivalent).
	scatter func(x, s []uint64, stride, rows int)
	// digitBits is the width of the digits MulBig cuts its chunks into
	// for sumDigits: 64, or 52 for IFMA's multipliers.
	digitBits uint
	// sumDigits sets d[j] to a value below 4p ≡ Σ_l dg[l·len(d) + j]·w[2l]
	// (mod p), for digits below 2^digitBits and weights w[2l] < p with
	// Shoup quotients w[2l+1] of width shoupShift.
	sumDigits func(d, dg, w []uint64, p uint64)
}

// ---------------------------------------------------------------------------
// Pure Go kernels (62-bit primes, 64-bit Shoup and Montgomery).

var genericKernels = &kernels{
	name:       "generic",
	family:     primes62,
	shoupShift: 64,
	montShift:  64,
	bflyCost:   1,
	coefCost:   40,
	crossover:  3 << 16,
	fwdCols:    fwdColsGeneric,
	invCols:    invColsGeneric,
	fwdRow:     fwdRowGeneric,
	invRow:     invRowGeneric,
	pointwise:  pointwiseGeneric,
	scatter:    scatterCols,
	digitBits:  64,
	sumDigits:  sumDigitsGeneric,
}

// fwdBfly is the forward butterfly on vectors: x, y < 4p on entry and exit.
func fwdBfly(x, y []uint64, w, wq, p uint64) {
	p2 := 2 * p
	y = y[:len(x)]
	for j, a := range x {
		if a >= p2 {
			a -= p2
		}
		q, _ := bits.Mul64(y[j], wq)
		t := y[j]*w - q*p
		x[j] = a + t
		y[j] = a - t + p2
	}
}

// invBfly is the inverse butterfly on vectors: x, y < 2p on entry and exit.
func invBfly(x, y []uint64, w, wq, p uint64) {
	p2 := 2 * p
	y = y[:len(x)]
	for j, a := range x {
		b := y[j]
		s := a + b
		if s >= p2 {
			s -= p2
		}
		d := a - b + p2
		q, _ := bits.Mul64(d, wq)
		x[j] = s
		y[j] = d*w - q*p
	}
}

// fwdLevelGeneric runs one forward level on x cut in sub-blocks of 2h;
// sub-block b uses the twiddle pair tw[2b:2b+2].
func fwdLevelGeneric(x []uint64, h int, tw []uint64, p uint64) {
	for b, off := 0, 0; off < len(x); b, off = b+1, off+2*h {
		fwdBfly(x[off:off+h], x[off+h:off+2*h], tw[2*b], tw[2*b+1], p)
	}
}

func invLevelGeneric(x []uint64, h int, tw []uint64, p uint64) {
	for b, off := 0, 0; off < len(x); b, off = b+1, off+2*h {
		invBfly(x[off:off+h], x[off+h:off+2*h], tw[2*b], tw[2*b+1], p)
	}
}

func fwdRowGeneric(x []uint64, i int, tw []uint64, p uint64) {
	for m, h := 1, len(x)/2; h >= 1; m, h = 2*m, h/2 {
		fwdLevelGeneric(x, h, tw[2*i*m:2*(i+1)*m], p)
	}
}

func invRowGeneric(x []uint64, i int, tw []uint64, p uint64) {
	m := len(x) / 2
	for h := 1; h <= len(x)/2; m, h = m/2, 2*h {
		invLevelGeneric(x, h, tw[2*i*m:2*(i+1)*m], p)
	}
}

func fwdColsGeneric(x []uint64, stride, rows int, tw []uint64, p uint64, from int) {
	for m, hr := 1<<from, rows>>(from+1); hr >= 1; m, hr = 2*m, hr/2 {
		for b := range m {
			w, wq := tw[2*b], tw[2*b+1]
			for r := b * 2 * hr; r < b*2*hr+hr; r++ {
				u := x[r*stride : r*stride+colGroup]
				v := x[(r+hr)*stride : (r+hr)*stride+colGroup]
				fwdBfly(u, v, w, wq, p)
			}
		}
	}
}

func invColsGeneric(x []uint64, stride, rows int, tw []uint64, p uint64) {
	m := rows / 2
	for hr := 1; hr <= rows/2; m, hr = m/2, 2*hr {
		for b := range m {
			w, wq := tw[2*b], tw[2*b+1]
			for r := b * 2 * hr; r < b*2*hr+hr; r++ {
				u := x[r*stride : r*stride+colGroup]
				v := x[(r+hr)*stride : (r+hr)*stride+colGroup]
				invBfly(u, v, w, wq, p)
			}
		}
	}
}

func pointwiseGeneric(a, b []uint64, p uint64) {
	m := newMont(p)
	p2 := 2 * p
	b = b[:len(a)]
	for j, x := range a {
		y := b[j]
		if x >= p2 {
			x -= p2
		}
		if y >= p2 {
			y -= p2
		}
		a[j] = m.mul(x, y)
	}
}
