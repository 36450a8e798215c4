package poly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// loop runs f b.N times with SetBytes(bytes) and ReportAllocs, and also
// reports cpu-ns/op: the process's CPU time per operation, steadier than
// wall time on a machine shared with other jobs.
func loop(b *testing.B, bytes int64, f func()) {
	b.SetBytes(bytes)
	b.ReportAllocs()
	c0 := processCPU()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(processCPU()-c0)/float64(n), "cpu-ns/op")
	}
}

// benchMul multiplies two random polynomials of n coefficients each.
// SetBytes counts the bytes of both factors.
func benchMul(b *testing.B, n int, mul func(p, q Poly) Poly) {
	r := newRand(uint64(n))
	p, q := randPoly(r, n), randPoly(r, n)
	p[n-1], q[n-1] = 1, 1
	loop(b, int64(16*n), func() { mul(p, q) })
}

func BenchmarkMul(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 1 << 14, 1 << 16, 1 << 18} {
		for _, m := range mulMethods {
			if m.name == "Schoolbook" && n > 1<<14 || m.name == "Karatsuba" && n > 1<<16 {
				continue
			}
			b.Run(fmt.Sprintf("%s/n=%d", m.name, n), func(b *testing.B) { benchMul(b, n, m.mul) })
		}
	}
}

// BenchmarkMulUnbalanced multiplies a factor of 2^16 coefficients by
// shorter ones.
func BenchmarkMulUnbalanced(b *testing.B) {
	const big = 1 << 16
	for _, n := range []int{16, 64, 256, 1024, 4096} {
		r := newRand(uint64(n))
		p, q := randPoly(r, big), randPoly(r, n)
		p[big-1], q[n-1] = 1, 1
		for _, m := range mulMethods {
			b.Run(fmt.Sprintf("%s/%dx%d", m.name, big, n), func(b *testing.B) {
				loop(b, int64(8*(big+n)), func() { m.mul(p, q) })
			})
		}
	}
}

// BenchmarkDivMod divides a polynomial of 2n coefficients by one of n.
func BenchmarkDivMod(b *testing.B) {
	for _, n := range []int{64, 1024, 1 << 14} {
		r := newRand(uint64(n))
		p, d := randPoly(r, 2*n), randPoly(r, n)
		d[n-1] = 3
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			loop(b, int64(8*3*n), func() {
				_, _, err := p.DivMod(d)
				require.NoError(b, err)
			})
		})
	}
}

// BenchmarkDivModVanishing divides a polynomial of 2^(m+1) coefficients by
// the vanishing polynomial of an m-dimensional subspace.
func BenchmarkDivModVanishing(b *testing.B) {
	for _, m := range []int{10, 16, 20} {
		r := newRand(uint64(m))
		w := vanishing(randElem(r), randBasis(r, m))
		p := randPoly(r, 2<<m)
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			loop(b, int64(8*len(p)), func() {
				_, _, err := p.DivModLinearized(w)
				require.NoError(b, err)
			})
		})
	}
}

// BenchmarkTaylorExpand expands 2^m coefficients in place (repeatedly: the
// expansion of an expansion is as costly).
func BenchmarkTaylorExpand(b *testing.B) {
	for _, m := range []int{10, 16, 20} {
		r := newRand(uint64(m))
		a := randPoly(r, 1<<m)
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			loop(b, int64(8*len(a)), func() { taylorExpand(a) })
		})
	}
}

func BenchmarkInterpolate(b *testing.B) {
	for _, n := range []int{64, 512, 4096} {
		r := newRand(uint64(n))
		xs, ys := randPoly(r, n), randPoly(r, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			loop(b, int64(16*n), func() {
				_, err := Interpolate(xs, ys)
				require.NoError(b, err)
			})
		})
	}
}

func BenchmarkEvalSubspace(b *testing.B) {
	for _, m := range []int{10, 16, 20} {
		r := newRand(uint64(m))
		s, err := domain.New(randElem(r), randBasis(r, m)...)
		require.NoError(b, err)
		p := randPoly(r, 1<<m)
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			loop(b, int64(8*len(p)), func() {
				_, err := p.EvalSubspace(s)
				require.NoError(b, err)
			})
		})
	}
}

// BenchmarkVanishingEval evaluates a vanishing polynomial of dimension 20
// at 4096 points: table lookups against the direct Σ c_i·x^(2^i).
func BenchmarkVanishingEval(b *testing.B) {
	r := newRand(7)
	w := vanishing(randElem(r), randBasis(r, 20))
	xs := randPoly(r, 4096)
	ys := make([]gf64.Element, len(xs))
	b.Run("table", func(b *testing.B) {
		loop(b, int64(8*len(xs)), func() {
			require.NoError(b, w.EvalVec(ys, xs))
		})
	})
	b.Run("direct", func(b *testing.B) {
		loop(b, int64(8*len(xs)), func() {
			for i, x := range xs {
				ys[i] = evalLinear(w.coeffs, x) ^ w.constant
			}
		})
	})
}
