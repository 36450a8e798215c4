package ntt64

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// gnark-crypto's default coset shift for Goldilocks: the multiplicative
// generator 7.
const testShift = 7

type variant struct {
	dit, inverse, coset bool
}

func (v variant) String() string {
	s := "DIF"
	if v.dit {
		s = "DIT"
	}
	if v.coset {
		s += " coset"
	}
	if v.inverse {
		s += " inverse"
	}
	return s
}

var variants = func() []variant {
	var vs []variant
	for _, dit := range []bool{false, true} {
		for _, inv := range []bool{false, true} {
			for _, coset := range []bool{false, true} {
				vs = append(vs, variant{dit, inv, coset})
			}
		}
	}
	return vs
}()

func randVec(rng *rand.Rand, n int) []uint64 {
	v := make([]uint64, n)
	for i := range v {
		v[i] = randCanonical(rng)
	}
	return v
}

func rev(i, logN int) int {
	if logN == 0 {
		return 0
	}
	return int(bits.Reverse64(uint64(i)) >> (64 - logN))
}

func permuted(v []uint64) []uint64 {
	logN := bits.TrailingZeros(uint(len(v)))
	out := make([]uint64, len(v))
	for i := range v {
		out[i] = v[rev(i, logN)]
	}
	return out
}

// naive evaluates the transform by its definition with math/big: forward,
// out_i = Σ_j a_j (s·ω^i)^j; inverse, out_j = (1/n) s^-j Σ_i a_i ω^-ij. Both
// in natural order.
func naive(in []uint64, logN int, v variant, shift uint64) []uint64 {
	n := len(in)
	w := new(big.Int).SetUint64(RootOfUnity(logN))
	s := big.NewInt(1)
	if v.coset {
		s.SetUint64(shift)
	}
	if v.inverse {
		w.ModInverse(w, bigP)
	}
	sInv := new(big.Int).ModInverse(s, bigP)
	nInv := new(big.Int).ModInverse(big.NewInt(int64(n)), bigP)
	out := make([]uint64, n)
	x, acc, term := new(big.Int), new(big.Int), new(big.Int)
	for i := range n {
		acc.SetInt64(0)
		for j := range n {
			// forward: a_j · s^j · ω^(ij); inverse: a_j · ω^-(ij)
			term.Exp(w, big.NewInt(int64(i*j%n)), bigP)
			if !v.inverse {
				term.Mul(term, x.Exp(s, big.NewInt(int64(j)), bigP))
			}
			term.Mul(term, x.SetUint64(in[j]))
			acc.Add(acc, term)
		}
		if v.inverse {
			acc.Mul(acc, nInv)
			acc.Mul(acc, x.Exp(sInv, big.NewInt(int64(i)), bigP))
		}
		out[i] = bigMod(acc)
	}
	return out
}

// eachImpl runs f under every kernel implementation this machine has.
func eachImpl(t *testing.T, f func(t *testing.T)) {
	cpufeat.Each("ntt64", func(name string) {
		t.Run(name, f)
	})
	t.Logf("ntt64 implementations run: %v", cpufeat.Available("ntt64"))
}

// TestTransformNaive pins the semantics to the definition (math/big) for
// every size up to 2^7 and every variant.
func TestTransformNaive(t *testing.T) {
	eachImpl(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for logN := 0; logN <= 7; logN++ {
			p, err := NewPlan(logN, testShift)
			require.NoError(t, err)
			for _, v := range variants {
				in := randVec(rng, 1<<logN)
				want := naive(in, logN, v, testShift)
				a := append([]uint64(nil), in...)
				if v.dit {
					a = permuted(a)
				} else {
					want = permuted(want)
				}
				p.Transform(a, v.dit, v.inverse, v.coset, 1)
				testutil.EqualSlices(t, want, a, "2^%d %v", logN, v)
			}
		}
	})
}

// reference is the generic implementation on one goroutine.
func reference(p *Plan, in []uint64, v variant) []uint64 {
	defer cpufeat.Select("ntt64", "generic")()
	a := append([]uint64(nil), in...)
	p.Transform(a, v.dit, v.inverse, v.coset, 1)
	return a
}

// TestTransformSizes: every size up to 2^17 (2^20 under GFPOLY_LONG, 2^16
// with -short), every variant, every implementation and 1 or 4 goroutines,
// against the generic implementation on one goroutine (itself checked
// against the definition above and, in prover/prime, against gnark-crypto);
// the round trip forward∘inverse is the identity.
func TestTransformSizes(t *testing.T) {
	maxLog := testutil.Sweep(16, 17, 20)
	rng := rand.New(rand.NewPCG(9, 10))
	for logN := 0; logN <= maxLog; logN++ {
		p, err := NewPlan(logN, 3)
		require.NoError(t, err)
		for _, v := range variants {
			in := randVec(rng, 1<<logN)
			want := reference(p, in, v)
			eachImpl(t, func(t *testing.T) {
				for _, tasks := range []int{1, 4} {
					a := append([]uint64(nil), in...)
					p.Transform(a, v.dit, v.inverse, v.coset, tasks)
					testutil.EqualSlices(t, want, a, "2^%d %v tasks=%d", logN, v, tasks)
					// back: the inverse of a DIF transform is the DIT inverse
					p.Transform(a, !v.dit, !v.inverse, v.coset, tasks)
					testutil.EqualSlices(t, in, a, "2^%d %v tasks=%d round trip", logN, v, tasks)
				}
			})
		}
	}
}

// TestKernels: each kernel of each implementation against the generic one,
// with the forward and the inverse tables, on random values weighted toward
// edge values, every shape the transforms use.
func TestKernels(t *testing.T) {
	fwd, inv := twiddleTables(12)
	rng := rand.New(rand.NewPCG(11, 12))
	type kcase struct {
		name string
		run  func(ks *kernelSet, a []uint64, tw *twiddleSet)
	}
	n := 1 << 12
	var cases []kcase
	for q := 8; q <= n/4; q *= 2 {
		cases = append(cases,
			kcase{fmt.Sprintf("difRadix4 q=%d", q), func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.difRadix4(a, q, 0, q, tw.r2, tw.r3) }},
			kcase{fmt.Sprintf("ditRadix4 q=%d", q), func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditRadix4(a, q, 0, q, tw.r2, tw.r3) }},
			kcase{fmt.Sprintf("difRadix4 q=%d j=8..%d", q, q/2), func(ks *kernelSet, a []uint64, tw *twiddleSet) {
				ks.difRadix4(a[:4*q], q, 8, max(q/2, 8), tw.r2, tw.r3)
			}},
			kcase{fmt.Sprintf("ditRadix4 q=%d j=%d..%d", q, q/2, q), func(ks *kernelSet, a []uint64, tw *twiddleSet) {
				ks.ditRadix4(a[:4*q], q, q/2, q, tw.r2, tw.r3)
			}},
		)
	}
	for m := 8; m <= n/2; m *= 2 {
		cases = append(cases,
			kcase{fmt.Sprintf("difRadix2 m=%d", m), func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.difRadix2(a, m, tw.r2) }},
			kcase{fmt.Sprintf("ditRadix2 m=%d", m), func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditRadix2(a, m, tw.r2) }},
		)
	}
	c := randCanonical(rng)
	b := randVec(rng, n)
	cases = append(cases,
		kcase{"difTail", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.difTail(a, tw.r2) }},
		kcase{"ditHead", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditHead(a, tw.r2, 0) }},
		kcase{"ditHead skip 1", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditHead(a, tw.r2, 1) }},
		kcase{"ditHead skip 2", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditHead(a, tw.r2, 2) }},
		kcase{"difTail 8", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.difTail(a[:8], tw.r2) }},
		kcase{"ditHead 24", func(ks *kernelSet, a []uint64, tw *twiddleSet) { ks.ditHead(a[:24], tw.r2, 0) }},
		kcase{"replicate 1", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:n/2], 1) }},
		kcase{"replicate 2", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:n/4], 2) }},
		kcase{"replicate 3", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:n/8], 3) }},
		kcase{"replicate 4", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:n/16], 4) }},
		kcase{"replicate 2 of 7", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:7], 2) }},
		kcase{"replicate 1 of 4", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.replicate(a, b[:4], 1) }},
		kcase{"mulVec", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.mulVec(a, b) }},
		kcase{"mulVec 13", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.mulVec(a[:13], b) }},
		kcase{"scaleVec", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.scaleVec(a, c) }},
		kcase{"scaleVec 5", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.scaleVec(a[3:8], c) }},
		kcase{"scaleVec 0", func(ks *kernelSet, a []uint64, _ *twiddleSet) { ks.scaleVec(a[:0], c) }},
	)
	for i, ks := range impls {
		if !asmAvailable(i) {
			t.Logf("%s: not available here", ks.name)
			continue
		}
		for _, kc := range cases {
			for dir, tw := range []*twiddleSet{&fwd, &inv} {
				for _, allP1 := range []bool{false, true} {
					in := randVec(rng, n)
					if allP1 { // every value P−1, the largest canonical value
						for i := range in {
							in[i] = P - 1
						}
					}
					want := append([]uint64(nil), in...)
					kc.run(&genericKernels, want, tw)
					got := append([]uint64(nil), in...)
					kc.run(ks, got, tw)
					testutil.EqualSlices(t, want, got, "%s %s direction %d", ks.name, kc.name, dir)
					for i, x := range got {
						if x >= P { // the assertion only where it fails: testify's call per element is most of the test's time
							require.Less(t, x, P, "%s %s: element %d = %#x is not canonical", ks.name, kc.name, i, x)
						}
					}
				}
			}
		}
	}
}

// TestBitReverse: the tiled permutation of every implementation against
// the definition, every size to 2^16, one and four tasks.
func TestBitReverse(t *testing.T) {
	for logN := 0; logN <= 16; logN++ {
		p, err := NewPlan(logN, 7)
		require.NoError(t, err)
		in := make([]uint64, 1<<logN)
		for i := range in {
			in[i] = uint64(i)
		}
		want := permuted(in)
		eachImpl(t, func(t *testing.T) {
			for _, tasks := range []int{1, 4} {
				a := append([]uint64(nil), in...)
				p.BitReverse(a, tasks)
				testutil.EqualSlices(t, want, a, "2^%d tasks=%d", logN, tasks)
			}
			a := append([]uint64(nil), in...)
			bitReverseWith(k, a)
			testutil.EqualSlices(t, want, a, "2^%d bitReverseWith", logN)
		})
	}
}

// TestTwiddleTables recomputes the shared tables by repeated squaring and
// checks that a larger plan's tables keep the smaller ones' entries.
func TestTwiddleTables(t *testing.T) {
	fwd, inv := twiddleTables(9)
	require.GreaterOrEqual(t, len(fwd.r2), 1<<9)
	for m := 1; m <= 1<<8; m *= 2 {
		logM := bits.TrailingZeros(uint(m))
		w := RootOfUnity(logM + 1)
		for j := range m {
			assert.Equal(t, exp(w, uint64(j)), fwd.r2[m+j], "fwd.r2[%d+%d]", m, j)
			assert.Equal(t, exp(inverse(w), uint64(j)), inv.r2[m+j], "inv.r2[%d+%d]", m, j)
		}
	}
	for q := 1; q <= 1<<7; q *= 2 {
		logQ := bits.TrailingZeros(uint(q))
		w := RootOfUnity(logQ + 2)
		for j := range q {
			assert.Equal(t, exp(w, uint64(3*j)), fwd.r3[q+j], "fwd.r3[%d+%d]", q, j)
			assert.Equal(t, exp(inverse(w), uint64(3*j)), inv.r3[q+j], "inv.r3[%d+%d]", q, j)
		}
	}
}

func TestPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		logN  int
		shift uint64
	}{{-1, 7}, {33, 7}, {4, 0}, {4, P}, {4, 1<<64 - 1}} {
		_, err := NewPlan(tc.logN, tc.shift)
		require.ErrorIs(t, err, ErrPlan, "NewPlan(%d, %#x)", tc.logN, tc.shift)
	}
	p, err := NewPlan(4, 7)
	require.NoError(t, err)
	assert.Equal(t, 16, p.N())
	assert.Equal(t, 4, p.LogN())
	msg := testutil.PanicMessage(t, func() { p.Transform(make([]uint64, 8), false, false, false, 1) }, "short")
	assert.Contains(t, msg, "ntt64: Transform of 8 elements")
}
