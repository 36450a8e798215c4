package prover_test

import (
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear/vortex"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// benchCommit commits 32 random columns of 2^logRows rows at blowup 4.
func benchCommit[E prover.Element](b *testing.B, logRows int) (prover.Trace[E], *prover.Commitment[E]) {
	b.Helper()
	enc, err := prover.New[E](prover.WithBlowup(4))
	if err != nil {
		b.Fatal(err)
	}
	tr, err := prover.RandomTrace[E](logRows, 32, 1)
	if err != nil {
		b.Fatal(err)
	}
	c, err := enc.Commit(tr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return tr, c
}

// BenchmarkCombineExt compares the one-pass extension combination of 32
// columns of a 2^22-row LDE with Combine's base-field one on the same
// commitment (base/… and ext/…, same run).
//
//	go test ./prover -run XXX -bench CombineExt -benchtime 10x
func BenchmarkCombineExt(b *testing.B) {
	b.Run("babybear", func(b *testing.B) {
		_, c := benchCommit[babybear.Element](b, 20)
		base := make([]babybear.Element, 32)
		for j := range base {
			base[j].SetUint64(uint64(j*7919 + 3))
		}
		ext := kitBabyBear.randX(5, 32)
		dst := make([]babybear.Element, c.Rows())
		dstX := make([]bbext.E4, c.Rows())
		b.Run("base", func(b *testing.B) {
			b.SetBytes(int64(4 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := c.CombineInto(dst, base); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ext", func(b *testing.B) {
			b.SetBytes(int64(4 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := prover.CombineExtInto(c, dstX, ext); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("goldilocks", func(b *testing.B) {
		_, c := benchCommit[goldilocks.Element](b, 20)
		base := make([]goldilocks.Element, 32)
		for j := range base {
			base[j].SetUint64(uint64(j*7919 + 3))
		}
		ext := kitGoldilocks.randX(5, 32)
		dst := make([]goldilocks.Element, c.Rows())
		dstX := make([]glext.E2, c.Rows())
		b.Run("base", func(b *testing.B) {
			b.SetBytes(int64(8 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := c.CombineInto(dst, base); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ext", func(b *testing.B) {
			b.SetBytes(int64(8 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := prover.CombineExtInto(c, dstX, ext); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("gf64", func(b *testing.B) {
		_, c := benchCommit[gf64.Element](b, 20)
		base := make([]gf64.Element, 32)
		for j := range base {
			base[j] = gf64.Element(uint64(j)*0x9e3779b97f4a7c15 + 1)
		}
		ext := kitGF64.randX(5, 32)
		dst := make([]gf64.Element, c.Rows())
		dstX := make([]gf128.Element, c.Rows())
		b.Run("base", func(b *testing.B) {
			b.SetBytes(int64(8 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := c.CombineInto(dst, base); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ext", func(b *testing.B) {
			b.SetBytes(int64(8 * 32 * c.Rows()))
			b.ReportAllocs()
			for range b.N {
				if err := prover.CombineExtInto(c, dstX, ext); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkEvaluate evaluates 32 columns of 2^20 trace rows (blowup 4) at
// one and two points of the extension, against gnark-crypto's
// vortex.BatchEvalBasePolyLagrange on the trace columns themselves at the
// same point (same run). Run with -cpu 1,2.
//
//	go test ./prover -run XXX -bench Evaluate -benchtime 10x -cpu 1,2
func BenchmarkEvaluate(b *testing.B) {
	b.Run("koalabear", func(b *testing.B) {
		tr, c := benchCommit[koalabear.Element](b, 20)
		pts := kitKoalaBear.randX(9, 2)
		if _, err := prover.Evaluate(c, pts[:1]); err != nil { // the weights, kept
			b.Fatal(err)
		}
		b.Run("vortex", func(b *testing.B) {
			b.SetBytes(int64(4 * 32 * len(tr[0])))
			for range b.N {
				if _, err := vortex.BatchEvalBasePolyLagrange(tr, pts[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, np := range []int{1, 2} {
			out := make([][]kbext.E4, np)
			for p := range out {
				out[p] = make([]kbext.E4, 32)
			}
			b.Run([]string{"", "1point", "2points"}[np], func(b *testing.B) {
				b.SetBytes(int64(4 * 32 * len(tr[0])))
				b.ReportAllocs()
				for range b.N {
					if err := prover.EvaluateInto(c, out, pts[:np]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
	b.Run("gf64", func(b *testing.B) {
		tr, c := benchCommit[gf64.Element](b, 20)
		pts := kitGF64.randX(9, 2)
		for _, np := range []int{1, 2} {
			out := make([][]gf128.Element, np)
			for p := range out {
				out[p] = make([]gf128.Element, 32)
			}
			b.Run([]string{"", "1point", "2points"}[np], func(b *testing.B) {
				b.SetBytes(int64(8 * 32 * len(tr[0])))
				b.ReportAllocs()
				for range b.N {
					if err := prover.EvaluateInto(c, out, pts[:np]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
