package primentt

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var (
	primeReport    = flag.Bool("gpu.primereport", false, "run TestPrimeReport: the prime-field NTT table for BENCHMARKS.md")
	primeReportMin = flag.Int("gpu.primemin", 16, "TestPrimeReport: smallest log2 size")
	primeReportMax = flag.Int("gpu.primemax", 26, "TestPrimeReport: largest log2 size")
	primeCPUMax    = flag.Int("gpu.primecpumax", 26, "TestPrimeReport: largest log2 size timed on the CPU")
	primeFields    = flag.String("gpu.primefields", "bn254,goldilocks,babybear,koalabear", "TestPrimeReport: fields")
)

// TestPrimeReport prints the rows of BENCHMARKS.md's prime-field NTT table:
// device times (events, warm-up, median) of one column with the data on the
// device, each sample timing at least 8 transforms launched back to back so
// that the host's submission latency (about 25 µs for a lone transform of
// three passes) stays out of the numbers, as deviceTime says; the same FFT through pinned host memory (upload, FFT, download),
// gnark-crypto's Domain.FFT on this machine's CPU cores (wall clock, median
// of 3), and the LDE with blowup 4. Run with -gpu.primereport on a GPU
// machine.
func TestPrimeReport(t *testing.T) {
	if !*primeReport {
		t.Skip("run with -gpu.primereport")
	}
	d := gputest.Device(t)
	fmt.Println("| field | n | FFT DIF | FFT⁻¹ DIT | coset FFT DIF | FFT Natural | LDE ×4 (n→4n) | pinned host→FFT→host | gnark-crypto CPU FFT DIF | speedup (device / pinned) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, f := range strings.Split(*primeFields, ",") {
		switch f {
		case "bn254":
			primeReportField(t, d, bn254Case())
		case "goldilocks":
			primeReportField(t, d, goldilocksCase())
		case "babybear":
			primeReportField(t, d, babybearCase())
		case "koalabear":
			primeReportField(t, d, koalabearCase())
		}
	}
}

func ms(dt time.Duration) string { return fmt.Sprintf("%.3f ms", dt.Seconds()*1e3) }

func primeReportField[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for logn := *primeReportMin; logn <= min(*primeReportMax, c.maxLog); logn++ {
		if logn%2 == 1 && logn != 25 && logn > 16 {
			continue // 16, 18, 20, 22, 24, 25, 26
		}
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		in := primeRandom(c, n, uint64(logn))
		buf, err := gpu.Alloc[E](d, n)
		require.NoError(t, err)
		require.NoError(t, buf.Upload(in))
		inner := max(8, (1<<24)/n)
		dev := func(f func() error) time.Duration { return gputest.DeviceTime(t, d, s, 2, 9, inner, f) }
		fft := dev(func() error { return ntt.FFT(s, buf, DIF) })
		inv := dev(func() error { return ntt.FFTInverse(s, buf, DIT) })
		cos := dev(func() error { return ntt.CosetFFT(s, buf, DIF) })
		nat := dev(func() error { return ntt.FFT(s, buf, Natural) })

		// LDE n -> 4n, natural orders.
		lde := "—"
		if logn+2 <= c.maxLog && logn <= 24 {
			l, err := NewLDE[E](d, dom, c.domain(uint64(4*n), nil))
			require.NoError(t, err)
			dst, err := gpu.Alloc[E](d, 4*n)
			require.NoError(t, err)
			lde = ms(dev(func() error { return l.Encode(s, dst, buf, Natural) }))
			require.NoError(t, dst.Free())
			require.NoError(t, l.Close())
		}

		// Through pinned host memory: upload, FFT, download, timed with events.
		host, err := gpu.AllocHost[E](d, n)
		require.NoError(t, err)
		copy(host.Slice(), in)
		pinned := gputest.DeviceTime(t, d, s, 1, 5, 1, func() error {
			if err := buf.UploadAsync(s, host); err != nil {
				return err
			}
			if err := ntt.FFT(s, buf, DIF); err != nil {
				return err
			}
			return buf.DownloadAsync(s, host)
		})
		require.NoError(t, host.Free())

		// gnark-crypto on the CPU, all cores.
		cpu := "—"
		var cpuT time.Duration
		if logn <= *primeCPUMax {
			work := append([]E(nil), in...)
			var ts []time.Duration
			for range 3 {
				t0 := time.Now()
				c.gnark(dom, work, DIF, false, false)
				ts = append(ts, time.Since(t0))
			}
			slices.Sort(ts)
			cpuT = ts[1]
			cpu = ms(cpuT)
		}
		speed := "—"
		if cpuT > 0 {
			speed = fmt.Sprintf("%.0f× / %.1f×", cpuT.Seconds()/fft.Seconds(), cpuT.Seconds()/pinned.Seconds())
		}
		fmt.Printf("| %s | 2^%d | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.name, logn, ms(fft), ms(inv), ms(cos), ms(nat),
			lde, ms(pinned), cpu, speed)
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
}
