package ntt64

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bigP = new(big.Int).SetUint64(P)

func bigMod(x *big.Int) uint64 { return new(big.Int).Mod(x, bigP).Uint64() }

// edge values: around 0, 2^32, P and 2^64.
var edges = []uint64{0, 1, 2, eps - 1, eps, eps + 1, 1 << 32, 1<<63 - 1, 1 << 63, P - 2, P - 1}

// randCanonical draws values below P, a quarter of them edge values.
func randCanonical(rng *rand.Rand) uint64 {
	if rng.IntN(4) == 0 {
		return edges[rng.IntN(len(edges))]
	}
	return rng.Uint64N(P)
}

func TestFieldOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(a, b uint64) {
		x, y := new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
		assert.Equal(t, bigMod(new(big.Int).Add(x, y)), add(a, b), "add(%#x, %#x)", a, b)
		assert.Equal(t, bigMod(new(big.Int).Sub(x, y)), sub(a, b), "sub(%#x, %#x)", a, b)
		assert.Equal(t, bigMod(new(big.Int).Mul(x, y)), mul(a, b), "mul(%#x, %#x)", a, b)
	}
	for _, a := range edges {
		for _, b := range edges {
			check(a, b)
		}
	}
	for range 20000 {
		check(randCanonical(rng), randCanonical(rng))
	}
}

// TestReduce: reduce is right for every 128-bit input, not only products of
// canonical values; hi and lo near their limits exercise each correction.
func TestReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []uint64{0, 1, eps, 1 << 32, eps << 32, P - 1, P, P + 1, 1<<64 - 1, 1<<64 - 2}
	check := func(hi, lo uint64) {
		x := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		x.Or(x, new(big.Int).SetUint64(lo))
		assert.Equal(t, bigMod(x), reduce(hi, lo), "reduce(%#x, %#x)", hi, lo)
	}
	for _, hi := range words {
		for _, lo := range words {
			check(hi, lo)
		}
	}
	for range 20000 {
		check(rng.Uint64(), rng.Uint64())
		hi, lo := bits.Mul64(rng.Uint64(), rng.Uint64())
		check(hi, lo)
	}
}

// TestRootOfUnity: Root has order exactly 2^32, every RootOfUnity(k) order
// exactly 2^k, and the values are gnark-crypto's (goldilocks.Generator),
// written down here from its source: the 2^32-th root 1753635133440165772,
// and the roots of small orders of the Goldilocks field (−1, and the 4th
// root 2^48 up to sign, since 2^96 ≡ −1).
func TestRootOfUnity(t *testing.T) {
	for k := 0; k <= MaxLog; k++ {
		w := RootOfUnity(k)
		require.Equal(t, uint64(1), exp(w, 1<<k), "RootOfUnity(%d)^(2^%d)", k, k)
		if k > 0 {
			require.Equal(t, P-1, exp(w, 1<<(k-1)), "RootOfUnity(%d) is not primitive", k)
		}
	}
	assert.Equal(t, Root, RootOfUnity(32))
	assert.Equal(t, uint64(1), RootOfUnity(0))
	assert.Equal(t, P-1, RootOfUnity(1))
	w4 := RootOfUnity(2)
	assert.True(t, w4 == 1<<48 || w4 == P-1<<48, "RootOfUnity(2) = %#x is not ±2^48", w4)
	assert.Panics(t, func() { RootOfUnity(33) })
	assert.Panics(t, func() { RootOfUnity(-1) })
}

func TestInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		a := rng.Uint64N(P-1) + 1
		assert.Equal(t, uint64(1), mul(a, inverse(a)), "a·a^-1 for %#x", a)
	}
}
