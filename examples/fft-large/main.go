// Command fft-large times the additive FFT of one large polynomial over an
// affine subspace of GF(2^64): 2^log random coefficients, evaluated in place
// over a random log-dimensional affine subspace, with the wall time of the
// transform and the peak resident memory of the process.
//
//	go run ./examples/fft-large -log 30     # 8 GiB of coefficients
//	go run ./examples/fft-large -log 22 -check 4 -inverse
//
// -check evaluates the polynomial at that many random points of the
// subspace with Horner's rule (2^log multiplications each) and compares.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

func main() {
	logn := flag.Int("log", 30, "log2 of the number of coefficients (= subspace dimension)")
	seed := flag.Uint64("seed", 1, "random seed")
	check := flag.Int("check", 0, "points to check against Horner's rule")
	inverse := flag.Bool("inverse", false, "also time the IFFT and check the round trip")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the transforms to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fft-large:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*logn, *seed, *check, *inverse); err != nil {
		fmt.Fprintln(os.Stderr, "fft-large:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(logn int, seed uint64, check int, inverse bool) error {
	if logn < 0 || logn > domain.MaxTransformDim {
		return fmt.Errorf("-log %d out of range [0, %d]", logn, domain.MaxTransformDim)
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	var s *domain.Subspace
	for s == nil {
		basis := make([]gf64.Element, logn)
		for i := range basis {
			basis[i] = gf64.Element(r.Uint64())
		}
		s, _ = domain.New(gf64.Element(r.Uint64()), basis...)
	}
	n := s.Size()
	fmt.Printf("FFT of 2^%d coefficients (%.2f GiB) over a %d-dimensional affine subspace, GOMAXPROCS=%d\n",
		logn, float64(8*n)/(1<<30), logn, runtime.GOMAXPROCS(0))

	a := alloc(n)
	fill(a, seed)
	var coeffs []gf64.Element
	if check > 0 && n <= 1<<24 {
		coeffs = append([]gf64.Element(nil), a...)
	}
	// Checks on large sizes need the coefficients back: read them before
	// the transform at the sampled points' cost (Horner needs all of them),
	// so keep a copy only when it is small; otherwise regenerate.
	points := make([]int, check)
	for i := range points {
		points[i] = r.IntN(n)
	}

	start, cpu0 := time.Now(), cpuTime()
	if err := s.FFT(a); err != nil {
		return err
	}
	el, cpu := time.Since(start), cpuTime()-cpu0
	fmt.Printf("FFT:  %v wall (%.1f ns/element), %v CPU\n", el.Round(time.Millisecond),
		float64(el.Nanoseconds())/float64(n), cpu.Round(time.Millisecond))

	if check > 0 {
		got := make([]gf64.Element, len(points))
		for k, i := range points {
			got[k] = a[i]
		}
		if coeffs == nil { // regenerate the coefficients into a, then reuse it
			fill(a, seed)
			coeffs = a
		}
		for k, i := range points {
			if want := horner(coeffs, s.Element(i)); got[k] != want {
				return fmt.Errorf("FFT[%d] = %v, Horner gives %v", i, got[k], want)
			}
		}
		fmt.Printf("check: %d points agree with Horner's rule\n", check)
		if &coeffs[0] == &a[0] {
			if err := s.FFT(a); err != nil {
				return err
			}
		}
	}
	if inverse {
		start, cpu0 = time.Now(), cpuTime()
		if err := s.IFFT(a); err != nil {
			return err
		}
		el, cpu := time.Since(start), cpuTime()-cpu0
		fmt.Printf("IFFT: %v wall (%.1f ns/element), %v CPU\n", el.Round(time.Millisecond),
			float64(el.Nanoseconds())/float64(n), cpu.Round(time.Millisecond))
		b := make([]gf64.Element, 1<<min(logn, 16))
		fill2(b, seed)
		for i := range b {
			if a[i] != b[i] {
				return fmt.Errorf("IFFT(FFT(a))[%d] != a[%d]", i, i)
			}
		}
		fmt.Println("round trip: the first coefficients are back")
	}
	fmt.Printf("peak RSS: %s\n", peakRSS())
	return nil
}

// fill writes the coefficients for seed: element i depends on i only, so
// any prefix can be regenerated (fill2).
func fill(a []gf64.Element, seed uint64) {
	const block = 1 << 16
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for lo := g * block; lo < len(a); lo += w * block {
				fillBlock(a[lo:min(lo+block, len(a))], seed, lo/block)
			}
		}(g)
	}
	wg.Wait()
}

func fill2(a []gf64.Element, seed uint64) {
	const block = 1 << 16
	for lo := 0; lo < len(a); lo += block {
		fillBlock(a[lo:min(lo+block, len(a))], seed, lo/block)
	}
}

func fillBlock(a []gf64.Element, seed uint64, blk int) {
	r := rand.New(rand.NewPCG(seed^0x5bd1e995, uint64(blk)))
	for i := range a {
		a[i] = gf64.Element(r.Uint64())
	}
}

func horner(c []gf64.Element, x gf64.Element) gf64.Element {
	var y gf64.Element
	for i := len(c) - 1; i >= 0; i-- {
		y = gf64.Mul(y, x) ^ c[i]
	}
	return y
}

// peakRSS reads VmHWM from /proc/self/status (Linux).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}
