package ntt64

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
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

// BenchmarkTransform: the active implementation, DIF and DIT forward, one
// goroutine and GOMAXPROCS.
func BenchmarkTransform(b *testing.B) {
	for _, logN := range []int{16, 20, 22} {
		for _, v := range []variant{{}, {dit: true}, {dit: true, coset: true}, {inverse: true}} {
			for _, tasks := range []int{1, runtime.GOMAXPROCS(0)} {
				b.Run(fmt.Sprintf("%s/2^%d/%v/tasks=%d", Implementation(), logN, v, tasks), func(b *testing.B) {
					benchTransform(b, logN, v, tasks)
				})
			}
		}
	}
}
