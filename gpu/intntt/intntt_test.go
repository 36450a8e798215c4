package intntt

import (
	"flag"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

var accOnce struct {
	a   *Accelerator
	err error
	ok  bool
}

// accel returns the Accelerator shared by the tests (skipping without a
// device).
func accel(t testing.TB) *Accelerator {
	t.Helper()
	d := gputest.Device(t)
	if !accOnce.ok {
		accOnce.a, accOnce.err = New(d)
		accOnce.ok = true
	}
	require.NoError(t, accOnce.err)
	return accOnce.a
}

// TestMulPackedGPU compares the device's products with intpoly's CPU
// products, bit for bit, on random signed polynomials.
func TestMulPackedGPU(t *testing.T) {
	a := accel(t)
	r := rand.New(rand.NewPCG(3, 4))
	cases := polyCases(testing.Short())
	if !testing.Short() {
		cases = append(cases, polyCase{1 << 16, 1 << 16, 64, 64}, polyCase{1 << 16, 1 << 16, 1024, 1024},
			polyCase{1 << 20, 1 << 20, 64, 64}, polyCase{1 << 20, 1 << 19, 256, 256}, polyCase{1 << 22, 1 << 22, 64, 64})
	}
	for _, tc := range cases {
		var x, y intpoly.Packed
		if tc.la >= 1<<16 {
			x, y = fastPacked(tc.la, tc.bitsA, uint64(tc.la)), fastPacked(tc.lb, tc.bitsB, uint64(tc.lb)+1)
		} else {
			x, _ = randPacked(r, tc.la, intpoly.WidthFor(tc.bitsA), tc.bitsA)
			y, _ = randPacked(r, tc.lb, intpoly.WidthFor(tc.bitsB), tc.bitsB)
		}
		want := cpuPacked(t, x, y, tc.bitsA, tc.bitsB, 0)
		got := intpoly.NewPacked(want.Len(), want.Width)
		require.NoError(t, a.MulPacked(got, x, y), "%+v", tc)
		assert.Equal(t, want.Limbs, got.Limbs, "%+v", tc)
		// A square (the same operand twice) takes one transform.
		if tc.la == tc.lb && tc.la <= 1<<16 {
			want := cpuPacked(t, x, x, tc.bitsA, tc.bitsA, 0)
			got := intpoly.NewPacked(want.Len(), want.Width)
			require.NoError(t, a.MulPacked(got, x, x))
			assert.Equal(t, want.Limbs, got.Limbs, "square %+v", tc)
		}
	}
	t.Logf("GPU products equal intpoly's CPU products on %d shapes", len(cases))
}

// TestThroughIntpoly runs intpoly's entry points on the Accelerator:
// Mul and a Multiplier against math/big schoolbook-free references (the
// CPU path), MulBig against math/big.
func TestThroughIntpoly(t *testing.T) {
	a := accel(t)
	r := rand.New(rand.NewPCG(5, 6))
	_, xs := randPacked(r, 300, 9, 513)
	_, ys := randPacked(r, 200, 2, 70)
	ys = append(ys, new(big.Int), new(big.Int)) // trailing zeros
	want, err := intpoly.Mul(xs, ys)
	require.NoError(t, err)
	got, err := intpoly.Mul(xs, ys, intpoly.WithAccelerator(a))
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Zero(t, want[i].Cmp(got[i]), "coefficient %d", i)
	}
	// Coefficients past the primes' capacity (2·4096 bits and more against
	// 256 primes of 31 bits): the Accelerator refuses them with
	// ErrTooLarge and intpoly multiplies by 64-bit slices on it.
	_, wa := randPacked(r, 37, intpoly.WidthFor(4096), 4096)
	_, wb := randPacked(r, 29, intpoly.WidthFor(4100), 4100)
	wa[3].Sub(new(big.Int).Lsh(big.NewInt(1), 4096), big.NewInt(1)) // all ones
	wa[5].Neg(wa[3])
	pa, err := intpoly.PackBig(wa, intpoly.WidthFor(4097))
	require.NoError(t, err)
	pb, err := intpoly.PackBig(wb, intpoly.WidthFor(4101))
	require.NoError(t, err)
	assert.ErrorIs(t, a.MulPacked(intpoly.NewPacked(65, intpoly.WidthFor(2*4101+8)), pa, pb), intpoly.ErrTooLarge, "4096-bit coefficients in one product")
	for _, sq := range []bool{false, true} {
		y := wb
		if sq {
			y = wa
		}
		want, err := intpoly.Mul(wa, y)
		require.NoError(t, err)
		got, err := intpoly.Mul(wa, y, intpoly.WithAccelerator(a))
		require.NoError(t, err, "by slices, square=%v", sq)
		require.Len(t, got, len(want))
		for i := range want {
			assert.Zero(t, want[i].Cmp(got[i]), "by slices, square=%v, coefficient %d", sq, i)
		}
	}
	sizes := []int{1 << 17, 1<<20 + 13, 1 << 22}
	if !testing.Short() {
		sizes = append(sizes, 1<<24, 1<<26)
	}
	for _, bits := range sizes {
		x, y := randBig(r, bits), randBig(r, bits-7)
		y.Neg(y)
		var want *big.Int
		if bits <= 1<<22 {
			want = new(big.Int).Mul(x, y)
		} else {
			want, err = intpoly.MulBig(x, y)
			require.NoError(t, err)
		}
		got, err := intpoly.MulBig(x, y, intpoly.WithAccelerator(a))
		require.NoError(t, err)
		assert.Zero(t, want.Cmp(got), "%d bits", bits)
		sq, err := intpoly.MulBig(x, x, intpoly.WithAccelerator(a))
		require.NoError(t, err)
		var wantSq *big.Int
		if bits <= 1<<22 {
			wantSq = new(big.Int).Mul(x, x)
		} else { // math/big would take seconds; intpoly's CPU path is checked against it
			wantSq, err = intpoly.MulBig(x, x)
			require.NoError(t, err)
		}
		assert.Zero(t, wantSq.Cmp(sq), "square, %d bits", bits)
	}
	// Edge values: all-ones operands.
	x := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1<<18), big.NewInt(1))
	got2, err := intpoly.MulBig(x, x, intpoly.WithAccelerator(a))
	require.NoError(t, err)
	assert.Zero(t, new(big.Int).Mul(x, x).Cmp(got2))
}

// randBig returns a random integer of bits bits (top bit set).
func randBig(r *rand.Rand, bits int) *big.Int {
	b := make([]byte, (bits+7)/8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	x := new(big.Int).SetBytes(b)
	x.Rsh(x, uint(8*len(b)-bits))
	return x.SetBit(x, bits-1, 1)
}

// TestMulPackedDevice checks the device-resident entry point and its
// errors.
func TestMulPackedDevice(t *testing.T) {
	a := accel(t)
	d := gputest.Device(t)
	r := rand.New(rand.NewPCG(7, 8))
	x, _ := randPacked(r, 5000, 2, 100)
	y, _ := randPacked(r, 3000, 1, 40)
	want := cpuPacked(t, x, y, 100, 40, 3)
	dx, dy := gputest.Upload(t, d, x.Limbs), gputest.Upload(t, d, y.Limbs)
	dd := gputest.Alloc[uint64](t, d, want.Len()*3)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	sh := Shape{WidthA: 2, WidthB: 1, WidthDst: 3, BitsA: 100, BitsB: 40}
	require.NoError(t, a.MulPackedDevice(s, dd, dx, dy, sh))
	require.NoError(t, s.Synchronize())
	assert.Equal(t, want.Limbs, gputest.Download(t, dd))

	sh2 := sh
	sh2.WidthDst = 2
	assert.ErrorIs(t, a.MulPackedDevice(nil, dd, dx, dy, sh2), intpoly.ErrWidth)
	sh3 := sh
	sh3.BitsA = 200
	assert.ErrorIs(t, a.MulPackedDevice(nil, dd, dx, dy, sh3), intpoly.ErrWidth)
	short := intpoly.NewPacked(want.Len()-1, 3)
	assert.ErrorIs(t, a.MulPacked(short, x, y), intpoly.ErrWidth)
	assert.ErrorIs(t, a.MulNat(make([]uint64, 3), make([]uint64, 1), make([]uint64, 1)), intpoly.ErrWidth)
	_, err = New(nil)
	assert.ErrorIs(t, err, gpu.ErrNoDevice)
	t.Logf("device-resident product of %d×%d coefficients equals the CPU's", x.Len(), y.Len())
}

// TestCarryGPU runs the carry kernels on the device against math/big on
// carry chains of every reach (carryCase), the scan's chunks included.
func TestCarryGPU(t *testing.T) {
	a := accel(t)
	d := gputest.Device(t)
	r := rand.New(rand.NewPCG(13, 14))
	sizes := []int{1, 2, 33, 1024, 1025, 70000, 1<<20 + 3}
	if !testing.Short() {
		sizes = append(sizes, 3<<20, 1<<23)
	}
	for _, nz := range sizes {
		lo, hi := carryCase(r, nz)
		want, wc := carryWant(lo, hi)
		dl, dh := gputest.Upload(t, d, lo), gputest.Upload(t, d, hi)
		nb := (nz + carryThreads - 1) / carryThreads
		agg := gputest.Alloc[uint32](t, d, nb+1)
		require.NoError(t, d.Do(nil, func(q *gpu.Queue) error {
			return a.carry(q, dl.Ptr(), dh.Ptr(), nz, agg.Ptr(), nb)
		}))
		assert.Equal(t, want, gputest.Download(t, dl), "nz %d", nz)
		assert.Equal(t, wc, gputest.Download(t, agg)[nb], "carry out, nz %d", nz)
	}
	t.Logf("device carries equal math/big's on %d sizes up to %d limbs", len(sizes), sizes[len(sizes)-1])
}

// TestMulNatDevice checks the device-resident integer product against
// math/big: unequal lengths, squares, all-ones operands (long carry
// chains), leading zero limbs, empty operands, and its errors.
func TestMulNatDevice(t *testing.T) {
	a := accel(t)
	d := gputest.Device(t)
	r := rand.New(rand.NewPCG(15, 16))
	sizes := [][2]int{{1, 1}, {1, 9}, {5, 3}, {1000, 999}, {4097, 3000}, {1 << 14, 1 << 12}, {1 << 18, 1 << 18}}
	if !testing.Short() {
		sizes = append(sizes, [2]int{1 << 22, 1 << 22}, [2]int{1<<22 + 5, 1 << 20})
	}
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for _, sz := range sizes {
		for rep := range 3 {
			x, y := make([]uint64, sz[0]), make([]uint64, sz[1])
			for i := range x {
				x[i] = r.Uint64()
			}
			for i := range y {
				y[i] = r.Uint64()
			}
			switch rep {
			case 1: // all ones: the square of 2^k − 1 has a run of ones
				for i := range x {
					x[i] = ^uint64(0)
				}
				for i := range y {
					y[i] = ^uint64(0)
				}
			case 2: // leading zero limbs
				x[len(x)-1] = 0
			}
			dx, dy := gputest.Upload(t, d, x), gputest.Upload(t, d, y)
			dz := gputest.Alloc[uint64](t, d, len(x)+len(y))
			require.NoError(t, a.MulNatDevice(s, dz, dx, dy))
			require.NoError(t, s.Synchronize())
			want := refMul(t, x, y)
			assert.Zero(t, want.Cmp(natBig(gputest.Download(t, dz))), "%v rep %d", sz, rep)
			// The same buffer twice: a square.
			dz2 := gputest.Alloc[uint64](t, d, 2*len(x))
			require.NoError(t, a.MulNatDevice(nil, dz2, dx, dx))
			assert.Zero(t, refMul(t, x, x).Cmp(natBig(gputest.Download(t, dz2))), "square %v rep %d", sz, rep)
			// Host to host.
			z := make([]uint64, len(x)+len(y))
			require.NoError(t, a.MulNat(z, x, y))
			assert.Zero(t, want.Cmp(natBig(z)), "host to host %v rep %d", sz, rep)
		}
	}
	// An empty operand: z is zeroed.
	dz := gputest.Upload(t, d, []uint64{7, 7, 7})
	dx := gputest.Upload(t, d, []uint64{1, 2, 3})
	empty := gputest.Alloc[uint64](t, d, 1)
	ev, err := empty.View(0, 0)
	require.NoError(t, err)
	require.NoError(t, a.MulNatDevice(nil, dz, dx, ev))
	assert.Equal(t, []uint64{0, 0, 0}, gputest.Download(t, dz))
	assert.ErrorIs(t, a.MulNatDevice(nil, dz, dx, dx), intpoly.ErrWidth)
	t.Logf("device-resident integer products equal math/big's on %d shapes (up to %v limbs)", len(sizes), sizes[len(sizes)-1])
}

// refMul is x·y by math/big, or by intpoly's CPU path (itself checked
// against math/big) where math/big would take seconds.
func refMul(t *testing.T, x, y []uint64) *big.Int {
	bx, by := natBig(x), natBig(y)
	if min(len(x), len(y)) < 1<<14 {
		return bx.Mul(bx, by)
	}
	z, err := intpoly.MulBig(bx, by)
	require.NoError(t, err)
	return z
}
