package intpoly

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Sizes for the benchmarks, e.g. -intpoly.logs=16,20,24 -intpoly.bits=64,256.
var (
	benchLogs    = flag.String("intpoly.logs", "12,16", "log2 of the polynomial lengths the benchmarks run")
	benchBits    = flag.String("intpoly.bits", "64,256", "coefficient sizes (two's-complement bits) the benchmarks run")
	benchIntLogs = flag.String("intpoly.intlogs", "16,20", "log2 of the integer sizes in bits the MulBig benchmarks run")
	benchMathBig = flag.Int("intpoly.mathbig", 24, "log2 of the largest size math/big runs at in BenchmarkMulBig (2^28 bits takes minutes)")
)

func intList(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// randPacked returns n random coefficients of bits-bit two's complement
// (|x| < 2^(bits−1)), in the width that holds them.
func randPacked(r *rand.Rand, n, bits int) Packed {
	w := (bits + 63) / 64
	p := NewPacked(n, w)
	for i := range n {
		l := p.Limbs[i*w : (i+1)*w]
		for t := range l {
			l[t] = r.Uint64()
		}
		// Sign-extend from bit bits−1.
		top := bits - 64*(w-1)
		if top < 64 {
			v := l[w-1] << uint(64-top)
			l[w-1] = uint64(int64(v) >> uint(64-top))
		}
	}
	return p
}

// BenchmarkMulPacked multiplies two polynomials of 2^log coefficients of
// the given bits (two's complement) with a Multiplier, as the issue's
// table: 64-bit coefficients (int64) and 256- and 1024-bit ones.
func BenchmarkMulPacked(b *testing.B) {
	for _, lg := range intList(*benchLogs) {
		for _, bits := range intList(*benchBits) {
			b.Run(fmt.Sprintf("n=2^%d/bits=%d", lg, bits), func(b *testing.B) {
				r := rand.New(rand.NewPCG(uint64(lg), uint64(bits)))
				n := 1 << lg
				x, y := randPacked(r, n, bits), randPacked(r, n, bits)
				m, err := NewMultiplier(n, n, bits-1, bits-1)
				if err != nil {
					b.Fatal(err)
				}
				dst := NewPacked(2*n-1, m.OutWidth())
				b.SetBytes(int64(2 * n * bits / 8))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := m.MulPacked(dst, x, y); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(m.Primes())), "primes")
			})
		}
	}
}

// BenchmarkMul is BenchmarkMulPacked through the *big.Int entry point.
func BenchmarkMul(b *testing.B) {
	for _, lg := range intList(*benchLogs) {
		for _, bits := range intList(*benchBits) {
			b.Run(fmt.Sprintf("n=2^%d/bits=%d", lg, bits), func(b *testing.B) {
				r := rand.New(rand.NewPCG(uint64(lg), uint64(bits)))
				n := 1 << lg
				x, y := randPacked(r, n, bits).Big(), randPacked(r, n, bits).Big()
				b.SetBytes(int64(2 * n * bits / 8))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Mul(x, y); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func randNat(r *rand.Rand, bits int) *big.Int {
	p := randPacked(r, 1, bits+1).Coeff(0)
	return p.Abs(p).SetBit(p, bits-1, 1)
}

// BenchmarkMulBig multiplies two integers of 2^log bits with MulBig
// (transforms above the crossover) and with math/big.
func BenchmarkMulBig(b *testing.B) {
	for _, lg := range intList(*benchIntLogs) {
		r := rand.New(rand.NewPCG(uint64(lg), 7))
		x, y := randNat(r, 1<<lg), randNat(r, 1<<lg)
		b.Run(fmt.Sprintf("bits=2^%d/intpoly", lg), func(b *testing.B) {
			b.SetBytes(int64(2 << lg / 8))
			for b.Loop() {
				if _, err := MulBig(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		if lg <= *benchMathBig {
			b.Run(fmt.Sprintf("bits=2^%d/mathbig", lg), func(b *testing.B) {
				b.SetBytes(int64(2 << lg / 8))
				z := new(big.Int)
				for b.Loop() {
					z.Mul(x, y)
				}
			})
		}
	}
}
