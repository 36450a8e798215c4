package poseidon2

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/require"
)

// eachPath runs f with the 16-lane kernel on (where this CPU and build
// have it) and off, as subtests named after the path.
func eachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := useKernel
	defer func() { useKernel = saved }()
	if haveKernel {
		useKernel = true
		t.Run("kernel=avx512", f)
	} else {
		t.Log("no kernels here (no AVX-512, or purego, or not amd64): the Go path only")
	}
	useKernel = false
	t.Run("kernel=go", f)
}

func modulusOf[E Element]() uint64 {
	switch fieldOf[E]() {
	case fieldBabyBear:
		return pBabyBear
	case fieldKoalaBear:
		return pKoalaBear
	}
	return pGoldilocks
}

// randElems returns n elements, about one in eight of them 0, 1, 2, p−1 or
// p−2, the others uniform.
func randElems[E Element](rng *rand.Rand, n int) []E {
	q := modulusOf[E]()
	v := make([]uint64, n)
	for i := range v {
		if rng.IntN(8) == 0 {
			v[i] = []uint64{0, 1, 2, q - 1, q - 2}[rng.IntN(5)]
		} else {
			v[i] = rng.Uint64N(q)
		}
	}
	return fromCanonical[E](v)
}

// toCanonical returns the canonical integers of v.
func toCanonical[E Element](v []E) []uint64 {
	out := make([]uint64, len(v))
	for i := range v {
		switch z := any(&v[i]).(type) {
		case *babybear.Element:
			out[i] = z.Uint64()
		case *koalabear.Element:
			out[i] = z.Uint64()
		case *goldilocks.Element:
			out[i] = z.Uint64()
		}
	}
	return out
}

func mustNew[E Element](t testing.TB, preset Preset, width int, opts ...Option) *Permutation[E] {
	t.Helper()
	p, err := New[E](preset, width, opts...)
	require.NoError(t, err)
	return p
}

// shapes are the presets' fields and widths, run by one generic body.
type shape struct {
	name  string
	width int
}

var shapes31 = []shape{{"16", 16}, {"24", 24}}
var shapesGL = []shape{{"8", 8}, {"12", 12}}

var presets = []Preset{Plonky3, Gnark}

// onEach runs body[E] for every field, preset and width as subtests.
func onEach(t *testing.T, bb func(*testing.T, Preset, int), kb func(*testing.T, Preset, int), gl func(*testing.T, Preset, int)) {
	t.Helper()
	for _, pr := range presets {
		for _, s := range shapes31 {
			t.Run("BabyBear/"+pr.String()+"/"+s.name, func(t *testing.T) { bb(t, pr, s.width) })
			t.Run("KoalaBear/"+pr.String()+"/"+s.name, func(t *testing.T) { kb(t, pr, s.width) })
		}
		for _, s := range shapesGL {
			t.Run("Goldilocks/"+pr.String()+"/"+s.name, func(t *testing.T) { gl(t, pr, s.width) })
		}
	}
}
