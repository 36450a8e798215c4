package merkle

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func TestSHA256x16(t *testing.T) {
	if !haveX16 {
		t.Skip("no 16-lane SHA-256 on this CPU or build (AVX-512F and AVX-512BW, amd64, not purego)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 257, 1000} {
		stride := paddedLen(n) + 64*r.IntN(3)
		buf := make([]byte, 16*stride)
		for i := range buf {
			buf[i] = byte(r.Uint32())
		}
		for l := range 16 {
			padSlot(buf[l*stride:l*stride+paddedLen(n)], n)
		}
		out := make([]byte, 16*32)
		sha256x16(out, buf, stride, paddedLen(n)/64)
		for l := range 16 {
			want := sha256.Sum256(buf[l*stride : l*stride+n])
			assert.Equal(t, want[:], out[32*l:32*l+32], "%d bytes, lane %d against crypto/sha256", n, l)
		}
	}
}

// TestTreeBothPaths builds the same trees with and without the 16-lane
// path, and with crypto/sha256 through hash.Hash (the checked path of a
// caller's hash), which must all agree.
func TestTreeBothPaths(t *testing.T) {
	if !haveX16 {
		t.Skip("no 16-lane SHA-256 here; the one-at-a-time path is what every other test runs")
	}
	defer func() { useX16 = haveX16 }()
	r := rand.New(rand.NewPCG(8, 9))
	byHash, err := NewHasher(sha256.New)
	require.NoError(t, err)
	for _, sh := range [][2]int{{4, 1}, {5, 3}, {6, 32}, {9, 5}, {13, 2}} {
		cols := make([][]gf64.Element, sh[1])
		for c := range cols {
			cols[c] = make([]gf64.Element, 1<<sh[0])
			for i := range cols[c] {
				cols[c][i] = gf64.Element(r.Uint64())
			}
		}
		useX16 = true
		a, err := Build(cols, Hasher{}, 2, nil)
		require.NoError(t, err)
		useX16 = false
		b, err := Build(cols, Hasher{}, 2, nil)
		require.NoError(t, err)
		c, err := Build(cols, byHash, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, b.root, a.root, "2^%d × %d: the 16-lane root against the one-at-a-time root", sh[0], sh[1])
		assert.Equal(t, c.root, a.root, "2^%d × %d: the 16-lane root against crypto/sha256's", sh[0], sh[1])
		for j := range a.nodes {
			assert.Equal(t, c.nodes[j], a.nodes[j], "2^%d × %d: level %d", sh[0], sh[1], j+1)
		}
	}
}

// BenchmarkSHA256x16 is 16 leaf messages of 257 bytes (5 blocks each) per op;
// SetBytes counts the message bytes.
func BenchmarkSHA256x16(b *testing.B) {
	if !haveX16 {
		b.Skip("no 16-lane SHA-256 here")
	}
	stride := paddedLen(257)
	buf := make([]byte, 16*stride)
	for l := range 16 {
		padSlot(buf[l*stride:(l+1)*stride], 257)
	}
	out := make([]byte, 16*32)
	b.SetBytes(16 * 257)
	b.ReportAllocs()
	for range b.N {
		sha256x16(out, buf, stride, stride/64)
	}
}

// BenchmarkSHA256Leaf is crypto/sha256 on one 257-byte leaf per op.
func BenchmarkSHA256Leaf(b *testing.B) {
	buf := make([]byte, 257)
	b.SetBytes(257)
	b.ReportAllocs()
	for range b.N {
		sha256.Sum256(buf)
	}
}
