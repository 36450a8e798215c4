package gf128

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// The benchmarks run every available implementation of gf128 and, beside
// it, the baselines of the targets in the same run: gf2n's GF(2^128) MulVec
// and gf64's MulVec (every implementation of each), and for CombineBase the
// GF(2^64) combination of the same columns with one coefficient each
// (ScaleVec, then MulAddVec per further column). Everything runs on one
// goroutine (gf2n's MulVec, which spreads large batches over all cores, is
// called on blocks below its threshold). Besides ns/op they report
// elements (or combined rows) per second in millions, over the whole run
// (Melem/s) and for the fastest single pass (best-Melem/s), the figure that
// stays meaningful on a shared machine. Compare, e.g.,
// MulVec/gf128/pclmulqdq with MulVec/gf2n-128/pclmulqdq and
// MulVec/gf64/pclmulqdq.
//
//	go test ./field/gf128 -run '^$' -bench . -benchtime 200x

const (
	benchN    = 1 << 16 // MulVec, BatchInverse
	benchRows = 1 << 12 // CombineBase
	benchCols = 32
)

// run times pass, which handles n elements of size bytes each.
func run(b *testing.B, n, size int, pass func()) {
	b.SetBytes(int64(size * n))
	b.ReportAllocs()
	best := time.Duration(math.MaxInt64)
	for b.Loop() {
		t0 := time.Now()
		pass()
		best = min(best, time.Since(t0))
	}
	b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds()/1e6, "Melem/s")
	b.ReportMetric(float64(n)/best.Seconds()/1e6, "best-Melem/s")
}

// eachImpl runs f as a sub-benchmark named name/impl for every available
// implementation of the registered package pkg.
func eachImpl(b *testing.B, name, pkg string, f func(b *testing.B)) {
	for _, impl := range cpufeat.Available(pkg) {
		b.Run(name+"/"+impl, func(b *testing.B) {
			defer cpufeat.Select(pkg, impl)()
			f(b)
		})
	}
}

func benchVec(n int, seed uint64) []Element {
	rng := rand.New(rand.NewPCG(uint64(n), seed))
	v := make([]Element, n)
	for i := range v {
		v[i] = Element{gf64.Element(rng.Uint64()), gf64.Element(rng.Uint64())}
	}
	return v
}

func benchVec64(n int, seed uint64) []gf64.Element {
	rng := rand.New(rand.NewPCG(uint64(n), seed))
	v := make([]gf64.Element, n)
	for i := range v {
		v[i] = gf64.Element(rng.Uint64())
	}
	return v
}

var benchC = Element{0x9e3779b97f4a7c15, 0xf39cc0605cedc834}

func BenchmarkMulVec(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x, y, dst := benchVec(benchN, 1), benchVec(benchN, 2), benchVec(benchN, 3)
		run(b, benchN, 16, func() { MulVec(dst, x, y) })
	})
	eachImpl(b, "gf2n-128", "gf2n", func(b *testing.B) {
		f, err := gf2n.New(128)
		if err != nil {
			b.Fatal(err)
		}
		words := func(v []Element) []uint64 {
			w := make([]uint64, 0, 2*len(v))
			for _, e := range v {
				w = append(w, uint64(e.A0), uint64(e.A1))
			}
			return w
		}
		x, y, dst := words(benchVec(benchN, 1)), words(benchVec(benchN, 2)), words(benchVec(benchN, 3))
		// gf2n.MulVec spreads batches of 2^14 words or more over all cores;
		// blocks of 4096 elements (8192 words) keep it on one, as gf128 is.
		const block = 2 * 4096
		run(b, benchN, 16, func() {
			for lo := 0; lo < len(dst); lo += block {
				if err := f.MulVec(dst[lo:lo+block], x[lo:lo+block], y[lo:lo+block]); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	eachImpl(b, "gf64", "gf64", func(b *testing.B) {
		x, y, dst := benchVec64(benchN, 1), benchVec64(benchN, 2), benchVec64(benchN, 3)
		run(b, benchN, 8, func() { gf64.MulVec(dst, x, y) })
	})
}

func BenchmarkScaleVec(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x, dst := benchVec(benchN, 1), benchVec(benchN, 3)
		run(b, benchN, 16, func() { ScaleVec(dst, x, benchC) })
	})
}

func BenchmarkMulByBaseVec(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x, y, dst := benchVec(benchN, 1), benchVec64(benchN, 2), benchVec(benchN, 3)
		run(b, benchN, 16, func() { MulByBaseVec(dst, x, y) })
	})
}

// BenchmarkCombineBase: 32 columns of 4096 rows; an element is one combined
// row (32 products by an extension coefficient), the bytes are the columns'.
func BenchmarkCombineBase(b *testing.B) {
	cols := make([][]gf64.Element, benchCols)
	for j := range cols {
		cols[j] = benchVec64(benchRows, uint64(10+j))
	}
	coeffs := benchVec(benchCols, 4)
	label := fmt.Sprintf("cols=%d/rows=%d", benchCols, benchRows)
	eachImpl(b, "gf128/"+label, "gf128", func(b *testing.B) {
		dst := benchVec(benchRows, 3)
		run(b, benchRows, 8*benchCols, func() { CombineBase(dst, cols, coeffs) })
	})
	eachImpl(b, "gf128-MulAddBaseVec/"+label, "gf128", func(b *testing.B) {
		dst := benchVec(benchRows, 3)
		run(b, benchRows, 8*benchCols, func() {
			ScaleBaseVec(dst, cols[0], coeffs[0])
			for j := 1; j < benchCols; j++ {
				MulAddBaseVec(dst, cols[j], coeffs[j])
			}
		})
	})
	eachImpl(b, "gf64-ScaleVec+MulAddVec/"+label, "gf64", func(b *testing.B) {
		dst := benchVec64(benchRows, 3)
		c64 := benchVec64(benchCols, 4)
		run(b, benchRows, 8*benchCols, func() {
			gf64.ScaleVec(dst, cols[0], c64[0])
			for j := 1; j < benchCols; j++ {
				gf64.MulAddVec(dst, cols[j], c64[j])
			}
		})
	})
}

func BenchmarkBatchInverse(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x, dst := benchVec(benchN, 1), benchVec(benchN, 3)
		run(b, benchN, 16, func() { BatchInverse(dst, x) })
	})
}

func BenchmarkMul(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x := benchVec(1024, 1)
		run(b, len(x), 16, func() {
			acc := benchC
			for _, v := range x {
				acc = Mul(acc, v)
			}
			benchSink = acc
		})
	})
}

func BenchmarkInverse(b *testing.B) {
	eachImpl(b, "gf128", "gf128", func(b *testing.B) {
		x := benchVec(256, 1)
		run(b, len(x), 16, func() {
			for _, v := range x {
				benchSink = Add(benchSink, Inverse(v))
			}
		})
	})
}

var benchSink Element
