package additive

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

// randomSubspace returns a random m-dimensional subspace (zero shift when
// zeroShift).
func randomSubspace(t testing.TB, r *rand.Rand, m int, zeroShift bool) *domain.Subspace {
	t.Helper()
	for {
		basis := make([]gf64.Element, m)
		for i := range basis {
			basis[i] = gf64.Element(r.Uint64())
		}
		var shift gf64.Element
		if !zeroShift {
			shift = gf64.Element(r.Uint64())
		}
		s, err := domain.New(shift, basis...)
		if err == nil {
			return s
		}
	}
}

func randomVec(r *rand.Rand, n int) []gf64.Element {
	v := make([]gf64.Element, n)
	for i := range v {
		v[i] = gf64.Element(r.Uint64())
	}
	return v
}

// transformCase is one in-place transform: its CPU form (domain) and its
// step list.
type transformCase struct {
	name  string
	cpu   func(s *domain.Subspace, a []gf64.Element) error
	ops   func(p *fftPlan, m int) []fftOp
	gpu   func(t *Transforms, st *gpu.Stream, s *domain.Subspace, a *gpu.Buffer[gf64.Element]) error
	batch func(s *domain.Subspace, cols [][]gf64.Element) error // domain's batch form, if any
}

var transformCases = []transformCase{
	{"FFT", (*domain.Subspace).FFT,
		func(p *fftPlan, m int) []fftOp { return append(toNovelOps(p, m), fwdOps(p, m)...) },
		(*Transforms).FFT, (*domain.Subspace).FFTBatch},
	{"IFFT", (*domain.Subspace).IFFT,
		func(p *fftPlan, m int) []fftOp { return append(invOps(p, m), fromNovelOps(p, m)...) },
		(*Transforms).IFFT, (*domain.Subspace).IFFTBatch},
	{"NovelFFT", (*domain.Subspace).NovelFFT, fwdOps, (*Transforms).NovelFFT, (*domain.Subspace).NovelFFTBatch},
	{"NovelIFFT", (*domain.Subspace).NovelIFFT, invOps, (*Transforms).NovelIFFT, (*domain.Subspace).NovelIFFTBatch},
	{"MonomialToNovel", (*domain.Subspace).MonomialToNovel, toNovelOps, (*Transforms).MonomialToNovel, nil},
	{"NovelToMonomial", (*domain.Subspace).NovelToMonomial, fromNovelOps, (*Transforms).NovelToMonomial, nil},
}

// TestFFTPassesReference checks the planner and the step semantics without
// a device: the passes run on the host exactly as the kernel runs them, and
// must equal domain for every transform, to dimension 14 (15 under
// GFPOLY_LONG).
func TestFFTPassesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	maxM := testutil.Sweep(13, 14, 15)
	for m := 0; m <= maxM; m++ {
		for _, zero := range []bool{true, false} {
			s := randomSubspace(t, r, m, zero)
			p := newFFTPlan(s)
			for _, tc := range transformCases {
				x := randomVec(r, 1<<uint(m))
				want := slices.Clone(x)
				require.NoError(t, tc.cpu(s, want))
				got := slices.Clone(x)
				runPassesRef(planFFT(tc.ops(p, m), m, defaultShape), m, got, got, len(got), 1, ^uint64(0))
				testutil.RequireEqualSlices(t, want, got, "%s m=%d zeroShift=%v: passes against domain", tc.name, m, zero)
			}
		}
	}
}

// TestFFTPassesTableVariants runs the reference passes (which multiply
// through product tables where the kernel does) under other pass shapes:
// other table thresholds and budgets, no radix-4 sweeps, other tiles. The
// largest dimension is 14 (the same sequence of tiles as at 16, the high
// tiles two index bits lower) and 16 under GFPOLY_LONG, where 2^16 is 85%
// of the test's time.
func TestFFTPassesTableVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	top := testutil.Sweep(14, 14, 16)
	for _, v := range []struct {
		tabMin, maxTabs int
		noRadix4        bool
		highT, highC    int
	}{{0, 64, false, 11, 4}, {3, 8, true, 11, 4}, {6, 16, false, 11, 4}, {64, 48, false, 11, 4},
		{6, 48, false, 11, 6}, {6, 32, false, 12, 6}, {5, 48, false, 12, 5}, {6, 48, false, 10, 3},
		{6, 48, false, 11, 7}, {6, 32, false, 12, 7}} {
		sh := passShape{highT: v.highT, highC: v.highC, convC: defaultShape.convC, tabMin: v.tabMin, maxTabs: v.maxTabs, noRadix4: v.noRadix4}
		for _, m := range []int{1, 7, 11, 13, top} {
			s := randomSubspace(t, r, m, m%2 == 0)
			p := newFFTPlan(s)
			for _, tc := range transformCases[:4] {
				x := randomVec(r, 1<<uint(m))
				want := slices.Clone(x)
				require.NoError(t, tc.cpu(s, want))
				runPassesRef(planFFT(tc.ops(p, m), m, sh), m, x, x, len(x), 1, ^uint64(0))
				testutil.RequireEqualSlices(t, want, x, "%+v %s m=%d: passes against domain", v, tc.name, m)
			}
		}
	}
}

// TestTabMul checks the product tables against gf64.Mul.
func TestTabMul(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	edge := []gf64.Element{0, 1, 2, 1 << 63, 1<<64 - 1, 0x8000000000000001, 0xf0f0f0f0f0f0f0f0}
	for i := 0; i < 200; i++ {
		w := gf64.Element(r.Uint64())
		if i < len(edge) {
			w = edge[i]
		}
		tab := tabBuildRef(w)
		for j := 0; j < 50; j++ {
			x := gf64.Element(r.Uint64())
			if j < len(edge) {
				x = edge[j]
			}
			require.Equal(t, gf64.Mul(w, x), tabMulRef(tab, x), "table product %#x * %#x", w, x)
		}
	}
}

// ldeRef runs the LDE steps on the host as LDE does on the device.
func ldeRef(dst, src []gf64.Element, from, to *domain.Subspace, cols int) {
	pf, pt := newFFTPlan(from), newFFTPlan(to)
	k, n := from.Dim(), to.Dim()
	s1, s2 := ldeOps(pf, pt, from, to)
	coef := src
	if len(s1) > 0 {
		coef = make([]gf64.Element, len(src))
		runPassesRef(planFFT(s1, k, defaultShape), k, coef, src, 1<<uint(k), cols, ^uint64(0))
	}
	p2 := planFFT(s2, n, defaultShape)
	if len(p2) == 0 {
		p2 = []fftPass{{t: lowTile(n), sh: defaultShape}}
	}
	runPassesRef(p2, n, dst, coef, 1<<uint(k), cols, 1<<uint(k)-1)
}

// ldeTargets returns targets of dimension n for from: one whose basis
// extends from's (shifted), one unrelated.
func ldeTargets(t testing.TB, r *rand.Rand, from *domain.Subspace, n int) map[string]*domain.Subspace {
	ext := randomSubspace(t, r, n, true).Basis()[:n-from.Dim()]
	var pre *domain.Subspace
	for {
		e, err := from.Extend(ext...)
		if err == nil {
			pre, err = e.WithShift(gf64.Element(r.Uint64()))
			require.NoError(t, err)
			break
		}
		ext = randomSubspace(t, r, n, true).Basis()[:n-from.Dim()]
	}
	return map[string]*domain.Subspace{"prefix": pre, "other": randomSubspace(t, r, n, false)}
}

func TestLDEPassesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, kb := range [][2]int{{0, 1}, {0, 4}, {1, 2}, {3, 4}, {5, 9}, {9, 13}, {11, 12}, {12, 14}, {13, 15}} {
		k, n := kb[0], kb[1]
		from := randomSubspace(t, r, k, k%2 == 0)
		for name, to := range ldeTargets(t, r, from, n) {
			src := randomVec(r, 1<<uint(k))
			want := make([]gf64.Element, 1<<uint(n))
			require.NoError(t, domain.LDE(want, src, from, to))
			got := make([]gf64.Element, 1<<uint(n))
			ldeRef(got, src, from, to, 1)
			testutil.RequireEqualSlices(t, want, got, "LDE 2^%d -> 2^%d (%s target): passes against domain", k, n, name)
		}
	}
}

func TestPlanPassesShape(t *testing.T) {
	s := randomSubspace(t, rand.New(rand.NewPCG(5, 6)), 24, false)
	p := newFFTPlan(s)
	for _, c := range []struct {
		name   string
		ops    []fftOp
		max    int
		tabbed int // levels at local bits ≥ 6
	}{
		// Three high passes whose windows hold 5 levels (rows of 2^6), all
		// at local bits 6..10; the low pass's levels at local bits ≥ 6.
		{"forward", fwdOps(p, 24), 4, 5 + 5 + 5 + 3},
		{"inverse", invOps(p, 24), 4, 5 + 5 + 5 + 3},
	} {
		ps := planFFT(c.ops, 24, defaultShape)
		assert.LessOrEqual(t, len(ps), c.max, "%s network of 2^24: passes", c.name)
		tabbed := 0
		for _, q := range ps {
			for _, o := range q.ops {
				assert.True(t, q.t.fits(o), "%s: step %v does not fit tile %+v", c.name, o, q.t)
			}
			flags, tabs := q.sweeps(maxTabsLimit)
			for _, f := range flags {
				if f&opTab != 0 {
					tabbed++
				}
			}
			assert.LessOrEqual(t, tabs, defaultShape.maxTabs, "%s: tables a pass holds", c.name)
			assert.LessOrEqual(t, q.sharedBytes(maxTabsLimit), tabOffset(q.t.T)+defaultShape.maxTabs*tabBytes, "%s: shared memory of a pass", c.name)
		}
		assert.Equal(t, c.tabbed, tabbed, "%s network of 2^24: levels through product tables", c.name)
	}
}

// FuzzFFTPasses checks the passes of every transform against domain on
// fuzzed subspaces and data.
func FuzzFFTPasses(f *testing.F) {
	f.Add(uint8(3), uint64(0), uint64(1), uint64(7))
	f.Add(uint8(12), uint64(0x1234), uint64(99), uint64(5))
	f.Add(uint8(0), uint64(5), uint64(3), uint64(2))
	f.Fuzz(func(t *testing.T, m uint8, shift, seed, data uint64) {
		M := int(m % 14)
		r := rand.New(rand.NewPCG(seed, data))
		s, err := domain.New(gf64.Element(shift), randomVec(r, M)...)
		if err != nil {
			return
		}
		p := newFFTPlan(s)
		for _, tc := range transformCases {
			x := randomVec(r, 1<<uint(M))
			want := slices.Clone(x)
			require.NoError(t, tc.cpu(s, want))
			runPassesRef(planFFT(tc.ops(p, M), M, defaultShape), M, x, x, len(x), 1, ^uint64(0))
			testutil.RequireEqualSlices(t, want, x, "%s m=%d: passes against domain", tc.name, M)
		}
	})
}

// Device tests.

func testTransforms(t testing.TB) *Transforms {
	t.Helper()
	d := gputest.Device(t)
	tfOnce.Do(func() { tf, tfErr = New(d) })
	require.NoError(t, tfErr, "New")
	return tf
}

var (
	tfOnce sync.Once
	tf     *Transforms
	tfErr  error
)

// deviceDims lists the dimensions the device tests cover: all small ones,
// then a sample up to 26.
func deviceDims() []int {
	dims := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 24, 26}
	if testing.Short() {
		dims = []int{0, 1, 2, 5, 10, 11, 12, 14, 17, 20}
	}
	return dims
}

func colsFor(m int) []int {
	switch {
	case m <= 12:
		return []int{1, 3, 64}
	case m <= 20:
		return []int{1, 3}
	}
	return []int{1}
}

func TestFFTDevice(t *testing.T) {
	tr := testTransforms(t)
	r := rand.New(rand.NewPCG(7, 8))
	st, err := tr.d.NewStream()
	require.NoError(t, err)
	defer st.Close()
	for _, m := range deviceDims() {
		for _, zero := range []bool{true, false} {
			s := randomSubspace(t, r, m, zero)
			n := 1 << uint(m)
			for _, cols := range colsFor(m) {
				buf := gputest.Alloc[gf64.Element](t, tr.d, cols*n)
				for ci, tc := range transformCases {
					if m >= 24 && ci >= 4 && !zero {
						continue // the conversions are covered by FFT/IFFT at these sizes
					}
					x := randomVec(r, cols*n)
					want := slices.Clone(x)
					for c := 0; c < cols; c++ {
						require.NoError(t, tc.cpu(s, want[c*n:(c+1)*n]))
					}
					require.NoError(t, buf.Upload(x))
					var stream *gpu.Stream
					if cols == 3 {
						stream = st
					}
					require.NoError(t, tc.gpu(tr, stream, s, buf))
					if stream != nil {
						require.NoError(t, stream.Synchronize())
					}
					got := make([]gf64.Element, cols*n)
					require.NoError(t, buf.Download(got))
					testutil.RequireEqualSlices(t, want, got, "%s m=%d zeroShift=%v cols=%d: device against domain", tc.name, m, zero, cols)
				}
				buf.Free()
			}
			require.NoError(t, tr.Release(s))
		}
	}
	t.Logf("transforms bit-identical to domain for m in %v", deviceDims())
}

func TestLDEDevice(t *testing.T) {
	tr := testTransforms(t)
	r := rand.New(rand.NewPCG(9, 10))
	type shape struct{ k, log, cols int }
	shapes := []shape{{0, 1, 1}, {0, 4, 3}, {1, 1, 3}, {3, 2, 64}, {5, 4, 3}, {10, 1, 64}, {11, 2, 3}, {12, 4, 1},
		{13, 1, 64}, {16, 2, 3}, {18, 4, 1}, {20, 1, 1}, {22, 2, 1}, {24, 2, 1}, {20, 2, 64}}
	if testing.Short() {
		shapes = []shape{{0, 1, 1}, {3, 2, 64}, {11, 2, 3}, {13, 4, 1}, {16, 1, 3}}
	}
	for _, sh := range shapes {
		k, n, cols := sh.k, sh.k+sh.log, sh.cols
		from := randomSubspace(t, r, k, k%2 == 1)
		for name, to := range ldeTargets(t, r, from, n) {
			if n >= 24 && name == "other" {
				continue
			}
			src := randomVec(r, cols<<uint(k))
			want := make([]gf64.Element, cols<<uint(n))
			for c := 0; c < cols; c++ {
				require.NoError(t, domain.LDE(want[c<<uint(n):(c+1)<<uint(n)], src[c<<uint(k):(c+1)<<uint(k)], from, to))
			}
			dsrc := gputest.Alloc[gf64.Element](t, tr.d, len(src))
			ddst := gputest.Alloc[gf64.Element](t, tr.d, len(want))
			require.NoError(t, dsrc.Upload(src))
			require.NoError(t, tr.LDE(nil, ddst, dsrc, from, to))
			got := make([]gf64.Element, len(want))
			require.NoError(t, ddst.Download(got))
			testutil.RequireEqualSlices(t, want, got, "LDE 2^%d->2^%d (%s) cols=%d: device against domain", k, n, name, cols)
			back := make([]gf64.Element, len(src))
			require.NoError(t, dsrc.Download(back))
			testutil.RequireEqualSlices(t, src, back, "LDE 2^%d->2^%d modified src", k, n)
			// Host form through pinned memory.
			if n <= 20 {
				hs, hd := make([][]gf64.Element, cols), make([][]gf64.Element, cols)
				for c := range hs {
					hs[c] = src[c<<uint(k) : (c+1)<<uint(k)]
					hd[c] = make([]gf64.Element, 1<<uint(n))
				}
				require.NoError(t, tr.LDEBatch(hd, hs, from, to))
				testutil.RequireEqualSlices(t, want, slices.Concat(hd...), "LDEBatch 2^%d->2^%d (%s) cols=%d against domain", k, n, name, cols)
			}
			dsrc.Free()
			ddst.Free()
			tr.Release(from)
			tr.Release(to)
		}
	}
}

func TestFFTHostDevice(t *testing.T) {
	tr := testTransforms(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{0, 6, 13, 16} {
		s := randomSubspace(t, r, m, false)
		for _, ncols := range []int{1, 3, 64} {
			cols := make([][]gf64.Element, ncols)
			want := make([][]gf64.Element, ncols)
			for i := range cols {
				cols[i] = randomVec(r, 1<<uint(m))
				want[i] = slices.Clone(cols[i])
			}
			require.NoError(t, s.FFTBatch(want))
			require.NoError(t, tr.FFTHost(s, cols))
			testutil.RequireEqualColumns(t, want, cols, "FFTHost m=%d cols=%d", m, ncols)
			require.NoError(t, tr.IFFTHost(s, cols))
			require.NoError(t, s.IFFTBatch(want))
			testutil.RequireEqualColumns(t, want, cols, "IFFTHost m=%d cols=%d", m, ncols)
		}
	}
}

// TestHostChunks runs the host pipeline with chunks that end inside columns
// and a last chunk shorter than the others.
func TestHostChunks(t *testing.T) {
	tr := testTransforms(t)
	defer func(c int) { tr.chunk = c }(tr.chunk)
	tr.chunk = 1000
	r := rand.New(rand.NewPCG(13, 14))
	from := randomSubspace(t, r, 10, true)
	to := ldeTargets(t, r, from, 13)["prefix"]
	src, dst, want := make([][]gf64.Element, 5), make([][]gf64.Element, 5), make([][]gf64.Element, 5)
	for i := range src {
		src[i] = randomVec(r, 1<<10)
		dst[i] = make([]gf64.Element, 1<<13)
		want[i] = make([]gf64.Element, 1<<13)
		require.NoError(t, domain.LDE(want[i], src[i], from, to))
	}
	require.NoError(t, tr.LDEBatch(dst, src, from, to))
	testutil.RequireEqualColumns(t, want, dst, "LDEBatch with %d-element chunks against domain", tr.chunk)
	s := randomSubspace(t, r, 11, false)
	cols := make([][]gf64.Element, 3)
	for i := range cols {
		cols[i] = randomVec(r, 1<<11)
		want[i] = slices.Clone(cols[i])
		require.NoError(t, s.NovelFFT(want[i]))
	}
	require.NoError(t, tr.NovelFFTHost(s, cols))
	testutil.RequireEqualColumns(t, want[:3], cols, "NovelFFTHost with %d-element chunks against domain", tr.chunk)
	tr.Release(from)
	tr.Release(to)
	tr.Release(s)
}

func TestFFTDeviceErrors(t *testing.T) {
	tr := testTransforms(t)
	r := rand.New(rand.NewPCG(13, 14))
	s := randomSubspace(t, r, 4, false)
	big := randomSubspace(t, r, 6, false)
	b15 := gputest.Alloc[gf64.Element](t, tr.d, 15)
	defer b15.Free()
	b64 := gputest.Alloc[gf64.Element](t, tr.d, 64)
	defer b64.Free()
	b16 := gputest.Alloc[gf64.Element](t, tr.d, 16)
	defer b16.Free()
	check := func(name string, err, target error) {
		t.Helper()
		assert.ErrorIs(t, err, target, name)
	}
	check("FFT on 15 elements", tr.FFT(nil, s, b15), gpu.ErrLength)
	check("FFT on nil subspace", tr.FFT(nil, nil, b16), domain.ErrMismatch)
	check("LDE to a smaller space", tr.LDE(nil, b16, b64, big, s), domain.ErrMismatch)
	check("LDE short dst", tr.LDE(nil, b16, b16, s, big), gpu.ErrLength)
	v, err := b64.View(0, 16)
	require.NoError(t, err)
	check("LDE overlapping", tr.LDE(nil, b64, v, s, big), ErrOverlap)
	check("LDEBatch ragged", tr.LDEBatch([][]gf64.Element{make([]gf64.Element, 64)}, [][]gf64.Element{make([]gf64.Element, 15)}, s, big), gpu.ErrLength)
	assert.Error(t, tr.FFT(nil, s, nil), "FFT on a nil buffer")
	freed, err := gpu.Alloc[gf64.Element](tr.d, 16)
	require.NoError(t, err)
	require.NoError(t, freed.Free())
	check("FFT on a freed buffer", tr.FFT(nil, s, freed), gpu.ErrClosed)
	_, err = New(nil)
	check("New(nil)", err, gpu.ErrNoDevice)
}

func TestLDEOutOfMemory(t *testing.T) {
	tr := testTransforms(t)
	free, _, err := tr.d.MemInfo()
	require.NoError(t, err)
	// A batch whose scratch cannot fit: the error says how much it needs.
	r := rand.New(rand.NewPCG(15, 16))
	from := randomSubspace(t, r, 20, false)
	to := randomSubspace(t, r, 21, false)
	cols := int(free>>23) + 64 // scratch alone exceeds free memory
	// No buffers that large exist: the addresses are never used, since the
	// scratch allocation fails before any launch.
	pf, err := tr.plan(from)
	require.NoError(t, err)
	pt, err := tr.plan(to)
	require.NoError(t, err)
	err = tr.ldeAt(nil, 1<<46, 1<<40, pf, pt, from, to, cols)
	require.ErrorIs(t, err, gpu.ErrOutOfMemory, "LDE needing %d bytes of scratch with %d free", cols<<23, free)
	t.Logf("as expected: %v", err)
	tr.Release(from)
	tr.Release(to)
}

func ExampleTransforms_LDEBatch() {
	from, _ := domain.New(0, 1, 2, 4)             // 8 points
	to, _ := domain.New(0, 1, 2, 4, 8, 16)        // 32 points, containing from
	msg := []gf64.Element{1, 2, 3, 4, 5, 6, 7, 8} // values over from
	cw := make([]gf64.Element, to.Size())
	tr, err := Open()
	if err != nil {
		// No GPU: domain gives the same bits on the CPU.
		if err := domain.LDE(cw, msg, from, to); err != nil {
			fmt.Println(err)
			return
		}
	} else {
		defer tr.Close()
		if err := tr.LDEBatch([][]gf64.Element{cw}, [][]gf64.Element{msg}, from, to); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, x := range cw[:8] { // the codeword restricted to from is the message
		fmt.Print(uint64(x), " ")
	}
	fmt.Println()
	// Output: 1 2 3 4 5 6 7 8
}

// TestCopyRange checks the staging copy on ranges that start and end inside
// columns, with and without the parallel split.
func TestCopyRange(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct{ cols, n int }{{1, 1}, {3, 7}, {5, 1 << 15}, {2, 1 << 17}} {
		total := c.cols * c.n
		cols := make([][]gf64.Element, c.cols)
		for i := range cols {
			cols[i] = randomVec(r, c.n)
		}
		flat := slices.Concat(cols...)
		for range 20 {
			lo := r.IntN(total)
			hi := lo + r.IntN(total-lo+1)
			want := make([]gf64.Element, total)
			copy(want[lo:hi], flat[lo:hi])
			check := func(dir string, got []gf64.Element) {
				testutil.RequireEqualSlices(t, want, got, "cols=%d n=%d [%d,%d): %s", c.cols, c.n, lo, hi, dir)
			}
			p := make([]gf64.Element, total)
			copyRange(p, cols, c.n, lo, hi, true)
			check("to pinned", p)
			back := make([][]gf64.Element, c.cols)
			for i := range back {
				back[i] = make([]gf64.Element, c.n)
			}
			copyRange(p, back, c.n, lo, hi, false)
			check("from pinned", slices.Concat(back...))
		}
	}
}
