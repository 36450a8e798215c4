package domain

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestDeepMatchesFlat checks the depth-first conversion (gathered
// subproblems, nested twice) against the depth-by-depth one, forward and
// back, with the thresholds lowered so that small sizes reach every path.
func TestDeepMatchesFlat(t *testing.T) {
	r := newRand(t, 7)
	for _, m := range []int{6, 8, 9, 10, 11, 13, 14} {
		s := randSubspace(t, r, m, 0)
		tun := defaultTuning()
		tun.deepLogs = []int{7, 10}
		tun.parMin = 1 << 10 // the budgeted Taylor steps split too
		p := newPlan(s.shift, s.basis, tun)
		for _, procs := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("m=%d/procs=%d", m, procs), func(t *testing.T) {
				sc := new(scratch)
				a := randVec(r, s.Size())
				want := slices.Clone(a)
				p.toNovelFlat(want, 0, 1, sc)
				got := slices.Clone(a)
				p.toNovel(got, 0, procs, sc)
				testutil.RequireEqualSlices(t, want, got, "toNovel against toNovelFlat")
				p.fromNovel(got, 0, procs, sc)
				testutil.RequireEqualSlices(t, a, got, "fromNovel undoes toNovel")
			})
		}
	}
}

// TestDeepZeroAllocs: below parMin the gathering runs on the calling
// goroutine with pooled buffers and allocates nothing once warm. Skipped
// under -short, which CI uses for the race detector run: with -race,
// sync.Pool drops some of what it is given.
func TestDeepZeroAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("sync.Pool keeps nothing reliably under the race detector")
	}
	r := newRand(t, 8)
	s := randSubspace(t, r, 17, 0)
	a := randVec(r, s.Size())
	_ = s.FFT(a)
	assert.Zero(t, testing.AllocsPerRun(5, func() { _ = s.FFT(a); _ = s.IFFT(a) }), "FFT+IFFT m=17: allocations per run")
}
