package poseidon2

import "github.com/consensys/gnark-crypto/field/goldilocks"

// permGL is a permutation over Goldilocks (S-box x^7) on gnark-crypto's
// elements, in pure Go.
type permGL struct {
	width, half int
	hl          bool
	ext         []goldilocks.Element
	intl        []goldilocks.Element
	diag        []goldilocks.Element
}

func newPermGL(diag, ext, intl []goldilocks.Element, half int, hl bool) *permGL {
	return &permGL{
		width: len(diag), half: half, hl: hl,
		ext:  append([]goldilocks.Element(nil), ext...),
		intl: append([]goldilocks.Element(nil), intl...),
		diag: append([]goldilocks.Element(nil), diag...),
	}
}

func sbox7(x *goldilocks.Element) {
	var x2, x3 goldilocks.Element
	x2.Square(x)
	x3.Mul(&x2, x)
	x2.Square(&x2)
	x.Mul(&x3, &x2)
}

func (k *permGL) external(s []goldilocks.Element) {
	for i := 0; i+4 <= len(s); i += 4 {
		x := (*[4]goldilocks.Element)(s[i : i+4])
		var t0, t1, t2, t3, t4 goldilocks.Element
		if k.hl {
			var t5 goldilocks.Element
			t0.Add(&x[0], &x[1])
			t1.Add(&x[2], &x[3])
			t2.Double(&x[1]).Add(&t2, &t1)
			t3.Double(&x[3]).Add(&t3, &t0)
			t4.Double(&t1).Double(&t4).Add(&t4, &t3)
			t5.Double(&t0).Double(&t5).Add(&t5, &t2)
			x[0].Add(&t3, &t5)
			x[1] = t5
			x[2].Add(&t2, &t4)
			x[3] = t4
			continue
		}
		t0.Add(&x[0], &x[1]) // t01
		t1.Add(&x[2], &x[3]) // t23
		t2.Add(&t0, &t1)     // t0123
		t3.Add(&t2, &x[1])   // t01123
		t4.Add(&t2, &x[3])   // t01233
		x[3].Double(&x[0]).Add(&x[3], &t4)
		x[1].Double(&x[2]).Add(&x[1], &t3)
		x[0].Add(&t3, &t0)
		x[2].Add(&t4, &t1)
	}
	var c [4]goldilocks.Element
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			c[j].Add(&c[j], &s[i+j])
		}
	}
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			s[i+j].Add(&s[i+j], &c[j])
		}
	}
}

func (k *permGL) full(s, rc []goldilocks.Element) {
	for i := range s {
		s[i].Add(&s[i], &rc[i])
		sbox7(&s[i])
	}
	k.external(s)
}

// permute is the permutation of one state of width elements.
func (k *permGL) permute(s []goldilocks.Element) {
	w := k.width
	s = s[:w]
	diag := k.diag[:w]
	k.external(s)
	for r := range k.half {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
	for i := range k.intl {
		s[0].Add(&s[0], &k.intl[i])
		sbox7(&s[0])
		var sum goldilocks.Element
		for j := range s {
			sum.Add(&sum, &s[j])
		}
		for j := range s {
			s[j].Mul(&s[j], &diag[j]).Add(&s[j], &sum)
		}
	}
	for r := k.half; r < 2*k.half; r++ {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
}
