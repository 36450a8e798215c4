package fri

import (
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/consensys/gnark-crypto/utils/cpu"

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
// len(B) = len(D) − 1), D(x_i) inverted together (num, den and acc are
// scratch of len(q)). BabyBear and KoalaBear work on coordinate vectors
// instead of loops (deepSoA).
type deepOps[F, X any] interface {
	deepPoint(q, g []X, xs []F, cinv, zc, v X, den, acc []X) bool
	deepMulti(q, g []X, xs []F, A, B, D []X, num, den, acc []X) bool
}

func bbDeepPointLoop(q, g []bbext.E4, xs []babybear.Element, cinv, zc, v bbext.E4, den, acc []bbext.E4) bool {
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

func kbDeepPointLoop(q, g []kbext.E4, xs []koalabear.Element, cinv, zc, v kbext.E4, den, acc []kbext.E4) bool {
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

func bbDeepMultiLoop(q, g []bbext.E4, xs []babybear.Element, A, B, D []bbext.E4, num, den, acc []bbext.E4) bool {
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

func kbDeepMultiLoop(q, g []kbext.E4, xs []koalabear.Element, A, B, D []kbext.E4, num, den, acc []kbext.E4) bool {
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

// The BabyBear and KoalaBear kernels work structure-of-arrays: a block of
// up to soaMaxRows rows is split into the coordinate vectors of its E4
// values and all the arithmetic is done by gnark-crypto's base-field
// vector kernels (Vector.Mul, Add, Sub, ScalarMul: AVX-512 on amd64).
// gnark-crypto's E4 is F[w]/(w⁴ − W) (W = 11 for BabyBear, 3 for
// KoalaBear), built as the tower E2 = F[u]/(u² − W), E4 = E2[v]/(v² − u),
// u = w², v = w; y = B0 + B1·v = c0 + c1·w + c2·w² + c3·w³ is stored
// B0.A0, B0.A1, B1.A0, B1.A1 = c0, c2, c1, c3 (soaAt). Per row:
//
//	t = g·A(x) − B(x)                    (A, B, D on the powers of x: E4-by-F scalings)
//	N1 = y·ȳ = B0² − u·B1² = n0 + n1·u    (y = D(x), ȳ = B0 − B1·v)
//	N2 = N1·N̄1 = n0² − W·n1² ∈ F          (zero exactly when y is)
//	1/y = ȳ·(n0 − n1·u)/N2
//	q += t·(1/y)                         (E4 products schoolbook in w: 16 vector products)
//
// N2 is inverted over the block by Montgomery's trick on 64 interleaved
// running products (one vector product of 64 lanes a step), the 64 lane
// totals the same way on 16 lanes, those by one inversion in F. deepPoint
// is the fraction A = 1, B = v, D = cinv·x − zc. Field arithmetic is
// exact: the sums are bit-identical to the scalar loops (bbDeepMultiLoop,
// …), which remain for short chunks and where the vector kernels are
// loops themselves (soaFast).

// soaAt[k] is the offset of the coordinate of w^k inside an E4.
var soaAt = [4]int{0, 2, 1, 3}

const (
	soaMinRows = 64  // below: the scalar loops
	soaMaxRows = 512 // rows of a block (its ~16 vectors stay in L1)
	soaMaxDeg  = 7   // len(D) − 1 at most, else the scalar loops
	soaLanes   = 64  // running products of the batch inversion, at most
)

// soaField is a 31-bit field's vector kernels on raw Montgomery words.
type soaField interface {
	mul(z, x, y []uint32) // z = x·y
	add(z, x, y []uint32) // z = x + y
	sub(z, x, y []uint32) // z = x − y
	scale(z, x []uint32, c uint32)
	fmul(x, y uint32) uint32
	finv(x uint32) uint32 // x ≠ 0
	one() uint32
	nr() uint32 // W, w⁴ = W
}

type bbSoA struct{}

func bbVec(s []uint32) babybear.Vector {
	return unsafe.Slice((*babybear.Element)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

var bbNR = func() uint32 { var w babybear.Element; w.SetUint64(11); return w[0] }()

func (bbSoA) mul(z, x, y []uint32) { v := bbVec(z); v.Mul(bbVec(x), bbVec(y)) }
func (bbSoA) add(z, x, y []uint32) { v := bbVec(z); v.Add(bbVec(x), bbVec(y)) }
func (bbSoA) sub(z, x, y []uint32) { v := bbVec(z); v.Sub(bbVec(x), bbVec(y)) }
func (bbSoA) scale(z, x []uint32, c uint32) {
	v := bbVec(z)
	e := babybear.Element{c}
	v.ScalarMul(bbVec(x), &e)
}
func (bbSoA) fmul(x, y uint32) uint32 {
	a, b := babybear.Element{x}, babybear.Element{y}
	a.Mul(&a, &b)
	return a[0]
}
func (bbSoA) finv(x uint32) uint32 { a := babybear.Element{x}; a.Inverse(&a); return a[0] }
func (bbSoA) one() uint32          { return babybear.One()[0] }
func (bbSoA) nr() uint32           { return bbNR }

type kbSoA struct{}

func kbVec(s []uint32) koalabear.Vector {
	return unsafe.Slice((*koalabear.Element)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

var kbNR = func() uint32 { var w koalabear.Element; w.SetUint64(3); return w[0] }()

func (kbSoA) mul(z, x, y []uint32) { v := kbVec(z); v.Mul(kbVec(x), kbVec(y)) }
func (kbSoA) add(z, x, y []uint32) { v := kbVec(z); v.Add(kbVec(x), kbVec(y)) }
func (kbSoA) sub(z, x, y []uint32) { v := kbVec(z); v.Sub(kbVec(x), kbVec(y)) }
func (kbSoA) scale(z, x []uint32, c uint32) {
	v := kbVec(z)
	e := koalabear.Element{c}
	v.ScalarMul(kbVec(x), &e)
}
func (kbSoA) fmul(x, y uint32) uint32 {
	a, b := koalabear.Element{x}, koalabear.Element{y}
	a.Mul(&a, &b)
	return a[0]
}
func (kbSoA) finv(x uint32) uint32 { a := koalabear.Element{x}; a.Inverse(&a); return a[0] }
func (kbSoA) one() uint32          { return koalabear.One()[0] }
func (kbSoA) nr() uint32           { return kbNR }

// words views a slice of 32-bit field elements or of their E4 as words.
func bbWords[T babybear.Element | bbext.E4](v []T) []uint32 {
	var z T
	k := int(unsafe.Sizeof(z)) / 4
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(v))), k*len(v))
}

func kbWords[T koalabear.Element | kbext.E4](v []T) []uint32 {
	var z T
	k := int(unsafe.Sizeof(z)) / 4
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(v))), k*len(v))
}

// soaPlan is the scratch of deepSoA carved out of the slices given: three
// groups of 4 coordinate vectors (num; g, then D(x), then the staging of
// the result; A(x), then the norms, then the result), temporaries, the
// all-ones vector, the powers x², …, x^m and the lanes of the
// inversion.
type soaPlan struct {
	S, K              int      // rows of a block, lanes of the inversion
	num, gd, aq       []uint32 // 4·S each
	t1, t2, ones, lan []uint32
	pw                [soaMaxDeg + 1][]uint32
}

// carve lays the plan out in rs for blocks of S rows; false if it does
// not fit.
func (p *soaPlan) carve(rs [][]uint32, S, m int) bool {
	take := func(k int) []uint32 { // first fit
		for i, r := range rs {
			if len(r) >= k {
				rs[i] = r[k:]
				return r[:k:k]
			}
		}
		return nil
	}
	p.S = S
	p.num, p.gd, p.aq = take(4*S), take(4*S), take(4*S)
	p.K = min(soaLanes, S)
	p.t1, p.t2, p.ones, p.lan = take(S), take(S), take(S), take(2*p.K+32)
	ok := p.num != nil && p.gd != nil && p.aq != nil && p.t1 != nil && p.t2 != nil && p.ones != nil && p.lan != nil
	for k := 2; k <= m; k++ {
		p.pw[k] = take(S)
		ok = ok && p.pw[k] != nil
	}
	return ok
}

// deepSoA is deepMulti on words: q, g are n E4 (4n words), xs n elements,
// A, B, D the coefficients (4 words each), rs the scratch (its slices are
// consumed). fits is false, nothing done, if rs cannot hold a plan (the
// caller takes the loops); ok is false, q partly updated, when some
// D(x_i) vanishes.
func deepSoA(o soaField, q, g, xs, A, B, D []uint32, rs [][]uint32) (ok, fits bool) {
	n := len(xs)
	m := len(D)/4 - 1
	var saved [3][]uint32
	copy(saved[:], rs)
	var p soaPlan
	for nb := (n + soaMaxRows - 1) / soaMaxRows; ; nb++ {
		S := ((n+nb-1)/nb + 15) &^ 15
		copy(rs, saved[:len(rs)])
		if p.carve(rs, S, m) {
			break
		}
		if S <= 16 {
			return false, false
		}
	}
	S := p.S
	one, W := o.one(), o.nr()
	ones := p.ones
	ones[0] = one
	for k := 1; k < S; k *= 2 {
		copy(ones[k:], ones[:k])
	}
	trivialA := len(A) == 4 && A[0] == one && A[1] == 0 && A[2] == 0 && A[3] == 0
	for r0 := 0; r0 < n; r0 += S {
		L := min(S, n-r0)
		var pw [soaMaxDeg + 1][]uint32
		pw[0], pw[1] = ones[:L], xs[r0:r0+L]
		for k := 2; k <= m; k++ {
			pw[k] = p.pw[k][:L]
			o.mul(pw[k], pw[k-1], pw[1])
		}
		num, gd, aq := soaSplit4(p.num, S, L), soaSplit4(p.gd, S, L), soaSplit4(p.aq, S, L)
		t1, t2 := p.t1[:L], p.t2[:L]

		// num = g·A(x) − B(x)
		gw := g[4*r0 : 4*(r0+L)]
		if trivialA {
			soaFromE4(num, gw)
		} else {
			soaFromE4(gd, gw)
			soaPoly(o, aq, A, pw[:], t1, one)
			soaMulE4(o, num, gd, aq, t1, W)
		}
		for k := 0; 4*k < len(B); k++ {
			for j := range 4 {
				c := B[4*k+soaAt[j]]
				switch c {
				case 0:
				case one:
					o.sub(num[j], num[j], pw[k])
				default:
					o.scale(t1, pw[k], c)
					o.sub(num[j], num[j], t1)
				}
			}
		}

		// y = D(x), its norms, 1/N2
		d := gd
		soaPoly(o, d, D, pw[:], t1, one)
		n0, n1, N2, R := aq[0], aq[1], aq[2], aq[3]
		o.mul(t1, d[1], d[3]) // n0 = d0² + W·(d2² − 2·d1·d3)
		o.mul(n0, d[2], d[2])
		o.sub(n0, n0, t1)
		o.sub(n0, n0, t1)
		o.scale(n0, n0, W)
		o.mul(t1, d[0], d[0])
		o.add(n0, n0, t1)
		o.mul(n1, d[0], d[2]) // n1 = 2·d0·d2 − d1² − W·d3²
		o.add(n1, n1, n1)
		o.mul(t1, d[1], d[1])
		o.sub(n1, n1, t1)
		o.mul(t1, d[3], d[3])
		o.scale(t1, t1, W)
		o.sub(n1, n1, t1)
		o.mul(N2, n1, n1) // N2 = n0² − W·n1²
		o.scale(N2, N2, W)
		o.mul(t1, n0, n0)
		o.sub(N2, t1, N2)
		if !soaBatchInv(o, R, N2, p.lan, p.K) {
			return false, true
		}
		e0, e1 := n0, n1
		o.mul(e0, n0, R)
		o.mul(e1, n1, R)

		// 1/y = ȳ·(e0 − e1·u): w⁰: d0e0 − W·d2e1, w¹: W·d3e1 − d1e0,
		// w²: d2e0 − d0e1, w³: d1e1 − d3e0
		var inv [4][]uint32
		o.mul(t1, d[0], e0)
		o.mul(t2, d[2], e1)
		o.scale(t2, t2, W)
		o.sub(t1, t1, t2)
		inv[0] = t1
		o.mul(t2, d[2], e0)
		o.mul(d[2], d[0], e1)
		o.sub(d[2], t2, d[2])
		inv[2] = d[2]
		tmp := d[0]
		o.mul(t2, d[3], e1)
		o.scale(t2, t2, W)
		o.mul(tmp, d[1], e0)
		o.sub(t2, t2, tmp)
		inv[1] = t2
		o.mul(tmp, d[3], e0)
		o.mul(d[3], d[1], e1)
		o.sub(d[3], d[3], tmp)
		inv[3] = d[3]

		// q += num·(1/y)
		res := aq
		soaMulE4(o, res, num, inv, tmp, W)
		st := p.gd[:4*L]
		soaToE4(st, res)
		qw := q[4*r0 : 4*(r0+L)]
		o.add(qw, qw, st)
	}
	return true, true
}

// soaSplit4 returns the 4 vectors of L words of a group of stride S.
func soaSplit4(grp []uint32, S, L int) [4][]uint32 {
	return [4][]uint32{grp[:L], grp[S : S+L], grp[2*S : 2*S+L], grp[3*S : 3*S+L]}
}

// soaFromE4 splits the E4 words w into coordinate vectors.
func soaFromE4(c [4][]uint32, w []uint32) {
	L := len(w) / 4
	if L == 0 {
		return
	}
	e := unsafe.Slice((*[4]uint32)(unsafe.Pointer(unsafe.SliceData(w))), L)
	c0, c1, c2, c3 := c[0][:L], c[1][:L], c[2][:L], c[3][:L]
	for i := range e {
		c0[i], c2[i], c1[i], c3[i] = e[i][0], e[i][1], e[i][2], e[i][3]
	}
}

// soaToE4 interleaves coordinate vectors into E4 words.
func soaToE4(w []uint32, c [4][]uint32) {
	L := len(w) / 4
	if L == 0 {
		return
	}
	e := unsafe.Slice((*[4]uint32)(unsafe.Pointer(unsafe.SliceData(w))), L)
	c0, c1, c2, c3 := c[0][:L], c[1][:L], c[2][:L], c[3][:L]
	for i := range e {
		e[i] = [4]uint32{c0[i], c2[i], c1[i], c3[i]}
	}
}

// soaPoly sets z to P(x) = Σ_k P_k·x^k, pw[k] = x^k (pw[0] all ones),
// skipping zero coefficients and multiplying by none for ones.
func soaPoly(o soaField, z [4][]uint32, P []uint32, pw [][]uint32, t []uint32, one uint32) {
	for j := range 4 {
		zj, first := z[j], true
		for k := 0; 4*k < len(P); k++ {
			c := P[4*k+soaAt[j]]
			switch {
			case c == 0:
				continue
			case first && c == one:
				copy(zj, pw[k])
			case first:
				o.scale(zj, pw[k], c)
			case c == one:
				o.add(zj, zj, pw[k])
			default:
				o.scale(t, pw[k], c)
				o.add(zj, zj, t)
			}
			first = false
		}
		if first {
			clear(zj)
		}
	}
}

// soaMulE4 sets z = x·y in E4 (z apart from x, y and t), schoolbook in w.
func soaMulE4(o soaField, z, x, y [4][]uint32, t []uint32, W uint32) {
	o.mul(z[0], x[1], y[3]) // w⁰: x0y0 + W·(x1y3 + x2y2 + x3y1)
	o.mul(t, x[2], y[2])
	o.add(z[0], z[0], t)
	o.mul(t, x[3], y[1])
	o.add(z[0], z[0], t)
	o.scale(z[0], z[0], W)
	o.mul(t, x[0], y[0])
	o.add(z[0], z[0], t)
	o.mul(z[1], x[2], y[3]) // w¹: x0y1 + x1y0 + W·(x2y3 + x3y2)
	o.mul(t, x[3], y[2])
	o.add(z[1], z[1], t)
	o.scale(z[1], z[1], W)
	o.mul(t, x[0], y[1])
	o.add(z[1], z[1], t)
	o.mul(t, x[1], y[0])
	o.add(z[1], z[1], t)
	o.mul(z[2], x[3], y[3]) // w²: x0y2 + x1y1 + x2y0 + W·x3y3
	o.scale(z[2], z[2], W)
	o.mul(t, x[0], y[2])
	o.add(z[2], z[2], t)
	o.mul(t, x[1], y[1])
	o.add(z[2], z[2], t)
	o.mul(t, x[2], y[0])
	o.add(z[2], z[2], t)
	o.mul(z[3], x[0], y[3]) // w³: x0y3 + x1y2 + x2y1 + x3y0
	o.mul(t, x[1], y[2])
	o.add(z[3], z[3], t)
	o.mul(t, x[2], y[1])
	o.add(z[3], z[3], t)
	o.mul(t, x[3], y[0])
	o.add(z[3], z[3], t)
}

// soaBatchInv sets R = 1/N elementwise by Montgomery's trick on K
// interleaved running products (lane l: the rows ≡ l mod K; R holds them
// first, so that each step is one vector product of K lanes), the lane
// totals inverted the same way on 16 lanes and those by one inversion in
// F. scr is 2K + 32 words. False, R garbage, if some N[i] = 0.
func soaBatchInv(o soaField, R, N, scr []uint32, K int) bool {
	L := len(N)
	h := min(K, L)
	copy(R[:h], N[:h])
	for s := K; s < L; s += K {
		e := min(s+K, L)
		o.mul(R[s:e], R[s-K:e-K], N[s:e])
	}
	top := (L - 1) / K * K
	r := L - top
	T, I := scr[:h:h], scr[K:K+h:K+h]
	copy(T[:r], R[top:L])
	if r < h {
		copy(T[r:], R[top-K+r:top])
	}
	if h > 16 {
		if !soaBatchInv(o, I, T, scr[2*K:], 16) {
			return false
		}
	} else {
		var pre [16]uint32
		pre[0] = T[0]
		for l := 1; l < h; l++ {
			pre[l] = o.fmul(pre[l-1], T[l])
		}
		if pre[h-1] == 0 {
			return false
		}
		inv := o.finv(pre[h-1])
		for l := h - 1; l > 0; l-- {
			I[l] = o.fmul(inv, pre[l-1])
			inv = o.fmul(inv, T[l])
		}
		I[0] = inv
	}
	for s := top; s >= K; s -= K {
		w := min(s+K, L) - s
		o.mul(R[s:s+w], I[:w], R[s-K:s-K+w])
		o.mul(I[:w], I[:w], N[s:s+w])
	}
	copy(R[:h], I[:h])
	return true
}

// soaFast: the coordinate-vector kernels are taken where gnark-crypto's
// base-field vector kernels are AVX-512; elsewhere (no AVX-512, purego,
// arm64 untried) they are loops and the scalar ones are as fast.
var soaFast = cpu.SupportAVX512

func (bbOps) deepMulti(q, g []bbext.E4, xs []babybear.Element, A, B, D []bbext.E4, num, den, acc []bbext.E4) bool {
	if soaFast {
		if ok, done := bbDeepMultiSoA(q, g, xs, A, B, D, num, den, acc); done {
			return ok
		}
	}
	return bbDeepMultiLoop(q, g, xs, A, B, D, num, den, acc)
}

func (kbOps) deepMulti(q, g []kbext.E4, xs []koalabear.Element, A, B, D []kbext.E4, num, den, acc []kbext.E4) bool {
	if soaFast {
		if ok, done := kbDeepMultiSoA(q, g, xs, A, B, D, num, den, acc); done {
			return ok
		}
	}
	return kbDeepMultiLoop(q, g, xs, A, B, D, num, den, acc)
}

func (bbOps) deepPoint(q, g []bbext.E4, xs []babybear.Element, cinv, zc, v bbext.E4, den, acc []bbext.E4) bool {
	if soaFast {
		if ok, done := bbDeepPointSoA(q, g, xs, cinv, zc, v, den, acc); done {
			return ok
		}
	}
	return bbDeepPointLoop(q, g, xs, cinv, zc, v, den, acc)
}

func (kbOps) deepPoint(q, g []kbext.E4, xs []koalabear.Element, cinv, zc, v kbext.E4, den, acc []kbext.E4) bool {
	if soaFast {
		if ok, done := kbDeepPointSoA(q, g, xs, cinv, zc, v, den, acc); done {
			return ok
		}
	}
	return kbDeepPointLoop(q, g, xs, cinv, zc, v, den, acc)
}

// bbDeepMultiSoA is deepMulti on coordinate vectors; done is false,
// nothing done, for short chunks or long fractions (then the loops).
func bbDeepMultiSoA(q, g []bbext.E4, xs []babybear.Element, A, B, D []bbext.E4, num, den, acc []bbext.E4) (ok, done bool) {
	if len(q) < soaMinRows || len(D) > soaMaxDeg+1 {
		return false, false
	}
	rs := [3][]uint32{bbWords(num), bbWords(den), bbWords(acc)}
	return deepSoA(bbSoA{}, bbWords(q), bbWords(g[:len(q)]), bbWords(xs[:len(q)]), bbWords(A), bbWords(B), bbWords(D), rs[:])
}

func kbDeepMultiSoA(q, g []kbext.E4, xs []koalabear.Element, A, B, D []kbext.E4, num, den, acc []kbext.E4) (ok, done bool) {
	if len(q) < soaMinRows || len(D) > soaMaxDeg+1 {
		return false, false
	}
	rs := [3][]uint32{kbWords(num), kbWords(den), kbWords(acc)}
	return deepSoA(kbSoA{}, kbWords(q), kbWords(g[:len(q)]), kbWords(xs[:len(q)]), kbWords(A), kbWords(B), kbWords(D), rs[:])
}

// bbDeepPointSoA is deepPoint as deepMulti of A = 1, B = v, D = cinv·x − zc.
func bbDeepPointSoA(q, g []bbext.E4, xs []babybear.Element, cinv, zc, v bbext.E4, den, acc []bbext.E4) (ok, done bool) {
	if len(q) < soaMinRows {
		return false, false
	}
	var A [1]bbext.E4
	A[0].SetOne()
	B := [1]bbext.E4{v}
	D := [2]bbext.E4{{}, cinv}
	D[0].Neg(&zc)
	rs := [2][]uint32{bbWords(den), bbWords(acc)}
	return deepSoA(bbSoA{}, bbWords(q), bbWords(g[:len(q)]), bbWords(xs[:len(q)]), bbWords(A[:]), bbWords(B[:]), bbWords(D[:]), rs[:])
}

func kbDeepPointSoA(q, g []kbext.E4, xs []koalabear.Element, cinv, zc, v kbext.E4, den, acc []kbext.E4) (ok, done bool) {
	if len(q) < soaMinRows {
		return false, false
	}
	var A [1]kbext.E4
	A[0].SetOne()
	B := [1]kbext.E4{v}
	D := [2]kbext.E4{{}, cinv}
	D[0].Neg(&zc)
	rs := [2][]uint32{kbWords(den), kbWords(acc)}
	return deepSoA(kbSoA{}, kbWords(q), kbWords(g[:len(q)]), kbWords(xs[:len(q)]), kbWords(A[:]), kbWords(B[:]), kbWords(D[:]), rs[:])
}
