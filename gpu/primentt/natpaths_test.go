package primentt

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var (
	natPaths   = flag.String("gpu.natpaths", "", "run TestNaturalPaths on these fields (comma-separated): natural order through the bit reversal and through launchNatural with runs of 2^k bytes")
	natPathMin = flag.Int("gpu.natmin", 13, "TestNaturalPaths: smallest log2 size")
	natPathMax = flag.Int("gpu.natmax", 26, "TestNaturalPaths: largest log2 size")
	natLate    = flag.Bool("gpu.natlate", false, "TestNaturalPaths: every pass triggers the next kernel at its end (pdlLate)")
)

// TestNaturalPaths times a lone column's forward transform in DIF order
// and in natural order by each path (sppark's protocol): the library's
// choice, the passes in place and the bit reversal (noNatOut), and
// launchNatural with the plan's groups or the bottom pass widened to runs
// of 64, 128 and 256 bytes (natRunTest), so that natBitrev, natRun and
// natWideMin rest on measurements (BENCHMARKS.md).
func TestNaturalPaths(t *testing.T) {
	if *natPaths == "" {
		t.Skip("run with -gpu.natpaths=bn254,goldilocks,babybear")
	}
	d := gputest.Device(t)
	pdlLate = *natLate
	defer func() { pdlLate = false }()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	fmt.Println("| field | n | DIF | natural (the library's choice) | natural: bit reversal | natural out, the plan's groups | runs ≥ 64 B | ≥ 128 B | ≥ 256 B |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, f := range strings.Split(*natPaths, ",") {
		switch f {
		case "bn254":
			natPathsField(t, d, s, bn254Case(), *natPathMin, min(*natPathMax, 23))
		case "goldilocks":
			natPathsField(t, d, s, goldilocksCase(), *natPathMin, *natPathMax)
		case "babybear":
			natPathsField(t, d, s, babybearCase(), *natPathMin, *natPathMax)
		}
	}
}

func natPathsField[E Element](t *testing.T, d *gpu.Device, s *gpu.Stream, c primeCase[E], lo, hi int) {
	defer func() { noNatOut, natRunTest = false, 0 }()
	for logn := lo; logn <= hi; logn++ {
		n := 1 << logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		buf := gputest.Upload(t, d, primeRandom(c, n, uint64(logn)))
		time := func(o Order) string {
			require.NoError(t, ntt.closeGraphs())
			plan, _ := ntt.planFor(1, Natural)
			what := ""
			if np := ntt.natPlan(plan, false); o == Natural && np != nil {
				what = fmt.Sprintf(" (%d B)", ntt.k.elemSize()<<np[0].logc)
			}
			return ms4(spparkTime(t, d, s, func() error { return ntt.FFT(s, buf, o) })) + what
		}
		row := []string{c.name, fmt.Sprintf("2^%d", logn), time(DIF), time(Natural)}
		noNatOut = true
		row = append(row, time(Natural))
		noNatOut = false
		for _, r := range []int{-1, 64, 128, 256} {
			natRunTest = r
			row = append(row, time(Natural))
		}
		natRunTest = 0
		fmt.Printf("| %s |\n", strings.Join(row, " | "))
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
}
