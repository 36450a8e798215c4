package domain

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestNet16 checks the register kernels (assembly where available) against
// their generic references, and the round trips.
func TestNet16(t *testing.T) {
	if !useAVX512 {
		t.Log("the AVX-512 kernel set is not active: the wrappers run the generic code, which this compares with itself")
	}
	r := newRand(t, 40)
	for _, L := range []int{4, 6, 7, 10} {
		n := 1 << uint(L)
		l0, l1, l2 := randVec(r, n/2), randVec(r, n/2), randVec(r, n/2)
		l3, l4, l5 := randVec(r, n/16), randVec(r, n/32), randVec(r, n/64)
		b := [6]gf64.Element{randElem(r), randElem(r), randElem(r), randElem(r), randElem(r), randElem(r)}
		a := randVec(r, n)
		type kernel struct {
			name                 string
			fwd, inv, gfwd, ginv func([]gf64.Element)
		}
		ks := []kernel{{"net16",
			func(x []gf64.Element) { net16Fwd(x, l0, l1, l2, l3, &b) },
			func(x []gf64.Element) { net16Inv(x, l0, l1, l2, l3, &b) },
			func(x []gf64.Element) { net16Generic(x, l0, l1, l2, l3, &b) },
			func(x []gf64.Element) { net16InvGeneric(x, l0, l1, l2, l3, &b) },
		}}
		if L >= 6 {
			ks = append(ks, kernel{"net64",
				func(x []gf64.Element) { net64Fwd(x, l0, l1, l2, l3, l4, l5, &b) },
				func(x []gf64.Element) { net64Inv(x, l0, l1, l2, l3, l4, l5, &b) },
				func(x []gf64.Element) { net64Generic(x, l0, l1, l2, l3, l4, l5, &b) },
				func(x []gf64.Element) { net64InvGeneric(x, l0, l1, l2, l3, l4, l5, &b) },
			})
		}
		for _, k := range ks {
			want := slices.Clone(a)
			k.gfwd(want)
			got := slices.Clone(a)
			k.fwd(got)
			testutil.RequireEqualSlices(t, want, got, "%s, %d elements: against the generic code", k.name, n)
			k.ginv(want)
			testutil.RequireEqualSlices(t, a, want, "%s generic inverse, %d elements: undoes the forward", k.name, n)
			k.inv(got)
			testutil.RequireEqualSlices(t, a, got, "%s inverse, %d elements: undoes the forward", k.name, n)
		}
	}
}

// TestNet16Network runs the networks with and without the kernel.
func TestNet16Network(t *testing.T) {
	r := newRand(t, 41)
	for _, m := range []int{4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 16} {
		s := randSubspace(t, r, m, 0)
		c := randVec(r, s.Size())
		var res [2][]gf64.Element
		for i, use := range []bool{false, true} {
			tun := defaultTuning()
			tun.net = use
			p := newPlan(s.shift, s.basis, tun)
			sc := new(scratch)
			a := slices.Clone(c)
			p.forward(a, 0, m-1, p.procsFor(len(a)), sc)
			res[i] = slices.Clone(a)
			p.inverse(a, 0, m-1, p.procsFor(len(a)), sc)
			testutil.RequireEqualSlices(t, c, a, "m=%d kernel %v: NovelIFFT(NovelFFT(c))", m, use)
		}
		testutil.RequireEqualSlices(t, res[0], res[1], "m=%d: NovelFFT with the kernel against without", m)
	}
}

// TestRadix8 checks the three-level kernel against its generic reference.
func TestRadix8(t *testing.T) {
	r := newRand(t, 42)
	for _, st := range []int{8, 16, 64, 256} {
		var tw [7]gf64.Element
		for i := range tw {
			tw[i] = randElem(r)
		}
		a := randVec(r, 8*st)
		want := slices.Clone(a)
		radix8Generic(want, &tw)
		got := slices.Clone(a)
		radix8Fwd(got, &tw)
		testutil.RequireEqualSlices(t, want, got, "radix8Fwd st=%d against radix8Generic", st)
		radix8InvGeneric(want, &tw)
		testutil.RequireEqualSlices(t, a, want, "radix8InvGeneric st=%d undoes radix8Generic", st)
		radix8Inv(got, &tw)
		testutil.RequireEqualSlices(t, a, got, "radix8Inv st=%d undoes radix8Fwd", st)
	}
}

// TestNet16LDE runs the LDE (whose forward networks read the source block
// in their first pass) with and without the kernels.
func TestNet16LDE(t *testing.T) {
	r := newRand(t, 43)
	for _, k := range []int{5, 12, 13, 14} {
		from := randSubspace(t, r, k, 0)
		to, err := from.Extend(randElem(r), randElem(r))
		require.NoError(t, err)
		src := randVec(r, from.Size())
		var res [2][]gf64.Element
		for i, use := range []bool{false, true} {
			tun := defaultTuning()
			tun.net = use
			fp, tp := newPlan(from.shift, from.basis, tun), newPlan(to.shift, to.basis, tun)
			dst := make([]gf64.Element, to.Size())
			lde(dst, src, fp, tp, true, new(scratch), runtime.GOMAXPROCS(0))
			res[i] = dst
		}
		testutil.RequireEqualSlices(t, res[0], res[1], "k=%d: LDE with the kernels against without", k)
	}
}

// TestRadix8Cols checks the column-range form against the generic code.
func TestRadix8Cols(t *testing.T) {
	r := newRand(t, 45)
	var tw [7]gf64.Element
	for i := range tw {
		tw[i] = randElem(r)
	}
	st := 64
	a := randVec(r, 8*st)
	for _, inv := range []bool{false, true} {
		for _, c := range [][2]int{{0, 64}, {8, 24}, {32, 64}, {16, 16}} {
			want := slices.Clone(a)
			radix8ColsGeneric(want, want, c[0], c[1], &tw, inv)
			got := slices.Clone(a)
			radix8Cols(got, got, c[0], c[1], &tw, inv)
			testutil.RequireEqualSlices(t, want, got, "radix8Cols inv=%v cols %v against the generic code", inv, c)
			// Out of place: dst starts as other data; only the columns change.
			dst, dstWant := randVec(r, len(a)), []gf64.Element(nil)
			dstWant = slices.Clone(dst)
			radix8ColsGeneric(dstWant, a, c[0], c[1], &tw, inv)
			radix8Cols(dst, a, c[0], c[1], &tw, inv)
			testutil.RequireEqualSlices(t, dstWant, dst, "radix8Cols out of place inv=%v cols %v against the generic code", inv, c)
		}
	}
}

// TestNet16Par runs the parallel networks (radix-8 top levels split by
// columns, then the sub-blocks over the workers) against the serial ones,
// at a size that reaches them (parMin).
func TestNet16Par(t *testing.T) {
	r := newRand(t, 46)
	m := 18
	s := randSubspace(t, r, m, 0)
	p := s.plan()
	c := randVec(r, s.Size())
	sc := new(scratch)
	want := slices.Clone(c)
	p.forward(want, 0, m-1, 1, sc)
	for _, procs := range []int{2, 3, 9} {
		got := slices.Clone(c)
		p.forward(got, 0, m-1, procs, sc)
		testutil.RequireEqualSlices(t, want, got, "forwardPar with %d workers against forward", procs)
		p.inverse(got, 0, m-1, procs, sc)
		testutil.RequireEqualSlices(t, c, got, "inversePar with %d workers undoes forward", procs)
	}
}

// TestForwardTruncPar runs the truncated forward network (the LDE's) on
// blocks of parMin elements, where two workers split each block's
// transform and three share the blocks, against the serial code.
func TestForwardTruncPar(t *testing.T) {
	if testing.Short() {
		t.Skip("2^20 elements")
	}
	r := newRand(t, 48)
	m, j := 20, 18
	s := randSubspace(t, r, m, 0)
	p := s.plan()
	c := randVec(r, s.Size())
	clear(c[1<<uint(j):])
	sc := new(scratch)
	want := slices.Clone(c)
	p.forwardTrunc(want, j, 1, sc)
	for _, procs := range []int{2, 3} {
		got := slices.Clone(c)
		p.forwardTrunc(got, j, procs, sc)
		testutil.RequireEqualSlices(t, want, got, "forwardTruncPar with %d workers against forwardTrunc", procs)
	}
}
