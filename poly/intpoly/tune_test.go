package intpoly

import (
	"flag"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

var tune = flag.Bool("intpoly.tune", false, "run TestTuneMulBig: time MulBig's transforms against math/big around the crossover")

// TestTuneMulBig prints, for operands of 2^12 … 2^20 bits, the time of
// math/big's product and of the transform path on one goroutine: the
// crossover (kernels.crossover) is the first size where the transforms win.
// It only reports (wall-clock times are never asserted).
func TestTuneMulBig(t *testing.T) {
	if !*tune {
		t.Skip("timing report; run with -intpoly.tune")
	}
	defer func(c int) { mulBigCrossover = c }(mulBigCrossover)
	mulBigCrossover = 1
	r := rand.New(rand.NewPCG(13, 13))
	best := func(f func()) time.Duration {
		b := time.Duration(1 << 62)
		for range 7 {
			s := time.Now()
			f()
			b = min(b, time.Since(s))
		}
		return b
	}
	for lg := 12; lg <= 20; lg++ {
		for _, bits := range []int{1 << lg, 3 << (lg - 1)} {
			x, y := randNat(r, bits), randNat(r, bits)
			var z big.Int
			tb := best(func() { z.Mul(x, y) })
			ti := best(func() { _, _ = MulBig(x, y, WithWorkers(1)) })
			t.Logf("%8d bits: math/big %10v  transforms %10v  ratio %.2f (%s)", bits, tb, ti, float64(tb)/float64(ti), activeKernels().name)
		}
	}
}
