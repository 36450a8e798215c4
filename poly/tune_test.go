package poly

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// TestTuneMul prints interleaved timings (minimum of several rounds) of the
// multiplication methods around the thresholds. It only runs with
// POLY_TUNE=1; it asserts nothing.
func TestTuneMul(t *testing.T) {
	if os.Getenv("POLY_TUNE") == "" {
		t.Skip("set POLY_TUNE=1 to print multiplication timings")
	}
	timeIt := func(f func()) time.Duration {
		best := time.Duration(1 << 62)
		for range 7 {
			reps := 1
			for {
				start := time.Now()
				for range reps {
					f()
				}
				d := time.Since(start)
				if d > 2*time.Millisecond {
					best = min(best, d/time.Duration(reps))
					break
				}
				reps *= 2
			}
		}
		return best
	}
	r := newRand(1)
	for _, ln := range [][2]int{{32, 32}, {48, 48}, {64, 64}, {96, 96}, {128, 128}, {192, 192}, {256, 256}, {384, 384}, {512, 512}, {768, 768}, {1024, 1024},
		{2000, 2000}, {3000, 3000}, {1 << 14, 32}, {1 << 14, 64}, {1 << 14, 96}, {1 << 14, 128}, {1 << 14, 192}, {1 << 14, 256}, {1 << 14, 512}, {1 << 14, 1024}} {
		p, q := randPoly(r, ln[0]), randPoly(r, ln[1])
		line := fmt.Sprintf("%6d x %5d:", ln[0], ln[1])
		for _, m := range mulMethods {
			d := timeIt(func() { m.mul(p, q) })
			line += fmt.Sprintf("  %s %9.1fµs", m.name, float64(d.Nanoseconds())/1e3)
		}
		t.Log(line, " choice:", []string{"schoolbook", "karatsuba", "fft"}[chooseMul(ln[0], ln[1])])
	}
	saved := karatsubaLeaf
	for _, leaf := range []int{32, 48, 64, 96, 128} {
		karatsubaLeaf = leaf
		line := fmt.Sprintf("leaf %3d:", leaf)
		for _, n := range []int{128, 256, 512, 1024, 4096} {
			p, q := randPoly(r, n), randPoly(r, n)
			d := timeIt(func() { p.MulKaratsuba(q) })
			line += fmt.Sprintf("  n=%d %8.1fµs", n, float64(d.Nanoseconds())/1e3)
		}
		t.Log(line)
	}
	karatsubaLeaf = saved
	for _, sh := range [][2]int{{256, 128}, {512, 256}, {768, 384}, {1024, 512}, {2048, 1024}, {4096, 2048}, {1 << 14, 1 << 13}, {1 << 14, 128}, {1 << 14, 256}, {1 << 14, 512}, {1 << 14, 1<<14 - 256}} {
		a, d := randPoly(r, sh[0]), randPoly(r, sh[1])
		a[sh[0]-1], d[sh[1]-1] = 1, 1
		tl := timeIt(func() { divModLong(a, d) })
		tn := timeIt(func() { divModNewton(a, d) })
		t.Logf("divide %5d by %5d: long %9.1fµs  newton %9.1fµs", sh[0], sh[1], float64(tl.Nanoseconds())/1e3, float64(tn.Nanoseconds())/1e3)
	}
}
