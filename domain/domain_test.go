package domain

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func TestNewErrors(t *testing.T) {
	_, err := New(5, 1, 2, 0)
	if !errors.Is(err, ErrDependent) || !strings.Contains(err.Error(), "basis[2] is zero") {
		t.Fatalf("zero basis element: %v", err)
	}
	_, err = New(5, 1, 2, 4, 7, 8)
	if !errors.Is(err, ErrDependent) || !strings.Contains(err.Error(), "basis[3]") ||
		!strings.HasPrefix(err.Error(), "domain: ") {
		t.Fatalf("dependent basis element: %v", err)
	}
	big := make([]gf64.Element, MaxDim+1)
	if _, err := New(0, big...); !errors.Is(err, ErrDim) {
		t.Fatalf("too many basis elements: %v", err)
	}
	// All 64 unit vectors are a basis of the whole field, but more than MaxDim.
	full := make([]gf64.Element, MaxDim)
	for i := range full {
		full[i] = 1 << uint(i)
	}
	s, err := New(0, full...)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FFT(make([]gf64.Element, 4)); !errors.Is(err, ErrDim) {
		t.Fatalf("transform on a huge subspace: %v", err)
	}
}

func TestSubspaceElements(t *testing.T) {
	r := newRand(t, 1)
	for m := 0; m <= 8; m++ {
		for kind := 0; kind < 4; kind++ {
			s := randSubspace(t, r, m, kind)
			els := s.Elements()
			if len(els) != s.Size() || s.Dim() != m || s.Size() != 1<<uint(m) {
				t.Fatalf("m=%d: sizes", m)
			}
			seen := map[gf64.Element]bool{}
			for i, x := range els {
				want := s.Shift()
				for j, b := range s.Basis() {
					if i>>uint(j)&1 == 1 {
						want ^= b
					}
				}
				if x != want || s.Element(i) != want {
					t.Fatalf("m=%d: element %d = %v, want %v", m, i, x, want)
				}
				if seen[x] {
					t.Fatalf("m=%d: repeated element", m)
				}
				seen[x] = true
				if !s.Contains(x) {
					t.Fatalf("m=%d: Contains(%v) false", m, x)
				}
				if j, ok := s.Index(x); !ok || j != i {
					t.Fatalf("m=%d: Index(%v) = %d, %v, want %d", m, x, j, ok, i)
				}
			}
			for range 20 {
				x := randElem(r)
				_, ok := s.Index(x)
				if ok != seen[x] || s.Contains(x) != seen[x] {
					t.Fatalf("m=%d: membership of %v", m, x)
				}
			}
		}
	}
}

func TestSubspaceHelpers(t *testing.T) {
	r := newRand(t, 2)
	s := randSubspace(t, r, 5, 0)
	e, err := s.Extend(randElem(r), randElem(r))
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 7 || !slices.Equal(e.Elements()[:32], s.Elements()) {
		t.Fatal("Extend does not keep s as its first elements")
	}
	if _, err := s.Extend(s.Basis()[1]); !errors.Is(err, ErrDependent) {
		t.Fatalf("Extend with a dependent element: %v", err)
	}
	w, err := s.WithShift(123)
	if err != nil || w.Shift() != 123 || !slices.Equal(w.Basis(), s.Basis()) {
		t.Fatalf("WithShift: %v", err)
	}
	sub, err := s.Sub(3)
	if err != nil || !slices.Equal(sub.Elements(), s.Elements()[:8]) {
		t.Fatalf("Sub: %v", err)
	}
	if _, err := s.Sub(6); !errors.Is(err, ErrDim) {
		t.Fatalf("Sub(6): %v", err)
	}
	b := s.Basis()
	b[0] ^= 1
	if s.Basis()[0] == b[0] {
		t.Fatal("Basis does not return a copy")
	}
	if s.String() == "" {
		t.Fatal("empty String")
	}
}

// TestFFTNaive compares FFT with Horner's rule at every point (m ≤ 12) and
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
			if err := s.FFT(a); err != nil {
				t.Fatal(err)
			}
			check := func(i int) {
				if want := horner(c, s.Element(i)); a[i] != want {
					t.Fatalf("m=%d kind=%d: FFT[%d] = %v, want %v", m, kind, i, a[i], want)
				}
			}
			if m <= 10 || (m <= 12 && (!testing.Short() || kind == 0)) {
				for i := range a {
					check(i)
				}
			} else {
				for range 64 {
					check(r.IntN(len(a)))
				}
			}
			if err := s.IFFT(a); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, c) {
				t.Fatalf("m=%d kind=%d: IFFT(FFT(c)) != c", m, kind)
			}
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
		if err := s.FFT(a); err != nil {
			t.Fatal(err)
		}
		for range 16 {
			i := r.IntN(len(a))
			if want := horner(c, s.Element(i)); a[i] != want {
				t.Fatalf("m=%d: FFT[%d] wrong", m, i)
			}
		}
		if err := s.IFFT(a); err != nil || !slices.Equal(a, c) {
			t.Fatalf("m=%d: round trip failed (%v)", m, err)
		}
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
			if err := s.FFT(want); err != nil {
				t.Fatal(err)
			}
			if err := s.FFTTrunc(c, k); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c, want) {
				t.Fatalf("m=%d: FFTTrunc(%d) differs from FFT", m, k)
			}
		}
		if err := s.FFTTrunc(make([]gf64.Element, s.Size()), s.Size()+1); !errors.Is(err, ErrLength) {
			t.Fatalf("FFTTrunc with too many coefficients: %v", err)
		}
	}
}

func TestNovelNaive(t *testing.T) {
	r := newRand(t, 6)
	for m := 0; m <= 7; m++ {
		for kind := 0; kind < 4; kind++ {
			s := randSubspace(t, r, m, kind)
			d := randVec(r, s.Size())
			a := slices.Clone(d)
			if err := s.NovelFFT(a); err != nil {
				t.Fatal(err)
			}
			for i := range a {
				if want := novelEval(s.Basis(), d, s.Element(i)); a[i] != want {
					t.Fatalf("m=%d kind=%d: NovelFFT[%d] = %v, want %v", m, kind, i, a[i], want)
				}
			}
			if err := s.NovelIFFT(a); err != nil || !slices.Equal(a, d) {
				t.Fatalf("m=%d: novel round trip (%v)", m, err)
			}
			// Conversions: the novel coefficients of a polynomial evaluate
			// to the same values as its monomial coefficients.
			c := slices.Clone(d)
			if err := s.NovelToMonomial(c); err != nil {
				t.Fatal(err)
			}
			for range 8 {
				x := randElem(r)
				if horner(c, x) != novelEval(s.Basis(), d, x) {
					t.Fatalf("m=%d: NovelToMonomial wrong at %v", m, x)
				}
			}
			if err := s.MonomialToNovel(c); err != nil || !slices.Equal(c, d) {
				t.Fatalf("m=%d: MonomialToNovel(NovelToMonomial(d)) != d (%v)", m, err)
			}
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
		if err := s.FFT(want); err != nil {
			t.Fatal(err)
		}
		a := slices.Clone(c)
		if err := s.MonomialToNovel(a); err != nil {
			t.Fatal(err)
		}
		if err := s.NovelFFT(a); err != nil || !slices.Equal(a, want) {
			t.Fatalf("m=%d: NovelFFT∘MonomialToNovel != FFT", m)
		}
		if err := s.NovelIFFT(a); err != nil {
			t.Fatal(err)
		}
		if err := s.NovelToMonomial(a); err != nil || !slices.Equal(a, c) {
			t.Fatalf("m=%d: inverse path", m)
		}
	}
}

func ldeRef(t *testing.T, src []gf64.Element, from, to *Subspace) []gf64.Element {
	t.Helper()
	c := make([]gf64.Element, to.Size())
	copy(c, src)
	if err := from.IFFT(c[:from.Size()]); err != nil {
		t.Fatal(err)
	}
	if err := to.FFT(c); err != nil {
		t.Fatal(err)
	}
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
				if err := LDE(dst, src, from, to); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(dst, want) {
					t.Fatalf("k=%d n=%d target %d: LDE != FFT∘IFFT", k, n, ti)
				}
				if !slices.Equal(src, orig) {
					t.Fatal("LDE modified src")
				}
				// dst aliasing src.
				buf := make([]gf64.Element, to.Size())
				copy(buf, src)
				if err := from.LDE(buf, buf[:from.Size()], to); err != nil || !slices.Equal(buf, want) {
					t.Fatalf("k=%d n=%d target %d: aliased LDE (%v)", k, n, ti, err)
				}
			}
		}
	}
}

func TestLDEErrors(t *testing.T) {
	r := newRand(t, 9)
	s := randSubspace(t, r, 3, 0)
	big := randSubspace(t, r, 4, 0)
	if err := LDE(make([]gf64.Element, 8), make([]gf64.Element, 16), big, s); !errors.Is(err, ErrMismatch) {
		t.Fatalf("smaller target: %v", err)
	}
	if err := LDE(make([]gf64.Element, 16), make([]gf64.Element, 7), s, big); !errors.Is(err, ErrLength) {
		t.Fatalf("short src: %v", err)
	}
	if err := LDE(make([]gf64.Element, 15), make([]gf64.Element, 8), s, big); !errors.Is(err, ErrLength) {
		t.Fatalf("short dst: %v", err)
	}
	if err := LDE(nil, nil, nil, s); !errors.Is(err, ErrMismatch) {
		t.Fatalf("nil subspace: %v", err)
	}
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
		if !errors.Is(err, ErrLength) || !strings.Contains(err.Error(), "15") ||
			!strings.Contains(err.Error(), "16") || !strings.Contains(err.Error(), name) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if !slices.Equal(a, orig) {
		t.Fatal("input modified on error")
	}
	cols := [][]gf64.Element{randVec(r, 16), randVec(r, 16), randVec(r, 8)}
	c0 := slices.Clone(cols[0])
	if err := s.FFTBatch(cols); !errors.Is(err, ErrLength) || !strings.Contains(err.Error(), "column 2") {
		t.Fatalf("FFTBatch: %v", err)
	}
	if !slices.Equal(cols[0], c0) {
		t.Fatal("FFTBatch touched a column before failing")
	}
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
		batch  func([][]gf64.Element) error
		single func([]gf64.Element) error
	}{
		{s.FFTBatch, s.FFT}, {s.IFFTBatch, s.IFFT},
		{s.NovelFFTBatch, s.NovelFFT}, {s.NovelIFFTBatch, s.NovelIFFT},
	}
	for oi, op := range ops {
		for i := range cols {
			copy(cols[i], orig[i])
		}
		if err := op.batch(cols); err != nil {
			t.Fatal(err)
		}
		for i := range cols {
			want := slices.Clone(orig[i])
			if err := op.single(want); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cols[i], want) {
				t.Fatalf("op %d column %d differs", oi, i)
			}
		}
	}
	to, err := s.Extend(randElem(r), randElem(r))
	if err != nil {
		t.Fatal(err)
	}
	dst := make([][]gf64.Element, len(cols))
	for i := range dst {
		dst[i] = make([]gf64.Element, to.Size())
	}
	if err := LDEBatch(dst, orig, s, to); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if !slices.Equal(dst[i], ldeRef(t, orig[i], s, to)) {
			t.Fatalf("LDEBatch column %d differs", i)
		}
	}
	if err := LDEBatch(dst[:2], orig, s, to); !errors.Is(err, ErrLength) {
		t.Fatalf("LDEBatch count mismatch: %v", err)
	}
}

func TestConcurrent(t *testing.T) {
	r := newRand(t, 12)
	s := randSubspace(t, r, 11, 0) // the plan is built by the racing goroutines
	c := randVec(r, s.Size())
	want := slices.Clone(c)
	ref, _ := New(s.Shift(), s.Basis()...)
	if err := ref.FFT(want); err != nil {
		t.Fatal(err)
	}
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
		t.Fatal(err)
	}
}

func TestZeroAllocs(t *testing.T) {
	r := newRand(t, 13)
	s := randSubspace(t, r, 12, 0)
	to, _ := s.Extend(randElem(r))
	a := randVec(r, s.Size())
	dst := make([]gf64.Element, to.Size())
	_ = s.FFT(a) // build the plans
	_ = to.FFT(dst)
	for name, f := range map[string]func(){
		"FFT":       func() { _ = s.FFT(a) },
		"IFFT":      func() { _ = s.IFFT(a) },
		"NovelFFT":  func() { _ = s.NovelFFT(a) },
		"NovelIFFT": func() { _ = s.NovelIFFT(a) },
		"FFTTrunc":  func() { _ = s.FFTTrunc(a, 100) },
		"LDE":       func() { _ = LDE(dst, a, s, to) },
	} {
		if n := testing.AllocsPerRun(10, f); n != 0 {
			t.Errorf("%s: %v allocations per run", name, n)
		}
	}
}
