package intntt

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

// fastPacked returns n random coefficients with |x| < 2^bits, signs mixed,
// in the width intpoly.WidthFor(bits), without going through *big.Int.
func fastPacked(n, bits int, seed uint64) intpoly.Packed {
	w := intpoly.WidthFor(bits)
	p := intpoly.NewPacked(n, w)
	r := rand.New(rand.NewPCG(seed, seed^0x9e37))
	for j := range n {
		l := p.Limbs[j*w : (j+1)*w]
		for t := range l {
			if b := bits - 64*t; b >= 64 {
				l[t] = r.Uint64()
			} else if b > 0 {
				l[t] = r.Uint64() >> (64 - b)
			}
		}
		if r.IntN(2) == 0 { // negate
			c := uint64(1)
			for t := range l {
				v := ^l[t] + c
				if c == 1 && v != 0 {
					c = 0
				}
				l[t] = v
			}
		}
	}
	return p
}

func pow2Name(n int) string {
	for e := 0; e < 63; e++ {
		if 1<<e == n {
			return fmt.Sprintf("2^%d", e)
		}
	}
	return fmt.Sprint(n)
}

// BenchmarkMulPacked multiplies two polynomials of n coefficients with
// |x| < 2^bits, host to host: on the GPU (inputs and product through
// pinned memory) and with intpoly's CPU path on all cores, in the same
// binary. gpu-device is the device time of the product with the operands
// already on the device (events, median of 5); it also reports the seed's
// measure, modular multiplications per second of the transforms and the
// pointwise product.
func BenchmarkMulPacked(b *testing.B) {
	for _, n := range []int{1 << 16, 1 << 20, 1 << 24} {
		for _, bits := range []int{64, 256, 1024} {
			name := fmt.Sprintf("n=%s/bits=%d", pow2Name(n), bits)
			x, y := fastPacked(n, bits, 1), fastPacked(n, bits, 2)
			if n >= 1<<24 && bits > 64 {
				// Past the primes' capacity: intpoly's Multiplier on the
				// Accelerator, one product per pair of 64-bit slices.
				b.Run(name+"/gpu-slices", func(b *testing.B) {
					a := accel(b)
					_, err := newConsts(log2Ceil(2*n-1), 2*bits+log2Ceil(n)+1)
					require.ErrorIs(b, err, intpoly.ErrTooLarge)
					m, err := intpoly.NewMultiplier(n, n, bits, bits, intpoly.WithAccelerator(a))
					require.NoError(b, err)
					dst := intpoly.NewPacked(2*n-1, m.OutWidth())
					require.NoError(b, m.MulPacked(dst, x, y))
					b.ResetTimer()
					for range b.N {
						require.NoError(b, m.MulPacked(dst, x, y))
					}
				})
				continue
			}
			need := 2*bits + log2Ceil(n) + 1
			outW := (need + 63) / 64
			b.Run(name+"/gpu", func(b *testing.B) {
				a := accel(b)
				if _, err := newConsts(log2Ceil(2*n-1), need); err != nil {
					b.Skip(err)
				}
				dst := intpoly.NewPacked(2*n-1, outW)
				require.NoError(b, a.MulPacked(dst, x, y))
				b.ResetTimer()
				for range b.N {
					require.NoError(b, a.MulPacked(dst, x, y))
				}
			})
			b.Run(name+"/gpu-device", func(b *testing.B) {
				a := accel(b)
				c, err := newConsts(log2Ceil(2*n-1), need)
				if err != nil {
					b.Skip(err)
				}
				d := gputest.Device(b)
				dx, dy := gputest.Upload(b, d, x.Limbs), gputest.Upload(b, d, y.Limbs)
				dd := gputest.Alloc[uint64](b, d, (2*n-1)*outW)
				s, err := d.NewStream()
				require.NoError(b, err)
				defer s.Close()
				sh := Shape{WidthA: x.Width, WidthB: y.Width, WidthDst: outW, BitsA: bits, BitsB: bits}
				var dt time.Duration
				for range b.N {
					dt = gputest.DeviceTime(b, d, s, 1, 5, 1, func() error { return a.MulPackedDevice(s, dd, dx, dy, sh) })
				}
				N := float64(uint64(1) << c.logN)
				mults := float64(c.k) * (3*N/2*float64(c.logN) + 2*N)
				b.ReportMetric(float64(dt.Microseconds())/1e3, "device-ms")
				b.ReportMetric(mults/dt.Seconds()/1e9, "Gmodmul/s")
				b.ReportMetric(float64(c.k), "primes")
			})
			b.Run(name+"/cpu", func(b *testing.B) {
				m, err := intpoly.NewMultiplier(n, n, bits, bits)
				require.NoError(b, err)
				dst := intpoly.NewPacked(2*n-1, m.OutWidth())
				require.NoError(b, m.MulPacked(dst, x, y))
				b.ResetTimer()
				for range b.N {
					require.NoError(b, m.MulPacked(dst, x, y))
				}
				b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
			})
		}
	}
}

// BenchmarkMulBig multiplies two integers of the given size by MulBig on
// the GPU (host to host) and on the CPU's cores.
func BenchmarkMulBig(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, bits := range []int{1 << 20, 1 << 24, 1 << 28} {
		x, y := randBig(r, bits), randBig(r, bits)
		b.Run(fmt.Sprintf("bits=%s/gpu", pow2Name(bits)), func(b *testing.B) {
			a := accel(b)
			_, err := intpoly.MulBig(x, y, intpoly.WithAccelerator(a))
			require.NoError(b, err)
			b.ResetTimer()
			for range b.N {
				_, err = intpoly.MulBig(x, y, intpoly.WithAccelerator(a))
				require.NoError(b, err)
			}
		})
		b.Run(fmt.Sprintf("bits=%s/gpu-nat", pow2Name(bits)), func(b *testing.B) {
			a := accel(b)
			xl, yl := limbs64(x), limbs64(y)
			z := make([]uint64, len(xl)+len(yl))
			require.NoError(b, a.MulNat(z, xl, yl))
			b.ResetTimer()
			for range b.N {
				require.NoError(b, a.MulNat(z, xl, yl))
			}
		})
		b.Run(fmt.Sprintf("bits=%s/gpu-device", pow2Name(bits)), func(b *testing.B) {
			a := accel(b)
			d := gputest.Device(b)
			xl, yl := limbs64(x), limbs64(y)
			dx, dy := gputest.Upload(b, d, xl), gputest.Upload(b, d, yl)
			dz := gputest.Alloc[uint64](b, d, len(xl)+len(yl))
			s, err := d.NewStream()
			require.NoError(b, err)
			defer s.Close()
			var dt time.Duration
			for range b.N {
				dt = gputest.DeviceTime(b, d, s, 1, 5, 1, func() error { return a.MulNatDevice(s, dz, dx, dy) })
			}
			b.ReportMetric(float64(dt.Microseconds())/1e3, "device-ms")
		})
		b.Run(fmt.Sprintf("bits=%s/cpu", pow2Name(bits)), func(b *testing.B) {
			for range b.N {
				_, err := intpoly.MulBig(x, y)
				require.NoError(b, err)
			}
			b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
		})
		if bits <= 1<<20 {
			b.Run(fmt.Sprintf("bits=%s/mathbig", pow2Name(bits)), func(b *testing.B) {
				for range b.N {
					new(big.Int).Mul(x, y)
				}
			})
		}
	}
}

// limbs64 returns |x| as 64-bit limbs.
func limbs64(x *big.Int) []uint64 {
	b := new(big.Int).Abs(x).Bytes()
	out := make([]uint64, (len(b)+7)/8)
	for i := range b {
		out[i/8] |= uint64(b[len(b)-1-i]) << (8 * (i % 8))
	}
	return out
}
