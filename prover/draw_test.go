package prover_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// shaStream is SHA-256 in counter mode: block i is SHA-256(label ‖ i), i
// as 4 bytes big-endian, the blocks end to end.
type shaStream struct {
	label []byte
	ctr   uint32
	buf   []byte
}

func newSHAStream(label string) *shaStream { return &shaStream{label: []byte(label)} }

func (s *shaStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(s.buf) == 0 {
			var c [4]byte
			binary.BigEndian.PutUint32(c[:], s.ctr)
			s.ctr++
			h := sha256.Sum256(append(append([]byte(nil), s.label...), c[:]...))
			s.buf = h[:]
		}
		k := copy(p[n:], s.buf)
		s.buf = s.buf[k:]
		n += k
	}
	return n, nil
}

// show prints an element's coordinates as canonical integers.
func show(x any) string {
	switch v := x.(type) {
	case bbext.E4:
		return fmt.Sprint(v.B0.A0.String(), " ", v.B0.A1.String(), " ", v.B1.A0.String(), " ", v.B1.A1.String())
	case kbext.E4:
		return fmt.Sprint(v.B0.A0.String(), " ", v.B0.A1.String(), " ", v.B1.A0.String(), " ", v.B1.A1.String())
	case glext.E2:
		return fmt.Sprint(v.A0.String(), " ", v.A1.String())
	case gf128.Element:
		return fmt.Sprintf("%#016x %#016x", uint64(v.A0), uint64(v.A1))
	case fr.Element:
		return v.String()
	}
	return "?"
}

func drawTwo[X prover.Ext](t *testing.T) string {
	s := newSHAStream("gfpoly DrawExt")
	var out []string
	for range 2 {
		x, err := prover.DrawExt[X](s)
		require.NoError(t, err)
		out = append(out, show(x))
	}
	return out[0] + " | " + out[1]
}

// TestDrawExtVectors pins the first two elements of each challenge field
// drawn from SHA-256 in counter mode over the label "gfpoly DrawExt" (the
// vectors of the package documentation), coordinates as canonical
// integers in the type's order.
func TestDrawExtVectors(t *testing.T) {
	want := map[string]string{
		"babybear":   "544100730 255781108 1820113961 1705851555 | 25869814 920718931 1153219346 743318446",
		"koalabear":  "544100730 255781108 1820113961 1705851555 | 25869814 920718931 1153219346 743318446",
		"goldilocks": "1098571494338744698 16549948681378118697 | 13177829734333726198 12415900456239020818",
		"gf64":       "0x0f3ee8f4206e517a 0xe5ad3aa3ec7cbc29 | 0xb6e10e53018abdf6 0xac4e23aec4bcbb12",
		"bn254": "20039825681588141316195240779737185769233161932979655587086224877406374482298 | " +
			"12612762812761375889353116435150249938466641840282406193868635351834925399269",
	}
	got := map[string]string{
		"babybear":   drawTwo[bbext.E4](t),
		"koalabear":  drawTwo[kbext.E4](t),
		"goldilocks": drawTwo[glext.E2](t),
		"gf64":       drawTwo[gf128.Element](t),
		"bn254":      drawTwo[fr.Element](t),
	}
	require.Equal(t, want, got)
	// The stream itself: its first block.
	h := sha256.Sum256([]byte("gfpoly DrawExt\x00\x00\x00\x00"))
	require.Equal(t, uint32(544100730), binary.LittleEndian.Uint32(h[:4])&(1<<31-1))
}

// TestDrawExtUniform is a chi-square test of BabyBear E4 coordinates
// drawn from a seeded ChaCha8 stream: their residues mod 7, and 16 equal
// ranges of 0..p−1 (a sampler that reduced the 31-bit word mod p instead
// of rejecting it would put twice the weight on the lowest 2^31 − p values,
// two thirds of the first range, and fail). The bounds are the 0.1%
// quantiles; the stream is fixed, so the test is deterministic.
func TestDrawExtUniform(t *testing.T) {
	var seed [32]byte
	seed[0] = 7
	r := rand.New(rand.NewChaCha8(seed))
	src := readerFunc(func(p []byte) (int, error) {
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		return len(p), nil
	})
	const draws = 20000
	c7, c16 := make([]float64, 7), make([]float64, 16)
	q := babybear.Modulus().Uint64()
	for range draws {
		x, err := prover.DrawExt[bbext.E4](src)
		require.NoError(t, err)
		for _, c := range []babybear.Element{x.B0.A0, x.B0.A1, x.B1.A0, x.B1.A1} {
			v := c.Uint64()
			require.Less(t, v, q)
			c7[v%7]++
			c16[v*16/q]++
		}
	}
	chi := func(c []float64) float64 {
		e := 4 * draws / float64(len(c))
		s := 0.0
		for _, o := range c {
			s += (o - e) * (o - e) / e
		}
		return s
	}
	require.Less(t, chi(c7), 22.46, "mod 7: %v", c7)    // χ²(6), p = 0.001
	require.Less(t, chi(c16), 37.70, "ranges: %v", c16) // χ²(15), p = 0.001
}

type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestDrawExtErrors: streams that end, and streams that are never in range.
func TestDrawExtErrors(t *testing.T) {
	_, err := prover.DrawExt[bbext.E4](bytes.NewReader(nil))
	require.ErrorIs(t, err, io.EOF)
	_, err = prover.DrawExt[glext.E2](bytes.NewReader(make([]byte, 11)))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	ones := readerFunc(func(p []byte) (int, error) {
		for i := range p {
			p[i] = 0xff
		}
		return len(p), nil
	})
	_, err = prover.DrawExt[bbext.E4](ones) // 2^31−1 ≥ p, always
	require.ErrorIs(t, err, prover.ErrDraw)
	_, err = prover.DrawExt[fr.Element](ones)
	require.ErrorIs(t, err, prover.ErrDraw)
	x, err := prover.DrawExt[gf128.Element](ones) // every word is an element
	require.NoError(t, err)
	require.Equal(t, gf128.Element{A0: ^gf64.Element(0), A1: ^gf64.Element(0)}, x)
}

// FuzzDrawExt: any bytes give an element of every field or an error, never
// a panic, and the same bytes the same element.
func FuzzDrawExt(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 40))
	f.Add(bytes.Repeat([]byte{0x01, 0x00, 0x00, 0x78}, 12))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzDraw[bbext.E4](t, b)
		fuzzDraw[kbext.E4](t, b)
		fuzzDraw[glext.E2](t, b)
		fuzzDraw[gf128.Element](t, b)
		fuzzDraw[fr.Element](t, b)
	})
}

func fuzzDraw[X prover.Ext](t *testing.T, b []byte) {
	x, err := prover.DrawExt[X](bytes.NewReader(b))
	y, err2 := prover.DrawExt[X](bytes.NewReader(b))
	require.Equal(t, err == nil, err2 == nil)
	if err == nil {
		require.Equal(t, x, y)
	}
}
