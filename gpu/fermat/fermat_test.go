package fermat

import (
	"encoding/binary"
	"flag"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

var maxLog = flag.Int("fermat.maxlog", 20, "TestFFTGPU: largest log2 length checked against the CPU (24 = 16^6)")

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

var trOnce struct {
	t   *Transformer
	err error
	ok  bool
}

// transformer returns the Transformer shared by the tests (skipping without
// a device).
func transformer(t testing.TB) *Transformer {
	t.Helper()
	d := gputest.Device(t)
	if !trOnce.ok {
		trOnce.t, trOnce.err = New(d)
		trOnce.ok = true
	}
	require.NoError(t, trOnce.err)
	return trOnce.t
}

// randElem returns a random canonical element, an edge value one time in
// three: 0, 1, p−1, r^i, all digits r−1.
func randElem(r *rand.Rand) field.Element {
	var e field.Element
	switch r.IntN(15) {
	case 0:
		return e
	case 1:
		return *e.SetOne()
	case 2:
		e[7] = field.R
		return e
	case 3:
		return *e.SetRPow(r.IntN(16))
	case 4:
		for i := range e {
			e[i] = field.R - 1
		}
		return e
	}
	for i := range e {
		e[i] = r.Uint64N(field.R)
	}
	return e
}

// randVec returns n random canonical elements (edges mixed in), on all
// cores for large n.
func randVec(n int, seed uint64) []field.Element {
	v := make([]field.Element, n)
	parallel(n, 1<<14, func(lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(lo)))
		for i := lo; i < hi; i++ {
			v[i] = randElem(r)
		}
	})
	return v
}

// edgeVecs are whole vectors of one edge value.
func edgeVecs(n int) map[string][]field.Element {
	out := map[string][]field.Element{}
	fill := func(name string, e field.Element) {
		v := make([]field.Element, n)
		for i := range v {
			v[i] = e
		}
		out[name] = v
	}
	fill("zero", field.Element{})
	fill("one", field.Element{1})
	fill("p-1", field.Element{7: field.R})
	var e field.Element
	fill("r^3", *e.SetRPow(3))
	fill("r^13", *e.SetRPow(13))
	imp := make([]field.Element, n) // an impulse at 1: the powers of ω
	if n > 1 {
		imp[1].SetOne()
	}
	out["impulse"] = imp
	return out
}

// TestFFTGPU checks the device transforms against field/fermat's CPU
// transforms bit for bit, at every length 2^0 … 2^maxlog, on random
// vectors with edge elements mixed in, on vectors of one edge value, and
// IFFT∘FFT = id; the host helpers on the way.
func TestFFTGPU(t *testing.T) {
	tr := transformer(t)
	d := gputest.Device(t)
	top := *maxLog
	if testing.Short() {
		top = min(top, 14)
	}
	for k := 0; k <= top; k++ {
		n := 1 << k
		a := randVec(n, uint64(k))
		want := append([]field.Element(nil), a...)
		require.NoError(t, field.FFT(want))
		buf := gputest.Upload(t, d, a)
		require.NoError(t, tr.FFT(nil, buf))
		got := gputest.Download(t, buf)
		if !assert.True(t, equal(want, got), "FFT 2^%d: first difference at %d", k, firstDiff(want, got)) {
			continue
		}
		require.NoError(t, tr.IFFT(nil, buf))
		assert.True(t, equal(a, gputest.Download(t, buf)), "IFFT∘FFT 2^%d: first difference at %d", k, firstDiff(a, gputest.Download(t, buf)))
		if k <= 16 {
			wantI := append([]field.Element(nil), a...)
			require.NoError(t, field.IFFT(wantI))
			gotI := append([]field.Element(nil), a...)
			require.NoError(t, tr.IFFTHost(gotI))
			assert.True(t, equal(wantI, gotI), "IFFTHost 2^%d", k)
			gotF := append([]field.Element(nil), a...)
			require.NoError(t, tr.FFTHost(gotF))
			assert.True(t, equal(want, gotF), "FFTHost 2^%d", k)
		}
		if k <= 12 {
			for name, v := range edgeVecs(n) {
				w := append([]field.Element(nil), v...)
				require.NoError(t, field.FFT(w))
				g := append([]field.Element(nil), v...)
				require.NoError(t, tr.FFTHost(g))
				assert.True(t, equal(w, g), "FFT of %s, 2^%d", name, k)
			}
		}
	}
	t.Logf("GPU FFT = CPU FFT and IFFT∘FFT = id at 2^0 … 2^%d", top)
}

// TestLengths checks that unsupported lengths and non-canonical elements
// give errors naming what was wrong.
func TestLengths(t *testing.T) {
	for _, n := range []int{0, 3, 6, 24, 1000} {
		_, err := logLen(n)
		require.ErrorIs(t, err, field.ErrLength, "%d", n)
		assert.Contains(t, err.Error(), "powers of two", "%d", n)
	}
	_, err := New(nil)
	require.ErrorIs(t, err, gpu.ErrNoDevice)
	tr := transformer(t)
	d := gputest.Device(t)
	buf := gputest.Alloc[field.Element](t, d, 48)
	err = tr.FFT(nil, buf)
	require.ErrorIs(t, err, field.ErrLength)
	assert.True(t, strings.Contains(err.Error(), "48"), err.Error())
	require.ErrorIs(t, tr.IFFT(nil, buf), field.ErrLength)
	require.ErrorIs(t, tr.FFTHost(make([]field.Element, 5)), field.ErrLength)
	require.ErrorIs(t, tr.FFTHost(nil), field.ErrLength)
	bad := make([]field.Element, 4)
	bad[2][3] = field.R
	require.ErrorIs(t, tr.FFTHost(bad), field.ErrNotCanonical)
	assert.Equal(t, field.R, bad[2][3], "input unchanged")
	_, err = tr.MulBig(nil, big.NewInt(1))
	require.ErrorIs(t, err, field.ErrNil)
}

// TestMulBig multiplies big integers on the GPU against math/big and
// field/fermat's CPU MulBig: random operands of many sizes and signs,
// squares, all-ones operands, zero.
func TestMulBig(t *testing.T) {
	tr := transformer(t)
	r := rand.New(rand.NewPCG(11, 12))
	sizes := [][2]int{{1, 1}, {64, 64}, {100, 3000}, {240 * 16, 240 * 16}, {100000, 99999}, {300000, 5000}, {1 << 20, 1<<20 - 3}}
	if !testing.Short() {
		sizes = append(sizes, [2]int{1 << 22, 1 << 22}, [2]int{1 << 24, 1<<23 + 17})
	}
	for i, sz := range sizes {
		x, y := randBig(r, sz[0]), randBig(r, sz[1])
		if i%2 == 1 {
			y.Neg(y)
		}
		got, err := tr.MulBig(x, y)
		require.NoError(t, err)
		if sz[0] <= 1<<20 {
			assert.Zero(t, new(big.Int).Mul(x, y).Cmp(got), "%d × %d bits", sz[0], sz[1])
			cpu, err := field.MulBig(x, y)
			require.NoError(t, err)
			assert.Zero(t, cpu.Cmp(got), "CPU, %d × %d bits", sz[0], sz[1])
		} else { // math/big is slow here: poly/intpoly's CPU product
			want, err := intpoly.MulBig(x, y)
			require.NoError(t, err)
			assert.Zero(t, want.Cmp(got), "%d × %d bits", sz[0], sz[1])
		}
		sq, err := tr.MulBig(x, x)
		require.NoError(t, err)
		want, err := intpoly.MulBig(x, x)
		require.NoError(t, err)
		assert.Zero(t, want.Cmp(sq), "square, %d bits", sz[0])
	}
	ones := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1<<18), big.NewInt(1))
	got, err := tr.MulBig(ones, ones)
	require.NoError(t, err)
	assert.Zero(t, new(big.Int).Mul(ones, ones).Cmp(got), "all ones")
	got, err = tr.MulBig(ones, new(big.Int))
	require.NoError(t, err)
	assert.Zero(t, got.Sign())
}

// randBig returns a random integer of exactly bits bits.
func randBig(r *rand.Rand, bits int) *big.Int {
	b := make([]byte, (bits+7)/8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	x := new(big.Int).SetBytes(b)
	x.Rsh(x, uint(8*len(b)-bits))
	return x.SetBit(x, bits-1, 1)
}

func equal(a, b []field.Element) bool {
	return firstDiff(a, b) < 0
}

func firstDiff(a, b []field.Element) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestCarryPass checks the host's carry pass (MulBig's last step) against
// math/big on random 128-bit sums per word, with runs of all-ones words
// that make carries ripple across the parallel ranges.
func TestCarryPass(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 7, 1 << 16, 1<<18 + 3} {
		lo, hi := make([]uint64, n), make([]uint64, n)
		for u := range lo {
			lo[u] = r.Uint64()
			if r.IntN(4) == 0 {
				lo[u] = ^uint64(0)
			}
			hi[u] = r.Uint64N(8)
		}
		if n > 1<<16 { // a long ripple from one range into the next
			for u := n/2 - 1000; u < n/2+1000; u++ {
				lo[u], hi[u] = ^uint64(0), 0
			}
			hi[n/2-1001] = 5
		}
		hi[n-1] = 0
		toBig := func(w []uint64) *big.Int { // through big-endian bytes
			b := make([]byte, 8*len(w))
			for u, v := range w {
				binary.BigEndian.PutUint64(b[8*(len(w)-1-u):], v)
			}
			return new(big.Int).SetBytes(b)
		}
		want := toBig(lo)
		want.Add(want, toBig(hi).Lsh(toBig(hi), 64))
		zb, z := newWords(n)
		top := carryPass(z, lo, hi)
		x := fromWords(zb, z)
		got := new(big.Int).Lsh(new(big.Int).SetUint64(top), uint(64*n))
		assert.Zero(t, want.Cmp(got.Add(got, x)), "n = %d", n)
		assert.Equal(t, z[:len(words(x))], words(x), "words round trip, n = %d", n)
	}
}
