package poly

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// MulFFT returns p·q by the additive FFT: both factors are evaluated on a
// linear subspace of 2^m ≥ deg p + deg q + 1 points (the span of
// 1, x, …, x^(m−1), whose transform plan is built once per m and shared),
// multiplied pointwise and interpolated back. Cost O(N log N) for
// N = 2^m; the transforms use all GOMAXPROCS cores on large sizes.
func (p Poly) MulFFT(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	return mulFFT(p, q)
}

// useFFT reports whether Mul should multiply factors of lengths lp >= lq by
// the FFT. The FFT costs about the same for every split of the product
// length, so it pays once the shorter factor is long enough that Karatsuba
// on blocks of lq (≈ (lp/lq)·lq^1.585 work) exceeds it.
func useFFT(lp, lq int) bool { return lq >= fftMin }

// mulFFT multiplies normalized p and q with len(p) >= len(q).
func mulFFT(p, q Poly) Poly {
	if len(q) == 0 {
		return Poly{}
	}
	n := len(p) + len(q) - 1
	if len(q) == 1 || n < 2 {
		return mulSchoolbook(p, q)
	}
	m := bits.Len(uint(n - 1)) // 2^m >= n
	s := mulSpace(m)
	size := 1 << m
	fp := make([]gf64.Element, size)
	fq := make([]gf64.Element, size)
	copy(fp, p)
	copy(fq, q)
	mustTransform(s.FFTTrunc(fp, len(p)))
	mustTransform(s.FFTTrunc(fq, len(q)))
	gf64.MulVec(fp, fp, fq)
	mustTransform(s.IFFT(fp))
	return Poly(fp[:n]).Normalize()
}

// mustTransform panics on an error from a transform whose arguments this
// package built itself: that is a bug here, not bad caller data.
func mustTransform(err error) {
	if err != nil {
		panic(fmt.Sprintf("poly: internal transform failed: %v", err))
	}
}

// The multiplication subspaces span(1, x, …, x^(m−1)), one per dimension,
// built on first use.
var (
	mulSpacesMu sync.Mutex
	mulSpaces   [domain.MaxTransformDim + 1]*domain.Subspace
)

func mulSpace(m int) *domain.Subspace {
	if m > domain.MaxTransformDim {
		panic(fmt.Sprintf("poly: product of 2^%d coefficients exceeds the transform limit 2^%d", m, domain.MaxTransformDim))
	}
	mulSpacesMu.Lock()
	defer mulSpacesMu.Unlock()
	if s := mulSpaces[m]; s != nil {
		return s
	}
	basis := make([]gf64.Element, m)
	for j := range basis {
		basis[j] = gf64.Element(1) << j
	}
	s, err := domain.New(0, basis...)
	if err != nil {
		panic(fmt.Sprintf("poly: monomial basis rejected: %v", err))
	}
	mulSpaces[m] = s
	return s
}
