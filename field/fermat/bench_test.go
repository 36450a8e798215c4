package fermat_test

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

func randElements(n int) []fermat.Element {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	a := make([]fermat.Element, n)
	for i := range a {
		for j := range a[i] {
			a[i][j] = rng.Uint64N(fermat.R)
		}
	}
	return a
}

func BenchmarkElement(b *testing.B) {
	a := randElements(2)
	x, y := a[0], a[1]
	b.Run("Mul", func(b *testing.B) {
		for b.Loop() {
			x.Mul(&x, &y)
		}
	})
	b.Run("Add", func(b *testing.B) {
		for b.Loop() {
			x.Add(&x, &y)
		}
	})
	b.Run("MulByRPow3", func(b *testing.B) {
		for b.Loop() {
			x.MulByRPow(&x, 3)
		}
	})
	p := fermat.Modulus()
	xb, yb := x.Big(), y.Big()
	b.Run("BigMulMod", func(b *testing.B) {
		z := new(big.Int)
		for b.Loop() {
			z.Mul(xb, yb)
			z.Mod(z, p)
		}
	})
}

// bigFFT is the math/big baseline: an iterative radix-2 Cooley–Tukey
// transform (bit reversal, then log2 n levels) over *big.Int mod p, with
// the same ω as fermat.FFT, so its output equals fermat.FFT's.
func bigFFT(a []*big.Int, w *big.Int) {
	p := fermat.Modulus()
	n := len(a)
	logn := bits.TrailingZeros(uint(n))
	for i := range a {
		j := int(bits.Reverse(uint(i)) >> (bits.UintSize - logn))
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	t := new(big.Int)
	for m := 2; m <= n; m <<= 1 {
		wm := new(big.Int).Exp(w, big.NewInt(int64(n/m)), p)
		tw := make([]*big.Int, m/2)
		tw[0] = big.NewInt(1)
		for j := 1; j < m/2; j++ {
			tw[j] = new(big.Int).Mul(tw[j-1], wm)
			tw[j].Mod(tw[j], p)
		}
		for k := 0; k < n; k += m {
			for j := 0; j < m/2; j++ {
				u, v := a[k+j], a[k+j+m/2]
				t.Mul(v, tw[j]).Mod(t, p)
				v.Sub(u, t)
				if v.Sign() < 0 {
					v.Add(v, p)
				}
				u.Add(u, t)
				if u.Cmp(p) >= 0 {
					u.Sub(u, p)
				}
			}
		}
	}
}

func TestBigFFTBaseline(t *testing.T) {
	a := randElements(256)
	ab := make([]*big.Int, len(a))
	for i := range a {
		ab[i] = a[i].Big()
	}
	w, _ := fermat.RootOfUnity(len(a))
	bigFFT(ab, w.Big())
	if err := fermat.FFT(a); err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].Big().Cmp(ab[i]) != 0 {
			t.Fatalf("baseline differs at %d", i)
		}
	}
}

var fftSizes = []struct {
	name string
	n    int
}{{"16^2", 1 << 8}, {"16^3", 1 << 12}, {"16^4", 1 << 16}, {"16^5", 1 << 20}}

// BenchmarkFFT: fermat.FFT on one core and on all cores, and the math/big
// transform (one core), at N = 16^2 … 16^5.
func BenchmarkFFT(b *testing.B) {
	for _, s := range fftSizes {
		a := randElements(s.n)
		for _, procs := range []int{1, runtime.NumCPU()} {
			b.Run(fmt.Sprintf("N=%s/cores=%d", s.name, procs), func(b *testing.B) {
				old := runtime.GOMAXPROCS(procs)
				defer runtime.GOMAXPROCS(old)
				b.SetBytes(int64(64 * s.n))
				b.ReportAllocs()
				for b.Loop() {
					if err := fermat.FFT(a); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("N=%s/mathbig", s.name), func(b *testing.B) {
			w, _ := fermat.RootOfUnity(s.n)
			wb := w.Big()
			ab := make([]*big.Int, s.n)
			for i := range a {
				ab[i] = a[i].Big()
			}
			b.SetBytes(int64(64 * s.n))
			for b.Loop() {
				bigFFT(ab, wb)
			}
		})
	}
}

// BenchmarkMulBig is the seed's question on the CPU: the same product of
// two big integers by one 505-bit prime (fermat.MulBig, a transform of N
// points), by poly/intpoly's word-size primes and CRT, and by math/big.
// The operands have N/2 chunks of 240 bits each, so fermat's transform
// length is exactly N.
func BenchmarkMulBig(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range fftSizes {
		nbits := s.n / 2 * 240
		x, y := randInt(rng, nbits), randInt(rng, nbits)
		for _, procs := range []int{1, runtime.NumCPU()} {
			run := func(name string, f func() (*big.Int, error)) {
				b.Run(fmt.Sprintf("N=%s/bits=%d/%s/cores=%d", s.name, nbits, name, procs), func(b *testing.B) {
					old := runtime.GOMAXPROCS(procs)
					defer runtime.GOMAXPROCS(old)
					b.SetBytes(int64(nbits / 4))
					for b.Loop() {
						if _, err := f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			run("fermat", func() (*big.Int, error) { return fermat.MulBig(x, y) })
			run("intpoly", func() (*big.Int, error) { return intpoly.MulBig(x, y) })
			if procs == 1 {
				run("mathbig", func() (*big.Int, error) { return new(big.Int).Mul(x, y), nil })
			}
		}
	}
}

func randInt(rng *rand.Rand, nbits int) *big.Int {
	w := make([]big.Word, (nbits+63)/64)
	for i := range w {
		w[i] = big.Word(rng.Uint64())
	}
	x := new(big.Int).SetBits(w)
	return x.SetBit(x, nbits-1, 1)
}
