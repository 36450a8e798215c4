package fermat

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sync"
)

// TwoAdicity is the largest e with 2^e dividing p − 1 (the seed's Table 3.1):
// the field has primitive 2^e-th roots of unity for every e ≤ 272.
const TwoAdicity = 272

// MaxLogLen is the largest log2 of a length RootOfUnity, FFT and IFFT accept
// (2^62 is the largest power of two an int holds; memory ends long before).
const MaxLogLen = 62

// ErrLength is wrapped by the errors for unsupported transform lengths.
var ErrLength = errors.New("fermat: unsupported length")

var (
	rootOnce sync.Once
	root272  Element // primitive 2^272-th root with root272^(2^268) = r
)

// maxRoot returns the primitive 2^272-th root of unity from which every
// other root is a power: the seed's Algorithm 3.1, so that the 16th root
// reached from it is r itself. It is found with math/big at first use.
func maxRoot() *Element {
	rootOnce.Do(func() {
		p := modulus
		q := new(big.Int).Rsh(pMinus1, TwoAdicity) // p − 1 = q·2^272
		e271 := new(big.Int).Lsh(big.NewInt(1), TwoAdicity-1)
		e268 := new(big.Int).Lsh(big.NewInt(1), TwoAdicity-4)
		g := new(big.Int)
		t := new(big.Int)
		for a := int64(3); ; a++ {
			g.Exp(big.NewInt(a), q, p)
			if t.Exp(g, e271, p).Cmp(pMinus1) == 0 {
				break // g^(2^271) = −1: g has order exactly 2^272
			}
		}
		// g^(2^268) is a primitive 16th root, so r^i0 with i0 odd;
		// g^j with j·i0 ≡ 1 (mod 16) reaches r.
		t.Exp(g, e268, p)
		var ge, ri Element
		ge.SetBig(t)
		i0 := -1
		for i := 1; i < 16; i += 2 {
			if *ri.SetRPow(i) == ge {
				i0 = i
			}
		}
		if i0 < 0 {
			panic("fermat: no power of r equals the 16th root of unity")
		}
		j := new(big.Int).ModInverse(big.NewInt(int64(i0)), big.NewInt(16))
		g.Exp(g, j, p)
		root272.SetBig(g)
	})
	return &root272
}

// logLen returns log2 n for the lengths the transforms accept, or an error
// naming them.
func logLen(n int) (int, error) {
	if n <= 0 || n&(n-1) != 0 {
		return 0, fmt.Errorf("%w: %d: the supported lengths are the powers of two 1, 2, 4, …, 2^%d (16^e among them)", ErrLength, n, MaxLogLen)
	}
	return bits.TrailingZeros(uint(n)), nil
}

// RootOfUnity returns the primitive n-th root of unity ω that FFT and IFFT
// use for length n, for every power of two n = 2^k, k ≤ MaxLogLen. The
// roots are consistent: RootOfUnity(2n)² = RootOfUnity(n), and
// RootOfUnity(16) = r, so ω^(n/16) = r for n ≥ 16 (twiddles that are powers
// of ω^(n/16) are digit shifts). Other lengths return an error wrapping
// ErrLength that names the supported ones.
func RootOfUnity(n int) (Element, error) {
	k, err := logLen(n)
	if err != nil {
		return Element{}, err
	}
	var w Element
	if k <= 4 {
		w.SetRPow(16 >> k)
		return w, nil
	}
	w = *maxRoot()
	for i := k; i < TwoAdicity; i++ {
		w.Square(&w)
	}
	return w, nil
}
