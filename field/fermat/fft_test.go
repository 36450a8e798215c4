package fermat

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

func randVector(rng *rand.Rand, n int) []Element {
	a := make([]Element, n)
	for i := range a {
		a[i] = randElement(rng)
	}
	// a few edge values
	if n > 2 {
		a[0].SetBig(pMinus1)
		a[1].SetZero()
		a[n-1].SetRPow(3)
	}
	return a
}

// naiveDFT is A_j = Σ a_i ω^(ij) in math/big, with ω from math/big too.
func naiveDFT(a []Element, w *big.Int) []*big.Int {
	p := Modulus()
	n := len(a)
	out := make([]*big.Int, n)
	t := new(big.Int)
	for j := 0; j < n; j++ {
		wj := new(big.Int).Exp(w, big.NewInt(int64(j)), p)
		s, x := new(big.Int), big.NewInt(1)
		for i := 0; i < n; i++ {
			s.Add(s, t.Mul(a[i].Big(), x))
			x.Mul(x, wj).Mod(x, p)
		}
		out[j] = s.Mod(s, p)
	}
	return out
}

func TestRootOfUnity(t *testing.T) {
	p := Modulus()
	rb := new(big.Int).SetUint64(R)
	var one, minus1 Element
	one.SetOne()
	minus1.SetBig(big.NewInt(-1))
	var prev Element
	for k := 0; k <= MaxLogLen; k++ {
		w, err := RootOfUnity(1 << k)
		require.NoError(t, err)
		wb := w.Big()
		// order exactly 2^k, checked in math/big
		assert.Equal(t, 0, new(big.Int).Exp(wb, new(big.Int).Lsh(big.NewInt(1), uint(k)), p).Cmp(big.NewInt(1)), "ω^n = 1, k=%d", k)
		if k > 0 {
			assert.Equal(t, 0, new(big.Int).Exp(wb, new(big.Int).Lsh(big.NewInt(1), uint(k-1)), p).Cmp(pMinus1), "ω^(n/2) = −1, k=%d", k)
			var sq Element
			sq.Square(&w)
			assert.Equal(t, prev, sq, "RootOfUnity(2n)² = RootOfUnity(n), k=%d", k)
		}
		if k >= 4 {
			e := new(big.Int).Lsh(big.NewInt(1), uint(k-4))
			assert.Equal(t, 0, new(big.Int).Exp(wb, e, p).Cmp(rb), "ω^(n/16) = r, k=%d", k)
		}
		prev = w
	}
	w16, _ := RootOfUnity(16)
	assert.Equal(t, Element{0, 1}, w16, "r is the 16th root")
	// the 2^272-th root has order exactly 2^272
	g := maxRoot().Big()
	assert.Equal(t, 0, new(big.Int).Exp(g, new(big.Int).Lsh(big.NewInt(1), TwoAdicity-1), p).Cmp(pMinus1))
	for _, n := range []int{0, -16, 3, 12, 48, 1<<20 + 16} {
		_, err := RootOfUnity(n)
		require.ErrorIs(t, err, ErrLength, "n=%d", n)
		assert.Contains(t, err.Error(), "powers of two")
		assert.Contains(t, err.Error(), fmt.Sprint(n))
	}
}

func TestFFTNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for k := 0; k <= 8; k++ {
		n := 1 << k
		a := randVector(rng, n)
		w, err := RootOfUnity(n)
		require.NoError(t, err)
		want := naiveDFT(a, w.Big())
		got := append([]Element(nil), a...)
		require.NoError(t, FFT(got))
		for j := range got {
			require.True(t, got[j].IsCanonical())
			require.Equal(t, 0, want[j].Cmp(got[j].Big()), "n=%d, A_%d", n, j)
		}
		require.NoError(t, IFFT(got))
		assert.Equal(t, a, got, "IFFT∘FFT, n=%d", n)
	}
}

// TestFFTRoundTrip: IFFT∘FFT = id at every size 2^0..2^16 (to 2^20 = 16^5
// under GFPOLY_LONG, to 2^13 with -short).
func TestFFTRoundTrip(t *testing.T) {
	maxK := testutil.Sweep(13, 16, 20)
	rng := rand.New(rand.NewPCG(9, 10))
	for k := 0; k <= maxK; k++ {
		n := 1 << k
		a := randVector(rng, n)
		b := append([]Element(nil), a...)
		require.NoError(t, FFT(b))
		if n > 1 {
			assert.NotEqual(t, a, b)
		}
		require.NoError(t, IFFT(b))
		require.Equal(t, a, b, "IFFT∘FFT = id, n=2^%d", k)
	}
}

// TestConvolution checks the convolution theorem: IFFT(FFT(a)·FFT(b)) is the
// cyclic convolution of a and b, computed directly with math/big.
func TestConvolution(t *testing.T) {
	p := Modulus()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 8, 16, 32, 128, 512} {
		a, b := randVector(rng, n), randVector(rng, n)
		fa, fb := append([]Element(nil), a...), append([]Element(nil), b...)
		require.NoError(t, FFT(fa))
		require.NoError(t, FFT(fb))
		for i := range fa {
			fa[i].Mul(&fa[i], &fb[i])
		}
		require.NoError(t, IFFT(fa))
		for k := 0; k < n; k++ {
			s := new(big.Int)
			for i := 0; i < n; i++ {
				s.Add(s, new(big.Int).Mul(a[i].Big(), b[(k-i+n)%n].Big()))
			}
			s.Mod(s, p)
			require.Equal(t, 0, s.Cmp(fa[k].Big()), "n=%d, c_%d", n, k)
		}
	}
}

func TestFFTErrors(t *testing.T) {
	for _, n := range []int{0, 3, 6, 24, 100} {
		a := make([]Element, n)
		err := FFT(a)
		require.ErrorIs(t, err, ErrLength, "n=%d", n)
		assert.Contains(t, err.Error(), "1, 2, 4")
		require.ErrorIs(t, IFFT(a), ErrLength)
	}
	a := make([]Element, 16)
	a[5] = Element{R}
	err := FFT(a)
	require.ErrorIs(t, err, ErrNotCanonical)
	assert.Contains(t, err.Error(), "index 5")
	assert.Equal(t, Element{R}, a[5], "input unchanged")
	require.ErrorIs(t, IFFT(a), ErrNotCanonical)
}

// TestTwiddles recomputes a cached table with math/big.
func TestTwiddles(t *testing.T) {
	for _, k := range []int{5, 9} {
		tw := twiddles(k)
		w, _ := RootOfUnity(1 << k)
		require.Len(t, tw, 1<<(k-4))
		p := Modulus()
		for i, x := range tw {
			want := new(big.Int).Exp(w.Big(), big.NewInt(int64(i)), p)
			require.Equal(t, 0, want.Cmp(x.Big()), "k=%d i=%d", k, i)
		}
	}
}
