package rs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// The kinds of (S, T) pairs the tests draw.
const (
	kindPrefix    = iota // T = S extended: systematic, message at positions 0..2^k−1
	kindNested           // S inside T, unrelated bases: systematic, scattered positions
	kindCoset            // T's basis starts with S's, shift outside: general (STARK)
	kindRandom           // unrelated random spaces: general
	kindZeroShift        // prefix with both shifts zero (linear spaces)
	numKinds
)

func kindName(kind int) string {
	return [...]string{"prefix", "nested", "coset", "random", "zeroshift"}[kind]
}

func mustSub(t testing.TB, shift gf64.Element, basis ...gf64.Element) *domain.Subspace {
	t.Helper()
	s, err := domain.New(shift, basis...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// spaces draws a message space of dimension k and a codeword space of
// dimension n of the given kind.
func spaces(t testing.TB, r *rand.Rand, kind, k, n int) (S, T *domain.Subspace) {
	t.Helper()
	switch kind {
	case kindPrefix, kindZeroShift:
		b := randBasis(r, n)
		shift := randElem(r)
		if kind == kindZeroShift {
			shift = 0
		}
		return mustSub(t, shift, b[:k]...), mustSub(t, shift, b...)
	case kindNested:
		b := randBasis(r, n)
		T = mustSub(t, randElem(r), b...)
		// k independent combinations of T's basis, and a shift inside T.
		for {
			sb := make([]gf64.Element, k)
			for i := range sb {
				sb[i] = point(0, b, 1+r.IntN((1<<n)-1))
			}
			if independent(sb) {
				return mustSub(t, T.Element(r.IntN(1<<n)), sb...), T
			}
		}
	case kindCoset:
		b := randBasis(r, n+1)
		// S = b[n] + span(b[:k]), T = span(b[:n]): disjoint.
		return mustSub(t, b[n], b[:k]...), mustSub(t, 0, b[:n]...)
	default:
		return mustSub(t, randElem(r), randBasis(r, k)...), mustSub(t, randElem(r), randBasis(r, n)...)
	}
}

// lde is the definition: T.FFT of S.IFFT(msg) zero-padded.
func lde(t testing.TB, S, T *domain.Subspace, msg []gf64.Element) []gf64.Element {
	t.Helper()
	c := slices.Clone(msg)
	if err := S.IFFT(c); err != nil {
		t.Fatal(err)
	}
	out := make([]gf64.Element, T.Size())
	copy(out, c)
	if err := T.FFT(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func maxK(t testing.TB) int {
	if testing.Short() {
		return 10
	}
	return 16
}

func TestEncode(t *testing.T) {
	r := newRand(t, 4)
	for k := 0; k <= maxK(t); k++ {
		for blow := 1; blow <= 4; blow++ {
			if k+blow > 17 && testing.Short() {
				continue
			}
			n := k + blow
			kind := (k + blow) % numKinds
			S, T := spaces(t, r, kind, k, n)
			c, err := New(S, T)
			if err != nil {
				t.Fatalf("k=%d n=%d %s: %v", k, n, kindName(kind), err)
			}
			msg := randVec(r, 1<<k)
			keep := slices.Clone(msg)
			dst := randVec(r, 1<<n)
			if err := c.Encode(dst, msg); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(msg, keep) {
				t.Fatalf("k=%d n=%d: Encode modified msg", k, n)
			}
			want := lde(t, S, T, msg)
			if i := firstDiff(dst, want); i >= 0 {
				t.Fatalf("k=%d n=%d %s: Encode[%d] = %v, T.FFT(S.IFFT(msg)) has %v", k, n, kindName(kind), i, dst[i], want[i])
			}
			// The naive interpolant, everywhere for small k, at sampled
			// points otherwise.
			if k <= 7 {
				if i := firstDiff(dst, naiveEncode(S.Elements(), T.Elements(), msg)); i >= 0 {
					t.Fatalf("k=%d n=%d %s: Encode differs from the Lagrange interpolant at %d", k, n, kindName(kind), i)
				}
			} else {
				coeffs := slices.Clone(msg)
				if err := S.IFFT(coeffs); err != nil {
					t.Fatal(err)
				}
				for range 4 {
					i := r.IntN(1 << n)
					if got, want := dst[i], hornerEval(coeffs, T.Element(i)); got != want {
						t.Fatalf("k=%d n=%d: Encode[%d] = %v, Horner gives %v", k, n, i, got, want)
					}
				}
			}
			checkLayout(t, c, kind, msg, dst)
			// EncodeCoeffs, with all and with fewer coefficients.
			coeffs := slices.Clone(msg)
			if err := S.IFFT(coeffs); err != nil {
				t.Fatal(err)
			}
			for _, l := range []int{1 << k, 1 + r.IntN(1<<k)} {
				in := coeffs[:l]
				keep := slices.Clone(in)
				got := make([]gf64.Element, 1<<n)
				if err := c.EncodeCoeffs(got, in); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(in, keep) {
					t.Fatal("EncodeCoeffs modified coeffs")
				}
				want := make([]gf64.Element, 1<<n)
				copy(want, in)
				if err := T.FFT(want); err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("k=%d n=%d: EncodeCoeffs(%d coefficients)[%d] differs", k, n, l, i)
				}
			}
		}
	}
}

func firstDiff(a, b []gf64.Element) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// checkLayout checks the layout New found and, for systematic codes, that the
// message sits at the documented positions.
func checkLayout(t *testing.T, c *Code, kind int, msg, cw []gf64.Element) {
	t.Helper()
	want := General
	if kind == kindPrefix || kind == kindNested || kind == kindZeroShift {
		want = Systematic
	}
	if c.Layout() != want {
		t.Fatalf("%s: layout %v, want %v", kindName(kind), c.Layout(), want)
	}
	for i := range msg {
		p, ok := c.Position(i)
		if ok != (want == Systematic) {
			t.Fatalf("Position(%d) ok = %v", i, ok)
		}
		if !ok {
			continue
		}
		if kind != kindNested && p != i {
			t.Fatalf("%s: Position(%d) = %d, want %d", kindName(kind), i, p, i)
		}
		if cw[p] != msg[i] {
			t.Fatalf("%s: message symbol %d is not at codeword position %d", kindName(kind), i, p)
		}
		if c.CodewordSpace().Element(p) != c.MessageSpace().Element(i) {
			t.Fatalf("Position(%d) = %d names another point", i, p)
		}
	}
	if _, ok := c.Position(len(msg)); ok {
		t.Fatal("Position out of range reported ok")
	}
}

func TestVerify(t *testing.T) {
	r := newRand(t, 5)
	for k := 0; k <= 10; k++ {
		for blow := 1; blow <= 4; blow++ {
			n := k + blow
			kind := (2*k + blow) % numKinds
			S, T := spaces(t, r, kind, k, n)
			c, err := New(S, T)
			if err != nil {
				t.Fatal(err)
			}
			cw := make([]gf64.Element, 1<<n)
			if err := c.Encode(cw, randVec(r, 1<<k)); err != nil {
				t.Fatal(err)
			}
			keep := slices.Clone(cw)
			if ok, err := c.Verify(cw); !ok || err != nil {
				t.Fatalf("k=%d n=%d: Verify(codeword) = %v, %v", k, n, ok, err)
			}
			if !slices.Equal(cw, keep) {
				t.Fatal("Verify modified word")
			}
			// Every position for small n, a sample otherwise.
			for trial := 0; trial < min(1<<n, 64); trial++ {
				i := trial
				if n > 6 {
					i = r.IntN(1 << n)
				}
				cw[i] ^= gf64.Element(1 + r.Uint64()>>1)
				if ok, err := c.Verify(cw); ok || err != nil {
					t.Fatalf("k=%d n=%d: Verify accepted a codeword with symbol %d changed (err %v)", k, n, i, err)
				}
				cw[i] = keep[i]
			}
		}
	}
}

func TestDecode(t *testing.T) {
	r := newRand(t, 6)
	for k := 0; k <= 9; k++ {
		for blow := 1; blow <= 3; blow++ {
			n := k + blow
			kind := (k + 2*blow) % numKinds
			S, T := spaces(t, r, kind, k, n)
			c, err := New(S, T)
			if err != nil {
				t.Fatal(err)
			}
			N, K := 1<<n, 1<<k
			msg := randVec(r, K)
			cw := make([]gf64.Element, N)
			if err := c.Encode(cw, msg); err != nil {
				t.Fatal(err)
			}
			for trial := range 6 {
				erase := N - K
				if trial > 1 {
					erase = r.IntN(N - K + 1)
				}
				present := erasePattern(r, n, erase, trial)
				word := slices.Clone(cw)
				for i, p := range present {
					if !p {
						word[i] = randElem(r)
					}
				}
				wkeep, pkeep := slices.Clone(word), slices.Clone(present)
				got := make([]gf64.Element, K)
				if err := c.Decode(got, word, present); err != nil {
					t.Fatalf("k=%d n=%d %s erase=%d: %v", k, n, kindName(kind), erase, err)
				}
				if i := firstDiff(got, msg); i >= 0 {
					t.Fatalf("k=%d n=%d %s erase=%d: message symbol %d wrong", k, n, kindName(kind), erase, i)
				}
				full := make([]gf64.Element, N)
				if err := c.Reconstruct(full, word, present); err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(full, cw); i >= 0 {
					t.Fatalf("k=%d n=%d erase=%d: codeword symbol %d wrong", k, n, erase, i)
				}
				if !slices.Equal(word, wkeep) || !slices.Equal(present, pkeep) {
					t.Fatal("decoding modified its input")
				}
				// In place.
				if err := c.Reconstruct(word, word, present); err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(word, cw); i >= 0 {
					t.Fatalf("in-place Reconstruct: symbol %d wrong", i)
				}
			}
			// One position beyond the limit.
			present := erasePattern(r, n, N-K+1, 0)
			err = c.Decode(make([]gf64.Element, K), cw, present)
			if !errors.Is(err, ErrTooFewSymbols) {
				t.Fatalf("k=%d n=%d: %d present: err = %v, want ErrTooFewSymbols", k, n, K-1, err)
			}
			if want := fmt.Sprintf("need at least %d", K); !containsStr(err.Error(), want) {
				t.Fatalf("error %q does not say %q", err, want)
			}
			// A wrong present symbol, with redundancy left, is detected.
			present = erasePattern(r, n, r.IntN(N-K), 0)
			word := slices.Clone(cw)
			for i, p := range present {
				if p {
					word[i] ^= 1
					break
				}
			}
			if err := c.Reconstruct(make([]gf64.Element, N), word, present); !errors.Is(err, ErrNotCodeword) {
				t.Fatalf("k=%d n=%d: corrupted word: err = %v, want ErrNotCodeword", k, n, err)
			}
			if err := c.Decode(make([]gf64.Element, K), word, present); !errors.Is(err, ErrNotCodeword) {
				t.Fatalf("k=%d n=%d: corrupted word: Decode err = %v, want ErrNotCodeword", k, n, err)
			}
		}
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestNewErrors(t *testing.T) {
	r := newRand(t, 7)
	b := randBasis(r, 6)
	S3 := mustSub(t, 5, b[:3]...)
	T3 := mustSub(t, 9, b[3:]...)
	T6 := mustSub(t, 5, b...)
	Tdis := mustSub(t, randElem(r), randBasis(r, 5)...)
	for _, tc := range []struct {
		name string
		s, t *domain.Subspace
		opts []Option
		want error
	}{
		{"equal dims", S3, T3, nil, ErrDimension},
		{"smaller codeword", T6, S3, nil, ErrDimension},
		{"nil message", nil, T6, nil, ErrDimension},
		{"nil codeword", S3, nil, nil, ErrDimension},
		{"systematic not nested", S3, Tdis, []Option{WithSystematic()}, ErrNotNested},
		{"zero workers", S3, T6, []Option{WithWorkers(0)}, nil},
		{"nil option", S3, T6, []Option{nil}, nil},
	} {
		c, err := New(tc.s, tc.t, tc.opts...)
		if err == nil || c != nil {
			t.Errorf("%s: New succeeded", tc.name)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if !containsStr(err.Error(), "rs: ") {
			t.Errorf("%s: error %q does not name the package", tc.name, err)
		}
	}
	// Too large a codeword space; a message space whose shift lies in T but
	// whose span does not.
	big := mustSub(t, 0, randBasis(r, 41)...)
	if _, err := New(S3, big); !errors.Is(err, ErrDimension) {
		t.Errorf("41-dimensional codeword space: err = %v", err)
	}
	half := mustSub(t, 5, b[0], randElem(r))
	if c, err := New(half, T6); err != nil || c.Layout() != General {
		t.Errorf("shift inside, span outside: %v, %v", c, err)
	}
	if _, err := New(half, T6, WithSystematic()); !errors.Is(err, ErrNotNested) {
		t.Errorf("shift inside, span outside, WithSystematic: err = %v", err)
	}
	c, err := New(S3, T6, WithSystematic(), WithWorkers(3))
	if err != nil || c.Layout() != Systematic || c.MessageLen() != 8 || c.CodewordLen() != 64 {
		t.Fatalf("New(nested, WithSystematic) = %v, %v", c, err)
	}
	if c, err := New(S3, Tdis); err != nil || c.Layout() != General {
		t.Fatalf("New(disjoint) = %v, %v", c, err)
	}
	if Layout(7).String() != "Layout(7)" || General.String() != "general" || Systematic.String() != "systematic" {
		t.Fatal("Layout.String")
	}
}

func TestLengthErrors(t *testing.T) {
	r := newRand(t, 8)
	S, T := spaces(t, r, kindPrefix, 3, 5)
	c, err := New(S, T)
	if err != nil {
		t.Fatal(err)
	}
	K, N := 8, 32
	vk, vn := randVec(r, K), randVec(r, N)
	all := make([]bool, N)
	for i := range all {
		all[i] = true
	}
	checks := map[string]error{
		"Encode short dst":       c.Encode(vn[:N-1], vk),
		"Encode nil msg":         c.Encode(vn, nil),
		"EncodeCoeffs nil":       c.EncodeCoeffs(vn, nil),
		"EncodeCoeffs long":      c.EncodeCoeffs(vn, vn),
		"EncodeCoeffs short dst": c.EncodeCoeffs(vk, vk),
		"EncodeBatch shapes":     c.EncodeBatch([][]gf64.Element{vn}, [][]gf64.Element{vk, vk}),
		"EncodeBatch short col":  c.EncodeBatch([][]gf64.Element{vn, vn[1:]}, [][]gf64.Element{vk, vk}),
		"EncodeBatch nil msg":    c.EncodeBatch([][]gf64.Element{vn}, [][]gf64.Element{nil}),
		"Reconstruct short mask": c.Reconstruct(vn, vn, all[1:]),
		"Reconstruct nil word":   c.Reconstruct(vn, nil, all),
		"Reconstruct short dst":  c.Reconstruct(vk, vn, all),
		"Decode long msg":        c.Decode(vn, vn, all),
		"Decode nil mask":        c.Decode(vk, vn, nil),
	}
	_, verr := c.Verify(vk)
	checks["Verify short"] = verr
	for name, err := range checks {
		if !errors.Is(err, ErrLength) {
			t.Errorf("%s: err = %v, want ErrLength", name, err)
		}
	}
}

func TestEncodeBatch(t *testing.T) {
	r := newRand(t, 9)
	for _, tc := range []struct{ k, n, cols, workers int }{
		{0, 1, 1, 1}, {3, 5, 7, 2}, {6, 8, 5, 3}, {10, 12, 9, 2}, {12, 13, 3, 4}, {4, 6, 0, 2},
		{7, 9, 4, 1}, {11, 13, 2, 1},
	} {
		for kind := range numKinds {
			S, T := spaces(t, r, kind, tc.k, tc.n)
			c, err := New(S, T, WithWorkers(tc.workers))
			if err != nil {
				t.Fatal(err)
			}
			msgs := make([][]gf64.Element, tc.cols)
			dst := make([][]gf64.Element, tc.cols)
			for i := range msgs {
				msgs[i] = randVec(r, 1<<tc.k)
				dst[i] = randVec(r, 1<<tc.n)
			}
			if err := c.EncodeBatch(dst, msgs); err != nil {
				t.Fatal(err)
			}
			for i := range msgs {
				want := lde(t, S, T, msgs[i])
				if j := firstDiff(dst[i], want); j >= 0 {
					t.Fatalf("%+v %s: column %d differs from T.FFT(S.IFFT) at %d", tc, kindName(kind), i, j)
				}
				// Encode with the same worker setting (WithWorkers(1) is
				// its serial path).
				one := make([]gf64.Element, 1<<tc.n)
				if err := c.Encode(one, msgs[i]); err != nil {
					t.Fatal(err)
				}
				if j := firstDiff(one, want); j >= 0 {
					t.Fatalf("%+v %s: Encode of column %d differs at %d", tc, kindName(kind), i, j)
				}
			}
		}
	}
}

// TestConcurrent encodes and decodes from many goroutines on one Code.
func TestConcurrent(t *testing.T) {
	r := newRand(t, 10)
	S, T := spaces(t, r, kindCoset, 12, 14)
	c, err := New(S, T, WithWorkers(3))
	if err != nil {
		t.Fatal(err)
	}
	msg := randVec(r, 1<<12)
	want := lde(t, S, T, msg)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dst := make([]gf64.Element, 1<<14)
			for range 3 {
				if err := c.Encode(dst, msg); err != nil {
					errs <- err
					return
				}
				if i := firstDiff(dst, want); i >= 0 {
					errs <- fmt.Errorf("goroutine %d: symbol %d", g, i)
					return
				}
				if err := c.EncodeBatch([][]gf64.Element{dst, make([]gf64.Element, 1<<14), make([]gf64.Element, 1<<14)},
					[][]gf64.Element{msg, msg, msg}); err != nil {
					errs <- err
					return
				}
				if ok, err := c.Verify(dst); !ok || err != nil {
					errs <- fmt.Errorf("goroutine %d: Verify = %v, %v", g, ok, err)
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

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	r := newRand(t, 11)
	S, T := spaces(t, r, kindCoset, 12, 14)
	c, err := New(S, T, WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	msgs := [][]gf64.Element{randVec(r, 1<<12), randVec(r, 1<<12), randVec(r, 1<<12)}
	dst := [][]gf64.Element{make([]gf64.Element, 1<<14), make([]gf64.Element, 1<<14), make([]gf64.Element, 1<<14)}
	// Warm the pools and start the helpers.
	for range 3 {
		if err := c.EncodeBatch(dst, msgs); err != nil {
			t.Fatal(err)
		}
		if err := c.Encode(dst[0], msgs[0]); err != nil {
			t.Fatal(err)
		}
	}
	// rs itself allocates nothing; domain's batch LDE, which each worker
	// runs per column, is the only source of allocations.
	perCall := testing.AllocsPerRun(20, func() {
		_ = domain.LDEBatch(dst[:1], msgs[:1], c.MessageSpace(), c.CodewordSpace())
	})
	if a := testing.AllocsPerRun(20, func() { _ = c.EncodeBatch(dst, msgs) }); a > perCall*float64(len(msgs)) {
		t.Errorf("EncodeBatch, 2 workers: %v allocations per call, domain's LDE accounts for %v", a, perCall*float64(len(msgs)))
	}
	// With the default workers the whole batch is one domain call.
	all, err := New(c.MessageSpace(), c.CodewordSpace())
	if err != nil {
		t.Fatal(err)
	}
	_ = all.EncodeBatch(dst, msgs)
	if a := testing.AllocsPerRun(20, func() { _ = all.EncodeBatch(dst, msgs) }); a > perCall {
		t.Errorf("EncodeBatch, default workers: %v allocations per call, domain's LDE accounts for %v", a, perCall)
	}
	if a := testing.AllocsPerRun(20, func() { _ = c.Encode(dst[0], msgs[0]) }); a > 0 {
		t.Errorf("Encode: %v allocations per call", a)
	}
}
