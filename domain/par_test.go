package domain

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestParallelMatchesSerial runs the parallel paths with 2 and 3 workers
// (whatever GOMAXPROCS is) against the serial ones, on plans whose
// parallel threshold (tun.parMin) is lowered so that every step of these
// sizes splits its work.
func TestParallelMatchesSerial(t *testing.T) {
	r := newRand(t, 40)
	m := 17
	if testing.Short() {
		m = 16
	}
	s := randSubspace(t, r, m, 0)
	tun := defaultTuning()
	tun.parMin = 1 << 10
	plan := func(s *Subspace) *plan { return newPlan(s.shift, s.basis, tun) }
	p := plan(s)
	sc := new(scratch)
	c := randVec(r, s.Size())
	type step struct {
		name     string
		serial   func(a []gf64.Element)
		parallel func(a []gf64.Element, procs int)
	}
	steps := []step{
		{"forward", func(a []gf64.Element) { p.forward(a, 0, m-1, 1, sc) },
			func(a []gf64.Element, n int) { p.forward(a, 0, m-1, n, sc) }},
		{"inverse", func(a []gf64.Element) { p.inverse(a, 0, m-1, 1, sc) },
			func(a []gf64.Element, n int) { p.inverse(a, 0, m-1, n, sc) }},
		{"toNovel", func(a []gf64.Element) { p.toNovel(a, 0, 1, sc) },
			func(a []gf64.Element, n int) { p.toNovel(a, 0, n, sc) }},
		{"fromNovel", func(a []gf64.Element) { p.fromNovel(a, 0, 1, sc) },
			func(a []gf64.Element, n int) { p.fromNovel(a, 0, n, sc) }},
	}
	for _, j := range []int{0, 1, 5, 13, m - 1, m} {
		steps = append(steps, step{"forwardTrunc",
			func(a []gf64.Element) { clear(a[1<<uint(j):]); p.forwardTrunc(a, j, 1, sc) },
			func(a []gf64.Element, n int) { clear(a[1<<uint(j):]); p.forwardTrunc(a, j, n, sc) }})
	}
	for _, st := range steps {
		want := slices.Clone(c)
		st.serial(want)
		for _, procs := range []int{2, 3} {
			got := slices.Clone(c)
			st.parallel(got, procs)
			testutil.RequireEqualSlices(t, want, got, "%s with %d workers against serial", st.name, procs)
		}
	}
	// LDE into a larger space, parallel and serial, fast and general path.
	from, err := s.Sub(m - 2)
	require.NoError(t, err)
	other := randSubspace(t, r, m, 0)
	for _, to := range []*Subspace{s, other} {
		src := c[:from.Size()]
		want := make([]gf64.Element, to.Size())
		fp, tp := plan(from), plan(to)
		lde(want, src, fp, tp, from.hasBasisPrefix(to), sc, 1)
		got := make([]gf64.Element, to.Size())
		lde(got, src, fp, tp, from.hasBasisPrefix(to), sc, 3)
		testutil.RequireEqualSlices(t, want, got, "parallel LDE against serial")
		coef := slices.Clone(src)
		require.NoError(t, from.IFFT(coef))
		for range 4 {
			i := r.IntN(len(got))
			require.Equal(t, horner(coef, to.Element(i)), got[i], "LDE[%d] against Horner's rule", i)
		}
	}
}

// TestRadix4 runs the two-levels-per-sweep network (normally for blocks of
// 2^18 elements and more) on small sizes against the plain one.
func TestRadix4(t *testing.T) {
	r := newRand(t, 42)
	for _, m := range []int{12, 13, 15} {
		s := randSubspace(t, r, m, 0)
		tun := defaultTuning()
		tun.net = false
		p := newPlan(s.shift, s.basis, tun)
		tun.radix4Min = 1 << 11
		p4 := newPlan(s.shift, s.basis, tun)
		sc := new(scratch)
		c := randVec(r, s.Size())
		want := slices.Clone(c)
		p.forward(want, 0, m-1, 1, sc)
		got := slices.Clone(c)
		p4.forward(got, 0, m-1, 1, sc)
		testutil.RequireEqualSlices(t, want, got, "m=%d: radix-4 forward against radix-2", m)
		p4.inverse(got, 0, m-1, 1, sc)
		testutil.RequireEqualSlices(t, c, got, "m=%d: radix-4 inverse undoes forward", m)
	}
}
