package prime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLDE(t *testing.T) {
	t.Run("bn254", func(t *testing.T) { testLDE(t, bn254Field()) })
	t.Run("goldilocks", func(t *testing.T) { eachNTT64(t, func(t *testing.T) { testLDE(t, goldilocksField()) }) })
	t.Run("babybear", func(t *testing.T) { testLDE(t, babyBearField()) })
	t.Run("koalabear", func(t *testing.T) { testLDE(t, koalaBearField()) })
}

// testLDE: the LDE equals gnark-crypto's INTT on the small domain followed by
// the coset NTT of the zero-padded coefficients on the large domain, for
// every order and blowup; and, for small sizes, the definition p(g·ω_N^i).
func testLDE[E Element, P testElem[E]](t *testing.T, f field[E]) {
	rng := rand.New(rand.NewPCG(5, uint64(f.maxLog)))
	maxLog := 10
	if testing.Short() {
		maxLog = 8
	}
	var shift E
	P(&shift).SetUint64(11)
	for logN := 0; logN <= maxLog; logN++ {
		n := 1 << logN
		small := f.newDomain(uint64(n), logN%2 == 0, nil)
		for _, blowup := range []int{2, 4, 8, 16} {
			if logN > 6 && blowup != 4 && blowup != 16 {
				continue
			}
			bigN := n * blowup
			var s *E
			if blowup == 8 {
				s = &shift // a domain with a caller-chosen coset shift
			}
			large := f.newDomain(uint64(bigN), true, s)
			l, err := NewLDE[E](small, large, WithWorkers(1+logN%3))
			require.NoError(t, err)
			require.Equal(t, n, l.SmallSize(), "SmallSize")
			require.Equal(t, bigN, l.LargeSize(), "LargeSize")
			require.Equal(t, blowup, l.Blowup(), "Blowup")
			ncols := 1 + logN%3
			in := randomCols[E, P](rng, f, ncols, n)
			// Reference, natural order: INTT (natural in and out), pad, coset NTT.
			wantNat := make([][]E, ncols)
			for c := range in {
				coef := append([]E(nil), in[c]...)
				f.gnark(small, coef, Natural, true, false)
				wantNat[c] = make([]E, bigN)
				copy(wantNat[c], coef)
				f.gnark(large, wantNat[c], Natural, false, true)
				if logN <= 4 {
					// p(g·ω_N^i) at all N points of the coset, by Horner's rule.
					padded := make([]E, bigN)
					copy(padded, coef)
					def := naiveNTT[E, P](padded, f.gen(large), f.shift(large))
					equalCols(t, "reference vs definition", [][]E{wantNat[c]}, [][]E{def})
				}
			}
			for _, ord := range orders {
				src := cloneCols(in)
				want := wantNat
				if ord == DIT {
					for c := range src {
						src[c] = permute(src[c])
					}
				}
				if ord == DIF {
					want = make([][]E, ncols)
					for c := range wantNat {
						want[c] = permute(wantNat[c])
					}
				}
				srcCopy := cloneCols(src)
				dst := make([][]E, ncols)
				for c := range dst {
					dst[c] = randomVec[E, P](rng, f, bigN) // garbage that must be overwritten
				}
				require.NoError(t, l.Encode(dst, src, ord))
				what := fmt.Sprintf("LDE 2^%d x%d %v", logN, blowup, ord)
				equalCols(t, what, dst, want)
				equalCols(t, what+" (src unchanged)", src, srcCopy)

				// In place: src[c] is the head of dst[c].
				for c := range dst {
					dst[c] = randomVec[E, P](rng, f, bigN)
					copy(dst[c], srcCopy[c])
					src[c] = dst[c][:n]
				}
				require.NoError(t, l.Encode(dst, src, ord))
				equalCols(t, what+" in place", dst, want)
			}
		}
	}
}

func TestSpread(t *testing.T) {
	for logB := 1; logB <= 4; logB++ {
		for n := 1; n <= 8; n++ {
			b := 1 << logB
			v := make([]int, n*b)
			for i := range v {
				v[i] = -1
			}
			for i := range n {
				v[i] = i + 1
			}
			spread(v, n, logB)
			want := make([]int, n*b)
			for i := range want {
				if i%b == 0 {
					want[i] = i/b + 1
				}
			}
			require.Equal(t, want, v, "n=%d b=%d", n, b)
		}
	}
}
