package gfvec

import (
	"errors"
	"flag"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

// parallel runs f over [0, n) split into one range per CPU.
func parallel(n int, f func(lo, hi int)) {
	p := runtime.NumCPU()
	if n < 1<<14 || p == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + p - 1) / p
	for lo := 0; lo < n; lo += step {
		wg.Go(func() { f(lo, min(lo+step, n)) })
	}
	wg.Wait()
}

// sizes are the lengths every kernel is checked at; the largest only
// without -short.
func sizes() []int {
	s := []int{1, 31, 32, 33, 1000, 1 << 20}
	if !testing.Short() {
		s = append(s, 1<<26+5)
	}
	return s
}

// testVariants are the kernel variants the tests check: every design, and the
// per-thread design also without its 16-byte-access kernels.
var testVariants = []testVariant{{PerThread, false}, {PerThread, true}, {RegisterCache, false}, {SharedMemory, false}}

type testVariant struct {
	design Design
	noVec  bool
}

func (v testVariant) String() string {
	if v.noVec {
		return v.design.String() + " (scalar)"
	}
	return v.design.String()
}

func TestGF64Kernels(t *testing.T) {
	d := gputest.Device(t)
	for _, n := range sizes() {
		a := gputest.Words[gf64.Element](n, uint64(n)*3+1)
		b := gputest.Words[gf64.Element](n, uint64(n)*3+2)
		d0 := gputest.Words[gf64.Element](n, uint64(n)*3+3)
		c := gf64.Element(0x9e3779b97f4a7c15 ^ uint64(n))
		// Edge values at the front.
		edges := []gf64.Element{0, 1, 2, 1 << 63, ^gf64.Element(0), 0x1b, 0x8000000000000001}
		for i := 0; i < len(edges) && i < n; i++ {
			a[i] = edges[i]
			b[n-1-i] = edges[i]
		}
		wantMul := make([]gf64.Element, n)
		wantScale := make([]gf64.Element, n)
		wantMulAdd := append([]gf64.Element(nil), d0...)
		parallel(n, func(lo, hi int) {
			gf64.MulVec(wantMul[lo:hi], a[lo:hi], b[lo:hi])
			gf64.ScaleVec(wantScale[lo:hi], a[lo:hi], c)
			gf64.MulAddVec(wantMulAdd[lo:hi], a[lo:hi], c)
		})
		da, db, dd := gputest.Upload(t, d, a), gputest.Upload(t, d, b), gputest.Alloc[gf64.Element](t, d, n)
		poison := gputest.Words[gf64.Element](n, 99)
		for _, v := range testVariants {
			k, err := NewGF64(d, v.design)
			require.NoError(t, err, "NewGF64(%v)", v.design)
			require.Equal(t, v.design, k.Design())
			k.k.noVec = v.noVec
			check := func(op string, want []gf64.Element) {
				t.Helper()
				testutil.EqualSlices(t, want, gputest.Download(t, dd), "GF64 %v %s n=%d", v, op, n)
			}
			require.NoError(t, dd.Upload(poison))
			require.NoError(t, k.MulVec(nil, dd, da, db))
			check("MulVec", wantMul)
			require.NoError(t, dd.Upload(poison))
			require.NoError(t, k.ScaleVec(nil, dd, da, c))
			check("ScaleVec", wantScale)
			require.NoError(t, dd.Upload(d0))
			require.NoError(t, k.MulAddVec(nil, dd, da, c))
			check("MulAddVec", wantMulAdd)
			// In place: dst is a.
			if n <= 1<<20 {
				require.NoError(t, dd.Upload(a))
				require.NoError(t, k.MulVec(nil, dd, dd, db))
				check("MulVec in place", wantMul)
			}
		}
		for _, b := range []*gpu.Buffer[gf64.Element]{da, db, dd} {
			require.NoError(t, b.Free())
		}
	}
}

func TestGF32Kernels(t *testing.T) {
	d := gputest.Device(t)
	for _, n := range sizes() {
		a := gputest.Words[uint32](n, uint64(n)*5+1)
		b := gputest.Words[uint32](n, uint64(n)*5+2)
		d0 := gputest.Words[uint32](n, uint64(n)*5+3)
		c := uint32(0x9e3779b9 ^ n)
		edges := []uint32{0, 1, 2, 1 << 31, ^uint32(0), 0x8d, 0x80000001}
		for i := 0; i < len(edges) && i < n; i++ {
			a[i] = edges[i]
			b[n-1-i] = edges[i]
		}
		wantMul := make([]uint32, n)
		wantScale := make([]uint32, n)
		wantMulAdd := make([]uint32, n)
		parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				wantMul[i] = gf32MulRef(a[i], b[i])
				wantScale[i] = gf32MulRef(a[i], c)
				wantMulAdd[i] = d0[i] ^ wantScale[i]
			}
		})
		da, db, dd := gputest.Upload(t, d, a), gputest.Upload(t, d, b), gputest.Alloc[uint32](t, d, n)
		poison := gputest.Words[uint32](n, 98)
		for _, v := range testVariants {
			k, err := NewGF32(d, v.design)
			require.NoError(t, err, "NewGF32(%v)", v.design)
			require.Equal(t, v.design, k.Design())
			k.k.noVec = v.noVec
			check := func(op string, want []uint32) {
				t.Helper()
				testutil.EqualSlices(t, want, gputest.Download(t, dd), "GF32 %v %s n=%d", v, op, n)
			}
			require.NoError(t, dd.Upload(poison))
			require.NoError(t, k.MulVec(nil, dd, da, db))
			check("MulVec", wantMul)
			require.NoError(t, dd.Upload(poison))
			require.NoError(t, k.ScaleVec(nil, dd, da, c))
			check("ScaleVec", wantScale)
			require.NoError(t, dd.Upload(d0))
			require.NoError(t, k.MulAddVec(nil, dd, da, c))
			check("MulAddVec", wantMulAdd)
		}
		for _, b := range []*gpu.Buffer[uint32]{da, db, dd} {
			require.NoError(t, b.Free())
		}
	}
}

func TestErrors(t *testing.T) {
	_, err := NewGF64(nil, PerThread)
	assert.ErrorIs(t, err, gpu.ErrNoDevice, "nil device")
	_, err = NewGF32(nil, Design(-1))
	assert.Error(t, err, "unknown design")
	d := gputest.Device(t)
	_, err = NewGF64(d, Design(9))
	assert.Error(t, err, "unknown design accepted")
	_, err = NewGF32(d, numDesigns)
	assert.Error(t, err, "unknown design accepted")
	for _, design := range Designs {
		k, err := NewGF64(d, design)
		require.NoError(t, err)
		a, b := gputest.Alloc[gf64.Element](t, d, 10), gputest.Alloc[gf64.Element](t, d, 11)
		assert.ErrorIs(t, k.MulVec(nil, a, a, b), gpu.ErrLength, "%v: MulVec of lengths 10 and 11", design)
		assert.ErrorIs(t, k.ScaleVec(nil, b, a, 3), gpu.ErrLength, "%v: ScaleVec of lengths 11 and 10", design)
		assert.Error(t, k.MulVec(nil, a, a, nil), "%v: nil buffer accepted", design)
		require.NoError(t, b.Free())
		err = k.MulAddVec(nil, a, b, 3)
		assert.True(t, errors.Is(err, gpu.ErrClosed) || errors.Is(err, gpu.ErrLength), "%v: freed buffer accepted: %v", design, err)
		e := gputest.Alloc[gf64.Element](t, d, 10)
		require.NoError(t, e.Free())
		assert.ErrorIs(t, k.MulVec(nil, a, a, e), gpu.ErrClosed, "%v: freed buffer", design)
		z := gputest.Alloc[gf64.Element](t, d, 0)
		assert.NoError(t, k.MulVec(nil, z, z, z), "%v: empty MulVec", design)
	}
}

// TestClosedDevice checks that a closed device gives no kernels.
func TestClosedDevice(t *testing.T) {
	gputest.Device(t) // skips without a device
	d, err := gpu.Open(gpu.WithoutCache())
	require.NoError(t, err)
	require.NoError(t, d.Close())
	_, err = NewGF64(d, PerThread)
	assert.ErrorIs(t, err, gpu.ErrClosed, "NewGF64 on a closed device")
	_, err = NewGF32(d, RegisterCache)
	assert.ErrorIs(t, err, gpu.ErrClosed, "NewGF32 on a closed device")
}

func TestDesignString(t *testing.T) {
	for _, d := range Designs {
		assert.NotContains(t, d.String(), "Design(", "design %d has no name", int(d))
	}
	assert.Equal(t, "Design(7)", Design(7).String())
}
