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
)

// vecOps is the block arithmetic of FoldCoset: the same operations as
// primeOps on slices of one length, with concrete loops per field so that
// the per-element work inlines, and the coordinate-wise ones (sums,
// products by a base-field scalar) done on the values' coordinates as one
// base-field vector (gnark-crypto's vector kernels: AVX-512 where the CPU
// has it). gnark-crypto's E2 and E4 are arrays of base-field elements in
// memory (it casts them the same way in its own Vector.ScalarMulByElement).
type vecOps[F, X any] interface {
	vadd(dst, a, b []X)            // dst[i] = a[i] + b[i]
	vsub(dst, a, b []X)            // dst[i] = a[i] − b[i]
	vmul(dst, a, b []X)            // dst[i] = a[i]·b[i]
	vscale(dst, a []X, c F)        // dst[i] = a[i]·c
	vscaleExt(dst []X, b []F, c X) // dst[i] = c·b[i]
	bscale(dst, a []F, c F)        // dst[i] = a[i]·c, in F
}

func coords[X, F any](x []X, deg int) []F {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*F)(unsafe.Pointer(&x[0])), len(x)*deg)
}

func (bbOps) vadd(d, a, b []bbext.E4) {
	v := babybear.Vector(coords[bbext.E4, babybear.Element](d, 4))
	v.Add(coords[bbext.E4, babybear.Element](a, 4), coords[bbext.E4, babybear.Element](b, 4))
}
func (bbOps) vsub(d, a, b []bbext.E4) {
	v := babybear.Vector(coords[bbext.E4, babybear.Element](d, 4))
	v.Sub(coords[bbext.E4, babybear.Element](a, 4), coords[bbext.E4, babybear.Element](b, 4))
}
func (bbOps) vmul(d, a, b []bbext.E4) {
	for i := range d {
		d[i].Mul(&a[i], &b[i])
	}
}
func (bbOps) vscale(d, a []bbext.E4, c babybear.Element) {
	v := babybear.Vector(coords[bbext.E4, babybear.Element](d, 4))
	v.ScalarMul(coords[bbext.E4, babybear.Element](a, 4), &c)
}
func (bbOps) vscaleExt(d []bbext.E4, b []babybear.Element, c bbext.E4) {
	for i := range d {
		d[i].MulByElement(&c, &b[i])
	}
}
func (bbOps) bscale(d, a []babybear.Element, c babybear.Element) {
	v := babybear.Vector(d)
	v.ScalarMul(a, &c)
}

func (kbOps) vadd(d, a, b []kbext.E4) {
	v := koalabear.Vector(coords[kbext.E4, koalabear.Element](d, 4))
	v.Add(coords[kbext.E4, koalabear.Element](a, 4), coords[kbext.E4, koalabear.Element](b, 4))
}
func (kbOps) vsub(d, a, b []kbext.E4) {
	v := koalabear.Vector(coords[kbext.E4, koalabear.Element](d, 4))
	v.Sub(coords[kbext.E4, koalabear.Element](a, 4), coords[kbext.E4, koalabear.Element](b, 4))
}
func (kbOps) vmul(d, a, b []kbext.E4) {
	v := kbext.Vector(d) // AVX-512 where present; exact aliasing is fine (element by element)
	v.Mul(a, b)
}
func (kbOps) vscale(d, a []kbext.E4, c koalabear.Element) {
	v := koalabear.Vector(coords[kbext.E4, koalabear.Element](d, 4))
	v.ScalarMul(coords[kbext.E4, koalabear.Element](a, 4), &c)
}
func (kbOps) vscaleExt(d []kbext.E4, b []koalabear.Element, c kbext.E4) {
	for i := range d {
		d[i].MulByElement(&c, &b[i])
	}
}
func (kbOps) bscale(d, a []koalabear.Element, c koalabear.Element) {
	v := koalabear.Vector(d)
	v.ScalarMul(a, &c)
}

func (glOps) vadd(d, a, b []glext.E2) {
	v := goldilocks.Vector(coords[glext.E2, goldilocks.Element](d, 2))
	v.Add(coords[glext.E2, goldilocks.Element](a, 2), coords[glext.E2, goldilocks.Element](b, 2))
}
func (glOps) vsub(d, a, b []glext.E2) {
	v := goldilocks.Vector(coords[glext.E2, goldilocks.Element](d, 2))
	v.Sub(coords[glext.E2, goldilocks.Element](a, 2), coords[glext.E2, goldilocks.Element](b, 2))
}
func (glOps) vmul(d, a, b []glext.E2) {
	for i := range d {
		d[i].Mul(&a[i], &b[i])
	}
}
func (glOps) vscale(d, a []glext.E2, c goldilocks.Element) {
	v := goldilocks.Vector(coords[glext.E2, goldilocks.Element](d, 2))
	v.ScalarMul(coords[glext.E2, goldilocks.Element](a, 2), &c)
}
func (glOps) vscaleExt(d []glext.E2, b []goldilocks.Element, c glext.E2) {
	for i := range d {
		d[i].MulByElement(&c, &b[i])
	}
}
func (glOps) bscale(d, a []goldilocks.Element, c goldilocks.Element) {
	v := goldilocks.Vector(d)
	v.ScalarMul(a, &c)
}

func (bnOps) vadd(d, a, b []fr.Element) {
	v := fr.Vector(d)
	v.Add(a, b)
}
func (bnOps) vsub(d, a, b []fr.Element) {
	v := fr.Vector(d)
	v.Sub(a, b)
}
func (bnOps) vmul(d, a, b []fr.Element) {
	v := fr.Vector(d)
	v.Mul(a, b)
}
func (bnOps) vscale(d, a []fr.Element, c fr.Element) {
	v := fr.Vector(d)
	v.ScalarMul(a, &c)
}
func (bnOps) vscaleExt(d []fr.Element, b []fr.Element, c fr.Element) {
	v := fr.Vector(d)
	v.ScalarMul(b, &c)
}
func (bnOps) bscale(d, a []fr.Element, c fr.Element) {
	v := fr.Vector(d)
	v.ScalarMul(a, &c)
}
