package fri

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// refOracle is a commitment computed the slow way: random polynomials in
// the monomial basis, evaluated point by point over the codeword domain
// (Horner's rule), committed with package merkle. Its rows may be
// overwritten to make a word that is no codeword.
type refOracle[E Element, X Challenge] struct {
	o      alg[E, X]
	dom    layer[E, X]
	coeffs [][]E
	lde    [][]E
	tree   *merkle.Tree[E]
}

func randE[E Element](r *rand.Rand) E {
	var e E
	switch v := any(&e).(type) {
	case *gf64.Element:
		*v = gf64.Element(r.Uint64())
	case *babybear.Element:
		v.SetUint64(r.Uint64())
	case *koalabear.Element:
		v.SetUint64(r.Uint64())
	case *goldilocks.Element:
		v.SetUint64(r.Uint64())
	case *fr.Element:
		v.SetUint64(r.Uint64())
		var w fr.Element
		w.SetUint64(r.Uint64())
		v.Mul(v, &w)
		v.Mul(v, &w)
	}
	return e
}

func randXE[E Element, X Challenge](r *rand.Rand) X {
	var x X
	c := coordsOf[X, E](&x)
	for i := range c {
		c[i] = randE[E](r)
	}
	return x
}

// newRefOracle returns cols random polynomials of degree < 2^logRows over
// the codeword domain of cfg. far, when positive, is the fraction of rows
// replaced by random ones (a word at that distance from the code).
func newRefOracle[E Element, X Challenge](t testing.TB, cfg *Config, logRows, cols int, seed uint64, far float64) *refOracle[E, X] {
	r := rand.New(rand.NewPCG(seed, 7))
	o := algFor[E, X]()
	dom, err := topLayer[E, X](cfg, logRows)
	require.NoError(t, err)
	n := 1 << logRows
	ro := &refOracle[E, X]{o: o, dom: dom}
	xs := make([]E, dom.size())
	dom.points(xs, 0)
	for range cols {
		c := make([]E, n)
		for k := range c {
			c[k] = randE[E](r)
		}
		col := make([]E, len(xs))
		for i, x := range xs {
			var v E
			for k := n - 1; k >= 0; k-- {
				v = eadd(o, o.emul(v, x), c[k])
			}
			col[i] = v
		}
		ro.coeffs = append(ro.coeffs, c)
		ro.lde = append(ro.lde, col)
	}
	if far > 0 {
		for i := range xs {
			if r.Float64() < far {
				for c := range ro.lde {
					ro.lde[c][i] = randE[E](r)
				}
			}
		}
	}
	ro.tree, err = merkle.Build(ro.lde, cfg.hasher(), 0, nil)
	require.NoError(t, err)
	return ro
}

func (ro *refOracle[E, X]) Root() []byte { return ro.tree.Root() }
func (ro *refOracle[E, X]) Rows() int    { return len(ro.lde[0]) }
func (ro *refOracle[E, X]) Columns() int { return len(ro.lde) }
func (ro *refOracle[E, X]) CodewordPoints(dst []E, first int) error {
	ro.dom.points(dst, first)
	return nil
}
func (ro *refOracle[E, X]) Evaluate(points []X) ([][]X, error) {
	out := make([][]X, len(points))
	for p, z := range points {
		out[p] = make([]X, len(ro.coeffs))
		for j, c := range ro.coeffs {
			var v X
			for k := len(c) - 1; k >= 0; k-- {
				v = ro.o.xadd(ro.o.xmul(v, z), ro.o.xembed(c[k]))
			}
			out[p][j] = v
		}
	}
	return out, nil
}
func (ro *refOracle[E, X]) CombinePowers(alpha X) ([]X, error) {
	out := make([]X, ro.Rows())
	for i := range out {
		var v X
		for j := len(ro.lde) - 1; j >= 0; j-- {
			v = ro.o.xadd(ro.o.xmul(v, alpha), ro.o.xembed(ro.lde[j][i]))
		}
		out[i] = v
	}
	return out, nil
}
func (ro *refOracle[E, X]) OpenMulti(indices []int) (*merkle.MultiOpening[E], error) {
	return ro.tree.OpenMulti(indices)
}

func (ro *refOracle[E, X]) statement(cfg *Config, points []X) Statement[X] {
	return Statement[X]{Root: ro.Root(), LogRows: log2i(ro.Rows()) - cfg.LogBlowup, Columns: ro.Columns(), Points: points}
}

func log2i(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

func newTranscript(t testing.TB, label string) *transcript.Transcript {
	tr, err := transcript.New(label)
	require.NoError(t, err)
	return tr
}

// proveRef opens ref oracles of the given heights at two random points
// each and returns the statements and the proof.
func proveRef[E Element, X Challenge](t testing.TB, cfg Config, heights []int, cols int, seed uint64, far float64) ([]Statement[X], *Proof[E, X], error) {
	r := rand.New(rand.NewPCG(seed, 11))
	if cfg.BinaryDomains == nil {
		top := 0
		for _, h := range heights {
			top = max(top, h)
		}
		cfg.BinaryDomains = NestedBinaryDomains(top)
	}
	var batches []Batch[E, X]
	var stmts []Statement[X]
	for k, h := range heights {
		ro := newRefOracle[E, X](t, &cfg, h, cols+k, seed+uint64(k)*1000, far)
		pts := []X{randXE[E, X](r), randXE[E, X](r)}
		batches = append(batches, Batch[E, X]{Oracle: ro, Points: pts})
		stmts = append(stmts, ro.statement(&cfg, pts))
	}
	p, err := Open(newTranscript(t, "fri test"), cfg, batches...)
	return stmts, p, err
}

func testConfig() Config {
	return Config{LogBlowup: 2, Arity: 4, LogFinalDegree: 1, Queries: 40, AllowInsecure: true}
}

func TestOpenVerifyRef(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testOpenVerifyRef[gf64.Element, gf128.Element](t) })
	t.Run("babybear", func(t *testing.T) { testOpenVerifyRef[babybear.Element, bbext.E4](t) })
	t.Run("koalabear", func(t *testing.T) { testOpenVerifyRef[koalabear.Element, kbext.E4](t) })
	t.Run("goldilocks", func(t *testing.T) { testOpenVerifyRef[goldilocks.Element, glext.E2](t) })
	t.Run("bn254", func(t *testing.T) { testOpenVerifyRef[fr.Element, fr.Element](t) })
}

func testOpenVerifyRef[E Element, X Challenge](t *testing.T) {
	for _, arity := range []int{2, 4, 8, 16} {
		for _, lb := range []int{1, 2, 3, 4} {
			for _, h := range []int{0, 1, 3, 6} {
				cfg := testConfig()
				cfg.Arity, cfg.LogBlowup, cfg.LogFinalDegree = arity, lb, min(1, h)
				name := fmt.Sprintf("arity%d/blowup%d/rows%d", arity, 1<<lb, 1<<h)
				stmts, p, err := proveRef[E, X](t, cfg, []int{h}, 3, uint64(h*100+lb*10+arity), 0)
				require.NoError(t, err, name)
				require.NoError(t, Verify(newTranscript(t, "fri test"), cfg, stmts, p), name)
				// The claims are the polynomials' values.
				b, err := p.MarshalBinary()
				require.NoError(t, err)
				assert.Equal(t, p.Sizes().Total, len(b), name)
				var q Proof[E, X]
				require.NoError(t, q.UnmarshalBinary(b), name)
				require.NoError(t, Verify(newTranscript(t, "fri test"), cfg, stmts, &q), name)
				c, err := q.MarshalBinary()
				require.NoError(t, err)
				assert.Equal(t, b, c, name)
			}
		}
	}
}

// The soundness attacks: words far from the code pushed honestly through
// the protocol, wrong claims, another transcript, flipped bytes.
func TestAttacksRef(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testAttacksRef[gf64.Element, gf128.Element](t) })
	t.Run("babybear", func(t *testing.T) { testAttacksRef[babybear.Element, bbext.E4](t) })
	t.Run("goldilocks", func(t *testing.T) { testAttacksRef[goldilocks.Element, glext.E2](t) })
	t.Run("koalabear", func(t *testing.T) { testAttacksRef[koalabear.Element, kbext.E4](t) })
	t.Run("bn254", func(t *testing.T) { testAttacksRef[fr.Element, fr.Element](t) })
}

func testAttacksRef[E Element, X Challenge](t *testing.T) {
	cfg := Config{LogBlowup: 2, Arity: 4, LogFinalDegree: 2, Queries: 50} // 100 conjectured bits
	openUnchecked = true
	defer func() { openUnchecked = false }()
	for _, far := range []float64{1, 1.0 / 3} {
		rejected := 0
		const seeds = 100
		for s := range seeds {
			stmts, p, err := proveRef[E, X](t, cfg, []int{5}, 2, uint64(s), far)
			require.NoError(t, err)
			err = Verify(newTranscript(t, "fri test"), cfg, stmts, p)
			if err != nil {
				require.ErrorIs(t, err, ErrProof)
				rejected++
			}
		}
		assert.GreaterOrEqual(t, rejected, 99, "far %.2f: %d of %d rejected", far, rejected, seeds)
	}
	openUnchecked = false

	cfg.BinaryDomains = NestedBinaryDomains(5)
	stmts, p, err := proveRef[E, X](t, cfg, []int{5, 3}, 2, 1, 0)
	require.NoError(t, err)
	require.NoError(t, Verify(newTranscript(t, "fri test"), cfg, stmts, p))
	// A wrong claimed value.
	var one E
	one = algFor[E, X]().eone()
	p.Values[1][0][1] = algFor[E, X]().xadd(p.Values[1][0][1], algFor[E, X]().xembed(one))
	require.ErrorIs(t, Verify(newTranscript(t, "fri test"), cfg, stmts, p), ErrProof)
	p.Values[1][0][1] = algFor[E, X]().xsub(p.Values[1][0][1], algFor[E, X]().xembed(one))
	require.NoError(t, Verify(newTranscript(t, "fri test"), cfg, stmts, p))
	// Another transcript.
	require.ErrorIs(t, Verify(newTranscript(t, "fri other"), cfg, stmts, p), ErrProof)
	// Another point.
	s2 := append([]Statement[X](nil), stmts...)
	s2[0].Points = []X{s2[0].Points[1], s2[0].Points[0]}
	require.ErrorIs(t, Verify(newTranscript(t, "fri test"), cfg, s2, p), ErrProof)
}

func TestFlipEveryByte(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testFlipEveryByte[gf64.Element, gf128.Element](t) })
	t.Run("babybear", func(t *testing.T) { testFlipEveryByte[babybear.Element, bbext.E4](t) })
	t.Run("goldilocks", func(t *testing.T) { testFlipEveryByte[goldilocks.Element, glext.E2](t) })
	t.Run("koalabear", func(t *testing.T) { testFlipEveryByte[koalabear.Element, kbext.E4](t) })
	t.Run("bn254", func(t *testing.T) { testFlipEveryByte[fr.Element, fr.Element](t) })
}

func testFlipEveryByte[E Element, X Challenge](t *testing.T) {
	cfg := Config{LogBlowup: 1, Arity: 2, LogFinalDegree: 0, Queries: 3, AllowInsecure: true, BinaryDomains: NestedBinaryDomains(3)}
	stmts, p, err := proveRef[E, X](t, cfg, []int{3, 2}, 1, 5, 0)
	require.NoError(t, err)
	b, err := p.MarshalBinary()
	require.NoError(t, err)
	for i := range b {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			c := append([]byte(nil), b...)
			c[i] ^= mask
			var q Proof[E, X]
			if err := q.UnmarshalBinary(c); err != nil {
				require.ErrorIs(t, err, ErrProof)
				continue
			}
			err := Verify(newTranscript(t, "fri test"), cfg, stmts, &q)
			require.ErrorIs(t, err, ErrProof, "byte %d of %d flipped by %#x verifies", i, len(b), mask)
		}
	}
	// Truncations and extensions.
	for n := range len(b) {
		var q Proof[E, X]
		require.ErrorIs(t, q.UnmarshalBinary(b[:n]), ErrProof)
	}
	var q Proof[E, X]
	require.ErrorIs(t, q.UnmarshalBinary(append(b, 0)), ErrProof)
}

func TestBadInput(t *testing.T) {
	cfg := testConfig()
	ro := newRefOracle[babybear.Element, bbext.E4](t, &cfg, 4, 2, 1, 0)
	z := randXE[babybear.Element, bbext.E4](rand.New(rand.NewPCG(1, 2)))
	open := func(c Config, b ...Batch[babybear.Element, bbext.E4]) error {
		_, err := Open(newTranscript(t, "x"), c, b...)
		return err
	}
	ok := Batch[babybear.Element, bbext.E4]{Oracle: ro, Points: []bbext.E4{z}}
	require.NoError(t, open(cfg, ok))
	require.ErrorIs(t, open(cfg), ErrParams)
	require.ErrorIs(t, open(cfg, Batch[babybear.Element, bbext.E4]{Oracle: ro}), ErrParams)
	c := cfg
	c.Arity = 3
	require.ErrorIs(t, open(c, ok), ErrArity)
	c = cfg
	c.AllowInsecure, c.Queries = false, 30 // 60 bits
	require.ErrorIs(t, open(c, ok), ErrParams)
	c = cfg
	c.LogFinalDegree = 5 // above the commitment's 2^4 rows
	require.ErrorIs(t, open(c, ok), ErrParams)
	c = cfg
	c.LogBlowup = 3 // the oracle's rows are another code
	require.ErrorIs(t, open(c, ok), ErrOracle)
	// A point of the domain.
	var x bbext.E4
	x.B0.A0 = ro.dom.point(5)
	require.ErrorIs(t, open(cfg, Batch[babybear.Element, bbext.E4]{Oracle: ro, Points: []bbext.E4{z, x}}), ErrPoint)
	// A point of the trace domain is fine (not in the coset).
	x.B0.A0.SetOne()
	require.NoError(t, open(cfg, Batch[babybear.Element, bbext.E4]{Oracle: ro, Points: []bbext.E4{x}}))
	// An oracle that panics or lies.
	require.ErrorIs(t, open(cfg, Batch[babybear.Element, bbext.E4]{Oracle: panicky{ro}, Points: []bbext.E4{z}}), ErrOracle)
	far := newRefOracle[babybear.Element, bbext.E4](t, &cfg, 4, 2, 1, 0.5)
	require.ErrorIs(t, open(cfg, Batch[babybear.Element, bbext.E4]{Oracle: far, Points: []bbext.E4{z}}), ErrOracle)
	// Verify on a statement with a point of the domain.
	st := ro.statement(&cfg, []bbext.E4{z})
	p, err := Open(newTranscript(t, "x"), cfg, ok)
	require.NoError(t, err)
	require.NoError(t, Verify(newTranscript(t, "x"), cfg, []Statement[bbext.E4]{st}, p))
	x.B0.A0 = ro.dom.point(3)
	st.Points = []bbext.E4{x}
	require.ErrorIs(t, Verify(newTranscript(t, "x"), cfg, []Statement[bbext.E4]{st}, p), ErrPoint)
	require.ErrorIs(t, Verify[babybear.Element, bbext.E4](newTranscript(t, "x"), cfg, nil, p), ErrParams)
	require.ErrorIs(t, Verify[babybear.Element, bbext.E4](newTranscript(t, "x"), cfg, []Statement[bbext.E4]{ro.statement(&cfg, []bbext.E4{z})}, nil), ErrProof)
	// The wrong challenge field.
	_, err = Open[babybear.Element, kbext.E4](newTranscript(t, "x"), cfg)
	require.ErrorIs(t, err, ErrField)
}

type panicky struct {
	*refOracle[babybear.Element, bbext.E4]
}

func (panicky) CombinePowers(bbext.E4) ([]bbext.E4, error) { panic("boom") }

func TestInterpolate(t *testing.T) {
	o := algFor[goldilocks.Element, glext.E2]()
	r := rand.New(rand.NewPCG(3, 3))
	for d := 1; d <= 16; d++ {
		xs := make([]goldilocks.Element, d)
		for i := range xs {
			xs[i] = randE[goldilocks.Element](r)
		}
		c := make([]glext.E2, d)
		for i := range c {
			c[i] = randXE[goldilocks.Element, glext.E2](r)
		}
		ys := make([]glext.E2, d)
		for i, x := range xs {
			ys[i] = evalPoly(o, c, x)
		}
		got, err := interpolateLagrange(o, xs, ys)
		require.NoError(t, err)
		require.Equal(t, c, got)
	}
	_, err := interpolateLagrange(o, []goldilocks.Element{{}, {}}, make([]glext.E2, 2))
	require.True(t, errors.Is(err, ErrDomain))
}

// The presets: 100 bits for every field at every blowup, 128 only where the
// challenge field reaches it (BN254), and Schedule computes what they give.
func TestNewConfig(t *testing.T) {
	for _, f := range []Field{GF64, Goldilocks, BabyBear, KoalaBear, BN254} {
		for lb := 1; lb <= 4; lb++ {
			cfg, err := NewConfig(f, 100, lb)
			require.NoError(t, err)
			p, err := cfg.Schedule(f, 18)
			require.NoError(t, err, "%v blowup 2^%d", f, lb)
			assert.GreaterOrEqual(t, p.ConjecturedBits(), 100.0)
			assert.Equal(t, cfg.Queries*lb+cfg.GrindingBits >= 100, true)
			assert.Less(t, float64((cfg.Queries-1)*lb+cfg.GrindingBits), 100.0, "no query more than needed")
		}
		_, err := NewConfig(f, 128, 2)
		if f == BN254 {
			require.NoError(t, err)
			cfg, _ := NewConfig(f, 128, 2)
			p, err := cfg.Schedule(f, 24)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, p.ConjecturedBits(), 128.0)
		} else {
			require.ErrorIs(t, err, ErrParams, "%v cannot give 128 bits", f)
		}
	}
	_, err := NewConfig(BabyBear, 79, 2)
	require.ErrorIs(t, err, ErrParams)
	// 100 bits at 2^26 rows exceed what BabyBear's E4 gives (123.6 − 28).
	cfg, _ := NewConfig(BabyBear, 100, 2)
	_, err = cfg.Schedule(BabyBear, 26)
	require.ErrorIs(t, err, ErrParams)
}
