package rs

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// fuzzCode builds a code from fuzz input: k, n−k and the kind of the space
// pair from the first bytes, the spaces themselves from a generator seeded
// with the rest, or, for kind 5, basis elements read from the input (so the
// fuzzer can reach odd subspaces; dependent ones are skipped).
func fuzzCode(t *testing.T, data []byte) (*Code, *rand.Rand, bool) {
	if len(data) < 3 {
		return nil, nil, false
	}
	k, blow, kind := int(data[0]%7), 1+int(data[1]%3), int(data[2]%(numKinds+1))
	data = data[3:]
	var seed [32]byte
	copy(seed[:], data)
	r := rand.New(rand.NewChaCha8(seed))
	var S, T *domain.Subspace
	if kind < numKinds {
		S, T = spaces(t, r, kind, k, k+blow)
	} else {
		elems := make([]gf64.Element, 2+2*k+blow)
		for i := range elems {
			var b [8]byte
			if len(data) > 0 {
				n := copy(b[:], data)
				data = data[n:]
			}
			elems[i] = gf64.Element(binary.LittleEndian.Uint64(b[:]))
		}
		var err1, err2 error
		S, err1 = domain.New(elems[0], elems[2:2+k]...)
		T, err2 = domain.New(elems[1], elems[2+k:]...)
		if err1 != nil || err2 != nil {
			return nil, nil, false
		}
	}
	c, err := New(S, T)
	require.NoError(t, err, "New(%v, %v)", S, T)
	return c, r, true
}

var fuzzSeeds = [][]byte{
	{0, 0, 0}, {1, 1, 1, 9}, {3, 2, 2, 1, 2, 3}, {6, 2, 3, 7}, {5, 0, 4, 1}, {4, 1, 0, 0xff},
	{2, 1, 5, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 8},
	{1, 2, 5, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1},
}

func FuzzEncode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, r, ok := fuzzCode(t, data)
		if !ok {
			return
		}
		msg := randVec(r, c.MessageLen())
		keep := append([]gf64.Element(nil), msg...)
		dst := make([]gf64.Element, c.CodewordLen())
		require.NoError(t, c.Encode(dst, msg))
		testutil.RequireEqualSlices(t, keep, msg, "Encode modified msg")
		want := naiveEncode(c.MessageSpace().Elements(), c.CodewordSpace().Elements(), msg)
		testutil.RequireEqualSlices(t, want, dst, "%v → %v: Encode against the Lagrange interpolant", c.MessageSpace(), c.CodewordSpace())
		batch := [][]gf64.Element{make([]gf64.Element, c.CodewordLen())}
		require.NoError(t, c.EncodeBatch(batch, [][]gf64.Element{msg}))
		testutil.RequireEqualSlices(t, dst, batch[0], "EncodeBatch against Encode")
		for i := range msg {
			if p, ok := c.Position(i); ok {
				require.Equal(t, msg[i], dst[p], "message symbol %d at position %d", i, p)
			}
		}
	})
}

func FuzzVerify(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint16(3), uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, delta uint64) {
		c, r, ok := fuzzCode(t, data)
		if !ok {
			return
		}
		cw := make([]gf64.Element, c.CodewordLen())
		require.NoError(t, c.Encode(cw, randVec(r, c.MessageLen())))
		cw[int(pos)%len(cw)] ^= gf64.Element(delta)
		keep := append([]gf64.Element(nil), cw...)
		got, err := c.Verify(cw)
		require.NoError(t, err)
		require.Equal(t, delta == 0, got, "Verify with symbol %d changed by %#x", int(pos)%len(cw), delta)
		testutil.RequireEqualSlices(t, keep, cw, "Verify modified word")
	})
}

func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, []byte{0xa5, 0x0f, 0xff, 0x00, 0x3c})
	}
	f.Fuzz(func(t *testing.T, data, mask []byte) {
		c, r, ok := fuzzCode(t, data)
		if !ok {
			return
		}
		N, K := c.CodewordLen(), c.MessageLen()
		msg := randVec(r, K)
		cw := make([]gf64.Element, N)
		require.NoError(t, c.Encode(cw, msg))
		present := make([]bool, N)
		have := 0
		for i := range present {
			present[i] = len(mask) > 0 && mask[(i/8)%len(mask)]>>(i%8)&1 == 1
			if present[i] {
				have++
			} else {
				cw[i] = randElem(r) // garbage where erased
			}
		}
		keep := append([]gf64.Element(nil), cw...)
		got := make([]gf64.Element, K)
		err := c.Decode(got, cw, present)
		if have < K {
			require.ErrorIs(t, err, ErrTooFewSymbols, "%d of %d present, need %d", have, N, K)
			return
		}
		require.NoError(t, err)
		testutil.RequireEqualSlices(t, msg, got, "decoded message")
		testutil.RequireEqualSlices(t, keep, cw, "Decode modified word")
		if have > K {
			for i, p := range present {
				if p {
					cw[i] ^= 1
					break
				}
			}
			require.ErrorIs(t, c.Reconstruct(make([]gf64.Element, N), cw, present), ErrNotCodeword, "corrupted present symbol")
		}
	})
}
