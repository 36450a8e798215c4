package transcript_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

func BenchmarkAbsorbRoot(b *testing.B) {
	tr := mustNew(b, "bench")
	root := make([]byte, 32)
	b.SetBytes(32)
	b.ReportAllocs()
	for b.Loop() {
		tr.AbsorbRoot("root", root)
	}
}

func benchmarkDraw[X transcript.Field](b *testing.B) {
	tr := mustNew(b, "bench")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := transcript.Draw[X](tr, "alpha"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDraw(b *testing.B) {
	b.Run("gf128", benchmarkDraw[gf128.Element])
	b.Run("goldilocksE2", benchmarkDraw[glext.E2])
	b.Run("babybearE4", benchmarkDraw[bbext.E4])
	b.Run("koalabearE4", benchmarkDraw[kbext.E4])
	b.Run("bn254", benchmarkDraw[fr.Element])
}

func BenchmarkDrawIndices(b *testing.B) {
	for _, n := range []int{1 << 20, 3 << 18} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			tr := mustNew(b, "bench")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tr.DrawIndices("queries", n, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGrind grinds 16 bits on a fresh state each time (the expected
// work is 2^16 hashes; hashes/s counts the nonces tried, nonce+1).
func BenchmarkGrind(b *testing.B) {
	tr := mustNew(b, "bench")
	var hashes float64
	b.ReportAllocs()
	for b.Loop() {
		n, err := tr.Grind(16)
		if err != nil {
			b.Fatal(err)
		}
		hashes += float64(n + 1)
	}
	b.ReportMetric(hashes/b.Elapsed().Seconds(), "hashes/s")
	b.ReportMetric(hashes/float64(b.N), "nonces/op")
}
