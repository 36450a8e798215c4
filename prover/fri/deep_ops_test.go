package fri

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// The scalar DEEP loops as they were before the coordinate-vector
// kernels, the reference of the tests and benchmarks below.

func refDeepMultiBB(q, g []bbext.E4, xs []babybear.Element, A, B, D []bbext.E4, num, den, acc []bbext.E4) bool {
	n := len(q)
	for i := range n {
		x := &xs[i]
		a, b, d := A[len(A)-1], B[len(B)-1], D[len(D)-1]
		for k := len(A) - 2; k >= 0; k-- {
			a.MulByElement(&a, x)
			a.Add(&a, &A[k])
			b.MulByElement(&b, x)
			b.Add(&b, &B[k])
		}
		for k := len(D) - 2; k >= 0; k-- {
			d.MulByElement(&d, x)
			d.Add(&d, &D[k])
		}
		num[i].Mul(&g[i], &a)
		num[i].Sub(&num[i], &b)
		den[i] = d
		if i == 0 {
			acc[0] = d
		} else {
			acc[i].Mul(&acc[i-1], &d)
		}
	}
	if acc[n-1].IsZero() {
		return false
	}
	var inv, t bbext.E4
	inv.Inverse(&acc[n-1])
	for i := n - 1; i > 0; i-- {
		t.Mul(&inv, &acc[i-1])
		inv.Mul(&inv, &den[i])
		t.Mul(&t, &num[i])
		q[i].Add(&q[i], &t)
	}
	t.Mul(&inv, &num[0])
	q[0].Add(&q[0], &t)
	return true
}

func refDeepMultiKB(q, g []kbext.E4, xs []koalabear.Element, A, B, D []kbext.E4, num, den, acc []kbext.E4) bool {
	n := len(q)
	for i := range n {
		x := &xs[i]
		a, b, d := A[len(A)-1], B[len(B)-1], D[len(D)-1]
		for k := len(A) - 2; k >= 0; k-- {
			a.MulByElement(&a, x)
			a.Add(&a, &A[k])
			b.MulByElement(&b, x)
			b.Add(&b, &B[k])
		}
		for k := len(D) - 2; k >= 0; k-- {
			d.MulByElement(&d, x)
			d.Add(&d, &D[k])
		}
		num[i].Mul(&g[i], &a)
		num[i].Sub(&num[i], &b)
		den[i] = d
		if i == 0 {
			acc[0] = d
		} else {
			acc[i].Mul(&acc[i-1], &d)
		}
	}
	if acc[n-1].IsZero() {
		return false
	}
	var inv, t kbext.E4
	inv.Inverse(&acc[n-1])
	for i := n - 1; i > 0; i-- {
		t.Mul(&inv, &acc[i-1])
		inv.Mul(&inv, &den[i])
		t.Mul(&t, &num[i])
		q[i].Add(&q[i], &t)
	}
	t.Mul(&inv, &num[0])
	q[0].Add(&q[0], &t)
	return true
}

func refDeepPointBB(q, g []bbext.E4, xs []babybear.Element, cinv, zc, v bbext.E4, den, acc []bbext.E4) bool {
	n := len(q)
	for i := range n {
		den[i].MulByElement(&cinv, &xs[i])
		den[i].Sub(&den[i], &zc)
	}
	acc[0] = den[0]
	for i := 1; i < n; i++ {
		acc[i].Mul(&acc[i-1], &den[i])
	}
	if acc[n-1].IsZero() {
		return false
	}
	var inv, d, t bbext.E4
	inv.Inverse(&acc[n-1])
	for i := n - 1; i > 0; i-- {
		d.Mul(&inv, &acc[i-1])
		inv.Mul(&inv, &den[i])
		t.Sub(&g[i], &v)
		t.Mul(&t, &d)
		q[i].Add(&q[i], &t)
	}
	t.Sub(&g[0], &v)
	t.Mul(&t, &inv)
	q[0].Add(&q[0], &t)
	return true
}

func refDeepPointKB(q, g []kbext.E4, xs []koalabear.Element, cinv, zc, v kbext.E4, den, acc []kbext.E4) bool {
	n := len(q)
	for i := range n {
		den[i].MulByElement(&cinv, &xs[i])
		den[i].Sub(&den[i], &zc)
	}
	acc[0] = den[0]
	for i := 1; i < n; i++ {
		acc[i].Mul(&acc[i-1], &den[i])
	}
	if acc[n-1].IsZero() {
		return false
	}
	var inv, d, t kbext.E4
	inv.Inverse(&acc[n-1])
	for i := n - 1; i > 0; i-- {
		d.Mul(&inv, &acc[i-1])
		inv.Mul(&inv, &den[i])
		t.Sub(&g[i], &v)
		t.Mul(&t, &d)
		q[i].Add(&q[i], &t)
	}
	t.Sub(&g[0], &v)
	t.Mul(&t, &inv)
	q[0].Add(&q[0], &t)
	return true
}

// deepCase is one field's kernels under test with the reference loops.
type deepCase[F, X comparable] struct {
	name     string
	ops      deepOps[F, X]
	refMulti func(q, g []X, xs []F, A, B, D []X, num, den, acc []X) bool
	refPoint func(q, g []X, xs []F, cinv, zc, v X, den, acc []X) bool
	// the coordinate-vector kernels whether or not soaFast
	soaMulti func(q, g []X, xs []F, A, B, D []X, num, den, acc []X) (ok, done bool)
	soaPoint func(q, g []X, xs []F, cinv, zc, v X, den, acc []X) (ok, done bool)
	randX    func(r *rand.Rand) X
	randF    func(r *rand.Rand) F
	one      X
	lift     func(F) X
	sub, mul func(X, X) X
}

func bbCase() deepCase[babybear.Element, bbext.E4] {
	var one bbext.E4
	one.SetOne()
	return deepCase[babybear.Element, bbext.E4]{
		name: "babybear", ops: bbOps{}, refMulti: refDeepMultiBB, refPoint: refDeepPointBB,
		soaMulti: bbDeepMultiSoA, soaPoint: bbDeepPointSoA,
		randX: func(r *rand.Rand) bbext.E4 {
			var z bbext.E4
			z.B0.A0, z.B0.A1 = babybear.NewElement(r.Uint64()), babybear.NewElement(r.Uint64())
			z.B1.A0, z.B1.A1 = babybear.NewElement(r.Uint64()), babybear.NewElement(r.Uint64())
			return z
		},
		randF: func(r *rand.Rand) babybear.Element { return babybear.NewElement(r.Uint64()) },
		one:   one,
		lift:  func(f babybear.Element) bbext.E4 { var z bbext.E4; z.Lift(&f); return z },
		sub:   func(a, b bbext.E4) bbext.E4 { a.Sub(&a, &b); return a },
		mul:   func(a, b bbext.E4) bbext.E4 { a.Mul(&a, &b); return a },
	}
}

func kbCase() deepCase[koalabear.Element, kbext.E4] {
	var one kbext.E4
	one.SetOne()
	return deepCase[koalabear.Element, kbext.E4]{
		name: "koalabear", ops: kbOps{}, refMulti: refDeepMultiKB, refPoint: refDeepPointKB,
		soaMulti: kbDeepMultiSoA, soaPoint: kbDeepPointSoA,
		randX: func(r *rand.Rand) kbext.E4 {
			var z kbext.E4
			z.B0.A0, z.B0.A1 = koalabear.NewElement(r.Uint64()), koalabear.NewElement(r.Uint64())
			z.B1.A0, z.B1.A1 = koalabear.NewElement(r.Uint64()), koalabear.NewElement(r.Uint64())
			return z
		},
		randF: func(r *rand.Rand) koalabear.Element { return koalabear.NewElement(r.Uint64()) },
		one:   one,
		lift:  func(f koalabear.Element) kbext.E4 { var z kbext.E4; z.Lift(&f); return z },
		sub:   func(a, b kbext.E4) kbext.E4 { a.Sub(&a, &b); return a },
		mul:   func(a, b kbext.E4) kbext.E4 { a.Mul(&a, &b); return a },
	}
}

func (c deepCase[F, X]) randXs(r *rand.Rand, n int) []X {
	v := make([]X, n)
	for i := range v {
		v[i] = c.randX(r)
	}
	return v
}

func (c deepCase[F, X]) randFs(r *rand.Rand, n int) []F {
	v := make([]F, n)
	for i := range v {
		v[i] = c.randF(r)
	}
	return v
}

// roots returns c·Π (x − z), coefficients constant first.
func (c deepCase[F, X]) roots(lead X, z ...X) []X {
	p := []X{lead}
	for _, zk := range z {
		out := make([]X, len(p)+1)
		var zero X
		for i := range out {
			out[i] = zero
		}
		for k, pk := range p {
			out[k+1] = c.sub(out[k+1], c.sub(zero, pk))
			out[k] = c.sub(out[k], c.mul(pk, zk))
		}
		p = out
	}
	return p
}

// multi runs the reference, the kernel (deepMulti) and the coordinate-
// vector one (the loops where it declines) on copies of q0, the kernels
// with scratch of garbage; news are the kernels' results.
func (c deepCase[F, X]) multi(r *rand.Rand, q0, g []X, xs []F, A, B, D []X) (qRef []X, okRef bool, qNew [2][]X, okNew [2]bool) {
	n := len(q0)
	qRef = append([]X(nil), q0...)
	okRef = c.refMulti(qRef, g, xs, A, B, D, make([]X, n), make([]X, n), make([]X, n))
	for k := range qNew {
		qNew[k] = append([]X(nil), q0...)
		num, den, acc := c.randXs(r, n), c.randXs(r, n), c.randXs(r, n)
		if k == 0 {
			okNew[k] = c.ops.deepMulti(qNew[k], g, xs, A, B, D, num, den, acc)
		} else if ok, done := c.soaMulti(qNew[k], g, xs, A, B, D, num, den, acc); done {
			okNew[k] = ok
		} else {
			okNew[k] = c.ops.deepMulti(qNew[k], g, xs, A, B, D, num, den, acc)
		}
	}
	return
}

func (c deepCase[F, X]) point(r *rand.Rand, q0, g []X, xs []F, cinv, zc, v X) (qRef []X, okRef bool, qNew [2][]X, okNew [2]bool) {
	n := len(q0)
	qRef = append([]X(nil), q0...)
	okRef = c.refPoint(qRef, g, xs, cinv, zc, v, make([]X, n), make([]X, n))
	for k := range qNew {
		qNew[k] = append([]X(nil), q0...)
		den, acc := c.randXs(r, n), c.randXs(r, n)
		if k == 0 {
			okNew[k] = c.ops.deepPoint(qNew[k], g, xs, cinv, zc, v, den, acc)
		} else if ok, done := c.soaPoint(qNew[k], g, xs, cinv, zc, v, den, acc); done {
			okNew[k] = ok
		} else {
			okNew[k] = c.ops.deepPoint(qNew[k], g, xs, cinv, zc, v, den, acc)
		}
	}
	return
}

// deepRows are the row counts the kernel tests check: under GFPOLY_LONG
// every count to 1030 (a chunk of deepChunk rows and a few past it),
// otherwise every count to 130 (the scalar loops below soaMinRows, one and
// two sets of soaLanes running products) and the counts around the blocks
// of soaMaxRows and the chunk.
func deepRows() []int {
	var ns []int
	top := 130
	if testutil.Long() {
		top = 1030
	}
	for n := 1; n <= top; n++ {
		ns = append(ns, n)
	}
	if top < 1030 {
		for _, m := range []int{192, 256, soaMaxRows, soaMaxRows + soaLanes, deepChunk} {
			for n := m - 2; n <= m+2; n++ {
				ns = append(ns, n)
			}
		}
		ns = append(ns, 1030)
	}
	return ns
}

func testDeepKernels[F, X comparable](t *testing.T, c deepCase[F, X]) {
	rows := deepRows()
	t.Run(c.name+"/multi", func(t *testing.T) {
		t.Parallel()
		r := rand.New(rand.NewPCG(1, uint64(len(c.name))))
		for _, la := range []int{1, 2, 3} {
			for _, n := range rows {
				A, B, D := c.randXs(r, la), c.randXs(r, la), c.randXs(r, la+1)
				switch n % 4 {
				case 1: // as addQuotient builds them: D monic with roots z_p
					D = c.roots(c.one, c.randXs(r, la)...)
				case 2: // zeros and ones among the coefficients
					var zero X
					A[0], B[la-1], D[la] = c.one, zero, c.lift(c.randF(r))
					D[0] = c.one
				case 3:
					A = append(make([]X, la-1), c.one)
					for k := range la - 1 {
						A[k] = c.lift(c.randF(r))
					}
				}
				q0, g, xs := c.randXs(r, n), c.randXs(r, n), c.randFs(r, n)
				qRef, okRef, qNew, okNew := c.multi(r, q0, g, xs, A, B, D)
				require.True(t, okRef, "n=%d la=%d", n, la)
				for k := range qNew {
					require.True(t, okNew[k], "n=%d la=%d kernel %d", n, la, k)
					require.Equal(t, qRef, qNew[k], "n=%d la=%d kernel %d", n, la, k)
				}
			}
		}
	})
	t.Run(c.name+"/point", func(t *testing.T) {
		t.Parallel()
		r := rand.New(rand.NewPCG(2, uint64(len(c.name))))
		for _, n := range rows {
			q0, g, xs := c.randXs(r, n), c.randXs(r, n), c.randFs(r, n)
			cinv, zc, v := c.randX(r), c.randX(r), c.randX(r)
			if n%3 == 0 {
				cinv = c.one
			}
			qRef, okRef, qNew, okNew := c.point(r, q0, g, xs, cinv, zc, v)
			require.True(t, okRef, "n=%d", n)
			for k := range qNew {
				require.True(t, okNew[k], "n=%d kernel %d", n, k)
				require.Equal(t, qRef, qNew[k], "n=%d kernel %d", n, k)
			}
		}
	})
	t.Run(c.name+"/vanishing", func(t *testing.T) {
		t.Parallel()
		r := rand.New(rand.NewPCG(3, uint64(len(c.name))))
		for _, n := range []int{17, 63, 64, 100, 512, 513, 1024, 1030} {
			for _, k := range []int{0, 1, 15, 16, 17, n / 2, n - 17, n - 16, n - 2, n - 1} {
				if k < 0 || k >= n {
					continue
				}
				for _, la := range []int{1, 2, 3} {
					q0, g, xs := c.randXs(r, n), c.randXs(r, n), c.randFs(r, n)
					A, B := c.randXs(r, la), c.randXs(r, la)
					D := c.roots(c.randX(r), append(c.randXs(r, la-1), c.lift(xs[k]))...)
					_, okRef, _, okNew := c.multi(r, q0, g, xs, A, B, D)
					require.False(t, okRef, "n=%d k=%d la=%d", n, k, la)
					require.Equal(t, [2]bool{}, okNew, "n=%d k=%d la=%d", n, k, la)
				}
				xs := c.randFs(r, n)
				cinv := c.randX(r)
				zc := c.mul(cinv, c.lift(xs[k])) // cinv·x_k − zc = 0
				_, okRef, _, okNew := c.point(r, c.randXs(r, n), c.randXs(r, n), xs, cinv, zc, c.randX(r))
				require.False(t, okRef, "n=%d k=%d", n, k)
				require.Equal(t, [2]bool{}, okNew, "n=%d k=%d", n, k)
			}
		}
	})
	t.Run(c.name+"/allocs", func(t *testing.T) {
		r := rand.New(rand.NewPCG(4, 4))
		n := 1024
		q, g, xs := c.randXs(r, n), c.randXs(r, n), c.randFs(r, n)
		D := c.roots(c.one, c.randXs(r, 2)...)
		A, B := c.randXs(r, 2), c.randXs(r, 2)
		num, den, acc := make([]X, n), make([]X, n), make([]X, n)
		require.Zero(t, testing.AllocsPerRun(10, func() {
			ok, done := c.soaMulti(q, g, xs, A, B, D, num, den, acc)
			require.True(t, ok && done)
		}))
		cinv, zc, v := c.randX(r), c.randX(r), c.randX(r)
		require.Zero(t, testing.AllocsPerRun(10, func() {
			ok, done := c.soaPoint(q, g, xs, cinv, zc, v, den, acc)
			require.True(t, ok && done)
		}))
	})
}

func TestDeepKernels(t *testing.T) {
	testDeepKernels(t, bbCase())
	testDeepKernels(t, kbCase())
}

func benchDeepKernels[F, X comparable](b *testing.B, c deepCase[F, X]) {
	const n = deepChunk
	r := rand.New(rand.NewPCG(5, 5))
	q, g, xs := c.randXs(r, n), c.randXs(r, n), c.randFs(r, n)
	D := c.roots(c.one, c.randXs(r, 2)...) // two points, as addQuotient
	A, B := c.randXs(r, 2), c.randXs(r, 2)
	num, den, acc := make([]X, n), make([]X, n), make([]X, n)
	cinv, zc, v := c.randX(r), c.randX(r), c.randX(r)
	run := func(name string, f func() bool) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if !f() {
					b.Fatal("vanishing denominator")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
	run("multi/old", func() bool { return c.refMulti(q, g, xs, A, B, D, num, den, acc) })
	run("multi/new", func() bool { return c.ops.deepMulti(q, g, xs, A, B, D, num, den, acc) })
	run("point/old", func() bool { return c.refPoint(q, g, xs, cinv, zc, v, den, acc) })
	run("point/new", func() bool { return c.ops.deepPoint(q, g, xs, cinv, zc, v, den, acc) })
}

// BenchmarkDeepMulti: the DEEP kernels on one chunk of 1024 rows, two
// points (multi) or one (point), the scalar loops (old) and the
// coordinate-vector kernels (new).
func BenchmarkDeepMulti(b *testing.B) {
	b.Run("babybear", func(b *testing.B) { benchDeepKernels(b, bbCase()) })
	b.Run("koalabear", func(b *testing.B) { benchDeepKernels(b, kbCase()) })
}
