package fri

import (
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// deepOps is the DEEP quotient's kernel for one point over a chunk of
// rows, with concrete loops per field so that the arithmetic inlines:
//
//	q[i] += (g[i] − v)·c/(x_i − z),  given cinv = 1/c and zc = z/c,
//
// the denominators (x_i·cinv − zc) inverted together by Montgomery's trick
// (den and acc are scratch of len(q)). It reports false, leaving q
// partly updated, when a denominator vanishes.
//
// deepMulti is the same for several points at once, as one fraction:
//
//	q[i] += (g[i]·A(x_i) − B(x_i))/D(x_i),
//
// A, B, D polynomials with coefficients in X (constant first, len(A) =
// len(B) = len(D) − 1), D(x_i) inverted together.
type deepOps[F, X any] interface {
	deepPoint(q, g []X, xs []F, cinv, zc, v X, den, acc []X) bool
	deepMulti(q, g []X, xs []F, A, B, D []X, num, den, acc []X) bool
}

func (bbOps) deepPoint(q, g []bbext.E4, xs []babybear.Element, cinv, zc, v bbext.E4, den, acc []bbext.E4) bool {
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

func (kbOps) deepPoint(q, g []kbext.E4, xs []koalabear.Element, cinv, zc, v kbext.E4, den, acc []kbext.E4) bool {
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

func (glOps) deepPoint(q, g []glext.E2, xs []goldilocks.Element, cinv, zc, v glext.E2, den, acc []glext.E2) bool {
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
	var inv, d, t glext.E2
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

func (bnOps) deepPoint(q, g []fr.Element, xs []fr.Element, cinv, zc, v fr.Element, den, acc []fr.Element) bool {
	n := len(q)
	for i := range n {
		den[i].Mul(&cinv, &xs[i])
		den[i].Sub(&den[i], &zc)
	}
	acc[0] = den[0]
	for i := 1; i < n; i++ {
		acc[i].Mul(&acc[i-1], &den[i])
	}
	if acc[n-1].IsZero() {
		return false
	}
	var inv, d, t fr.Element
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

func (gfAlg) deepPoint(q, g []gf128.Element, xs []gf64.Element, cinv, zc, v gf128.Element, den, acc []gf128.Element) bool {
	gf128.ScaleBaseVec(den, xs, cinv)
	for i := range den {
		den[i] = gf128.Add(den[i], zc)
	}
	if gf128.BatchInverse(den, den) != 0 {
		return false
	}
	for i := range acc {
		acc[i] = gf128.Add(g[i], v)
	}
	gf128.MulVec(acc, acc, den)
	gf128.AddVec(q, q, acc)
	return true
}

func (bbOps) deepMulti(q, g []bbext.E4, xs []babybear.Element, A, B, D []bbext.E4, num, den, acc []bbext.E4) bool {
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

func (kbOps) deepMulti(q, g []kbext.E4, xs []koalabear.Element, A, B, D []kbext.E4, num, den, acc []kbext.E4) bool {
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

func (glOps) deepMulti(q, g []glext.E2, xs []goldilocks.Element, A, B, D []glext.E2, num, den, acc []glext.E2) bool {
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
	var inv, t glext.E2
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

func (bnOps) deepMulti(q, g []fr.Element, xs []fr.Element, A, B, D []fr.Element, num, den, acc []fr.Element) bool {
	n := len(q)
	for i := range n {
		x := &xs[i]
		a, b, d := A[len(A)-1], B[len(B)-1], D[len(D)-1]
		for k := len(A) - 2; k >= 0; k-- {
			a.Mul(&a, x)
			a.Add(&a, &A[k])
			b.Mul(&b, x)
			b.Add(&b, &B[k])
		}
		for k := len(D) - 2; k >= 0; k-- {
			d.Mul(&d, x)
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
	var inv, t fr.Element
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

func (gfAlg) deepMulti(q, g []gf128.Element, xs []gf64.Element, A, B, D []gf128.Element, num, den, acc []gf128.Element) bool {
	horner := func(dst []gf128.Element, c []gf128.Element) {
		top := c[len(c)-1]
		for i := range dst {
			dst[i] = top
		}
		for k := len(c) - 2; k >= 0; k-- {
			gf128.MulByBaseVec(dst, dst, xs)
			for i := range dst {
				dst[i] = gf128.Add(dst[i], c[k])
			}
		}
	}
	horner(num, A)
	gf128.MulVec(num, num, g)
	horner(acc, B)
	gf128.AddVec(num, num, acc)
	horner(den, D)
	if gf128.BatchInverse(den, den) != 0 {
		return false
	}
	gf128.MulVec(num, num, den)
	gf128.AddVec(q, q, num)
	return true
}
