package fieldvec_test

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/fieldvec"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

// host is the reference arithmetic of a field: gnark-crypto's or field/gf64's.
type host[E any] struct {
	rand     func(r *rand.Rand) E
	fromU    func(v uint64) E
	add, sub func(a, b E) E
	mul      func(a, b E) E
	inv      func(a E) E // 0 for 0
}

type gnark[E any] interface {
	*E
	SetUint64(uint64) *E
	SetRandom() (*E, error)
	Add(x, y *E) *E
	Sub(x, y *E) *E
	Mul(x, y *E) *E
	Inverse(x *E) *E
}

func gnarkHost[E any, P gnark[E]]() host[E] {
	return host[E]{
		rand:  func(*rand.Rand) E { var e E; P(&e).SetRandom(); return e },
		fromU: func(v uint64) E { var e E; P(&e).SetUint64(v); return e },
		add:   func(a, b E) E { P(&a).Add(&a, &b); return a },
		sub:   func(a, b E) E { P(&a).Sub(&a, &b); return a },
		mul:   func(a, b E) E { P(&a).Mul(&a, &b); return a },
		inv:   func(a E) E { P(&a).Inverse(&a); return a },
	}
}

var gfHost = host[gf64.Element]{
	rand:  func(r *rand.Rand) gf64.Element { return gf64.Element(r.Uint64()) },
	fromU: func(v uint64) gf64.Element { return gf64.Element(v) },
	add:   func(a, b gf64.Element) gf64.Element { return a ^ b },
	sub:   func(a, b gf64.Element) gf64.Element { return a ^ b },
	mul:   gf64.Mul,
	inv:   gf64.Inverse,
}

// TestVec checks every operation against the host's arithmetic for every
// field, on random vectors with zeros, ones and −1 among them, lengths off
// the block size and the grid's stride, in place and not.
func TestVec(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testVec(t, gnarkHost[babybear.Element]()) })
	t.Run("koalabear", func(t *testing.T) { testVec(t, gnarkHost[koalabear.Element]()) })
	t.Run("goldilocks", func(t *testing.T) { testVec(t, gnarkHost[goldilocks.Element]()) })
	t.Run("bn254", func(t *testing.T) { testVec(t, gnarkHost[fr.Element]()) })
	t.Run("gf64", func(t *testing.T) { testVec(t, gfHost) })
}

func testVec[E fieldvec.Element](t *testing.T, h host[E]) {
	d := gputest.Device(t)
	v, err := fieldvec.New[E](d)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	minus1 := h.sub(h.fromU(0), h.fromU(1))
	for _, n := range []int{1, 7, 256, 1000, 2049, 70001} {
		vec := func() []E {
			x := make([]E, n)
			for i := range x {
				x[i] = h.rand(r)
			}
			for _, i := range []int{0, n / 2, n - 1} {
				x[i] = []E{h.fromU(0), h.fromU(1), minus1}[i%3]
			}
			return x
		}
		a, b := vec(), vec()
		da, db, dd := upload(t, d, a), upload(t, d, b), alloc[E](t, d, n)
		c := h.rand(r)
		each := func(f func(x, y E) E) []E {
			out := make([]E, n)
			for i := range out {
				out[i] = f(a[i], b[i])
			}
			return out
		}
		cases := []struct {
			name string
			run  func(s *gpu.Stream, dst *gpu.Buffer[E]) error
			want []E
		}{
			{"Add", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.Add(s, dst, da, db) }, each(h.add)},
			{"Sub", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.Sub(s, dst, da, db) }, each(h.sub)},
			{"Mul", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.Mul(s, dst, da, db) }, each(h.mul)},
			{"AddConst", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.AddConst(s, dst, da, c) },
				each(func(x, _ E) E { return h.add(x, c) })},
			{"SubConst", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.SubConst(s, dst, da, c) },
				each(func(x, _ E) E { return h.sub(x, c) })},
			{"Scale", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.Scale(s, dst, da, c) },
				each(func(x, _ E) E { return h.mul(x, c) })},
			{"Invert", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.Invert(s, dst, da) },
				each(func(x, _ E) E { return h.inv(x) })},
		}
		table := []E{h.rand(r), h.rand(r), h.fromU(0), minus1, h.rand(r), h.rand(r), h.rand(r), h.fromU(1)}
		for _, shift := range []uint{0, 3} {
			cases = append(cases, struct {
				name string
				run  func(s *gpu.Stream, dst *gpu.Buffer[E]) error
				want []E
			}{"ScaleIndexed", func(s *gpu.Stream, dst *gpu.Buffer[E]) error { return v.ScaleIndexed(s, dst, da, table, shift) },
				func() []E {
					out := make([]E, n)
					for i := range out {
						out[i] = h.mul(a[i], table[(i>>shift)%len(table)])
					}
					return out
				}()})
		}
		s, err := d.NewStream()
		require.NoError(t, err)
		for _, tc := range cases {
			require.NoError(t, tc.run(s, dd), tc.name)
			require.NoError(t, s.Synchronize())
			assert.Equal(t, tc.want, download(t, dd), "%s, n = %d", tc.name, n)
		}
		require.NoError(t, s.Close())
		// In place, on the default stream: dst is the first input.
		for _, tc := range cases[:3] {
			ia := upload(t, d, a)
			require.NoError(t, map[string]func(s *gpu.Stream, dst, a, b *gpu.Buffer[E]) error{
				"Add": v.Add, "Sub": v.Sub, "Mul": v.Mul}[tc.name](nil, ia, ia, db))
			assert.Equal(t, tc.want, download(t, ia), "%s in place", tc.name)
		}
		ia := upload(t, d, a)
		require.NoError(t, v.Invert(nil, ia, ia))
		assert.Equal(t, cases[6].want, download(t, ia), "Invert in place")

		// Combine: k columns end to end, across a launch's 32.
		for _, k := range []int{1, 5, 33} {
			cols := make([]E, 0, k*n)
			coeffs := make([]E, k)
			for j := range k {
				cols = append(cols, vec()...)
				coeffs[j] = h.rand(r)
			}
			want := make([]E, n)
			for i := range want {
				want[i] = h.fromU(0)
				for j := range k {
					want[i] = h.add(want[i], h.mul(coeffs[j], cols[j*n+i]))
				}
			}
			require.NoError(t, v.Combine(nil, dd, upload(t, d, cols), coeffs))
			assert.Equal(t, want, download(t, dd), "Combine of %d columns", k)
		}
	}
}

// TestPoints checks Geometric against successive products and Span against
// sums of the basis vectors of each index's bits.
func TestPoints(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testPoints(t, gnarkHost[babybear.Element]()) })
	t.Run("goldilocks", func(t *testing.T) { testPoints(t, gnarkHost[goldilocks.Element]()) })
	t.Run("bn254", func(t *testing.T) { testPoints(t, gnarkHost[fr.Element]()) })
	t.Run("gf64", func(t *testing.T) { testPoints(t, gfHost) })
}

func testPoints[E fieldvec.Element](t *testing.T, h host[E]) {
	d := gputest.Device(t)
	v, err := fieldvec.New[E](d)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 1 << 12, 100003} {
		x0, ratio := h.rand(r), h.rand(r)
		want := make([]E, n)
		want[0] = x0
		for i := 1; i < n; i++ {
			want[i] = h.mul(want[i-1], ratio)
		}
		dst := alloc[E](t, d, n)
		require.NoError(t, v.Geometric(nil, dst, x0, ratio))
		assert.Equal(t, want, download(t, dst), "Geometric, n = %d", n)

		basis := make([]E, 17)
		for b := range basis {
			basis[b] = h.rand(r)
		}
		shift := h.rand(r)
		for i := range want {
			want[i] = shift
			for b := range basis {
				if i>>b&1 == 1 {
					want[i] = h.add(want[i], basis[b])
				}
			}
		}
		require.NoError(t, v.Span(nil, dst, shift, basis))
		assert.Equal(t, want, download(t, dst), "Span, n = %d", n)
	}
}

// TestErrors checks that bad lengths, overlaps, other devices' and freed
// buffers and bad tables are errors, not launches.
func TestErrors(t *testing.T) {
	d := gputest.Device(t)
	v, err := fieldvec.New[gf64.Element](d)
	require.NoError(t, err)
	a, b, short := alloc[gf64.Element](t, d, 64), alloc[gf64.Element](t, d, 64), alloc[gf64.Element](t, d, 63)
	whole := alloc[gf64.Element](t, d, 128)
	lo, err := whole.View(0, 64)
	require.NoError(t, err)
	mid, err := whole.View(32, 64)
	require.NoError(t, err)
	for name, err := range map[string]error{
		"short input":      v.Add(nil, a, b, short),
		"nil input":        v.Mul(nil, a, nil, b),
		"partial overlap":  v.Sub(nil, mid, lo, b),
		"table size":       v.ScaleIndexed(nil, a, b, make([]gf64.Element, 3), 0),
		"table too long":   v.ScaleIndexed(nil, a, b, make([]gf64.Element, 64), 0),
		"span basis":       v.Span(nil, a, 0, make([]gf64.Element, 5)),
		"combine shape":    v.Combine(nil, a, whole, make([]gf64.Element, 3)),
		"combine overlaps": v.Combine(nil, lo, whole, make([]gf64.Element, 2)),
		"geometric length": v.Geometric(nil, nil, 1, 2),
	} {
		assert.ErrorIs(t, err, gpu.ErrLength, name)
	}
	f := alloc[gf64.Element](t, d, 64)
	require.NoError(t, f.Free())
	assert.ErrorIs(t, v.Add(nil, a, b, f), gpu.ErrClosed)
	_, err = fieldvec.New[gf64.Element](nil)
	assert.ErrorIs(t, err, gpu.ErrNoDevice)
}

func alloc[E any](t *testing.T, d *gpu.Device, n int) *gpu.Buffer[E] {
	t.Helper()
	b, err := gpu.Alloc[E](d, n)
	require.NoError(t, err)
	t.Cleanup(func() { b.Free() })
	return b
}

func upload[E any](t *testing.T, d *gpu.Device, x []E) *gpu.Buffer[E] {
	t.Helper()
	b := alloc[E](t, d, len(x))
	require.NoError(t, b.Upload(x))
	return b
}

func download[E any](t *testing.T, b *gpu.Buffer[E]) []E {
	t.Helper()
	out := make([]E, b.Len())
	require.NoError(t, b.Download(out))
	return out
}
