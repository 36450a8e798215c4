package fri

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// The benchmarks fold 2^22-entry codewords (64 MiB of values) on one core
// ("cores=1") and on GOMAXPROCS ("cores=N"); SetBytes counts the source.

const benchLogN = 22

func benchCores() []int { return []int{1, runtime.GOMAXPROCS(0)} }

func BenchmarkFoldCosetBabyBearE4(b *testing.B) { benchFoldCoset[babybear.Element, bbext.E4](b) }

func BenchmarkFoldCosetKoalaBearE4(b *testing.B) { benchFoldCoset[koalabear.Element, kbext.E4](b) }

func benchFoldCoset[F Base, X Ext](b *testing.B) {
	o := mustOps[F, X](b)
	n := 1 << benchLogN
	src := make([]X, n)
	for i := range src {
		src[i] = randX[X]()
	}
	shift, omega := o.fromUint(31), rootOf[F](b, n)
	beta := randX[X]()
	for _, a := range []int{2, 4, 8, 16} {
		dst := make([]X, n/a)
		for _, w := range benchCores() {
			b.Run(fmt.Sprintf("arity=%d/cores=%d", a, w), func(b *testing.B) {
				b.SetBytes(int64(n) * int64(unsafe.Sizeof(src[0])))
				b.ReportAllocs()
				for b.Loop() {
					if err := foldCoset(dst, src, shift, omega, a, beta, split{w, parallelGrain}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkFoldSubspaceGF128(b *testing.B) {
	s := randSubspace(b, benchLogN)
	n := s.Size()
	src := make([]gf128.Element, n)
	for i := range src {
		src[i] = gf128.Element{A0: gf64.Element(uint64(i) * 0x9e3779b97f4a7c15), A1: gf64.Element(i + 7)}
	}
	beta := rand128(b)
	for _, a := range []int{2, 16} {
		dst := make([]gf128.Element, n/a)
		for _, w := range benchCores() {
			b.Run(fmt.Sprintf("arity=%d/cores=%d", a, w), func(b *testing.B) {
				b.SetBytes(int64(n) * 16)
				b.ReportAllocs()
				for b.Loop() {
					if err := foldSubspace(dst, src, s, a, beta, split{w, parallelGrain}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
