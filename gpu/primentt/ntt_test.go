package primentt

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/consensys/gnark-crypto/utils"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

var (
	noPDL     = flag.Bool("gpu.nopdl", false, "launch the NTT kernels as ordinary launches, not programmatic dependent ones (timing comparisons)")
	latePDL   = flag.Bool("gpu.pdllate", false, "the NTT passes let the next kernel start at their end, not at their start (timing comparisons)")
	shoupMaxK = flag.Int("gpu.shoupmaxk", bn254ShoupMaxK, "BN254: the largest first part of the Shoup table (bn254ShoupMaxK; 16: as before the pass twists took one product up to 2^18, timing comparisons)")
	twistMax  = flag.Int("gpu.twistmax", twistMaxLog, "31-bit fields: the largest twist table, log2 of its entries (twistMaxLog; 0: none, the passes build their twiddles, timing comparisons)")
	bigLogs   = flag.String("gpu.primebig", "", "TestPrimeNTT: log2 sizes past the default ones (comma-separated, e.g. 25,26), each checked with FFT and CosetFFTInverse in DIF and natural order")
)

func TestMain(m *testing.M) {
	flag.Parse()
	noDependent = *noPDL
	pdlLate = *latePDL
	bn254ShoupMaxK = *shoupMaxK
	twistMaxLog = *twistMax
	gputest.Main(m)
}

// parallel runs f over [0, n) split into one range per CPU.
func parallel(n int, f func(lo, hi int)) {
	p := runtime.NumCPU()
	if n < 1<<14 || p == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + p - 1) / p
	for lo := 0; lo < n; lo += step {
		wg.Go(func() { f(lo, min(lo+step, n)) })
	}
	wg.Wait()
}

// primeCase is what the prime NTT tests need of one field: domains, random
// elements and gnark-crypto's own transforms as the reference.
type primeCase[E Element] struct {
	name   string
	maxLog int
	domain func(n uint64, shift *E) any
	lazy   func(n uint64) any // a domain built WithoutPrecompute
	random func(r *rand.Rand) E
	gnark  func(d any, a []E, o Order, inverse, coset bool)
}

func bn254Case() primeCase[fr.Element] {
	return primeCase[fr.Element]{
		name: "bn254", maxLog: 28,
		domain: func(n uint64, s *fr.Element) any {
			if s != nil {
				return bn254fft.NewDomain(n, bn254fft.WithShift(*s))
			}
			return bn254fft.NewDomain(n)
		},
		lazy: func(n uint64) any { return bn254fft.NewDomain(n, bn254fft.WithoutPrecompute()) },
		random: func(r *rand.Rand) fr.Element {
			// any 4 limbs below q are a canonical Montgomery representation
			return fr.Element{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64N(0x30644e72e131a029)}
		},
		gnark: func(d any, a []fr.Element, o Order, inverse, coset bool) {
			dom := d.(*bn254fft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, bn254fft.DIF, bn254fft.DIT, bn254fft.OnCoset(), o, inverse, coset)
		},
	}
}

func goldilocksCase() primeCase[goldilocks.Element] {
	return primeCase[goldilocks.Element]{
		name: "goldilocks", maxLog: 32,
		domain: func(n uint64, s *goldilocks.Element) any {
			if s != nil {
				return goldilocksfft.NewDomain(n, goldilocksfft.WithShift(*s))
			}
			return goldilocksfft.NewDomain(n)
		},
		lazy: func(n uint64) any { return goldilocksfft.NewDomain(n, goldilocksfft.WithoutPrecompute()) },
		random: func(r *rand.Rand) goldilocks.Element {
			return goldilocks.Element{r.Uint64N(0xffffffff00000001)}
		},
		gnark: func(d any, a []goldilocks.Element, o Order, inverse, coset bool) {
			dom := d.(*goldilocksfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, goldilocksfft.DIF, goldilocksfft.DIT, goldilocksfft.OnCoset(), o, inverse, coset)
		},
	}
}

func babybearCase() primeCase[babybear.Element] {
	return primeCase[babybear.Element]{
		name: "babybear", maxLog: 27,
		domain: func(n uint64, s *babybear.Element) any {
			if s != nil {
				return babybearfft.NewDomain(n, babybearfft.WithShift(*s))
			}
			return babybearfft.NewDomain(n)
		},
		lazy:   func(n uint64) any { return babybearfft.NewDomain(n, babybearfft.WithoutPrecompute()) },
		random: func(r *rand.Rand) babybear.Element { return babybear.Element{r.Uint32N(2013265921)} },
		gnark: func(d any, a []babybear.Element, o Order, inverse, coset bool) {
			dom := d.(*babybearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, babybearfft.DIF, babybearfft.DIT, babybearfft.OnCoset(), o, inverse, coset)
		},
	}
}

func koalabearCase() primeCase[koalabear.Element] {
	return primeCase[koalabear.Element]{
		name: "koalabear", maxLog: 24,
		domain: func(n uint64, s *koalabear.Element) any {
			if s != nil {
				return koalabearfft.NewDomain(n, koalabearfft.WithShift(*s))
			}
			return koalabearfft.NewDomain(n)
		},
		lazy:   func(n uint64) any { return koalabearfft.NewDomain(n, koalabearfft.WithoutPrecompute()) },
		random: func(r *rand.Rand) koalabear.Element { return koalabear.Element{r.Uint32N(2130706433)} },
		gnark: func(d any, a []koalabear.Element, o Order, inverse, coset bool) {
			dom := d.(*koalabearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, koalabearfft.DIF, koalabearfft.DIT, koalabearfft.OnCoset(), o, inverse, coset)
		},
	}
}

// gnarkFFT runs one gnark-crypto transform, given the fft package's own
// functions and values, in the order the tests name.
func gnarkFFT[E, Dec, Opt any](a []E, fft, fftInv func([]E, Dec, ...Opt), dif, dit Dec, onCoset Opt,
	o Order, inverse, coset bool) {
	dec := dif
	if o == DIT {
		dec = dit
	}
	var opts []Opt
	if coset {
		opts = append(opts, onCoset)
	}
	if inverse {
		fftInv(a, dec, opts...)
	} else {
		fft(a, dec, opts...)
	}
	if o == Natural {
		utils.BitReverse(a)
	}
}

func primeRandom[E Element](c primeCase[E], n int, seed uint64) []E {
	out := make([]E, n)
	parallel(n, func(lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(lo)))
		for i := lo; i < hi; i++ {
			out[i] = c.random(r)
		}
	})
	return out
}

var primeOrders = []Order{DIF, DIT, Natural}

type primeOp struct {
	name           string
	inverse, coset bool
}

var primeOps = []primeOp{{"FFT", false, false}, {"FFTInverse", true, false}, {"CosetFFT", false, true}, {"CosetFFTInverse", true, true}}

func (t *NTT[E]) do(op primeOp, s *gpu.Stream, b *gpu.Buffer[E], o Order) error {
	switch {
	case op.inverse && op.coset:
		return t.CosetFFTInverse(s, b, o)
	case op.inverse:
		return t.FFTInverse(s, b, o)
	case op.coset:
		return t.CosetFFT(s, b, o)
	}
	return t.FFT(s, b, o)
}

func TestPrimeNTT(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testPrimeNTT(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testPrimeNTT(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testPrimeNTT(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testPrimeNTT(t, d, koalabearCase()) })
}

// testPrimeNTT: every size 2^0..2^12 with batches of 3 columns, every
// transform and order; then sampled sizes up to 2^24 (2^16 with -short).
func testPrimeNTT[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	noReg := false
	check := func(logn, cols int, ops []primeOp, orders []Order) {
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		defer ntt.Close()
		ntt.k.noReg = noReg
		checkGnark(t, c, ntt, dom, cols, ops, orders, fmt.Sprintf("noReg=%v", noReg))
	}
	// Every size with the radix-2 pass for transforms of one tile (larger
	// ones take the four-step passes), then with the register pass where it
	// applies (the default).
	noReg = true
	for logn := 0; logn <= 16; logn++ {
		check(logn, 2, primeOps, primeOrders)
	}
	noReg = false
	for logn := 0; logn <= 12; logn++ {
		check(logn, 3, primeOps, primeOrders)
	}
	big := []int{13, 14, 15, 16}
	if !testing.Short() {
		big = append(big, 17, 18, 19, 20, 21, 22, 24)
	}
	for i, logn := range big {
		if logn > c.maxLog {
			continue
		}
		if logn == 21 { // three four-step passes: every transform and order
			check(logn, 1, primeOps, primeOrders)
			continue
		}
		if logn <= 16 {
			check(logn, 2, primeOps, primeOrders)
			continue
		}
		// one transform and order per size, rotating
		check(logn, 1, []primeOp{primeOps[i%4]}, []Order{primeOrders[i%3]})
	}
	if *bigLogs == "" {
		return
	}
	for _, f := range strings.Split(*bigLogs, ",") {
		logn, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(t, err, "-gpu.primebig: %q", f)
		if logn > c.maxLog {
			continue
		}
		check(logn, 1, []primeOp{primeOps[0], primeOps[3]}, []Order{DIF, Natural})
	}
}

func TestPrimeLDE(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testPrimeLDE(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testPrimeLDE(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testPrimeLDE(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testPrimeLDE(t, d, koalabearCase()) })
}

// testPrimeLDE: the LDE equals gnark-crypto's INTT on the small domain then
// the coset NTT on the large one, for every order and blowup.
func testPrimeLDE[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	check := func(logn, logb, cols int, shift bool) {
		n, bigN := 1<<logn, 1<<(logn+logb)
		small := c.domain(uint64(n), nil)
		var s *E
		if shift {
			r := rand.New(rand.NewPCG(9, 9))
			v := c.random(r)
			s = &v
		}
		large := c.domain(uint64(bigN), s)
		l, err := NewLDE[E](d, small, large)
		require.NoError(t, err)
		defer l.Close()
		src, err := gpu.Alloc[E](d, cols*n)
		require.NoError(t, err)
		defer src.Free()
		dst, err := gpu.Alloc[E](d, cols*bigN)
		require.NoError(t, err)
		defer dst.Free()
		in := primeRandom(c, cols*n, uint64(logn))
		// natural-order reference
		want := make([]E, cols*bigN)
		for col := range cols {
			coef := append([]E(nil), in[col*n:(col+1)*n]...)
			c.gnark(small, coef, Natural, true, false)
			copy(want[col*bigN:], coef)
			c.gnark(large, want[col*bigN:(col+1)*bigN], Natural, false, true)
		}
		got := make([]E, cols*bigN)
		back := make([]E, cols*n)
		for _, o := range primeOrders {
			host := append([]E(nil), in...)
			w := append([]E(nil), want...)
			for col := range cols {
				if o == DIT {
					utils.BitReverse(host[col*n : (col+1)*n])
				}
				if o == DIF {
					utils.BitReverse(w[col*bigN : (col+1)*bigN])
				}
			}
			require.NoError(t, src.Upload(host))
			require.NoError(t, l.Encode(nil, dst, src, o))
			require.NoError(t, dst.Download(got))
			testutil.RequireEqualSlices(t, w, got, "%s LDE 2^%d x%d %v cols=%d: device against gnark-crypto", c.name, logn, 1<<logb, o, cols)
			require.NoError(t, src.Download(back))
			testutil.RequireEqualSlices(t, host, back, "%s LDE modified src", c.name)
		}
	}
	for logn := 0; logn <= 10; logn++ {
		check(logn, 1+logn%4, 2, logn%3 == 0)
	}
	for logb := 1; logb <= 4; logb++ {
		check(12, logb, 3, logb == 3)
	}
	if !testing.Short() && c.maxLog >= 22 {
		check(20, 2, 1, false)
	}
}

func TestPrimeNTTErrors(t *testing.T) {
	d := gputest.Device(t)
	dG := goldilocksfft.NewDomain(16)
	_, err := NewNTT[fr.Element](d, dG)
	assert.ErrorIs(t, err, ErrField, "goldilocks domain for fr elements")
	for _, bad := range []any{nil, (*bn254fft.Domain)(nil), 3} {
		_, err := NewNTT[fr.Element](d, bad)
		assert.ErrorIs(t, err, ErrDomain, "NewNTT(%T)", bad)
	}
	tam := *goldilocksfft.NewDomain(16)
	tam.Cardinality = 32
	_, err = NewNTT[goldilocks.Element](d, &tam)
	assert.ErrorIs(t, err, ErrDomain, "tampered domain")
	_, err = NewLDE[goldilocks.Element](d, dG, goldilocksfft.NewDomain(512))
	assert.ErrorIs(t, err, ErrDomain, "blowup 32")
	ntt, err := NewNTT[goldilocks.Element](d, dG)
	require.NoError(t, err)
	defer ntt.Close()
	b, err := gpu.Alloc[goldilocks.Element](d, 24)
	require.NoError(t, err)
	defer b.Free()
	assert.ErrorIs(t, ntt.FFT(nil, b, DIF), gpu.ErrLength, "24 elements on a 16-domain")
	assert.Error(t, ntt.FFT(nil, b, Order(9)), "bad order accepted")
	assert.Equal(t, "DIF DIT Natural Order(9)", fmt.Sprint(DIF, DIT, Natural, Order(9)))
	freed, err := gpu.Alloc[goldilocks.Element](d, 16)
	require.NoError(t, err)
	require.NoError(t, freed.Free())
	assert.ErrorIs(t, ntt.FFT(nil, freed, DIF), gpu.ErrClosed, "FFT of a freed buffer")
	closed, err := NewNTT[goldilocks.Element](d, dG)
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	assert.NoError(t, closed.Close(), "second Close")
	b16, err := gpu.Alloc[goldilocks.Element](d, 16)
	require.NoError(t, err)
	defer b16.Free()
	assert.ErrorIs(t, closed.FFT(nil, b16, DIF), gpu.ErrClosed, "FFT after Close")
}

// TestOneTile checks that the transforms of one tile run in one pass and
// every larger size up to the kernels' limit has a four-step plan, for
// every field.
func TestOneTile(t *testing.T) {
	for _, f := range nttFields {
		for logn := 0; logn <= maxPrimeLog; logn++ {
			if logn <= f.logTile {
				continue
			}
			assert.NotNil(t, planFS(logn, f), "%s 2^%d: no four-step plan", f.name, logn)
		}
		k := &nttKernels{info: f}
		// the one-tile pass: a tile of 2^logTile and a pad element
		assert.GreaterOrEqual(t, k.maxShared(), ((1<<f.logTile)+1)*k.elemSize(), f.name)
	}
}

func TestPlanFS(t *testing.T) {
	for _, f := range nttFields {
		for logn := f.logTile + 1; logn <= maxPrimeLog; logn++ {
			ps := planFS(logn, f)
			require.NotNil(t, ps, "%s 2^%d: no four-step plan", f.name, logn)
			next := 0
			for _, p := range ps {
				rl := min(f.fsRlog, p.nst)
				require.Equal(t, rl, p.rl, "%s 2^%d: pass %+v: the field's elements per thread", f.name, logn, p)
				threads := 1 << (p.nst + p.logc - rl)
				require.True(t, p.lo == next && p.nst >= f.fsMinNST && p.nst <= f.fsMaxNST && p.logc >= 0 &&
					p.nst+p.logc <= logn && threads <= f.fsMaxThreads && threads >= 32,
					"%s 2^%d: bad pass %+v in %+v", f.name, logn, p, ps)
				k := &nttKernels{info: f}
				sh := fsShared(p, k.info, k.elemSize())
				require.LessOrEqual(t, sh, k.fsMaxShared(p.nst), "%s 2^%d: pass %+v shared memory", f.name, logn, p)
				require.LessOrEqual(t, sh, 227<<10, "%s 2^%d: pass %+v shared memory", f.name, logn, p)
				next += p.nst
			}
			require.Equal(t, logn, next, "%s 2^%d: bits the passes %+v cover", f.name, logn, ps)
		}
	}
}

// TestFS31Layout models the shared-memory layout of FS31 (BabyBear,
// KoalaBear) for every pass the plans use: a group's element t sits at
// row·group + t + t/16 below the twiddles at row·2^logc (fsShared's size), no
// two elements share a word, and the exchanges between rounds (each thread
// its R elements t = tbase + e·2^ws, one e per access) are free of bank
// conflicts above the bottom pass and at most 2-way in it.
func TestFS31Layout(t *testing.T) {
	for _, name := range []string{"babybear", "koalabear"} {
		f := nttFields[name]
		for _, p := range distinctFSPasses(f) {
			testFS31Pass(t, f, p)
		}
	}
}

// distinctFSPasses returns the distinct passes of f's four-step plans at
// every size past one tile, in the order they first appear (most passes
// recur at many sizes).
func distinctFSPasses(f nttFieldInfo) []nttPass {
	var ps []nttPass
	seen := map[nttPass]bool{}
	for logn := f.logTile + 1; logn <= maxPrimeLog; logn++ {
		for _, p := range planFS(logn, f) {
			if !seen[p] {
				seen[p] = true
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func testFS31Pass(t *testing.T, f nttFieldInfo, p nttPass) {
	rl := p.rl
	g, r := 1<<p.nst, 1<<rl
	row := g + g>>4
	if p.lo > 0 {
		row += 2
	}
	pos := func(ol, t int) int { return ol*row + t + t>>4 }
	require.LessOrEqual(t, row<<p.logc+g-1, fsShared(p, f, 4)/4, "%s %+v: words the tile and twiddles need, against fsShared", f.name, p)
	// (plain ifs, no testify, in the loops below: its t.Helper per call
	// was a third of the test's time)
	seen := make([]bool, row<<p.logc)
	for ol := range 1 << p.logc {
		for tt := range g {
			if a := pos(ol, tt); a >= len(seen) || seen[a] {
				t.Fatalf("%s %+v: element (%d, %d) at word %d: taken or past the tile", f.name, p, ol, tt, a)
			} else {
				seen[a] = true
			}
		}
	}
	limit := 1
	if p.lo == 0 {
		limit = 2
	}
	// thread coordinates as in FS31
	nthr := g << p.logc >> rl
	a := min(p.lo, p.logc)
	nr := (p.nst + rl - 1) / rl
	done := 0
	for rd := range nr {
		m := p.nst / nr
		if rd < p.nst%nr {
			m++
		}
		for _, dit := range []bool{false, true} {
			qb := p.nst - done - m
			if dit {
				qb = done
			}
			ws := min(qb, p.nst-rl)
			for w0 := 0; w0 < nthr; w0 += 32 {
				for e := range r {
					var ads [32]int
					n := 0
					for tid := w0; tid < min(w0+32, nthr); tid++ {
						tpart := (tid >> a) & (g/r - 1)
						ol := tid&(1<<a-1) | (tid>>(a+p.nst-rl))<<a
						tbase := tpart&(1<<ws-1) | (tpart>>ws)<<(ws+rl)
						ads[n] = pos(ol, tbase+e<<ws)
						n++
					}
					if way := bankWays(ads[:n], 32); way > limit {
						t.Fatalf("%s %+v: round %d (window %d, dit %v) e=%d: bank conflict ways: %d > %d", f.name, p, rd, ws, dit, e, way, limit)
					}
				}
			}
		}
		done += m
	}
}

// bankWays returns the most distinct words of ads (an access's word
// addresses, one per thread) in one of the banks (address mod banks): the
// wavefronts the access takes. It sorts ads.
func bankWays(ads []int, banks int) int {
	slices.Sort(ads)
	var per [32]int
	way := 0
	for i, ad := range ads {
		if i > 0 && ads[i-1] == ad {
			continue
		}
		per[ad%banks]++
		way = max(way, per[ad%banks])
	}
	return way
}

// TestFS64Layout models the shared-memory layout of FS64 (Goldilocks)
// for every pass the plans use: a group's element t sits at row·group +
// fs64Pos(t) below the twiddles at row·2^logc (fsShared's size), no two
// elements share a word, and every access of a round (thread coordinates as
// in the kernel; 8-byte words, so a half-warp per 16 banks of 8 bytes) takes
// one wavefront per half-warp above the bottom pass for passes up to 10 bits
// and at most two otherwise, including the bottom pass's accesses in address
// order.
func TestFS64Layout(t *testing.T) {
	f := nttFields["goldilocks"]
	for _, p := range distinctFSPasses(f) {
		testFS64Pass(t, f, p)
	}
}

func testFS64Pass(t *testing.T, f nttFieldInfo, p nttPass) {
	rl := p.rl
	g, r := 1<<p.nst, 1<<rl
	row := fs64Row(p)
	pos := func(ol, t int) int { return ol*row + fs64Pos(p, t) }
	require.LessOrEqual(t, row<<p.logc+g-1, fsShared(p, f, 8)/8, "%+v: words the tile and twiddles need, against fsShared", p)
	seen := make([]bool, row<<p.logc)
	for ol := range 1 << p.logc {
		for tt := range g {
			if a := pos(ol, tt); a >= len(seen) || seen[a] {
				t.Fatalf("%+v: element (%d, %d) at word %d: taken or past the tile", p, ol, tt, a)
			} else {
				seen[a] = true
			}
		}
	}
	limit := 1
	if p.lo == 0 || p.nst > 10 {
		limit = 2
	}
	// wavefronts of one warp access: per half-warp, the most distinct
	// words in one bank (what formats the access for a failure only)
	check := func(what func() string, addr func(tid int) int, w0, nthr int) {
		for h := w0; h < min(w0+32, nthr); h += 16 {
			var ads [16]int
			n := 0
			for tid := h; tid < min(h+16, nthr); tid++ {
				ads[n] = addr(tid)
				n++
			}
			if way := bankWays(ads[:n], 16); way > limit {
				t.Fatalf("%+v: %s: bank conflict ways: %d > %d", p, what(), way, limit)
			}
		}
	}
	nthr := g << p.logc >> rl
	a := min(p.lo, p.logc)
	nr := (p.nst + rl - 1) / rl
	done := 0
	for rd := range nr {
		m := p.nst / nr
		if rd < p.nst%nr {
			m++
		}
		for _, dit := range []bool{false, true} {
			qb := p.nst - done - m
			if dit {
				qb = done
			}
			ws := min(qb, p.nst-rl)
			for w0 := 0; w0 < nthr; w0 += 32 {
				for e := range r {
					check(func() string { return fmt.Sprintf("round %d (window %d, dit %v) e=%d", rd, ws, dit, e) }, func(tid int) int {
						tpart := (tid >> a) & (g/r - 1)
						ol := tid&(1<<a-1) | (tid>>(a+p.nst-rl))<<a
						tbase := tpart&(1<<ws-1) | (tpart>>ws)<<(ws+rl)
						return pos(ol, tbase+e<<ws)
					}, w0, nthr)
					if p.lo == 0 {
						check(func() string { return fmt.Sprintf("address order e=%d", e) }, func(tid int) int {
							u := tid + e*nthr
							return pos(u>>p.nst, u&(g-1))
						}, w0, nthr)
					}
				}
			}
		}
		done += m
	}
}

// TestPrimeDomainChecks runs the domain validation, which needs no device
// (a nil device is only refused after the domain passed).
func TestPrimeDomainChecks(t *testing.T) {
	dG := goldilocksfft.NewDomain(16)
	_, err := NewNTT[fr.Element](nil, dG)
	assert.ErrorIs(t, err, ErrField, "goldilocks domain for fr elements")
	_, err = NewNTT[koalabear.Element](nil, babybearfft.NewDomain(8))
	assert.ErrorIs(t, err, ErrField, "babybear domain for koalabear elements")
	for _, bad := range []any{nil, (*bn254fft.Domain)(nil), (*koalabearfft.Domain)(nil), 3, *dG} {
		_, err := NewNTT[fr.Element](nil, bad)
		assert.True(t, errors.Is(err, ErrDomain) || errors.Is(err, ErrField), "NewNTT(%T): %v", bad, err)
	}
	tamper := []func(d *goldilocksfft.Domain){
		func(d *goldilocksfft.Domain) { d.Cardinality = 32 },
		func(d *goldilocksfft.Domain) { d.Cardinality = 0 },
		func(d *goldilocksfft.Domain) { d.Cardinality = 24 },
		func(d *goldilocksfft.Domain) { d.Cardinality = 1 << 31 },
		func(d *goldilocksfft.Domain) { d.Generator.SetUint64(5) },
		func(d *goldilocksfft.Domain) { d.GeneratorInv.SetUint64(5) },
		func(d *goldilocksfft.Domain) { d.CardinalityInv.SetUint64(5) },
		func(d *goldilocksfft.Domain) { d.FrMultiplicativeGen.SetZero() },
		func(d *goldilocksfft.Domain) { *d = goldilocksfft.Domain{} },
	}
	for i, f := range tamper {
		d := *dG
		f(&d)
		_, err := NewNTT[goldilocks.Element](nil, &d)
		assert.ErrorIs(t, err, ErrDomain, "tampered domain %d", i)
	}
	_, err = NewNTT[goldilocks.Element](nil, dG)
	assert.ErrorIs(t, err, gpu.ErrNoDevice, "nil device")
}

// TestPrimeTables checks the host-built tables: the twiddle table's small
// end holds w^(j·2^(logn−1−p)) at 2^b − 2^(p+1) + j, as gnark-crypto's
// precomputed twiddles do, and the coset power tables give g^k and c·g^k.
func TestPrimeTables(t *testing.T) {
	id := func(e fr.Element) fr.Element { return e }
	for _, logn := range []int{0, 1, 2, 3, 5, 9, 11, 12, 13, 16} {
		n := uint64(1) << logn
		pre := bn254fft.NewDomain(n)
		tw, _ := pre.Twiddles()
		a := twiddleTable[fr.Element](pre.Generator, logn, id)
		b := min(logn, twiddleBits)
		require.Len(t, a, max(1<<b-1, 1), "2^%d: the small end", logn)
		for p := 0; p < b; p++ {
			for j := 0; j < 1<<p; j++ {
				var want fr.Element
				want.Exp(pre.Generator, big.NewInt(int64(j)<<(logn-1-p)))
				got := a[1<<b-(2<<p)+j]
				require.Equal(t, want, got, "2^%d: twiddle p=%d j=%d", logn, p, j)
				require.Equal(t, tw[logn-1-p][j], got, "2^%d: twiddle p=%d j=%d against the domain's", logn, p, j)
			}
		}
		if logn > 12 {
			continue
		}
		h := (logn + 1) / 2
		var c fr.Element
		c.SetUint64(12345)
		tab := powerTable[fr.Element](pre.FrMultiplicativeGen, c, logn, h, id)
		for k := 0; k < int(n); k++ {
			var got, want fr.Element
			got.Mul(&tab[k&(1<<h-1)], &tab[1<<h+k>>h])
			want.Exp(pre.FrMultiplicativeGen, big.NewInt(int64(k))).Mul(&want, &c)
			require.Equal(t, want, got, "2^%d: coset power %d", logn, k)
		}
	}
}

// TestGoldilocksShiftRoots checks what ntt_goldilocks_sh_fs* assume of
// gnark-crypto's Goldilocks domains: ω^(n/64) is a power of 2 (2^39; the
// inverse 2^153), so ω^(n/8) = 2^120 (goldilocksSH8) for every size, and
// the inverse tables' 2^72 (goldilocksSH8Inv, ntt_goldilocks_shi_fs*).
func TestGoldilocksShiftRoots(t *testing.T) {
	var two, m1, x goldilocks.Element
	two.SetUint64(2)
	m1.SetOne()
	m1.Neg(&m1)
	x.Exp(two, big.NewInt(96))
	require.Equal(t, m1, x, "2^96 = -1 in Goldilocks")
	for lg := 6; lg <= 32; lg++ {
		w, err := goldilocksfft.Generator(uint64(1) << lg)
		require.NoError(t, err)
		var wi, w64, wi64 goldilocks.Element
		wi.Inverse(&w)
		e := new(big.Int).Lsh(big.NewInt(1), uint(lg-6))
		w64.Exp(w, e)
		wi64.Exp(wi, e)
		require.Equal(t, 39, goldilocksPow2Log(w64), "2^%d: log2 of ω^(n/64)", lg)
		require.Equal(t, 153, goldilocksPow2Log(wi64), "2^%d: log2 of ω^(-n/64)", lg)
		require.Equal(t, goldilocksSH8, goldilocksPow2Log(goldilocksRoot8(w, lg)), "2^%d: log2 of ω^(n/8)", lg)
		require.Equal(t, goldilocksSH8Inv, goldilocksPow2Log(goldilocksRoot8(wi, lg)), "2^%d: log2 of ω^(-n/8)", lg)
	}
	// the domains' own generators, as NewNTT reads them
	for _, lg := range []int{13, 16, 20} {
		dom := goldilocksfft.NewDomain(uint64(1) << lg)
		v, _, err := goldilocksDom(dom)
		require.NoError(t, err)
		require.NotNil(t, v)
		require.Equal(t, goldilocksSH8, goldilocksPow2Log(goldilocksRoot8(v.gen, lg)), "domain 2^%d: log2 of ω^(n/8)", lg)
		require.Equal(t, goldilocksSH8Inv, goldilocksPow2Log(goldilocksRoot8(v.genInv, lg)), "domain 2^%d: log2 of ω^(-n/8)", lg)
	}
	var y goldilocks.Element
	y.SetUint64(3)
	require.Equal(t, -1, goldilocksPow2Log(y), "3 is not a power of 2")
}

func TestPrimeBatch(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testPrimeBatch(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testPrimeBatch(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testPrimeBatch(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testPrimeBatch(t, d, koalabearCase()) })
}

// testPrimeBatch: a batch of k columns transformed in one call equals each
// column transformed alone on the device, for shapes from 1024 columns of
// 2^10 to 2 of 2^20 (one tile, two and three four-step passes, the tiled
// and the element-wise bit reversal; a lone column takes planWide's
// passes, a batch of 200 columns of 2^12 the one-tile pass), every order,
// FFT and coset inverse.
func testPrimeBatch[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	shapes := []struct{ cols, logn int }{{1024, 10}, {200, 12}, {33, 12}, {7, 13}, {3, 17}}
	if !testing.Short() {
		shapes = append(shapes, struct{ cols, logn int }{256, 16}, struct{ cols, logn int }{2, 20})
	}
	for _, sh := range shapes {
		n := 1 << sh.logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		batch := gputest.Alloc[E](t, d, sh.cols*n)
		one := gputest.Alloc[E](t, d, n)
		got, col := make([]E, sh.cols*n), make([]E, n)
		for _, op := range []primeOp{primeOps[0], primeOps[3]} {
			for _, o := range primeOrders {
				in := primeRandom(c, sh.cols*n, uint64(sh.logn*7+int(o)))
				require.NoError(t, batch.Upload(in))
				require.NoError(t, ntt.do(op, nil, batch, o))
				require.NoError(t, batch.Download(got))
				for j := range sh.cols {
					require.NoError(t, one.Upload(in[j*n:(j+1)*n]))
					require.NoError(t, ntt.do(op, nil, one, o))
					require.NoError(t, one.Download(col))
					testutil.RequireEqualSlices(t, col, got[j*n:(j+1)*n], "%s %d×2^%d %s %v: column %d of the batch against it alone", c.name, sh.cols, sh.logn, op.name, o, j)
				}
			}
		}
		require.NoError(t, ntt.Close())
	}
}

// TestPlanWide checks the passes for few columns: each within the
// kernels' launch bounds (32 threads at least) and shared memory, covering
// every bit once, at least as many blocks per column as planFS's, and taken
// (planFor) only where the columns leave multiprocessors idle.
func TestPlanWide(t *testing.T) {
	const sms = 132
	for _, f := range nttFields {
		k := &nttKernels{info: f}
		for logn := 0; logn <= maxPrimeLog; logn++ {
			ps := planWide(logn, f, sms)
			if ps == nil {
				continue
			}
			std := planFS(logn, f)
			next := 0
			for i, p := range ps {
				rl := p.rl
				threads := 1 << (p.nst + p.logc - rl)
				require.True(t, p.lo == next && p.nst == std[i].nst && p.logc <= std[i].logc && threads >= 32 && threads <= f.fsMaxThreads,
					"%s 2^%d: bad pass %+v in %+v (planFS %+v)", f.name, logn, p, ps, std)
				require.LessOrEqual(t, fsShared(p, f, k.elemSize()), k.fsMaxShared(p.nst), "%s 2^%d: pass %+v shared memory", f.name, logn, p)
				next += p.nst
			}
			require.Equal(t, logn, next, "%s 2^%d: bits the passes %+v cover", f.name, logn, ps)
			stdBlocks := 1
			if logn > f.logTile {
				stdBlocks = planBlocks(std, logn)
			}
			require.GreaterOrEqual(t, planBlocks(ps, logn), stdBlocks, "%s 2^%d", f.name, logn)
		}
	}
	// planFor: the wide plan for a lone column, planFS's for many
	d := gputest.Device(t)
	ntt, err := NewNTT[goldilocks.Element](d, goldilocksfft.NewDomain(1<<16))
	require.NoError(t, err)
	defer ntt.Close()
	require.NotNil(t, ntt.fsWide, "2^16 Goldilocks: a wide plan")
	require.NotNil(t, ntt.fsLone, "2^16 Goldilocks: a measured plan")
	assert.Equal(t, ntt.fsLone, planOf(ntt, 1), "one column: the measured plan")
	assert.Equal(t, ntt.fsPlan, planOf(ntt, 1024), "1024 columns")
	ntt.fsLone = nil
	assert.Equal(t, ntt.fsWide, planOf(ntt, 1), "one column, no measured plan")
}

// TestLonePlansGPU runs every measured plan (lonePlans) in every direction,
// order and coset against gnark-crypto, one column (the plans are taken
// for few columns only), and two columns where the plan still applies.
func TestLonePlansGPU(t *testing.T) {
	d := gputest.Device(t)
	t.Run("goldilocks", func(t *testing.T) { testLonePlans(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testLonePlans(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testLonePlans(t, d, koalabearCase()) })
	t.Run("bn254", func(t *testing.T) { testLonePlans(t, d, bn254Case()) })
}

func testLonePlans[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	sizes := slices.Sorted(maps.Keys(lonePlans[nttFields[c.name].fsKernels()]))
	require.NotEmpty(t, sizes)
	for _, logn := range sizes {
		if logn > c.maxLog {
			continue // the 31-bit fields share plans; KoalaBear's domains stop at 2^24
		}
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		plan, late := ntt.planFor(1, DIF)
		require.Equal(t, lonePlans[nttFields[c.name].fsKernels()][logn], plan, "%s 2^%d", c.name, logn)
		if np := loneNatPlans[nttFields[c.name].fsKernels()][logn]; np != nil {
			nat, late := ntt.planFor(1, Natural)
			require.Equal(t, np, nat, "%s 2^%d: natural order's plan", c.name, logn)
			require.False(t, late, "%s 2^%d: natural order's trigger", c.name, logn)
		}
		require.Equal(t, lateTrigger[nttFields[c.name].fsKernels()][logn], late, "%s 2^%d: trigger", c.name, logn)
		cols := 1
		if slices.Equal(planOf(ntt, 2), ntt.fsLone) {
			cols = 2
		}
		checkGnark(t, c, ntt, dom, cols, primeOps, primeOrders, fmt.Sprintf("plan %v, natural order %v", ntt.fsLone, ntt.fsLoneNat))
		require.NoError(t, ntt.Close())
	}
}

// checkGnark runs each of ops in each of orders on cols random columns of
// ntt's size, with nil streams, and checks them against gnark-crypto's
// transforms of dom; what names the configuration in failures.
func checkGnark[E Element](t *testing.T, c primeCase[E], ntt *NTT[E], dom any, cols int, ops []primeOp, orders []Order, what string) {
	n := 1 << ntt.logn
	buf, err := gpu.Alloc[E](ntt.d, cols*n)
	require.NoError(t, err)
	defer buf.Free()
	got := make([]E, cols*n)
	for _, op := range ops {
		for _, o := range orders {
			in := primeRandom(c, cols*n, uint64(ntt.logn*100+int(o)))
			require.NoError(t, buf.Upload(in))
			require.NoError(t, ntt.do(op, nil, buf, o))
			require.NoError(t, buf.Download(got))
			for col := range cols {
				c.gnark(dom, in[col*n:(col+1)*n], o, op.inverse, op.coset)
			}
			testutil.RequireEqualSlices(t, in, got, "%s 2^%d %s %v cols=%d %s: device against gnark-crypto", c.name, ntt.logn, op.name, o, cols, what)
		}
	}
}

// TestPrimeLazyDomain checks transforms built from domains without
// gnark-crypto's precomputed tables (WithoutPrecompute: NewNTT reads
// none of them) against gnark-crypto, every transform and order, one tile
// and four-step sizes.
func TestPrimeLazyDomain(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testLazyDomain(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testLazyDomain(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testLazyDomain(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testLazyDomain(t, d, koalabearCase()) })
}

func testLazyDomain[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	for _, logn := range []int{5, 11, 14, 17} {
		dom := c.lazy(uint64(1) << logn)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err, "%s 2^%d", c.name, logn)
		checkGnark(t, c, ntt, dom, 2, primeOps, primeOrders, "WithoutPrecompute")
		require.NoError(t, ntt.Close())
	}
}

// TestPrimeGraphs checks the transforms queued on a stream, which run as
// CUDA graphs from their second call (graph.go), against gnark-crypto:
// repeated calls on one buffer, another buffer, another order and
// direction, more buffers than the NTT keeps graphs for (evictions), and
// an NTT of another size on the same memory; Close frees the graphs.
func TestPrimeGraphs(t *testing.T) {
	d := gputest.Device(t)
	c := goldilocksCase()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	const logn = 14
	n := 1 << logn
	dom := c.domain(uint64(n), nil)
	ntt, err := NewNTT[goldilocks.Element](d, dom)
	require.NoError(t, err)
	mem := gputest.Alloc[goldilocks.Element](t, d, (maxGraphs+4)*n)
	got := make([]goldilocks.Element, n)
	check := func(tr *NTT[goldilocks.Element], b *gpu.Buffer[goldilocks.Element], dom any, op primeOp, o Order, seed uint64, what string) {
		in := primeRandom(c, b.Len(), seed)
		require.NoError(t, b.Upload(in))
		require.NoError(t, tr.do(op, s, b, o))
		require.NoError(t, s.Synchronize())
		require.NoError(t, b.Download(got[:b.Len()]))
		c.gnark(dom, in, o, op.inverse, op.coset)
		testutil.RequireEqualSlices(t, in, got[:b.Len()], "%s", what)
	}
	view := func(i int) *gpu.Buffer[goldilocks.Element] {
		v, err := mem.View(i*n, n)
		require.NoError(t, err)
		return v
	}
	for call := range 4 {
		check(ntt, view(0), dom, primeOps[0], DIF, uint64(call), fmt.Sprintf("call %d on buffer 0", call))
	}
	check(ntt, view(1), dom, primeOps[0], DIF, 10, "buffer 1, first call")
	check(ntt, view(1), dom, primeOps[0], DIF, 11, "buffer 1, second call")
	for i, op := range primeOps {
		for _, o := range primeOrders {
			for call := range 3 {
				check(ntt, view(0), dom, op, o, uint64(100+10*i+call), fmt.Sprintf("%s %v call %d", op.name, o, call))
			}
		}
	}
	for i := range maxGraphs + 4 {
		for call := range 2 {
			check(ntt, view(i), dom, primeOps[1], Natural, uint64(200+i), fmt.Sprintf("buffer %d call %d (evictions)", i, call))
		}
	}
	ntt.gmu.Lock()
	kept := len(ntt.graphs)
	ntt.gmu.Unlock()
	assert.LessOrEqual(t, kept, maxGraphs, "graphs kept")
	assert.Positive(t, kept, "graphs kept")
	// another size on the same memory: its own graphs
	dom2 := c.domain(uint64(2*n), nil)
	ntt2, err := NewNTT[goldilocks.Element](d, dom2)
	require.NoError(t, err)
	both, err := mem.View(0, 2*n)
	require.NoError(t, err)
	got = make([]goldilocks.Element, 2*n)
	for call := range 3 {
		check(ntt2, both, dom2, primeOps[0], DIF, uint64(300+call), fmt.Sprintf("2^%d on buffer 0, call %d", logn+1, call))
		check(ntt, view(0), dom, primeOps[0], DIF, uint64(310+call), fmt.Sprintf("2^%d on buffer 0 again, call %d", logn, call))
	}
	require.NoError(t, ntt2.Close())
	require.NoError(t, ntt.Close())
	assert.Nil(t, ntt.graphs, "Close frees the graphs")
}

// planOf returns the passes ntt.planFor gives for cols columns.
func planOf[E Element](ntt *NTT[E], cols int) []nttPass {
	plan, _ := ntt.planFor(cols, DIF)
	return plan
}

// TestPrimeNatural checks natural order on both of its paths against
// gnark-crypto: the DIF passes out of place through temporary memory with
// the last one writing natural order (launchNatural, the default above one
// tile), and the passes in place followed by the bit reversal (noNatOut,
// where no temporary memory is to be had); two columns in a view of a
// larger buffer, whose elements outside the view must stay as they were.
func TestPrimeNatural(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testPrimeNatural(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testPrimeNatural(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testPrimeNatural(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testPrimeNatural(t, d, koalabearCase()) })
}

func testPrimeNatural[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	defer func() { noNatOut = false }()
	for _, logn := range []int{13, 16, 19, 23} {
		if logn > c.maxLog || (testing.Short() && logn > 16) {
			continue
		}
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		mem := gputest.Alloc[E](t, d, 4*n)
		view, err := mem.View(n, 2*n)
		require.NoError(t, err)
		for _, inPlace := range []bool{false, true} {
			noNatOut = inPlace
			for i, op := range primeOps {
				all := primeRandom(c, 4*n, uint64(1000*logn+10*i))
				require.NoError(t, mem.Upload(all))
				require.NoError(t, ntt.do(op, nil, view, Natural))
				got := make([]E, 4*n)
				require.NoError(t, mem.Download(got))
				want := slices.Clone(all)
				for col := 1; col <= 2; col++ {
					c.gnark(dom, want[col*n:(col+1)*n], Natural, op.inverse, op.coset)
				}
				testutil.RequireEqualSlices(t, want, got, "%s 2^%d %s natural, in place and bit reversal: %v", c.name, logn, op.name, inPlace)
			}
		}
		require.NoError(t, ntt.Close())
	}
}

// TestPrimeNaturalPlans checks natural order out of place against the
// passes in place and the bit reversal (checked against gnark-crypto by
// TestPrimeNTT) for the plans of every column count: a lone column
// (lonePlans), few columns (planWide) and many (planFS), with natBitrev's
// sizes taken out (natForce), every transform, sizes from the smallest of
// two passes up.
func TestPrimeNaturalPlans(t *testing.T) {
	d := gputest.Device(t)
	t.Run("bn254", func(t *testing.T) { testPrimeNaturalPlans(t, d, bn254Case()) })
	t.Run("goldilocks", func(t *testing.T) { testPrimeNaturalPlans(t, d, goldilocksCase()) })
	t.Run("babybear", func(t *testing.T) { testPrimeNaturalPlans(t, d, babybearCase()) })
}

func testPrimeNaturalPlans[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	defer func() { noNatOut, natForce = false, false }()
	natForce = true
	hi := 19
	if testing.Short() {
		hi = 16
	}
	for logn := 12; logn <= hi; logn++ {
		n := 1 << logn
		ntt, err := NewNTT[E](d, c.domain(uint64(n), nil))
		require.NoError(t, err)
		for _, cols := range []int{1, 3, 24} {
			if plan, _ := ntt.planFor(cols, Natural); ntt.natPlan(plan, false) == nil {
				continue // one pass, or no out-of-place kernels
			}
			mem := gputest.Alloc[E](t, d, cols*n)
			for i, op := range primeOps {
				in := primeRandom(c, cols*n, uint64(100*logn+10*cols+i))
				var got [2][]E
				for k, inPlace := range []bool{false, true} {
					noNatOut = inPlace
					require.NoError(t, mem.Upload(in))
					require.NoError(t, ntt.do(op, nil, mem, Natural))
					got[k] = make([]E, cols*n)
					require.NoError(t, mem.Download(got[k]))
				}
				noNatOut = false
				testutil.RequireEqualSlices(t, got[1], got[0], "%s 2^%d %s natural, %d columns: out of place against in place and bit reversal", c.name, logn, op.name, cols)
			}
			require.NoError(t, mem.Free())
		}
		require.NoError(t, ntt.Close())
	}
}

// TestNatPlan checks, without a device, the passes natural order runs
// (natPlan): the bit reversal where measured faster, the bottom pass's
// groups widened to natRun bytes from 2^natWideMin elements within the
// launch bounds and the column, every other pass as planned.
func TestNatPlan(t *testing.T) {
	for _, field := range []string{"bn254", "goldilocks", "babybear"} {
		info := nttFields[field]
		k := fakeKernels(info)
		for logn := info.logTile + 1; logn <= 26; logn++ {
			// natPlan reads k, logn and the roots' shifts only
			ntt := &NTT[fr.Element]{k: k, logn: logn, sh8: goldilocksSH8, sh8Inv: goldilocksSH8Inv}
			for _, plan := range [][]nttPass{planFS(logn, info), lonePlans[info.fsKernels()][logn], loneNatPlans[info.fsKernels()][logn]} {
				if plan == nil {
					continue
				}
				np := ntt.natPlan(plan, false)
				if natBitrev[info.fsKernels()][logn] {
					assert.Nil(t, np, "%s 2^%d: the bit reversal", field, logn)
					continue
				}
				require.Len(t, np, len(plan), "%s 2^%d", field, logn)
				assert.Equal(t, plan[1:], np[1:], "%s 2^%d: the passes above the bottom", field, logn)
				b, p := np[0], plan[0]
				assert.Equal(t, nttPass{p.lo, p.nst, b.logc, p.rl}, b, "%s 2^%d: the bottom pass's groups only", field, logn)
				assert.GreaterOrEqual(t, b.logc, p.logc)
				assert.LessOrEqual(t, b.nst+b.logc, logn, "%s 2^%d: groups within the column", field, logn)
				assert.LessOrEqual(t, 1<<(b.nst+b.logc-b.rl), info.fsMaxThreads, "%s 2^%d: launch bounds", field, logn)
				assert.LessOrEqual(t, fsShared(b, info, k.elemSize()), k.fsSharedLimit(b.nst), "%s 2^%d: shared memory", field, logn)
				es := k.elemSize()
				if logn < natWideMin {
					assert.Equal(t, p.logc, b.logc, "%s 2^%d: below natWideMin the plan's groups", field, logn)
				} else if es<<b.logc < natRun[info.fsKernels()] {
					w := nttPass{b.lo, b.nst, b.logc + 1, b.rl}
					assert.True(t, 1<<(w.nst+w.logc-w.rl) > info.fsMaxThreads || w.nst+w.logc > logn || fsShared(w, info, es) > k.fsSharedLimit(w.nst),
						"%s 2^%d: runs below natRun only at the launch bounds, the column or the shared memory", field, logn)
				}
			}
		}
	}
	gl := &NTT[fr.Element]{k: fakeKernels(nttFields["goldilocks"]), logn: 24, sh8: -1, sh8Inv: -1}
	assert.Nil(t, gl.natPlan(planFS(24, nttFields["goldilocks"]), false), "Goldilocks on other roots: no out-of-place kernels")
	gl.sh8, gl.sh8Inv = goldilocksSH8, goldilocksSH8Inv
	assert.NotNil(t, gl.natPlan(planFS(24, nttFields["goldilocks"]), false), "Goldilocks, gnark-crypto's roots, forward")
	assert.NotNil(t, gl.natPlan(planFS(24, nttFields["goldilocks"]), true), "Goldilocks, gnark-crypto's roots, inverse")
	ntt := &NTT[fr.Element]{k: fakeKernels(nttFields["babybear"]), logn: 25}
	assert.Equal(t, 5, ntt.natPlan(lonePlans["fs31"][25], false)[0].logc, "BabyBear 2^25: runs of 128 B")
	assert.Nil(t, ntt.natPlan([]nttPass{{0, 25, 0, 4}}, false), "one pass: the bit reversal")
	noNatOut = true
	assert.Nil(t, ntt.natPlan(lonePlans["fs31"][25], false), "noNatOut")
	noNatOut = false
}

// TestSplitKernel checks, without a device, which passes run in BN254's
// narrow kernels with the bottom pass compiled apart: those of the lone
// plans of splitSizes, every pass of them, and no other.
func TestSplitKernel(t *testing.T) {
	info := nttFields["bn254"]
	k := fakeKernels(info)
	used := 0
	for logn := info.logTile + 1; logn <= 26; logn++ {
		ntt := &NTT[fr.Element]{k: k, logn: logn}
		plan := planFS(logn, info)
		if lp := lonePlans["bn254"][logn]; lp != nil {
			plan = lp
		}
		for _, p := range plan {
			f := ntt.splitKernel(p, 1)
			if !splitSizes["bn254"][logn] {
				assert.Nil(t, f, "2^%d %v", logn, p)
				continue
			}
			require.NotNil(t, f, "2^%d %v: no split kernel of %d bits", logn, p, p.nst)
			assert.Same(t, k.fs[fsKey{"r1s_", false, p.nst}], f, "2^%d %v", logn, p)
			used++
		}
	}
	assert.Positive(t, used, "splitSizes takes the split kernels somewhere")
	for nst := info.fsMinNST; nst <= info.fsMaxNST; nst++ {
		_, ok := k.fs[fsKey{"r1s_", false, nst}]
		assert.Equal(t, nst >= info.fsSplit[0] && nst <= info.fsSplit[1], ok, "ntt_bn254_r1s_fs%d", nst)
		_, ok = k.fs[fsKey{"r1s_", true, nst}]
		assert.False(t, ok, "no split kernel out of place")
	}
	gl := &NTT[fr.Element]{k: fakeKernels(nttFields["goldilocks"]), logn: 13}
	assert.Nil(t, gl.splitKernel(lonePlans["goldilocks"][13][0], 1), "Goldilocks has none")
}

// fakeKernels returns a field's kernel table with a placeholder for every
// four-step kernel its program has (loadKernels' keys), for the tests of
// plans without a device.
func fakeKernels(info nttFieldInfo) *nttKernels {
	k := &nttKernels{info: info, fs: map[fsKey]*gpu.Function{}}
	for nst := info.fsMinNST; nst <= info.fsMaxNST; nst++ {
		for kind, oop := range info.fsKinds() {
			if !info.hasKernel(kind, nst) {
				continue
			}
			k.fs[fsKey{kind, false, nst}] = &gpu.Function{}
			if oop {
				k.fs[fsKey{kind, true, nst}] = &gpu.Function{}
			}
		}
	}
	return k
}
