package primentt

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	planSearch       = flag.Bool("gpu.plansearch", false, "run TestPlanSearch: time every four-step plan of a lone column and print the fastest")
	planSearchMin    = flag.Int("gpu.plansearchmin", 13, "TestPlanSearch: smallest log2 size")
	planSearchMax    = flag.Int("gpu.plansearchmax", 20, "TestPlanSearch: largest log2 size")
	planSearchFields = flag.String("gpu.plansearchfields", "goldilocks,babybear", "TestPlanSearch: fields")
	planSearchRL     = flag.Int("gpu.plansearchrl", 0, "TestPlanSearch: only plans of 2^rl elements per thread (0: every rl)")
	planSearchSpread = flag.Int("gpu.plansearchspread", 0, "TestPlanSearch: only plans whose passes' bits differ by at most this (0: any)")
	planSearchLate   = flag.Bool("gpu.plansearchlate", false, "TestPlanSearch: time every plan also with its passes triggering the next kernel at their end (lateTrigger)")
	planSearchNat    = flag.Bool("gpu.plansearchnatural", false, "TestPlanSearch: time and check natural order out of place (launchNatural, natPlan's bottom pass) instead of DIF")
	planSearchNear   = flag.Bool("gpu.plansearchnear", false, "TestPlanSearch: only plans of the default plan's cut, each pass's groups within one of its (any elements per thread)")
	planSearchCheck  = flag.Bool("gpu.plansearchcheck", false, "TestPlanSearch: check the three fastest plans of each size in every direction, order and coset against gnark-crypto, as TestLonePlansGPU checks lonePlans")
	planSearchNST    = flag.Int("gpu.plansearchnst", 0, "TestPlanSearch: only plans with a pass of this many bits (0: any)")
	planSearchShared = flag.Int("gpu.plansearchshared", 0, "TestPlanSearch: KiB of shared memory a pass may take (fsSharedCap; 0: as the library)")
)

// planCandidates returns every plan of a lone column of 2^logn the kernels
// can run: the bits cut into two or three passes (or the fewest the pass
// sizes allow, where three cannot cover them) in any order, each pass
// within the compiled sizes, 32..fsMaxThreads threads and the shared memory
// its kernel is given (fsSharedLimit).
func planCandidates(logn int, f nttFieldInfo) [][]nttPass {
	k := &nttKernels{info: f}
	maxPasses := max(3, (logn+f.fsMaxNST-1)/f.fsMaxNST)
	var out [][]nttPass
	var rec func(lo int, acc []nttPass)
	rec = func(lo int, acc []nttPass) {
		if lo == logn {
			if len(acc) >= 2 {
				out = append(out, slices.Clone(acc))
			}
			return
		}
		if len(acc) == maxPasses {
			return
		}
		for nst := f.fsMinNST; nst <= min(f.fsMaxNST, logn-lo); nst++ {
			rls := []int{min(f.fsRlog, nst)}
			if f.fsNarrowRL > 0 && f.fsNarrowRL < rls[0] {
				rls = append(rls, f.fsNarrowRL)
			}
			for _, rl := range rls {
				for logc := 0; logc <= logn-nst; logc++ {
					p := nttPass{lo, nst, logc, rl}
					th := 1 << (nst + logc - rl)
					if th < 32 || th > f.fsMaxThreads || fsShared(p, f, k.elemSize()) > k.fsSharedLimit(nst) {
						continue
					}
					rec(lo+nst, append(acc, p))
				}
			}
		}
	}
	rec(0, nil)
	return out
}

// TestLonePlans checks the measured plans without a device: each is one of
// planCandidates' (every bit once, compiled pass sizes, the kernels' thread
// bounds and shared memory).
func TestLonePlans(t *testing.T) {
	for name, f := range nttFields {
		for logn, p := range lonePlans[f.fsKernels()] {
			assert.True(t, slices.ContainsFunc(planCandidates(logn, f), func(c []nttPass) bool { return slices.Equal(c, p) }),
				"%s 2^%d: %v is not a plan the kernels take", name, logn, p)
		}
	}
	assert.Len(t, lonePlans, 3, "goldilocks, the 31-bit fields and bn254")
	for k, sizes := range loneNatPlans {
		for logn, p := range sizes {
			assert.Contains(t, lonePlans[k], logn, "loneNatPlans %s 2^%d: TestLonePlansGPU checks the sizes of lonePlans", k, logn)
			for name, f := range nttFields {
				if f.fsKernels() == k {
					assert.True(t, slices.ContainsFunc(planCandidates(logn, f), func(c []nttPass) bool { return slices.Equal(c, p) }),
						"%s 2^%d: natural order's %v is not a plan the kernels take", name, logn, p)
				}
			}
		}
	}
	for k, sizes := range lateTrigger {
		for logn := range sizes {
			assert.Contains(t, lonePlans[k], logn, "lateTrigger %s 2^%d: no measured plan to apply to", k, logn)
		}
	}
}

// TestPlanSearch times every plan planCandidates gives for a lone column
// (forward and inverse, DIF order, as TestSpparkTable times them), checks
// each one's output against the default plan's, and prints the default
// and the three fastest: the measurements planWide's choices come from.
// With -gpu.plansearchlate each plan is timed twice, its passes letting the
// next kernel start from their start and from their end (lateTrigger);
// with -gpu.plansearchnatural in natural order out of place at every size
// (natForce), the bottom pass as natPlan widens it. With
// -gpu.plansearchcheck the three fastest of each size are checked as
// TestLonePlansGPU checks lonePlans (every direction, order and coset
// against gnark-crypto), so that a search's winners can be taken from the
// call that found them.
func TestPlanSearch(t *testing.T) {
	if !*planSearch {
		t.Skip("run with -gpu.plansearch")
	}
	d := gputest.Device(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	if *planSearchShared > 0 {
		defer func(c int) { fsSharedCap = c }(fsSharedCap)
		fsSharedCap = *planSearchShared << 10
	}
	for _, f := range strings.Split(*planSearchFields, ",") {
		switch f {
		case "goldilocks":
			searchField(t, d, s, goldilocksCase())
		case "babybear":
			searchField(t, d, s, babybearCase())
		case "bn254":
			searchField(t, d, s, bn254Case())
		}
	}
}

func searchField[E Element](t *testing.T, d *gpu.Device, s *gpu.Stream, c primeCase[E]) {
	o := DIF
	if *planSearchNat {
		o, natForce = Natural, true
		defer func() { natForce = false }()
	}
	for logn := *planSearchMin; logn <= *planSearchMax; logn++ {
		n := 1 << logn
		in := primeRandom(c, n, uint64(logn))
		buf := gputest.Upload(t, d, in)
		got := make([]E, n)
		dom := c.domain(uint64(n), nil)
		ref, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		require.NoError(t, ref.FFT(nil, buf, o))
		want := make([]E, n)
		require.NoError(t, buf.Download(want))
		timeOne := func(ntt *NTT[E]) (time.Duration, time.Duration) {
			fwd := gputest.DeviceTime(t, d, s, 1, 5, 8, func() error { return ntt.FFT(s, buf, o) })
			inv := gputest.DeviceTime(t, d, s, 1, 5, 8, func() error { return ntt.FFTInverse(s, buf, o) })
			return fwd, inv
		}
		type res struct {
			plan     []nttPass
			late     bool
			fwd, inv time.Duration
		}
		def, _ := ref.planFor(1, o)
		df, di := timeOne(ref)
		var rs []res
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		for _, cand := range planCandidates(logn, nttFields[c.name]) {
			if !searched(cand) || (*planSearchNear && !near(cand, def)) {
				continue
			}
			for _, late := range []bool{false, true} {
				if late && !*planSearchLate {
					continue
				}
				// Graphs were captured with the previous plan; -gpu.pdllate
				// makes every pass trigger late.
				require.NoError(t, ntt.closeGraphs())
				ntt.fsLone, ntt.fsLoneNat, ntt.fsWide, ntt.stdBlocks, ntt.loneLate = cand, cand, cand, 1, late
				require.NoError(t, buf.Upload(in))
				require.NoError(t, ntt.FFT(nil, buf, o))
				require.NoError(t, buf.Download(got))
				testutil.RequireEqualSlices(t, want, got, "%s 2^%d plan %v late %v", c.name, logn, cand, late)
				fw, iv := timeOne(ntt)
				rs = append(rs, res{cand, late, fw, iv})
			}
		}
		require.NoError(t, ref.Close())
		require.NoError(t, buf.Free())
		sort.Slice(rs, func(i, j int) bool { return rs[i].fwd+rs[i].inv < rs[j].fwd+rs[j].inv })
		if *planSearchCheck {
			for _, r := range rs[:min(3, len(rs))] {
				require.NoError(t, ntt.closeGraphs())
				ntt.fsLone, ntt.fsLoneNat, ntt.fsWide, ntt.loneLate = r.plan, r.plan, r.plan, r.late
				checkGnark(t, c, ntt, dom, 1, primeOps, primeOrders, fmt.Sprintf("searched plan %v late %v", r.plan, r.late))
			}
		}
		require.NoError(t, ntt.Close())
		fmt.Printf("%s 2^%d %v: default %v late %v fwd %.2f inv %.2f us; %d plans\n", c.name, logn, o, def, ref.loneLate, usOf(df), usOf(di), len(rs))
		// planFS's passes, where the default is a measured plan
		if fs := planFS(logn, nttFields[c.name]); !slices.Equal(fs, def) {
			if i := slices.IndexFunc(rs, func(r res) bool { return slices.Equal(r.plan, fs) && !r.late }); i >= 0 {
				fmt.Printf("    planFS %v fwd %.2f inv %.2f us (rank %d)\n", fs, usOf(rs[i].fwd), usOf(rs[i].inv), i+1)
			}
		}
		for _, r := range rs[:min(3, len(rs))] {
			fmt.Printf("    %v late %v fwd %.2f inv %.2f us\n", r.plan, r.late, usOf(r.fwd), usOf(r.inv))
		}
	}
}

func usOf(d time.Duration) float64 { return d.Seconds() * 1e6 }

// searched reports whether TestPlanSearch times plan, by -gpu.plansearchrl,
// -gpu.plansearchspread and -gpu.plansearchnst.
func searched(plan []nttPass) bool {
	lo, hi := plan[0].nst, plan[0].nst
	hasNST := *planSearchNST == 0
	for _, p := range plan {
		if *planSearchRL != 0 && p.rl != *planSearchRL {
			return false
		}
		lo, hi = min(lo, p.nst), max(hi, p.nst)
		hasNST = hasNST || p.nst == *planSearchNST
	}
	return hasNST && (*planSearchSpread == 0 || hi-lo <= *planSearchSpread)
}

// near reports whether plan cuts the bits as def does, each pass's groups
// within one of def's (-gpu.plansearchnear).
func near(plan, def []nttPass) bool {
	if len(plan) != len(def) {
		return false
	}
	for i, p := range plan {
		if p.lo != def[i].lo || p.nst != def[i].nst || p.logc < def[i].logc-1 || p.logc > def[i].logc+1 {
			return false
		}
	}
	return true
}
