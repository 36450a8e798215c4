package prover

import (
	"math/big"

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

// The arithmetic the extension-field kernels (CombineExt, Evaluate) need,
// one implementation per field: baseOps for the trace field F, extOps for
// its challenge field X. The vector operations of the prime fields are
// gnark-crypto's (AVX-512 where the CPU has it), those of GF(2^64) are
// package gf64's; the kernels call them on blocks of a few thousand
// elements, so the indirection costs nothing measurable.

// baseOps is the trace field's arithmetic.
type baseOps[F any] interface {
	mulVec(dst, a, b []F)              // dst[i] = a[i]·b[i]
	scaleVec(dst, a []F, c *F)         // dst[i] = a[i]·c
	addVec(dst, a, b []F)              // dst[i] = a[i] + b[i]
	dot(a, b []F) F                    // Σ a[i]·b[i]
	sum(a []F) F                       // Σ a[i]
	invVec(dst, a, t []F)              // dst[i] = 1/a[i], every a[i] ≠ 0; dst may be a; t: scratch of len(a)
	mul(a, b F) F                      //
	add(a, b F) F                      //
	sub(a, b F) F                      //
	inv(a F) F                         // 1/a (0 for 0)
	exp(a F, e uint64) F               // a^e
	fromUint(v uint64) F               // v mod p (GF(2^64): the element v)
	isZero(a F) bool                   //
	equal(a, b F) bool                 //
	one() F                            //
	fill(dst []F, c F)                 // dst[i] = c
	mulAddVec(dst, a []F, c *F, t []F) // dst[i] += a[i]·c, t scratch of len(dst)
	newDotter() dotter[F]              // inner products of columns with a set of vectors
}

// dotter computes the inner products of many columns with one set of
// vectors (Evaluate's moments): load once, then dots for each column.
type dotter[F any] interface {
	load(u [][]F)        // the vectors, all of one length; kept until the next load
	dots(f []F, out []F) // out[k] = Σ_i f[i]·u[k][i]
	release()            // gives back what load took
}

// plainDotter is a dotter through baseOps.dot, one vector at a time.
type plainDotter[F any] struct {
	o baseOps[F]
	u [][]F
}

func (d *plainDotter[F]) load(u [][]F) { d.u = u }
func (d *plainDotter[F]) release()     {}
func (d *plainDotter[F]) dots(f []F, out []F) {
	for k, v := range d.u {
		out[k] = d.o.dot(f, v)
	}
}

// extOps is the challenge field's arithmetic over the trace field F.
type extOps[F, X any] interface {
	deg() int                      // [X : F]
	lift(a F) X                    // a as an element of X
	project(x X) (F, bool)         // x as an element of F, when it is one
	coords(x X, dst []F)           // x's deg() coordinates over F, in the type's order
	fromCoords(c []F) X            // the inverse of coords
	xmul(a, b X) X                 //
	xadd(a, b X) X                 //
	xsub(a, b X) X                 //
	xinv(a X) X                    // 1/a (0 for 0)
	xscale(a X, b F) X             // a·b
	xone() X                       //
	xzero() X                      //
	charPoly(z X) []F              // N_{X/F}(T − z): monic, deg()+1 coefficients, constant first
	interleave(dst []X, acc [][]F) // dst[i] = the element of coordinates acc[0][i], …, acc[deg()−1][i]
}

// elemPtr is the pointer method set of gnark-crypto's prime-field elements.
type elemPtr[F any] interface {
	*F
	Mul(x, y *F) *F
	Add(x, y *F) *F
	Sub(x, y *F) *F
	Inverse(x *F) *F
	SetOne() *F
	SetUint64(v uint64) *F
	Exp(x F, k *big.Int) *F
	IsZero() bool
	Equal(x *F) bool
}

// primeOps is baseOps for a gnark-crypto prime field: scalar arithmetic
// through the element's methods, vector arithmetic through its Vector's.
type primeOps[F any, P elemPtr[F]] struct {
	// Scalar operations on values, concrete per field: a generic method
	// on a local (P(&a).Mul) makes the local escape to the heap.
	mulS, addS, subS func(a, b F) F
	invV             func(dst, a, t []F)
	mulV             func(dst, a, b []F)
	scaleV           func(dst, a []F, c *F)
	addV             func(dst, a, b []F)
	dotV             func(a, b []F) F
	sumV             func(a []F) F
	dotter           func() dotter[F] // nil: plainDotter
}

func (o primeOps[F, P]) newDotter() dotter[F] {
	if o.dotter != nil {
		return o.dotter()
	}
	return &plainDotter[F]{o: o}
}

func (o primeOps[F, P]) mulVec(dst, a, b []F)      { o.mulV(dst, a, b) }
func (o primeOps[F, P]) scaleVec(dst, a []F, c *F) { o.scaleV(dst, a, c) }
func (o primeOps[F, P]) addVec(dst, a, b []F)      { o.addV(dst, a, b) }
func (o primeOps[F, P]) dot(a, b []F) F            { return o.dotV(a, b) }
func (o primeOps[F, P]) sum(a []F) F               { return o.sumV(a) }
func (o primeOps[F, P]) mul(a, b F) F              { return o.mulS(a, b) }
func (o primeOps[F, P]) add(a, b F) F              { return o.addS(a, b) }
func (o primeOps[F, P]) sub(a, b F) F              { return o.subS(a, b) }
func (o primeOps[F, P]) invVec(dst, a, t []F)      { o.invV(dst, a, t) }
func (o primeOps[F, P]) inv(a F) F                 { P(&a).Inverse(&a); return a }
func (o primeOps[F, P]) isZero(a F) bool           { return P(&a).IsZero() }
func (o primeOps[F, P]) equal(a, b F) bool         { return P(&a).Equal(&b) }
func (o primeOps[F, P]) one() F                    { var z F; P(&z).SetOne(); return z }
func (o primeOps[F, P]) fromUint(v uint64) F       { var z F; P(&z).SetUint64(v); return z }

func (o primeOps[F, P]) exp(a F, e uint64) F {
	var z F
	P(&z).Exp(a, new(big.Int).SetUint64(e))
	return z
}

func (o primeOps[F, P]) fill(dst []F, c F) {
	for i := range dst {
		dst[i] = c
	}
}

func (o primeOps[F, P]) mulAddVec(dst, a []F, c *F, t []F) {
	o.scaleV(t, a, c)
	o.addV(dst, dst, t)
}

var (
	babybearOps = primeOps[babybear.Element, *babybear.Element]{
		mulS: func(a, b babybear.Element) babybear.Element { a.Mul(&a, &b); return a },
		addS: func(a, b babybear.Element) babybear.Element { a.Add(&a, &b); return a },
		subS: func(a, b babybear.Element) babybear.Element { a.Sub(&a, &b); return a },
		invV: func(dst, a, t []babybear.Element) {
			// Montgomery's trick: t[i] = a[0]·…·a[i−1] on the way up, the
			// inverses on the way down; one inversion in all.
			if len(a) == 0 {
				return
			}
			var acc babybear.Element
			acc.SetOne()
			for i := range a {
				t[i] = acc
				acc.Mul(&acc, &a[i])
			}
			acc.Inverse(&acc)
			for i := len(a) - 1; i >= 0; i-- {
				ai := a[i]
				dst[i].Mul(&t[i], &acc)
				acc.Mul(&acc, &ai)
			}
		},
		mulV:   func(d, a, b []babybear.Element) { v := babybear.Vector(d); v.Mul(a, b) },
		scaleV: func(d, a []babybear.Element, c *babybear.Element) { v := babybear.Vector(d); v.ScalarMul(a, c) },
		addV:   func(d, a, b []babybear.Element) { v := babybear.Vector(d); v.Add(a, b) },
		dotV:   func(a, b []babybear.Element) babybear.Element { v := babybear.Vector(a); return v.InnerProduct(b) },
		sumV:   func(a []babybear.Element) babybear.Element { v := babybear.Vector(a); return v.Sum() },
	}
	koalabearOps = primeOps[koalabear.Element, *koalabear.Element]{
		mulS: func(a, b koalabear.Element) koalabear.Element { a.Mul(&a, &b); return a },
		addS: func(a, b koalabear.Element) koalabear.Element { a.Add(&a, &b); return a },
		subS: func(a, b koalabear.Element) koalabear.Element { a.Sub(&a, &b); return a },
		invV: func(dst, a, t []koalabear.Element) {
			// Montgomery's trick: t[i] = a[0]·…·a[i−1] on the way up, the
			// inverses on the way down; one inversion in all.
			if len(a) == 0 {
				return
			}
			var acc koalabear.Element
			acc.SetOne()
			for i := range a {
				t[i] = acc
				acc.Mul(&acc, &a[i])
			}
			acc.Inverse(&acc)
			for i := len(a) - 1; i >= 0; i-- {
				ai := a[i]
				dst[i].Mul(&t[i], &acc)
				acc.Mul(&acc, &ai)
			}
		},
		mulV:   func(d, a, b []koalabear.Element) { v := koalabear.Vector(d); v.Mul(a, b) },
		scaleV: func(d, a []koalabear.Element, c *koalabear.Element) { v := koalabear.Vector(d); v.ScalarMul(a, c) },
		addV:   func(d, a, b []koalabear.Element) { v := koalabear.Vector(d); v.Add(a, b) },
		dotV:   func(a, b []koalabear.Element) koalabear.Element { v := koalabear.Vector(a); return v.InnerProduct(b) },
		sumV:   func(a []koalabear.Element) koalabear.Element { v := koalabear.Vector(a); return v.Sum() },
		dotter: func() dotter[koalabear.Element] { return &koalabearDotter{} },
	}
	goldilocksOps = primeOps[goldilocks.Element, *goldilocks.Element]{
		mulS: func(a, b goldilocks.Element) goldilocks.Element { a.Mul(&a, &b); return a },
		addS: func(a, b goldilocks.Element) goldilocks.Element { a.Add(&a, &b); return a },
		subS: func(a, b goldilocks.Element) goldilocks.Element { a.Sub(&a, &b); return a },
		invV: func(dst, a, t []goldilocks.Element) {
			// Montgomery's trick: t[i] = a[0]·…·a[i−1] on the way up, the
			// inverses on the way down; one inversion in all.
			if len(a) == 0 {
				return
			}
			var acc goldilocks.Element
			acc.SetOne()
			for i := range a {
				t[i] = acc
				acc.Mul(&acc, &a[i])
			}
			acc.Inverse(&acc)
			for i := len(a) - 1; i >= 0; i-- {
				ai := a[i]
				dst[i].Mul(&t[i], &acc)
				acc.Mul(&acc, &ai)
			}
		},
		mulV:   func(d, a, b []goldilocks.Element) { v := goldilocks.Vector(d); v.Mul(a, b) },
		scaleV: func(d, a []goldilocks.Element, c *goldilocks.Element) { v := goldilocks.Vector(d); v.ScalarMul(a, c) },
		addV:   func(d, a, b []goldilocks.Element) { v := goldilocks.Vector(d); v.Add(a, b) },
		dotV:   goldilocksDot,
		sumV:   func(a []goldilocks.Element) goldilocks.Element { v := goldilocks.Vector(a); return v.Sum() },
	}
	bn254Ops = primeOps[fr.Element, *fr.Element]{
		mulS: func(a, b fr.Element) fr.Element { a.Mul(&a, &b); return a },
		addS: func(a, b fr.Element) fr.Element { a.Add(&a, &b); return a },
		subS: func(a, b fr.Element) fr.Element { a.Sub(&a, &b); return a },
		invV: func(dst, a, t []fr.Element) {
			// Montgomery's trick: t[i] = a[0]·…·a[i−1] on the way up, the
			// inverses on the way down; one inversion in all.
			if len(a) == 0 {
				return
			}
			var acc fr.Element
			acc.SetOne()
			for i := range a {
				t[i] = acc
				acc.Mul(&acc, &a[i])
			}
			acc.Inverse(&acc)
			for i := len(a) - 1; i >= 0; i-- {
				ai := a[i]
				dst[i].Mul(&t[i], &acc)
				acc.Mul(&acc, &ai)
			}
		},
		mulV:   func(d, a, b []fr.Element) { v := fr.Vector(d); v.Mul(a, b) },
		scaleV: func(d, a []fr.Element, c *fr.Element) { v := fr.Vector(d); v.ScalarMul(a, c) },
		addV:   func(d, a, b []fr.Element) { v := fr.Vector(d); v.Add(a, b) },
		dotV:   func(a, b []fr.Element) fr.Element { v := fr.Vector(a); return v.InnerProduct(b) },
		sumV:   func(a []fr.Element) fr.Element { v := fr.Vector(a); return v.Sum() },
	}
)

// binaryOps is baseOps for GF(2^64).
type binaryOps struct{}

func (binaryOps) mulVec(dst, a, b []gf64.Element)                 { gf64.MulVec(dst, a, b) }
func (binaryOps) scaleVec(dst, a []gf64.Element, c *gf64.Element) { gf64.ScaleVec(dst, a, *c) }
func (binaryOps) addVec(dst, a, b []gf64.Element)                 { gf64.AddVec(dst, a, b) }
func (binaryOps) sum(a []gf64.Element) gf64.Element               { return xorSum(a) }
func (binaryOps) invVec(dst, a, _ []gf64.Element)                 { gf64.BatchInverse(dst, a) }
func (binaryOps) mul(a, b gf64.Element) gf64.Element              { return gf64.Mul(a, b) }
func (binaryOps) add(a, b gf64.Element) gf64.Element              { return a ^ b }
func (binaryOps) sub(a, b gf64.Element) gf64.Element              { return a ^ b }
func (binaryOps) inv(a gf64.Element) gf64.Element                 { return gf64.Inverse(a) }
func (binaryOps) exp(a gf64.Element, e uint64) gf64.Element       { return gf64.Exp(a, e) }
func (binaryOps) fromUint(v uint64) gf64.Element                  { return gf64.Element(v) }
func (binaryOps) isZero(a gf64.Element) bool                      { return a == 0 }
func (binaryOps) equal(a, b gf64.Element) bool                    { return a == b }
func (binaryOps) one() gf64.Element                               { return 1 }

func (binaryOps) newDotter() dotter[gf64.Element] { return &plainDotter[gf64.Element]{o: binaryOps{}} }

func (binaryOps) fill(dst []gf64.Element, c gf64.Element) {
	for i := range dst {
		dst[i] = c
	}
}

func (binaryOps) mulAddVec(dst, a []gf64.Element, c *gf64.Element, _ []gf64.Element) {
	gf64.MulAddVec(dst, a, *c)
}

// dot is Σ a[i]·b[i] in GF(2^64): the products a chunk at a time
// (gf64.MulVec, carry-less multiplications in vector registers where the
// CPU has them), then their XOR.
func (binaryOps) dot(a, b []gf64.Element) gf64.Element {
	var t [256]gf64.Element
	var s gf64.Element
	for lo := 0; lo < len(a); lo += len(t) {
		hi := min(lo+len(t), len(a))
		p := t[:hi-lo]
		gf64.MulVec(p, a[lo:hi], b[lo:hi])
		s ^= xorSum(p)
	}
	return s
}

// xorSum is the XOR of the elements, eight lanes at a time.
func xorSum(a []gf64.Element) gf64.Element {
	var s [8]gf64.Element
	i := 0
	for ; i+8 <= len(a); i += 8 {
		b := (*[8]gf64.Element)(a[i : i+8])
		s[0] ^= b[0]
		s[1] ^= b[1]
		s[2] ^= b[2]
		s[3] ^= b[3]
		s[4] ^= b[4]
		s[5] ^= b[5]
		s[6] ^= b[6]
		s[7] ^= b[7]
	}
	for ; i < len(a); i++ {
		s[0] ^= a[i]
	}
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4] ^ s[5] ^ s[6] ^ s[7]
}

// invLanes sets dst[i] = 1/a[i] (every a[i] ≠ 0; dst may be a) by
// Montgomery's trick on rows of invLanesWidth elements: the prefix
// products run down the rows with vector multiplications, only the last
// row's products are inverted element by element (o.invVec), and the way
// back is vector multiplications again: three vector multiplications an
// element and a scalar batch inversion of one row, instead of three scalar
// multiplications an element. t is scratch of len(a) + 2·invLanesWidth.
func invLanes[F any](o baseOps[F], dst, a, t []F) {
	const w = invLanesWidth
	n := len(a)
	if n < 4*w || n%w != 0 {
		o.invVec(dst, a, t[:n])
		return
	}
	rows := n / w
	pre := t[:n]
	acc, nxt := t[n:n+w], t[n+w:n+2*w]
	row := func(s []F, r int) []F { return s[r*w : (r+1)*w] }
	// pre[r] = a[0] ⊙ … ⊙ a[r].
	copy(row(pre, 0), row(a, 0))
	for r := 1; r < rows; r++ {
		o.mulVec(row(pre, r), row(pre, r-1), row(a, r))
	}
	// acc = 1/pre[rows−1], then up the rows: 1/a[r] = acc ⊙ pre[r−1] and
	// acc ← acc ⊙ a[r] = 1/pre[r−1].
	o.invVec(acc, row(pre, rows-1), nxt)
	for r := rows - 1; r >= 1; r-- {
		o.mulVec(nxt, acc, row(a, r))
		o.mulVec(row(dst, r), acc, row(pre, r-1))
		acc, nxt = nxt, acc
	}
	copy(row(dst, 0), acc)
}

// invLanesWidth is the row length of invLanes: a multiple of the vector
// kernels' 16 lanes, short enough that the scalar part is small.
const invLanesWidth = 64

// Challenge fields.

// e4Ops is extOps for BabyBear and KoalaBear's E4 = F[u]/(u²−β)[v]/(v²−u);
// both fields share the code through their element types' methods.
type e4Ops[F any, P elemPtr[F], X any] struct {
	beta  uint64 // u² = β
	ops   primeOps[F, P]
	mul   func(a, b X) X
	inv   func(a X) X
	split func(x X) [4]F // B0.A0, B0.A1, B1.A0, B1.A1
	join  func(c [4]F) X
	inter func(dst []X, acc [][]F)
}

func (e e4Ops[F, P, X]) interleave(dst []X, acc [][]F) { e.inter(dst, acc) }

func (e e4Ops[F, P, X]) deg() int { return 4 }
func (e e4Ops[F, P, X]) lift(a F) X {
	var z F
	return e.join([4]F{a, z, z, z})
}
func (e e4Ops[F, P, X]) project(x X) (F, bool) {
	c := e.split(x)
	return c[0], P(&c[1]).IsZero() && P(&c[2]).IsZero() && P(&c[3]).IsZero()
}
func (e e4Ops[F, P, X]) coords(x X, dst []F) { c := e.split(x); copy(dst, c[:]) }
func (e e4Ops[F, P, X]) fromCoords(c []F) X  { return e.join([4]F(c)) }
func (e e4Ops[F, P, X]) xmul(a, b X) X       { return e.mul(a, b) }
func (e e4Ops[F, P, X]) xinv(a X) X          { return e.inv(a) }
func (e e4Ops[F, P, X]) xone() X             { return e.lift(e.ops.one()) }
func (e e4Ops[F, P, X]) xzero() X            { var z F; return e.lift(z) }
func (e e4Ops[F, P, X]) xadd(a, b X) X {
	x, y := e.split(a), e.split(b)
	for i := range x {
		x[i] = e.ops.add(x[i], y[i])
	}
	return e.join(x)
}
func (e e4Ops[F, P, X]) xsub(a, b X) X {
	x, y := e.split(a), e.split(b)
	for i := range x {
		x[i] = e.ops.sub(x[i], y[i])
	}
	return e.join(x)
}
func (e e4Ops[F, P, X]) xscale(a X, b F) X {
	x := e.split(a)
	for i := range x {
		x[i] = e.ops.mul(x[i], b)
	}
	return e.join(x)
}

// charPoly is N_{E4/F}(T − z) through the tower: with z = b0 + b1·v
// (b0, b1 in E2), N_{E4/E2}(T − z) = (T − b0)² − u·b1² = T² + s1·T + s0,
// and N_{E2/F} of P0 + P1·u (P0, P1 in F[T]) is P0² − β·P1².
func (e e4Ops[F, P, X]) charPoly(z X) []F {
	o := e.ops
	c := e.split(z)
	beta := o.fromUint(e.beta)
	// E2 arithmetic on pairs.
	e2mul := func(x0, x1, y0, y1 F) (F, F) {
		return o.add(o.mul(x0, y0), o.mul(beta, o.mul(x1, y1))), o.add(o.mul(x0, y1), o.mul(x1, y0))
	}
	var zero F
	// s1 = −2·b0.
	s1a0 := o.sub(zero, o.add(c[0], c[0]))
	s1a1 := o.sub(zero, o.add(c[1], c[1]))
	// s0 = b0² − u·b1², with u·(w0 + w1 u) = β·w1 + w0·u.
	b00, b01 := e2mul(c[0], c[1], c[0], c[1])
	w0, w1 := e2mul(c[2], c[3], c[2], c[3])
	s0a0 := o.sub(b00, o.mul(beta, w1))
	s0a1 := o.sub(b01, w0)
	// P0 = T² + s1a0·T + s0a0, P1 = s1a1·T + s0a1.
	p0 := []F{s0a0, s1a0, o.one()}
	p1 := []F{s0a1, s1a1}
	q0 := polyMulF(o, p0, p0)
	q1 := polyMulF(o, p1, p1)
	out := q0
	for i, v := range q1 {
		out[i] = o.sub(out[i], o.mul(beta, v))
	}
	return out
}

// polyMulF multiplies polynomials over F (coefficients constant first).
func polyMulF[F any](o baseOps[F], a, b []F) []F {
	out := make([]F, len(a)+len(b)-1)
	for i := range a {
		for j := range b {
			out[i+j] = o.add(out[i+j], o.mul(a[i], b[j]))
		}
	}
	return out
}

var (
	babybearExt = e4Ops[babybear.Element, *babybear.Element, bbext.E4]{
		beta: 11, ops: babybearOps,
		mul: func(a, b bbext.E4) bbext.E4 { a.Mul(&a, &b); return a },
		inv: func(a bbext.E4) bbext.E4 {
			if a.IsZero() {
				return a
			}
			a.Inverse(&a)
			return a
		},
		split: func(x bbext.E4) [4]babybear.Element { return [4]babybear.Element{x.B0.A0, x.B0.A1, x.B1.A0, x.B1.A1} },
		join: func(c [4]babybear.Element) bbext.E4 {
			return bbext.E4{B0: bbext.E2{A0: c[0], A1: c[1]}, B1: bbext.E2{A0: c[2], A1: c[3]}}
		},
		inter: func(dst []bbext.E4, acc [][]babybear.Element) {
			a0, a1, a2, a3 := acc[0][:len(dst)], acc[1][:len(dst)], acc[2][:len(dst)], acc[3][:len(dst)]
			for i := range dst {
				dst[i] = bbext.E4{B0: bbext.E2{A0: a0[i], A1: a1[i]}, B1: bbext.E2{A0: a2[i], A1: a3[i]}}
			}
		},
	}
	koalabearExt = e4Ops[koalabear.Element, *koalabear.Element, kbext.E4]{
		beta: 3, ops: koalabearOps,
		mul: func(a, b kbext.E4) kbext.E4 { a.Mul(&a, &b); return a },
		inv: func(a kbext.E4) kbext.E4 {
			if a.IsZero() {
				return a
			}
			a.Inverse(&a)
			return a
		},
		split: func(x kbext.E4) [4]koalabear.Element { return [4]koalabear.Element{x.B0.A0, x.B0.A1, x.B1.A0, x.B1.A1} },
		join: func(c [4]koalabear.Element) kbext.E4 {
			return kbext.E4{B0: kbext.E2{A0: c[0], A1: c[1]}, B1: kbext.E2{A0: c[2], A1: c[3]}}
		},
		inter: func(dst []kbext.E4, acc [][]koalabear.Element) {
			a0, a1, a2, a3 := acc[0][:len(dst)], acc[1][:len(dst)], acc[2][:len(dst)], acc[3][:len(dst)]
			for i := range dst {
				dst[i] = kbext.E4{B0: kbext.E2{A0: a0[i], A1: a1[i]}, B1: kbext.E2{A0: a2[i], A1: a3[i]}}
			}
		},
	}
)

// goldilocksExt is extOps for Goldilocks' E2 = F[u]/(u² − 7).
type goldilocksExt struct{}

func (goldilocksExt) deg() int                           { return 2 }
func (goldilocksExt) lift(a goldilocks.Element) glext.E2 { return glext.E2{A0: a} }
func (goldilocksExt) project(x glext.E2) (goldilocks.Element, bool) {
	return x.A0, x.A1.IsZero()
}
func (goldilocksExt) coords(x glext.E2, dst []goldilocks.Element) { dst[0], dst[1] = x.A0, x.A1 }
func (goldilocksExt) fromCoords(c []goldilocks.Element) glext.E2 {
	return glext.E2{A0: c[0], A1: c[1]}
}
func (goldilocksExt) xmul(a, b glext.E2) glext.E2 { a.Mul(&a, &b); return a }
func (goldilocksExt) xadd(a, b glext.E2) glext.E2 { a.Add(&a, &b); return a }
func (goldilocksExt) xsub(a, b glext.E2) glext.E2 { a.Sub(&a, &b); return a }
func (goldilocksExt) xinv(a glext.E2) glext.E2 {
	if a.IsZero() {
		return a
	}
	a.Inverse(&a)
	return a
}
func (goldilocksExt) xscale(a glext.E2, b goldilocks.Element) glext.E2 {
	a.MulByElement(&a, &b)
	return a
}
func (goldilocksExt) interleave(dst []glext.E2, acc [][]goldilocks.Element) {
	a0, a1 := acc[0][:len(dst)], acc[1][:len(dst)]
	for i := range dst {
		dst[i] = glext.E2{A0: a0[i], A1: a1[i]}
	}
}
func (goldilocksExt) xone() glext.E2  { var z glext.E2; z.SetOne(); return z }
func (goldilocksExt) xzero() glext.E2 { return glext.E2{} }

// charPoly is (T − a0)² − 7·a1² for z = a0 + a1·u.
func (goldilocksExt) charPoly(z glext.E2) []goldilocks.Element {
	o := goldilocksOps
	var zero goldilocks.Element
	c1 := o.sub(zero, o.add(z.A0, z.A0))
	c0 := o.sub(o.mul(z.A0, z.A0), o.mul(o.fromUint(7), o.mul(z.A1, z.A1)))
	return []goldilocks.Element{c0, c1, o.one()}
}

// bn254Ext is extOps for BN254, its own challenge field.
type bn254Ext struct{}

func (bn254Ext) deg() int                                        { return 1 }
func (bn254Ext) lift(a fr.Element) fr.Element                    { return a }
func (bn254Ext) project(x fr.Element) (fr.Element, bool)         { return x, true }
func (bn254Ext) coords(x fr.Element, dst []fr.Element)           { dst[0] = x }
func (bn254Ext) fromCoords(c []fr.Element) fr.Element            { return c[0] }
func (bn254Ext) xmul(a, b fr.Element) fr.Element                 { a.Mul(&a, &b); return a }
func (bn254Ext) xadd(a, b fr.Element) fr.Element                 { a.Add(&a, &b); return a }
func (bn254Ext) xsub(a, b fr.Element) fr.Element                 { a.Sub(&a, &b); return a }
func (bn254Ext) xinv(a fr.Element) fr.Element                    { a.Inverse(&a); return a }
func (bn254Ext) xscale(a, b fr.Element) fr.Element               { a.Mul(&a, &b); return a }
func (bn254Ext) interleave(dst []fr.Element, acc [][]fr.Element) { copy(dst, acc[0]) }
func (bn254Ext) xone() fr.Element                                { return fr.One() }
func (bn254Ext) xzero() fr.Element                               { return fr.Element{} }
func (bn254Ext) charPoly(z fr.Element) []fr.Element {
	var m fr.Element
	m.Neg(&z)
	return []fr.Element{m, fr.One()}
}

// binaryExt is extOps for GF(2^128) over GF(2^64).
type binaryExt struct{}

func (binaryExt) deg() int                                     { return 2 }
func (binaryExt) lift(a gf64.Element) gf128.Element            { return gf128.Embed(a) }
func (binaryExt) project(x gf128.Element) (gf64.Element, bool) { return gf128.Project(x) }
func (binaryExt) coords(x gf128.Element, dst []gf64.Element)   { dst[0], dst[1] = x.A0, x.A1 }
func (binaryExt) fromCoords(c []gf64.Element) gf128.Element    { return gf128.Element{A0: c[0], A1: c[1]} }
func (binaryExt) xmul(a, b gf128.Element) gf128.Element        { return gf128.Mul(a, b) }
func (binaryExt) xadd(a, b gf128.Element) gf128.Element        { return gf128.Add(a, b) }
func (binaryExt) xsub(a, b gf128.Element) gf128.Element        { return gf128.Add(a, b) }
func (binaryExt) xinv(a gf128.Element) gf128.Element           { return gf128.Inverse(a) }
func (binaryExt) xscale(a gf128.Element, b gf64.Element) gf128.Element {
	return gf128.MulByBase(a, b)
}
func (binaryExt) interleave(dst []gf128.Element, acc [][]gf64.Element) {
	a0, a1 := acc[0][:len(dst)], acc[1][:len(dst)]
	for i := range dst {
		dst[i] = gf128.Element{A0: a0[i], A1: a1[i]}
	}
}
func (binaryExt) xone() gf128.Element  { return gf128.One }
func (binaryExt) xzero() gf128.Element { return gf128.Zero }

// charPoly is (T + z)(T + z̄) = T² + a1·T + Norm(z) for z = a0 + a1·y:
// z + z̄ = a1 since y + (y + 1) = 1.
func (binaryExt) charPoly(z gf128.Element) []gf64.Element {
	return []gf64.Element{gf128.Norm(z), z.A1, 1}
}

// Compile-time checks of the implementations.
var (
	_ baseOps[babybear.Element]            = babybearOps
	_ baseOps[gf64.Element]                = binaryOps{}
	_ extOps[babybear.Element, bbext.E4]   = babybearExt
	_ extOps[koalabear.Element, kbext.E4]  = koalabearExt
	_ extOps[goldilocks.Element, glext.E2] = goldilocksExt{}
	_ extOps[fr.Element, fr.Element]       = bn254Ext{}
	_ extOps[gf64.Element, gf128.Element]  = binaryExt{}
)

// fieldPair holds the operations of E's field and X's, for E and X that
// belong together (checkExt): the entry points of the extension kernels
// convert to the concrete types through it.
type fieldPair[F, X any] struct {
	b baseOps[F]
	x extOps[F, X]
}

// opsOf returns the operations of E and X; X must be E's challenge field.
func opsOf[E Element, X Ext]() fieldPair[E, X] {
	var z E
	var p any
	switch any(z).(type) {
	case gf64.Element:
		p = fieldPair[gf64.Element, gf128.Element]{binaryOps{}, binaryExt{}}
	case goldilocks.Element:
		p = fieldPair[goldilocks.Element, glext.E2]{goldilocksOps, goldilocksExt{}}
	case babybear.Element:
		p = fieldPair[babybear.Element, bbext.E4]{babybearOps, babybearExt}
	case koalabear.Element:
		p = fieldPair[koalabear.Element, kbext.E4]{koalabearOps, koalabearExt}
	case fr.Element:
		p = fieldPair[fr.Element, fr.Element]{bn254Ops, bn254Ext{}}
	}
	return p.(fieldPair[E, X])
}

// baseOf returns the operations of E's field.
func baseOf[E Element]() baseOps[E] {
	var z E
	var o any
	switch any(z).(type) {
	case gf64.Element:
		o = binaryOps{}
	case goldilocks.Element:
		o = goldilocksOps
	case babybear.Element:
		o = babybearOps
	case koalabear.Element:
		o = koalabearOps
	case fr.Element:
		o = bn254Ops
	}
	return o.(baseOps[E])
}

// extArith returns the multiplication and the one of the challenge field X.
func extArith[X Ext]() (mul func(a, b X) X, one X) {
	var z X
	var m, o any
	switch any(z).(type) {
	case gf128.Element:
		m, o = binaryExt{}.xmul, gf128.One
	case glext.E2:
		m, o = goldilocksExt{}.xmul, goldilocksExt{}.xone()
	case bbext.E4:
		m, o = babybearExt.xmul, babybearExt.xone()
	case kbext.E4:
		m, o = koalabearExt.xmul, koalabearExt.xone()
	case fr.Element:
		m, o = bn254Ext{}.xmul, fr.One()
	}
	return m.(func(a, b X) X), o.(X)
}
