package primentt

import (
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

	"github.com/gfpoly/gfpoly/gpu"
)

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

func newNTT[E Element, P primeElem[E]](d *gpu.Device, domain any,
	view func(any) (*primeDomain[E], string, error)) (*NTT[E], error) {
	v, got, _ := view(domain)
	if v == nil {
		var z E
		switch got {
		case "nil":
			return nil, fmt.Errorf("%w: nil domain", ErrDomain)
		case "bn254", "goldilocks", "babybear", "koalabear":
			return nil, fmt.Errorf("%w: a %s domain for %T elements", ErrField, got, z)
		}
		return nil, fmt.Errorf("%w: %s is not a gnark-crypto *fft.Domain", ErrDomain, got)
	}
	if err := checkPrimeDomain[E, P](v); err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("primentt: nil device: %w", gpu.ErrNoDevice)
	}
	k, err := loadKernels(d, v.field)
	if err != nil {
		return nil, err
	}
	logn := bits.TrailingZeros64(v.card)
	t := &NTT[E]{d: d, k: k, logn: logn, tabH: (logn + 1) / 2, field: v.field}
	t.stdBlocks = 1
	if logn > k.info.logTile {
		if t.fsPlan = planFS(logn, k.info); t.fsPlan == nil {
			return nil, fmt.Errorf("primentt: %s NTT of 2^%d: no four-step plan", v.field, logn)
		}
		t.stdBlocks = planBlocks(t.fsPlan, logn)
	}
	t.fsWide = planWide(logn, k.info, d.Info().Multiprocessors)
	t.fsLone = slices.Clone(lonePlans[k.info.fsKernels()][logn])
	t.loneLate = lateTrigger[k.info.fsKernels()][logn]
	t.fsLoneNat = slices.Clone(loneNatPlans[k.info.fsKernels()][logn])

	t.sh8, t.sh8Inv = -1, -1
	if g, ok := any(v.gen).(goldilocks.Element); ok && logn >= 3 {
		gi := any(v.genInv).(goldilocks.Element)
		t.sh8, t.sh8Inv = goldilocksPow2Log(goldilocksRoot8(g, logn)), goldilocksPow2Log(goldilocksRoot8(gi, logn))
	}
	tw := twiddleTable[E, P](v.gen, logn, v.plain)
	twInv := twiddleTable[E, P](v.genInv, logn, v.plain)
	var one E
	P(&one).SetOne()
	cf := powerTable[E, P](v.shift, one, logn, t.tabH, v.plain)
	ci := powerTable[E, P](v.shiftInv, v.cardInv, logn, t.tabH, v.plain)
	rt := powerTable[E, P](v.gen, one, logn, t.rtH(), v.plain)
	rtInv := powerTable[E, P](v.genInv, one, logn, t.rtH(), v.plain)
	ninv := []E{v.plain(v.cardInv)}

	up := func(host []E) (*gpu.Buffer[E], error) {
		b, err := gpu.Alloc[E](d, len(host))
		if err != nil {
			return nil, err
		}
		if err := b.Upload(host); err != nil {
			b.Free()
			return nil, err
		}
		return b, nil
	}
	bufs := []**gpu.Buffer[E]{&t.tw, &t.twInv, &t.cosetFwd, &t.cosetInv, &t.rt, &t.rtInv, &t.nInv}
	hosts := [][]E{tw, twInv, cf, ci, rt, rtInv, ninv}
	if v.field == "bn254" && logn > k.info.logTile {
		t.shoupK = bn254ShoupK(logn, t.fsPlan, t.fsWide, t.fsLone, t.fsLoneNat)
		bufs = append(bufs, &t.shoup, &t.shoupInv, &t.shoupNInv)
		for _, g := range []E{v.gen, v.genInv} {
			hosts = append(hosts, any(bn254ShoupTable(any(g).(fr.Element), logn, t.shoupK)).([]E))
		}
		var sp bn254Shoup
		w, ws := sp.pair(any(v.cardInv).(fr.Element))
		hosts = append(hosts, any([]fr.Element{w, ws}).([]E))
	}
	if k.info.fsTwist {
		t.twistOff = map[twistKey]int{}
		var fwd, inv []E
		for _, key := range twistKeys(logn, k.info.fsRlog, t.fsPlan, t.fsWide, t.fsLone, t.fsLoneNat) {
			t.twistOff[key] = len(fwd)
			fwd = append(fwd, twistTable[E, P](v.gen, logn, key.lo, key.nst, v.plain)...)
			inv = append(inv, twistTable[E, P](v.genInv, logn, key.lo, key.nst, v.plain)...)
		}
		if len(fwd) > 0 {
			bufs = append(bufs, &t.twist, &t.twistInv)
			hosts = append(hosts, fwd, inv)
		}
	}
	for i, host := range hosts {
		if *bufs[i], err = up(host); err != nil {
			for _, b := range bufs[:i] {
				(*b).Free()
			}
			return nil, fmt.Errorf("primentt: %s NTT tables: %w", v.field, err)
		}
	}
	return t, nil
}

// twiddleBits bounds the index bits of the per-position twiddle table
// (twiddleTable): the one-tile passes (ntt_pass, ntt_pass_reg, at most
// 2^12 elements) read every bit's twiddles, the four-step passes only
// those of their inner transforms (bits below fsMaxNST ≤ 11; BN254's read
// its Shoup table instead).
const twiddleBits = 12

// twiddleTable returns the small end of the kernels' per-position twiddle
// table: for each index bit p < b = min(logn, twiddleBits), the 2^p powers
// w^(j·2^(logn−1−p)) at offset 2^b − 2^(p+1) (gnark-crypto's twiddles of
// stage logn−1−p). The kernels index the whole table of n−1 entries (bit p
// at n − 2^(p+1)), whose other n − 2^b entries they never read: launches
// pass twPtr. At least one element, so that the buffer is never empty.
func twiddleTable[E Element, P primeElem[E]](w E, logn int, plain func(E) E) []E {
	b := min(logn, twiddleBits)
	out := make([]E, max(1<<b-1, 1))
	root := w // w^(2^(logn−1−p)), from p = logn−1 down
	for p := logn - 1; p >= 0; p-- {
		if p < b {
			var x E
			P(&x).SetOne()
			off := 1<<b - 2<<p
			for j := range 1 << p {
				out[off+j] = plain(x)
				P(&x).Mul(&x, &root)
			}
		}
		P(&root).Mul(&root, &root)
	}
	return out
}

// powerTable returns the two tables lo[j] = g^j (j < 2^h) and hi[m] =
// c·g^(m·2^h) (m < 2^(logn−h)), one after the other.
func powerTable[E Element, P primeElem[E]](g, c E, logn, h int, plain func(E) E) []E {
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
func checkPrimeDomain[E Element, P primeElem[E]](v *primeDomain[E]) error {
	n := v.card
	if n == 0 || n&(n-1) != 0 {
		return fmt.Errorf("%w: %s cardinality %d is not a power of two", ErrDomain, v.field, n)
	}
	if n > 1<<maxPrimeLog {
		return fmt.Errorf("%w: %s cardinality %d is above the kernels' 2^%d", ErrDomain, v.field, n, maxPrimeLog)
	}
	want, err := v.generator(n)
	if err != nil {
		return fmt.Errorf("%w: %s cardinality %d: %v", ErrDomain, v.field, n, err)
	}
	var c E
	switch {
	case !P(&v.gen).Equal(&want):
		return fmt.Errorf("%w: %s Generator is not gnark-crypto's root of unity of order %d", ErrDomain, v.field, n)
	case !P(P(&c).Mul(&v.gen, &v.genInv)).IsOne():
		return fmt.Errorf("%w: %s GeneratorInv is not the inverse of Generator", ErrDomain, v.field)
	case !P(P(P(&c).SetUint64(n)).Mul(&c, &v.cardInv)).IsOne():
		return fmt.Errorf("%w: %s CardinalityInv is not 1/%d", ErrDomain, v.field, n)
	case P(&v.shift).IsZero() || !P(P(&c).Mul(&v.shift, &v.shiftInv)).IsOne():
		return fmt.Errorf("%w: %s FrMultiplicativeGen is zero or its inverse is wrong", ErrDomain, v.field)
	}
	logn := bits.TrailingZeros64(n)
	for _, tw := range [][][]E{v.twiddles, v.twiddlesInv} {
		if tw == nil {
			continue
		}
		if len(tw) != logn {
			return fmt.Errorf("%w: %s twiddles have %d stages, cardinality %d needs %d", ErrDomain, v.field, len(tw), n, logn)
		}
		for s := range tw {
			if uint64(len(tw[s])) < n>>(s+1) {
				return fmt.Errorf("%w: %s twiddles of stage %d are too short", ErrDomain, v.field, s)
			}
		}
	}
	if n > 1 && v.twiddles != nil && !P(&v.twiddles[0][1]).Equal(&v.gen) {
		return fmt.Errorf("%w: %s twiddles do not belong to Generator", ErrDomain, v.field)
	}
	if n > 1 && v.twiddlesInv != nil && !P(&v.twiddlesInv[0][1]).Equal(&v.genInv) {
		return fmt.Errorf("%w: %s inverse twiddles do not belong to GeneratorInv", ErrDomain, v.field)
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
	out := make([]fr.Element, 2*((1<<k)+(1<<(logn-k))))
	// root^x for x < cnt into out from pair off, a range per CPU (each
	// entry a division: 2^18 of them take about 0.1 s on one)
	fill := func(root fr.Element, off, cnt int) {
		parts := min(runtime.GOMAXPROCS(0), max(1, cnt>>10))
		var wg sync.WaitGroup
		for i := range parts {
			wg.Go(func() {
				var sp bn254Shoup
				var p fr.Element
				lo, hi := cnt*i/parts, cnt*(i+1)/parts
				p.Exp(root, big.NewInt(int64(lo)))
				for x := lo; x < hi; x++ {
					out[2*(off+x)], out[2*(off+x)+1] = sp.pair(p)
					p.Mul(&p, &root)
				}
			})
		}
		wg.Wait()
	}
	fill(wk, 0, 1<<k)
	fill(w, 1<<k, 1<<(logn-k))
	return out
}

// twistMaxLog bounds the twist tables (twistTable): M = 2^(lo+nst) ≤
// 2^twistMaxLog, 1 MiB for the 31-bit fields.
var twistMaxLog = 18

// twistMaxNST is the largest pass that takes a twist table: the kernels'
// FS_TWIST_MAX_NST (cuda/ntt_fourstep.cu), ntt_<name>_tw_fs6 to fs8.
const twistMaxNST = 8

// twistKey names the twist table of one pass: bits [lo, lo+nst).
type twistKey struct{ lo, nst int }

// twistKeys returns the passes of the plans that take a twist table
// (ntt_<name>_tw_fs*, 2^rl elements per thread): the four-step passes of
// 2^rl elements per thread above the bottom and below the top (whose table
// would have n entries) of at most twistMaxNST bits with M = 2^(lo+nst) ≤
// 2^twistMaxLog, in the order of their first appearance.
func twistKeys(logn, rl int, plans ...[]nttPass) []twistKey {
	var out []twistKey
	for _, p := range plans {
		for _, s := range p {
			k := twistKey{s.lo, s.nst}
			if s.rl == rl && s.lo > 0 && s.lo+s.nst < logn && s.nst <= twistMaxNST && s.lo+s.nst <= twistMaxLog && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// twistTable returns the twist table of the four-step pass on bits [lo,
// lo+nst) of a transform of 2^logn with root of unity w
// (ntt_<name>_tw_fs*, cuda/ntt_fourstep.cu): entry (t << lo) | low, for t <
// 2^nst and low < 2^lo, is ω_M^(low·bitrev_nst(t)), M = 2^(lo+nst), ω_M =
// w^(2^(logn−lo−nst)): the twiddle the pass multiplies element i by, at
// i mod M.
func twistTable[E Element, P primeElem[E]](w E, logn, lo, nst int, plain func(E) E) []E {
	wm := w
	for range logn - lo - nst {
		P(&wm).Mul(&wm, &wm)
	}
	out := make([]E, 1<<(lo+nst))
	for t := range 1 << nst {
		k1 := bits.Reverse64(uint64(t)) >> (64 - nst)
		var base, x E // ω_M^k1, its powers
		P(&base).SetOne()
		for b, sq := 0, wm; b < nst; b++ {
			if k1>>b&1 == 1 {
				P(&base).Mul(&base, &sq)
			}
			P(&sq).Mul(&sq, &sq)
		}
		P(&x).SetOne()
		row := out[t<<lo : (t+1)<<lo]
		for low := range row {
			row[low] = plain(x)
			P(&x).Mul(&x, &base)
		}
	}
	return out
}

// bn254ShoupMaxK bounds the first part of BN254's Shoup table
// (bn254ShoupTable): 2^18 pairs of 64 bytes, 16 MiB per direction.
var bn254ShoupMaxK = 18

// bn254ShoupK returns the first part of BN254's Shoup table: 2^k powers of
// ω^(n/2^k), k the largest lo+nst ≤ bn254ShoupMaxK of the plans' passes
// and at least min(16, logn). A pass's twist ω_M^e (M = 2^(lo+nst)) is one
// entry where M ≤ 2^k, one Shoup product instead of two (ntt_bn254_fs's
// passTw): the top pass at 2^17 and 2^18, the middle one of 2^25 and 2^26.
func bn254ShoupK(logn int, plans ...[]nttPass) int {
	k := min(16, logn)
	for _, p := range plans {
		for _, s := range p {
			if m := s.lo + s.nst; m <= bn254ShoupMaxK {
				k = max(k, m)
			}
		}
	}
	return k
}

// bn254Shoup computes the constants of Shoup products (pair), reusing its
// big integers from one to the next.
type bn254Shoup struct{ q, b, s big.Int }

// pair returns the constant x of a Shoup product in the kernels' layout: x
// in plain (not Montgomery) form and floor(x·2^256/q), each as an element's
// worth of limbs.
func (z *bn254Shoup) pair(x fr.Element) (w, ws fr.Element) {
	if z.q.Sign() == 0 {
		z.q.Set(fr.Modulus())
	}
	x.BigInt(&z.b)
	z.s.Lsh(&z.b, 256)
	z.s.Quo(&z.s, &z.q)
	return fr.Element(x.Bits()), bigLimbs64(&z.s)
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
func checkBuffers[T any](d *gpu.Device, op string, bufs ...*gpu.Buffer[T]) error {
	for i, b := range bufs {
		if b == nil {
			return fmt.Errorf("primentt: %s: buffer %d is nil", op, i)
		}
		if b.Device() != d {
			return fmt.Errorf("primentt: %s: buffer %d belongs to another device", op, i)
		}
		if b.Freed() {
			return fmt.Errorf("primentt: %s: buffer %d freed: %w", op, i, gpu.ErrClosed)
		}
		if b.Len() != bufs[0].Len() {
			return fmt.Errorf("primentt: %s: lengths %d and %d: %w", op, bufs[0].Len(), b.Len(), gpu.ErrLength)
		}
	}
	return nil
}
