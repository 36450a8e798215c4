package gf2n

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	field "github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

func fields(t testing.TB) []*field.Field {
	var out []*field.Field
	for _, n := range field.Sizes() {
		f, err := field.New(n)
		require.NoError(t, err)
		out = append(out, f)
	}
	return out
}

// edges returns the edge elements of f: 0, 1, x, x^(n−1), all ones, the
// low and the high word all ones, and x^63 + x^64 (a word boundary).
func edges(f *field.Field) [][]uint64 {
	w := f.Words()
	mk := func(set func(e []uint64)) []uint64 {
		e := make([]uint64, w)
		set(e)
		return e
	}
	return [][]uint64{
		mk(func(e []uint64) {}),
		mk(func(e []uint64) { e[0] = 1 }),
		mk(func(e []uint64) { e[0] = 2 }),
		mk(func(e []uint64) { e[w-1] = 1 << 63 }),
		mk(func(e []uint64) {
			for i := range e {
				e[i] = ^uint64(0)
			}
		}),
		mk(func(e []uint64) { e[0] = ^uint64(0) }),
		mk(func(e []uint64) { e[w-1] = ^uint64(0) }),
		mk(func(e []uint64) { e[0], e[1] = 1<<63, 1 }),
	}
}

// operands returns count random elements of f in x and y, with the edge
// elements at the front of x and at the back of y, so that edges meet
// random values and each other.
func operands(f *field.Field, count int, seed uint64) (x, y []uint64) {
	w := f.Words()
	x = gputest.Words[uint64](count*w, seed)
	y = gputest.Words[uint64](count*w, seed^0x9e3779b97f4a7c15)
	for i, e := range edges(f) {
		if i < count {
			copy(x[i*w:], e)
			copy(y[(count-1-i)*w:], e)
		}
	}
	return x, y
}

// counts are the batch sizes, in elements, every design is checked at:
// around the 32-element chunks and the blocks of the bit-sliced designs,
// and larger without -short.
func counts(f *field.Field) []int {
	c := []int{1, 2, 31, 32, 33, 255, 257, 1000}
	if !testing.Short() {
		c = append(c, 1<<16+3)
		switch f.N() {
		case 128, 256:
			c = append(c, 1<<24+5) // the largest batch
		default:
			c = append(c, 1<<20+7)
		}
	}
	return c
}

// TestMulVec checks every design against field/gf2n's MulVec, bit for bit,
// on random and edge elements of every field, at every batch size, on the
// default stream and on a stream, and in place (z = x, z = y).
func TestMulVec(t *testing.T) {
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for _, f := range fields(t) {
		ms := make([]*Multiplier, len(Designs))
		for i, design := range Designs {
			ms[i], err = New(d, f, design)
			require.NoError(t, err, "New(GF(2^%d), %v)", f.N(), design)
			require.Equal(t, design, ms[i].Design())
			require.Same(t, f, ms[i].Field())
			require.Same(t, d, ms[i].Device())
		}
		for _, count := range counts(f) {
			x, y := operands(f, count, uint64(count)*5+uint64(f.N()))
			want := make([]uint64, len(x))
			require.NoError(t, f.MulVec(want, x, y))
			dx, dy := gputest.Upload(t, d, x), gputest.Upload(t, d, y)
			dz := gputest.Alloc[uint64](t, d, len(x))
			poison := gputest.Words[uint64](len(x), 99)
			for _, m := range ms {
				what := fmt.Sprintf("GF(2^%d) %v, %d elements", f.N(), m.Design(), count)
				require.NoError(t, dz.Upload(poison))
				require.NoError(t, m.MulVec(nil, dz, dx, dy), what)
				testutil.EqualSlices(t, want, gputest.Download(t, dz), what)
				if count > 1<<16 {
					continue
				}
				require.NoError(t, dz.Upload(poison))
				require.NoError(t, m.MulVec(s, dz, dx, dy), what)
				require.NoError(t, s.Synchronize())
				testutil.EqualSlices(t, want, gputest.Download(t, dz), "%s, on a stream", what)
				require.NoError(t, dz.Upload(x))
				require.NoError(t, m.MulVec(nil, dz, dz, dy), what)
				testutil.EqualSlices(t, want, gputest.Download(t, dz), "%s, z = x", what)
				require.NoError(t, dz.Upload(y))
				require.NoError(t, m.MulVec(nil, dz, dx, dz), what)
				testutil.EqualSlices(t, want, gputest.Download(t, dz), "%s, z = y", what)
			}
			for _, b := range []*gpu.Buffer[uint64]{dx, dy, dz} {
				require.NoError(t, b.Free())
			}
		}
		t.Logf("GF(2^%d): %d designs at %v elements", f.N(), len(ms), counts(f))
	}
}

// TestViews runs the product on views of a larger buffer, starting at whole
// elements, and checks that the words around them are not touched.
func TestViews(t *testing.T) {
	d := gputest.Device(t)
	for _, f := range fields(t) {
		w := f.Words()
		const count, off = 70, 3
		x, y := operands(f, count, 7)
		want := make([]uint64, len(x))
		require.NoError(t, f.MulVec(want, x, y))
		dx, dy := gputest.Upload(t, d, x), gputest.Upload(t, d, y)
		big := gputest.Alloc[uint64](t, d, (count+2*off)*w)
		for _, design := range Designs {
			m, err := New(d, f, design)
			require.NoError(t, err)
			poison := gputest.Words[uint64](big.Len(), 5)
			require.NoError(t, big.Upload(poison))
			v, err := big.View(off*w, count*w)
			require.NoError(t, err)
			require.NoError(t, m.MulVec(nil, v, dx, dy))
			got := gputest.Download(t, big)
			what := fmt.Sprintf("GF(2^%d) %v", f.N(), design)
			testutil.EqualSlices(t, poison[:off*w], got[:off*w], "%s: words before the view", what)
			testutil.EqualSlices(t, want, got[off*w:(off+count)*w], "%s: the view", what)
			testutil.EqualSlices(t, poison[(off+count)*w:], got[(off+count)*w:], "%s: words after the view", what)
		}
	}
}

// parseHexElem reads an element written as n/4 hexadecimal digits, the
// coefficient of x^(n−1) first (field/gf2n/testdata/ntl_vectors.txt).
func parseHexElem(t *testing.T, s string, n int) []uint64 {
	require.Len(t, s, n/4, "element %q", s)
	z := make([]uint64, n/64)
	for i := range z {
		v, err := strconv.ParseUint(s[len(s)-16*(i+1):len(s)-16*i], 16, 64)
		require.NoError(t, err)
		z[i] = v
	}
	return z
}

// TestNTLVectors checks every design against products computed by NTL's
// GF2E (field/gf2n's known answers, from internal/baselines/ntl-gf2e).
func TestNTLVectors(t *testing.T) {
	d := gputest.Device(t)
	file, err := os.Open("../../field/gf2n/testdata/ntl_vectors.txt")
	require.NoError(t, err)
	defer file.Close()
	batch := map[int][3][]uint64{} // n → x, y, x·y of every case
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		require.Len(t, fs, 6)
		n, err := strconv.Atoi(fs[0])
		require.NoError(t, err)
		b := batch[n]
		for i := range 3 {
			b[i] = append(b[i], parseHexElem(t, fs[i+1], n)...)
		}
		batch[n] = b
	}
	require.NoError(t, sc.Err())
	for _, f := range fields(t) {
		b := batch[f.N()]
		require.GreaterOrEqual(t, len(b[0])/f.Words(), 10, "known answers for n = %d", f.N())
		dx, dy := gputest.Upload(t, d, b[0]), gputest.Upload(t, d, b[1])
		dz := gputest.Alloc[uint64](t, d, len(b[0]))
		for _, design := range Designs {
			m, err := New(d, f, design)
			require.NoError(t, err)
			require.NoError(t, m.MulVec(nil, dz, dx, dy))
			assert.Equal(t, b[2], gputest.Download(t, dz), "GF(2^%d) %v: NTL's products", f.N(), design)
		}
	}
}

// TestMulVecHost checks the host call against field/gf2n: one part, many
// parts with a short last one, in place, and staging reused and regrown.
func TestMulVecHost(t *testing.T) {
	d := gputest.Device(t)
	for _, f := range fields(t) {
		w := f.Words()
		for _, design := range []Design{PerThread, RegisterCacheKaratsuba} {
			m, err := New(d, f, design)
			require.NoError(t, err)
			for _, c := range []struct{ count, part int }{{1, 0}, {100, 0}, {1000, 64}, {1000, 0}, {5000, 333}} {
				m.host.part = c.part * w
				x, y := operands(f, c.count, uint64(c.count))
				want := make([]uint64, len(x))
				require.NoError(t, f.MulVec(want, x, y))
				what := fmt.Sprintf("GF(2^%d) %v, %d elements, parts of %d", f.N(), design, c.count, c.part)
				z := gputest.Words[uint64](len(x), 3)
				require.NoError(t, m.MulVecHost(z, x, y), what)
				testutil.EqualSlices(t, want, z, what)
				xc := append([]uint64(nil), x...)
				require.NoError(t, m.MulVecHost(xc, xc, y), what)
				testutil.EqualSlices(t, want, xc, "%s, z = x", what)
				yc := append([]uint64(nil), y...)
				require.NoError(t, m.MulVecHost(yc, x, yc), what)
				testutil.EqualSlices(t, want, yc, "%s, z = y", what)
			}
			require.NoError(t, m.Close())
			require.NoError(t, m.Close(), "second Close")
			z := make([]uint64, 5*w)
			x, y := operands(f, 5, 1)
			want := make([]uint64, len(x))
			require.NoError(t, f.MulVec(want, x, y))
			require.NoError(t, m.MulVecHost(z, x, y), "after Close")
			testutil.EqualSlices(t, want, z, "GF(2^%d) after Close", f.N())
			require.NoError(t, m.Close())
		}
	}
}

func TestErrors(t *testing.T) {
	f, err := field.New(256)
	require.NoError(t, err)
	_, err = New(nil, f, PerThread)
	assert.ErrorIs(t, err, gpu.ErrNoDevice, "nil device")
	d := gputest.Device(t)
	_, err = New(d, nil, PerThread)
	assert.ErrorContains(t, err, "nil field")
	for _, design := range []Design{-1, numDesigns, 17} {
		_, err = New(d, f, design)
		assert.ErrorContains(t, err, "unknown design", "design %d", int(design))
	}
	w := f.Words()
	for _, design := range Designs {
		m, err := New(d, f, design)
		require.NoError(t, err)
		a, b := gputest.Alloc[uint64](t, d, 10*w), gputest.Alloc[uint64](t, d, 11*w)
		assert.ErrorIs(t, m.MulVec(nil, a, a, b), gpu.ErrLength, "%v: 10 and 11 elements", design)
		odd := gputest.Alloc[uint64](t, d, 10*w+1)
		assert.ErrorIs(t, m.MulVec(nil, odd, odd, odd), gpu.ErrLength, "%v: not a whole number of elements", design)
		assert.ErrorContains(t, m.MulVec(nil, a, a, nil), "nil", "%v: nil buffer", design)
		v, err := odd.View(1, 10*w)
		require.NoError(t, err)
		assert.ErrorContains(t, m.MulVec(nil, v, v, v), "16-byte", "%v: misaligned view", design)
		e := gputest.Alloc[uint64](t, d, 10*w)
		require.NoError(t, e.Free())
		assert.ErrorIs(t, m.MulVec(nil, a, a, e), gpu.ErrClosed, "%v: freed buffer", design)
		z := gputest.Alloc[uint64](t, d, 0)
		assert.NoError(t, m.MulVec(nil, z, z, z), "%v: empty batch", design)

		x := make([]uint64, 4*w)
		assert.ErrorIs(t, m.MulVecHost(x, x, x[:3*w]), gpu.ErrLength, "%v: host lengths", design)
		assert.ErrorIs(t, m.MulVecHost(x[:w+1], x[:w+1], x[:w+1]), gpu.ErrLength, "%v: host partial element", design)
		assert.NoError(t, m.MulVecHost(nil, nil, nil), "%v: empty host batch", design)
	}
}

// TestClosedDevice checks that a closed device gives no multiplier and that
// a multiplier of a closed device returns errors.
func TestClosedDevice(t *testing.T) {
	gputest.Device(t) // skips without a device
	f, err := field.New(128)
	require.NoError(t, err)
	d, err := gpu.Open(gpu.WithoutCache())
	require.NoError(t, err)
	m, err := New(d, f, PerThread)
	require.NoError(t, err)
	x := make([]uint64, 64)
	require.NoError(t, m.MulVecHost(x, x, x))
	require.NoError(t, d.Close())
	assert.ErrorIs(t, m.MulVecHost(x, x, x), gpu.ErrClosed, "MulVecHost on a closed device")
	assert.NoError(t, m.Close())
	_, err = New(d, f, RegisterCache)
	assert.ErrorIs(t, err, gpu.ErrClosed, "New on a closed device")
}

func TestDesignString(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Designs {
		s := d.String()
		assert.NotContains(t, s, "Design(", "design %d has no name", int(d))
		assert.False(t, seen[s], "two designs called %s", s)
		seen[s] = true
	}
	assert.Len(t, Designs, int(numDesigns))
	assert.Equal(t, "Design(7)", Design(7).String())
}
