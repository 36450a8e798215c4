package poseidon2

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrors(t *testing.T) {
	_, err := New[babybear.Element](Plonky3, 8)
	require.ErrorIs(t, err, ErrWidth)
	_, err = New[goldilocks.Element](Gnark, 16)
	require.ErrorIs(t, err, ErrWidth)
	_, err = New[koalabear.Element](Preset(7), 16)
	require.ErrorIs(t, err, ErrPreset)
	_, err = New[koalabear.Element](Plonky3, 16, WithWorkers(0))
	require.ErrorIs(t, err, ErrParams)

	prm, err := PresetParams[koalabear.Element](Plonky3, 16)
	require.NoError(t, err)
	bad := func(f func(*Params[koalabear.Element])) error {
		c := cloneParams(prm)
		f(&c)
		_, err := NewWithParams(c)
		return err
	}
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.Width = 18 }), ErrWidth)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.Width = 36 }), ErrWidth)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.Width = 24 }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.FullRounds = 7 }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.PartialRounds = -1 }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.SBoxDegree = 7 }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.MDS = 0 }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.InternalConstants = p.InternalConstants[1:] }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.ExternalConstants[3] = p.ExternalConstants[3][1:] }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.InternalDiag[5] = koalabear.Element{pKoalaBear} }), ErrParams)
	require.ErrorIs(t, bad(func(p *Params[koalabear.Element]) { p.ExternalConstants[0][0] = koalabear.Element{1 << 31} }), ErrParams)

	p := mustNew[koalabear.Element](t, Plonky3, 16)
	s := make([]koalabear.Element, 17)
	require.ErrorIs(t, p.Permute(s), ErrLength)
	require.ErrorIs(t, p.Permute(s[:15]), ErrLength)
	require.ErrorIs(t, p.PermuteBatch(s), ErrLength)
	require.NoError(t, p.PermuteBatch(nil))

	_, err = NewSponge(p, 16, 8)
	require.ErrorIs(t, err, ErrParams)
	_, err = NewSponge(p, 8, 9)
	require.ErrorIs(t, err, ErrParams)
	_, err = NewSponge(p, 0, 0)
	require.ErrorIs(t, err, ErrParams)
	sp := p.Sponge()
	require.ErrorIs(t, sp.Hash(make([]koalabear.Element, 7), s), ErrLength)
	require.ErrorIs(t, sp.HashRows(make([]koalabear.Element, 8), s, 0), ErrLength)
	require.ErrorIs(t, sp.HashRows(make([]koalabear.Element, 8), s, 16), ErrLength)
	require.ErrorIs(t, sp.HashRows(make([]koalabear.Element, 16), s, 17), ErrLength)
	require.ErrorIs(t, sp.HashColumns(make([]koalabear.Element, 12), nil), ErrLength)
	require.ErrorIs(t, sp.HashColumns(make([]koalabear.Element, 16), [][]koalabear.Element{s[:2], s[:3]}), ErrLength)

	_, err = NewCompression(p, 9, Truncate)
	require.ErrorIs(t, err, ErrParams)
	_, err = NewCompression(p, 4, FeedForward)
	require.ErrorIs(t, err, ErrParams)
	_, err = NewCompression(p, 8, Mode(0))
	require.ErrorIs(t, err, ErrParams)
	c := p.Compression()
	require.ErrorIs(t, c.Compress(s[:8], s[:8], s[:7]), ErrLength)
	require.ErrorIs(t, c.CompressLayer(s[:8], s[:15]), ErrLength)
	require.ErrorIs(t, c.CompressLayer(s[:4], s[:8]), ErrLength)
	require.ErrorIs(t, c.Chain(s[:7], s), ErrLength)
}

// TestParamsCopied: a Permutation keeps its own copy of the parameters.
func TestParamsCopied(t *testing.T) {
	prm, err := PresetParams[babybear.Element](Plonky3, 16)
	require.NoError(t, err)
	p, err := NewWithParams(prm)
	require.NoError(t, err)
	want := make([]babybear.Element, 16)
	require.NoError(t, p.Permute(want))
	prm.ExternalConstants[0][0].SetOne()
	prm.InternalDiag[1].SetOne()
	got := make([]babybear.Element, 16)
	require.NoError(t, p.Permute(got))
	assert.Equal(t, want, got)
	q := p.Params()
	q.InternalConstants[0].SetOne()
	assert.NotEqual(t, q.InternalConstants[0], p.Params().InternalConstants[0])
	assert.Equal(t, Preset(0), p.Preset())
	assert.Equal(t, Plonky3, mustNew[babybear.Element](t, Plonky3, 16).Preset())
}

// TestAllocs: one state, and a batch on one worker, allocate nothing.
func TestAllocs(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, preset := range presets {
			p := mustNew[koalabear.Element](t, preset, 24, WithWorkers(1))
			s := randElems[koalabear.Element](rand.New(rand.NewPCG(1, 1)), 24*40)
			assert.Zero(t, testing.AllocsPerRun(10, func() { _ = p.Permute(s[:24]) }), "Permute")
			assert.Zero(t, testing.AllocsPerRun(10, func() { _ = p.PermuteBatch(s) }), "PermuteBatch")
			g := mustNew[goldilocks.Element](t, preset, 12, WithWorkers(1))
			sg := make([]goldilocks.Element, 12*5)
			assert.Zero(t, testing.AllocsPerRun(10, func() { _ = g.PermuteBatch(sg) }), "PermuteBatch")
			if p.f31.lanes() {
				d := make([]koalabear.Element, 40*8)
				sp, c := p.Sponge(), p.Compression()
				assert.Zero(t, testing.AllocsPerRun(10, func() { _ = sp.HashRows(d, s, 24) }), "HashRows")
				assert.Zero(t, testing.AllocsPerRun(10, func() { _ = c.CompressLayer(d[:20*8], d) }), "CompressLayer")
			}
		}
	})
}

// TestConcurrent runs one permutation from many goroutines (for -race).
func TestConcurrent(t *testing.T) {
	p := mustNew[babybear.Element](t, Plonky3, 16)
	want := make([]babybear.Element, 16*300)
	require.NoError(t, p.PermuteBatch(want))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s := make([]babybear.Element, 16*300)
			assert.NoError(t, p.PermuteBatch(s))
			assert.Equal(t, want, s)
			one := make([]babybear.Element, 16)
			assert.NoError(t, p.Permute(one))
			assert.Equal(t, want[:16], one)
		})
	}
	wg.Wait()
}

// TestWorkers: the result does not depend on the number of workers.
func TestWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	s := randElems[goldilocks.Element](rng, 8*(2*batchGrain+3))
	var want []goldilocks.Element
	for _, w := range []int{1, 2, 3, 8} {
		p := mustNew[goldilocks.Element](t, Plonky3, 8, WithWorkers(w))
		got := append([]goldilocks.Element(nil), s...)
		require.NoError(t, p.PermuteBatch(got))
		if want == nil {
			want = got
		}
		assert.Equal(t, want, got, "%d workers", w)
	}
}

// FuzzPermute: states from the fuzzer's bytes, reduced into the field,
// permuted on every path and by the reference.
func FuzzPermute(f *testing.F) {
	f.Add([]byte{0}, uint8(0))
	f.Add([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), uint8(3))
	perms16 := []*Permutation[babybear.Element]{
		mustNew[babybear.Element](f, Plonky3, 16), mustNew[babybear.Element](f, Gnark, 16),
	}
	perms24 := []*Permutation[koalabear.Element]{
		mustNew[koalabear.Element](f, Plonky3, 24), mustNew[koalabear.Element](f, Gnark, 24),
	}
	permsGL := []*Permutation[goldilocks.Element]{
		mustNew[goldilocks.Element](f, Plonky3, 12), mustNew[goldilocks.Element](f, Gnark, 8),
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		bb := perms16[which%2]
		kb := perms24[(which/2)%2]
		gl := permsGL[(which/4)%2]
		sg := make([]goldilocks.Element, gl.Width()*9)
		for i := range sg {
			sg[i].SetUint64(uint64(at(data, i+3)) * 0x9e3779b97f4a7c15 << (i % 7))
		}
		sb := make([]babybear.Element, 16*17)
		sk := make([]koalabear.Element, 24*17)
		for i := range sb {
			sb[i].SetUint64(uint64(at(data, i)) * 0x9e3779b97f4a7c15)
		}
		for i := range sk {
			sk[i].SetUint64(uint64(at(data, i+7)) * 0x9e3779b97f4a7c15)
		}
		saved := useKernel
		defer func() { useKernel = saved }()
		useKernel = false
		wb, wk := append([]babybear.Element(nil), sb...), append([]koalabear.Element(nil), sk...)
		wg := append([]goldilocks.Element(nil), sg...)
		require.NoError(t, bb.PermuteBatch(wb))
		require.NoError(t, kb.PermuteBatch(wk))
		require.NoError(t, gl.PermuteBatch(wg))
		assert.Equal(t, refOf(gl.Params()).permute(pGoldilocks, toCanonical(sg[:gl.Width()])), toCanonical(wg[:gl.Width()]))
		assert.Equal(t, refOf(bb.Params()).permute(pBabyBear, toCanonical(sb[:16])), toCanonical(wb[:16]))
		useKernel = saved
		require.NoError(t, bb.PermuteBatch(sb))
		require.NoError(t, kb.PermuteBatch(sk))
		require.NoError(t, gl.PermuteBatch(sg))
		assert.Equal(t, wb, sb)
		assert.Equal(t, wk, sk)
		assert.Equal(t, wg, sg)
	})
}

func at(b []byte, i int) byte {
	if len(b) == 0 {
		return 0
	}
	return b[i%len(b)] + byte(i/len(b))
}

// FuzzSponge: HashRows and HashColumns of a matrix shaped by the fuzzer
// against Hash row by row.
func FuzzSponge(f *testing.F) {
	f.Add(uint16(17), uint8(9), uint64(1))
	f.Add(uint16(0), uint8(1), uint64(2))
	p := mustNew[koalabear.Element](f, Plonky3, 16)
	s := p.Sponge()
	f.Fuzz(func(t *testing.T, n uint16, rowLen uint8, seed uint64) {
		rows, cols := int(n%600), int(rowLen%40)+1
		m := randElems[koalabear.Element](rand.New(rand.NewPCG(seed, 0)), rows*cols)
		want := make([]koalabear.Element, rows*8)
		for i := range rows {
			require.NoError(t, s.Hash(want[i*8:(i+1)*8], m[i*cols:(i+1)*cols]))
		}
		got := make([]koalabear.Element, rows*8)
		require.NoError(t, s.HashRows(got, m, cols))
		assert.Equal(t, want, got)
		cm := make([][]koalabear.Element, cols)
		for c := range cm {
			for i := range rows {
				cm[c] = append(cm[c], m[i*cols+c])
			}
		}
		clear(got)
		require.NoError(t, s.HashColumns(got, cm))
		assert.Equal(t, want, got)
	})
}

// TestKernelFits: every preset of the 31-bit fields runs on the kernels
// (where there are kernels); other diagonals and matrices do not.
func TestKernelFits(t *testing.T) {
	for _, pr := range presets {
		for _, w := range []int{16, 24} {
			assert.True(t, mustNew[babybear.Element](t, pr, w).f31.kernel, "BabyBear %v %d", pr, w)
			assert.True(t, mustNew[koalabear.Element](t, pr, w).f31.kernel, "KoalaBear %v %d", pr, w)
		}
		for _, w := range []int{8, 12} {
			assert.True(t, mustNew[goldilocks.Element](t, pr, w).gl.kernel, "Goldilocks %v %d", pr, w)
		}
	}
	prm, err := PresetParams[babybear.Element](Plonky3, 16)
	require.NoError(t, err)
	prm.InternalDiag[3].SetUint64(5)
	p, err := NewWithParams(prm)
	require.NoError(t, err)
	assert.False(t, p.f31.kernel)
	t.Logf("16-lane and 8-lane kernels in this build and on this CPU: %v", haveKernel)
}

// FuzzCompress: CompressLayer of a layer shaped by the fuzzer against
// Compress pair by pair, and Chain against Compress in a loop.
func FuzzCompress(f *testing.F) {
	f.Add(uint16(17), uint64(1), false)
	f.Add(uint16(0), uint64(2), true)
	p := mustNew[babybear.Element](f, Gnark, 16)
	tr := p.Compression()
	ff, err := NewCompression(p, 8, FeedForward)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, n uint16, seed uint64, feedForward bool) {
		c := tr
		if feedForward {
			c = ff
		}
		m := int(n % 300)
		kids := randElems[babybear.Element](rand.New(rand.NewPCG(seed, 1)), 2*m*8)
		want := make([]babybear.Element, m*8)
		for i := range m {
			require.NoError(t, c.Compress(want[i*8:(i+1)*8], kids[2*i*8:(2*i+1)*8], kids[(2*i+1)*8:(2*i+2)*8]))
		}
		got := make([]babybear.Element, m*8)
		require.NoError(t, c.CompressLayer(got, kids))
		assert.Equal(t, want, got)
		h := make([]babybear.Element, 8)
		for i := 0; i < len(kids); i += 8 {
			require.NoError(t, c.Compress(h, h, kids[i:i+8]))
		}
		chain := make([]babybear.Element, 8)
		require.NoError(t, c.Chain(chain, kids))
		assert.Equal(t, h, chain)
	})
}
