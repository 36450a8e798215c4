package gpu

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"

	"github.com/gfpoly/gfpoly/cuda"
)

// PrimeElement is the set of gnark-crypto element types the prime-field NTT
// kernels work on, in gnark-crypto's Montgomery form and memory layout.
type PrimeElement interface {
	fr.Element | goldilocks.Element | babybear.Element | koalabear.Element
}

// PrimeOrder says how a prime-field transform reads and writes a column;
// bit-reversed order puts entry bitreverse(i) at position i.
type PrimeOrder int

const (
	// PrimeDIF reads natural order and writes bit-reversed order, like
	// gnark-crypto's fft.DIF.
	PrimeDIF PrimeOrder = iota
	// PrimeDIT reads bit-reversed order and writes natural order, like
	// gnark-crypto's fft.DIT.
	PrimeDIT
	// PrimeNatural reads and writes natural order (DIF, then a bit-reversal
	// permutation on the device).
	PrimeNatural
)

func (o PrimeOrder) String() string {
	switch o {
	case PrimeDIF:
		return "DIF"
	case PrimeDIT:
		return "DIT"
	case PrimeNatural:
		return "Natural"
	}
	return fmt.Sprintf("PrimeOrder(%d)", int(o))
}

var (
	// ErrPrimeDomain: a gnark-crypto domain is nil, not a domain, or
	// inconsistent (its fields are not those fft.NewDomain computes), or too
	// large for the kernels (2^30 elements).
	ErrPrimeDomain = errors.New("gpu: invalid prime-field domain")
	// ErrPrimeField: a domain of another field than the element type.
	ErrPrimeField = errors.New("gpu: domain of another field")
)

// maxPrimeLog bounds the transform size: indices are 32-bit in the kernels.
const maxPrimeLog = 30

// nttFieldInfo says how one field's kernels are launched.
type nttFieldInfo struct {
	name    string // kernel name infix
	logTile int    // elements per shared-memory tile (log2)
	logCMin int    // groups per tile in passes above the bottom (log2): 32-byte runs
	block   int    // threads per block of the radix-2 pass kernel
	rlog    int    // elements per thread of the register pass kernel (log2)

	// Four-step passes (ntt_<name>_fs<nst>), for transforms above one tile.
	fsOn         bool // used by default (else the passes above)
	fsRlog       int  // elements per thread (log2), as compiled
	fsMinNST     int  // pass sizes compiled (bits)
	fsMaxNST     int
	fsLogC       int  // groups per tile in passes above the bottom (log2)
	fsTile       int  // elements per tile of the bottom pass (log2)
	fsMaxThreads int  // the kernels' launch bounds
	fsMaxBuilt   int  // largest pass size cuda/ntt_prime.cu has (bits), ≥ fsMaxNST; the field's module is compiled up to fsMaxNST (ensureFS adds more)
	fsCanonAll   bool // Goldilocks' ntt_fs64: canonical stores in every pass, not only the last
	fsShift      bool // Goldilocks: ntt_goldilocks_sh_fs* (radix-8 twiddles as shifts) for forward DIF passes (goldilocksSH8)
}

// fs31Variant selects variants of the BabyBear and KoalaBear four-step
// passes (ntt_fs31's V), measured against the default (the zero value):
// kern 1 adds the programmatic dependent launch instructions (griddepcontrol),
// kern 3 also Shoup products for the inner transforms' twiddles; pdl
// launches them with programmatic stream serialization (each pass may start
// while the previous one finishes; sm_90 and cuLaunchKernelEx, otherwise a
// plain launch). The variant kernels exist for the pass sizes of
// fs31VarNST, in a module of their own; other passes take the default
// kernels.
type fs31Variant struct {
	kern int
	pdl  bool
}

var (
	fs31Plain    = fs31Variant{}
	fs31GDC      = fs31Variant{kern: 1}
	fs31PDL      = fs31Variant{kern: 1, pdl: true}
	fs31Shoup    = fs31Variant{kern: 3}
	fs31ShoupPDL = fs31Variant{kern: 3, pdl: true}
	fs31Variants = map[string]fs31Variant{"default": fs31Plain, "gdc": fs31GDC, "pdl": fs31PDL, "shoup": fs31Shoup, "shoup+pdl": fs31ShoupPDL}
	// the pass sizes (bits) compiled for each kern (cuda/ntt_prime.cu, NTT_FS31_VARIANTS)
	fs31VarNST = map[int][]int{1: {7, 8, 9}, 3: {8}}
)

// fs31Default is the variant of the BabyBear and KoalaBear passes.
var fs31Default = fs31Plain

func (v fs31Variant) shoup() bool { return v.kern&2 != 0 }

// fs31ShoupLog is the size (log2) of the Shoup tables: they cover the inner
// twiddles of passes up to 2^fs31ShoupLog elements.
const fs31ShoupLog = 12

// Four-step passes against the radix-2/register passes, FFT DIF at 2^24 on
// the H100 (TestPrimeVariants, BENCHMARKS.md): BN254 3.8 against 8.3 ms
// (its own kernels, ntt_bn254_fs*: Shoup products, lazy reduction),
// KoalaBear 0.29 against 0.32, BabyBear 0.29-0.32 against 0.32-0.33,
// Goldilocks 0.82 both (16 elements per thread spill there). Goldilocks
// takes passes of up to 11 bits: 2^21 and 2^22 in two passes (2^22 0.220 ->
// 0.205 ms); BabyBear and KoalaBear stay at 10 (2^22 in two passes of 11
// bits: 0.075 -> 0.079 ms). 2^24 in two passes of 12 bits lost everywhere
// (BabyBear 0.28 -> 0.37 ms, Goldilocks 0.79 -> 0.88: 2 or 4 groups per
// tile within 1024 threads, half-sector runs).
var nttFields = map[string]nttFieldInfo{
	// radix-2 passes: registers cost occupancy
	"bn254": {"bn254", 11, 0, 256, 0, true, 2, 5, 8, 2, 10, 256, 8, false, false},
	// 2^12 beat 2^13 by 16% on 2^24 (occupancy)
	"goldilocks": {"goldilocks", 12, 2, 1024, 3, true, 3, 6, 11, 3, 11, 1024, 12, false, true},
	// 2^12 beat 2^14 by 12%
	"babybear":  {"babybear", 12, 3, 1024, 4, true, 4, 6, 10, 4, 12, 1024, 12, false, false},
	"koalabear": {"koalabear", 12, 3, 1024, 4, true, 4, 6, 10, 4, 12, 1024, 12, false, false},
}

// nttKernels are one field's compiled kernels on a device.
type nttKernels struct {
	info                           nttFieldInfo
	pass, passReg, bitrev, spreadK *Function
	fs                             map[int]*Function // four-step passes by size
	fs31                           fs31Variant       // BabyBear, KoalaBear: the passes' variant (fs31Default)
	fsv                            map[int]*Function // fs31 variant passes (fs31.kern) by size
	fsvKern                        int               // the variant fsv holds
	fsSh                           map[int]*Function // Goldilocks: ntt_goldilocks_sh_fs* (info.fsShift)
	fsBuilt                        int               // fs holds the passes of fsMinNST..fsBuilt bits
	noReg                          bool              // tests: radix-2 passes only
	legacy                         bool              // tests, benchmarks: no four-step passes
	twTable                        bool              // tests: fTwTable
}

// nttInfoHook, when set (tests), edits a field's launch parameters before
// its kernels are loaded.
var nttInfoHook func(*nttFieldInfo)

var nttKernelMu sync.Mutex // serialises the first load of a field's kernels

// nttFieldSource returns the program name and source of a field's NTT
// module: ntt_prime.cu with NTT_ONLY_<field> defined compiles that field's
// kernels only, and its four-step passes up to the size it uses.
func nttFieldSource(info nttFieldInfo) (prog, src string, err error) {
	b, err := cuda.Sources.ReadFile("ntt_prime.cu")
	if err != nil {
		return "", "", err
	}
	return fmt.Sprintf("ntt_prime_%s_fs%d.cu", info.name, info.fsMaxNST),
		fmt.Sprintf("#define NTT_ONLY 1\n#define NTT_ONLY_%s 1\n#define NTT_FS_MAX %d\n", info.name, info.fsMaxNST) + string(b), nil
}

// nttKernels returns the field's kernels on d, loading them on first use.
// They are kept in d.ntt and go with the Device.
func (d *Device) nttKernels(field string) (*nttKernels, error) {
	if k, ok := d.ntt.Load(field); ok {
		return k.(*nttKernels), nil
	}
	nttKernelMu.Lock()
	defer nttKernelMu.Unlock()
	if k, ok := d.ntt.Load(field); ok {
		return k.(*nttKernels), nil
	}
	info := nttFields[field]
	if nttInfoHook != nil {
		nttInfoHook(&info)
	}
	// One module per field: ntt_prime.cu with NTT_ONLY_<field> defined
	// compiles that field's kernels only, and its four-step passes up to the
	// size it uses (NVRTC time on first use).
	prog, src, err := nttFieldSource(info)
	if err != nil {
		return nil, err
	}
	m, err := d.LoadModule(prog, src)
	if err != nil {
		return nil, err
	}
	k := &nttKernels{info: info, fs: map[int]*Function{}, fsSh: map[int]*Function{}}
	if field == "babybear" || field == "koalabear" {
		k.fs31 = fs31Default
	}
	for _, p := range []struct {
		f    **Function
		name string
	}{{&k.pass, "pass"}, {&k.passReg, "pass_reg"}, {&k.bitrev, "bitrev"}, {&k.spreadK, "spread"}} {
		if *p.f, err = m.Function("ntt_" + info.name + "_" + p.name); err != nil {
			return nil, err
		}
	}
	for _, f := range []*Function{k.pass, k.passReg} {
		if err := f.SetMaxDynamicSharedMem(k.maxShared()); err != nil {
			return nil, fmt.Errorf("gpu: %s NTT shared memory: %w", field, err)
		}
	}
	if err := k.loadFS(m, info.fsMinNST, info.fsMaxNST); err != nil {
		return nil, err
	}
	if err := k.loadVariant(d); err != nil {
		return nil, err
	}
	d.ntt.Store(field, k)
	return k, nil
}

// loadFS takes the four-step passes of lo..hi bits from m.
func (k *nttKernels) loadFS(m *Module, lo, hi int) error {
	name := k.info.name
	for nst := lo; nst <= hi; nst++ {
		f, err := m.Function(fmt.Sprintf("ntt_%s_fs%d", name, nst))
		if err != nil {
			return err
		}
		if err := f.SetMaxDynamicSharedMem(k.fsMaxShared(nst)); err != nil {
			return fmt.Errorf("gpu: %s NTT shared memory: %w", name, err)
		}
		k.fs[nst] = f
		if name != "goldilocks" || nst > goldilocksSHMaxNST {
			continue
		}
		if f, err = m.Function(fmt.Sprintf("ntt_goldilocks_sh_fs%d", nst)); err != nil {
			return err
		}
		if err := f.SetMaxDynamicSharedMem(k.fsMaxShared(nst)); err != nil {
			return fmt.Errorf("gpu: %s NTT shared memory: %w", name, err)
		}
		k.fsSh[nst] = f
	}
	k.fsBuilt = max(k.fsBuilt, hi)
	return nil
}

// ensureFS makes the four-step passes up to maxNST bits available, compiling
// the sizes above the field's (measurements) into a module of their own
// (ntt_prime.cu with NTT_FS_ONLY). Not safe while transforms of the field
// run.
func (k *nttKernels) ensureFS(d *Device, maxNST int) error {
	if maxNST <= k.fsBuilt {
		return nil
	}
	if maxNST > k.info.fsMaxBuilt {
		return fmt.Errorf("gpu: %s NTT: no four-step pass of %d bits (at most %d)", k.info.name, maxNST, k.info.fsMaxBuilt)
	}
	nttKernelMu.Lock()
	defer nttKernelMu.Unlock()
	src, err := cuda.Sources.ReadFile("ntt_prime.cu")
	if err != nil {
		return err
	}
	lo := k.fsBuilt + 1
	m, err := d.LoadModule(fmt.Sprintf("ntt_prime_%s_fs%d-%d.cu", k.info.name, lo, maxNST),
		fmt.Sprintf("#define NTT_ONLY 1\n#define NTT_ONLY_%s 1\n#define NTT_FS_ONLY 1\n#define NTT_FS_MIN %d\n#define NTT_FS_MAX %d\n",
			k.info.name, lo, maxNST)+string(src))
	if err != nil {
		return err
	}
	return k.loadFS(m, lo, maxNST)
}

// loadVariant loads the kernels of k.fs31 (none for the default) from
// the variants' module, compiled from ntt_prime.cu with NTT_FS31_VARIANTS.
func (k *nttKernels) loadVariant(d *Device) error {
	kern := k.fs31.kern
	if kern == 0 || kern == k.fsvKern {
		return nil
	}
	src, err := cuda.Sources.ReadFile("ntt_prime.cu")
	if err != nil {
		return err
	}
	m, err := d.fs31VariantModule(string(src))
	if err != nil {
		return err
	}
	fsv := map[int]*Function{}
	for _, nst := range fs31VarNST[kern] {
		f, err := m.Function(fmt.Sprintf("ntt_%s_fs%d_v%d", k.info.name, nst, kern))
		if err != nil {
			return err
		}
		if err := f.SetMaxDynamicSharedMem(k.fsMaxShared(nst) + fs31ShoupExtra(nst)); err != nil {
			return fmt.Errorf("gpu: %s NTT shared memory: %w", k.info.name, err)
		}
		fsv[nst] = f
	}
	k.fsv, k.fsvKern = fsv, kern
	return nil
}

// fs31ShoupExtra is the shared memory that Shoup pairs add to a pass of nst
// bits (the variant kernels all reserve it).
func fs31ShoupExtra(nst int) int { return 4 << nst }

var fs31ModMu sync.Mutex

// fs31VariantModule compiles (once per device) the variant kernels.
func (d *Device) fs31VariantModule(src string) (*Module, error) {
	fs31ModMu.Lock()
	defer fs31ModMu.Unlock()
	if m, ok := d.ntt.Load("fs31 variants"); ok {
		return m.(*Module), nil
	}
	m, err := d.LoadModule("ntt_prime_fs31v.cu", "#define NTT_FS31_VARIANTS 1\n"+src)
	if err != nil {
		return nil, err
	}
	d.ntt.Store("fs31 variants", m)
	return m, nil
}

// fsTwElems is the shared memory of a four-step pass's inner twiddles, in
// elements: 2^nst, twice that for BN254 (Shoup pairs).
func fsTwElems(info nttFieldInfo, nst int) int {
	if info.name == "bn254" {
		return 2 << nst
	}
	return 1 << nst
}

// elemSize returns the bytes of one element of the field.
func (k *nttKernels) elemSize() int {
	switch k.info.name {
	case "bn254":
		return 32
	case "goldilocks":
		return 8
	}
	return 4
}

// maxShared is the largest dynamic shared memory a pass uses: a tile plus
// one pad element per group.
func (k *nttKernels) maxShared() int {
	return ((1 << k.info.logTile) + (1 << k.info.logTile >> 1)) * k.elemSize()
}

// fsMaxShared is the dynamic shared memory of the largest four-step pass of
// nst bits (fsShared).
func (k *nttKernels) fsMaxShared(nst int) int {
	logc := k.info.fsLogC
	if lb := k.fsTileLogC(nst); lb > logc {
		logc = lb
	}
	logc = min(logc, bits.Len(uint(k.info.fsMaxThreads))-1+k.info.fsRlog-nst)
	return fsShared(nttPass{1, nst, logc}, k.info, k.elemSize())
}

// fsShared is the dynamic shared memory of a four-step pass: its tile and
// the inner transforms' twiddles (fsTwElems). A group's row holds 2^nst elements
// and one pad element (ntt_bn254_fs); the 31-bit fields' kernels (ntt_fs31,
// 4-byte elements) pad one element in 16 and, above the bottom pass, 2 more;
// Goldilocks' ntt_fs64 one in 16 in the bottom pass, one in 8 and 2 more
// above (fs64Row).
func fsShared(p nttPass, info nttFieldInfo, es int) int {
	row := 1<<p.nst + 1
	switch {
	case es == 4:
		row = 1<<p.nst + 1<<p.nst>>4
		if p.lo > 0 {
			row += 2
		}
	case es == 8:
		row = fs64Row(p)
	}
	return (row<<p.logc + fsTwElems(info, p.nst)) * es
}

// fs64Row is the row stride (elements) of one group in ntt_fs64's shared
// memory (cuda/ntt_prime.cu, fs64_row); element t of a row sits at
// fs64Pos(p, t).
func fs64Row(p nttPass) int {
	if p.lo == 0 {
		return 1<<p.nst + 1<<p.nst>>4
	}
	return 1<<p.nst + 1<<p.nst>>3 + 2
}

func fs64Pos(p nttPass, t int) int {
	if p.lo == 0 {
		return t + t>>4
	}
	return t + t>>3
}

func (k *nttKernels) fsTileLogC(nst int) int { return max(0, k.info.fsTile-nst) }

// planFS splits the logn bit positions into four-step passes, bottom first,
// of at most fsMaxNST bits each (as even as possible, the larger ones at
// the bottom); the bottom pass takes 2^fsTile elements per tile, the others
// 2^fsLogC groups, both within the launch bounds and the column. It returns
// nil where a pass size is not compiled.
func planFS(logn int, f nttFieldInfo) []nttPass {
	if logn == 0 {
		return nil
	}
	k := (logn + f.fsMaxNST - 1) / f.fsMaxNST
	var out []nttPass
	lo := 0
	for i := range k {
		nst := logn / k
		if i < logn%k {
			nst++
		}
		if nst < f.fsMinNST || nst > f.fsMaxNST {
			return nil
		}
		logc := f.fsLogC
		if lo == 0 {
			logc = max(0, f.fsTile-nst)
		}
		logc = min(logc, logn-nst, bits.Len(uint(f.fsMaxThreads))-1+f.fsRlog-nst)
		out = append(out, nttPass{lo, nst, logc})
		lo += nst
	}
	return out
}

// nttPass is one launch: butterflies on index bits [lo, lo+nst), 2^logc
// groups per tile.
type nttPass struct{ lo, nst, logc int }

// planPasses splits the logn bit positions into passes, bottom first: the
// bottom pass (bits from 0) is contiguous in memory and takes a whole tile,
// the others leave 2^logCMin groups per tile so that loads stay coalesced.
func planPasses(logn, logTile, logCMin int) []nttPass {
	if logn == 0 {
		return nil
	}
	if logn <= logTile {
		return []nttPass{{0, logn, 0}}
	}
	out := []nttPass{{0, logTile, 0}}
	rest := logn - logTile
	bmid := logTile - logCMin
	k := (rest + bmid - 1) / bmid
	lo := logTile
	for i := range k {
		nst := rest / k
		if i < rest%k {
			nst++
		}
		out = append(out, nttPass{lo, nst, logTile - nst})
		lo += nst
	}
	return out
}

// Pass flags, as in cuda/ntt_prime.cu.
const (
	fDIT       = 1
	fPreCoset  = 2
	fPostConst = 4
	fPostCoset = 8
	fIndexRev  = 16
	fTwTable   = 32 // four-step passes: each pass twiddle from the tables (tests)
	fCanon     = 64 // ntt_fs64: store canonical representatives (a transform's last pass)
)

// PrimeNTT runs gnark-crypto-compatible NTTs of one domain on device
// buffers: its twiddles, coset powers and 1/n live on the device from
// construction to Close. A buffer of k·n elements holds k columns of n
// elements, one after the other, transformed in one launch sequence. It is
// safe for concurrent use (calls on the same buffer must be ordered by the
// caller, through one stream or events).
type PrimeNTT[E PrimeElement] struct {
	d    *Device
	k    *nttKernels
	logn int
	tabH int // split of the coset power tables

	tw, twInv          *Buffer[E] // per-position twiddles, n−1 each
	cosetFwd, cosetInv *Buffer[E] // lo/hi power tables; cosetInv carries 1/n
	rt, rtInv          *Buffer[E] // lo/hi power tables of ω and 1/ω
	nInv               *Buffer[E]
	plan               []nttPass
	fsPlan             []nttPass  // four-step passes; nil: plan's passes
	shoup, shoupInv    *Buffer[E] // BN254 four-step constants (bn254ShoupTable)
	shoupK             int
	stw, stwInv        *Buffer[E] // BabyBear, KoalaBear Shoup variant: fs31ShoupTable
	stwK               int
	sh8, sh8Inv        int // Goldilocks: ω^(n/8) = 2^sh8, ω^(−n/8) = 2^sh8Inv (−1: another root, or n < 8)
	closeOnce          sync.Once
	field              string
}

// NewPrimeNTT uploads the tables of domain, a gnark-crypto *fft.Domain of
// E's field (ecc/bn254/fr/fft for fr.Element, field/goldilocks/fft for
// goldilocks.Element, ...). A domain of another field returns an error
// wrapping ErrPrimeField; a nil, inconsistent or too large one ErrPrimeDomain.
func NewPrimeNTT[E PrimeElement](d *Device, domain any) (*PrimeNTT[E], error) {
	var z E
	var t any
	var err error
	switch any(z).(type) {
	case fr.Element:
		t, err = newPrimeNTT[fr.Element](d, domain, bn254Dom)
	case goldilocks.Element:
		t, err = newPrimeNTT[goldilocks.Element](d, domain, goldilocksDom)
	case babybear.Element:
		t, err = newPrimeNTT[babybear.Element](d, domain, babybearDom)
	case koalabear.Element:
		t, err = newPrimeNTT[koalabear.Element](d, domain, koalabearDom)
	}
	if err != nil {
		return nil, err
	}
	return t.(*PrimeNTT[E]), nil
}

// Len returns n, the domain's cardinality: the length of one column.
func (t *PrimeNTT[E]) Len() int { return 1 << t.logn }

// Field returns "bn254", "goldilocks", "babybear" or "koalabear".
func (t *PrimeNTT[E]) Field() string { return t.field }

// Close frees the device tables. Closing twice is harmless.
func (t *PrimeNTT[E]) Close() error {
	var err error
	t.closeOnce.Do(func() {
		for _, b := range []*Buffer[E]{t.tw, t.twInv, t.cosetFwd, t.cosetInv, t.rt, t.rtInv, t.nInv, t.shoup, t.shoupInv,
			t.stw, t.stwInv} {
			if b == nil {
				continue
			}
			if e := b.Free(); e != nil && err == nil {
				err = e
			}
		}
	})
	return err
}

// FFT evaluates each column (coefficients) on the subgroup ⟨ω⟩ in place:
// gnark-crypto's Domain.FFT(col, fft.DIF) for PrimeDIF, (col, fft.DIT) for
// PrimeDIT. With a nil stream it waits for the work.
func (t *PrimeNTT[E]) FFT(s *Stream, data *Buffer[E], o PrimeOrder) error {
	return t.run("FFT", s, data, o, false, false)
}

// FFTInverse interpolates each column from evaluations on ⟨ω⟩ in place:
// gnark-crypto's Domain.FFTInverse.
func (t *PrimeNTT[E]) FFTInverse(s *Stream, data *Buffer[E], o PrimeOrder) error {
	return t.run("FFTInverse", s, data, o, true, false)
}

// CosetFFT evaluates each column on the coset g·⟨ω⟩, g the domain's
// FrMultiplicativeGen: gnark-crypto's Domain.FFT(col, dec, fft.OnCoset()).
func (t *PrimeNTT[E]) CosetFFT(s *Stream, data *Buffer[E], o PrimeOrder) error {
	return t.run("CosetFFT", s, data, o, false, true)
}

// CosetFFTInverse interpolates each column from evaluations on g·⟨ω⟩:
// gnark-crypto's Domain.FFTInverse(col, dec, fft.OnCoset()).
func (t *PrimeNTT[E]) CosetFFTInverse(s *Stream, data *Buffer[E], o PrimeOrder) error {
	return t.run("CosetFFTInverse", s, data, o, true, true)
}

// columns checks a buffer against the domain and returns its column count.
func (t *PrimeNTT[E]) columns(op string, b *Buffer[E]) (int, error) {
	if err := checkBuffers(t.d, op, b); err != nil {
		return 0, err
	}
	n := 1 << t.logn
	if b.n == 0 || b.n%n != 0 {
		return 0, fmt.Errorf("gpu: %s: buffer of %d elements is not a whole number of %s columns of %d: %w",
			op, b.n, t.field, n, ErrLength)
	}
	return b.n / n, nil
}

func (t *PrimeNTT[E]) run(op string, s *Stream, data *Buffer[E], o PrimeOrder, inverse, coset bool) error {
	if o < PrimeDIF || o > PrimeNatural {
		return fmt.Errorf("gpu: %s: unknown order %v", op, o)
	}
	cols, err := t.columns(op, data)
	if err != nil {
		return err
	}
	if t.tw.st.freed.Load() {
		return fmt.Errorf("gpu: %s: NTT closed: %w", op, ErrClosed)
	}
	return t.d.onStream(s, func(h uintptr) error {
		return t.launch(h, data.ptr, uint64(1)<<t.logn, cols, o, inverse, coset)
	})
}

// launch submits one transform of cols columns at ptr, colStride elements
// apart, on stream h; it runs on the device goroutine.
func (t *PrimeNTT[E]) launch(h uintptr, ptr, colStride uint64, cols int, o PrimeOrder, inverse, coset bool) error {
	if t.logn == 0 {
		return nil // every transform of one element is the identity
	}
	dit := o == PrimeDIT
	if t.fsPlan != nil && !t.k.legacy && !t.k.noReg {
		if err := t.launchFS(h, ptr, colStride, cols, dit, inverse, coset); err != nil {
			return err
		}
		if o == PrimeNatural {
			return t.bitrevOn(h, ptr, colStride, cols)
		}
		return nil
	}
	passes := make([]nttPass, len(t.plan))
	copy(passes, t.plan)
	if !dit { // DIF runs the positions downward: top pass first
		for i, j := 0, len(passes)-1; i < j; i, j = i+1, j-1 {
			passes[i], passes[j] = passes[j], passes[i]
		}
	}
	tw := t.tw.ptr
	if inverse {
		tw = t.twInv.ptr
	}
	es := t.k.elemSize()
	for pi, p := range passes {
		flags := uint32(0)
		if dit {
			flags |= fDIT
		}
		if pi == 0 && coset && !inverse {
			flags |= fPreCoset
			if dit {
				flags |= fIndexRev // bit-reversed input
			}
		}
		post := t.nInv.ptr
		if pi == len(passes)-1 && inverse {
			if coset {
				flags |= fPostCoset
				post = t.cosetInv.ptr
				if !dit {
					flags |= fIndexRev // bit-reversed output
				}
			} else {
				flags |= fPostConst
			}
		}
		n := 1 << t.logn
		tile := min(1<<t.k.info.logTile, n)
		shared := (tile + (1 << p.logc)) * es
		for c0 := 0; c0 < cols; c0 += 65535 {
			cn := min(cols-c0, 65535)
			args := []any{ptr + uint64(c0)*colStride*uint64(es), colStride, tw, t.cosetFwd.ptr, post,
				uint32(t.tabH), uint32(t.logn), uint32(p.lo), uint32(p.nst), uint32(p.logc), flags}
			f, block := t.k.pass, t.k.info.block
			if r := 1 << t.k.info.rlog; t.k.info.rlog > 0 && p.nst >= t.k.info.rlog && tile/r >= 32 && !t.k.noReg {
				// registers: R elements per thread, up to rlog stages per exchange
				f, block = t.k.passReg, tile/r
			}
			if err := t.k.launchOn(f, Dim3{X: n / tile, Y: cn}, block, shared, h, args...); err != nil {
				return err
			}
		}
	}
	if o == PrimeNatural {
		return t.bitrevOn(h, ptr, colStride, cols)
	}
	return nil
}

// fsLaunch is one four-step pass launch: its pass, flags and shape.
type fsLaunch struct {
	p             nttPass
	flags         uint32
	blocks, block int // per column
	shared        int
}

// fsLaunches returns the four-step passes of one transform in launch order
// (DIF top pass first, DIT bottom first) with their flags: the coset powers
// on the first pass's loads, 1/n or the inverse coset powers on the last
// pass's stores, as in the radix-2 passes.
func fsLaunches(plan []nttPass, info nttFieldInfo, es int, dit, inverse, coset bool) []fsLaunch {
	passes := slices.Clone(plan)
	if !dit {
		slices.Reverse(passes)
	}
	out := make([]fsLaunch, len(passes))
	for pi, p := range passes {
		flags := uint32(0)
		if dit {
			flags |= fDIT
		}
		if pi == 0 && coset && !inverse {
			flags |= fPreCoset
			if dit {
				flags |= fIndexRev
			}
		}
		if pi == len(passes)-1 {
			flags |= fCanon
		}
		if pi == len(passes)-1 && inverse {
			if coset {
				flags |= fPostCoset
				if !dit {
					flags |= fIndexRev
				}
			} else {
				flags |= fPostConst
			}
		}
		rl := min(info.fsRlog, p.nst)
		tile := 1 << (p.nst + p.logc)
		out[pi] = fsLaunch{p: p, flags: flags, block: tile >> rl, shared: fsShared(p, info, es)}
	}
	return out
}

// launchFS submits the four-step passes of one transform (device goroutine).
func (t *PrimeNTT[E]) launchFS(h uintptr, ptr, colStride uint64, cols int, dit, inverse, coset bool) error {
	tw, rt := t.tw.ptr, t.rt.ptr
	if inverse {
		tw, rt = t.twInv.ptr, t.rtInv.ptr
	}
	es := t.k.elemSize()
	n := 1 << t.logn
	for _, l := range fsLaunches(t.fsPlan, t.k.info, es, dit, inverse, coset) {
		post := t.nInv.ptr
		if l.flags&fPostCoset != 0 {
			post = t.cosetInv.ptr
		}
		f := t.k.fs[l.p.nst]
		if f == nil {
			return fmt.Errorf("gpu: %s NTT: no four-step pass of %d bits is loaded (%d..%d are)", t.k.info.name, l.p.nst, t.k.info.fsMinNST, t.k.fsBuilt)
		}
		sh8 := t.sh8
		if inverse {
			sh8 = t.sh8Inv
		}
		if sh := t.k.fsSh[l.p.nst]; t.k.info.fsShift && !dit && sh8 == goldilocksSH8 && sh != nil {
			f = sh
		}
		if t.k.twTable {
			l.flags |= fTwTable
		}
		if t.k.info.fsCanonAll {
			l.flags |= fCanon
		}
		var extra []any
		if t.shoup != nil { // BN254
			pw := t.shoup.ptr
			if inverse {
				pw = t.shoupInv.ptr
			}
			extra = []any{pw, uint32(t.shoupK)}
		}
		pdl := false
		if vf, ok := t.fs31Pass(l.p.nst); ok {
			f, pdl = vf, t.k.fs31.pdl
			l.shared += fs31ShoupExtra(l.p.nst)
			stw := uint64(0)
			if t.stw != nil {
				stw = t.stw.ptr
				if inverse {
					stw = t.stwInv.ptr
				}
			}
			extra = []any{stw, uint32(t.stwK)}
		}
		for c0 := 0; c0 < cols; c0 += 65535 {
			cn := min(cols-c0, 65535)
			args := append([]any{ptr + uint64(c0)*colStride*uint64(es), colStride, tw, rt, t.cosetFwd.ptr, post,
				uint32(t.tabH), uint32(t.rtH()), uint32(t.logn), uint32(l.p.lo), uint32(l.p.logc), l.flags}, extra...)
			launch := t.k.launchOn
			if pdl {
				launch = t.k.launchPDLOn
			}
			if err := launch(f, Dim3{X: n >> (l.p.nst + l.p.logc), Y: cn}, l.block, l.shared, h, args...); err != nil {
				return err
			}
		}
	}
	return nil
}

// fs31Pass returns the variant kernel (k.fs31) of a pass of nst bits,
// if there is one and its tables are here.
func (t *PrimeNTT[E]) fs31Pass(nst int) (*Function, bool) {
	v := t.k.fs31
	if v.kern == 0 || t.k.fsvKern != v.kern {
		return nil, false
	}
	if v.shoup() && (t.stw == nil || nst > t.stwK) {
		return nil, false
	}
	f, ok := t.k.fsv[nst]
	return f, ok
}

// fs31ShoupTable returns the Shoup pairs of the last 2^k − 1 entries of the
// twiddle table tw (4-byte Montgomery elements, p the modulus): pair y is (c,
// ⌊c·2^32/p⌋), c = tw[len(tw)+1−2^k+y]·2^−32 mod p the plain value, as two
// elements' words; the last pair is zero. The Shoup product by pair y
// equals the Montgomery product by tw[len(tw)+1−2^k+y].
func fs31ShoupTable[E PrimeElement](tw []E, k int, p uint32) []E {
	out := make([]uint32, 2<<k)
	base := len(tw) + 1 - 1<<k
	rinv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 32), big.NewInt(int64(p))).Uint64()
	for y := 0; y < 1<<k-1; y++ {
		c := uint32(uint64(*(*uint32)(unsafe.Pointer(&tw[base+y]))) * rinv % uint64(p))
		out[2*y] = c
		out[2*y+1] = uint32((uint64(c) << 32) / uint64(p))
	}
	return unsafe.Slice((*E)(unsafe.Pointer(&out[0])), len(out))
}

// goldilocksSH8 is the 8th root of unity 2^SH8 that ntt_goldilocks_sh_fs*
// are compiled for (cuda/ntt_prime.cu): ω^(n/8) of gnark-crypto's Goldilocks
// domains (forward; their inverse tables have 2^72 and take ntt_fs64, as
// do DIT launches and passes above goldilocksSHMaxNST bits).
const (
	goldilocksSH8      = 120
	goldilocksSHMaxNST = 11
)

// goldilocksRoot8 returns w^(2^(logn−3)), the 8th root of unity of a
// domain of 2^logn elements with generator w.
func goldilocksRoot8(w goldilocks.Element, logn int) goldilocks.Element {
	for range logn - 3 {
		w.Square(&w)
	}
	return w
}

// goldilocksPow2Log returns s in [0, 192) with 2^s = w in Goldilocks (2
// has order 192), or −1.
func goldilocksPow2Log(w goldilocks.Element) int {
	var x, two goldilocks.Element
	x.SetOne()
	two.SetUint64(2)
	for s := range 192 {
		if x.Equal(&w) {
			return s
		}
		x.Mul(&x, &two)
	}
	return -1
}

// rtH is the split of the ω power tables: lo has 2^rtH entries.
func (t *PrimeNTT[E]) rtH() int { return t.tabH }

func (t *PrimeNTT[E]) bitrevOn(h uintptr, ptr, colStride uint64, cols int) error {
	n := 1 << t.logn
	es := uint64(t.k.elemSize())
	g := min((n+255)/256, max(1, t.d.info.Multiprocessors*16))
	for c0 := 0; c0 < cols; c0 += 65535 {
		cn := min(cols-c0, 65535)
		if err := t.k.launchOn(t.k.bitrev, Dim3{X: g, Y: cn}, 256, 0, h,
			ptr+uint64(c0)*colStride*es, colStride, uint32(t.logn)); err != nil {
			return err
		}
	}
	return nil
}

// launchPDLOn is launchOn with programmatic dependent launch (launchPDL).
func (k *nttKernels) launchPDLOn(f *Function, grid Dim3, block, shared int, h uintptr, args ...any) error {
	params, keep, err := packArgs(args)
	if err != nil {
		return err
	}
	err = f.launchPDL(grid, Dim3{X: block}, shared, h, params)
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: %s: %w", f.name, err)
	}
	return nil
}

// launchOn packs args and launches f on stream h (device goroutine).
func (k *nttKernels) launchOn(f *Function, grid Dim3, block, shared int, h uintptr, args ...any) error {
	params, keep, err := packArgs(args)
	if err != nil {
		return err
	}
	err = f.launch(grid, Dim3{X: block}, shared, h, params)
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: %s: %w", f.name, err)
	}
	return nil
}

// ---------------------------------------------------------------- LDE

// PrimeLDE is the low-degree extension from a small gnark-crypto domain of n
// elements to a large one of N = blowup·n (blowup 2, 4, 8 or 16) on device
// buffers: a column of n evaluations on ⟨ω_n⟩ becomes the N evaluations of
// the same polynomial on the large domain's coset g·⟨ω_N⟩, g its
// FrMultiplicativeGen. The result equals gnark-crypto's small.FFTInverse
// followed by large.FFT(·, fft.OnCoset()) on the zero-padded coefficients, bit
// for bit.
type PrimeLDE[E PrimeElement] struct {
	small, large *PrimeNTT[E]
	logb         int
}

// NewPrimeLDE builds the LDE from small to large (both gnark-crypto
// *fft.Domain of E's field); errors as NewPrimeNTT, and ErrPrimeDomain for a
// blowup other than 2, 4, 8, 16.
func NewPrimeLDE[E PrimeElement](d *Device, small, large any) (*PrimeLDE[E], error) {
	s, err := NewPrimeNTT[E](d, small)
	if err != nil {
		return nil, fmt.Errorf("small domain: %w", err)
	}
	l, err := NewPrimeNTT[E](d, large)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("large domain: %w", err)
	}
	logb := l.logn - s.logn
	if logb < 1 || logb > 4 {
		s.Close()
		l.Close()
		return nil, fmt.Errorf("%w: large domain 2^%d, small 2^%d: the blowup must be 2, 4, 8 or 16", ErrPrimeDomain, l.logn, s.logn)
	}
	return &PrimeLDE[E]{small: s, large: l, logb: logb}, nil
}

// Close frees both domains' tables.
func (l *PrimeLDE[E]) Close() error {
	e1 := l.small.Close()
	e2 := l.large.Close()
	if e1 != nil {
		return e1
	}
	return e2
}

// Blowup returns N / n.
func (l *PrimeLDE[E]) Blowup() int { return 1 << l.logb }

// Encode writes the extension of every column of src (k columns of n) into
// dst (k columns of N). PrimeNatural reads and writes natural order,
// PrimeDIF reads natural and writes bit-reversed order, PrimeDIT reads
// bit-reversed and writes natural order. src is left unchanged; it must not
// overlap dst. Encode uses k·n elements of temporary device memory.
func (l *PrimeLDE[E]) Encode(s *Stream, dst, src *Buffer[E], o PrimeOrder) error {
	if o < PrimeDIF || o > PrimeNatural {
		return fmt.Errorf("gpu: LDE: unknown order %v", o)
	}
	cols, err := l.small.columns("LDE src", src)
	if err != nil {
		return err
	}
	dcols, err := l.large.columns("LDE dst", dst)
	if err != nil {
		return err
	}
	if cols != dcols {
		return fmt.Errorf("gpu: LDE: %d src columns, %d dst columns: %w", cols, dcols, ErrLength)
	}
	if src.d != dst.d {
		return fmt.Errorf("gpu: LDE: src and dst on different devices")
	}
	if l.small.tw.st.freed.Load() {
		return fmt.Errorf("gpu: LDE: closed: %w", ErrClosed)
	}
	d := l.small.d
	n, bigN := uint64(1)<<l.small.logn, uint64(1)<<l.large.logn
	es := uint64(l.small.k.elemSize())
	return d.onStream(s, func(h uintptr) error {
		return d.withScratch(h, uintptr(uint64(cols)*n*es), func(tmp uint64) error {
			if err := d.drv.errorf("cuMemcpyDtoDAsync",
				d.drv.cuMemcpyDtoDAsync(tmp, src.ptr, uintptr(uint64(cols)*n*es), h)); err != nil {
				return err
			}
			// Coefficients in tmp, then laid out in dst, then the coset NTT.
			intt, mode, ntt := PrimeDIF, uint32(0), PrimeDIT // Natural
			switch o {
			case PrimeDIF:
				intt, mode, ntt = PrimeDIF, 1, PrimeDIF
			case PrimeDIT:
				intt, mode, ntt = PrimeDIT, 2, PrimeDIT
			}
			if err := l.small.launch(h, tmp, n, cols, intt, true, false); err != nil {
				return err
			}
			k := l.small.k
			g := min(int(bigN+255)/256, max(1, d.info.Multiprocessors*16))
			for c0 := 0; c0 < cols; c0 += 65535 {
				cn := min(cols-c0, 65535)
				if err := k.launchOn(k.spreadK, Dim3{X: g, Y: cn}, 256, 0, h,
					dst.ptr+uint64(c0)*bigN*es, bigN, tmp+uint64(c0)*n*es, n,
					uint32(l.small.logn), uint32(l.logb), mode); err != nil {
					return err
				}
			}
			return l.large.launch(h, dst.ptr, bigN, cols, ntt, false, true)
		})
	})
}

// ---------------------------------------------------------------- tables

// primeDomain is a field-independent view of a gnark-crypto fft.Domain.
type primeDomain[E any] struct {
	field                     string
	card                      uint64
	gen, genInv, cardInv      E
	shift, shiftInv           E
	twiddles, twiddlesInv     [][]E // nil when not precomputed
	generator                 func(uint64) (E, error)
	plain                     func(E) E // constants as the kernels take them
	cosetTable, cosetTableInv []E
}

type primeElem[E any] interface {
	*E
	Mul(x, y *E) *E
	SetUint64(v uint64) *E
	SetOne() *E
	IsOne() bool
	IsZero() bool
	Equal(x *E) bool
}

func orNil[T any](t T, err error) T {
	if err != nil {
		var z T
		return z
	}
	return t
}

func mont[E any](e E) E { return e }

func bn254Dom(d any) (*primeDomain[fr.Element], string, error) {
	x, ok := d.(*bn254fft.Domain)
	if !ok || x == nil {
		return nil, domainName(d), nil
	}
	return &primeDomain[fr.Element]{field: "bn254", card: x.Cardinality, gen: x.Generator, genInv: x.GeneratorInv,
		cardInv: x.CardinalityInv, shift: x.FrMultiplicativeGen, shiftInv: x.FrMultiplicativeGenInv,
		twiddles: orNil(x.Twiddles()), twiddlesInv: orNil(x.TwiddlesInv()),
		cosetTable: orNil(x.CosetTable()), cosetTableInv: orNil(x.CosetTableInv()),
		generator: bn254fft.Generator, plain: mont[fr.Element]}, "", nil
}

func goldilocksDom(d any) (*primeDomain[goldilocks.Element], string, error) {
	x, ok := d.(*goldilocksfft.Domain)
	if !ok || x == nil {
		return nil, domainName(d), nil
	}
	// The Goldilocks kernels multiply Montgomery data by constants in plain
	// form (a special-form reduction instead of a Montgomery one).
	plain := func(e goldilocks.Element) goldilocks.Element { return goldilocks.Element{e.Uint64()} }
	return &primeDomain[goldilocks.Element]{field: "goldilocks", card: x.Cardinality, gen: x.Generator, genInv: x.GeneratorInv,
		cardInv: x.CardinalityInv, shift: x.FrMultiplicativeGen, shiftInv: x.FrMultiplicativeGenInv,
		twiddles: orNil(x.Twiddles()), twiddlesInv: orNil(x.TwiddlesInv()),
		cosetTable: orNil(x.CosetTable()), cosetTableInv: orNil(x.CosetTableInv()),
		generator: goldilocksfft.Generator, plain: plain}, "", nil
}

func babybearDom(d any) (*primeDomain[babybear.Element], string, error) {
	x, ok := d.(*babybearfft.Domain)
	if !ok || x == nil {
		return nil, domainName(d), nil
	}
	return &primeDomain[babybear.Element]{field: "babybear", card: x.Cardinality, gen: x.Generator, genInv: x.GeneratorInv,
		cardInv: x.CardinalityInv, shift: x.FrMultiplicativeGen, shiftInv: x.FrMultiplicativeGenInv,
		twiddles: orNil(x.Twiddles()), twiddlesInv: orNil(x.TwiddlesInv()),
		cosetTable: orNil(x.CosetTable()), cosetTableInv: orNil(x.CosetTableInv()),
		generator: babybearfft.Generator, plain: mont[babybear.Element]}, "", nil
}

func koalabearDom(d any) (*primeDomain[koalabear.Element], string, error) {
	x, ok := d.(*koalabearfft.Domain)
	if !ok || x == nil {
		return nil, domainName(d), nil
	}
	return &primeDomain[koalabear.Element]{field: "koalabear", card: x.Cardinality, gen: x.Generator, genInv: x.GeneratorInv,
		cardInv: x.CardinalityInv, shift: x.FrMultiplicativeGen, shiftInv: x.FrMultiplicativeGenInv,
		twiddles: orNil(x.Twiddles()), twiddlesInv: orNil(x.TwiddlesInv()),
		cosetTable: orNil(x.CosetTable()), cosetTableInv: orNil(x.CosetTableInv()),
		generator: koalabearfft.Generator, plain: mont[koalabear.Element]}, "", nil
}

// domainName names what was passed instead of the expected domain.
func domainName(d any) string {
	switch x := d.(type) {
	case nil:
		return "nil"
	case *bn254fft.Domain:
		if x == nil {
			return "nil"
		}
		return "bn254"
	case *goldilocksfft.Domain:
		if x == nil {
			return "nil"
		}
		return "goldilocks"
	case *babybearfft.Domain:
		if x == nil {
			return "nil"
		}
		return "babybear"
	case *koalabearfft.Domain:
		if x == nil {
			return "nil"
		}
		return "koalabear"
	}
	return fmt.Sprintf("%T", d)
}

func newPrimeNTT[E PrimeElement, P primeElem[E]](d *Device, domain any,
	view func(any) (*primeDomain[E], string, error)) (*PrimeNTT[E], error) {
	v, got, _ := view(domain)
	if v == nil {
		var z E
		switch got {
		case "nil":
			return nil, fmt.Errorf("%w: nil domain", ErrPrimeDomain)
		case "bn254", "goldilocks", "babybear", "koalabear":
			return nil, fmt.Errorf("%w: a %s domain for %T elements", ErrPrimeField, got, z)
		}
		return nil, fmt.Errorf("%w: %s is not a gnark-crypto *fft.Domain", ErrPrimeDomain, got)
	}
	if err := checkPrimeDomain[E, P](v); err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("gpu: prime NTT: nil device")
	}
	k, err := d.nttKernels(v.field)
	if err != nil {
		return nil, err
	}
	logn := bits.TrailingZeros64(v.card)
	t := &PrimeNTT[E]{d: d, k: k, logn: logn, tabH: (logn + 1) / 2, field: v.field,
		plan: planPasses(logn, k.info.logTile, k.info.logCMin)}
	if logn > k.info.logTile && k.info.fsOn {
		t.fsPlan = planFS(logn, k.info)
	}

	t.sh8, t.sh8Inv = -1, -1
	if g, ok := any(v.gen).(goldilocks.Element); ok && logn >= 3 {
		gi := any(v.genInv).(goldilocks.Element)
		t.sh8, t.sh8Inv = goldilocksPow2Log(goldilocksRoot8(g, logn)), goldilocksPow2Log(goldilocksRoot8(gi, logn))
	}
	tw := twiddleTable[E, P](v.twiddles, v.gen, logn, v.plain)
	twInv := twiddleTable[E, P](v.twiddlesInv, v.genInv, logn, v.plain)
	var one E
	P(&one).SetOne()
	cf := powerTable[E, P](v.shift, one, logn, t.tabH, v.plain)
	ci := powerTable[E, P](v.shiftInv, v.cardInv, logn, t.tabH, v.plain)
	rt := powerTable[E, P](v.gen, one, logn, t.rtH(), v.plain)
	rtInv := powerTable[E, P](v.genInv, one, logn, t.rtH(), v.plain)
	ninv := []E{v.plain(v.cardInv)}

	up := func(host []E) (*Buffer[E], error) {
		b, err := Alloc[E](d, len(host))
		if err != nil {
			return nil, err
		}
		if err := b.Upload(host); err != nil {
			b.Free()
			return nil, err
		}
		return b, nil
	}
	bufs := []**Buffer[E]{&t.tw, &t.twInv, &t.cosetFwd, &t.cosetInv, &t.rt, &t.rtInv, &t.nInv}
	hosts := [][]E{tw, twInv, cf, ci, rt, rtInv, ninv}
	if v.field == "bn254" && logn > k.info.logTile {
		t.shoupK = min(16, logn)
		bufs = append(bufs, &t.shoup, &t.shoupInv)
		for _, g := range []E{v.gen, v.genInv} {
			hosts = append(hosts, any(bn254ShoupTable(any(g).(fr.Element), logn, t.shoupK)).([]E))
		}
	}
	if k.fs31.shoup() && logn > k.info.logTile {
		t.stwK = min(fs31ShoupLog, logn)
		bufs = append(bufs, &t.stw, &t.stwInv)
		p := uint32(babybear.Modulus().Uint64())
		if v.field == "koalabear" {
			p = uint32(koalabear.Modulus().Uint64())
		}
		for _, tab := range [][]E{tw, twInv} {
			hosts = append(hosts, fs31ShoupTable(tab, t.stwK, p))
		}
	}
	for i, host := range hosts {
		if *bufs[i], err = up(host); err != nil {
			for _, b := range bufs[:i] {
				(*b).Free()
			}
			return nil, fmt.Errorf("gpu: %s NTT tables: %w", v.field, err)
		}
	}
	return t, nil
}

// twiddleTable returns the kernels' twiddle table: for each index bit p, the
// 2^p powers w^(j·2^(logn−1−p)) at offset n − 2^(p+1) (gnark-crypto's
// per-stage twiddles, stage s = logn−1−p, one after the other). At least one
// element, so that the buffer is never empty.
func twiddleTable[E PrimeElement, P primeElem[E]](pre [][]E, w E, logn int, plain func(E) E) []E {
	n := 1 << logn
	out := make([]E, max(n-1, 1))
	if logn == 0 {
		return out
	}
	if pre == nil || len(pre) != logn {
		pre = make([][]E, logn)
		first := make([]E, n/2)
		P(&first[0]).SetOne()
		for j := 1; j < n/2; j++ {
			P(&first[j]).Mul(&first[j-1], &w)
		}
		for s := range pre {
			st := make([]E, n>>(s+1))
			for j := range st {
				st[j] = first[j<<s]
			}
			pre[s] = st
		}
	}
	off := 0
	for s := 0; s < logn; s++ {
		h := n >> (s + 1)
		for j := 0; j < h; j++ {
			out[off+j] = plain(pre[s][j])
		}
		off += h
	}
	return out
}

// powerTable returns the two tables lo[j] = g^j (j < 2^h) and hi[m] =
// c·g^(m·2^h) (m < 2^(logn−h)), one after the other.
func powerTable[E PrimeElement, P primeElem[E]](g, c E, logn, h int, plain func(E) E) []E {
	lo := make([]E, 1<<h)
	hi := make([]E, 1<<(logn-h))
	P(&lo[0]).SetOne()
	for j := 1; j < len(lo); j++ {
		P(&lo[j]).Mul(&lo[j-1], &g)
	}
	var step E // g^(2^h)
	P(&step).Mul(&lo[len(lo)-1], &g)
	hi[0] = c
	for m := 1; m < len(hi); m++ {
		P(&hi[m]).Mul(&hi[m-1], &step)
	}
	out := make([]E, 0, len(lo)+len(hi))
	for _, e := range lo {
		out = append(out, plain(e))
	}
	for _, e := range hi {
		out = append(out, plain(e))
	}
	return out
}

// checkPrimeDomain checks what gnark-crypto's NewDomain computes for the
// domain's cardinality: a power of two within the field's 2-adicity and the
// kernels' limit, its root of unity, matching inverses, a non-zero coset
// shift, precomputed tables of the right size.
func checkPrimeDomain[E PrimeElement, P primeElem[E]](v *primeDomain[E]) error {
	n := v.card
	if n == 0 || n&(n-1) != 0 {
		return fmt.Errorf("%w: %s cardinality %d is not a power of two", ErrPrimeDomain, v.field, n)
	}
	if n > 1<<maxPrimeLog {
		return fmt.Errorf("%w: %s cardinality %d is above the kernels' 2^%d", ErrPrimeDomain, v.field, n, maxPrimeLog)
	}
	want, err := v.generator(n)
	if err != nil {
		return fmt.Errorf("%w: %s cardinality %d: %v", ErrPrimeDomain, v.field, n, err)
	}
	var c E
	switch {
	case !P(&v.gen).Equal(&want):
		return fmt.Errorf("%w: %s Generator is not gnark-crypto's root of unity of order %d", ErrPrimeDomain, v.field, n)
	case !P(P(&c).Mul(&v.gen, &v.genInv)).IsOne():
		return fmt.Errorf("%w: %s GeneratorInv is not the inverse of Generator", ErrPrimeDomain, v.field)
	case !P(P(P(&c).SetUint64(n)).Mul(&c, &v.cardInv)).IsOne():
		return fmt.Errorf("%w: %s CardinalityInv is not 1/%d", ErrPrimeDomain, v.field, n)
	case P(&v.shift).IsZero() || !P(P(&c).Mul(&v.shift, &v.shiftInv)).IsOne():
		return fmt.Errorf("%w: %s FrMultiplicativeGen is zero or its inverse is wrong", ErrPrimeDomain, v.field)
	}
	logn := bits.TrailingZeros64(n)
	for _, tw := range [][][]E{v.twiddles, v.twiddlesInv} {
		if tw == nil {
			continue
		}
		if len(tw) != logn {
			return fmt.Errorf("%w: %s twiddles have %d stages, cardinality %d needs %d", ErrPrimeDomain, v.field, len(tw), n, logn)
		}
		for s := range tw {
			if uint64(len(tw[s])) < n>>(s+1) {
				return fmt.Errorf("%w: %s twiddles of stage %d are too short", ErrPrimeDomain, v.field, s)
			}
		}
	}
	if n > 1 && v.twiddles != nil && !P(&v.twiddles[0][1]).Equal(&v.gen) {
		return fmt.Errorf("%w: %s twiddles do not belong to Generator", ErrPrimeDomain, v.field)
	}
	if n > 1 && v.twiddlesInv != nil && !P(&v.twiddlesInv[0][1]).Equal(&v.genInv) {
		return fmt.Errorf("%w: %s inverse twiddles do not belong to GeneratorInv", ErrPrimeDomain, v.field)
	}
	return nil
}

// Compile-time check: the element types are the sizes the kernels assume.
var _ = [1]struct{}{}[unsafe.Sizeof(fr.Element{})-32]
var _ = [1]struct{}{}[unsafe.Sizeof(goldilocks.Element{})-8]
var _ = [1]struct{}{}[unsafe.Sizeof(babybear.Element{})-4]
var _ = [1]struct{}{}[unsafe.Sizeof(koalabear.Element{})-4]

// bn254ShoupTable returns the constants of the BN254 four-step passes
// (cuda/ntt_prime.cu, ntt_bn254_fs) for the root of unity w of order 2^logn:
// w_K^x for x < K = 2^k (w_K = w^(2^(logn−k))), then w^x for x < 2^(logn−k),
// each as two elements' worth of limbs: the value in plain (not Montgomery)
// form and floor(value·2^256/q).
func bn254ShoupTable(w fr.Element, logn, k int) []fr.Element {
	var wk fr.Element
	wk.Exp(w, new(big.Int).Lsh(big.NewInt(1), uint(logn-k)))
	out := make([]fr.Element, 0, 2*((1<<k)+(1<<(logn-k))))
	q := fr.Modulus()
	add := func(root fr.Element, cnt int) {
		var p fr.Element
		p.SetOne()
		var b, s big.Int
		for range cnt {
			p.BigInt(&b)
			s.Lsh(&b, 256)
			s.Quo(&s, q)
			out = append(out, fr.Element(p.Bits()), bigLimbs64(&s))
			p.Mul(&p, &root)
		}
	}
	add(wk, 1<<k)
	add(w, 1<<(logn-k))
	return out
}

// bigLimbs64 returns x < 2^256 as four little-endian 64-bit limbs.
func bigLimbs64(x *big.Int) fr.Element {
	var e fr.Element
	var buf [32]byte
	x.FillBytes(buf[:])
	for i := range e {
		for j := range 8 {
			e[i] |= uint64(buf[31-8*i-j]) << (8 * j)
		}
	}
	return e
}

// checkBuffers checks that the buffers live on d, are not freed and have the
// same length.
func checkBuffers[T any](d *Device, op string, bufs ...*Buffer[T]) error {
	for i, b := range bufs {
		if b == nil {
			return fmt.Errorf("gpu: %s: buffer %d is nil", op, i)
		}
		if b.d != d {
			return fmt.Errorf("gpu: %s: buffer %d belongs to another device", op, i)
		}
		if b.st.freed.Load() {
			return fmt.Errorf("gpu: %s: buffer %d freed: %w", op, i, ErrClosed)
		}
		if b.n != bufs[0].n {
			return fmt.Errorf("gpu: %s: lengths %d and %d: %w", op, bufs[0].n, b.n, ErrLength)
		}
	}
	return nil
}
