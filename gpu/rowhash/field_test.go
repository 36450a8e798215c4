package rowhash

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	gp2 "github.com/gfpoly/gfpoly/gpu/poseidon2"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/prover/merkle"
	p2 "github.com/gfpoly/gfpoly/prover/poseidon2"
)

// fieldHash is one field tree's hash, on the CPU (merkle) and as the
// kernels take it.
type fieldHash struct {
	name string
	hs   merkle.Hasher
	ts   gp2.TreeSpec
}

// fieldHashes returns the standard Poseidon2 trees of every preset and
// sponge width of E's field, and one with gnark-crypto's feed-forward
// compression.
func fieldHashes[E p2.Element](t testing.TB) []fieldHash {
	var out []fieldHash
	add := func(name string, leaf *p2.Sponge[E], node *p2.Compression[E]) {
		hs, err := merkle.FieldHasher(leaf, node)
		require.NoError(t, err)
		l, n, ok := merkle.FieldParts[E](hs)
		require.True(t, ok)
		ts, err := gp2.TreeSpecOf(l, n)
		require.NoError(t, err)
		out = append(out, fieldHash{name, hs, ts})
	}
	d := p2.DigestSize[E]()
	widths := []int{16, 24}
	if d == 4 {
		widths = []int{8, 12}
	}
	for _, pr := range []p2.Preset{p2.Plonky3, p2.Gnark} {
		node, err := p2.New[E](pr, 2*d)
		require.NoError(t, err)
		for _, w := range widths {
			hs, err := merkle.Poseidon2[E](pr, w)
			require.NoError(t, err)
			l, n, ok := merkle.FieldParts[E](hs)
			require.True(t, ok)
			ts, err := gp2.TreeSpecOf(l, n)
			require.NoError(t, err)
			out = append(out, fieldHash{fmt.Sprintf("%v/w%d", pr, w), hs, ts})
		}
		ff, err := p2.NewCompression(node, d, p2.FeedForward)
		require.NoError(t, err)
		add(fmt.Sprintf("%v/feed-forward", pr), node.Sponge(), ff)
	}
	return out
}

// fieldNodes returns the nodes of merkle's tree over cols (level 1 first,
// the root last), the layout of Tree's node buffer.
func fieldNodes[E Element](t testing.TB, cols [][]E, hs merkle.Hasher) []byte {
	tr, err := merkle.Build(cols, hs, 0, nil)
	require.NoError(t, err)
	var out []byte
	for j := 1; j <= tr.Height(); j++ {
		out = append(out, tr.Level(j)...)
	}
	return out
}

func TestFieldTree(t *testing.T) {
	d := gputest.Device(t)
	testFieldTree[babybear.Element](t, d)
	testFieldTree[koalabear.Element](t, d)
	testFieldTree[goldilocks.Element](t, d)
}

// testFieldTree checks the device's field trees against merkle's on random
// matrices, the columns absorbed in random groups (a block of the sponge
// split between groups, or not), 1 to 65 columns.
func testFieldTree[E p2.Element](t *testing.T, d *gpu.Device) {
	r := rand.New(rand.NewPCG(5, 9))
	shapes := []struct{ rows, cols int }{{2, 1}, {4, 7}, {8, 8}, {16, 9}, {1024, 16}, {64, 17}, {256, 24}, {32, 33}, {1 << 13, 5}, {128, 65}}
	for _, fh := range fieldHashes[E](t) {
		for _, sh := range shapes {
			name := fmt.Sprintf("%T/%s/%dx%d", *new(E), fh.name, sh.rows, sh.cols)
			cols := random[E](r, sh.rows, sh.cols)
			want := fieldNodes(t, cols, fh.hs)
			h, err := NewField[E](d, sh.rows, fh.ts)
			require.NoError(t, err, name)
			require.True(t, h.Field())
			for c0 := 0; c0 < sh.cols; {
				g := 1 + r.IntN(sh.cols-c0)
				var flat []E
				for _, c := range cols[c0 : c0+g] {
					flat = append(flat, c...)
				}
				buf := gputest.Upload(t, d, flat)
				require.NoError(t, h.Absorb(nil, buf), name)
				require.NoError(t, buf.Free())
				c0 += g
			}
			assert.Equal(t, sh.cols, h.Columns())
			nodes := gputest.Alloc[byte](t, d, (sh.rows-1)*DigestSize)
			require.NoError(t, h.Tree(nil, nodes), name)
			nodesEqual(t, want, gputest.Download(t, nodes), name)
			// Again after Reset, other columns, in one group.
			h.Reset()
			cols = random[E](r, sh.rows, sh.cols)
			var flat []E
			for _, c := range cols {
				flat = append(flat, c...)
			}
			buf := gputest.Upload(t, d, flat)
			require.NoError(t, h.Absorb(nil, buf), name)
			require.NoError(t, h.Tree(nil, nodes), name)
			nodesEqual(t, fieldNodes(t, cols, fh.hs), gputest.Download(t, nodes), name+" after Reset")
			require.NoError(t, buf.Free())
			require.NoError(t, nodes.Free())
			require.NoError(t, h.Close())
		}
	}
}

// TestFieldTreeBlocks spreads a field tree as package prover does over
// devices (two Device values on one GPU): columns split between them, rows
// in blocks, each block's sponges carried over (ContinueFrom).
func TestFieldTreeBlocks(t *testing.T) {
	d := gputest.Device(t)
	d2, err := gpu.Open(gpu.WithOrdinal(d.Info().Ordinal))
	require.NoError(t, err, "a second Device on the test GPU")
	defer d2.Close()
	testFieldBlocks[babybear.Element](t, d, d2)
	testFieldBlocks[goldilocks.Element](t, d, d2)
}

func testFieldBlocks[E p2.Element](t *testing.T, d, d2 *gpu.Device) {
	r := rand.New(rand.NewPCG(3, 5))
	fh := fieldHashes[E](t)[1] // Plonky3, the wider sponge
	for _, sh := range []struct{ rows, cols, split, blocks int }{{8, 3, 1, 2}, {64, 21, 8, 4}, {1024, 30, 13, 8}} {
		cols := random[E](r, sh.rows, sh.cols)
		var flat []E
		for _, c := range cols {
			flat = append(flat, c...)
		}
		a := gputest.Upload(t, d, flat[:sh.split*sh.rows])
		b := gputest.Upload(t, d2, flat[sh.split*sh.rows:])
		m := sh.rows / sh.blocks
		nodes := gputest.Alloc[byte](t, d2, (m-1)*DigestSize)
		for k := range sh.blocks {
			h0, err := NewField[E](d, m, fh.ts)
			require.NoError(t, err)
			h1, err := NewField[E](d2, m, fh.ts)
			require.NoError(t, err)
			va, err := a.View(k*m, (sh.split-1)*sh.rows+m)
			require.NoError(t, err)
			require.NoError(t, h0.AbsorbStrided(nil, va, sh.split, sh.rows))
			require.NoError(t, d.Synchronize())
			require.NoError(t, h1.ContinueFrom(nil, h0))
			assert.Equal(t, sh.split, h1.Columns())
			vb, err := b.View(k*m, (sh.cols-sh.split-1)*sh.rows+m)
			require.NoError(t, err)
			require.NoError(t, h1.AbsorbStrided(nil, vb, sh.cols-sh.split, sh.rows))
			require.NoError(t, h1.Tree(nil, nodes))
			block := make([][]E, sh.cols)
			for c := range block {
				block[c] = cols[c][k*m : (k+1)*m]
			}
			nodesEqual(t, fieldNodes(t, block, fh.hs), gputest.Download(t, nodes), "block %d of %v", k, sh)
			require.NoError(t, h0.Close())
			require.NoError(t, h1.Close())
		}
		require.NoError(t, a.Free())
		require.NoError(t, b.Free())
		require.NoError(t, nodes.Free())
	}
}

// TestFieldErrors checks NewField's refusals (no device needed for most).
func TestFieldErrors(t *testing.T) {
	fh := fieldHashes[babybear.Element](t)[0]
	_, err := NewField[babybear.Element](nil, 1024, fh.ts)
	require.ErrorIs(t, err, gpu.ErrNoDevice)
	_, err = NewField[babybear.Element](nil, 1000, fh.ts)
	require.ErrorIs(t, err, gpu.ErrLength)
	d := gputest.Device(t)
	_, err = NewField[koalabear.Element](d, 1024, fh.ts)
	require.ErrorIs(t, err, gpu.ErrLength)
	_, err = NewField[fr.Element](d, 1024, fh.ts)
	require.ErrorIs(t, err, gpu.ErrLength)
	h, err := NewField[babybear.Element](d, 16, fh.ts)
	require.NoError(t, err)
	defer h.Close()
	nodes := gputest.Alloc[byte](t, d, 15*DigestSize)
	require.ErrorIs(t, h.Tree(nil, nodes), gpu.ErrLength, "no column absorbed")
	sha, err := New[babybear.Element](d, 16, 0, 1)
	require.NoError(t, err)
	defer sha.Close()
	require.ErrorIs(t, h.ContinueFrom(nil, sha), gpu.ErrLength)
	require.ErrorIs(t, sha.ContinueFrom(nil, h), gpu.ErrLength)
	require.NoError(t, nodes.Free())
}
