package poseidon2

import "math/bits"

// permGL is a permutation over Goldilocks (S-box x^7) on Montgomery words
// (x·2^64 mod p, the form of goldilocks.Element), in pure Go and without
// branches on the data. Every word it reads and writes is below p.
type permGL struct {
	width, half int
	hl          bool
	ext         []uint64
	intl        []uint64
	diag        []uint64
	// The kernels' copies of the constants, canonical (x, not x·2^64).
	extC, intlC, diagC []uint64
	kernel             bool // the 8-lane kernels compute this instance
}

func newPermGL(diag, ext, intl []uint64, half int, hl bool) *permGL {
	k := &permGL{
		width: len(diag), half: half, hl: hl,
		ext:  append([]uint64(nil), ext...),
		intl: append([]uint64(nil), intl...),
		diag: append([]uint64(nil), diag...),
	}
	k.kernel = (k.width == 8 || k.width == 12) && half >= 1 && len(intl) >= 1
	if k.kernel {
		k.extC, k.intlC, k.diagC = fromMontGL(ext), fromMontGL(intl), fromMontGL(diag)
	}
	return k
}

// fromMontGL returns the canonical values of Montgomery words:
// x·2^64·2^−64, a Montgomery product by 1.
func fromMontGL(v []uint64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = mulGL(x, 1)
	}
	return out
}

// lanesGL holds up to 8 Goldilocks states of width at most 12 transposed:
// word j of the state in lane l is at [j][l].
type lanesGL [12][8]uint64

// lanes reports whether the 8-lane kernel is on for this instance.
func (k *permGL) lanes() bool { return k.kernel && useKernel }

// permuteRows permutes the states laid end to end in s, 8 at a time on the
// kernel (lanes()).
func (k *permGL) permuteRows(s []uint64) {
	w := k.width
	n := len(s) / w
	var st lanesGL
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		for l := range m {
			for j, v := range s[(base+l)*w : (base+l+1)*w] {
				st[j][l] = v
			}
		}
		kernel8(k, &st)
		for l := range m {
			row := s[(base+l)*w : (base+l+1)*w]
			for j := range row {
				row[j] = st[j][l]
			}
		}
	}
}

// ninvGL is −p⁻¹ mod 2^64 (p⁻¹ = 2^32 + 1).
const ninvGL = 1<<64 - 1<<32 - 1

func addGL(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	t, br := bits.Sub64(s, pGoldilocks, 0)
	// a + b ≥ p when it carried out or when s − p did not borrow.
	keep := -(c | (br ^ 1))
	return s ^ ((s ^ t) & keep)
}

// mulGL is Montgomery's product a·b·2^−64 mod p.
func mulGL(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	mh, ml := bits.Mul64(lo*ninvGL, pGoldilocks)
	_, c := bits.Add64(lo, ml, 0) // lo + ml ≡ 0 mod 2^64
	r, c := bits.Add64(hi, mh, c) // (a·b + m·p)/2^64 < 2p
	t, br := bits.Sub64(r, pGoldilocks, 0)
	keep := -(c | (br ^ 1))
	return r ^ ((r ^ t) & keep)
}

func sbox7(x uint64) uint64 {
	x2 := mulGL(x, x)
	x3 := mulGL(x2, x)
	x4 := mulGL(x2, x2)
	return mulGL(x3, x4)
}

func (k *permGL) external(s []uint64) {
	for i := 0; i+4 <= len(s); i += 4 {
		x := (*[4]uint64)(s[i : i+4])
		if k.hl {
			t0 := addGL(x[0], x[1])
			t1 := addGL(x[2], x[3])
			t2 := addGL(addGL(x[1], x[1]), t1)
			t3 := addGL(addGL(x[3], x[3]), t0)
			t1 = addGL(t1, t1)
			t4 := addGL(addGL(t1, t1), t3)
			t0 = addGL(t0, t0)
			t5 := addGL(addGL(t0, t0), t2)
			x[0], x[1], x[2], x[3] = addGL(t3, t5), t5, addGL(t2, t4), t4
			continue
		}
		t01 := addGL(x[0], x[1])
		t23 := addGL(x[2], x[3])
		t0123 := addGL(t01, t23)
		t01123 := addGL(t0123, x[1])
		t01233 := addGL(t0123, x[3])
		x[3] = addGL(t01233, addGL(x[0], x[0]))
		x[1] = addGL(t01123, addGL(x[2], x[2]))
		x[0] = addGL(t01123, t01)
		x[2] = addGL(t01233, t23)
	}
	var c [4]uint64
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			c[j] = addGL(c[j], s[i+j])
		}
	}
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			s[i+j] = addGL(s[i+j], c[j])
		}
	}
}

func (k *permGL) full(s, rc []uint64) {
	rc = rc[:len(s)]
	for i := range s {
		s[i] = sbox7(addGL(s[i], rc[i]))
	}
	k.external(s)
}

// permute is the permutation of one state of width words.
func (k *permGL) permute(s []uint64) {
	w := k.width
	s = s[:w]
	diag := k.diag[:w]
	k.external(s)
	for r := range k.half {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
	for _, c := range k.intl {
		s[0] = sbox7(addGL(s[0], c))
		var sum uint64
		for _, x := range s {
			sum = addGL(sum, x)
		}
		for j := range s {
			s[j] = addGL(mulGL(s[j], diag[j]), sum)
		}
	}
	for r := k.half; r < 2*k.half; r++ {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
}
