package fri

import (
	"fmt"
	"math"
	"math/bits"
)

// Field names a trace field for the soundness calculator and its presets;
// its challenge field is the one of package prover's Ext table.
type Field int

const (
	GF64       Field = iota // challenge field GF(2^128): 128 bits
	Goldilocks              // Goldilocks² (E2): 2·log2(p) ≈ 128 bits
	BabyBear                // BabyBear⁴ (E4): 4·log2(p) ≈ 123.6 bits
	KoalaBear               // KoalaBear⁴ (E4): 4·log2(p) ≈ 124.0 bits
	BN254                   // fr itself: log2(r) ≈ 253.6 bits
)

func (f Field) String() string {
	switch f {
	case GF64:
		return "gf64"
	case Goldilocks:
		return "goldilocks"
	case BabyBear:
		return "babybear"
	case KoalaBear:
		return "koalabear"
	case BN254:
		return "bn254"
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// ExtBits returns log2 of the size of f's challenge field (0 for an
// unknown f).
func (f Field) ExtBits() float64 {
	switch f {
	case GF64:
		return 128
	case Goldilocks:
		return 2 * math.Log2(18446744069414584321) // 2^64 − 2^32 + 1
	case BabyBear:
		return 4 * math.Log2(2013265921) // 15·2^27 + 1
	case KoalaBear:
		return 4 * math.Log2(2130706433) // 2^31 − 2^24 + 1
	case BN254:
		return 253.59 // log2 r, r ≈ 2^253.59
	}
	return 0
}

// MinBits is the floor Check enforces unless Params.AllowInsecure is set.
const MinBits = 80

// Params are the parameters of one FRI instance, the inputs of the
// soundness calculator.
type Params struct {
	// LogBlowup is log2(1/ρ), ρ the code rate: the first layer has
	// 2^(LogDegree+LogBlowup) entries. At least 1.
	LogBlowup int
	// LogDegree is log2 of the degree bound of the committed polynomial
	// (the number of trace rows, for a trace column).
	LogDegree int
	// Arities are the folds of the rounds, each 2, 4, 8 or 16; they must
	// bring the degree bound from 2^LogDegree to 2^LogFinalDegree.
	Arities []int
	// LogFinalDegree is log2 of the degree bound of the final polynomial,
	// sent in the clear.
	LogFinalDegree int
	// Queries is the number of query repetitions.
	Queries int
	// GrindingBits is the proof of work demanded before the query indices
	// are drawn.
	GrindingBits int
	// ExtBits is log2 of the challenge field's size (Field.ExtBits).
	ExtBits float64
	// AllowInsecure lets Check accept parameters below MinBits (tests,
	// benchmarks of small instances).
	AllowInsecure bool
}

// Validate returns an error wrapping ErrParams if p is inconsistent.
func (p Params) Validate() error {
	switch {
	case p.LogBlowup < 1 || p.LogBlowup > 32:
		return fmt.Errorf("fri: log blowup %d, want 1 … 32: %w", p.LogBlowup, ErrParams)
	case p.LogDegree < 0 || p.LogDegree+p.LogBlowup > 62:
		return fmt.Errorf("fri: log degree %d with log blowup %d: %w", p.LogDegree, p.LogBlowup, ErrParams)
	case p.Queries < 1 || p.Queries > 1<<16:
		return fmt.Errorf("fri: %d queries: %w", p.Queries, ErrParams)
	case p.GrindingBits < 0 || p.GrindingBits > 64:
		return fmt.Errorf("fri: %d grinding bits: %w", p.GrindingBits, ErrParams)
	case !(p.ExtBits > 0) || p.ExtBits > 1024:
		return fmt.Errorf("fri: challenge field of %v bits: %w", p.ExtBits, ErrParams)
	case p.LogFinalDegree < 0:
		return fmt.Errorf("fri: log final degree %d: %w", p.LogFinalDegree, ErrParams)
	}
	d := p.LogDegree
	for i, a := range p.Arities {
		if a != 2 && a != 4 && a != 8 && a != 16 {
			return fmt.Errorf("fri: arity %d of round %d: %w: %w", a, i, ErrArity, ErrParams)
		}
		d -= bits.TrailingZeros(uint(a))
	}
	if d != p.LogFinalDegree {
		return fmt.Errorf("fri: arities %v fold degree 2^%d to 2^%d, not the final degree 2^%d: %w", p.Arities, p.LogDegree, d, p.LogFinalDegree, ErrParams)
	}
	return nil
}

// QueryBits is the query phase's conjectured security: Queries·LogBlowup +
// GrindingBits, each query failing with probability ρ under the conjecture.
func (p Params) QueryBits() float64 {
	return float64(p.Queries*p.LogBlowup + p.GrindingBits)
}

// ConjecturedBits is the security under the ethSTARK conjecture (the
// "toy problem" conjecture of the ethSTARK documentation, IACR eprint
// 2021/582, §5.10): a word far from the code passes a query with
// probability about ρ, so
//
//	bits = min(Queries·LogBlowup + GrindingBits, ExtBits − log2 n₀),
//
// n₀ = 2^(LogDegree+LogBlowup) the first layer's size. The first term is
// Plonky3's FriParameters::conjectured_soundness_bits (log_blowup ·
// num_queries + proof_of_work_bits); the field cap has the shape of
// winterfell's get_conjectured_security (field bits less log2 of the LDE
// domain), which RISC Zero's and ethSTARK's estimates share: the commit
// phase's challenges cannot beat the size of the field they are drawn
// from. Unlike winterfell no bit is subtracted and grinding counts at
// every level. The hash function's collision resistance is the caller's
// to add.
func (p Params) ConjecturedBits() float64 {
	return min(p.QueryBits(), p.ExtBits-float64(p.LogDegree+p.LogBlowup))
}

// layerSizes returns log2 of each round's input layer size.
func (p Params) layerSizes() []int {
	n := p.LogDegree + p.LogBlowup
	out := make([]int, len(p.Arities))
	for i, a := range p.Arities {
		out[i] = n
		n -= bits.TrailingZeros(uint(a))
	}
	return out
}

// log2Sum returns log2(Σ 2^e) for the exponents e, without underflow.
func log2Sum(es ...float64) float64 {
	mx := math.Inf(-1)
	for _, e := range es {
		mx = max(mx, e)
	}
	var s float64
	for _, e := range es {
		s += math.Exp2(e - mx)
	}
	return mx + math.Log2(s)
}

// UniqueDecodingBits is the proven security of FRI in the unique decoding
// regime, proximity θ = (1 − ρ)/2:
//
//	ε = Σ_rounds (a_i − 1)·n_i/|F|  +  ((1 + ρ)/2)^Queries · 2^(−GrindingBits),
//
// the commit phase through the proximity gaps of Ben-Sasson, Carmon,
// Ishai, Kopparty and Saraf (BCIKS20, eprint 2020/654, Theorem 1.2 for a
// curve of degree a_i − 1, as the folding with powers β^k is), n_i the size
// of round i's input layer, and the query phase by the distance θ. It
// returns −log2 ε. This is the FRI part only: the DEEP and batching errors
// of the protocol around it are the caller's to add.
func (p Params) UniqueDecodingBits() float64 {
	rho := math.Exp2(-float64(p.LogBlowup))
	terms := []float64{float64(p.Queries)*math.Log2((1+rho)/2) - float64(p.GrindingBits)}
	for i, ln := range p.layerSizes() {
		terms = append(terms, math.Log2(float64(p.Arities[i]-1))+float64(ln)-p.ExtBits)
	}
	return -log2Sum(terms...)
}

// johnsonBits is JohnsonBits for one Johnson parameter m ≥ 3.
func (p Params) johnsonBits(m float64) float64 {
	rho := math.Exp2(-float64(p.LogBlowup))
	sq := math.Sqrt(rho) * (1 + 1/(2*m)) // 1 − θ
	terms := []float64{float64(p.Queries)*math.Log2(sq) - float64(p.GrindingBits)}
	lc := 7*math.Log2(m+0.5) - math.Log2(3) - 1.5*math.Log2(rho)
	for i, ln := range p.layerSizes() {
		terms = append(terms, math.Log2(float64(p.Arities[i]-1))+lc+2*float64(ln)-p.ExtBits)
	}
	return -log2Sum(terms...)
}

// JohnsonBits is the proven security of FRI in the list-decoding regime up
// to the Johnson bound, proximity θ = 1 − √ρ·(1 + 1/(2m)) for m ≥ 3:
//
//	ε = Σ_rounds (a_i − 1)·(m + ½)^7/(3·ρ^(3/2)) · n_i²/|F|  +  (√ρ·(1 + 1/(2m)))^Queries · 2^(−GrindingBits),
//
// the commit phase by BCIKS20 Theorem 1.5 (the bound the ethSTARK
// documentation, §5, and the RISC Zero and ethereum/soundcalc calculators'
// Johnson-bound regime use), maximised over the integers m in [3, 256].
// It returns −log2 ε, the FRI part only.
func (p Params) JohnsonBits() float64 {
	best := math.Inf(-1)
	for m := 3; m <= 256; m++ {
		best = max(best, p.johnsonBits(float64(m)))
	}
	return best
}

// ProvenBits is the better of UniqueDecodingBits and JohnsonBits.
func (p Params) ProvenBits() float64 {
	return max(p.UniqueDecodingBits(), p.JohnsonBits())
}

// Check returns nil if p is valid and its ConjecturedBits reach minBits
// and MinBits; AllowInsecure waives MinBits (not minBits). The errors wrap
// ErrParams.
func (p Params) Check(minBits float64) error {
	if err := p.Validate(); err != nil {
		return err
	}
	got := p.ConjecturedBits()
	if got < MinBits && !p.AllowInsecure {
		return fmt.Errorf("fri: %.1f conjectured bits, below the floor of %d (set AllowInsecure to accept): %w", got, MinBits, ErrParams)
	}
	if got < minBits {
		return fmt.Errorf("fri: %.1f conjectured bits, %.1f required: %w", got, minBits, ErrParams)
	}
	return nil
}

// PresetGrindingBits is the proof of work of the presets.
const PresetGrindingBits = 16

// presetLogFinal is log2 of the presets' final degree bound.
const presetLogFinal = 3

// Preset returns parameters reaching bits conjectured bits for a
// polynomial of degree < 2^logDegree over f with blowup 2^logBlowup:
// GrindingBits = 16, Queries = ⌈(bits − 16)/logBlowup⌉, folds by 16 while
// they fit, then one of 8, 4 or 2, down to a final degree bound of 8 (or
// 2^logDegree if smaller), and ExtBits = f.ExtBits(). bits must be at least
// MinBits. When the field caps ConjecturedBits below bits (128 bits with
// BabyBear⁴, KoalaBear⁴, Goldilocks² or GF(2^128), whose challenge fields
// have at most 128 bits less log2 n₀) it returns an error wrapping
// ErrParams rather than weaker parameters.
func Preset(f Field, bits, logBlowup, logDegree int) (Params, error) {
	ext := f.ExtBits()
	if ext == 0 {
		return Params{}, fmt.Errorf("fri: unknown field %v: %w", f, ErrParams)
	}
	if bits < MinBits {
		return Params{}, fmt.Errorf("fri: preset of %d bits, below the floor of %d: %w", bits, MinBits, ErrParams)
	}
	if logBlowup < 1 {
		return Params{}, fmt.Errorf("fri: log blowup %d: %w", logBlowup, ErrParams)
	}
	p := Params{
		LogBlowup:      logBlowup,
		LogDegree:      logDegree,
		LogFinalDegree: min(presetLogFinal, max(logDegree, 0)),
		Queries:        (max(bits-PresetGrindingBits, 1) + logBlowup - 1) / logBlowup,
		GrindingBits:   PresetGrindingBits,
		ExtBits:        ext,
	}
	for d := logDegree - p.LogFinalDegree; d > 0; {
		s := min(d, 4)
		p.Arities = append(p.Arities, 1<<s)
		d -= s
	}
	if err := p.Check(float64(bits)); err != nil {
		return Params{}, fmt.Errorf("fri: no %d-bit preset for %v with blowup 2^%d and degree 2^%d: %w", bits, f, logBlowup, logDegree, err)
	}
	return p, nil
}
