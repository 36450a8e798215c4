package poly

import (
	"math"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Tuning of the automatic Mul, measured on the development machine with
// one core (BENCHMARKS.md, "### poly"; TestTuneMul prints the timings).
// Variables only so that the tuning test can move them.
var (
	// karatsubaLeaf is the factor length below which Karatsuba's recursion
	// hands over to the schoolbook method.
	karatsubaLeaf = 96
	// Cost model, in nanoseconds: schoolbook ≈ costSchool·lp·lq (one vector
	// multiply-accumulate per element); Karatsuba ≈ costKara·lq^1.585 per
	// block of lq; one additive FFT of size 2^m ≈ costFFT·m·2^m + costFFTCall.
	costSchool  = 0.35
	costKara    = 2.65
	costFFT     = 1.55
	costFFTCall = 500.0
)

// Mul returns p·q, choosing the schoolbook, Karatsuba or additive-FFT method
// from the lengths of the factors; all three give the same result.
func (p Poly) Mul(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	switch chooseMul(len(p), len(q)) {
	case methodFFT:
		return mulFFT(p, q)
	case methodKaratsuba:
		return mulKaratsuba(p, q)
	default:
		return mulSchoolbook(p, q)
	}
}

// MulSchoolbook returns p·q by the schoolbook method: one vector
// multiply-accumulate per coefficient of the shorter factor, O(deg p · deg q).
func (p Poly) MulSchoolbook(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	return mulSchoolbook(p, q)
}

// MulKaratsuba returns p·q by Karatsuba's method, O(n^1.585) for factors of
// length n; the recursion ends in the schoolbook method on short factors,
// and a long factor is cut into pieces of the shorter one's length.
func (p Poly) MulKaratsuba(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	return mulKaratsuba(p, q)
}

type mulMethod int

const (
	methodSchoolbook mulMethod = iota
	methodKaratsuba
	methodFFT
)

// chooseMul returns the method with the lowest modelled cost for factors of
// lengths lp >= lq >= 1.
func chooseMul(lp, lq int) mulMethod {
	m, _ := mulPlan(lp, lq)
	return m
}

// mulPlan returns the cheapest method for factors of lengths lp >= lq >= 1
// and its modelled cost in nanoseconds.
func mulPlan(lp, lq int) (mulMethod, float64) {
	school := costSchool * float64(lp) * float64(lq)
	if lq < karatsubaLeaf {
		return methodSchoolbook, school
	}
	kara := costKara * math.Pow(float64(lq), 1.585) * math.Ceil(float64(lp)/float64(lq))
	_, fft := fftPlanFor(lp, lq)
	switch {
	case fft < kara && fft < school:
		return methodFFT, fft
	case kara < school:
		return methodKaratsuba, kara
	default:
		return methodSchoolbook, school
	}
}

// mulSchoolbook multiplies normalized p and q with len(p) >= len(q).
func mulSchoolbook(p, q Poly) Poly {
	if len(q) == 0 {
		return Poly{}
	}
	out := make(Poly, len(p)+len(q)-1)
	schoolbookInto(out, p, q)
	return out
}

// schoolbookInto sets out = p·q, with len(out) = len(p)+len(q)−1 and
// len(p) >= len(q) >= 1. out must not overlap p or q.
func schoolbookInto(out, p, q []gf64.Element) {
	clear(out)
	for i, c := range q {
		if c != 0 {
			gf64.MulAddVec(out[i:i+len(p)], p, c)
		}
	}
}

// mulKaratsuba multiplies normalized p and q with len(p) >= len(q).
func mulKaratsuba(p, q Poly) Poly {
	n := len(q)
	if n == 0 {
		return Poly{}
	}
	if n < karatsubaLeaf {
		return mulSchoolbook(p, q)
	}
	out := make(Poly, len(p)+n-1)
	scratch := make([]gf64.Element, karatsubaScratch(n))
	if len(p) == n {
		karatsuba(out, p, q, scratch)
		return out
	}
	// Cut p into blocks of n coefficients and add up block·q at each offset.
	prod := make([]gf64.Element, 2*n-1)
	block := make([]gf64.Element, n)
	for off := 0; off < len(p); off += n {
		src := p[off:min(off+n, len(p))]
		if len(src) < n {
			clear(block)
			copy(block, src)
			src = block
		}
		karatsuba(prod, src, q, scratch)
		dst := out[off:]
		m := min(len(prod), len(dst))
		gf64.AddVec(dst[:m], dst[:m], prod[:m])
	}
	return out
}

// karatsubaScratch returns the scratch length karatsuba needs for factors of
// length n.
func karatsubaScratch(n int) int {
	s := 0
	for n >= karatsubaLeaf {
		h := (n + 1) / 2
		s += 4*h - 1
		n = h
	}
	return s
}

// karatsuba sets out = a·b for len(a) = len(b) = n >= 1 and
// len(out) = 2n−1, using scratch of at least karatsubaScratch(n) elements.
// out, a, b and scratch must not overlap.
func karatsuba(out, a, b, scratch []gf64.Element) {
	n := len(a)
	if n < karatsubaLeaf {
		schoolbookInto(out, a, b)
		return
	}
	h := (n + 1) / 2
	l := n - h // h >= l >= 1
	a0, a1 := a[:h], a[h:]
	b0, b1 := b[:h], b[h:]
	z0 := out[:2*h-1]
	z2 := out[2*h:]
	karatsuba(z0, a0, b0, scratch)
	out[2*h-1] = 0
	karatsuba(z2, a1, b1, scratch)

	sa := scratch[:h]
	sb := scratch[h : 2*h]
	z1 := scratch[2*h : 4*h-1]
	rest := scratch[4*h-1:]
	copy(sa, a0)
	copy(sb, b0)
	gf64.AddVec(sa[:l], sa[:l], a1)
	gf64.AddVec(sb[:l], sb[:l], b1)
	karatsuba(z1, sa, sb, rest)
	// z1 = (a0+a1)(b0+b1) − z0 − z2, added at x^h.
	gf64.AddVec(z1, z1, z0)
	gf64.AddVec(z1[:2*l-1], z1[:2*l-1], z2)
	mid := out[h : h+len(z1)]
	gf64.AddVec(mid, mid, z1)
}
