package primentt

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
)

// Element is the set of gnark-crypto element types the prime-field NTT
// kernels work on, in gnark-crypto's Montgomery form and memory layout.
type Element interface {
	fr.Element | goldilocks.Element | babybear.Element | koalabear.Element
}

// Order says how a prime-field transform reads and writes a column;
// bit-reversed order puts entry bitreverse(i) at position i.
type Order int

const (
	// DIF reads natural order and writes bit-reversed order, like
	// gnark-crypto's fft.DIF.
	DIF Order = iota
	// DIT reads bit-reversed order and writes natural order, like
	// gnark-crypto's fft.DIT.
	DIT
	// Natural reads and writes natural order (the DIF passes, the last
	// one writing natural order, or at a few sizes a bit reversal after
	// them).
	Natural
)

func (o Order) String() string {
	switch o {
	case DIF:
		return "DIF"
	case DIT:
		return "DIT"
	case Natural:
		return "Natural"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

var (
	// ErrDomain: a gnark-crypto domain is nil, not a domain, or
	// inconsistent (its fields are not those fft.NewDomain computes), or too
	// large for the kernels (2^30 elements).
	ErrDomain = errors.New("primentt: invalid prime-field domain")
	// ErrField: a domain of another field than the element type.
	ErrField = errors.New("primentt: domain of another field")
)

// maxPrimeLog bounds the transform size: indices are 32-bit in the kernels.
const maxPrimeLog = 30

// nttFieldInfo says how one field's kernels are launched.
type nttFieldInfo struct {
	name    string // kernel name infix, and the field's program (cuda.NTTProgram)
	logTile int    // elements per shared-memory tile (log2): the transforms of one tile
	block   int    // threads per block of the radix-2 pass kernel
	rlog    int    // elements per thread of the register pass kernel (log2)
	bitrevB int    // ntt_<name>_bitrev_tiled's tiles: 2^bitrevB × 2^bitrevB elements (TB in cuda/ntt_fourstep.cu)

	// Four-step passes (ntt_<name>_fs<nst>), for transforms above one tile.
	fsRlog       int    // elements per thread (log2), as compiled
	fsMinNST     int    // pass sizes compiled (bits)
	fsMaxNST     int    // (the program's NTT_FS_MAX)
	fsLogC       int    // groups per tile in passes above the bottom (log2)
	fsTile       int    // elements per tile of the bottom pass (log2)
	fsMaxThreads int    // the kernels' launch bounds
	fsShift      bool   // Goldilocks: ntt_goldilocks_sh_fs* and shi_fs* (radix-8 twiddles as shifts) for DIF passes (goldilocksSH8, goldilocksSH8Inv)
	fsTwist      bool   // the middle passes take their twiddles from twist tables in ntt_<name>_tw_fs* (twistKeys, twistTable): the 31-bit fields
	fsSplit      [2]int // BN254: ntt_<name>_r<fsNarrowRL>s_fs<nst> for nst in [fsSplit[0], fsSplit[1]] ({0, 0}: none), the narrow kernels in place with the bottom pass compiled apart (splitSizes)
	fsNarrowRL   int    // the narrow kernels ntt_<name>_r<fsNarrowRL>_fs* too, 2^fsNarrowRL elements per thread (0: none): BN254 2, Goldilocks 4, the 31-bit fields 8: twice the threads of a tile, for small transforms (lonePlans)

	// BN254: ntt_bn254_bitrev_tiled4, tiles of 2^bitrevSmallB × 2^bitrevSmallB,
	// for columns below 2^bitrevSmallMax (0: none).
	bitrevSmallB, bitrevSmallMax int
}

// The fields' launch parameters. A transform of one tile runs in one pass
// (the register pass where it applies, else the radix-2 pass); larger ones
// run the four-step passes. Four-step passes against the radix-2/register
// passes of the first version, FFT DIF at 2^24 on the H100 (BENCHMARKS.md;
// TestPrimeVariants, which measured them, is in the history, last at commit
// e2638ee): BN254 3.8 against 8.3 ms (its own kernels,
// ntt_bn254_fs*: Shoup products, lazy reduction), KoalaBear 0.29 against
// 0.32, BabyBear 0.29-0.32 against 0.32-0.33, Goldilocks 0.82 both (16
// elements per thread spill there). Goldilocks takes passes of up to 11
// bits: 2^21 and 2^22 in two passes (2^22 0.220 -> 0.205 ms); BabyBear and
// KoalaBear stay at 10 (2^22 in two passes of 11 bits: 0.075 -> 0.079 ms).
// 2^24 in two passes of 12 bits lost everywhere (BabyBear 0.28 -> 0.37 ms,
// Goldilocks 0.79 -> 0.88: 2 or 4 groups per tile within 1024 threads,
// half-sector runs).
var nttFields = map[string]nttFieldInfo{
	// radix-2 passes: registers cost occupancy
	"bn254": {name: "bn254", logTile: 11, block: 256, rlog: 0, bitrevB: 5,
		fsRlog: 2, fsMinNST: 5, fsMaxNST: 9, fsLogC: 2, fsTile: 10, fsMaxThreads: 256, fsNarrowRL: 1, fsSplit: [2]int{6, 7},
		bitrevSmallB: 4, bitrevSmallMax: 16},
	// 2^12 beat 2^13 by 16% on 2^24 (occupancy)
	"goldilocks": {name: "goldilocks", logTile: 12, block: 1024, rlog: 3, bitrevB: 5,
		fsRlog: 3, fsMinNST: 6, fsMaxNST: 11, fsLogC: 3, fsTile: 11, fsMaxThreads: 1024, fsShift: true, fsNarrowRL: 2},
	// 2^12 beat 2^14 by 12%
	"babybear": {name: "babybear", logTile: 12, block: 1024, rlog: 4, bitrevB: 5,
		fsRlog: 4, fsMinNST: 6, fsMaxNST: 10, fsLogC: 4, fsTile: 12, fsMaxThreads: 1024, fsTwist: true, fsNarrowRL: 3},
	"koalabear": {name: "koalabear", logTile: 12, block: 1024, rlog: 4, bitrevB: 5,
		fsRlog: 4, fsMinNST: 6, fsMaxNST: 10, fsLogC: 4, fsTile: 12, fsMaxThreads: 1024, fsTwist: true, fsNarrowRL: 3},
}

// nttKernels are one field's kernels on a device.
type nttKernels struct {
	info                           nttFieldInfo
	pass, passReg, bitrev, spreadK *gpu.Function
	bitrevT                        *gpu.Function           // ntt_<name>_bitrev_tiled, columns of 2^(2·bitrevB) and more
	bitrevT4                       *gpu.Function           // BN254: ntt_bn254_bitrev_tiled4 (info.bitrevSmallB)
	fs                             map[fsKey]*gpu.Function // four-step passes
	noReg                          bool                    // tests: the radix-2 pass for transforms of one tile
}

// fsKey names a four-step kernel, ntt_<field>_<kind>fs<nst> in place and
// ntt_<field>_<kind>oop_fs<nst> out of place (DIF only: a natural-order
// transform's first and last passes, launchNatural). Kinds: "" the field's
// pass, "r1_", "r2_" and "r3_" the narrow kernels of BN254 (2 elements
// per thread), Goldilocks (4) and the 31-bit fields (8; info.fsNarrowRL),
// "sh_" and "shi_" Goldilocks' DIF passes with radix-8 twiddles as shifts
// for the forward and inverse tables (info.fsShift), "tw_" the 31-bit
// fields' passes with twist tables (info.fsTwist), "r1s_" BN254's narrow
// kernels with the bottom pass compiled apart (info.fsSplit; in place
// only, like "tw_"). Goldilocks' "" kernels have no out-of-place twins.
type fsKey struct {
	kind string
	oop  bool
	nst  int
}

// narrowKind is the kernel name infix of the field's narrow kernels
// (fsNarrowRL).
func (f nttFieldInfo) narrowKind() string { return fmt.Sprintf("r%d_", f.fsNarrowRL) }

// splitKind is the kernel name infix of the field's narrow kernels with
// the bottom pass compiled apart (fsSplit).
func (f nttFieldInfo) splitKind() string { return fmt.Sprintf("r%ds_", f.fsNarrowRL) }

// hasKernel reports whether the field's program has the four-step kernel
// of kind and nst bits (of fsKinds' kinds, within fsMinNST..fsMaxNST).
func (f nttFieldInfo) hasKernel(kind string, nst int) bool {
	switch {
	case (kind == "sh_" || kind == "shi_") && nst > goldilocksSHMaxNST, kind == "tw_" && nst > twistMaxNST:
		return false
	case f.fsSplit[0] > 0 && kind == f.splitKind():
		return nst >= f.fsSplit[0] && nst <= f.fsSplit[1]
	}
	return true
}

// fsKinds returns the kernel kinds the field's program has, and whether
// each has out-of-place kernels.
func (f nttFieldInfo) fsKinds() map[string]bool {
	kinds := map[string]bool{"": !f.fsShift}
	if f.fsNarrowRL > 0 {
		kinds[f.narrowKind()] = true
	}
	if f.fsShift {
		kinds["sh_"], kinds["shi_"] = true, true
	}
	if f.fsTwist {
		kinds["tw_"] = false
	}
	if f.fsSplit[0] > 0 {
		kinds[f.splitKind()] = false
	}
	return kinds
}

// loadKernels returns the field's kernels on d, from its program (loaded
// once per device, by whichever caller comes first).
func loadKernels(d *gpu.Device, field string) (*nttKernels, error) {
	info := nttFields[field]
	m, err := d.Module(cuda.NTTProgram(field))
	if err != nil {
		return nil, err
	}
	k := &nttKernels{info: info, fs: map[fsKey]*gpu.Function{}}
	for _, p := range []struct {
		f    **gpu.Function
		name string
	}{{&k.pass, "pass"}, {&k.passReg, "pass_reg"}, {&k.bitrev, "bitrev"}, {&k.spreadK, spreadKernel(info)}, {&k.bitrevT, "bitrev_tiled"}} {
		if *p.f, err = m.Function("ntt_" + info.name + "_" + p.name); err != nil {
			return nil, err
		}
	}
	for _, f := range []*gpu.Function{k.pass, k.passReg} {
		if err := f.SetMaxDynamicSharedMem(k.maxShared()); err != nil {
			return nil, fmt.Errorf("primentt: %s NTT shared memory: %w", field, err)
		}
	}
	if err := k.bitrevT.SetMaxDynamicSharedMem(bitrevShared(info.bitrevB, k.elemSize())); err != nil {
		return nil, fmt.Errorf("primentt: %s bit reversal shared memory: %w", field, err)
	}
	if info.bitrevSmallB > 0 {
		if k.bitrevT4, err = m.Function("ntt_" + info.name + "_bitrev_tiled4"); err != nil {
			return nil, err
		}
	}
	for nst := info.fsMinNST; nst <= info.fsMaxNST; nst++ {
		for kind, oop := range info.fsKinds() {
			if !info.hasKernel(kind, nst) {
				continue
			}
			for _, key := range []fsKey{{kind, false, nst}, {kind, true, nst}} {
				if key.oop && !oop {
					continue
				}
				// Plans take up to fsSharedLimit (lonePlans, natPlan's
				// widened bottom pass).
				name, shared := fmt.Sprintf("ntt_%s_%sfs%d", info.name, kind, nst), k.fsSharedLimit(nst)
				if key.oop {
					name = fmt.Sprintf("ntt_%s_%soop_fs%d", info.name, kind, nst)
				}
				f, err := m.Function(name)
				if err != nil {
					return nil, err
				}
				if err := f.SetMaxDynamicSharedMem(shared); err != nil {
					return nil, fmt.Errorf("primentt: %s NTT shared memory: %w", info.name, err)
				}
				k.fs[key] = f
			}
		}
	}
	return k, nil
}

// spreadKernel names the LDE's spread kernel of the field: BN254's on
// 32-bit limbs (ntt_bn254_spread32), the generic one for the others.
func spreadKernel(info nttFieldInfo) string {
	if info.name == "bn254" {
		return "spread32"
	}
	return "spread"
}

// fsKernel returns the four-step kernel of pass p (its bits and elements
// per thread), in place or out of place (oop), or nil where none is
// loaded: a pass of the field's narrow width takes its narrow kernels;
// Goldilocks' other DIF passes take the shift kernels on the tables whose
// 8th root of unity is 2^sh8 they are compiled for (goldilocksSH8,
// goldilocksSH8Inv), and have no others out of place.
func (k *nttKernels) fsKernel(p nttPass, dit, oop bool, sh8 int) *gpu.Function {
	kind := ""
	switch {
	case k.info.fsNarrowRL > 0 && p.rl == k.info.fsNarrowRL:
		kind = k.info.narrowKind()
	case p.rl != k.info.fsRlog:
		return nil
	case k.info.fsShift && !dit && sh8 == goldilocksSH8 && p.nst <= goldilocksSHMaxNST:
		kind = "sh_"
	case k.info.fsShift && !dit && sh8 == goldilocksSH8Inv && p.nst <= goldilocksSHMaxNST:
		kind = "shi_"
	}
	if oop && dit {
		return nil
	}
	return k.fs[fsKey{kind, oop, p.nst}]
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
	return fsShared(nttPass{1, nst, logc, k.info.fsRlog}, k.info, k.elemSize())
}

// fsSharedLimit is the dynamic shared memory the four-step kernels of nst
// bits are given (SetMaxDynamicSharedMem): the largest pass planFS plans,
// and at least fsSharedCap, which measured plans (lonePlans) and natPlan's
// widened bottom passes may use.
func (k *nttKernels) fsSharedLimit(nst int) int { return max(k.fsMaxShared(nst), fsSharedCap) }

// fsSharedCap is the shared memory a pass of a measured plan may take
// beyond planFS's largest: the 48 KiB a kernel takes without asking.
// TestPlanSearch raises it (-gpu.plansearchshared) to time wider tiles.
var fsSharedCap = 48 << 10

// fsShared is the dynamic shared memory of a four-step pass: its tile and
// the inner transforms' twiddles (fsTwElems). A group's row holds 2^nst elements
// and one pad element (ntt_bn254_fs); the 31-bit fields' kernels (FS31,
// 4-byte elements) pad one element in 16 and, above the bottom pass, 2 more;
// Goldilocks' FS64 one in 16 in the bottom pass, one in 8 and 2 more
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

// fs64Row is the row stride (elements) of one group in FS64's shared
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
		out = append(out, nttPass{lo, nst, logc, min(f.fsRlog, nst)})
		lo += nst
	}
	return out
}

// planWide returns the four-step passes for transforms of few columns, or
// nil where they are planFS's: planFS's passes with fewer groups per tile
// (down to 32 threads a block) until each pass has at least sms blocks per
// column, so that a lone column of 2^13..2^18 keeps the multiprocessors
// busy instead of a few of them. Transforms of one tile take two such
// passes instead of the one-block pass (not BN254, whose four-step
// constants exist above one tile only).
func planWide(logn int, f nttFieldInfo, sms int) []nttPass {
	if logn < 2*f.fsMinNST || (logn <= f.logTile && f.name == "bn254") {
		return nil
	}
	base := planFS(logn, f)
	if base == nil {
		return nil
	}
	out := slices.Clone(base)
	changed := logn <= f.logTile
	for i := range out {
		p := &out[i]
		rl := p.rl
		for p.logc > 0 && 1<<(logn-p.nst-p.logc) < sms && p.nst+p.logc-1-rl >= 5 {
			p.logc--
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return out
}

// lonePlans are the fastest four-step passes measured for a lone column of
// 2^12..2^20 on an H100 (TestPlanSearch, -gpu.plansearch: every cut into
// two or three passes and every tile width the kernels take, ranked by
// the forward and inverse DIF times, with the programmatic dependent
// launches and lateTrigger's trigger; BENCHMARKS.md). Goldilocks and the
// 31-bit fields take wider tiles than planWide's, which aims at a block
// for every multiprocessor (1.1–1.6× faster); BN254 takes its narrow
// kernels (2 elements per thread: a pass there is bound by the latency of
// each thread's chain of products; 1.2–2.0× faster up to 2^17, 1.03–1.06×
// at 2^18 and 2^20; a later search at 2^19 and 2^20 over the cuts whose
// passes differ by at most one bit found wider tiles in the 4-element
// kernels: 125.2 -> 118.5 us and 260.6 -> 252.6 us forward). Above 2^20
// (an H200, the same search over the cuts whose passes differ by at most
// one bit): Goldilocks
// 2^21 and 2^22 in three passes of 7–8 bits instead of two of 10–11
// (61.7 -> 57.7 us, 125.8 -> 117.3 us), BN254 2^21 and 2^22 with 8 groups
// in the 7-bit passes (492.7 -> 476.3 us, 990.2 -> 963.4 us), 2^23 with
// its 7-bit pass at the bottom (an H100: 1954 -> 1894 us), the 31-bit
// fields' 2^25 with its 9-bit pass on top and 2^26 with 8 groups in the
// lower passes (H100: 383.5 -> 375.8 us, 794.2 -> 779.6 us; at 2^24 the
// best H200 plan lost on the H100 and planFS stays). BN254 2^13, 2^15,
// 2^16 and 2^18 searched again with the trigger as a dimension (H100,
// forward DIF: 17.4 -> 15.0, 15.7 -> 15.3, 23.2 -> 22.1, 65.7 -> 62.8 us,
// all triggering early). The 31-bit fields' 2^12..2^20 searched again
// with their narrow kernels (8 elements per thread, r3_; H100, forward +
// inverse DIF: 2^12 13.3 -> 10.2 us, 2^13 12.0 -> 10.7, 2^14 12.1 ->
// 11.2, 2^17 18.3 -> 17.1, 2^18 17.6 -> 15.7, 2^19 29.2 -> 21.8, 2^20
// 37.0 -> 31.0; 2^21..2^26 found none faster); Goldilocks' 2^13..2^17
// with its narrow kernels (4 elements per thread, r2_, no radix-8 shifts;
// 2^13 14.3 -> 12.7 us, 2^14 15.1 -> 13.6, 2^15 16.7 -> 15.6, 2^16 18.7
// -> 16.8, 2^17 27.5 -> 20.4; 2^18, 2^21 and 2^22 found none faster),
// then its 2^12 and 2^19 (2^12 14.2 -> 12.0 us; 2^19 39.5 -> 37.5, its
// passes no longer triggering late; 2^20 found none faster). BN254's
// 2^12..2^23 searched again once its middle rounds ran as a loop
// (ntt_bn254.cu): 2^13 26.7 -> 26.0 us, the rest kept their plans. With
// the twist tables (twistKeys: passes of up to 8 bits), the 31-bit
// fields' 2^26 takes an 8-bit middle pass, which has one, between 9-bit
// ones (H200, forward DIF: 0.760 -> 0.747 ms).
// planFor takes them for one column and for few columns, in every
// direction, order and coset (TestLonePlansGPU checks each against
// gnark-crypto). Keyed by fsKernels:
// KoalaBear runs BabyBear's kernels.
var lonePlans = map[string]map[int][]nttPass{
	"goldilocks": {
		12: {{0, 6, 3, 2}, {6, 6, 3, 2}},
		13: {{0, 7, 2, 2}, {7, 6, 2, 2}},
		14: {{0, 8, 1, 2}, {8, 6, 3, 2}},
		15: {{0, 8, 2, 2}, {8, 7, 3, 3}},
		16: {{0, 8, 1, 2}, {8, 8, 1, 2}},
		17: {{0, 10, 0, 2}, {10, 7, 3, 2}},
		18: {{0, 9, 2, 3}, {9, 9, 2, 3}},
		19: {{0, 10, 1, 3}, {10, 9, 2, 3}},
		20: {{0, 11, 1, 3}, {11, 9, 2, 3}},
		21: {{0, 7, 4, 3}, {7, 7, 3, 3}, {14, 7, 3, 3}},
		22: {{0, 7, 3, 3}, {7, 7, 3, 3}, {14, 8, 3, 3}},
	},
	"bn254": {
		12: {{0, 6, 0, 1}, {6, 6, 2, 1}},
		13: {{0, 7, 1, 1}, {7, 6, 2, 1}},
		14: {{0, 7, 0, 1}, {7, 7, 1, 1}},
		15: {{0, 5, 2, 1}, {5, 5, 2, 1}, {10, 5, 2, 1}},
		16: {{0, 8, 1, 1}, {8, 8, 1, 1}},
		17: {{0, 6, 2, 1}, {6, 5, 3, 1}, {11, 6, 2, 1}},
		18: {{0, 6, 2, 1}, {6, 6, 2, 1}, {12, 6, 2, 1}},
		19: {{0, 6, 3, 2}, {6, 7, 3, 2}, {13, 6, 4, 2}},
		20: {{0, 6, 2, 1}, {6, 7, 3, 2}, {13, 7, 3, 2}},
		21: {{0, 7, 3, 2}, {7, 7, 3, 2}, {14, 7, 3, 2}},
		22: {{0, 8, 2, 2}, {8, 7, 3, 2}, {15, 7, 3, 2}},
		23: {{0, 7, 3, 2}, {7, 8, 2, 2}, {15, 8, 2, 2}},
	},
	"fs31": {
		12: {{0, 6, 3, 3}, {6, 6, 3, 3}},
		13: {{0, 7, 3, 3}, {7, 6, 4, 3}},
		14: {{0, 8, 2, 3}, {8, 6, 4, 3}},
		15: {{0, 8, 2, 3}, {8, 7, 4, 4}},
		16: {{0, 8, 3, 4}, {8, 8, 3, 4}},
		17: {{0, 8, 4, 4}, {8, 9, 3, 3}},
		18: {{0, 6, 4, 3}, {6, 6, 4, 3}, {12, 6, 4, 3}},
		19: {{0, 7, 5, 3}, {7, 6, 4, 3}, {13, 6, 4, 3}},
		20: {{0, 6, 4, 3}, {6, 7, 4, 4}, {13, 7, 4, 4}},
		25: {{0, 8, 3, 4}, {8, 8, 4, 4}, {16, 9, 4, 4}},
		26: {{0, 9, 3, 4}, {9, 8, 4, 4}, {17, 9, 4, 4}},
	},
}

// loneNatPlans are the plans natural order takes for a lone column where
// lonePlans' are not its fastest (TestPlanSearch -gpu.plansearchnatural:
// the DIF passes out of place, the bottom pass writing natural order; H100,
// forward and inverse): BN254 2^19 in BN254's narrow kernels, 130.0 and
// 137.0 us, where lonePlans' 2^19 plan (118.5 and 122.0 us in DIF order)
// took the bit reversal after it (about 150 us), and BN254 2^20 keeping
// the plan that was lonePlans' before the DIF search of this size found a
// faster one (natural order 251.2 and 264.8 us). planFor takes them for
// few columns in natural order; TestLonePlansGPU checks them.
var loneNatPlans = map[string]map[int][]nttPass{
	"bn254": {
		19: {{0, 6, 2, 1}, {6, 7, 2, 1}, {13, 6, 2, 1}},
		20: {{0, 7, 1, 1}, {7, 7, 2, 1}, {14, 6, 2, 1}},
	},
}

// lateTrigger names the lone-column plans whose passes let the next kernel
// start only at their end (F_PDL_LATE): every kernel of a transform is a
// programmatic dependent launch (launchNTT), and a pass lets the next one
// start from its own start by default, which hides the gap between them
// (H100, one column, forward and inverse, DIF and natural: Goldilocks
// 2^12..2^17 7.8–14.0 -> 6.6–12.7 us, BabyBear 2^13 11.5 -> 9.5, 2^15
// 12.0 -> 7.3, BN254 2^12..2^14 0.4–1.3 us less). Where the next pass has
// a block or two per multiprocessor, its blocks started early crowd onto
// the multiprocessors that had room and it runs slower; these plans
// trigger at their end instead (BN254 2^17; Goldilocks 2^19 did, 23.8 ->
// 19.7 us, until a plan that triggers early measured faster; BENCHMARKS.md).
var lateTrigger = map[string]map[int]bool{
	"bn254": {17: true},
}

// fsKernels names the four-step kernels a field runs (lonePlans' key): the
// 31-bit fields share theirs.
func (f nttFieldInfo) fsKernels() string {
	if f.name == "babybear" || f.name == "koalabear" {
		return "fs31"
	}
	return f.name
}

// planBlocks returns the blocks per column of the plan's narrowest pass.
func planBlocks(plan []nttPass, logn int) int {
	b := 1 << logn
	for _, p := range plan {
		b = min(b, 1<<(logn-p.nst-p.logc))
	}
	return b
}

// nttPass is one launch: butterflies on index bits [lo, lo+nst), 2^logc
// groups per tile, 2^rl elements per thread (the field's fsRlog, or its
// narrow kernels' fsNarrowRL).
type nttPass struct{ lo, nst, logc, rl int }
