package fri

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// MaxLogFinalDegree bounds Config.LogFinalDegree: the final polynomial is
// interpolated and checked in O(D²) operations, D = 2^LogFinalDegree.
const MaxLogFinalDegree = 10

// Config is what prover and verifier agree on before a proof: the code, the
// folding, the queries and the hashes. The same Config (and the same
// transcript) must be given to Open and Verify.
type Config struct {
	// LogBlowup is log2 of the commitments' blowup (1/ρ), 1 … 4: every
	// committed LDE holds 2^(LogRows+LogBlowup) rows.
	LogBlowup int
	// Arity is the largest fold per round, 2, 4, 8 or 16. The schedule
	// (Schedule) folds by Arity while it can, and by less where a
	// commitment of a smaller height or the final degree comes first.
	Arity int
	// LogFinalDegree is log2 of the degree bound of the final polynomial,
	// sent in the clear (0 … MaxLogFinalDegree), at most the smallest
	// commitment's LogRows.
	LogFinalDegree int
	// Queries is the number of query repetitions.
	Queries int
	// GrindingBits is the proof of work done before the queries are drawn
	// (0 … 32).
	GrindingBits int
	// Merkle is how the layers' trees hash: the zero Hasher is SHA-256,
	// merkle.NewHasher another byte hash, merkle.Poseidon2 a field hash
	// over the layers' coordinates (BabyBear, KoalaBear, Goldilocks). The
	// commitments' openings are checked with it too, so it must be the one
	// their encoder used (prover.WithMerkle, prover.WithHash).
	Merkle merkle.Hasher
	// BinaryDomains gives the codeword subspace of a GF(2^64) commitment of
	// 2^logRows trace rows (the signature of prover.BinaryDomains; nil
	// means prover.DefaultBinaryDomains, whose codeword subspaces
	// DefaultCodeword returns). Ignored for prime fields, whose domains
	// are gnark-crypto's (see the package documentation).
	BinaryDomains func(logRows, logBlowup int) (message, codeword *domain.Subspace, err error)
	// Bits, when positive, is the conjectured security the Config is for
	// (NewConfig sets it): Open and Verify refuse a statement for which the
	// parameters give fewer bits (the challenge field's bound, ExtBits −
	// log2 of the largest codeword, falls as the trace grows).
	Bits int
	// AllowInsecure accepts parameters below MinBits conjectured bits.
	AllowInsecure bool
	// Host keeps Open on the host even where every commitment is kept on
	// one device (DeviceOracle), which otherwise computes the layers; the
	// proof is the same. Verify ignores it.
	Host bool
}

// NewConfig returns the preset Config of f for bits of conjectured security
// (at least MinBits) at blowup 2^logBlowup: Arity 8, LogFinalDegree 3,
// PresetGrindingBits of grinding and the queries that make up the rest,
// ⌈(bits − grinding)/logBlowup⌉. The bound of the challenge field,
// ExtBits − log2(codeword size), is checked when a proof is made or
// checked, since it depends on the trace height: 100 bits hold up to 2^22
// rows at blowup 4 for BabyBear; 128 bits need BN254.
func NewConfig(f Field, bits, logBlowup int) (Config, error) {
	if f.ExtBits() == 0 {
		return Config{}, fmt.Errorf("fri: unknown field %v: %w", f, ErrParams)
	}
	if bits < MinBits {
		return Config{}, fmt.Errorf("fri: preset of %d bits, below the floor of %d: %w", bits, MinBits, ErrParams)
	}
	if logBlowup < 1 || logBlowup > 4 {
		return Config{}, fmt.Errorf("fri: log blowup %d, want 1 … 4: %w", logBlowup, ErrParams)
	}
	if float64(bits) > f.ExtBits()-float64(logBlowup) {
		// Even one trace row leaves only ExtBits − log2(blowup).
		return Config{}, fmt.Errorf("fri: %d bits from a challenge field of %.1f bits at blowup 2^%d: %w", bits, f.ExtBits(), logBlowup, ErrParams)
	}
	return Config{
		LogBlowup:      logBlowup,
		Arity:          8,
		LogFinalDegree: 3,
		Queries:        (max(bits-PresetGrindingBits, 1) + logBlowup - 1) / logBlowup,
		GrindingBits:   PresetGrindingBits,
		Bits:           bits,
	}, nil
}

// check validates the fields that do not depend on the statement.
func (c *Config) check() error {
	switch {
	case c.LogBlowup < 1 || c.LogBlowup > 4:
		return fmt.Errorf("fri: log blowup %d, want 1 … 4: %w", c.LogBlowup, ErrParams)
	case c.Arity != 2 && c.Arity != 4 && c.Arity != 8 && c.Arity != 16:
		return fmt.Errorf("fri: arity %d, want 2, 4, 8 or 16: %w: %w", c.Arity, ErrArity, ErrParams)
	case c.LogFinalDegree < 0 || c.LogFinalDegree > MaxLogFinalDegree:
		return fmt.Errorf("fri: log final degree %d, want 0 … %d: %w", c.LogFinalDegree, MaxLogFinalDegree, ErrParams)
	case c.Queries < 1 || c.Queries > MaxQueries:
		return fmt.Errorf("fri: %d queries, want 1 … %d: %w", c.Queries, MaxQueries, ErrParams)
	case c.Bits < 0 || c.Bits > 512:
		return fmt.Errorf("fri: a target of %d bits: %w", c.Bits, ErrParams)
	case c.GrindingBits < 0 || c.GrindingBits > 32:
		return fmt.Errorf("fri: %d grinding bits, want 0 … 32: %w", c.GrindingBits, ErrParams)
	}
	return nil
}

// MaxQueries bounds Config.Queries.
const MaxQueries = 4096

// MaxLogRows bounds a commitment's LogRows in a statement.
const MaxLogRows = 30

func (c *Config) hasher() merkle.Hasher { return c.Merkle }

// plan is the shape of one proof, derived from the Config and the heights
// of the statement's commitments, identically by prover and verifier.
type plan struct {
	logN     []int   // logN[r]: log2 of layer r's size, r = 0 … R (R: the final codeword)
	arities  []int   // arities[r]: the fold of round r, r < R
	rollIn   [][]int // rollIn[r]: the batches whose quotient joins layer r
	roundOf  []int   // roundOf[b]: the layer batch b joins
	logFinal int     // log2 of the final polynomial's degree bound
	params   Params  // the soundness parameters of the instance
}

// newPlan derives the schedule for batches of the given LogRows. Every
// height must be reached by the folds: the schedule folds by Arity, or by
// less where the next smaller height or the final codeword comes first.
func newPlan(cfg *Config, f Field, logRows []int) (*plan, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if len(logRows) == 0 {
		return nil, fmt.Errorf("fri: no commitment to open: %w", ErrParams)
	}
	top, low := slices.Max(logRows), slices.Min(logRows)
	if low < 0 || top > MaxLogRows {
		return nil, fmt.Errorf("fri: commitments of 2^%d … 2^%d trace rows, want 2^0 … 2^%d: %w", low, top, MaxLogRows, ErrParams)
	}
	if cfg.LogFinalDegree > low {
		return nil, fmt.Errorf("fri: final degree 2^%d above the degree 2^%d of a commitment of 2^%d rows (lower LogFinalDegree): %w", cfg.LogFinalDegree, low, low, ErrParams)
	}
	p := &plan{logFinal: cfg.LogFinalDegree}
	final := p.logFinal + cfg.LogBlowup
	heights := slices.Clone(logRows)
	slices.Sort(heights)
	heights = slices.Compact(heights) // ascending
	la := bits.TrailingZeros(uint(cfg.Arity))
	cur := top + cfg.LogBlowup
	p.logN = append(p.logN, cur)
	for cur > final {
		step := min(la, cur-final)
		for _, h := range heights {
			if g := h + cfg.LogBlowup; g < cur {
				step = min(step, cur-g)
			}
		}
		cur -= step
		p.arities = append(p.arities, 1<<step)
		p.logN = append(p.logN, cur)
	}
	p.rollIn = make([][]int, len(p.logN))
	p.roundOf = make([]int, len(logRows))
	for b, h := range logRows {
		r := slices.Index(p.logN, h+cfg.LogBlowup)
		p.rollIn[r] = append(p.rollIn[r], b)
		p.roundOf[b] = r
	}
	p.params = Params{
		LogBlowup:      cfg.LogBlowup,
		LogDegree:      top,
		Arities:        p.arities,
		LogFinalDegree: p.logFinal,
		Queries:        cfg.Queries,
		GrindingBits:   cfg.GrindingBits,
		ExtBits:        f.ExtBits(),
		AllowInsecure:  cfg.AllowInsecure,
	}
	if err := p.params.Check(float64(cfg.Bits)); err != nil {
		return nil, err
	}
	return p, nil
}

// Schedule returns the folds of the rounds, the soundness parameters and
// their conjectured bits for a proof over commitments of the given trace
// heights (log2 of their rows), as Open and Verify derive them.
func (c Config) Schedule(f Field, logRows ...int) (Params, error) {
	p, err := newPlan(&c, f, logRows)
	if err != nil {
		return Params{}, err
	}
	return p.params, nil
}
