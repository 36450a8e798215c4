package primentt

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// extCase is what the tests need of a challenge field X of E, through
// gnark-crypto's own arithmetic.
type extCase[E Element, X Ext] struct {
	base          primeCase[E]
	typ           string // the field's extension in cuda/ntt_ext.cu
	lift          func(E) X
	mulBase       func(X, E) X
	add, sub, mul func(X, X) X
	inv           func(X) X
	base0         func(X) E // the base coordinate
	// dev and undev: X as the device computes on it (Goldilocks plain),
	// and back; devBase likewise for E.
	dev, undev func(X) X
	devBase    func(E) E
}

// random draws an X with every coordinate random, or a third of the time
// with some coordinates zero (base-field and E2-subfield elements).
func (c extCase[E, X]) random(r *rand.Rand) X {
	var x X
	switch v := any(&x).(type) {
	case *bbext.E4:
		for _, p := range []*babybear.Element{&v.B0.A0, &v.B0.A1, &v.B1.A0, &v.B1.A1} {
			if r.IntN(6) > 0 {
				*p = any(c.base.random(r)).(babybear.Element)
			}
		}
	case *kbext.E4:
		for _, p := range []*koalabear.Element{&v.B0.A0, &v.B0.A1, &v.B1.A0, &v.B1.A1} {
			if r.IntN(6) > 0 {
				*p = any(c.base.random(r)).(koalabear.Element)
			}
		}
	case *glext.E2:
		v.A0 = any(c.base.random(r)).(goldilocks.Element)
		if r.IntN(4) > 0 {
			v.A1 = any(c.base.random(r)).(goldilocks.Element)
		}
	case *fr.Element:
		*v = any(c.base.random(r)).(fr.Element)
	}
	return x
}

func e4Case[E babybear.Element | koalabear.Element, X bbext.E4 | kbext.E4, P interface {
	*X
	Lift(*E) *X
	MulByElement(*X, *E) *X
	Add(x, y *X) *X
	Sub(x, y *X) *X
	Mul(x, y *X) *X
	Inverse(x *X) *X
}](base primeCase[E], typ string) extCase[E, X] {
	id := func(x X) X { return x }
	return extCase[E, X]{
		base: base, typ: typ,
		lift:    func(e E) X { var x X; P(&x).Lift(&e); return x },
		mulBase: func(x X, e E) X { P(&x).MulByElement(&x, &e); return x },
		add:     func(x, y X) X { P(&x).Add(&x, &y); return x },
		sub:     func(x, y X) X { P(&x).Sub(&x, &y); return x },
		mul:     func(x, y X) X { P(&x).Mul(&x, &y); return x },
		inv:     func(x X) X { P(&x).Inverse(&x); return x },
		base0:   func(x X) E { return *(*E)(unsafe.Pointer(&x)) }, // B0.A0
		dev:     id, undev: id, devBase: func(e E) E { return e },
	}
}

func babybearExt() extCase[babybear.Element, bbext.E4] {
	return e4Case[babybear.Element, bbext.E4](babybearCase(), "BabyBearExt4")
}

func koalabearExt() extCase[koalabear.Element, kbext.E4] {
	return e4Case[koalabear.Element, kbext.E4](koalabearCase(), "KoalaBearExt4")
}

func goldilocksExt() extCase[goldilocks.Element, glext.E2] {
	plain := func(e goldilocks.Element) goldilocks.Element { return goldilocks.Element{e.Uint64()} }
	mont := func(e goldilocks.Element) goldilocks.Element { var m goldilocks.Element; m.SetUint64(e[0]); return m }
	return extCase[goldilocks.Element, glext.E2]{
		base: goldilocksCase(), typ: "GoldilocksExt2",
		lift:    func(e goldilocks.Element) glext.E2 { return glext.E2{A0: e} },
		mulBase: func(x glext.E2, e goldilocks.Element) glext.E2 { x.MulByElement(&x, &e); return x },
		add:     func(x, y glext.E2) glext.E2 { x.Add(&x, &y); return x },
		sub:     func(x, y glext.E2) glext.E2 { x.Sub(&x, &y); return x },
		mul:     func(x, y glext.E2) glext.E2 { x.Mul(&x, &y); return x },
		inv:     func(x glext.E2) glext.E2 { x.Inverse(&x); return x },
		base0:   func(x glext.E2) goldilocks.Element { return x.A0 },
		dev:     func(x glext.E2) glext.E2 { return glext.E2{A0: plain(x.A0), A1: plain(x.A1)} },
		undev:   func(x glext.E2) glext.E2 { return glext.E2{A0: mont(x.A0), A1: mont(x.A1)} },
		devBase: plain,
	}
}

func bn254Ext() extCase[fr.Element, fr.Element] {
	id := func(x fr.Element) fr.Element { return x }
	return extCase[fr.Element, fr.Element]{
		base: bn254Case(), typ: "BN254Ext1",
		lift:    id,
		mulBase: func(x, e fr.Element) fr.Element { x.Mul(&x, &e); return x },
		add:     func(x, y fr.Element) fr.Element { x.Add(&x, &y); return x },
		sub:     func(x, y fr.Element) fr.Element { x.Sub(&x, &y); return x },
		mul:     func(x, y fr.Element) fr.Element { x.Mul(&x, &y); return x },
		inv:     func(x fr.Element) fr.Element { x.Inverse(&x); return x },
		base0:   id,
		dev:     id, undev: id, devBase: id,
	}
}

// elemOne returns 1.
func elemOne[E Element]() E {
	var e E
	switch p := any(&e).(type) {
	case *babybear.Element:
		p.SetOne()
	case *koalabear.Element:
		p.SetOne()
	case *goldilocks.Element:
		p.SetOne()
	case *fr.Element:
		p.SetOne()
	}
	return e
}

// TestExtArith checks the device arithmetic of each challenge field
// (cuda/ntt_ext.cu's Ext4, GoldilocksExt2, BN254Ext1: mul, inv, mul_base,
// sub_base and add) against gnark-crypto's, bit for bit, on random inputs
// with zero, one and subfield elements among them, through a test kernel
// compiled with the field's program.
func TestExtArith(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testExtArith(t, babybearExt()) })
	t.Run("koalabear", func(t *testing.T) { testExtArith(t, koalabearExt()) })
	t.Run("goldilocks", func(t *testing.T) { testExtArith(t, goldilocksExt()) })
	t.Run("bn254", func(t *testing.T) { testExtArith(t, bn254Ext()) })
}

func testExtArith[E Element, X Ext](t *testing.T, c extCase[E, X]) {
	d := gputest.Device(t)
	src, err := cuda.Program(cuda.ExtProgram(c.base.name))
	require.NoError(t, err)
	src += fmt.Sprintf(`
extern "C" __global__ void t_arith(%[1]s::V *out, const %[1]s::V *a, const %[1]s::V *b, const %[1]s::B *f, u32 n) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[4 * i] = %[1]s::canon(%[1]s::mul(a[i], b[i]));
    out[4 * i + 1] = %[1]s::canon(%[1]s::inv(a[i]));
    out[4 * i + 2] = %[1]s::canon(%[1]s::mul_base(a[i], f[i]));
    out[4 * i + 3] = %[1]s::canon(%[1]s::add(%[1]s::sub_base(a[i], f[i]), b[i]));
}
`, c.typ)
	m, err := d.LoadModule("ext_arith_"+c.base.name+".cu", src)
	require.NoError(t, err)
	fn, err := m.Function("t_arith")
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(7, 1))
	const n = 3000
	a, b, f := make([]X, n), make([]X, n), make([]E, n)
	for i := range n {
		a[i], b[i], f[i] = c.random(r), c.random(r), c.base.random(r)
	}
	a[0] = *new(X)                                                          // 0: inverse 0, as gnark-crypto's
	a[1], b[1] = c.lift(elemOne[E]()), c.sub(*new(X), c.lift(elemOne[E]())) // 1, −1
	f[2] = *new(E)
	want := make([]X, 4*n)
	for i := range n {
		want[4*i] = c.mul(a[i], b[i])
		want[4*i+1] = c.inv(a[i])
		want[4*i+2] = c.mulBase(a[i], f[i])
		want[4*i+3] = c.add(c.sub(a[i], c.lift(f[i])), b[i])
	}
	da, db, df := make([]X, n), make([]X, n), make([]E, n)
	for i := range n {
		da[i], db[i], df[i] = c.dev(a[i]), c.dev(b[i]), c.devBase(f[i])
	}
	out := gputest.Alloc[X](t, d, 4*n)
	require.NoError(t, fn.Launch(gpu.LaunchConfig{Grid: gpu.Dim3{X: (n + 255) / 256}, Block: gpu.Dim3{X: 256}},
		out, gputest.Upload(t, d, da), gputest.Upload(t, d, db), gputest.Upload(t, d, df), uint32(n)))
	got := gputest.Download(t, out)
	for i := range got {
		got[i] = c.undev(got[i])
	}
	testutil.RequireEqualSlices(t, want, got, "mul, inv, mul_base, sub_base+add of %d elements", n)
}

// elemUint returns v as an element.
func elemUint[E Element](v uint64) E {
	var e E
	switch p := any(&e).(type) {
	case *babybear.Element:
		p.SetUint64(v)
	case *koalabear.Element:
		p.SetUint64(v)
	case *goldilocks.Element:
		p.SetUint64(v)
	case *fr.Element:
		p.SetUint64(v)
	}
	return e
}

// TestCombineExt checks CombineExt against gnark-crypto's MulByElement and
// Add for every field, column counts around a launch's 32 coefficients and
// lengths off the block size, with 0, 1 and subfield elements among the
// coefficients.
func TestCombineExt(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testCombineExt(t, babybearExt()) })
	t.Run("koalabear", func(t *testing.T) { testCombineExt(t, koalabearExt()) })
	t.Run("goldilocks", func(t *testing.T) { testCombineExt(t, goldilocksExt()) })
	t.Run("bn254", func(t *testing.T) { testCombineExt(t, bn254Ext()) })
}

func testCombineExt[E Element, X Ext](t *testing.T, c extCase[E, X]) {
	d := gputest.Device(t)
	r := rand.New(rand.NewPCG(3, 9))
	for _, sh := range [][2]int{{1, 1}, {3, 7}, {4, 255}, {32, 300}, {33, 1025}, {65, 2000}} {
		ncols, n := sh[0], sh[1]
		x := make([]E, ncols*n)
		for i := range x {
			x[i] = c.base.random(r)
		}
		x[0] = *new(E)
		alpha := make([]X, ncols)
		for j := range alpha {
			alpha[j] = c.random(r)
		}
		if ncols > 2 {
			alpha[0], alpha[1] = *new(X), c.lift(elemOne[E]())
		}
		want := make([]X, n)
		for j := range ncols {
			for i := range n {
				want[i] = c.add(want[i], c.mulBase(alpha[j], x[j*n+i]))
			}
		}
		dst := gputest.Alloc[X](t, d, n)
		require.NoError(t, CombineExt(nil, dst, gputest.Upload(t, d, x), alpha))
		testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "%d columns of %d", ncols, n)
	}
	x := gputest.Alloc[E](t, d, 12)
	dst := gputest.Alloc[X](t, d, 4)
	require.ErrorIs(t, CombineExt(nil, dst, x, make([]X, 2)), gpu.ErrLength)
	require.ErrorIs(t, CombineExt(nil, dst, x, make([]X, 5)), gpu.ErrLength)
	require.ErrorIs(t, CombineExt[E, X](nil, dst, x, nil), gpu.ErrLength)
	freed := gputest.Alloc[E](t, d, 12)
	require.NoError(t, freed.Free())
	require.ErrorIs(t, CombineExt(nil, dst, freed, make([]X, 3)), gpu.ErrClosed)
}

// refCoset returns the coset's points x_j = g·ω^j, by repeated products.
func (c extCase[E, X]) refCoset(cs Coset[E]) []E {
	xs := make([]E, cs.N)
	x := c.lift(cs.Shift)
	for j := range xs {
		xs[j] = c.base0(x)
		x = c.mulBase(x, cs.Omega)
	}
	return xs
}

// refWeights returns the weights x_j/(z − x_j) times (z^N − g^N)/(N·g^N),
// z^N and g^N by N products, or the j with z = x_j.
func (c extCase[E, X]) refWeights(cs Coset[E], xs []E, z X) ([]X, int) {
	for j, x := range xs {
		if c.lift(x) == z {
			return nil, j
		}
	}
	one := c.lift(elemOne[E]())
	zn, gn := one, one
	for range cs.N {
		zn, gn = c.mul(zn, z), c.mulBase(gn, cs.Shift)
	}
	scale := c.mul(c.sub(zn, gn), c.inv(c.mulBase(gn, elemUint[E](uint64(cs.N)))))
	w := make([]X, len(xs))
	for j, x := range xs {
		w[j] = c.mul(scale, c.mulBase(c.inv(c.sub(z, c.lift(x))), x))
	}
	return w, -1
}

// horner returns Σ_k a_k·z^k.
func (c extCase[E, X]) horner(a []E, z X) X {
	var acc X
	for k := len(a) - 1; k >= 0; k-- {
		acc = c.add(c.mul(acc, z), c.lift(a[k]))
	}
	return acc
}

// TestEvalCoset checks EvalCoset for every field against the barycentric
// formula computed with gnark-crypto's arithmetic (an inversion per point,
// z^N by N products) and, for polynomials of up to 64 coefficients,
// against their evaluation by Horner's rule: coset sizes from 1 to 2^13
// (blocks of 2048 points: tails and many blocks), steps 1 to 4 (the
// other entries random), cosets of LDE domains and of random shifts, random
// extension points, base-field points off the coset, a point on the coset
// (its row), z·ω, and more points than one launch takes.
func TestEvalCoset(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testEvalCoset(t, babybearExt()) })
	t.Run("koalabear", func(t *testing.T) { testEvalCoset(t, koalabearExt()) })
	t.Run("goldilocks", func(t *testing.T) { testEvalCoset(t, goldilocksExt()) })
	t.Run("bn254", func(t *testing.T) { testEvalCoset(t, bn254Ext()) })
}

func testEvalCoset[E Element, X Ext](t *testing.T, c extCase[E, X]) {
	d := gputest.Device(t)
	r := rand.New(rand.NewPCG(5, 2))
	for _, sh := range [][3]int{{0, 1, 1}, {0, 2, 3}, {1, 1, 3}, {2, 4, 2}, {3, 4, 5}, {6, 2, 4}, {6, 1, 1}, {10, 1, 3}, {11, 4, 2}, {12, 1, 33}, {13, 2, 3}} {
		logn, step, ncols := sh[0], sh[1], sh[2]
		n := 1 << logn
		var cs Coset[E]
		if n*step > 1 {
			var err error
			cs, err = LDECoset[E](c.base.domain(uint64(n*step), nil), step)
			require.NoError(t, err)
			if logn%2 == 1 {
				cs.Shift = c.base.random(r) // a coset of another shift
			}
		} else {
			cs = Coset[E]{N: 1, Shift: c.base.random(r), Omega: elemOne[E](), Step: 1}
		}
		xs := c.refCoset(cs)
		cols := make([]E, ncols*n*step)
		for i := range cols {
			cols[i] = c.base.random(r)
		}
		var coeffs [][]E // polynomials of the columns, where n ≤ 64
		if n <= 64 {
			for col := range ncols {
				a := make([]E, n)
				for k := range a {
					a[k] = c.base.random(r)
				}
				coeffs = append(coeffs, a)
				for j, x := range xs {
					cols[col*n*step+j*step] = c.base0(c.horner(a, c.lift(x)))
				}
			}
		}
		points := []X{c.random(r), c.random(r), c.lift(c.base.random(r)), c.lift(xs[r.IntN(n)])}
		points = append(points, c.mulBase(points[0], cs.Omega))
		if logn == 6 {
			for range 6 {
				points = append(points, c.random(r))
			}
		}
		want := make([]X, len(points)*ncols)
		for k, z := range points {
			w, j := c.refWeights(cs, xs, z)
			for col := range ncols {
				f := cols[col*n*step:]
				if j >= 0 {
					want[k*ncols+col] = c.lift(f[j*step])
					continue
				}
				var s X
				for i := range n {
					s = c.add(s, c.mulBase(w[i], f[i*step]))
				}
				want[k*ncols+col] = s
				if coeffs != nil {
					require.Equal(t, c.horner(coeffs[col], z), s, "reference against Horner, 2^%d", logn)
				}
			}
		}
		dst := gputest.Alloc[X](t, d, len(points)*ncols)
		dcols := gputest.Upload(t, d, cols)
		require.NoError(t, EvalCoset(nil, dst, dcols, ncols, cs, points))
		testutil.RequireEqualSlices(t, want, gputest.Download(t, dst), "2^%d points, step %d, %d columns", logn, step, ncols)

		// On a stream, as one of several calls.
		s, err := d.NewStream()
		require.NoError(t, err)
		dst2 := gputest.Alloc[X](t, d, ncols)
		require.NoError(t, EvalCoset(s, dst2, dcols, ncols, cs, points[1:2]))
		require.NoError(t, s.Synchronize())
		require.NoError(t, s.Close())
		testutil.RequireEqualSlices(t, want[ncols:2*ncols], gputest.Download(t, dst2), "2^%d on a stream", logn)
	}
	cs := Coset[E]{N: 4, Shift: elemOne[E](), Omega: elemOne[E](), Step: 1}
	cols := gputest.Alloc[E](t, d, 8)
	dst := gputest.Alloc[X](t, d, 2)
	pts := []X{c.random(r)}
	require.ErrorIs(t, EvalCoset(nil, dst, cols, 2, cs, pts), ErrDomain, "ω of order 1 for 4 points")
	good, err := LDECoset[E](c.base.domain(4, nil), 2)
	require.NoError(t, err)
	require.NoError(t, EvalCoset(nil, dst, cols, 2, good, pts))
	// Only points on the coset: no partial sums, the rows.
	host := gputest.Download(t, cols)
	require.NoError(t, EvalCoset(nil, dst, cols, 2, good, []X{c.lift(c.refCoset(good)[1])}))
	testutil.RequireEqualSlices(t, []X{c.lift(host[2]), c.lift(host[6])}, gputest.Download(t, dst), "a point on the coset")
	require.ErrorIs(t, EvalCoset(nil, dst, cols, 3, good, pts), gpu.ErrLength)
	require.ErrorIs(t, EvalCoset(nil, dst, cols, 2, good, append(pts, pts...)), gpu.ErrLength)
	require.ErrorIs(t, EvalCoset(nil, dst, cols, 2, good, nil), gpu.ErrLength)
	require.NoError(t, cols.Free())
	require.ErrorIs(t, EvalCoset(nil, dst, cols, 2, good, pts), gpu.ErrClosed)
}

// TestExtChecks checks, without a GPU, the errors of CombineExt and
// EvalCoset that come before any device work, and EvalCoset's plan: the
// scale factors against (z^N − g^N)/(N·g^N) by N products, and the index
// of points on the coset.
func TestExtChecks(t *testing.T) {
	require.ErrorIs(t, CombineExt[babybear.Element, kbext.E4](nil, nil, nil, nil), ErrField)
	require.ErrorIs(t, CombineExt[goldilocks.Element, bbext.E4](nil, nil, nil, nil), ErrField)
	require.ErrorIs(t, CombineExt[babybear.Element, bbext.E4](nil, nil, nil, nil), gpu.ErrLength)
	require.ErrorIs(t, CombineExt[fr.Element, fr.Element](nil, nil, nil, nil), gpu.ErrLength)
	require.ErrorIs(t, EvalCoset[koalabear.Element, bbext.E4](nil, nil, nil, 1, Coset[koalabear.Element]{}, nil), ErrField)
	require.ErrorIs(t, EvalCoset[koalabear.Element, kbext.E4](nil, nil, nil, 1, Coset[koalabear.Element]{}, nil), gpu.ErrLength)
	_, err := LDECoset[babybear.Element](goldilocksCase().domain(8, nil), 2)
	require.ErrorIs(t, err, ErrField)
	_, err = LDECoset[babybear.Element](babybearCase().domain(8, nil), 3)
	require.ErrorIs(t, err, ErrDomain)
	_, err = LDECoset[babybear.Element](nil, 1)
	require.ErrorIs(t, err, ErrDomain)

	c := babybearExt()
	r := rand.New(rand.NewPCG(1, 1))
	for _, logn := range []int{0, 1, 4, 9} {
		cs, err := LDECoset[babybear.Element](c.base.domain(uint64(4<<logn), nil), 4)
		require.NoError(t, err)
		xs := c.refCoset(cs)
		j := r.IntN(len(xs))
		pts := []bbext.E4{c.random(r), c.lift(xs[j]), c.lift(c.base.random(r))}
		p, err := planArgs(len(pts)*2, 2*4<<logn, 2, cs, pts)
		require.NoError(t, err)
		require.Equal(t, []int{-1, j, -1}, p.index, "2^%d", logn)
		for k, z := range pts {
			if k == 1 {
				continue
			}
			one := c.lift(elemOne[babybear.Element]())
			zn, gn := one, one
			for range cs.N {
				zn, gn = c.mul(zn, z), c.mulBase(gn, cs.Shift)
			}
			want := c.mul(c.sub(zn, gn), c.inv(c.mulBase(gn, elemUint[babybear.Element](uint64(cs.N)))))
			require.Equal(t, want, p.scale[k], "2^%d point %d", logn, k)
		}
		bad := cs
		bad.N *= 2
		_, err = planArgs(len(pts)*2, 2*bad.N*4, 2, bad, pts)
		require.ErrorIs(t, err, ErrDomain, "ω of order N/2")
		bad = cs
		bad.Shift = babybear.Element{}
		_, err = planArgs(len(pts)*2, 2*4<<logn, 2, bad, pts)
		require.ErrorIs(t, err, ErrDomain, "shift 0")
	}
}

// FuzzEvalArgs feeds EvalCoset's checks any lengths, coset sizes, steps,
// points on and off the coset: no panic, errors wrap ErrLength or
// ErrDomain, and an accepted call has consistent lengths and the right
// coset index.
func FuzzEvalArgs(f *testing.F) {
	f.Add(8, 64, 2, 16, 2, uint32(3), 4, 1)
	f.Add(1, 1, 1, 1, 1, uint32(0), 1, 0)
	f.Add(0, -1, 0, 3, -2, uint32(7), 0, 5)
	f.Add(3, 1<<20, 1<<19, 2, 1, uint32(1), 3, 2)
	c := babybearExt()
	f.Fuzz(func(t *testing.T, dstLen, colsLen, ncols, n, step int, j uint32, npts, on int) {
		logn := 0
		if n > 0 && n <= 1<<12 && n&(n-1) == 0 {
			for 1<<logn < n {
				logn++
			}
		}
		cs := Coset[babybear.Element]{N: n, Shift: elemUint[babybear.Element](31), Omega: elemUint[babybear.Element](1), Step: step}
		var xs []babybear.Element
		if 1<<logn == n && n > 0 && n <= 1<<12 {
			w, err := babybear.Generator(uint64(n))
			require.NoError(t, err)
			cs.Omega = w
			xs = c.refCoset(cs)
		}
		pts := make([]bbext.E4, max(0, min(npts, 20)))
		r := rand.New(rand.NewPCG(uint64(j), 0))
		for k := range pts {
			pts[k] = c.random(r)
			if k == on && xs != nil {
				pts[k] = c.lift(xs[int(j)%len(xs)])
			}
		}
		p, err := planArgs(dstLen, colsLen, ncols, cs, pts)
		if err != nil {
			require.True(t, errors.Is(err, gpu.ErrLength) || errors.Is(err, ErrDomain), "%v", err)
			return
		}
		require.Equal(t, colsLen, ncols*n*step)
		require.Equal(t, dstLen, len(pts)*ncols)
		for k := range pts {
			if k == on && xs != nil {
				require.Equal(t, int(j)%len(xs), p.index[k])
			}
		}
	})
}

// TestEvalReference checks, without a GPU, the tests' barycentric
// reference against Horner's rule on polynomials of up to 32 coefficients,
// for every field.
func TestEvalReference(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testEvalReference(t, babybearExt()) })
	t.Run("koalabear", func(t *testing.T) { testEvalReference(t, koalabearExt()) })
	t.Run("goldilocks", func(t *testing.T) { testEvalReference(t, goldilocksExt()) })
	t.Run("bn254", func(t *testing.T) { testEvalReference(t, bn254Ext()) })
}

func testEvalReference[E Element, X Ext](t *testing.T, c extCase[E, X]) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, logn := range []int{0, 1, 3, 5} {
		n := 1 << logn
		cs, err := LDECoset[E](c.base.domain(uint64(2*n), nil), 2)
		require.NoError(t, err)
		xs := c.refCoset(cs)
		a := make([]E, n)
		for k := range a {
			a[k] = c.base.random(r)
		}
		for range 3 {
			z := c.random(r)
			w, j := c.refWeights(cs, xs, z)
			var s X
			for i, x := range xs {
				if j >= 0 {
					break
				}
				s = c.add(s, c.mulBase(w[i], c.base0(c.horner(a, c.lift(x)))))
			}
			if j >= 0 {
				s = c.horner(a, c.lift(xs[j]))
			}
			require.Equal(t, c.horner(a, z), s, "2^%d", logn)
		}
	}
}
