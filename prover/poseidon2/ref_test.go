package poseidon2

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbp2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glp2 "github.com/consensys/gnark-crypto/field/goldilocks/poseidon2"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbp2 "github.com/consensys/gnark-crypto/field/koalabear/poseidon2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refConstants is Poseidon2 as the paper defines it (Grassi, Khovratovich,
// Schofnegger, eprint 2023/323, sections 4 and 5): its permute works on
// canonical integers with math/big and the matrices written out, M_E the
// t×t matrix with blocks 2·M4 on the diagonal and M4 elsewhere, M_I =
// J + diag(V).
type refConstants struct {
	width, rf, rp, deg int
	m4                 [4][4]int64
	diag               []uint64
	ext                [][]uint64
	intl               []uint64
}

func refOf[E Element](prm Params[E]) refConstants {
	c := refConstants{width: prm.Width, rf: prm.FullRounds, rp: prm.PartialRounds, deg: prm.SBoxDegree,
		diag: toCanonical(prm.InternalDiag), intl: toCanonical(prm.InternalConstants)}
	for _, r := range prm.ExternalConstants {
		c.ext = append(c.ext, toCanonical(r))
	}
	c.m4 = [4][4]int64{{2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}}
	if prm.MDS == HLMDSMat4 {
		c.m4 = [4][4]int64{{5, 7, 1, 3}, {4, 6, 1, 1}, {1, 3, 5, 7}, {1, 1, 4, 6}}
	}
	return c
}

func (c refConstants) permute(q uint64, in []uint64) []uint64 {
	p := new(big.Int).SetUint64(q)
	t := c.width
	me := make([][]*big.Int, t)
	mi := make([][]*big.Int, t)
	for i := range t {
		me[i] = make([]*big.Int, t)
		mi[i] = make([]*big.Int, t)
		for j := range t {
			v := c.m4[i%4][j%4]
			if i/4 == j/4 {
				v *= 2
			}
			me[i][j] = big.NewInt(v)
			mi[i][j] = big.NewInt(1)
			if i == j {
				mi[i][j].Add(mi[i][j], new(big.Int).SetUint64(c.diag[i]))
			}
		}
	}
	x := make([]*big.Int, t)
	for i := range x {
		x[i] = new(big.Int).SetUint64(in[i])
	}
	mul := func(m [][]*big.Int) {
		y := make([]*big.Int, t)
		for i := range t {
			y[i] = new(big.Int)
			for j := range t {
				y[i].Add(y[i], new(big.Int).Mul(m[i][j], x[j]))
			}
			y[i].Mod(y[i], p)
		}
		x = y
	}
	d := big.NewInt(int64(c.deg))
	sbox := func(i int) { x[i].Exp(x[i], d, p) }
	full := func(rc []uint64) {
		for i := range t {
			x[i].Add(x[i], new(big.Int).SetUint64(rc[i]))
			sbox(i)
		}
		mul(me)
	}
	mul(me)
	for r := range c.rf / 2 {
		full(c.ext[r])
	}
	for r := range c.rp {
		x[0].Add(x[0], new(big.Int).SetUint64(c.intl[r]))
		sbox(0)
		mul(mi)
	}
	for r := c.rf / 2; r < c.rf; r++ {
		full(c.ext[r])
	}
	out := make([]uint64, t)
	for i := range x {
		out[i] = x[i].Uint64()
	}
	return out
}

func testReference[E Element](t *testing.T, preset Preset, width int) {
	p := mustNew[E](t, preset, width)
	ref := refOf(p.Params())
	rng := rand.New(rand.NewPCG(uint64(width), uint64(preset)))
	n := 40
	if testing.Short() {
		n = 8
	}
	states := randElems[E](rng, n*width)
	states = append(states, make([]E, width)...) // the zero state
	n++
	want := make([][]uint64, n)
	for i := range n {
		want[i] = ref.permute(modulusOf[E](), toCanonical(states[i*width:(i+1)*width]))
	}
	eachPath(t, func(t *testing.T) {
		one := append([]E(nil), states...)
		for i := range n {
			require.NoError(t, p.Permute(one[i*width:(i+1)*width]))
			assert.Equal(t, want[i], toCanonical(one[i*width:(i+1)*width]), "Permute, state %d", i)
		}
		many := append([]E(nil), states...)
		require.NoError(t, p.PermuteBatch(many))
		assert.Equal(t, one, many, "PermuteBatch")
		// The Go permutation of the field, past gnark-crypto's.
		if p.f31 != nil {
			st := append([]E(nil), states[:width]...)
			p.f31.permute(asU32(st))
			assert.Equal(t, want[0], toCanonical(st), "perm31")
		}
	})
}

// TestReference compares every preset, on every path, with the paper's
// definition on random states.
func TestReference(t *testing.T) {
	onEach(t, testReference[babybear.Element], testReference[koalabear.Element], testReference[goldilocks.Element])
}

// TestHLMDS31 runs the Go permutation of a 31-bit field with HLMDSMat4
// (no preset has it) against the reference.
func TestHLMDS31(t *testing.T) {
	prm, err := PresetParams[koalabear.Element](Plonky3, 16)
	require.NoError(t, err)
	prm.MDS = HLMDSMat4
	p, err := NewWithParams(prm)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	eachPath(t, func(t *testing.T) {
		s := randElems[koalabear.Element](rng, 16*20)
		want := make([]uint64, 0, len(s))
		for i := 0; i < len(s); i += 16 {
			want = append(want, refOf(prm).permute(pKoalaBear, toCanonical(s[i:i+16]))...)
		}
		require.NoError(t, p.PermuteBatch(s))
		assert.Equal(t, want, toCanonical(s))
	})
}

// gnarkOf returns gnark-crypto's permutation of its preset at width.
func gnarkOf[E Element](width int) func([]E) error {
	rf, rp, _ := gnarkRounds(fieldOf[E](), width)
	switch fieldOf[E]() {
	case fieldBabyBear:
		g := bbp2.NewPermutation(width, rf, rp)
		return func(s []E) error { return g.Permutation(any(s).([]babybear.Element)) }
	case fieldKoalaBear:
		g := kbp2.NewPermutation(width, rf, rp)
		return func(s []E) error { return g.Permutation(any(s).([]koalabear.Element)) }
	}
	g := glp2.NewPermutation(width, rf, rp)
	return func(s []E) error { return g.Permutation(any(s).([]goldilocks.Element)) }
}

func testGnark[E Element](t *testing.T, preset Preset, width int) {
	if preset != Gnark {
		t.Skip("gnark-crypto's parameters only")
	}
	g := gnarkOf[E](width)
	rng := rand.New(rand.NewPCG(uint64(width), 7))
	n := 64
	states := randElems[E](rng, n*width)
	want := append([]E(nil), states...)
	for i := 0; i < len(want); i += width {
		require.NoError(t, g(want[i:i+width]))
	}
	p := mustNew[E](t, Gnark, width)
	// This package's own Go permutation, without gnark-crypto's.
	own, err := NewWithParams(p.Params())
	require.NoError(t, err)
	eachPath(t, func(t *testing.T) {
		for _, q := range []*Permutation[E]{p, own} {
			got := append([]E(nil), states...)
			for i := 0; i < len(got); i += width {
				require.NoError(t, q.Permute(got[i:i+width]))
			}
			assert.Equal(t, want, got, "Permute")
			got = append(got[:0], states...)
			require.NoError(t, q.PermuteBatch(got))
			assert.Equal(t, want, got, "PermuteBatch")
		}
	})
}

// TestGnark compares the Gnark presets with gnark-crypto's permutations,
// and this package's own code for them (NewWithParams) too.
func TestGnark(t *testing.T) {
	onEach(t, testGnark[babybear.Element], testGnark[koalabear.Element], testGnark[goldilocks.Element])
}
