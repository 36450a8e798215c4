package prover

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDrawWordExhaustive runs the rejection sampler on every word of one
// and two bytes, for every modulus of one byte and a few of two, with and
// without a mask: each residue must be accepted equally often (as often as
// the mask keeps its bits), every other word rejected.
func TestDrawWordExhaustive(t *testing.T) {
	for _, tc := range []struct {
		size int
		mask uint64
		qs   []uint64
	}{
		{1, 0xff, rangeU(1, 256)},
		{1, 0x7f, rangeU(1, 128)},
		{1, 0x3f, []uint64{1, 2, 3, 33, 63, 64}},
		{2, 0x7fff, []uint64{1, 3, 257, 12289, 32767, 32768}},
		{2, 0xffff, []uint64{2, 65521, 0}},
	} {
		words := 1 << (8 * tc.size)
		for _, q := range tc.qs {
			count := map[uint64]int{}
			rejected := 0
			buf := make([]byte, tc.size)
			for w := range words {
				for i := range buf {
					buf[i] = byte(w >> (8 * i))
				}
				v, err := drawWord(bytes.NewReader(buf), tc.size, tc.mask, q)
				if err != nil {
					rejected++ // the stream ended: the word was rejected
					continue
				}
				count[v]++
			}
			span := q
			if q == 0 {
				span = tc.mask + 1
			}
			per := words / int(tc.mask+1) // words per masked value
			require.Len(t, count, int(span), "size %d mask %#x q %d", tc.size, tc.mask, q)
			for v, n := range count {
				require.Less(t, v, span)
				require.Equal(t, per, n, "size %d mask %#x q %d: residue %d", tc.size, tc.mask, q, v)
			}
			require.Equal(t, words-per*int(span), rejected)
		}
	}
}

func rangeU(lo, hi uint64) []uint64 {
	var out []uint64
	for q := lo; q <= hi; q++ {
		out = append(out, q)
	}
	return out
}

// TestGoldilocksReduce checks the reduction of three-word sums against
// math/big, at random and at the extremes.
func TestGoldilocksReduce(t *testing.T) {
	p := new(big.Int).SetUint64(0xffffffff00000001)
	r := rand.New(rand.NewPCG(1, 2))
	edge := []uint64{0, 1, 0xffffffff, 0x100000000, 0xffffffff00000000, 0xffffffff00000001, 0xffffffff00000002, ^uint64(0) - 1, ^uint64(0)}
	check := func(top, mid, lo uint64) {
		v := new(big.Int).SetUint64(top)
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(mid))
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(lo))
		v.Mod(v, p)
		require.Equal(t, v.Uint64(), goldilocksReduce(top, mid, lo), "%#x %#x %#x", top, mid, lo)
	}
	for _, top := range []uint64{0, 1, 64, 1 << 20, 0xfffffffe} {
		for _, mid := range edge {
			for _, lo := range edge {
				check(top, mid, lo)
			}
		}
	}
	for range 100000 {
		check(r.Uint64N(1<<31), r.Uint64(), r.Uint64())
	}
}
