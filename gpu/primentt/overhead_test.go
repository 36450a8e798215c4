package primentt

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

var primeOverhead = flag.Bool("gpu.primeoverhead", false, "run TestPrimeOverhead: where a small transform's fixed cost goes")

// wallPer returns the median over 5 runs of the host wall time of reps
// calls of f followed by one wait for s, divided by reps.
func wallPer(t *testing.T, s *gpu.Stream, reps int, f func() error) time.Duration {
	var ts []time.Duration
	for range 5 {
		t0 := time.Now()
		for range reps {
			require.NoError(t, f())
		}
		require.NoError(t, s.Synchronize())
		ts = append(ts, time.Since(t0)/time.Duration(reps))
	}
	slices.Sort(ts)
	return ts[2]
}

// TestPrimeOverhead measures where a small transform's time goes (issue
// 24): the hop to the device goroutine (Device.Do with nothing to do), one
// kernel launch's host cost, and for transforms of 2^12..2^18 the host's
// wall time per call against the device time of the same transforms
// queued from one Do (no hop, launches only) and timed as the report times
// them (8 calls back to back). Run with -gpu.primeoverhead.
func TestPrimeOverhead(t *testing.T) {
	if !*primeOverhead {
		t.Skip("run with -gpu.primeoverhead")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	hop := wallPer(t, s, 2000, func() error { return d.Do(s, func(q *gpu.Queue) error { return nil }) })
	hopSync := wallPer(t, s, 500, func() error { return d.Do(nil, func(q *gpu.Queue) error { return nil }) })

	// one small launch's host cost, 1000 launches in one Do
	c := goldilocksCase()
	ntt, err := NewNTT[goldilocks.Element](d, c.domain(1<<10, nil))
	require.NoError(t, err)
	defer ntt.Close()
	buf := gputest.Upload(t, d, primeRandom(c, 1<<10, 1))
	launch := wallPer(t, s, 1, func() error {
		return d.Do(s, func(q *gpu.Queue) error {
			for range 1000 {
				if err := ntt.bitrevOn(q, uint64(buf.Ptr()), 1<<10, 1); err != nil {
					return err
				}
			}
			return nil
		})
	}) / 1000
	launchDev := gputest.DeviceTime(t, d, s, 1, 5, 1, func() error {
		return d.Do(s, func(q *gpu.Queue) error {
			for range 1000 {
				if err := ntt.bitrevOn(q, uint64(buf.Ptr()), 1<<10, 1); err != nil {
					return err
				}
			}
			return nil
		})
	}) / 1000
	fmt.Printf("Device.Do hop, nothing queued: %.1f µs; with a wait for the default stream: %.1f µs\n", us(hop), us(hopSync))
	fmt.Printf("one kernel launch (1000 in one Do): host %.2f µs, device %.2f µs apart\n", us(launch), us(launchDev))
	fmt.Println("| field | n | launches | host wall per FFT call | device, 8 calls back to back | device, 200 transforms from one Do |")
	fmt.Println("|---|---|---|---|---|---|")
	overheadField(t, d, s, goldilocksCase())
	overheadField(t, d, s, babybearCase())
	overheadField(t, d, s, bn254Case())
}

func us(dt time.Duration) float64 { return dt.Seconds() * 1e6 }

func overheadField[E Element](t *testing.T, d *gpu.Device, s *gpu.Stream, c primeCase[E]) {
	for _, logn := range []int{12, 14, 16, 18} {
		n := 1 << logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		buf := gputest.Upload(t, d, primeRandom(c, n, 3))
		launches := 1
		if ntt.fsPlan != nil {
			launches = len(ntt.fsPlan)
		}
		host := wallPer(t, s, 500, func() error { return ntt.FFT(s, buf, DIF) })
		dev8 := spparkTime(t, d, s, func() error { return ntt.FFT(s, buf, DIF) })
		devQ := gputest.DeviceTime(t, d, s, 1, 5, 1, func() error {
			return d.Do(s, func(q *gpu.Queue) error {
				for range 200 {
					if err := ntt.launch(q, uint64(buf.Ptr()), uint64(n), 1, DIF, false, false); err != nil {
						return err
					}
				}
				return nil
			})
		}) / 200
		fmt.Printf("| %s | 2^%d | %d | %.1f µs | %.1f µs | %.1f µs |\n", c.name, logn, launches, us(host), us(dev8), us(devQ))
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
}

var (
	profileField = flag.String("gpu.profilefield", "", "run TestPrimeProfile on this field (bn254, goldilocks, babybear): a few transforms for a profiler to capture")
	profileLogs  = flag.String("gpu.profilelogs", "12,16,20,24", "TestPrimeProfile: log2 sizes")
)

// TestPrimeProfile runs three forward DIF transforms of one column at
// each size of -gpu.profilelogs, directly (no graph), for a kernel
// profiler (ncu) to capture its passes one by one.
func TestPrimeProfile(t *testing.T) {
	switch *profileField {
	case "":
		t.Skip("run with -gpu.profilefield")
	case "bn254":
		profileRun(t, bn254Case())
	case "goldilocks":
		profileRun(t, goldilocksCase())
	case "babybear":
		profileRun(t, babybearCase())
	default:
		t.Fatalf("-gpu.profilefield %q: not a field", *profileField)
	}
}

func profileRun[E Element](t *testing.T, c primeCase[E]) {
	d := gputest.Device(t)
	for _, f := range strings.Split(*profileLogs, ",") {
		logn, err := strconv.Atoi(f)
		require.NoError(t, err)
		n := 1 << logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		buf := gputest.Upload(t, d, primeRandom(c, n, 5))
		fmt.Printf("%s 2^%d: passes %v\n", c.name, logn, planOf(ntt, 1))
		for range 3 {
			require.NoError(t, ntt.FFT(nil, buf, DIF))
		}
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
}
