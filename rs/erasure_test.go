package rs

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// erasePattern returns a presence mask over 2^n positions with exactly
// `erase` positions missing, in one of several shapes: random, a prefix, a
// suffix, whole aligned blocks, every other position.
func erasePattern(r *rand.Rand, n, erase, shape int) []bool {
	N := 1 << n
	present := make([]bool, N)
	for i := range present {
		present[i] = true
	}
	var order []int
	switch shape % 4 {
	case 0:
		order = r.Perm(N)
	case 1: // prefix
		for i := range N {
			order = append(order, i)
		}
	case 2: // suffix
		for i := N - 1; i >= 0; i-- {
			order = append(order, i)
		}
	case 3: // even positions first, then odd
		for i := 0; i < N; i += 2 {
			order = append(order, i)
		}
		for i := 1; i < N; i += 2 {
			order = append(order, i)
		}
	}
	for _, i := range order[:erase] {
		present[i] = false
	}
	return present
}

func TestErasureReconstruct(t *testing.T) {
	r := newRand(t, 3)
	for n := 1; n <= 13; n++ {
		for k := 0; k < n; k++ {
			basis := randBasis(r, n)
			shift := gf64.Element(0)
			if r.IntN(2) == 1 {
				shift = randElem(r)
			}
			e, err := newErasure(mustSub(t, shift, basis...), k)
			require.NoError(t, err)
			N, K := 1<<n, 1<<k
			coeffs := randVec(r, K)
			cw := make([]gf64.Element, N)
			if n <= 10 {
				for i, x := range points(shift, basis) {
					cw[i] = hornerEval(coeffs, x)
				}
			} else {
				// domain's FFT, tested against Horner there, for speed.
				copy(cw, coeffs)
				require.NoError(t, mustSub(t, shift, basis...).FFT(cw))
			}
			buf := make([]gf64.Element, 4*N)
			for trial := range 8 {
				erase := r.IntN(N - K + 1)
				if trial == 0 {
					erase = N - K
				}
				present := erasePattern(r, n, erase, trial)
				word := append([]gf64.Element(nil), cw...)
				for i, p := range present {
					if !p {
						word[i] = randElem(r)
					}
				}
				dst := make([]gf64.Element, N)
				require.True(t, e.reconstruct(dst, word, present, erase, buf, trial%2 == 1), "n=%d k=%d erase=%d: reported inconsistent", n, k, erase)
				testutil.RequireEqualSlices(t, cw, dst, "n=%d k=%d erase=%d shape=%d: reconstructed codeword", n, k, erase, trial)
				// A changed present symbol is caught when there is
				// redundancy left.
				if erase < N-K {
					var idx int
					for idx = r.IntN(N); !present[idx]; idx = r.IntN(N) {
					}
					word[idx] ^= 1 + gf64.Element(r.Uint64()>>1)
					require.False(t, e.reconstruct(dst, word, present, erase, buf, true), "n=%d k=%d erase=%d: corrupted word accepted", n, k, erase)
				}
			}
		}
	}
}
