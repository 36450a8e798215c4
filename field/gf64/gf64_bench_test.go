package gf64

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

var benchSizes = []int{1 << 10, 1 << 16, 1 << 20}

// benchPaths runs a benchmark for every available implementation and every
// size in benchSizes, as sub-benchmarks named path/n=size. setup prepares the
// data for n elements and returns one pass over it. Besides ns/op it reports
// products per second in millions, over the whole run (Mprod/s) and for the
// fastest single pass (best-Mprod/s). The second is what the C baseline
// (../shared/baselines/clmul.c, best of five passes) reports, and it is the
// one that stays meaningful when other jobs share the machine's two cores.
func benchPaths(b *testing.B, setup func(n int) (pass func())) {
	for _, name := range cpufeat.Available("gf64") {
		b.Run(name, func(b *testing.B) {
			defer cpufeat.Select("gf64", name)()
			for _, n := range benchSizes {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					pass := setup(n)
					b.SetBytes(int64(8 * n))
					b.ReportAllocs()
					best := time.Duration(math.MaxInt64)
					for b.Loop() {
						t0 := time.Now()
						pass()
						best = min(best, time.Since(t0))
					}
					b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds()/1e6, "Mprod/s")
					b.ReportMetric(float64(n)/best.Seconds()/1e6, "best-Mprod/s")
				})
			}
		})
	}
}

func benchVec(n int) []Element {
	rng := rand.New(rand.NewPCG(uint64(n), 2))
	v := make([]Element, n)
	for i := range v {
		v[i] = Element(rng.Uint64())
	}
	return v
}

const benchC = Element(0x9e3779b97f4a7c15)

func BenchmarkMulVec(b *testing.B) {
	benchPaths(b, func(n int) func() {
		x, y, dst := benchVec(n), benchVec(n + 1)[1:], benchVec(n)
		return func() {
			MulVec(dst, x, y)
		}
	})
}

func BenchmarkScaleVec(b *testing.B) {
	benchPaths(b, func(n int) func() {
		x, dst := benchVec(n), benchVec(n) // dst written once: no page faults in the timed loop
		return func() {
			ScaleVec(dst, x, benchC)
		}
	})
}

func BenchmarkMulAddVec(b *testing.B) {
	benchPaths(b, func(n int) func() {
		x, dst := benchVec(n), benchVec(n) // dst written once: no page faults in the timed loop
		return func() {
			MulAddVec(dst, x, benchC)
		}
	})
}

func BenchmarkButterfly(b *testing.B) {
	benchPaths(b, func(n int) func() {
		u, v := benchVec(n), benchVec(n + 1)[1:]
		return func() {
			Butterfly(u, v, benchC)
		}
	})
}

// BenchmarkButterflyHalves runs Butterfly on the two halves of one array,
// the layout of an additive-FFT layer: u and v lie a power of two apart.
func BenchmarkButterflyHalves(b *testing.B) {
	benchPaths(b, func(n int) func() {
		buf := benchVec(2 * n)
		u, v := buf[:n], buf[n:]
		return func() {
			Butterfly(u, v, benchC)
		}
	})
}

func BenchmarkInvButterfly(b *testing.B) {
	benchPaths(b, func(n int) func() {
		u, v := benchVec(n), benchVec(n + 1)[1:]
		return func() {
			InvButterfly(u, v, benchC)
		}
	})
}

var sink Element

// BenchmarkMul measures scalar Mul: "throughput" multiplies independent
// pairs, "latency" a chain where each product feeds the next.
func BenchmarkMul(b *testing.B) {
	for _, name := range cpufeat.Available("gf64") {
		b.Run(name, func(b *testing.B) {
			defer cpufeat.Select("gf64", name)()
			x, y := benchVec(1024), benchVec(1025)[1:]
			b.Run("throughput", func(b *testing.B) {
				var acc Element
				for b.Loop() {
					for i := range x {
						acc ^= Mul(x[i], y[i])
					}
				}
				sink = acc
				b.ReportMetric(float64(b.N)*float64(len(x))/b.Elapsed().Seconds()/1e6, "Mprod/s")
			})
			b.Run("latency", func(b *testing.B) {
				acc := x[0]
				for b.Loop() {
					for i := range x {
						acc = Mul(acc, y[i])
					}
				}
				sink = acc
				b.ReportMetric(float64(b.N)*float64(len(x))/b.Elapsed().Seconds()/1e6, "Mprod/s")
			})
		})
	}
}

func BenchmarkInverse(b *testing.B) {
	x := benchVec(1024)
	for _, name := range cpufeat.Available("gf64") {
		b.Run(name, func(b *testing.B) {
			defer cpufeat.Select("gf64", name)()
			var acc Element
			for b.Loop() {
				for _, v := range x {
					acc ^= Inverse(v)
				}
			}
			sink = acc
		})
	}
}

func BenchmarkBatchInverse(b *testing.B) {
	benchPaths(b, func(n int) func() {
		x, dst := benchVec(n), benchVec(n) // dst written once: no page faults in the timed loop
		return func() {
			BatchInverse(dst, x)
		}
	})
}

// BenchmarkConstTables compares, in pure Go, multiplying n elements by one
// constant with the general multiplication and with a byteTable (table
// construction included). It sets byteTableMin.
func BenchmarkConstTables(b *testing.B) {
	for _, n := range []int{8, 32, 64, 96, 128, 256, 1024, 4096} {
		x, dst := benchVec(n), benchVec(n) // dst written once: no page faults in the timed loop
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					f()
				}
				b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds()/1e6, "Mprod/s")
			})
		}
		run("general", func() {
			for i := range dst {
				dst[i] = mulGeneric(x[i], benchC)
			}
		})
		run("byte", func() {
			var t byteTable
			t.init(benchC)
			for i := range dst {
				dst[i] = t.mul(x[i])
			}
		})
	}
}

// BenchmarkButterflySmall measures the per-call cost of Butterfly on the
// short vectors of an additive FFT's first layers.
func BenchmarkButterflySmall(b *testing.B) {
	for _, name := range cpufeat.Available("gf64") {
		b.Run(name, func(b *testing.B) {
			defer cpufeat.Select("gf64", name)()
			for _, n := range []int{1, 2, 4, 8, 16, 32} {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					u, v := benchVec(n), benchVec(n + 1)[1:]
					for b.Loop() {
						Butterfly(u, v, benchC)
					}
				})
			}
		})
	}
}
