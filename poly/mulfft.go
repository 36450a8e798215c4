package poly

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// MulFFT returns p·q by the additive FFT: both factors are evaluated on a
// linear subspace of 2^m ≥ deg p + deg q + 1 points (the span of
// 1, x, …, x^(m−1), whose transform plan is built once per m and shared),
// multiplied pointwise and interpolated back. Cost O(N log N) for
// N = 2^m; the transforms use all GOMAXPROCS cores on large sizes. A much
// longer factor is cut into chunks, each multiplied on a smaller subspace
// against the once-transformed shorter factor.
func (p Poly) MulFFT(q Poly) Poly {
	p, q = p.Normalize(), q.Normalize()
	if len(p) < len(q) {
		p, q = q, p
	}
	return mulFFT(p, q)
}

// fftPlanFor returns the transform dimension m for multiplying factors of
// lengths lp >= lq >= 1 and its modelled cost in nanoseconds. The longer
// factor is cut into chunks of 2^m − lq + 1 coefficients, so that each
// chunk's product with q fits 2^m points: one transform for q, and two per
// chunk. m ranges from the smallest size giving chunks longer than q up to
// the size of the whole product (one chunk).
func fftPlanFor(lp, lq int) (m int, cost float64) {
	mMax := bits.Len(uint(lp + lq - 2)) // 2^mMax >= lp + lq − 1
	mMin := min(bits.Len(uint(2*lq-1)), mMax)
	cost = math.Inf(1)
	for k := mMin; k <= mMax; k++ {
		size := 1 << k
		chunk := size - lq + 1
		chunks := (lp + chunk - 1) / chunk
		c := float64(2*chunks+1) * (costFFT*float64(k)*float64(size) + costFFTCall)
		if c < cost {
			m, cost = k, c
		}
	}
	return m, cost
}

// mulFFT multiplies normalized p and q with len(p) >= len(q).
func mulFFT(p, q Poly) Poly {
	if len(q) == 0 {
		return Poly{}
	}
	n := len(p) + len(q) - 1
	if len(q) == 1 || n < 2 {
		return mulSchoolbook(p, q)
	}
	m, _ := fftPlanFor(len(p), len(q))
	s := mulSpace(m)
	size := 1 << m
	fq := make([]gf64.Element, size)
	copy(fq, q)
	mustTransform(s.FFTTrunc(fq, len(q)))
	chunk := size - len(q) + 1
	if chunk >= len(p) {
		// one chunk: the product is the whole transform
		fp := make([]gf64.Element, size)
		copy(fp, p)
		mustTransform(s.FFTTrunc(fp, len(p)))
		gf64.MulVec(fp, fp, fq)
		mustTransform(s.IFFT(fp))
		return Poly(fp[:n]).Normalize()
	}
	out := make(Poly, n)
	buf := make([]gf64.Element, size)
	for off := 0; off < len(p); off += chunk {
		src := p[off:min(off+chunk, len(p))]
		copy(buf, src)
		mustTransform(s.FFTTrunc(buf, len(src)))
		gf64.MulVec(buf, buf, fq)
		mustTransform(s.IFFT(buf))
		k := len(src) + len(q) - 1
		dst := out[off : off+k]
		gf64.AddVec(dst, dst, buf[:k])
	}
	return out.Normalize()
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
