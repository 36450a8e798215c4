package domain

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
