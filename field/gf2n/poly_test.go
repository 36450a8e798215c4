package gf2n

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// polyGCDIsOne reports whether gcd(g, f) = 1, f = the field's polynomial and
// g an element (a polynomial of degree < n), by Euclid's algorithm.
func polyGCDIsOne(fd *Field, g []uint64) bool {
	w := fd.Words()
	a := make([]uint64, w+1)
	for _, e := range fd.Poly() {
		a[e/64] |= 1 << (e % 64)
	}
	b := append(make([]uint64, 0, w+1), g...)
	b = append(b, 0)
	for {
		db := polyDeg(b)
		if db < 0 {
			return polyDeg(a) == 0
		}
		for da := polyDeg(a); da >= db; da = polyDeg(a) {
			polyXorShifted(a, b, da-db)
		}
		a, b = b, a
	}
}

// rabinIrreducible is Rabin's test with the field's own squaring, for n a
// power of two (so 2 is the only prime dividing n): f is irreducible iff
// x^(2^n) ≡ x (mod f) and gcd(x^(2^(n/2)) − x, f) = 1.
func rabinIrreducible(fd *Field) bool {
	w := fd.Words()
	g := make([]uint64, w)
	g[0] = 2 // x
	for range fd.N() / 2 {
		fd.Square(g, g)
	}
	h := append([]uint64(nil), g...)
	h[0] ^= 2 // x^(2^(n/2)) − x
	if !polyGCDIsOne(fd, h) {
		return false
	}
	for range fd.N() / 2 {
		fd.Square(g, g)
	}
	want := make([]uint64, w)
	want[0] = 2
	return assert.ObjectsAreEqual(want, g)
}

// benOrIrreducible is Ben-Or's test: f of degree n is irreducible iff
// gcd(x^(2^i) − x, f) = 1 for i = 1 … n/2. A reducible f with a factor of
// degree d fails at i = d, which makes the test quick on most reducible
// polynomials.
func benOrIrreducible(fd *Field) bool {
	g := make([]uint64, fd.Words())
	g[0] = 2
	h := make([]uint64, fd.Words())
	for range fd.N() / 2 {
		fd.Square(g, g)
		copy(h, g)
		h[0] ^= 2
		if !polyGCDIsOne(fd, h) {
			return false
		}
	}
	return true
}

// TestPolyIrreducible checks every field's polynomial with Rabin's test on
// every path, and with Ben-Or's test once.
func TestPolyIrreducible(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		forEachField(t, func(t *testing.T, fd *Field) {
			assert.True(t, rabinIrreducible(fd), "Rabin: %v is reducible", fd)
		})
	})
	forEachField(t, func(t *testing.T, fd *Field) {
		if testing.Short() && fd.N() > 512 {
			t.Skip("Ben-Or on n > 512 in -short")
		}
		assert.True(t, benOrIrreducible(fd), "Ben-Or: %v is reducible", fd)
	})
}

// TestTestsRejectReducible makes sure both irreducibility tests can fail:
// x^128 + x^7 + x^2 + x + 1 with x^7 dropped has an even number of terms,
// so 1 is a root; and (x^64 + x^4 + x^3 + x + 1)² = x^128 + x^8 + x^6 + x^2 + 1,
// whose only factor has degree 64 = n/2.
func TestTestsRejectReducible(t *testing.T) {
	for _, exps := range [][]int{{2, 1}, {8, 6, 2}} {
		fd := newField(128, exps)
		assert.False(t, rabinIrreducible(fd), "Rabin: %v", fd)
		assert.False(t, benOrIrreducible(fd), "Ben-Or: %v", fd)
	}
}

// TestPolyLowestWeight checks that each polynomial is the first irreducible
// pentanomial x^n + x^a + x^b + x^c + 1 in the order of the published
// tables (a smallest, then b, then c): every (a, b, c) before it gives a
// reducible polynomial. Weight 5 is the lowest possible: a polynomial with
// an even number of terms has the root 1, and no trinomial of degree 8k is
// irreducible (Swan's theorem).
func TestPolyLowestWeight(t *testing.T) {
	for _, s := range sizes {
		t.Run(fmt.Sprintf("n=%d", s.n), func(t *testing.T) {
			if testing.Short() && s.n > 256 {
				t.Skip("n > 256 in -short")
			}
			if !testutil.Long() && s.n > 1024 {
				t.Skip("n > 1024: under GFPOLY_LONG")
			}
			a0, b0, c0 := s.exps[0], s.exps[1], s.exps[2]
			tried := 0
			for a := 3; a <= a0; a++ {
				for b := 2; b < a; b++ {
					for c := 1; c < b; c++ {
						if a == a0 && (b > b0 || b == b0 && c >= c0) {
							continue
						}
						tried++
						fd := newField(s.n, []int{a, b, c})
						require.False(t, benOrIrreducible(fd), "%v is irreducible and comes before %d,%d,%d", fd, a0, b0, c0)
					}
				}
			}
			t.Logf("n = %d: %d pentanomials before x^%d+x^%d+x^%d+x^%d+1, all reducible", s.n, tried, s.n, a0, b0, c0)
		})
	}
}
