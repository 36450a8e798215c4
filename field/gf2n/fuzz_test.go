package gf2n

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// fuzzField picks a field from a byte of the fuzzer's input.
func fuzzField(t *testing.T, sel uint8) *Field {
	sz := Sizes()
	fd, err := New(sz[int(sel)%len(sz)])
	require.NoError(t, err)
	return fd
}

// wordsFrom reads little-endian words from data, zero-padded to a multiple
// of w and cut at max words.
func wordsFrom(data []byte, w, max int) []uint64 {
	n := min((len(data)+7)/8, max)
	n = (n + w - 1) / w * w
	v := make([]uint64, n)
	var buf [8]byte
	for i := range v {
		if 8*i >= len(data) {
			break
		}
		clear(buf[:])
		copy(buf[:], data[8*i:])
		v[i] = binary.LittleEndian.Uint64(buf[:])
	}
	return v
}

func fuzzSeeds(f *testing.F) {
	seed := make([]byte, 2*8*32)
	for i := range seed {
		seed[i] = byte(i*37 + 11)
	}
	for sel := range uint8(5) {
		f.Add(sel, seed)
		f.Add(sel, slices.Repeat([]byte{0xff}, 2*8*32))
	}
	f.Add(uint8(0), []byte{})
	f.Add(uint8(1), []byte{1})
}

// FuzzMul compares Mul and Square on every path with the bit-by-bit
// reference, on two elements taken from the fuzzer's input.
func FuzzMul(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		fd := fuzzField(t, sel)
		w := fd.Words()
		v := wordsFrom(data, 2*w, 2*w)
		v = append(v, make([]uint64, 2*w-len(v))...)
		x, y := v[:w], v[w:]
		want, wantSq := refMul(fd, x, y), refMul(fd, x, x)
		z := make([]uint64, w)
		for _, name := range cpufeat.Available("gf2n") {
			restore := cpufeat.Select("gf2n", name)
			fd.Mul(z, x, y)
			testutil.RequireEqualSlices(t, want, z, "%s: Mul", name)
			fd.Square(z, x)
			testutil.RequireEqualSlices(t, wantSq, z, "%s: Square", name)
			restore()
		}
	})
}

// FuzzMulVec compares MulVec on every path with the generic product, element
// by element, on batches taken from the fuzzer's input (the first half of
// the words are x, the second y; a trailing odd word makes the lengths
// differ, which must be refused).
func FuzzMulVec(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		fd := fuzzField(t, sel)
		w := fd.Words()
		all := wordsFrom(data, 1, 2*w*40)
		half := len(all) / 2
		x, y := all[:half], all[half:]
		z := make([]uint64, len(x))
		if len(x) != len(y) || len(x)%w != 0 {
			for _, name := range cpufeat.Available("gf2n") {
				restore := cpufeat.Select("gf2n", name)
				require.ErrorIs(t, fd.MulVec(z, x, y), ErrLength, "%s: %d and %d words", name, len(x), len(y))
				restore()
			}
			return
		}
		want := make([]uint64, len(x))
		for i := 0; i < len(x); i += w {
			fd.mulGeneric(want[i:i+w], x[i:i+w], y[i:i+w])
		}
		for _, name := range cpufeat.Available("gf2n") {
			restore := cpufeat.Select("gf2n", name)
			require.NoError(t, fd.MulVec(z, x, y))
			testutil.RequireEqualSlices(t, want, z, "%s: %d elements", name, len(x)/w)
			restore()
		}
	})
}
