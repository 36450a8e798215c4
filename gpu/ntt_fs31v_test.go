package gpu

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/koalabear"
)

// TestLaunchConfigLayout checks the Go mirrors of CUlaunchConfig and
// CUlaunchAttribute against cuda.h's layout (64-bit).
func TestLaunchConfigLayout(t *testing.T) {
	var c cuLaunchConfig
	var a cuLaunchAttribute
	for _, x := range []struct {
		what      string
		got, want uintptr
	}{
		{"sizeof CUlaunchAttribute", unsafe.Sizeof(a), 72},
		{"offsetof value", unsafe.Offsetof(a.value), 8},
		{"sizeof CUlaunchConfig", unsafe.Sizeof(c), 56},
		{"offsetof sharedMemBytes", unsafe.Offsetof(c.sharedMem), 24},
		{"offsetof hStream", unsafe.Offsetof(c.stream), 32},
		{"offsetof attrs", unsafe.Offsetof(c.attrs), 40},
		{"offsetof numAttrs", unsafe.Offsetof(c.numAttrs), 48},
	} {
		if x.got != x.want {
			t.Errorf("%s = %d, want %d", x.what, x.got, x.want)
		}
	}
	pdlConfig(&c, &a, 1, 2, 3, 4, 5, 6, 7, 99)
	if c.gridX != 1 || c.gridZ != 3 || c.blockY != 5 || c.sharedMem != 7 || c.stream != 99 || c.attrs != &a ||
		c.numAttrs != 1 || a.id != 6 || *(*int32)(unsafe.Pointer(&a.value[0])) != 1 {
		t.Errorf("pdlConfig: %+v %+v", c, a)
	}
}

// montMul31 is the kernels' Montgomery product a·b/2^32 mod p (any a < 2^32,
// b < p), canonical.
func montMul31(a, b, p, qinv uint32) uint32 {
	t := uint64(a) * uint64(b)
	m := uint32(t) * qinv
	r := uint32((t + uint64(m)*uint64(p)) >> 32)
	return min(r, r-p)
}

// shoup31 is F31::shoup.
func shoup31(a, c, cq, p uint32) uint32 {
	q := uint32((uint64(a) * uint64(cq)) >> 32)
	r := a*c - q*p
	return min(r, r-p)
}

// TestFS31ShoupTable checks that the Shoup pairs give the Montgomery
// products of the twiddle table's last entries, for first operands up to
// 2^32 − 1 (the kernels feed a − b + p < 2p unreduced).
func TestFS31ShoupTable(t *testing.T) {
	testFS31Shoup[babybear.Element, *babybear.Element](t, babybearCase(), 2013265921, 2013265919)
	testFS31Shoup[koalabear.Element, *koalabear.Element](t, koalabearCase(), 2130706433, 2130706431)
}

func testFS31Shoup[E PrimeElement, P primeElem[E]](t *testing.T, c primeCase[E], p, qinv uint32) {
	if got := uint32(babybear.Modulus().Uint64()); c.name == "babybear" && got != p {
		t.Fatalf("babybear modulus %d", got)
	}
	if got := uint32(koalabear.Modulus().Uint64()); c.name == "koalabear" && got != p {
		t.Fatalf("koalabear modulus %d", got)
	}
	r := rand.New(rand.NewPCG(7, uint64(p)))
	for _, logn := range []int{1, 4, 12, 14} {
		dom := c.domain(uint64(1)<<logn, nil)
		pd := primeDomainOf[E](t, dom)
		tw := twiddleTable[E, P](pd.twiddles, pd.gen, logn, pd.plain)
		k := min(fs31ShoupLog, logn)
		tab := fs31ShoupTable(tw, k, p)
		words := unsafe.Slice((*uint32)(unsafe.Pointer(&tab[0])), len(tab))
		if len(words) != 2<<k || words[len(words)-2] != 0 || words[len(words)-1] != 0 {
			t.Fatalf("%s 2^%d: table of %d words, last pair %d %d", c.name, logn, len(words), words[len(words)-2], words[len(words)-1])
		}
		n := 1 << logn
		for y := 0; y < 1<<k-1; y++ {
			w := *(*uint32)(unsafe.Pointer(&tw[n-1<<k+y]))
			for _, a := range []uint32{0, 1, p - 1, p, 2*p - 1, 1<<32 - 1, r.Uint32(), r.Uint32()} {
				if got, want := shoup31(a, words[2*y], words[2*y+1], p), montMul31(a, w, p, qinv); got != want {
					t.Fatalf("%s 2^%d entry %d, a = %d: Shoup %d, Montgomery %d", c.name, logn, y, a, got, want)
				}
			}
		}
	}
}

// primeDomainOf is the primeDomain view of a gnark-crypto domain of E's field.
func primeDomainOf[E PrimeElement](t *testing.T, dom any) *primeDomain[E] {
	var z E
	var v any
	switch any(z).(type) {
	case babybear.Element:
		v, _, _ = babybearDom(dom)
	case koalabear.Element:
		v, _, _ = koalabearDom(dom)
	default:
		t.Fatalf("no 31-bit field: %T", z)
	}
	return v.(*primeDomain[E])
}

// TestFS31Pass checks which passes take a variant kernel: only those of a
// loaded variant, of a size it was compiled for, and with Shoup tables where
// the variant needs them.
func TestFS31Pass(t *testing.T) {
	f := &Function{name: "v"}
	k := &nttKernels{fsv: map[int]*Function{7: f, 8: f, 9: f}, fsvKern: 3}
	tab := &Buffer[babybear.Element]{}
	for _, c := range []struct {
		v    fs31Variant
		stw  *Buffer[babybear.Element]
		stwK int
		nst  int
		want bool
	}{
		{fs31Plain, tab, 12, 8, false},
		{fs31Shoup, tab, 12, 8, true},
		{fs31ShoupPDL, tab, 12, 9, true},
		{fs31Shoup, tab, 12, 10, false}, // not compiled
		{fs31Shoup, nil, 0, 8, false},   // no tables
		{fs31Shoup, tab, 7, 8, false},   // tables too small
		{fs31PDL, nil, 0, 8, false},     // kernels of another variant loaded
	} {
		k.fs31 = c.v
		tr := &PrimeNTT[babybear.Element]{k: k, stw: c.stw, stwK: c.stwK}
		if _, got := tr.fs31Pass(c.nst); got != c.want {
			t.Errorf("variant %+v, stw %v/%d, pass of %d bits: %v, want %v", c.v, c.stw != nil, c.stwK, c.nst, got, c.want)
		}
	}
	k.fsvKern = 1
	k.fs31 = fs31PDL
	if _, ok := (&PrimeNTT[babybear.Element]{k: k}).fs31Pass(8); !ok {
		t.Errorf("pdl variant: no kernel")
	}
}

// TestFS31Variant checks the BabyBear and KoalaBear transforms under the
// four-step variant of -gpu.fs31variant (default: the default passes) on a
// stream: every transform and order at 2^21, 2^22 and 2^24 (passes of 7 and
// 8 bits; the variant kernels where fs31VarNST has them), two columns,
// against gnark-crypto; then 4 FFT DIF / FFTInverse
// DIT pairs launched back to back (each pass may overlap the previous one
// under "pdl"), which must give the input back.
func TestFS31Variant(t *testing.T) {
	d := testDevice(t)
	t.Logf("variant %q (%+v), programmatic dependent launch available: %v", *primeFS31, fs31Default, d.canLaunchPDL())
	t.Run("babybear", func(t *testing.T) { testFS31Variant(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testFS31Variant(t, d, koalabearCase()) })
	if n := pdlFallbacks.Load(); n > 0 {
		t.Logf("%d programmatic launches refused by the driver, launched plainly", n)
	}
}

func testFS31Variant[E PrimeElement](t *testing.T, d *Device, c primeCase[E]) {
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	sizes := []int{21, 22, 24}
	if testing.Short() {
		sizes = []int{21}
	}
	for _, logn := range sizes {
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewPrimeNTT[E](d, dom)
		must(t, err)
		for _, p := range ntt.fsPlan {
			want := slices.Contains(fs31VarNST[fs31Default.kern], p.nst)
			if _, ok := ntt.fs31Pass(p.nst); ok != want {
				t.Errorf("2^%d: pass of %d bits takes the variant kernel: %v, want %v", logn, p.nst, ok, want)
			}
		}
		const cols = 2
		buf, err := Alloc[E](d, cols*n)
		must(t, err)
		got := make([]E, cols*n)
		for _, op := range primeOps {
			for _, o := range primeOrders {
				in := primeRandom(c, cols*n, uint64(logn*100+int(o)))
				must(t, buf.Upload(in))
				must(t, ntt.do(op, s, buf, o))
				must(t, s.Synchronize())
				must(t, buf.Download(got))
				for col := range cols {
					c.gnark(dom, in[col*n:(col+1)*n], o, op.inverse, op.coset)
				}
				if i := primeFirstDiff(got, in); i >= 0 {
					t.Fatalf("%s 2^%d %s %v: first difference at %d", c.name, logn, op.name, o, i)
				}
			}
		}
		in := primeRandom(c, cols*n, uint64(logn))
		must(t, buf.Upload(in))
		for range 4 {
			must(t, ntt.FFT(s, buf, PrimeDIF))
			must(t, ntt.FFTInverse(s, buf, PrimeDIT))
		}
		must(t, s.Synchronize())
		must(t, buf.Download(got))
		if i := primeFirstDiff(got, in); i >= 0 {
			t.Fatalf("%s 2^%d: 4 FFT/FFTInverse pairs back to back differ from the input at %d", c.name, logn, i)
		}
		must(t, buf.Free())
		must(t, ntt.Close())
	}
}
