package rs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestReconstructAtMatchesMask checks ReconstructAt and DecodeAt against
// Reconstruct and Decode with the equivalent mask, for systematic and general
// codes, with exactly 2^k and with more pairs, given in random order.
func TestReconstructAtMatchesMask(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	S, err := domain.New(3, 1, 2, 4)
	require.NoError(t, err)
	T, err := S.Extend(8, 16)
	require.NoError(t, err)
	U, err := domain.New(0x1234, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		S, T *domain.Subspace
	}{{"systematic", S, T}, {"general", S, U}} {
		c, err := New(tc.S, tc.T)
		require.NoError(t, err)
		N, K := c.CodewordLen(), c.MessageLen()
		for _, have := range []int{K, K + 3, N} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, have), func(t *testing.T) {
				msg := randVec(r, K)
				cw := make([]gf64.Element, N)
				require.NoError(t, c.Encode(cw, msg))
				pos := r.Perm(N)[:have]
				vals := make([]gf64.Element, have)
				present := make([]bool, N)
				for i, p := range pos {
					vals[i] = cw[p]
					present[p] = true
				}
				keepPos, keepVals := slices.Clone(pos), slices.Clone(vals)

				got := randVec(r, N)
				require.NoError(t, c.ReconstructAt(got, pos, vals))
				want := make([]gf64.Element, N)
				require.NoError(t, c.Reconstruct(want, cw, present))
				testutil.RequireEqualSlices(t, cw, got, "ReconstructAt returns the codeword")
				testutil.RequireEqualSlices(t, cw, want, "Reconstruct with the equivalent mask returns the codeword")
				m := randVec(r, K)
				require.NoError(t, c.DecodeAt(m, pos, vals))
				testutil.RequireEqualSlices(t, msg, m, "DecodeAt returns the message")
				assert.Equal(t, keepPos, pos, "positions modified")
				testutil.EqualSlices(t, keepVals, vals, "values modified")
				if have > K {
					vals[0] ^= 1
					require.ErrorIs(t, c.DecodeAt(m, pos, vals), ErrNotCodeword, "one wrong value among %d", have)
				}
			})
		}
	}
}

// TestReconstructAtErrors checks each bad argument and that a rejected call
// leaves dst untouched.
func TestReconstructAtErrors(t *testing.T) {
	S, err := domain.New(0, 1, 2)
	require.NoError(t, err)
	T, err := S.Extend(4)
	require.NoError(t, err)
	c, err := New(S, T)
	require.NoError(t, err)
	vals := []gf64.Element{1, 2, 3, 4}
	for _, tc := range []struct {
		name string
		pos  []int
		vals []gf64.Element
		dst  int
		want error
	}{
		{"dst length", []int{0, 1, 2, 3}, vals, 5, ErrLength},
		{"values length", []int{0, 1, 2, 3}, vals[:3], 8, ErrLength},
		{"too few", []int{0, 1, 2}, vals[:3], 8, ErrTooFewSymbols},
		{"negative", []int{0, -1, 2, 3}, vals, 8, ErrPosition},
		{"too large", []int{0, 1, 8, 3}, vals, 8, ErrPosition},
		{"repeated", []int{0, 1, 1, 3}, vals, 8, ErrPosition},
	} {
		dst := make([]gf64.Element, tc.dst)
		for i := range dst {
			dst[i] = 99
		}
		keep := slices.Clone(dst)
		require.ErrorIs(t, c.ReconstructAt(dst, tc.pos, tc.vals), tc.want, "%s: ReconstructAt", tc.name)
		assert.Equal(t, keep, dst, "%s: dst changed", tc.name)
		if tc.dst == 8 {
			require.ErrorIs(t, c.DecodeAt(make([]gf64.Element, 4), tc.pos, tc.vals), tc.want, "%s: DecodeAt", tc.name)
		}
	}
	require.ErrorIs(t, c.DecodeAt(make([]gf64.Element, 3), []int{0, 1, 2, 3}, vals), ErrLength, "msg length")
}

// FuzzDecodeAt decodes from caller-chosen positions (any ints, repeats and
// out-of-range ones included): the call must either return the message or
// one of the documented errors, never panic.
func FuzzDecodeAt(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
		f.Add(s, []byte{3, 3, 200, 1, 0x80})
	}
	f.Fuzz(func(t *testing.T, data, raw []byte) {
		c, r, ok := fuzzCode(t, data)
		if !ok {
			return
		}
		N, K := c.CodewordLen(), c.MessageLen()
		msg := randVec(r, K)
		cw := make([]gf64.Element, N)
		require.NoError(t, c.Encode(cw, msg))
		pos := make([]int, len(raw))
		vals := make([]gf64.Element, len(raw))
		seen := map[int]bool{}
		valid := true
		for i, b := range raw {
			pos[i] = int(int8(b)) * (N/64 + 1) // negatives, and past N for small codes
			if pos[i] < 0 || pos[i] >= N || seen[pos[i]] {
				valid = false
				continue
			}
			seen[pos[i]] = true
			vals[i] = cw[pos[i]]
		}
		got := make([]gf64.Element, K)
		err := c.DecodeAt(got, pos, vals)
		switch {
		case len(raw) < K:
			require.ErrorIs(t, err, ErrTooFewSymbols, "%d pairs, need %d", len(raw), K)
		case !valid:
			require.ErrorIs(t, err, ErrPosition, "bad positions %v", pos)
		default:
			require.NoError(t, err)
			testutil.RequireEqualSlices(t, msg, got, "DecodeAt returns the message")
		}
	})
}
