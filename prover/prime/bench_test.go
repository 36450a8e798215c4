package prime

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// The default benchmark run covers 2^16; -prime.logs selects
// others, e.g. -prime.logs=16,18,20,22,24,26 (2^26 BN254 columns and their
// domain tables need about 10 GiB).
var benchLogs = flag.String("prime.logs", "16", "comma-separated log2 sizes for the prime benchmarks")

func logSizes(b *testing.B) []int {
	var out []int
	for _, s := range strings.Split(*benchLogs, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		require.NoError(b, err, "-prime.logs entry %q", s)
		require.True(b, k >= 0 && k <= 32, "-prime.logs entry %q: want a log2 size from 0 to 32", s)
		out = append(out, k)
	}
	return out
}

// benchField runs body for each size this field supports.
func benchField[E Element, P testElem[E]](b *testing.B, f field[E], extra int, body func(b *testing.B, logN int)) {
	b.Run(f.name, func(b *testing.B) {
		for _, logN := range logSizes(b) {
			if logN+extra > f.maxLog {
				continue
			}
			b.Run(fmt.Sprintf("2^%d", logN), func(b *testing.B) { body(b, logN) })
		}
	})
}

func benchNTT[E Element, P testElem[E]](b *testing.B, f field[E], gnark bool, ncols, workers int) {
	benchField[E, P](b, f, 0, func(b *testing.B, logN int) {
		n := 1 << logN
		d := f.newDomain(uint64(n), true, nil)
		e, err := New[E](d, WithWorkers(workers))
		require.NoError(b, err)
		rng := rand.New(rand.NewPCG(1, 1))
		cols := randomCols[E, P](rng, f, ncols, n)
		ref := f.gnark
		if workers == 1 {
			ref = f.gnarkOne
		}
		var z E
		b.SetBytes(int64(n * ncols * int(unsafe.Sizeof(z))))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if gnark {
				for _, c := range cols {
					ref(d, c, DIF, false, false)
				}
			} else {
				require.NoError(b, e.FFT(cols, DIF))
			}
		}
	})
}

// BenchmarkFFT: one column, DIF, all cores.
func BenchmarkFFT(b *testing.B) {
	all := runtime.GOMAXPROCS(0)
	benchNTT(b, bn254Field(), false, 1, all)
	benchNTT(b, goldilocksField(), false, 1, all)
	benchNTT(b, babyBearField(), false, 1, all)
	benchNTT(b, koalaBearField(), false, 1, all)
}

// BenchmarkGnarkFFT: the baseline, gnark-crypto's Domain.FFT(col, fft.DIF)
// with its default options (all cores), one column.
func BenchmarkGnarkFFT(b *testing.B) {
	all := runtime.GOMAXPROCS(0)
	benchNTT(b, bn254Field(), true, 1, all)
	benchNTT(b, goldilocksField(), true, 1, all)
	benchNTT(b, babyBearField(), true, 1, all)
	benchNTT(b, koalaBearField(), true, 1, all)
}

// BenchmarkFFTOneCore: one column, DIF, one goroutine (WithWorkers(1)),
// against BenchmarkGnarkFFTOneCore, gnark-crypto's Domain.FFT(col, fft.DIF,
// fft.WithNbTasks(1)).
func BenchmarkFFTOneCore(b *testing.B) {
	benchNTT(b, bn254Field(), false, 1, 1)
	benchNTT(b, goldilocksField(), false, 1, 1)
	benchNTT(b, babyBearField(), false, 1, 1)
	benchNTT(b, koalaBearField(), false, 1, 1)
}

func BenchmarkGnarkFFTOneCore(b *testing.B) {
	benchNTT(b, bn254Field(), true, 1, 1)
	benchNTT(b, goldilocksField(), true, 1, 1)
	benchNTT(b, babyBearField(), true, 1, 1)
	benchNTT(b, koalaBearField(), true, 1, 1)
}

// BenchmarkFFTBatch16: 16 columns in one call, against
// BenchmarkGnarkFFTBatch16, the same 16 columns one after the other through
// gnark-crypto's parallel transform.
func BenchmarkFFTBatch16(b *testing.B) {
	all := runtime.GOMAXPROCS(0)
	benchNTT(b, bn254Field(), false, 16, all)
	benchNTT(b, goldilocksField(), false, 16, all)
	benchNTT(b, babyBearField(), false, 16, all)
	benchNTT(b, koalaBearField(), false, 16, all)
}

func BenchmarkGnarkFFTBatch16(b *testing.B) {
	all := runtime.GOMAXPROCS(0)
	benchNTT(b, bn254Field(), true, 16, all)
	benchNTT(b, goldilocksField(), true, 16, all)
	benchNTT(b, babyBearField(), true, 16, all)
	benchNTT(b, koalaBearField(), true, 16, all)
}

func benchLDE[E Element, P testElem[E]](b *testing.B, f field[E], ncols int, gnark bool) {
	const logBlowup = 2
	benchField[E, P](b, f, logBlowup, func(b *testing.B, logN int) {
		n := 1 << logN
		small, large := f.newDomain(uint64(n), true, nil), f.newDomain(uint64(n<<logBlowup), true, nil)
		l, err := NewLDE[E](small, large)
		require.NoError(b, err)
		rng := rand.New(rand.NewPCG(1, 1))
		src := randomCols[E, P](rng, f, ncols, n)
		dst := make([][]E, ncols)
		for i := range dst {
			dst[i] = make([]E, n<<logBlowup)
		}
		var z E
		b.SetBytes(int64(n * ncols * int(unsafe.Sizeof(z))))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if !gnark {
				require.NoError(b, l.Encode(dst, src, Natural))
				continue
			}
			// gnark-crypto's transforms composed as the package's
			// definition says: interpolate, pad, coset-evaluate.
			for i := range src {
				copy(dst[i], src[i])
				clear(dst[i][n:])
				f.gnark(small, dst[i][:n], Natural, true, false)
				f.gnark(large, dst[i], Natural, false, true)
			}
		}
	})
}

// BenchmarkLDE4: one column 2^k -> 2^(k+2), natural orders, all cores.
func BenchmarkLDE4(b *testing.B) {
	benchLDE(b, bn254Field(), 1, false)
	benchLDE(b, goldilocksField(), 1, false)
	benchLDE(b, babyBearField(), 1, false)
	benchLDE(b, koalaBearField(), 1, false)
}

// BenchmarkGnarkLDE4: the baseline for BenchmarkLDE4, gnark-crypto's
// FFTInverse, zero padding and coset FFT (default options, all cores),
// with the bit reversals to natural order.
func BenchmarkGnarkLDE4(b *testing.B) {
	benchLDE(b, bn254Field(), 1, true)
	benchLDE(b, goldilocksField(), 1, true)
	benchLDE(b, babyBearField(), 1, true)
	benchLDE(b, koalaBearField(), 1, true)
}
