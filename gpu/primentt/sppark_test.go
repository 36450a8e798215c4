package primentt

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var (
	spparkDir    = flag.String("gpu.sppark", "", "TestSpparkTable: folder with sppark_<field>.txt, a sppark timing driver's output (format: readSppark)")
	spparkMin    = flag.Int("gpu.spparkmin", 12, "TestSpparkTable: smallest log2 size")
	spparkMax    = flag.Int("gpu.spparkmax", 26, "TestSpparkTable: largest log2 size")
	spparkFields = flag.String("gpu.spparkfields", "goldilocks,babybear,bn254", "TestSpparkTable: fields")
)

// spparkRows is one field's measurements by a sppark timing driver: keys
// such as "ntt 16 NR fwd", "lde 22 2", "batch 256 16", "copy".
type spparkRows map[string]float64

// readSppark reads one field's file, sppark_<field>.txt (field goldilocks,
// babybear or bn254), written by a driver built outside this repository
// against sppark (github.com/supranational/sppark, the commit measured:
// 17278d74295392f9813f009300b257a688422b7a; no registry serves it, so it
// is fetched into an ignored folder as ../shared/peers/README.md says and
// neither it nor the driver is committed here). The format, one
// measurement a line, fields separated by spaces, the figure last:
//
//	copy <bytes read + written per second>   device-to-device copy of 2^26 elements
//	ntt <lg> <NR|NN> <fwd|inv> <ms>          NTT::Base_dev_ptr on 2^lg elements; NR: natural in,
//	                                         bit-reversed out (gfpoly's DIF), NN: natural both
//	lde <lg> 2 <ms>                          LDE_aux's device work, 2^lg → 2^(lg+2): inverse NTT NR,
//	                                         LDE_launch's spread with the coset powers, forward NTT RN
//	batch <cols> <lg> <ms>                   Base_dev_ptr (NR, forward) once per column: cols × 2^lg
//
// for every lg from -gpu.spparkmin to -gpu.spparkmax, lde at 22 and 24 and
// batch at 256 × 2^16 and 64 × 2^20. Every ms figure is one call's (a
// batch's: one pass over all its columns), the median of 9 samples, each 8
// calls launched back to back on sppark's stream and timed with CUDA
// events, after 2 warm samples, divided by 8 (spparkTime's protocol). Lines of any other shape are skipped; a
// measurement missing from the file prints as "—".
func readSppark(t *testing.T, path string) spparkRows {
	f, err := os.Open(path)
	require.NoError(t, err, "sppark's results")
	defer f.Close()
	rows := spparkRows{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(w[len(w)-1], 64)
		if err != nil {
			continue
		}
		rows[strings.Join(w[:len(w)-1], " ")] = v
	}
	require.NoError(t, sc.Err())
	return rows
}

// spparkSamples is the protocol of sppark's driver: 2 warm samples, then
// the median of 9, each 8 calls launched back to back.
func spparkTime(t *testing.T, d *gpu.Device, s *gpu.Stream, f func() error) time.Duration {
	return gputest.DeviceTime(t, d, s, 2, 9, 8, f)
}

// TestSpparkTable prints issue 24's comparison: gfpoly's transforms timed
// as the sppark driver times sppark's (same device, same protocol: median
// of 9 samples of 8 calls back to back, data on the device), beside the
// driver's figures read from -gpu.sppark (the format: readSppark). Ratios
// are sppark's time over gfpoly's (> 1: gfpoly is faster). The floor is
// the bytes a transform must move (each element read and written once; an
// LDE reads n and writes 4n) over the copy rate measured here. Run the
// driver first, in the same call on the same device (BENCHMARKS.md, "Prime-
// field NTT against sppark", says how).
func TestSpparkTable(t *testing.T) {
	if *spparkDir == "" {
		t.Skip("run with -gpu.sppark=<folder of the sppark driver's output> (BENCHMARKS.md: Prime-field NTT against sppark)")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()

	// copy rate: bytes read plus written per second, 2^26 words
	var rate float64
	{
		a := gputest.Alloc[uint64](t, d, 1<<26)
		b := gputest.Alloc[uint64](t, d, 1<<26)
		dt := spparkTime(t, d, s, func() error { return b.CopyFrom(s, a) })
		rate = 2 * float64(a.Bytes()) / dt.Seconds()
		require.NoError(t, a.Free())
		require.NoError(t, b.Free())
	}
	fmt.Printf("device: %s; copy rate %.2f TB/s (bytes read + written)\n", d.Info().Name, rate/1e12)
	fmt.Println("| field | n | order | FFT gfpoly | FFT sppark | ratio | FFT⁻¹ gfpoly | FFT⁻¹ sppark | ratio | floor | FFT % of floor gfpoly / sppark |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	var extra []string
	for _, f := range strings.Split(*spparkFields, ",") {
		rows := readSppark(t, filepath.Join(*spparkDir, "sppark_"+f+".txt"))
		switch f {
		case "bn254":
			extra = append(extra, spparkField(t, d, s, bn254Case(), rows, rate)...)
		case "goldilocks":
			extra = append(extra, spparkField(t, d, s, goldilocksCase(), rows, rate)...)
		case "babybear":
			extra = append(extra, spparkField(t, d, s, babybearCase(), rows, rate)...)
		}
	}
	fmt.Println()
	fmt.Println("| field | work | gfpoly | sppark | ratio | floor | % of floor gfpoly / sppark |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, l := range extra {
		fmt.Println(l)
	}
}

func ratio(g time.Duration, s float64) string {
	if s <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", s/(g.Seconds()*1e3))
}

func spms(v float64) string {
	if v <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f ms", v)
}

func pct(floor float64, ms float64) string {
	if ms <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*floor/ms)
}

func spparkField[E Element](t *testing.T, d *gpu.Device, s *gpu.Stream, c primeCase[E], rows spparkRows, rate float64) []string {
	es := int(unsafe.Sizeof(*new(E)))
	for logn := *spparkMin; logn <= min(*spparkMax, c.maxLog); logn++ {
		n := 1 << logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		buf := gputest.Upload(t, d, primeRandom(c, n, uint64(logn)))
		floor := 2 * float64(n*es) / rate * 1e3
		for _, o := range []struct {
			ours Order
			name string
		}{{DIF, "NR"}, {Natural, "NN"}} {
			fwd := spparkTime(t, d, s, func() error { return ntt.FFT(s, buf, o.ours) })
			inv := spparkTime(t, d, s, func() error { return ntt.FFTInverse(s, buf, o.ours) })
			sf, si := rows[fmt.Sprintf("ntt %d %s fwd", logn, o.name)], rows[fmt.Sprintf("ntt %d %s inv", logn, o.name)]
			fmt.Printf("| %s | 2^%d | %s | %s | %s | %s | %s | %s | %s | %.4f ms | %s / %s |\n", c.name, logn, o.name,
				ms4(fwd), spms(sf), ratio(fwd, sf), ms4(inv), spms(si), ratio(inv, si), floor,
				pct(floor, fwd.Seconds()*1e3), pct(floor, sf))
		}
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
	var out []string
	for _, logn := range []int{22, 24} {
		if logn+2 > c.maxLog || logn+2 > 26 {
			continue
		}
		n := 1 << logn
		l, err := NewLDE[E](d, c.domain(uint64(n), nil), c.domain(uint64(4*n), nil))
		require.NoError(t, err)
		src := gputest.Upload(t, d, primeRandom(c, n, uint64(logn)))
		dst := gputest.Alloc[E](t, d, 4*n)
		dt := spparkTime(t, d, s, func() error { return l.Encode(s, dst, src, Natural) })
		sp := rows[fmt.Sprintf("lde %d 2", logn)]
		floor := float64(5*n*es) / rate * 1e3
		out = append(out, fmt.Sprintf("| %s | LDE ×4 2^%d → 2^%d, natural | %s | %s | %s | %.4f ms | %s / %s |", c.name, logn, logn+2,
			ms4(dt), spms(sp), ratio(dt, sp), floor, pct(floor, dt.Seconds()*1e3), pct(floor, sp)))
		require.NoError(t, src.Free())
		require.NoError(t, dst.Free())
		require.NoError(t, l.Close())
	}
	for _, b := range []struct{ cols, logn int }{{256, 16}, {64, 20}} {
		n := 1 << b.logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		buf := gputest.Upload(t, d, primeRandom(c, b.cols*n, uint64(b.logn)))
		dt := spparkTime(t, d, s, func() error { return ntt.FFT(s, buf, DIF) })
		sp := rows[fmt.Sprintf("batch %d %d", b.cols, b.logn)]
		floor := 2 * float64(b.cols*n*es) / rate * 1e3
		out = append(out, fmt.Sprintf("| %s | %d columns of 2^%d, FFT DIF (sppark: once per column, NR) | %s | %s | %s | %.4f ms | %s / %s |", c.name, b.cols, b.logn,
			ms4(dt), spms(sp), ratio(dt, sp), floor, pct(floor, dt.Seconds()*1e3), pct(floor, sp)))
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
	return out
}

func ms4(dt time.Duration) string { return fmt.Sprintf("%.4f ms", dt.Seconds()*1e3) }
