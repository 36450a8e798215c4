package fermat

import (
	"fmt"
	"math/big"
	"runtime"
	"sync"
)

// FFT replaces a by its discrete Fourier transform in natural order:
// A_j = Σ_i a_i·ω^(ij), ω = RootOfUnity(len(a)). len(a) must be a power of
// two (errors wrap ErrLength and name the supported lengths) and every
// element canonical (ErrNotCanonical otherwise; a is then unchanged).
//
// It is a Stockham autosort FFT: natural order in and out, no bit
// reversal, one scratch buffer of len(a) elements. Its stages have radix 16
// (one radix 2, 4 or 8 stage first when log2 len(a) is not a multiple of 4);
// inside a stage every product is by a power of r, a digit shift; general
// products (Mul) happen only between stages, on the twiddles. Each stage is
// spread over GOMAXPROCS goroutines.
func FFT(a []Element) error {
	k, err := check(a)
	if err != nil {
		return err
	}
	transform(a, k)
	return nil
}

// IFFT replaces a by its inverse transform: a_i = (1/n)·Σ_j A_j·ω^(−ij),
// so IFFT(FFT(a)) = a. Lengths and errors as for FFT.
func IFFT(a []Element) error {
	k, err := check(a)
	if err != nil {
		return err
	}
	transform(a, k)
	n := len(a)
	// Σ_j A_j ω^(−ij) is the forward transform read at index −i.
	for i := 1; i < n-i; i++ {
		a[i], a[n-i] = a[n-i], a[i]
	}
	var inv Element
	inv.SetBig(new(big.Int).ModInverse(big.NewInt(int64(n)), modulus))
	if n == 1 {
		return nil
	}
	parallel(n, 1<<12, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i].Mul(&a[i], &inv)
		}
	})
	return nil
}

func check(a []Element) (int, error) {
	k, err := logLen(len(a))
	if err != nil {
		return 0, err
	}
	for i := range a {
		if !a[i].IsCanonical() {
			return 0, fmt.Errorf("%w: index %d: %v", ErrNotCanonical, i, [Digits]uint64(a[i]))
		}
	}
	return k, nil
}

// twiddleTables caches, per log2 n ≥ 5, the powers ω^i, i < n/16, of
// ω = RootOfUnity(n); the twiddle ω^E is r^(E/(n/16))·ω^(E mod n/16).
var twiddleTables sync.Map // int → []Element

func twiddles(k int) []Element {
	if t, ok := twiddleTables.Load(k); ok {
		return t.([]Element)
	}
	w, _ := RootOfUnity(1 << k)
	m := 1 << (k - 4)
	t := make([]Element, m)
	parallel(m, 1<<10, func(lo, hi int) {
		var x Element
		x.Exp(&w, big.NewInt(int64(lo)))
		for i := lo; i < hi; i++ {
			t[i] = x
			x.Mul(&x, &w)
		}
	})
	v, _ := twiddleTables.LoadOrStore(k, t)
	return v.([]Element)
}

// transform is FFT on a checked input of length 2^k.
func transform(a []Element, k int) {
	n := len(a)
	if n == 1 {
		return
	}
	var tw []Element
	if k > 4 {
		tw = twiddles(k)
	}
	src, dst := a, make([]Element, n)
	first := k % 4
	if first == 0 {
		first = 4
	}
	ns := 1
	for logR := first; ; logR = 4 {
		stage(dst, src, tw, k, logR, ns)
		src, dst = dst, src
		ns <<= logR
		if ns == n {
			break
		}
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// stage is one Stockham pass of radix R = 2^logR over sub-transforms of
// length ns already done: for each j < n/R, with m = j mod ns, the R inputs
// src[j + t·n/R] times ω_L^(t·m) (L = ns·R) go through a DFT_R and land at
// dst[(j/ns)·L + m + t·ns].
func stage(dst, src, tw []Element, k, logR, ns int) {
	n := len(src)
	radix := 1 << logR
	stride := n / radix
	L := ns * radix
	quarter := n >> 4 // n/16: ω^(n/16) = r
	scale := n / L    // ω_L = ω^scale
	parallel(stride, 1<<6, func(lo, hi int) {
		var v [16]Element
		for j := lo; j < hi; j++ {
			m := j % ns
			for t := 0; t < radix; t++ {
				v[t] = src[j+t*stride]
			}
			if m != 0 {
				for t := 1; t < radix; t++ {
					e := t * m * scale
					q, rem := e/quarter, e%quarter
					if rem != 0 {
						v[t].Mul(&v[t], &tw[rem])
					}
					if q != 0 {
						v[t].MulByRPow(&v[t], q)
					}
				}
			}
			dftSmall(&v, logR)
			base := (j/ns)*L + m
			rev := bitrev[logR]
			for t := 0; t < radix; t++ {
				dst[base+t*ns] = v[rev[t]]
			}
		}
	})
}

// bitrev[l][t] is t with its l low bits reversed.
var bitrev = func() (b [5][16]int) {
	for l := 0; l <= 4; l++ {
		for t := 0; t < 1<<l; t++ {
			x := 0
			for i := 0; i < l; i++ {
				x |= (t >> i & 1) << (l - 1 - i)
			}
			b[l][t] = x
		}
	}
	return
}()

// dftSmall replaces v[:R], R = 2^logR ≤ 16, by its DFT for ω_R = r^(16/R),
// in bit-reversed order: radix-2 decimation in frequency, whose twiddles are
// all powers of r (MulByRPow, a subtraction each).
func dftSmall(v *[16]Element, logR int) {
	radix := 1 << logR
	var d Element
	for m := radix; m >= 2; m >>= 1 {
		h := m >> 1
		step := 16 / m // ω_m = r^step
		for base := 0; base < radix; base += m {
			for j := 0; j < h; j++ {
				a, b := &v[base+j], &v[base+j+h]
				if j == 0 {
					d.Sub(a, b)
					a.Add(a, b)
					*b = d
				} else {
					d.subMulByRPow(a, b, j*step)
					a.Add(a, b)
					*b = d
				}
			}
		}
	}
}

// parallel runs f over [0, n) in contiguous ranges of at least grain
// indices on up to GOMAXPROCS goroutines.
func parallel(n, grain int, f func(lo, hi int)) {
	w := runtime.GOMAXPROCS(0)
	if c := (n + grain - 1) / grain; c < w {
		w = c
	}
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		lo, hi := i*n/w, (i+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
