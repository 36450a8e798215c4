package fri

import (
	"errors"
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-3 {
		t.Errorf("%s = %.5f, want %.5f", what, got, want)
	}
}

func TestExtBits(t *testing.T) {
	near(t, "gf64", GF64.ExtBits(), 128)
	near(t, "goldilocks", Goldilocks.ExtBits(), 128)     // 2·log2(2^64 − 2^32 + 1)
	near(t, "babybear", BabyBear.ExtBits(), 123.62756)   // 4·30.90689
	near(t, "koalabear", KoalaBear.ExtBits(), 123.95474) // 4·30.98869
	near(t, "bn254", BN254.ExtBits(), 253.59)
	if Field(99).ExtBits() != 0 || Field(99).String() != "Field(99)" {
		t.Error("unknown field")
	}
}

func TestConjecturedBits(t *testing.T) {
	p := Params{LogBlowup: 1, LogDegree: 20, Arities: []int{16, 16, 16, 16, 2}, LogFinalDegree: 3, Queries: 84, GrindingBits: 16, ExtBits: BabyBear.ExtBits()}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	near(t, "query bits", p.QueryBits(), 100) // 84·1 + 16
	near(t, "conjectured", p.ConjecturedBits(), 100)
	p.Queries = 120 // 136 query bits; the field caps: 123.6276 − 21
	near(t, "capped", p.ConjecturedBits(), 102.62756)
	p.LogBlowup, p.Queries, p.GrindingBits = 3, 30, 0 // 90 query bits
	near(t, "blowup 8", p.ConjecturedBits(), 90)
}

func TestUniqueDecodingBits(t *testing.T) {
	// ρ = 1/2, n₀ = 32, folds by 2 and 2, |F| = 2^50, 100 queries:
	// query error (3/4)^100 = 2^−41.50375; commit (32 + 16)/2^50 = 2^−44.41504;
	// −log2(2^−41.50375 + 2^−44.41504) = 41.32369.
	p := Params{LogBlowup: 1, LogDegree: 4, Arities: []int{2, 2}, LogFinalDegree: 2, Queries: 100, ExtBits: 50}
	near(t, "udr", p.UniqueDecodingBits(), 41.32369)
	// With a 128-bit field the commit phase vanishes: 100·log2(4/3).
	p.ExtBits = 128
	near(t, "udr, big field", p.UniqueDecodingBits(), 41.50375)
	// Grinding adds to the query phase.
	p.GrindingBits = 10
	near(t, "udr, grinding", p.UniqueDecodingBits(), 51.50375)
}

func TestJohnsonBits(t *testing.T) {
	// ρ = 1/4, m = 3: 1 − θ = ½·(1 + 1/6) = 7/12; 50 queries give
	// 50·log2(12/7) = 38.88038 bits. Commit, one fold by 4 of n₀ = 64:
	// 3·(3.5)^7/(3·(1/4)^1.5)·64²/|F| = 3.5^7·2^15/|F| = 2^27.65/|F|.
	p := Params{LogBlowup: 2, LogDegree: 4, Arities: []int{4}, LogFinalDegree: 2, Queries: 50, ExtBits: 128}
	near(t, "jbr m=3", p.johnsonBits(3), 38.88038)
	p.ExtBits = 60 // commit 2^−32.35 beside the query's 2^−38.88
	near(t, "jbr m=3, small field", p.johnsonBits(3), 32.33301)
	// Larger m moves 1 − θ towards √ρ: the query part tends to 50 bits.
	p.ExtBits = 1000
	if b := p.JohnsonBits(); b < 49.5 || b > 50 {
		t.Errorf("jbr, huge field: %.3f, want just under 50", b)
	}
	if p.ProvenBits() != max(p.JohnsonBits(), p.UniqueDecodingBits()) {
		t.Error("ProvenBits is not the better regime")
	}
}

func TestValidate(t *testing.T) {
	good := Params{LogBlowup: 1, LogDegree: 10, Arities: []int{4, 8}, LogFinalDegree: 5, Queries: 100, ExtBits: 128}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*Params){
		"blowup 0":       func(p *Params) { p.LogBlowup = 0 },
		"no queries":     func(p *Params) { p.Queries = 0 },
		"negative grind": func(p *Params) { p.GrindingBits = -1 },
		"no field":       func(p *Params) { p.ExtBits = 0 },
		"NaN field":      func(p *Params) { p.ExtBits = math.NaN() },
		"arity 3":        func(p *Params) { p.Arities = []int{3, 8} },
		"degree":         func(p *Params) { p.LogFinalDegree = 4 },
		"too few folds":  func(p *Params) { p.Arities = []int{4} },
		"negative final": func(p *Params) { p.LogFinalDegree, p.Arities = -1, []int{16, 16, 8} },
		"huge domain":    func(p *Params) { p.LogDegree = 62 },
	} {
		p := good
		mod(&p)
		if err := p.Validate(); !errors.Is(err, ErrParams) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCheck(t *testing.T) {
	p := Params{LogBlowup: 1, LogDegree: 10, Arities: []int{4, 8}, LogFinalDegree: 5, Queries: 50, ExtBits: 128}
	if err := p.Check(0); !errors.Is(err, ErrParams) { // 50 bits < 80
		t.Errorf("50 bits: %v", err)
	}
	p.AllowInsecure = true
	if err := p.Check(0); err != nil {
		t.Errorf("50 bits, insecure allowed: %v", err)
	}
	if err := p.Check(60); !errors.Is(err, ErrParams) {
		t.Errorf("50 bits, 60 required: %v", err)
	}
	p.AllowInsecure, p.Queries = false, 100
	if err := p.Check(100); err != nil {
		t.Errorf("100 bits: %v", err)
	}
	if err := p.Check(100.5); !errors.Is(err, ErrParams) {
		t.Errorf("100 bits, 100.5 required: %v", err)
	}
}

func TestPreset(t *testing.T) {
	for _, f := range []Field{GF64, Goldilocks, BabyBear, KoalaBear, BN254} {
		for _, lb := range []int{1, 2, 3, 4} {
			p, err := Preset(f, 100, lb, 20)
			if f.ExtBits()-float64(20+lb) < 100 { // BabyBear⁴ with blowup 16: 99.63
				if !errors.Is(err, ErrParams) {
					t.Errorf("%v 100 bits blowup 2^%d: the field caps it, got %v", f, lb, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v 100 bits blowup 2^%d: %v", f, lb, err)
			}
			if p.ConjecturedBits() < 100 || p.Check(100) != nil {
				t.Errorf("%v: preset gives %.2f bits", f, p.ConjecturedBits())
			}
			_, err = Preset(f, 128, lb, 20)
			if f == BN254 {
				if err != nil {
					t.Errorf("bn254 128 bits: %v", err)
				}
			} else if !errors.Is(err, ErrParams) {
				t.Errorf("%v 128 bits: the field caps it, got %v", f, err)
			}
		}
	}
	// By hand: BabyBear, 100 bits, blowup 2: ⌈84/2⌉ = 42 queries, folds
	// 16,16,16,16,2 from 2^20 down to 2^3.
	p, err := Preset(BabyBear, 100, 2, 20)
	if err != nil {
		t.Fatal(err)
	}
	if p.Queries != 42 || p.GrindingBits != 16 || p.LogFinalDegree != 3 || len(p.Arities) != 5 || p.Arities[4] != 2 {
		t.Errorf("babybear preset %+v", p)
	}
	p, err = Preset(BN254, 128, 3, 2) // 38 queries (⌈112/3⌉), degree 4: no folds
	if err != nil || p.Queries != 38 || len(p.Arities) != 0 || p.LogFinalDegree != 2 {
		t.Errorf("bn254 small preset %+v, %v", p, err)
	}
	for _, c := range []struct {
		f        Field
		bits, lb int
	}{{Field(9), 100, 1}, {BabyBear, 79, 1}, {BabyBear, 100, 0}} {
		if _, err := Preset(c.f, c.bits, c.lb, 20); !errors.Is(err, ErrParams) {
			t.Errorf("Preset(%v, %d, %d): %v", c.f, c.bits, c.lb, err)
		}
	}
}
