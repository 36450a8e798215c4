package ntt64

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

func benchTransform(b *testing.B, logN int, v variant, tasks int) {
	p, err := NewPlan(logN, testShift)
	if err != nil {
		b.Fatal(err)
	}
	a := randVec(rand.New(rand.NewPCG(1, 1)), 1<<logN)
	p.Transform(a, v.dit, v.inverse, v.coset, tasks) // coset tables
	b.SetBytes(int64(8 << logN))
	b.ReportAllocs()
	for b.Loop() {
		p.Transform(a, v.dit, v.inverse, v.coset, tasks)
	}
}

// BenchmarkTransform: every implementation, DIF and DIT forward, coset DIT
// and DIF inverse, one goroutine and GOMAXPROCS, 2^16, 2^20 and 2^22.
func BenchmarkTransform(b *testing.B) {
	cpufeat.Each("ntt64", func(impl string) {
		for _, logN := range []int{16, 20, 22} {
			for _, v := range []variant{{}, {dit: true}, {dit: true, coset: true}, {inverse: true}} {
				for _, tasks := range []int{1, runtime.GOMAXPROCS(0)} {
					b.Run(fmt.Sprintf("%s/2^%d/%v/tasks=%d", impl, logN, v, tasks), func(b *testing.B) {
						benchTransform(b, logN, v, tasks)
					})
				}
			}
		}
	})
}

// BenchmarkExtend: the extension 2^k -> 2^(k+2) of one column, every
// implementation, one goroutine.
func BenchmarkExtend(b *testing.B) {
	cpufeat.Each("ntt64", func(impl string) {
		for _, logN := range []int{16, 20} {
			b.Run(fmt.Sprintf("%s/2^%d", impl, logN), func(b *testing.B) {
				small, _ := NewPlan(logN, 7)
				large, _ := NewPlan(logN+2, 7)
				x, err := NewExtender(small, large)
				if err != nil {
					b.Fatal(err)
				}
				in := randVec(rand.New(rand.NewPCG(1, 1)), 1<<logN)
				a := make([]uint64, 1<<(logN+2))
				b.SetBytes(int64(8 << logN))
				b.ReportAllocs()
				for b.Loop() {
					copy(a[len(a)-len(in):], in)
					x.Extend(a, 1)
				}
			})
		}
	})
}
