package fermat

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// edgeBigs are values whose digits sit at the ends of their ranges.
func edgeBigs() []*big.Int {
	p := Modulus()
	rb := new(big.Int).SetUint64(R)
	out := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2),
		new(big.Int).Sub(p, big.NewInt(1)), new(big.Int).Sub(p, big.NewInt(2)),
		new(big.Int).SetUint64(R - 1), new(big.Int).SetUint64(R), new(big.Int).SetUint64(^uint64(0))}
	for i := 1; i < 8; i++ {
		ri := new(big.Int).Exp(rb, big.NewInt(int64(i)), nil)
		out = append(out, ri, new(big.Int).Sub(ri, big.NewInt(1)), new(big.Int).Sub(p, ri),
			new(big.Int).Add(ri, big.NewInt(1)))
	}
	// all digits r−1: r^8 − 1 = p − 2 (already there); half-way digits
	var e Element
	for i := range e {
		e[i] = R / 2
	}
	out = append(out, e.Big())
	return out
}

func randElement(rng *rand.Rand) Element {
	var e Element
	switch rng.IntN(8) {
	case 0: // digits near r
		for i := range e {
			e[i] = R - 1 - rng.Uint64N(3)
		}
	case 1: // sparse
		e[rng.IntN(8)] = rng.Uint64N(R)
	default:
		for i := range e {
			e[i] = rng.Uint64N(R)
		}
	}
	return e
}

func testElements(t *testing.T, n int) []Element {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var out []Element
	for _, v := range edgeBigs() {
		var e Element
		e.SetBig(v)
		require.True(t, e.IsCanonical(), "SetBig(%v) not canonical: %v", v, e)
		out = append(out, e)
	}
	for i := 0; i < n; i++ {
		out = append(out, randElement(rng))
	}
	return out
}

func TestModulus(t *testing.T) {
	p := Modulus()
	// independent: p = (2^63 + 2^34)^8 + 1 from the seed's Table 3.1
	r := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 63), new(big.Int).Lsh(big.NewInt(1), 34))
	want := new(big.Int).Exp(r, big.NewInt(8), nil)
	want.Add(want, big.NewInt(1))
	assert.Equal(t, 0, want.Cmp(p))
	assert.True(t, p.ProbablyPrime(20), "p is prime")
	// the seed's table: 2^272 is the largest power of two dividing p−1
	pm1 := new(big.Int).Sub(p, big.NewInt(1))
	assert.Equal(t, uint(272), pm1.TrailingZeroBits())
	p.SetInt64(0)
	assert.NotEqual(t, 0, Modulus().Sign(), "Modulus returns a copy")
}

func TestDivR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(hi, lo uint64) {
		q, rem := divR(hi, lo)
		wq, wr := bits.Div64(hi, lo, R)
		require.Equal(t, wq, q, "q of %x:%x", hi, lo)
		require.Equal(t, wr, rem, "rem of %x:%x", hi, lo)
	}
	for _, hi := range []uint64{0, 1, R - 1, R - 2, 7} {
		for _, lo := range []uint64{0, 1, R - 1, R, R + 1, ^uint64(0), 1 << 63} {
			check(hi, lo)
		}
	}
	for i := 0; i < 100000; i++ {
		check(rng.Uint64N(R), rng.Uint64())
	}
}

func TestSetBigBig(t *testing.T) {
	p := Modulus()
	for _, v := range edgeBigs() {
		var e Element
		e.SetBig(v)
		assert.Equal(t, 0, v.Cmp(e.Big()), "round trip %v", v)
		// v + p, v − p, −v reduce to the same residue
		var f Element
		f.SetBig(new(big.Int).Add(v, p))
		assert.Equal(t, e, f)
		f.SetBig(new(big.Int).Sub(v, new(big.Int).Mul(p, big.NewInt(3))))
		assert.Equal(t, e, f)
	}
	var e Element
	e.SetBig(new(big.Int).Sub(p, big.NewInt(1)))
	assert.Equal(t, Element{7: R}, e, "p−1 is (0,…,0,r)")
	e.SetBig(big.NewInt(-1))
	assert.Equal(t, Element{7: R}, e)
	e.SetUint64(^uint64(0))
	assert.Equal(t, "18446744073709551615", e.String())
	assert.True(t, e.IsCanonical())
	assert.False(t, (&Element{R}).IsCanonical())
	assert.False(t, (&Element{1, 7: R}).IsCanonical())
}

func TestArithmeticAgainstBig(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	els := testElements(t, n)
	p := Modulus()
	rng := rand.New(rand.NewPCG(5, 6))
	var z Element
	w := new(big.Int)
	check := func(x, y *Element) {
		xb, yb := x.Big(), y.Big()
		z.Mul(x, y)
		require.True(t, z.IsCanonical())
		w.Mul(xb, yb).Mod(w, p)
		require.Equal(t, 0, w.Cmp(z.Big()), "Mul(%v, %v)", xb, yb)
		z.Add(x, y)
		require.True(t, z.IsCanonical())
		w.Add(xb, yb).Mod(w, p)
		require.Equal(t, 0, w.Cmp(z.Big()), "Add(%v, %v)", xb, yb)
		z.Sub(x, y)
		require.True(t, z.IsCanonical())
		w.Sub(xb, yb).Mod(w, p)
		require.Equal(t, 0, w.Cmp(z.Big()), "Sub(%v, %v)", xb, yb)
	}
	edges := len(edgeBigs())
	for i := 0; i < edges; i++ {
		for j := 0; j < edges; j++ {
			check(&els[i], &els[j])
		}
	}
	for i := 0; i < 20*n; i++ {
		check(&els[rng.IntN(len(els))], &els[rng.IntN(len(els))])
	}
}

func TestMulByRPow(t *testing.T) {
	els := testElements(t, 200)
	p := Modulus()
	rb := new(big.Int).SetUint64(R)
	for _, x := range els {
		for i := -17; i <= 33; i++ {
			var z Element
			z.MulByRPow(&x, i)
			require.True(t, z.IsCanonical())
			e := ((i % 16) + 16) % 16
			w := new(big.Int).Exp(rb, big.NewInt(int64(e)), p)
			w.Mul(w, x.Big()).Mod(w, p)
			require.Equal(t, 0, w.Cmp(z.Big()), "x·r^%d", i)
			var y, ri Element
			ri.SetRPow(i)
			y.Mul(&x, &ri)
			require.Equal(t, y, z)
		}
	}
	var r16 Element
	r16.SetRPow(1)
	assert.Equal(t, Element{0, 1}, r16)
}

func TestAliasingAndAlgebra(t *testing.T) {
	els := testElements(t, 100)
	var one Element
	one.SetOne()
	for i := range els {
		x, y := els[i], els[(i*7+3)%len(els)]
		var want Element
		want.Mul(&x, &y)
		a := x
		a.Mul(&a, &y)
		assert.Equal(t, want, a, "z aliases x")
		a = y
		a.Mul(&x, &a)
		assert.Equal(t, want, a, "z aliases y")
		want.Add(&x, &y)
		a = x
		a.Add(&a, &y)
		assert.Equal(t, want, a)
		var s, n Element
		s.Sub(&x, &y)
		n.Neg(&y)
		n.Add(&x, &n)
		assert.Equal(t, s, n, "x−y = x+(−y)")
		if !x.IsZero() {
			var inv Element
			inv.Inverse(&x)
			inv.Mul(&inv, &x)
			assert.Equal(t, one, inv, "x·x⁻¹")
		}
	}
	var z, e Element
	e.SetRPow(1)
	z.Exp(&e, big.NewInt(16))
	assert.Equal(t, one, z, "r^16 = 1")
	z.Exp(&e, big.NewInt(8))
	assert.Equal(t, Element{7: R}, z, "r^8 = −1")
}

func TestSubMulByRPow(t *testing.T) {
	els := testElements(t, 300)
	for i := range els {
		x, y := &els[i], &els[(i*13+5)%len(els)]
		for s := 1; s < 8; s++ {
			var want, got, d Element
			d.Sub(x, y)
			want.MulByRPow(&d, s)
			got.subMulByRPow(x, y, s)
			require.Equal(t, want, got, "(x−y)·r^%d", s)
		}
	}
}

func TestExp(t *testing.T) {
	p := Modulus()
	for _, x := range testElements(t, 20) {
		for _, e := range []int64{0, 1, 2, 15, 16, 1000003, -1, -7} {
			var z Element
			z.Exp(&x, big.NewInt(e))
			xb := x.Big()
			var want *big.Int
			if e < 0 {
				if xb.Sign() == 0 {
					assert.True(t, z.IsZero())
					continue
				}
				want = new(big.Int).ModInverse(xb, p)
				want.Exp(want, big.NewInt(-e), p)
			} else {
				want = new(big.Int).Exp(xb, big.NewInt(e), p)
			}
			require.Equal(t, 0, want.Cmp(z.Big()), "x^%d", e)
		}
	}
}
