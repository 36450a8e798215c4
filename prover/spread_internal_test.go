package prover

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestSpreadParts(t *testing.T) {
	for _, c := range []struct{ devices, k, n, want int }{
		{1, 10, 12, 1}, {2, 10, 12, 2}, {3, 10, 12, 2}, {4, 10, 12, 4}, {5, 10, 12, 4},
		{8, 10, 12, 4}, {8, 10, 11, 2}, {4, 10, 10, 1}, {7, 3, 6, 4}, {16, 3, 7, 16},
	} {
		assert.Equal(t, c.want, spreadParts(c.devices, c.k, c.n), "%d devices, 2^%d → 2^%d", c.devices, c.k, c.n)
	}
}

// randomSubspace returns a subspace of dimension k with a random shift and
// basis (independent with overwhelming probability; New checks).
func randomSubspace(t *testing.T, r *rand.Rand, k int) *domain.Subspace {
	for {
		b := make([]gf64.Element, k)
		for i := range b {
			b[i] = gf64.Element(r.Uint64())
		}
		s, err := domain.New(gf64.Element(r.Uint64()), b...)
		if err == nil {
			return s
		}
	}
}

// TestRowCosets: the rows of an LDE in parts of a power of two are the
// LDEs to rowCosets' cosets (what each device of a SpreadLDE computes),
// for the prover's default spaces and random ones.
func TestRowCosets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][2]int{{0, 1}, {1, 3}, {3, 5}, {4, 4}, {6, 10}, {10, 12}} {
		k, n := sh[0], sh[1]
		spaces := map[string][2]*domain.Subspace{}
		msg, cw, err := DefaultBinaryDomains(k, max(1, n-k))
		require.NoError(t, err)
		if cw.Dim() == n {
			spaces["default"] = [2]*domain.Subspace{msg, cw}
		}
		spaces["random"] = [2]*domain.Subspace{randomSubspace(t, r, k), randomSubspace(t, r, n)}
		for name, sp := range spaces {
			from, to := sp[0], sp[1]
			src := make([]gf64.Element, from.Size())
			for i := range src {
				src[i] = gf64.Element(r.Uint64())
			}
			full := make([]gf64.Element, to.Size())
			require.NoError(t, domain.LDE(full, src, from, to))
			for parts := 1; parts <= 1<<(n-k); parts *= 2 {
				what := fmt.Sprintf("%s spaces, 2^%d → 2^%d in %d parts", name, k, n, parts)
				cosets, err := rowCosets(to, parts)
				require.NoError(t, err, what)
				require.Len(t, cosets, parts)
				per := to.Size() / parts
				for c, cs := range cosets {
					require.Equal(t, n-log2(parts), cs.Dim(), what)
					for i := 0; i < per; i += max(1, per/7) {
						assert.Equal(t, to.Element(c*per+i), cs.Element(i), "%s: coset %d, point %d", what, c, i)
					}
					part := make([]gf64.Element, per)
					require.NoError(t, domain.LDE(part, src, from, cs), what)
					testutil.RequireEqualSlices(t, full[c*per:(c+1)*per], part, "%s: rows of coset %d", what, c)
				}
			}
		}
	}
}
