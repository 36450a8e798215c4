package gf2n

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// benchLogBatch is the batch size of BenchmarkMulVec, 2^16 elements: the
// size the CPU target names.
const benchLogBatch = 16

// benchPaths runs a benchmark for every available implementation and every
// field, as sub-benchmarks named path/n=N. setup prepares the data and
// returns one pass and the number of products in it. Besides ns/op it
// reports products per second in millions over the whole run (Mprod/s) and
// for the fastest single pass (best-Mprod/s), the figure that stays
// meaningful when other jobs share the machine's cores.
func benchPaths(b *testing.B, setup func(fd *Field) (pass func(), products int)) {
	for _, name := range cpufeat.Available("gf2n") {
		b.Run(name, func(b *testing.B) {
			defer cpufeat.Select("gf2n", name)()
			for _, n := range Sizes() {
				fd, _ := New(n)
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					pass, products := setup(fd)
					b.SetBytes(int64(8 * fd.Words() * products))
					b.ReportAllocs()
					best := time.Duration(math.MaxInt64)
					for b.Loop() {
						t0 := time.Now()
						pass()
						best = min(best, time.Since(t0))
					}
					b.ReportMetric(float64(b.N)*float64(products)/b.Elapsed().Seconds()/1e6, "Mprod/s")
					b.ReportMetric(float64(products)/best.Seconds()/1e6, "best-Mprod/s")
				})
			}
		})
	}
}

func benchVec(fd *Field, count int, seed uint64) []uint64 {
	rng := rand.New(rand.NewPCG(seed, uint64(fd.N())))
	return randUniform(rng, count*fd.Words())
}

// BenchmarkMulVec: a batch of 2^16 products; with -cpu 1 on one core.
func BenchmarkMulVec(b *testing.B) {
	benchPaths(b, func(fd *Field) (func(), int) {
		count := 1 << benchLogBatch
		x, y, z := benchVec(fd, count, 1), benchVec(fd, count, 2), benchVec(fd, count, 3)
		return func() { _ = fd.MulVec(z, x, y) }, count
	})
}

// BenchmarkMul: single-element products, 1024 independent ones per pass.
func BenchmarkMul(b *testing.B) {
	benchPaths(b, func(fd *Field) (func(), int) {
		const count = 1024
		w := fd.Words()
		x, y, z := benchVec(fd, count, 1), benchVec(fd, count, 2), benchVec(fd, count, 3)
		return func() {
			for i := 0; i < count*w; i += w {
				fd.Mul(z[i:i+w], x[i:i+w], y[i:i+w])
			}
		}, count
	})
}

// BenchmarkSquare: single-element squarings, 1024 independent ones per pass.
func BenchmarkSquare(b *testing.B) {
	benchPaths(b, func(fd *Field) (func(), int) {
		const count = 1024
		w := fd.Words()
		x, z := benchVec(fd, count, 1), benchVec(fd, count, 3)
		return func() {
			for i := 0; i < count*w; i += w {
				fd.Square(z[i:i+w], x[i:i+w])
			}
		}, count
	})
}

// BenchmarkInverse: one inversion per pass.
func BenchmarkInverse(b *testing.B) {
	benchPaths(b, func(fd *Field) (func(), int) {
		x, z := benchVec(fd, 1, 1), benchVec(fd, 1, 3)
		return func() { _ = fd.Inverse(z, x) }, 1
	})
}
