package poseidon2

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbp2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glp2 "github.com/consensys/gnark-crypto/field/goldilocks/poseidon2"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbp2 "github.com/consensys/gnark-crypto/field/koalabear/poseidon2"
	gnarkhash "github.com/consensys/gnark-crypto/hash"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refSponge is Plonky3's PaddingFreeSponge::hash_iter, element by element.
func refSponge[E Element](p *Permutation[E], rate, out int, in []E) []E {
	state := make([]E, p.Width())
	i := 0
	for {
		for j := range rate {
			if i == len(in) {
				if j != 0 {
					_ = p.Permute(state)
				}
				return state[:out]
			}
			state[j] = in[i]
			i++
		}
		_ = p.Permute(state)
	}
}

// refCompress is TruncatedPermutation::compress (or, feedForward,
// gnark-crypto's Compress) written out.
func refCompress[E Element](p *Permutation[E], chunk int, feedForward bool, l, r []E) []E {
	pre := make([]E, p.Width())
	copy(pre, l)
	copy(pre[chunk:], r)
	_ = p.Permute(pre)
	if !feedForward {
		return pre[:chunk]
	}
	out := make([]E, chunk)
	add(out, pre[chunk:2*chunk], r)
	return out
}

func testSponge[E Element](t *testing.T, preset Preset, width int) {
	p := mustNew[E](t, preset, width)
	s := p.Sponge()
	require.Equal(t, DigestSize[E](), s.Out())
	require.Equal(t, width-s.Out(), s.Rate())
	rng := rand.New(rand.NewPCG(uint64(width), 11))
	eachPath(t, func(t *testing.T) {
		for _, sp := range []*Sponge[E]{s, mustSponge(t, p, s.Rate()-1, 1)} {
			rate, out := sp.Rate(), sp.Out()
			for n := range 3*rate + 2 {
				in := randElems[E](rng, n)
				got := make([]E, out)
				require.NoError(t, sp.Hash(got, in))
				assert.Equal(t, refSponge(p, rate, out, in), got, "Hash of %d elements, rate %d", n, rate)
			}
			for _, rowLen := range []int{1, rate - 1, rate, rate + 1, 3*rate + 2} {
				for _, n := range []int{1, 15, 16, 17, 2*batchGrain + 5} {
					if testing.Short() && n > 17 {
						continue
					}
					rows := randElems[E](rng, n*rowLen)
					want := make([]E, n*out)
					for i := range n {
						copy(want[i*out:], refSponge(p, rate, out, rows[i*rowLen:(i+1)*rowLen]))
					}
					got := make([]E, n*out)
					require.NoError(t, sp.HashRows(got, rows, rowLen))
					assert.Equal(t, want, got, "HashRows: %d rows of %d", n, rowLen)
					cols := make([][]E, rowLen)
					for c := range cols {
						cols[c] = make([]E, n)
						for i := range n {
							cols[c][i] = rows[i*rowLen+c]
						}
					}
					clear(got)
					require.NoError(t, sp.HashColumns(got, cols))
					assert.Equal(t, want, got, "HashColumns: %d rows of %d", n, rowLen)
				}
			}
		}
		// No columns: every row is empty.
		got := randElems[E](rng, 3*s.Out())
		require.NoError(t, s.HashColumns(got, nil))
		assert.Equal(t, make([]E, 3*s.Out()), got)
	})
}

func mustSponge[E Element](t *testing.T, p *Permutation[E], rate, out int) *Sponge[E] {
	s, err := NewSponge(p, rate, out)
	require.NoError(t, err)
	return s
}

// TestSponge compares Hash, HashRows and HashColumns with Plonky3's
// sponge written out, for the standard shape and another.
func TestSponge(t *testing.T) {
	onEach(t, testSponge[babybear.Element], testSponge[koalabear.Element], testSponge[goldilocks.Element])
}

func testCompression[E Element](t *testing.T, preset Preset, width int) {
	p := mustNew[E](t, preset, width)
	ff, err := NewCompression(p, width/2, FeedForward)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(uint64(width), 13))
	eachPath(t, func(t *testing.T) {
		for _, c := range []*Compression[E]{p.Compression(), ff} {
			ch := c.Chunk()
			for range 20 {
				l, r := randElems[E](rng, ch), randElems[E](rng, ch)
				want := refCompress(p, ch, c.mode == FeedForward, l, r)
				got := make([]E, ch)
				require.NoError(t, c.Compress(got, l, r))
				assert.Equal(t, want, got, "Compress")
				require.NoError(t, c.Compress(l, l, r)) // dst aliases left
				assert.Equal(t, want, l, "Compress into left")
			}
			for _, n := range []int{1, 2, 15, 16, 17, 3*batchGrain + 1} {
				kids := randElems[E](rng, 2*n*ch)
				want := make([]E, n*ch)
				for i := range n {
					copy(want[i*ch:], refCompress(p, ch, c.mode == FeedForward, kids[2*i*ch:(2*i+1)*ch], kids[(2*i+1)*ch:(2*i+2)*ch]))
				}
				got := make([]E, n*ch)
				require.NoError(t, c.CompressLayer(got, kids))
				assert.Equal(t, want, got, "CompressLayer of %d", n)
				require.NoError(t, c.CompressLayer(kids[:n*ch], kids))
				assert.Equal(t, want, kids[:n*ch], "CompressLayer of %d in place", n)
			}
		}
	})
}

// TestCompression compares Compress and CompressLayer with
// TruncatedPermutation and gnark-crypto's feed-forward written out.
func TestCompression(t *testing.T) {
	onEach(t, testCompression[babybear.Element], testCompression[koalabear.Element], testCompression[goldilocks.Element])
}

// gnarkCompressor returns gnark-crypto's permutation of the Gnark preset
// as its hash.Compressor, and its Merkle–Damgård hasher.
func gnarkCompressor[E Element](width int) (gnarkhash.Compressor, func() gnarkhash.StateStorer) {
	rf, rp, _ := gnarkRounds(fieldOf[E](), width)
	switch fieldOf[E]() {
	case fieldBabyBear:
		return bbp2.NewPermutation(width, rf, rp), bbp2.NewMerkleDamgardHasher
	case fieldKoalaBear:
		return kbp2.NewPermutation(width, rf, rp), kbp2.NewMerkleDamgardHasher
	}
	return glp2.NewPermutation(width, rf, rp), glp2.NewMerkleDamgardHasher
}

func bytesOf[E Element](v []E) []byte {
	var b []byte
	for i := range v {
		switch z := any(&v[i]).(type) {
		case *babybear.Element:
			b = append(b, z.Marshal()...)
		case *koalabear.Element:
			b = append(b, z.Marshal()...)
		case *goldilocks.Element:
			b = append(b, z.Marshal()...)
		}
	}
	return b
}

func testGnarkCompress[E Element](t *testing.T, preset Preset, width int) {
	if preset != Gnark {
		t.Skip("gnark-crypto's parameters only")
	}
	p := mustNew[E](t, Gnark, width)
	c, err := NewCompression(p, width/2, FeedForward)
	require.NoError(t, err)
	g, md := gnarkCompressor[E](width)
	rng := rand.New(rand.NewPCG(uint64(width), 17))
	ch := width / 2
	for range 20 {
		l, r := randElems[E](rng, ch), randElems[E](rng, ch)
		want, err := g.Compress(bytesOf(l), bytesOf(r))
		require.NoError(t, err)
		got := make([]E, ch)
		require.NoError(t, c.Compress(got, l, r))
		assert.Equal(t, want, bytesOf(got), "Compress")
	}
	// Chain is gnark-crypto's default hasher where that hasher's permutation
	// is this one (its GetDefaultParameters: the narrow width).
	if width != 16 && width != 8 {
		return
	}
	for n := range 4*ch + 2 {
		in := randElems[E](rng, n)
		h := md()
		_, err := h.Write(bytesOf(in))
		require.NoError(t, err)
		got := make([]E, ch)
		require.NoError(t, c.Chain(got, in))
		assert.Equal(t, h.Sum(nil), bytesOf(got), "Chain of %d elements", n)
	}
}

// TestGnarkCompress compares FeedForward with gnark-crypto's Compress, and
// Chain with its Merkle–Damgård hasher, byte for byte.
func TestGnarkCompress(t *testing.T) {
	onEach(t, testGnarkCompress[babybear.Element], testGnarkCompress[koalabear.Element], testGnarkCompress[goldilocks.Element])
}
