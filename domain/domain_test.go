package domain

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestNewErrors(t *testing.T) {
	_, err := New(5, 1, 2, 0)
	require.ErrorIs(t, err, ErrDependent, "zero basis element")
	assert.Contains(t, err.Error(), "basis[2] is zero")
	_, err = New(5, 1, 2, 4, 7, 8)
	require.ErrorIs(t, err, ErrDependent, "dependent basis element")
	assert.Contains(t, err.Error(), "basis[3]")
	assert.Regexp(t, "^domain: ", err.Error())
	big := make([]gf64.Element, MaxDim+1)
	_, err = New(0, big...)
	require.ErrorIs(t, err, ErrDim, "too many basis elements")
	// All 64 unit vectors are a basis of the whole field, but more than MaxDim.
	full := make([]gf64.Element, MaxDim)
	for i := range full {
		full[i] = 1 << uint(i)
	}
	s, err := New(0, full...)
	require.NoError(t, err)
	require.ErrorIs(t, s.FFT(make([]gf64.Element, 4)), ErrDim, "transform on a huge subspace")
}

func TestSubspaceElements(t *testing.T) {
	r := newRand(t, 1)
	for m := 0; m <= 8; m++ {
		for kind := 0; kind < 4; kind++ {
			s := randSubspace(t, r, m, kind)
			els := s.Elements()
			require.Equal(t, m, s.Dim(), "Dim")
			require.Equal(t, 1<<uint(m), s.Size(), "m=%d: Size", m)
			require.Len(t, els, s.Size(), "m=%d: Elements", m)
			want := make([]gf64.Element, len(els))
			for i := range want {
				want[i] = s.Shift()
				for j, b := range s.Basis() {
					if i>>uint(j)&1 == 1 {
						want[i] ^= b
					}
				}
			}
			testutil.RequireEqualSlices(t, want, els, "m=%d kind=%d: Elements", m, kind)
			seen := map[gf64.Element]bool{}
			for i, x := range els {
				require.Equal(t, want[i], s.Element(i), "m=%d: Element(%d)", m, i)
				require.False(t, seen[x], "m=%d: repeated element %v", m, x)
				seen[x] = true
				require.True(t, s.Contains(x), "m=%d: Contains(%v)", m, x)
				j, ok := s.Index(x)
				require.True(t, ok, "m=%d: Index(%v) not found", m, x)
				require.Equal(t, i, j, "m=%d: Index(%v)", m, x)
			}
			for range 20 {
				x := randElem(r)
				_, ok := s.Index(x)
				require.Equal(t, seen[x], ok, "m=%d: Index reports membership of %v", m, x)
				require.Equal(t, seen[x], s.Contains(x), "m=%d: Contains(%v)", m, x)
			}
		}
	}
}

func TestSubspaceHelpers(t *testing.T) {
	r := newRand(t, 2)
	s := randSubspace(t, r, 5, 0)
	e, err := s.Extend(randElem(r), randElem(r))
	require.NoError(t, err)
	assert.Equal(t, 7, e.Dim(), "Extend by two elements")
	testutil.EqualSlices(t, s.Elements(), e.Elements()[:32], "Extend keeps s as its first elements")
	_, err = s.Extend(s.Basis()[1])
	require.ErrorIs(t, err, ErrDependent, "Extend with a dependent element")
	w, err := s.WithShift(123)
	require.NoError(t, err)
	assert.Equal(t, gf64.Element(123), w.Shift(), "WithShift")
	assert.Equal(t, s.Basis(), w.Basis(), "WithShift keeps the basis")
	sub, err := s.Sub(3)
	require.NoError(t, err)
	assert.Equal(t, s.Elements()[:8], sub.Elements(), "Sub(3)")
	_, err = s.Sub(6)
	require.ErrorIs(t, err, ErrDim, "Sub(6)")
	b := s.Basis()
	b[0] ^= 1
	assert.NotEqual(t, b[0], s.Basis()[0], "Basis returns a copy")
	assert.NotEmpty(t, s.String())
}

// TestFFTNaive compares FFT with Horner's rule at every point (m ≤ 10, and
// m ≤ 12 for the first kind of subspace; every kind under GFPOLY_LONG) and
// at sampled points for larger m, and checks IFFT∘FFT = id.
func TestFFTNaive(t *testing.T) {
	r := newRand(t, 3)
	maxM := 16 // above 2^15 the conversion runs as fused passes
	if testing.Short() {
		maxM = 15
	}
	for m := 0; m <= maxM; m++ {
		for kind := 0; kind < 4; kind++ {
			s := randSubspace(t, r, m, kind)
			c := randVec(r, s.Size())
			a := slices.Clone(c)
			require.NoError(t, s.FFT(a))
			if m <= 10 || (m <= 12 && (testutil.Long() || kind == 0)) {
				want := make([]gf64.Element, len(a))
				for i := range want {
					want[i] = horner(c, s.Element(i))
				}
				testutil.RequireEqualSlices(t, want, a, "m=%d kind=%d: FFT against Horner's rule", m, kind)
			} else {
				for range 64 {
					i := r.IntN(len(a))
					require.Equal(t, horner(c, s.Element(i)), a[i], "m=%d kind=%d: FFT[%d] against Horner's rule", m, kind, i)
				}
			}
			require.NoError(t, s.IFFT(a))
			testutil.RequireEqualSlices(t, c, a, "m=%d kind=%d: IFFT(FFT(c))", m, kind)
		}
	}
}

func TestFFTLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large transform")
	}
	r := newRand(t, 4)
	for _, m := range []int{17, 20} {
		s := randSubspace(t, r, m, 0)
		c := randVec(r, s.Size())
		a := slices.Clone(c)
		require.NoError(t, s.FFT(a))
		for range 16 {
			i := r.IntN(len(a))
			require.Equal(t, horner(c, s.Element(i)), a[i], "m=%d: FFT[%d] against Horner's rule", m, i)
		}
		require.NoError(t, s.IFFT(a))
		testutil.RequireEqualSlices(t, c, a, "m=%d: IFFT(FFT(c))", m)
	}
}

func TestFFTTrunc(t *testing.T) {
	r := newRand(t, 5)
	for m := 0; m <= 9; m++ {
		s := randSubspace(t, r, m, m%4)
		for _, k := range []int{0, 1, 2, 3, s.Size() / 2, s.Size()/2 + 1, s.Size() - 1, s.Size()} {
			if k < 0 || k > s.Size() {
				continue
			}
			c := randVec(r, s.Size())
			want := slices.Clone(c)
			clear(want[k:])
			require.NoError(t, s.FFT(want))
			require.NoError(t, s.FFTTrunc(c, k))
			testutil.RequireEqualSlices(t, want, c, "m=%d: FFTTrunc(%d) against FFT", m, k)
		}
		err := s.FFTTrunc(make([]gf64.Element, s.Size()), s.Size()+1)
		require.ErrorIs(t, err, ErrLength, "FFTTrunc with too many coefficients")
	}
}

func TestNovelNaive(t *testing.T) {
	r := newRand(t, 6)
	for m := 0; m <= 7; m++ {
		for kind := 0; kind < 4; kind++ {
			s := randSubspace(t, r, m, kind)
			d := randVec(r, s.Size())
			a := slices.Clone(d)
			require.NoError(t, s.NovelFFT(a))
			want := make([]gf64.Element, len(a))
			for i := range want {
				want[i] = novelEval(s.Basis(), d, s.Element(i))
			}
			testutil.RequireEqualSlices(t, want, a, "m=%d kind=%d: NovelFFT against the novel basis' definition", m, kind)
			require.NoError(t, s.NovelIFFT(a))
			testutil.RequireEqualSlices(t, d, a, "m=%d: NovelIFFT(NovelFFT(d))", m)
			// Conversions: the novel coefficients of a polynomial evaluate
			// to the same values as its monomial coefficients.
			c := slices.Clone(d)
			require.NoError(t, s.NovelToMonomial(c))
			for range 8 {
				x := randElem(r)
				require.Equal(t, novelEval(s.Basis(), d, x), horner(c, x), "m=%d: NovelToMonomial at %v", m, x)
			}
			require.NoError(t, s.MonomialToNovel(c))
			testutil.RequireEqualSlices(t, d, c, "m=%d: MonomialToNovel(NovelToMonomial(d))", m)
		}
	}
}

// TestNovelLarger checks the novel transforms for sizes with several chunks
// against FFT through the conversions.
func TestNovelLarger(t *testing.T) {
	r := newRand(t, 7)
	for _, m := range []int{10, 11, 13} {
		s := randSubspace(t, r, m, 0)
		c := randVec(r, s.Size())
		want := slices.Clone(c)
		require.NoError(t, s.FFT(want))
		a := slices.Clone(c)
		require.NoError(t, s.MonomialToNovel(a))
		require.NoError(t, s.NovelFFT(a))
		testutil.RequireEqualSlices(t, want, a, "m=%d: NovelFFT∘MonomialToNovel against FFT", m)
		require.NoError(t, s.NovelIFFT(a))
		require.NoError(t, s.NovelToMonomial(a))
		testutil.RequireEqualSlices(t, c, a, "m=%d: NovelToMonomial∘NovelIFFT∘NovelFFT∘MonomialToNovel", m)
	}
}

func ldeRef(t *testing.T, src []gf64.Element, from, to *Subspace) []gf64.Element {
	t.Helper()
	c := make([]gf64.Element, to.Size())
	copy(c, src)
	require.NoError(t, from.IFFT(c[:from.Size()]))
	require.NoError(t, to.FFT(c))
	return c
}

func TestLDE(t *testing.T) {
	r := newRand(t, 8)
	for k := 0; k <= 9; k++ {
		for extra := 0; extra <= 3; extra++ {
			from := randSubspace(t, r, k, k%4)
			n := k + extra
			var targets []*Subspace
			// Basis extended, same shift (T ⊇ S).
			more := randSubspace(t, r, extra, 0).Basis()
			if e, err := from.Extend(more...); err == nil {
				targets = append(targets, e)
				// A disjoint coset of the extension, and one inside it.
				if w, err := e.WithShift(randElem(r)); err == nil {
					targets = append(targets, w)
				}
				if extra > 0 {
					if w, err := e.WithShift(from.Shift() ^ more[0]); err == nil {
						targets = append(targets, w)
					}
				}
			}
			// An unrelated subspace of dimension n.
			targets = append(targets, randSubspace(t, r, n, r.IntN(4)))
			for ti, to := range targets {
				src := randVec(r, from.Size())
				want := ldeRef(t, src, from, to)
				dst := make([]gf64.Element, to.Size())
				orig := slices.Clone(src)
				require.NoError(t, LDE(dst, src, from, to))
				testutil.RequireEqualSlices(t, want, dst, "k=%d n=%d target %d: LDE against FFT∘IFFT", k, n, ti)
				testutil.RequireEqualSlices(t, orig, src, "LDE modified src")
				// dst aliasing src.
				buf := make([]gf64.Element, to.Size())
				copy(buf, src)
				require.NoError(t, from.LDE(buf, buf[:from.Size()], to))
				testutil.RequireEqualSlices(t, want, buf, "k=%d n=%d target %d: aliased LDE", k, n, ti)
			}
		}
	}
}

func TestLDEErrors(t *testing.T) {
	r := newRand(t, 9)
	s := randSubspace(t, r, 3, 0)
	big := randSubspace(t, r, 4, 0)
	require.ErrorIs(t, LDE(make([]gf64.Element, 8), make([]gf64.Element, 16), big, s), ErrMismatch, "smaller target")
	require.ErrorIs(t, LDE(make([]gf64.Element, 16), make([]gf64.Element, 7), s, big), ErrLength, "short src")
	require.ErrorIs(t, LDE(make([]gf64.Element, 15), make([]gf64.Element, 8), s, big), ErrLength, "short dst")
	require.ErrorIs(t, LDE(nil, nil, nil, s), ErrMismatch, "nil subspace")
}

func TestLengthErrors(t *testing.T) {
	r := newRand(t, 10)
	s := randSubspace(t, r, 4, 0)
	a := randVec(r, 15)
	orig := slices.Clone(a)
	for name, f := range map[string]func([]gf64.Element) error{
		"FFT": s.FFT, "IFFT": s.IFFT, "NovelFFT": s.NovelFFT, "NovelIFFT": s.NovelIFFT,
		"MonomialToNovel": s.MonomialToNovel, "NovelToMonomial": s.NovelToMonomial,
	} {
		err := f(a)
		require.ErrorIs(t, err, ErrLength, name)
		for _, want := range []string{"15", "16", name} {
			assert.Contains(t, err.Error(), want, "%s: the error names the lengths and the transform", name)
		}
	}
	assert.Equal(t, orig, a, "input modified on error")
	cols := [][]gf64.Element{randVec(r, 16), randVec(r, 16), randVec(r, 8)}
	c0 := slices.Clone(cols[0])
	err := s.FFTBatch(cols)
	require.ErrorIs(t, err, ErrLength, "FFTBatch")
	assert.Contains(t, err.Error(), "column 2")
	assert.Equal(t, c0, cols[0], "FFTBatch touched a column before failing")
}

func TestBatch(t *testing.T) {
	r := newRand(t, 11)
	s := randSubspace(t, r, 9, 0)
	cols := make([][]gf64.Element, 7)
	for i := range cols {
		cols[i] = randVec(r, s.Size())
	}
	orig := make([][]gf64.Element, len(cols))
	for i := range cols {
		orig[i] = slices.Clone(cols[i])
	}
	ops := []struct {
		name   string
		batch  func([][]gf64.Element) error
		single func([]gf64.Element) error
	}{
		{"FFT", s.FFTBatch, s.FFT}, {"IFFT", s.IFFTBatch, s.IFFT},
		{"NovelFFT", s.NovelFFTBatch, s.NovelFFT}, {"NovelIFFT", s.NovelIFFTBatch, s.NovelIFFT},
	}
	for _, op := range ops {
		for i := range cols {
			copy(cols[i], orig[i])
		}
		require.NoError(t, op.batch(cols), op.name)
		want := make([][]gf64.Element, len(cols))
		for i := range want {
			want[i] = slices.Clone(orig[i])
			require.NoError(t, op.single(want[i]), op.name)
		}
		testutil.RequireEqualColumns(t, want, cols, "%sBatch against %s per column", op.name, op.name)
	}
	to, err := s.Extend(randElem(r), randElem(r))
	require.NoError(t, err)
	dst := make([][]gf64.Element, len(cols))
	want := make([][]gf64.Element, len(cols))
	for i := range dst {
		dst[i] = make([]gf64.Element, to.Size())
		want[i] = ldeRef(t, orig[i], s, to)
	}
	require.NoError(t, LDEBatch(dst, orig, s, to))
	testutil.RequireEqualColumns(t, want, dst, "LDEBatch against FFT∘IFFT per column")
	require.ErrorIs(t, LDEBatch(dst[:2], orig, s, to), ErrLength, "LDEBatch count mismatch")
}

func TestConcurrent(t *testing.T) {
	r := newRand(t, 12)
	s := randSubspace(t, r, 11, 0) // the plan is built by the racing goroutines
	c := randVec(r, s.Size())
	want := slices.Clone(c)
	ref, err := New(s.Shift(), s.Basis()...)
	require.NoError(t, err)
	require.NoError(t, ref.FFT(want))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := slices.Clone(c)
			for range 3 {
				if err := s.FFT(a); err != nil {
					errs <- err
					return
				}
				if !slices.Equal(a, want) {
					errs <- fmt.Errorf("goroutine %d: wrong FFT", g)
					return
				}
				if err := s.IFFT(a); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestZeroAllocs(t *testing.T) {
	r := newRand(t, 13)
	s := randSubspace(t, r, 12, 0)
	to, err := s.Extend(randElem(r))
	require.NoError(t, err)
	a := randVec(r, s.Size())
	dst := make([]gf64.Element, to.Size())
	require.NoError(t, s.FFT(a)) // build the plans
	require.NoError(t, to.FFT(dst))
	other := randSubspace(t, r, to.Dim(), 0)
	require.NoError(t, other.FFT(dst))
	ops := map[string]func(){
		"FFT":             func() { _ = s.FFT(a) },
		"IFFT":            func() { _ = s.IFFT(a) },
		"NovelFFT":        func() { _ = s.NovelFFT(a) },
		"NovelIFFT":       func() { _ = s.NovelIFFT(a) },
		"FFTTrunc":        func() { _ = s.FFTTrunc(a, 100) },
		"LDE":             func() { _ = LDE(dst, a, s, to) },
		"LDE unrelated":   func() { _ = LDE(dst, a, s, other) },
		"MonomialToNovel": func() { _ = s.MonomialToNovel(a) },
		"NovelToMonomial": func() { _ = s.NovelToMonomial(a) },
	}
	// AllocsPerRun's warm-up call builds the plans of each kernel set.
	cpufeat.Each("domain", func(impl string) {
		for name, f := range ops {
			assert.Zero(t, testing.AllocsPerRun(10, f), "kernels %s: %s: allocations per run", impl, name)
		}
	})
}
