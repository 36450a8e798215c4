package rs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
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
	require.NoError(t, err)
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
	require.NoError(t, S.IFFT(c))
	out := make([]gf64.Element, T.Size())
	copy(out, c)
	require.NoError(t, T.FFT(out))
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
			if k+blow > testutil.Sweep(17, 18, 20) { // codewords to 2^18 (2^20 under GFPOLY_LONG)
				continue
			}
			n := k + blow
			kind := (k + blow) % numKinds
			S, T := spaces(t, r, kind, k, n)
			c, err := New(S, T)
			require.NoError(t, err, "k=%d n=%d %s", k, n, kindName(kind))
			msg := randVec(r, 1<<k)
			keep := slices.Clone(msg)
			dst := randVec(r, 1<<n)
			require.NoError(t, c.Encode(dst, msg))
			testutil.RequireEqualSlices(t, keep, msg, "k=%d n=%d: Encode modified msg", k, n)
			want := lde(t, S, T, msg)
			testutil.RequireEqualSlices(t, want, dst, "k=%d n=%d %s: Encode against T.FFT(S.IFFT(msg))", k, n, kindName(kind))
			// The naive interpolant, everywhere for small k, at sampled
			// points otherwise.
			if k <= 7 {
				testutil.RequireEqualSlices(t, naiveEncode(S.Elements(), T.Elements(), msg), dst,
					"k=%d n=%d %s: Encode against the Lagrange interpolant", k, n, kindName(kind))
			} else {
				coeffs := slices.Clone(msg)
				require.NoError(t, S.IFFT(coeffs))
				for range 4 {
					i := r.IntN(1 << n)
					require.Equal(t, hornerEval(coeffs, T.Element(i)), dst[i], "k=%d n=%d: Encode[%d] against Horner's rule", k, n, i)
				}
			}
			checkLayout(t, c, kind, msg, dst)
			// EncodeCoeffs, with all and with fewer coefficients.
			coeffs := slices.Clone(msg)
			require.NoError(t, S.IFFT(coeffs))
			for _, l := range []int{1 << k, 1 + r.IntN(1<<k)} {
				in := coeffs[:l]
				keep := slices.Clone(in)
				got := make([]gf64.Element, 1<<n)
				require.NoError(t, c.EncodeCoeffs(got, in))
				testutil.RequireEqualSlices(t, keep, in, "EncodeCoeffs modified coeffs")
				want := make([]gf64.Element, 1<<n)
				copy(want, in)
				require.NoError(t, T.FFT(want))
				testutil.RequireEqualSlices(t, want, got, "k=%d n=%d: EncodeCoeffs(%d coefficients) against T.FFT", k, n, l)
			}
		}
	}
}

// checkLayout checks the layout New found and, for systematic codes, that the
// message sits at the documented positions.
func checkLayout(t *testing.T, c *Code, kind int, msg, cw []gf64.Element) {
	t.Helper()
	want := General
	if kind == kindPrefix || kind == kindNested || kind == kindZeroShift {
		want = Systematic
	}
	require.Equal(t, want, c.Layout(), "%s: layout", kindName(kind))
	for i := range msg {
		p, ok := c.Position(i)
		require.Equal(t, want == Systematic, ok, "Position(%d) ok", i)
		if !ok {
			continue
		}
		if kind != kindNested {
			require.Equal(t, i, p, "%s: Position(%d)", kindName(kind), i)
		}
		require.Equal(t, msg[i], cw[p], "%s: message symbol %d at codeword position %d", kindName(kind), i, p)
		require.Equal(t, c.MessageSpace().Element(i), c.CodewordSpace().Element(p), "Position(%d) = %d names the message point", i, p)
	}
	_, ok := c.Position(len(msg))
	require.False(t, ok, "Position out of range reported ok")
}

func TestVerify(t *testing.T) {
	r := newRand(t, 5)
	for k := 0; k <= 10; k++ {
		for blow := 1; blow <= 4; blow++ {
			n := k + blow
			kind := (2*k + blow) % numKinds
			S, T := spaces(t, r, kind, k, n)
			c, err := New(S, T)
			require.NoError(t, err)
			cw := make([]gf64.Element, 1<<n)
			require.NoError(t, c.Encode(cw, randVec(r, 1<<k)))
			keep := slices.Clone(cw)
			ok, err := c.Verify(cw)
			require.NoError(t, err)
			require.True(t, ok, "k=%d n=%d: Verify(codeword)", k, n)
			testutil.RequireEqualSlices(t, keep, cw, "Verify modified word")
			// Every position for small n, a sample otherwise.
			for trial := 0; trial < min(1<<n, 64); trial++ {
				i := trial
				if n > 6 {
					i = r.IntN(1 << n)
				}
				cw[i] ^= gf64.Element(1 + r.Uint64()>>1)
				ok, err := c.Verify(cw)
				require.NoError(t, err)
				require.False(t, ok, "k=%d n=%d: Verify accepted a codeword with symbol %d changed", k, n, i)
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
			require.NoError(t, err)
			N, K := 1<<n, 1<<k
			msg := randVec(r, K)
			cw := make([]gf64.Element, N)
			require.NoError(t, c.Encode(cw, msg))
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
				require.NoError(t, c.Decode(got, word, present), "k=%d n=%d %s erase=%d", k, n, kindName(kind), erase)
				testutil.RequireEqualSlices(t, msg, got, "k=%d n=%d %s erase=%d: decoded message", k, n, kindName(kind), erase)
				full := make([]gf64.Element, N)
				require.NoError(t, c.Reconstruct(full, word, present))
				testutil.RequireEqualSlices(t, cw, full, "k=%d n=%d erase=%d: reconstructed codeword", k, n, erase)
				testutil.RequireEqualSlices(t, wkeep, word, "decoding modified the word")
				testutil.RequireEqualSlices(t, pkeep, present, "decoding modified the mask")
				// In place.
				require.NoError(t, c.Reconstruct(word, word, present))
				testutil.RequireEqualSlices(t, cw, word, "in-place Reconstruct")
			}
			// One position beyond the limit.
			present := erasePattern(r, n, N-K+1, 0)
			err = c.Decode(make([]gf64.Element, K), cw, present)
			require.ErrorIs(t, err, ErrTooFewSymbols, "k=%d n=%d: %d present", k, n, K-1)
			assert.Contains(t, err.Error(), fmt.Sprintf("need at least %d", K))
			// A wrong present symbol, with redundancy left, is detected.
			present = erasePattern(r, n, r.IntN(N-K), 0)
			word := slices.Clone(cw)
			for i, p := range present {
				if p {
					word[i] ^= 1
					break
				}
			}
			require.ErrorIs(t, c.Reconstruct(make([]gf64.Element, N), word, present), ErrNotCodeword, "k=%d n=%d: corrupted word: Reconstruct", k, n)
			require.ErrorIs(t, c.Decode(make([]gf64.Element, K), word, present), ErrNotCodeword, "k=%d n=%d: corrupted word: Decode", k, n)
		}
	}
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
		assert.Nil(t, c, "%s: New returned a code", tc.name)
		if !assert.Error(t, err, tc.name) {
			continue
		}
		if tc.want != nil {
			require.ErrorIs(t, err, tc.want, tc.name)
		}
		assert.Regexp(t, "^rs: ", err.Error(), "%s: the error names the package", tc.name)
	}
	// Too large a codeword space; a message space whose shift lies in T but
	// whose span does not.
	big := mustSub(t, 0, randBasis(r, 41)...)
	_, err := New(S3, big)
	require.ErrorIs(t, err, ErrDimension, "41-dimensional codeword space")
	half := mustSub(t, 5, b[0], randElem(r))
	if c, err := New(half, T6); assert.NoError(t, err, "shift inside, span outside") {
		assert.Equal(t, General, c.Layout(), "shift inside, span outside")
	}
	_, err = New(half, T6, WithSystematic())
	require.ErrorIs(t, err, ErrNotNested, "shift inside, span outside, WithSystematic")
	c, err := New(S3, T6, WithSystematic(), WithWorkers(3))
	require.NoError(t, err, "New(nested, WithSystematic)")
	assert.Equal(t, Systematic, c.Layout(), "New(nested, WithSystematic)")
	assert.Equal(t, 8, c.MessageLen(), "MessageLen")
	assert.Equal(t, 64, c.CodewordLen(), "CodewordLen")
	c, err = New(S3, Tdis)
	require.NoError(t, err, "New(disjoint)")
	assert.Equal(t, General, c.Layout(), "New(disjoint)")
	assert.Equal(t, "Layout(7)", Layout(7).String())
	assert.Equal(t, "general", General.String())
	assert.Equal(t, "systematic", Systematic.String())
}

func TestLengthErrors(t *testing.T) {
	r := newRand(t, 8)
	S, T := spaces(t, r, kindPrefix, 3, 5)
	c, err := New(S, T)
	require.NoError(t, err)
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
		require.ErrorIs(t, err, ErrLength, name)
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
			require.NoError(t, err)
			msgs := make([][]gf64.Element, tc.cols)
			dst := make([][]gf64.Element, tc.cols)
			for i := range msgs {
				msgs[i] = randVec(r, 1<<tc.k)
				dst[i] = randVec(r, 1<<tc.n)
			}
			require.NoError(t, c.EncodeBatch(dst, msgs))
			for i := range msgs {
				want := lde(t, S, T, msgs[i])
				testutil.RequireEqualSlices(t, want, dst[i], "%+v %s: column %d against T.FFT(S.IFFT)", tc, kindName(kind), i)
				// Encode with the same worker setting (WithWorkers(1) is
				// its serial path).
				one := make([]gf64.Element, 1<<tc.n)
				require.NoError(t, c.Encode(one, msgs[i]))
				testutil.RequireEqualSlices(t, want, one, "%+v %s: Encode of column %d", tc, kindName(kind), i)
			}
		}
	}
}

// TestConcurrent encodes and decodes from many goroutines on one Code.
func TestConcurrent(t *testing.T) {
	r := newRand(t, 10)
	S, T := spaces(t, r, kindCoset, 12, 14)
	c, err := New(S, T, WithWorkers(3))
	require.NoError(t, err)
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
				if !slices.Equal(dst, want) {
					errs <- fmt.Errorf("goroutine %d: wrong codeword", g)
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
		assert.NoError(t, err)
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	r := newRand(t, 11)
	S, T := spaces(t, r, kindCoset, 12, 14)
	c, err := New(S, T, WithWorkers(2))
	require.NoError(t, err)
	msgs := [][]gf64.Element{randVec(r, 1<<12), randVec(r, 1<<12), randVec(r, 1<<12)}
	dst := [][]gf64.Element{make([]gf64.Element, 1<<14), make([]gf64.Element, 1<<14), make([]gf64.Element, 1<<14)}
	// Warm the pools and start the helpers.
	for range 3 {
		require.NoError(t, c.EncodeBatch(dst, msgs))
		require.NoError(t, c.Encode(dst[0], msgs[0]))
	}
	// rs itself allocates nothing; domain's batch LDE, which each worker
	// runs per column, is the only source of allocations.
	perCall := testing.AllocsPerRun(20, func() {
		_ = domain.LDEBatch(dst[:1], msgs[:1], c.MessageSpace(), c.CodewordSpace())
	})
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { _ = c.EncodeBatch(dst, msgs) }), perCall*float64(len(msgs)),
		"EncodeBatch, 2 workers: allocations per call, at most what domain's LDE accounts for")
	// With the default workers the whole batch is one domain call.
	all, err := New(c.MessageSpace(), c.CodewordSpace())
	require.NoError(t, err)
	require.NoError(t, all.EncodeBatch(dst, msgs))
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { _ = all.EncodeBatch(dst, msgs) }), perCall,
		"EncodeBatch, default workers: allocations per call, at most what domain's LDE accounts for")
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = c.Encode(dst[0], msgs[0]) }), "Encode: allocations per call")
}
