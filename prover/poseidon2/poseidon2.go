package poseidon2

//go:generate sh -c "cd _gen && go run . -constants > ../constants_plonky3.go && go run . -asm 31 > ../kernels31_amd64.s && go run . -asm goldilocks > ../kernelsgl_amd64.s"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
)

// Element is the set of field element types a permutation works on:
// gnark-crypto's BabyBear, KoalaBear and Goldilocks elements, in their own
// Montgomery form.
type Element interface {
	babybear.Element | koalabear.Element | goldilocks.Element
}

// Preset names a family of parameters (round numbers, round constants,
// matrices). The package doc lists every preset with its source.
type Preset int

const (
	// Plonky3 is Plonky3's Poseidon2: the round numbers of
	// poseidon2_round_numbers_128, the literal round-constant tables of
	// default_<field>_poseidon2_<width>, MDSMat4 and Plonky3's internal
	// diagonals.
	Plonky3 Preset = iota + 1
	// Gnark is gnark-crypto's Poseidon2 (field/<field>/poseidon2):
	// NewParameters(width, rounds…) with its round numbers and the round
	// keys it derives from its seed.
	Gnark
)

func (p Preset) String() string {
	switch p {
	case Plonky3:
		return "Plonky3"
	case Gnark:
		return "gnark-crypto"
	}
	return fmt.Sprintf("Preset(%d)", int(p))
}

// MDS4 names the 4×4 block M4 of the external matrix circ(2·M4, M4, …, M4).
type MDS4 int

const (
	// MDSMat4 is [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (Plonky3's
	// MDSMat4; gnark-crypto's BabyBear and KoalaBear).
	MDSMat4 MDS4 = iota + 1
	// HLMDSMat4 is [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]] (the Poseidon2
	// paper's appendix B and Horizen Labs; gnark-crypto's Goldilocks).
	HLMDSMat4
)

// Errors callers branch on; every error of the package wraps one of them.
var (
	ErrWidth  = errors.New("poseidon2: unsupported width")
	ErrPreset = errors.New("poseidon2: unknown preset")
	ErrParams = errors.New("poseidon2: invalid parameters")
	ErrLength = errors.New("poseidon2: wrong length")
)

// Params is one Poseidon2 instance: the permutation is
//
//	x ← M_E·x
//	R_F/2 times: x ← M_E·(x + c_r)^d      (c_r: ExternalConstants[r])
//	R_P times:   x_0 ← (x_0 + k_r)^d, x ← M_I·x   (k_r: InternalConstants[r])
//	R_F/2 times: x ← M_E·(x + c_r)^d
//
// with M_E = circ(2·M4, M4, …, M4) (M4 chosen by MDS) and M_I = J + diag(V),
// J the all-ones matrix and V = InternalDiag, so (M_I·x)_i = V_i·x_i + Σx.
type Params[E Element] struct {
	Width         int // t: a multiple of 4 from 4 to 32
	FullRounds    int // R_F, even, at least 2
	PartialRounds int // R_P, at least 0
	SBoxDegree    int // d: 7 for BabyBear and Goldilocks, 3 for KoalaBear
	MDS           MDS4
	InternalDiag  []E // V, Width elements

	// ExternalConstants holds R_F rows of Width elements: the R_F/2 initial
	// rounds, then the R_F/2 final rounds.
	ExternalConstants [][]E
	InternalConstants []E // R_P elements, added to x_0
}

// Option configures a Permutation.
type Option func(*config) error

type config struct{ workers int }

// WithWorkers sets how many goroutines the batch methods (PermuteBatch and
// the batch methods of Sponge and Compression) use, the calling one among
// them; the default is runtime.GOMAXPROCS(0) at the time of the call.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: %d workers", ErrParams, n)
		}
		c.workers = n
		return nil
	}
}

// Permutation is a Poseidon2 permutation over E. It is immutable once built
// and safe for concurrent use.
type Permutation[E Element] struct {
	params   Params[E]
	preset   Preset // 0 for NewWithParams
	nworkers int    // 0: GOMAXPROCS

	f31 *perm31 // BabyBear and KoalaBear
	gl  *permGL // Goldilocks

	// gnark is gnark-crypto's own permutation of one state, for the Gnark
	// presets where it is the fastest single-state path (BabyBear and
	// KoalaBear on AVX-512); nil otherwise.
	gnark func(state []E)
}

// New returns the permutation of preset at width: 16 or 24 for BabyBear and
// KoalaBear, 8 or 12 for Goldilocks.
func New[E Element](preset Preset, width int, opts ...Option) (*Permutation[E], error) {
	prm, err := PresetParams[E](preset, width)
	if err != nil {
		return nil, err
	}
	p, err := build(prm, opts)
	if err != nil {
		return nil, err
	}
	p.preset = preset
	if preset == Gnark && haveKernel && fieldOf[E]() != fieldGoldilocks {
		// gnark-crypto permutes one BabyBear or KoalaBear state in AVX-512
		// registers, faster than one lane of the 16-lane kernel; its
		// Goldilocks permutation is slower than this package's.
		p.gnark = gnarkPermutation[E](width)
	}
	return p, nil
}

// NewWithParams returns the permutation of prm (which it copies), after
// checking its shape: widths, round numbers, lengths, the S-box degree of
// the field, elements in canonical Montgomery form.
func NewWithParams[E Element](prm Params[E], opts ...Option) (*Permutation[E], error) {
	return build(cloneParams(prm), opts)
}

func build[E Element](prm Params[E], opts []Option) (*Permutation[E], error) {
	var c config
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if err := check(prm); err != nil {
		return nil, err
	}
	p := &Permutation[E]{params: prm, nworkers: c.workers}
	if fieldOf[E]() == fieldGoldilocks {
		p.gl = newPermGL(asU64(prm.InternalDiag), flatten(prm.ExternalConstants, asU64[E]),
			asU64(prm.InternalConstants), prm.FullRounds/2, prm.MDS == HLMDSMat4)
	} else {
		p.f31 = newPerm31(modulus31[E](), prm.SBoxDegree, asU32(prm.InternalDiag),
			flatten(prm.ExternalConstants, asU32[E]), asU32(prm.InternalConstants),
			prm.FullRounds/2, prm.MDS == HLMDSMat4)
	}
	return p, nil
}

// check validates prm against its field.
func check[E Element](prm Params[E]) error {
	w := prm.Width
	if w < 4 || w > 32 || w%4 != 0 {
		return fmt.Errorf("%w: %d (a multiple of 4 from 4 to 32)", ErrWidth, w)
	}
	if prm.FullRounds < 2 || prm.FullRounds%2 != 0 || prm.PartialRounds < 0 {
		return fmt.Errorf("%w: %d full and %d partial rounds", ErrParams, prm.FullRounds, prm.PartialRounds)
	}
	if d := sboxDegree[E](); prm.SBoxDegree != d {
		return fmt.Errorf("%w: S-box degree %d (this field's is %d)", ErrParams, prm.SBoxDegree, d)
	}
	if prm.MDS != MDSMat4 && prm.MDS != HLMDSMat4 {
		return fmt.Errorf("%w: MDS %d", ErrParams, prm.MDS)
	}
	if len(prm.InternalDiag) != w || len(prm.InternalConstants) != prm.PartialRounds ||
		len(prm.ExternalConstants) != prm.FullRounds {
		return fmt.Errorf("%w: %d diagonal entries, %d internal constants, %d external rounds for width %d, %d+%d rounds",
			ErrParams, len(prm.InternalDiag), len(prm.InternalConstants), len(prm.ExternalConstants),
			w, prm.FullRounds, prm.PartialRounds)
	}
	for r, row := range prm.ExternalConstants {
		if len(row) != w {
			return fmt.Errorf("%w: external round %d has %d constants for width %d", ErrParams, r, len(row), w)
		}
		if !canonical(row) {
			return fmt.Errorf("%w: external round %d holds an element out of range", ErrParams, r)
		}
	}
	if !canonical(prm.InternalDiag) || !canonical(prm.InternalConstants) {
		return fmt.Errorf("%w: an element out of range", ErrParams)
	}
	return nil
}

// Width returns the number of elements of a state.
func (p *Permutation[E]) Width() int { return p.params.Width }

// Preset returns the preset p was built from, 0 for NewWithParams.
func (p *Permutation[E]) Preset() Preset { return p.preset }

// Params returns a copy of p's parameters.
func (p *Permutation[E]) Params() Params[E] { return cloneParams(p.params) }

// Permute applies the permutation to state in place; state must hold Width
// elements.
func (p *Permutation[E]) Permute(state []E) error {
	if len(state) != p.params.Width {
		return fmt.Errorf("%w: state of %d elements for width %d", ErrLength, len(state), p.params.Width)
	}
	p.permuteOne(state)
	return nil
}

// PermuteBatch applies the permutation in place to each of the
// len(states)/Width states laid end to end in states, spread over the
// workers (16 states at a time per core where the CPU has AVX-512).
func (p *Permutation[E]) PermuteBatch(states []E) error {
	w := p.params.Width
	if len(states)%w != 0 {
		return fmt.Errorf("%w: %d elements is not a whole number of states of width %d", ErrLength, len(states), w)
	}
	if n := len(states) / w; p.pieces(n) > 1 {
		spread(n, batchGrain, p.workers(), func(lo, hi int) { p.permuteMany(states[lo*w : hi*w]) })
		return nil
	}
	p.permuteMany(states)
	return nil
}

// pieces is the number of pieces the batch methods cut n items into: one
// (the work stays on the calling goroutine, and nothing escapes to the
// heap) with one worker.
func (p *Permutation[E]) pieces(n int) int {
	if p.workers() == 1 {
		return 1
	}
	return (n + batchGrain - 1) / batchGrain
}

func (p *Permutation[E]) workers() int {
	if p.nworkers > 0 {
		return p.nworkers
	}
	return runtime.GOMAXPROCS(0)
}

// permuteOne permutes one state of Width elements.
func (p *Permutation[E]) permuteOne(s []E) {
	switch {
	case p.gnark != nil:
		p.gnark(s)
	case p.f31 != nil && p.f31.lanes():
		p.f31.permuteRows(asU32(s)) // one lane of the kernel beats the Go code
	case p.f31 != nil:
		p.f31.permute(asU32(s))
	default:
		p.gl.permute(asU64(s))
	}
}

// permuteMany permutes the states of s on the calling goroutine.
func (p *Permutation[E]) permuteMany(s []E) {
	if p.f31 != nil && p.f31.lanes() {
		p.f31.permuteRows(asU32(s))
		return
	}
	if p.gl != nil && p.gl.lanes() {
		p.gl.permuteRows(asU64(s))
		return
	}
	w := p.params.Width
	for i := 0; i < len(s); i += w {
		p.permuteOne(s[i : i+w])
	}
}

type field int

const (
	fieldBabyBear field = iota
	fieldKoalaBear
	fieldGoldilocks
)

func fieldOf[E Element]() field {
	var z E
	switch any(z).(type) {
	case babybear.Element:
		return fieldBabyBear
	case koalabear.Element:
		return fieldKoalaBear
	}
	return fieldGoldilocks
}

// DigestSize returns the number of elements of the standard digest over E,
// the one Plonky3's configurations use: 8 for BabyBear and KoalaBear (248
// bits), 4 for Goldilocks (256 bits).
func DigestSize[E Element]() int {
	if fieldOf[E]() == fieldGoldilocks {
		return 4
	}
	return 8
}

func sboxDegree[E Element]() int {
	if fieldOf[E]() == fieldKoalaBear {
		return 3
	}
	return 7
}

// The moduli (TestModuli compares them with gnark-crypto's).
const (
	pBabyBear   = 1<<31 - 1<<27 + 1
	pKoalaBear  = 1<<31 - 1<<24 + 1
	pGoldilocks = 1<<64 - 1<<32 + 1
)

func modulus31[E Element]() uint32 {
	if fieldOf[E]() == fieldBabyBear {
		return pBabyBear
	}
	return pKoalaBear
}

// canonical reports whether every element of v is below the modulus (its
// Montgomery word, as gnark-crypto keeps it).
func canonical[E Element](v []E) bool {
	if fieldOf[E]() == fieldGoldilocks {
		for _, x := range asU64(v) {
			if x >= pGoldilocks {
				return false
			}
		}
		return true
	}
	q := modulus31[E]()
	for _, x := range asU32(v) {
		if x >= q {
			return false
		}
	}
	return true
}

// asU32 views BabyBear or KoalaBear elements ([1]uint32 each) as their
// Montgomery words.
func asU32[E Element](v []E) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// asU64 views Goldilocks elements ([1]uint64 each) as their Montgomery
// words.
func asU64[E Element](v []E) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// asGL views Goldilocks elements as goldilocks.Element.
func asGL[E Element](v []E) []goldilocks.Element {
	return unsafe.Slice((*goldilocks.Element)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

func flatten[E Element, T any](rows [][]E, view func([]E) []T) []T {
	var out []T
	for _, r := range rows {
		out = append(out, view(r)...)
	}
	return out
}

func cloneParams[E Element](prm Params[E]) Params[E] {
	c := prm
	c.InternalDiag = append([]E(nil), prm.InternalDiag...)
	c.InternalConstants = append([]E(nil), prm.InternalConstants...)
	c.ExternalConstants = make([][]E, len(prm.ExternalConstants))
	for i, r := range prm.ExternalConstants {
		c.ExternalConstants[i] = append([]E(nil), r...)
	}
	return c
}
