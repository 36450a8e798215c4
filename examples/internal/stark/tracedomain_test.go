package stark

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// The least primitive polynomials of small degree, from the standard tables,
// and primitivity by walking the orbit of x for every degree up to 16.
func TestLeastPrimitive(t *testing.T) {
	known := map[int]uint64{
		2:  0b111,         // x^2 + x + 1
		3:  0b1011,        // x^3 + x + 1
		4:  0b10011,       // x^4 + x + 1
		5:  0b100101,      // x^5 + x^2 + 1
		6:  0b1000011,     // x^6 + x + 1
		7:  0b10000011,    // x^7 + x + 1
		8:  0b100011101,   // x^8 + x^4 + x^3 + x^2 + 1
		9:  0b1000010001,  // x^9 + x^4 + 1
		10: 0b10000001001, // x^10 + x^3 + 1
	}
	for k := 2; k <= MaxLogRows; k++ {
		p, err := leastPrimitive(k)
		require.NoError(t, err)
		require.Equal(t, uint64(1), p>>k, "degree %d", k)
		if want, ok := known[k]; ok {
			assert.Equal(t, want, p, "degree %d", k)
		}
		if k > 16 {
			continue
		}
		// The orbit of 1 under r ↦ x·r mod p has length 2^k − 1, and no
		// smaller odd polynomial of degree k has one.
		assert.Equal(t, 1<<k-1, orbitLength(p, k), "degree %d", k)
		for q := uint64(1)<<k | 1; q < p; q += 2 {
			assert.Less(t, orbitLength(q, k), 1<<k-1, "x^%d + … = %#b is primitive and less than %#b", k, q, p)
		}
	}
}

func orbitLength(p uint64, k int) int {
	r, steps := uint64(1), 0
	for {
		r <<= 1
		if r>>k&1 == 1 {
			r ^= p
		}
		steps++
		if r == 1 || steps > 1<<k {
			return steps
		}
	}
}

// The successor: the orbit from 1 visits S \ {0} once, ends at the last
// point, whose successor is 1; it is x·r on S_0 and x·r + p on S_1 computed
// in GF(2^64), and N_m at an embedded point is the same.
func TestSuccessor(t *testing.T) {
	for k := MinLogRows; k <= 14; k++ {
		d, err := newSubspaceDomain(k, 2)
		require.NoError(t, err)
		n, T := 1<<k, d.rows()
		require.Equal(t, n-1, T)
		seen := make([]bool, n)
		r := d.first()
		for row := range T {
			require.False(t, seen[r], "dimension %d: %v visited twice", k, r)
			require.NotZero(t, r)
			seen[r] = true
			next := d.successor(r)
			m := 0
			if r>>(k-1)&1 == 1 {
				m = 1
			}
			want := gf64.Mul(2, r)
			if m == 1 {
				want ^= d.p
			}
			require.Equal(t, want, next, "dimension %d: N(%v)", k, r)
			require.Equal(t, gf128.Embed(next), d.next(m, gf128.Embed(r)))
			if row == T-1 {
				require.Equal(t, d.last(), r, "dimension %d: the last row", k)
				require.Equal(t, 1, m, "the last point is in S_1")
				require.Equal(t, d.first(), next, "the last row's successor is the first")
			}
			r = next
		}
	}
}

// As one polynomial on S (0 ↦ 0 included), the successor has degree
// exactly n/2: its interpolant's monomial coefficients stop at 2^(k−1).
func TestSuccessorDegree(t *testing.T) {
	for k := MinLogRows; k <= 12; k++ {
		d, err := newSubspaceDomain(k, 2)
		require.NoError(t, err)
		values := make([]gf64.Element, 1<<k)
		for i := range values {
			require.Equal(t, gf64.Element(i), d.message.Element(i), "S's element i is i")
			values[i] = d.successor(gf64.Element(i))
		}
		require.NoError(t, d.message.IFFT(values))
		deg := len(values) - 1
		for deg > 0 && values[deg] == 0 {
			deg--
		}
		assert.Equal(t, 1<<(k-1), deg, "dimension %d", k)
	}
}

// The vanishing polynomials of the pieces against their products over the
// points, at base-field and extension points.
func TestVanishing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := MinLogRows; k <= 9; k++ {
		d, err := newSubspaceDomain(k, 2)
		require.NoError(t, err)
		half := 1 << (k - 1)
		for range 20 {
			z := gf128.Element{A0: gf64.Element(rng.Uint64()), A1: gf64.Element(rng.Uint64())}
			for m := range 2 {
				// Z_m(z) = Π_{v ∈ S_m} (z − v), S_1 = x^(k−1) + S_0.
				zm, e := gf128.Embed(1), gf64.Element(0)
				for v := range half {
					zm = gf128.Mul(zm, gf128.Add(z, gf128.Embed(gf64.Element(v|m*half))))
				}
				if m == 1 {
					e = d.last()
				}
				want := gf128.Div(gf128.Add(z, gf128.Embed(e)), zm)
				got, ok := d.selectorAt(m, z)
				require.True(t, ok)
				require.Equal(t, want, got, "dimension %d, piece %d", k, m)
			}
		}
		// Zero exactly on the piece; the prover's vector form agrees.
		for v := range 1 << k {
			for m := range 2 {
				_, ok := d.selectorAt(m, gf128.Embed(gf64.Element(v)))
				assert.Equal(t, v>>(k-1) != m, ok, "dimension %d: Z_%d(%d)", k, m, v)
			}
		}
		cw, err := domain.New(1<<63, d.codeword.Basis()...)
		require.NoError(t, err)
		xs := cw.Elements()
		for m := range 2 {
			sel := make([]gf64.Element, len(xs))
			d.selector(m, sel, xs)
			for i, x := range xs {
				want, _ := d.selectorAt(m, gf128.Embed(x))
				require.Equal(t, want, gf128.Embed(sel[i]), "dimension %d, piece %d, row %d", k, m, i)
			}
		}
	}
}
