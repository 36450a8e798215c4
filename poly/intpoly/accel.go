package intpoly

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
)

// mulOnAccel sets dst = a·b on acc. Where acc refuses the product's bound
// (ErrTooLarge: a GPU's 31-bit primes hold about 300 bits at 2^24 points
// and 209 at 2^25, less than a product of 256-bit coefficients needs) and
// a coefficient is wider than one limb, it multiplies by slices instead:
//
//	a_i = Σ_k a_(i,k)·2^(64k),  A_k = Σ_i a_(i,k)·x^i  (likewise b, B_l)
//	a·b = Σ_s 2^(64s) · Σ_(k+l=s) A_k·B_l
//
// with every slice but the top one unsigned, a_(i,k) ∈ [0, 2^64), and the
// top one the signed rest, |a_(i,K−1)| ≤ 2^64 (two limbs each). Each A_k·B_l
// is one product on acc, of coefficients below 2^65 in magnitude; the
// products of one s are summed, and each sum is added into dst at limb s
// modulo 2^(64·dst.Width), which is exact: the true product fits dst. A
// square (a and b one Packed) takes each pair k < l once and adds it twice.
// Slices of 2^64 need bits 2·65 + ⌈log2 min(len a, len b)⌉ + 1 of acc; an
// acc that refuses those too returns its ErrTooLarge.
func mulOnAccel(acc Accelerator, dst, a, b Packed) error {
	err := acc.MulPacked(dst, a, b)
	if err == nil || !errors.Is(err, ErrTooLarge) {
		return err
	}
	ka, kb := sliceCount(a), sliceCount(b)
	if ka == 1 && kb == 1 {
		return err // one slice each is a itself and b itself: nothing to cut
	}
	la, lb := a.Len(), b.Len()
	n := la + lb - 1
	square := la == lb && a.Width == b.Width && &a.Limbs[0] == &b.Limbs[0]
	as := slicesOf(a, ka)
	bs := as
	if !square {
		bs = slicesOf(b, kb)
	}
	// One product's coefficients: |A_k·B_l| < 2^(65+65+⌈log2 min⌉), and a
	// sum of at most min(ka, kb) of them (twice that for a square's pairs).
	terms := min(ka, kb)
	if square {
		terms *= 2
	}
	pw := WidthFor(needBitsSigned(65, 65, min(la, lb)) - 1)
	sw := WidthFor(needBitsSigned(65, 65, min(la, lb)) + log2Ceil(terms))
	prod, sum := NewPacked(n, pw), NewPacked(n, sw)
	clear(dst.Limbs)
	workers := runtime.GOMAXPROCS(0)
	for s := range ka + kb - 1 {
		clear(sum.Limbs)
		for k := max(0, s-kb+1); k <= min(s, ka-1); k++ {
			l := s - k
			if square && k > l {
				break // added twice at k < l
			}
			if err := acc.MulPacked(prod, as[k], bs[l]); err != nil {
				return fmt.Errorf("a product of 64-bit slices (%d of %d by %d of %d): %w", k, ka, l, kb, err)
			}
			addSliceSum(sum, prod, 0, workers)
			if square && k < l {
				addSliceSum(sum, prod, 0, workers)
			}
		}
		addSliceSum(dst, sum, s, workers)
	}
	return nil
}

// sliceCount returns the 64-bit slices mulOnAccel cuts p's coefficients
// into: the least K ≥ 1 with every |coefficient| < 2^(64K), so that the top
// slice, the coefficient shifted right by 64(K−1), is at most 2^64 in
// magnitude.
func sliceCount(p Packed) int {
	W := p.Width
	for K := 1; K < W; K++ {
		ok := true
		for i := range p.Len() {
			if !fitsBits(p.Limbs[i*W:(i+1)*W], 64*K) {
				ok = false
				break
			}
		}
		if ok {
			return K
		}
	}
	return W
}

// slicesOf returns p's K slice polynomials of Width 2: slice k < K−1 holds
// limb k of each coefficient as an unsigned value, slice K−1 the
// coefficient shifted right (arithmetically) by 64(K−1).
func slicesOf(p Packed, K int) []Packed {
	W, n := p.Width, p.Len()
	out := make([]Packed, K)
	for k := range out {
		out[k] = NewPacked(n, 2)
	}
	for i := range n {
		c := p.Limbs[i*W : (i+1)*W]
		for k := range K - 1 {
			out[k].Limbs[2*i] = c[k]
		}
		sign := uint64(0) // |c| < 2^(64K): limbs K… are its sign
		if c[W-1]>>63 == 1 {
			sign = ^uint64(0)
		}
		out[K-1].Limbs[2*i], out[K-1].Limbs[2*i+1] = c[K-1], sign
	}
	return out
}

// addSliceSum adds src·2^(64s) into dst coefficient by coefficient, modulo
// 2^(64·dst.Width), src sign-extended.
func addSliceSum(dst, src Packed, s, workers int) {
	W, w, n := dst.Width, src.Width, dst.Len()
	if s >= W {
		return
	}
	const chunk = 1 << 12
	parallelFor(workers, ceilDiv(n, chunk), func(t int) {
		for i := t * chunk; i < min(n, (t+1)*chunk); i++ {
			d := dst.Limbs[i*W+s : (i+1)*W]
			x := src.Limbs[i*w : (i+1)*w]
			ext := uint64(0)
			if x[w-1]>>63 == 1 {
				ext = ^uint64(0)
			}
			var carry uint64
			for j := range d {
				v := ext
				if j < w {
					v = x[j]
				}
				d[j], carry = bits.Add64(d[j], v, carry)
			}
		}
	})
}
