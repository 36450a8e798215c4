package fermat

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

func randBig(rng *rand.Rand, nbits int) *big.Int {
	w := make([]big.Word, (nbits+63)/64+1)
	for i := range w {
		w[i] = big.Word(rng.Uint64())
	}
	x := new(big.Int).SetBits(w)
	x.Rsh(x, uint(len(w)*64-nbits))
	if rng.IntN(2) == 0 {
		x.Neg(x)
	}
	return x
}

func TestMulBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	sizes := []int{1, 63, 64, 65, 239, 240, 241, 1000, 5000, 30000, 123457}
	if !testing.Short() {
		sizes = append(sizes, 1<<20)
	}
	if testutil.Long() {
		sizes = append(sizes, 1<<22)
	}
	for _, xb := range sizes {
		for _, yb := range []int{1, 240, 4097, xb} {
			x, y := randBig(rng, xb), randBig(rng, yb)
			got, err := MulBig(x, y)
			require.NoError(t, err)
			want := new(big.Int).Mul(x, y)
			require.Equal(t, 0, want.Cmp(got), "%d×%d bits", xb, yb)
		}
	}
	// all-ones operands: every chunk and every coefficient at its maximum
	for _, nb := range []int{240, 241, 4800, 100000} {
		x := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(nb)), big.NewInt(1))
		got, err := MulBig(x, x)
		require.NoError(t, err)
		assert.Equal(t, 0, new(big.Int).Mul(x, x).Cmp(got), "(2^%d−1)²", nb)
	}
	x := big.NewInt(12345)
	got, err := MulBig(x, new(big.Int))
	require.NoError(t, err)
	assert.Equal(t, 0, got.Sign())
	assert.Equal(t, int64(12345), x.Int64(), "operand unchanged")
	_, err = MulBig(nil, x)
	require.ErrorIs(t, err, ErrNil)
	_, err = MulBig(x, nil)
	require.ErrorIs(t, err, ErrNil)
}

func TestChunkBits(t *testing.T) {
	for _, m := range []int{1, 240, 1 << 20, 1 << 28, 1 << 34} {
		b := chunkBits(m, m)
		tt := (m + b - 1) / b
		// t products below 2^(2b) sum below 2^504 < p
		bound := new(big.Int).Lsh(big.NewInt(int64(tt)), uint(2*b))
		bound.Sub(bound, big.NewInt(1))
		assert.Less(t, bound.Cmp(Modulus()), 0, "m=%d b=%d", m, b)
		assert.LessOrEqual(t, b, 252)
	}
	assert.Equal(t, 240, chunkBits(1<<24*240, 1<<24*240))
}
