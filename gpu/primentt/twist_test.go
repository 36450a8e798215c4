package primentt

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTwistKeys checks which passes take a twist table: those between the
// bottom and the top pass of the kernels' elements per thread and at most
// twistMaxNST bits with M ≤ 2^twistMaxLog, each once.
func TestTwistKeys(t *testing.T) {
	f := nttFields["babybear"]
	plans := func(logn int) [][]nttPass {
		return [][]nttPass{planFS(logn, f), planWide(logn, f, 132), lonePlans["fs31"][logn], loneNatPlans["fs31"][logn]}
	}
	assert.Empty(t, twistKeys(17, 4, plans(17)...), "2^17: two passes")
	assert.Empty(t, twistKeys(18, 4, plans(18)...), "2^18: its three passes take 8 elements per thread")
	assert.Equal(t, []twistKey{{6, 6}}, twistKeys(18, 3, plans(18)...))
	assert.Equal(t, []twistKey{{8, 7}}, twistKeys(22, 4, plans(22)...))
	assert.Equal(t, []twistKey{{9, 8}, {8, 8}}, twistKeys(25, 4, plans(25)...))
	assert.Equal(t, []twistKey{{9, 8}}, twistKeys(26, 4, plans(26)...), "2^26: planFS's middle pass has 9 bits")
	for logn := 13; logn <= 30; logn++ {
		for _, k := range twistKeys(logn, 4, plans(logn)...) {
			assert.Positive(t, k.lo, "2^%d: %v is the bottom pass", logn, k)
			assert.Less(t, k.lo+k.nst, logn, "2^%d: %v is the top pass", logn, k)
			assert.LessOrEqual(t, k.nst, twistMaxNST, "2^%d: %v", logn, k)
			assert.LessOrEqual(t, k.lo+k.nst, twistMaxLog, "2^%d: %v", logn, k)
		}
	}
	assert.Empty(t, twistKeys(28, 4, [][]nttPass{{{0, 11, 3, 4}, {11, 8, 4, 4}, {19, 9, 4, 4}}}...), "M = 2^19 is above the bound")
}

// TestTwistTable checks the twist tables against powers of the domain's
// root: entry (t << lo) | low is ω^((low·bitrev_nst(t))·2^(logn−lo−nst)).
func TestTwistTable(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	id := func(e babybear.Element) babybear.Element { return e }
	for _, c := range []struct{ logn, lo, nst int }{{6, 2, 3}, {18, 6, 6}, {25, 8, 8}, {26, 8, 9}} {
		w := babybearfft.NewDomain(1<<c.logn, babybearfft.WithoutPrecompute()).Generator
		tab := twistTable[babybear.Element](w, c.logn, c.lo, c.nst, id)
		require.Len(t, tab, 1<<(c.lo+c.nst), "%+v", c)
		check := func(i int) {
			tt, low := i>>c.lo, i&(1<<c.lo-1)
			e := uint64(low) * (bits.Reverse64(uint64(tt)) >> (64 - c.nst)) << (c.logn - c.lo - c.nst)
			var want babybear.Element
			want.Exp(w, new(big.Int).SetUint64(e))
			require.Equal(t, want, tab[i], "%+v: entry %d (t %d, low %d)", c, i, tt, low)
		}
		if len(tab) <= 1<<12 {
			for i := range tab {
				check(i)
			}
			continue
		}
		for range 2000 {
			check(r.IntN(len(tab)))
		}
	}
}

// TestTwisted checks which plans run their in-place passes in the
// twist-table kernels: those with a pass that has a table.
func TestTwisted(t *testing.T) {
	f := nttFields["babybear"]
	for _, c := range []struct {
		logn int
		plan []nttPass
		want bool
	}{
		{16, lonePlans["fs31"][16], false},
		{18, lonePlans["fs31"][18], false}, // 8 elements per thread
		{20, lonePlans["fs31"][20], true},
		{22, planFS(22, f), true},
		{25, lonePlans["fs31"][25], true},
		{26, lonePlans["fs31"][26], true},
		{26, planFS(26, f), false}, // a 9-bit middle pass
	} {
		n := &NTT[babybear.Element]{k: &nttKernels{info: f}, logn: c.logn, twistOff: map[twistKey]int{}}
		for _, k := range twistKeys(c.logn, f.fsRlog, c.plan) {
			n.twistOff[k] = 0
		}
		assert.Equal(t, c.want, n.twisted(c.plan), "2^%d %v", c.logn, c.plan)
	}
}
