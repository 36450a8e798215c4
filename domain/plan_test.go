package domain

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestPlanRecipes checks that the plan's steps cover every level of the
// network exactly once, top down, for both kernel choices: the chunk
// recipes (levels k-1..0 of a chunk of 2^k elements) and the steps above
// the chunks (a step at level r leaves level r - levelsOf[step] next).
func TestPlanRecipes(t *testing.T) {
	r := newRand(t, 50)
	s := randSubspace(t, r, 16, 0)
	for _, net := range []bool{false, true} {
		tun := defaultTuning()
		tun.net = net
		tun.radix4Min = 1 << 13
		p := newPlan(s.shift, s.basis, tun)
		for k, steps := range p.recipes {
			next := k - 1
			for _, st := range steps {
				assert.Equal(t, next, int(st.r), "net=%v k=%d: step %v starts at the next level", net, k, st)
				switch st.op {
				case opRadix8:
					next -= 3
				case opNet, opLanes:
					next = -1
				default:
					next--
				}
			}
			assert.Equal(t, -1, next, "net=%v k=%d: the recipe %v ends at level 0", net, k, steps)
		}
		kinds := map[uint8]int{}
		for top := p.L; top < p.m; top++ {
			lvl := top
			for lvl >= p.L {
				st := p.steps[lvl]
				kinds[st]++
				assert.NotEqual(t, uint8(stepChunk), st, "net=%v level %d ≥ L", net, lvl)
				lvl -= levelsOf[st]
			}
			assert.Equal(t, uint8(stepChunk), p.steps[lvl], "net=%v: level %d < L is a chunk", net, lvl)
		}
		if net {
			assert.Positive(t, kinds[step8], "net: radix-8 steps")
		} else {
			assert.Positive(t, kinds[step4], "radix-4 steps above radix4Min")
			assert.Zero(t, kinds[step8], "no radix-8 steps without the kernels")
		}
	}
}

// TestLevels checks the exported constants against the subspace
// polynomials evaluated naively (products over the span), against the
// twiddles the network uses, and that they are copies.
func TestLevels(t *testing.T) {
	r := newRand(t, 51)
	for _, m := range []int{0, 1, 2, 5, 8} {
		for kind := 0; kind < 3; kind++ {
			s := randSubspace(t, r, m, kind)
			lv, err := s.Levels()
			require.NoError(t, err)
			require.Len(t, lv, m)
			b := s.basis
			for i := range lv {
				norm := subspacePoly(b, i, b[i])
				what := func(x gf64.Element) gf64.Element { return gf64.Div(subspacePoly(b, i, x), norm) }
				assert.Equal(t, what(s.shift), lv[i].Base, "m=%d kind=%d r=%d: Base = Ŵ_r(s)", m, kind, i)
				require.Len(t, lv[i].Span, m-1-i)
				for j, x := range lv[i].Span {
					assert.Equal(t, what(b[i+1+j]), x, "m=%d r=%d: Span[%d] = Ŵ_r(β_%d)", m, i, j, i+1+j)
				}
				want := b[0]
				if i > 0 {
					want = gf64.Div(norm, gf64.Square(subspacePoly(b, i-1, b[i-1])))
				}
				assert.Equal(t, want, lv[i].Twist, "m=%d r=%d: Twist", m, i)
				p := s.plan()
				for blk := 0; blk < 1<<uint(m-1-i); blk++ {
					x := s.shift
					for j := 0; j < m-1-i; j++ {
						if blk>>uint(j)&1 == 1 {
							x ^= b[i+1+j]
						}
					}
					require.Equal(t, what(x), p.twiddle(i, blk), "m=%d r=%d: twiddle of block %d", m, i, blk)
				}
			}
			if m > 1 {
				lv[0].Span[0] ^= 1
				again, err := s.Levels()
				require.NoError(t, err)
				assert.NotEqual(t, lv[0].Span[0], again[0].Span[0], "Levels returns copies")
			}
		}
	}
	big := make([]gf64.Element, MaxTransformDim+1)
	for i := range big {
		big[i] = gf64.Element(1) << uint(i)
	}
	s, err := New(0, big...)
	require.NoError(t, err)
	_, err = s.Levels()
	require.ErrorIs(t, err, ErrDim)
}

// TestConvRecipes checks the conversion's recorded choices: every Taylor
// step of the table (blocks of 2^k elements at stride 2^j) against the
// level-by-level expansion, and back; the fused depths and gather depths
// of every array size against their definitions.
func TestConvRecipes(t *testing.T) {
	r := newRand(t, 52)
	const m = 17
	s := randSubspace(t, r, m, 0)
	tun := defaultTuning()
	p := newPlan(s.shift, s.basis, tun)
	kinds := map[uint8]int{}
	for k := 0; k <= m; k++ {
		for j := 0; j <= k; j++ {
			kinds[p.taylorSteps[k][j]]++
			a := randVec(r, 1<<uint(k))
			want := slices.Clone(a)
			taylorSmall(want, 1<<uint(j))
			got := slices.Clone(a)
			p.taylorBlock(got, 1<<uint(j))
			testutil.RequireEqualSlices(t, want, got, "k=%d j=%d step %d: taylorBlock against taylorSmall", k, j, p.taylorSteps[k][j])
			p.untaylorBlock(got, 1<<uint(j))
			testutil.RequireEqualSlices(t, a, got, "k=%d j=%d: untaylorBlock undoes taylorBlock", k, j)
		}
	}
	for st := uint8(tsNone); st <= tsSplitLow; st++ {
		assert.Positive(t, kinds[st], "Taylor step %d appears in the table", st)
	}
	for n, c := range p.convs {
		require.Len(t, c.steps, n)
		for r, st := range c.steps {
			assert.Equal(t, 1<<uint(n) >= fuseMin && 1<<uint(n) >= fuseSegs<<uint(r), st == depthFused, "n=%d r=%d: fused depth", n, r)
		}
		if c.gather < 0 {
			assert.Less(t, n, 15, "n=%d: arrays above 2^14 gather", n)
			continue
		}
		assert.GreaterOrEqual(t, c.gather, gatherLog, "n=%d: gather depth", n)
		assert.LessOrEqual(t, c.gather, n-2, "n=%d: gather depth", n)
		assert.Contains(t, tun.deepLogs, n-c.gather+gatherLog, "n=%d: gathered arrays have a size of deepLogs", n)
	}
}
