package gpu

import (
	"flag"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	primeReport    = flag.Bool("gpu.primereport", false, "run TestPrimeReport: the prime-field NTT table for BENCHMARKS.md")
	primeReportMin = flag.Int("gpu.primemin", 16, "TestPrimeReport: smallest log2 size")
	primeReportMax = flag.Int("gpu.primemax", 26, "TestPrimeReport: largest log2 size")
	primeCPUMax    = flag.Int("gpu.primecpumax", 26, "TestPrimeReport: largest log2 size timed on the CPU")
	primeNoReg     = flag.Bool("gpu.primenoreg", false, "TestPrimeReport: radix-2 passes only")
	primeTile      = flag.Int("gpu.primetile", 0, "TestPrimeReport: tile size (log2) instead of the field's")
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
	d := testDevice(t)
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

func primeReportField[E PrimeElement](t *testing.T, d *Device, c primeCase[E]) {
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	if *primeTile > 0 {
		k, err := d.nttKernels(c.name)
		must(t, err)
		old := k.info
		k.info.logTile = min(*primeTile, old.logTile)
		defer func() { k.info = old }()
	}
	for logn := *primeReportMin; logn <= min(*primeReportMax, c.maxLog); logn++ {
		if logn%2 == 1 && logn != 25 && logn > 16 {
			continue // 16, 18, 20, 22, 24, 25, 26
		}
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewPrimeNTT[E](d, dom)
		must(t, err)
		ntt.k.noReg = *primeNoReg
		in := primeRandom(c, n, uint64(logn))
		buf, err := Alloc[E](d, n)
		must(t, err)
		must(t, buf.Upload(in))
		inner := max(8, (1<<24)/n)
		dev := func(f func() error) time.Duration { return deviceTime(t, d, s, 2, 9, inner, f) }
		fft := dev(func() error { return ntt.FFT(s, buf, PrimeDIF) })
		inv := dev(func() error { return ntt.FFTInverse(s, buf, PrimeDIT) })
		cos := dev(func() error { return ntt.CosetFFT(s, buf, PrimeDIF) })
		nat := dev(func() error { return ntt.FFT(s, buf, PrimeNatural) })

		// LDE n -> 4n, natural orders.
		lde := "—"
		if logn+2 <= c.maxLog && logn <= 24 {
			l, err := NewPrimeLDE[E](d, dom, c.domain(uint64(4*n), nil))
			must(t, err)
			dst, err := Alloc[E](d, 4*n)
			must(t, err)
			lde = ms(dev(func() error { return l.Encode(s, dst, buf, PrimeNatural) }))
			must(t, dst.Free())
			must(t, l.Close())
		}

		// Through pinned host memory: upload, FFT, download, timed with events.
		host, err := AllocHost[E](d, n)
		must(t, err)
		copy(host.Slice(), in)
		pinned := deviceTime(t, d, s, 1, 5, 1, func() error {
			if err := buf.UploadAsync(s, host); err != nil {
				return err
			}
			if err := ntt.FFT(s, buf, PrimeDIF); err != nil {
				return err
			}
			return buf.DownloadAsync(s, host)
		})
		must(t, host.Free())

		// gnark-crypto on the CPU, all cores.
		cpu := "—"
		var cpuT time.Duration
		if logn <= *primeCPUMax {
			work := append([]E(nil), in...)
			var ts []time.Duration
			for range 3 {
				t0 := time.Now()
				c.gnark(dom, work, PrimeDIF, false, false)
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
		must(t, buf.Free())
		must(t, ntt.Close())
	}
}

var (
	primeMaxNST = flag.Int("gpu.primemaxnst", 0, "prime NTT: largest four-step pass (bits) instead of the field's")
	primeFS31   = flag.String("gpu.fs31variant", "", "prime NTT: BabyBear and KoalaBear four-step variant (default, gdc, pdl, shoup, shoup+pdl)")
)

var goldProducts = flag.Bool("gpu.goldproducts", false, "prime NTT: Goldilocks four-step passes with the radix-8 twiddles as general products (nttFieldInfo.fsShift off)")

func init() {
	nttInfoHook = func(f *nttFieldInfo) {
		if *primeMaxNST > 0 {
			f.fsMaxNST = max(f.fsMinNST, min(*primeMaxNST, f.fsMaxBuilt))
		}
		if *primeFS31 != "" {
			v, ok := fs31Variants[*primeFS31]
			if !ok {
				panic("unknown -gpu.fs31variant " + *primeFS31)
			}
			fs31Default = v
		}
		if *goldProducts && f.name == "goldilocks" {
			f.fsShift = false
		}
	}
}

var (
	primeVariants     = flag.Bool("gpu.primevariants", false, "run TestPrimeVariants: FFT DIF under other pass shapes")
	primeVariantMatch = flag.String("gpu.primevariantmatch", "", "TestPrimeVariants: only the variants whose names match this regexp (and the reference)")
)

// TestPrimeVariants times FFT DIF (one column, data on the device, as
// TestPrimeReport) under the radix-2/register passes of the first version
// ("legacy"), four-step pass shapes around the defaults and the BabyBear and
// KoalaBear kernel variants (fs31Variant), and checks each output against
// the legacy one; "×8" is the time per FFT of 8 launched back to back (the
// host's submission then overlaps the device's work). Run with
// -gpu.primevariants.
func TestPrimeVariants(t *testing.T) {
	if !*primeVariants {
		t.Skip("run with -gpu.primevariants")
	}
	d := testDevice(t)
	fmt.Println("| field | n | variant | passes (lo:bits/groups) | FFT DIF | ×8 | output |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, f := range strings.Split(*primeFields, ",") {
		switch f {
		case "bn254":
			primeVariantsField(t, d, bn254Case())
		case "goldilocks":
			primeVariantsField(t, d, goldilocksCase())
		case "babybear":
			primeVariantsField(t, d, babybearCase())
		case "koalabear":
			primeVariantsField(t, d, koalabearCase())
		}
	}
}

func primeVariantsField[E PrimeElement](t *testing.T, d *Device, c primeCase[E]) {
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	k, err := d.nttKernels(c.name)
	must(t, err)
	def, defFS31 := k.info, k.fs31
	type variant struct {
		name   string
		legacy bool
		edit   func(*nttFieldInfo)
		twTab  bool
		fs31   *fs31Variant
	}
	vs := []variant{
		{"legacy", true, nil, false, nil},
		{"four-step", false, func(f *nttFieldInfo) { f.fsOn = true }, false, nil},
		{"groups/2", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsLogC-- }, false, nil},
		{"groups*2", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsLogC++ }, false, nil},
		{"bottom tile/2", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsTile-- }, false, nil},
		{"bottom tile*2", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsTile++ }, false, nil},
		{"max pass 8 bits", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsMaxNST = min(f.fsMaxNST, 8) }, false, nil},
		{"max pass 12 bits", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsMaxNST = f.fsMaxBuilt }, false, nil},
		{"max pass 10 bits", false, func(f *nttFieldInfo) { f.fsOn = true; f.fsMaxNST = min(f.fsMaxNST, 10) }, false, nil},
		{"pass twiddles from tables", false, func(f *nttFieldInfo) { f.fsOn = true }, true, nil},
	}
	if c.name == "babybear" || c.name == "koalabear" {
		for _, name := range []string{"default", "gdc", "pdl", "shoup", "shoup+pdl"} {
			v := fs31Variants[name]
			vs = append(vs, variant{"fs31 " + name, false, func(f *nttFieldInfo) { f.fsOn = true }, false, &v})
		}
	}
	vs = append(vs, variant{"four-step again", false, func(f *nttFieldInfo) { f.fsOn = true }, false, nil})
	if *primeVariantMatch != "" {
		re := regexp.MustCompile(*primeVariantMatch)
		vs = slices.DeleteFunc(vs, func(v variant) bool { return !v.legacy && !re.MatchString(v.name) })
	}
	if c.name == "goldilocks" {
		sh := func(f *nttFieldInfo) { f.fsOn, f.fsShift = true, true }
		cur := func(f *nttFieldInfo) { f.fsOn, f.fsShift = true, false }
		vs = slices.Insert(vs, 2, variant{"ntt_fs64, radix-8 twiddles as shifts", false, sh, false, nil},
			variant{"ntt_fs64, twiddle products (fsShift off)", false, cur, false, nil},
			variant{"ntt_fs64, canonical stores in every pass", false, func(f *nttFieldInfo) { f.fsOn, f.fsCanonAll = true, true }, false, nil})
		vs = append(vs, variant{"radix-8 twiddles as shifts again", false, sh, false, nil},
			variant{"twiddle products again (fsShift off)", false, cur, false, nil})
	}
	for logn := *primeReportMin; logn <= min(*primeReportMax, c.maxLog); logn += 2 {
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		in := primeRandom(c, n, uint64(logn))
		buf, err := Alloc[E](d, n)
		must(t, err)
		var ref []E
		for _, v := range vs {
			k.info, k.legacy, k.twTable, k.fs31 = def, v.legacy, v.twTab, defFS31
			if v.edit != nil {
				v.edit(&k.info)
			}
			must(t, k.ensureFS(d, k.info.fsMaxNST))
			if v.fs31 != nil {
				k.fs31 = *v.fs31
				must(t, k.loadVariant(d))
			}
			for _, fs := range []map[int]*Function{k.fs, k.fsSh} {
				for nst, f := range fs {
					must(t, f.SetMaxDynamicSharedMem(k.fsMaxShared(nst)))
				}
			}
			ntt, err := NewPrimeNTT[E](d, dom)
			must(t, err)
			plan := "radix-2/register"
			if !v.legacy {
				if ntt.fsPlan == nil {
					must(t, ntt.Close())
					continue
				}
				plan = ""
				for _, p := range ntt.fsPlan {
					plan += fmt.Sprintf(" %d:%d/%d", p.lo, p.nst, 1<<p.logc)
				}
			}
			must(t, buf.Upload(in))
			must(t, ntt.FFT(s, buf, PrimeDIF))
			must(t, s.Synchronize())
			got := make([]E, n)
			must(t, buf.Download(got))
			check := "reference"
			if ref == nil {
				ref = got
			} else if i := primeFirstDiff(got, ref); i >= 0 {
				check = fmt.Sprintf("DIFFERS at %d", i)
				t.Errorf("%s 2^%d %s: output differs at %d", c.name, logn, v.name, i)
			} else {
				check = "same"
			}
			inner := max(1, (1<<24)/n)
			fft := func() error { return ntt.FFT(s, buf, PrimeDIF) }
			dt := deviceTime(t, d, s, 2, 9, inner, fft)
			dt8 := deviceTime(t, d, s, 2, 9, 8*inner, fft)
			fmt.Printf("| %s | 2^%d | %s | %s | %s | %s | %s |\n", c.name, logn, v.name, plan, ms(dt), ms(dt8), check)
			must(t, ntt.Close())
		}
		k.info, k.legacy, k.twTable, k.fs31 = def, false, false, defFS31
		must(t, k.loadVariant(d))
		for _, fs := range []map[int]*Function{k.fs, k.fsSh} {
			for nst, f := range fs {
				must(t, f.SetMaxDynamicSharedMem(k.fsMaxShared(nst)))
			}
		}
		must(t, buf.Free())
	}
}

var compileTimes = flag.Bool("gpu.compiletimes", false, "run TestCompileTimes: NVRTC compile and load time of each kernel module, no disk cache")

// TestCompileTimes times the first use of each kernel module on a device
// opened without the disk cache and without the prebuilt images: NVRTC
// compilation plus loading, what a machine pays once when the binary has
// no images for its GPU (later runs load the cached image). Run with
// -gpu.compiletimes; TestPrebuiltLoads prints the same rows with images.
func TestCompileTimes(t *testing.T) {
	if !*compileTimes {
		t.Skip("run with -gpu.compiletimes")
	}
	testDevice(t) // skips without a device
	d, err := Open(WithoutCache(), WithoutPrebuilt())
	must(t, err)
	defer d.Close()
	fmt.Printf("\n%s, NVRTC %s, target %s (cubin %v)\n\n| module | first use (compile + load) |\n|---|---|\n",
		d.Info().Name, d.Info().NVRTCVersion, d.Info().Target, d.cubin)
	_, took := loadAll(t, d)
	for _, name := range slices.Sorted(maps.Keys(took)) {
		fmt.Printf("| %s | %.1f s |\n", name, took[name].Seconds())
	}
}
