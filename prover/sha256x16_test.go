package prover

import (
	"bytes"
	"crypto/sha256"
	"github.com/stretchr/testify/require"
	"math/rand/v2"
	"testing"

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
			if !bytes.Equal(out[32*l:32*l+32], want[:]) {
				t.Fatalf("%d bytes, lane %d: %x, want %x", n, l, out[32*l:32*l+32], want)
			}
		}
	}
}

// TestTreeBothPaths builds the same trees with and without the 16-lane path.
func TestTreeBothPaths(t *testing.T) {
	if !haveX16 {
		t.Skip("no 16-lane SHA-256 here; the one-at-a-time path is what every other test runs")
	}
	defer func() { useX16 = haveX16 }()
	for _, sh := range [][2]int{{4, 1}, {5, 3}, {6, 32}, {9, 5}, {13, 2}} {
		lde, _ := RandomTrace[gf64.Element](sh[0], sh[1], 8)
		hs, _ := makeHasher(nil)
		useX16 = true
		a, err := buildTree(lde, hs, 2, nil)
		require.NoError(t, err)
		useX16 = false
		b, err := buildTree(lde, hs, 2, nil)
		require.NoError(t, err)
		if !bytes.Equal(a.root, b.root) {
			t.Fatalf("2^%d × %d: roots differ", sh[0], sh[1])
		}
		if want := refRoot(lde, sha256.New); !bytes.Equal(a.root, want) {
			t.Fatalf("2^%d × %d: root differs from the reference", sh[0], sh[1])
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
