package stark

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

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
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
)

// newTestProver returns a prover with fri.NewConfig's 100-bit preset at
// blowup 2^logBlowup.
func newTestProver[E fri.Element, X fri.Challenge](t testing.TB, logBlowup int) (*Prover[E, X], error) {
	t.Helper()
	f, err := arithOf[E, X]()
	require.NoError(t, err)
	cfg, err := fri.NewConfig(f.field(), 100, logBlowup)
	require.NoError(t, err)
	return NewProver[E, X](cfg)
}

// proveAndCheck proves trace with the claimed output and verifies the proof
// through its bytes; it returns prove's error, or else verify's.
func proveAndCheck[E fri.Element, X fri.Challenge](t *testing.T, p *Prover[E, X], trace prover.Trace[E], output E) error {
	t.Helper()
	proof, err := p.Prove(trace, output)
	if err != nil {
		return err
	}
	data, err := proof.MarshalBinary()
	require.NoError(t, err)
	var got Proof[E, X]
	require.NoError(t, got.UnmarshalBinary(data))
	return Verify(p.cfg, logRowsOf(len(trace[0])), output, &got)
}

// assertRejected asserts that a bad statement was refused: by the prover,
// whose quotient is then not a codeword of degree < n (fri.Open's check of
// its oracle, or of the last layer), or by the verifier.
func assertRejected(t *testing.T, err error, what string) {
	t.Helper()
	require.Error(t, err, "%s: accepted", what)
	who := "the verifier"
	if !errors.Is(err, ErrRejected) {
		who = "the prover"
	}
	t.Logf("%s: rejected by %s: %v", what, who, err)
}

func testHonest[E fri.Element, X fri.Challenge](t *testing.T, sizes []int) {
	p, err := newTestProver[E, X](t, 2)
	require.NoError(t, err)
	defer p.Close()
	for _, k := range sizes {
		a, err := newAIR[E, X](k, 2)
		require.NoError(t, err)
		trace, output := a.fibonacci()
		require.NoError(t, proveAndCheck(t, p, trace, output), "trace domain of dimension %d", k)
	}
}

func TestHonest(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testHonest[babybear.Element, bbext.E4](t, []int{3, 4, 7, 10}) })
	t.Run("koalabear", func(t *testing.T) { testHonest[koalabear.Element, kbext.E4](t, []int{3, 6, 10}) })
	t.Run("goldilocks", func(t *testing.T) { testHonest[goldilocks.Element, glext.E2](t, []int{3, 5, 9}) })
	t.Run("bn254", func(t *testing.T) { testHonest[fr.Element, fr.Element](t, []int{3, 8}) })
	t.Run("gf64", func(t *testing.T) { testHonest[gf64.Element, gf128.Element](t, []int{3, 4, 7, 10}) })
}

// continueFrom recomputes rows from+1 … T−1 of trace by the recurrence and
// returns the new output: a trace that satisfies every constraint but the
// ones the caller broke at or before row from.
func continueFrom[E fri.Element, X fri.Challenge](a *air[E, X], trace prover.Trace[E], from int) E {
	f, A, B := a.f, trace[0], trace[1]
	for t := from + 1; t < len(A); t++ {
		A[t], B[t] = B[t-1], f.add(A[t-1], f.mul(a.c, B[t-1]))
	}
	return B[len(B)-1]
}

func testBadTraces[E fri.Element, X fri.Challenge](t *testing.T, logRows, logBlowup int) {
	p, err := newTestProver[E, X](t, logBlowup)
	require.NoError(t, err)
	defer p.Close()
	a, err := newAIR[E, X](logRows, logBlowup)
	require.NoError(t, err)
	f := a.f
	T := a.d.rows()
	one := f.fromUint(1)

	// One wrong entry in the middle: a_(T/2) + 1 breaks a' = b at row
	// T/2 − 1 and b' = a + c·b at row T/2.
	trace, output := a.fibonacci()
	trace[0][T/2] = f.add(trace[0][T/2], one)
	assertRejected(t, proveAndCheck(t, p, trace, output), "one wrong entry")

	// One constraint broken at one row: b_(t+1) = a_t + c·b_t + 1, the rest
	// of the trace and its output consistent with it.
	for _, row := range []int{0, T/2 - 1, T - 2} {
		trace, _ = a.fibonacci()
		trace[1][row+1] = f.add(f.add(trace[0][row], f.mul(a.c, trace[1][row])), one)
		output = continueFrom(a, trace, row+1)
		assertRejected(t, proveAndCheck(t, p, trace, output), fmt.Sprintf("b' = a + c·b broken at row %d", row))
	}
	trace, _ = a.fibonacci()
	trace[0][T/2+1] = f.add(trace[0][T/2+1], one) // a' = b broken at row T/2
	output = continueFrom(a, trace, T/2+1)
	assertRejected(t, proveAndCheck(t, p, trace, output), "a' = b broken at row T/2")

	// Wrong boundary values: a_0 = 2 (or b_0 = 2; x for GF(2^64)) and the
	// recurrence from there, with that trace's own output.
	for c := range Columns {
		trace, _ = a.fibonacci()
		trace[c][0] = f.fromUint(2)
		output = continueFrom(a, trace, 0)
		assertRejected(t, proveAndCheck(t, p, trace, output), fmt.Sprintf("column %d's boundary", c))
	}

	// A wrong public output: the prover is given it (its quotient has a
	// pole at the last row's point), or the verifier is.
	trace, output = a.fibonacci()
	wrong := f.add(output, one)
	assertRejected(t, proveAndCheck(t, p, trace, wrong), "wrong output, proved")
	proof, err := p.Prove(trace, output)
	require.NoError(t, err)
	err = Verify(p.cfg, logRows, wrong, proof)
	require.ErrorIs(t, err, ErrRejected, "wrong output, verified")

	// A cheating prover commits a quotient of low degree (any: here the
	// LDE of random Columns) for a trace that breaks a constraint: FRI
	// proves its values, and the AIR check at z rejects them.
	p.forge = func(q [][]E) ([][]E, error) {
		random, err := prover.RandomTrace[E](logRows, len(q), 7)
		if err != nil {
			return nil, err
		}
		return p.enc.Encode(random)
	}
	trace, output = a.fibonacci()
	trace[0][T/2] = f.add(trace[0][T/2], one)
	err = proveAndCheck(t, p, trace, output)
	require.ErrorIs(t, err, ErrRejected, "a low-degree quotient for a bad trace")
	require.NotErrorIs(t, err, fri.ErrProof, "FRI accepts the forged quotient's opening")
	require.ErrorContains(t, err, "the AIR does not hold at z")
}

func TestBadTraces(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testBadTraces[babybear.Element, bbext.E4](t, 6, 2) })
	t.Run("koalabear", func(t *testing.T) { testBadTraces[koalabear.Element, kbext.E4](t, 5, 2) })
	t.Run("goldilocks", func(t *testing.T) { testBadTraces[goldilocks.Element, glext.E2](t, 5, 2) })
	t.Run("bn254", func(t *testing.T) { testBadTraces[fr.Element, fr.Element](t, 4, 2) })
	t.Run("gf64", func(t *testing.T) { testBadTraces[gf64.Element, gf128.Element](t, 6, 2) })
	// The selectors and successors at the other blowups.
	for _, logBlowup := range []int{1, 3, 4} {
		t.Run(fmt.Sprintf("babybear/blowup%d", 1<<logBlowup), func(t *testing.T) { testBadTraces[babybear.Element, bbext.E4](t, 5, logBlowup) })
		t.Run(fmt.Sprintf("gf64/blowup%d", 1<<logBlowup), func(t *testing.T) { testBadTraces[gf64.Element, gf128.Element](t, 5, logBlowup) })
	}
}

func testTampered[E fri.Element, X fri.Challenge](t *testing.T, logRows int) {
	p, err := newTestProver[E, X](t, 2)
	require.NoError(t, err)
	defer p.Close()
	a, err := newAIR[E, X](logRows, 2)
	require.NoError(t, err)
	f := a.f
	trace, output := a.fibonacci()
	proof, err := p.Prove(trace, output)
	require.NoError(t, err)
	require.NoError(t, Verify(p.cfg, logRows, output, proof))
	data, err := proof.MarshalBinary()
	require.NoError(t, err)

	// A flipped bit anywhere: the header and the roots, then positions spread
	// over the rest, each rejected by the decoding or by the verifier.
	positions := []int{0, 1, 2, 33, 34, 35, 66, 67, 68, len(data) - 1}
	rng := rand.New(rand.NewPCG(1, uint64(logRows)))
	count := 150
	if testing.Short() {
		count = 30
	}
	for range count {
		positions = append(positions, rng.IntN(len(data)))
	}
	for _, i := range positions {
		bad := append([]byte(nil), data...)
		bad[i] ^= 1 << rng.IntN(8)
		var got Proof[E, X]
		err := got.UnmarshalBinary(bad)
		if err == nil {
			err = Verify(p.cfg, logRows, output, &got)
		}
		require.ErrorIs(t, err, ErrRejected, "byte %d of %d flipped", i, len(data))
	}
	// Cut short, or with a byte more.
	for _, bad := range [][]byte{data[:len(data)-1], append(append([]byte(nil), data...), 0), data[:1], nil} {
		var got Proof[E, X]
		require.ErrorIs(t, got.UnmarshalBinary(bad), ErrRejected, "%d bytes", len(bad))
	}

	// A wrong claimed value, each of them: the trace at z and z·ω, the
	// quotient's coordinates at z.
	v := proof.Opening.Values
	for b := range v {
		for pt := range v[b] {
			for j := range v[b][pt] {
				saved := v[b][pt][j]
				v[b][pt][j] = f.xadd(saved, f.xembed(f.fromUint(1)))
				err := Verify(p.cfg, logRows, output, proof)
				v[b][pt][j] = saved
				require.ErrorIs(t, err, ErrRejected, "value %d of point %d of batch %d", j, pt, b)
			}
		}
	}
	// Roots swapped, and a wrong height.
	swapped := *proof
	swapped.TraceRoot, swapped.QuotientRoot = proof.QuotientRoot, proof.TraceRoot
	require.ErrorIs(t, Verify(p.cfg, logRows, output, &swapped), ErrRejected)
	require.ErrorIs(t, Verify(p.cfg, logRows+1, output, proof), ErrRejected)
	require.NoError(t, Verify(p.cfg, logRows, output, proof), "the proof is left as it was")
}

func TestTampered(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testTampered[babybear.Element, bbext.E4](t, 6) })
	t.Run("koalabear", func(t *testing.T) { testTampered[koalabear.Element, kbext.E4](t, 4) })
	t.Run("goldilocks", func(t *testing.T) { testTampered[goldilocks.Element, glext.E2](t, 4) })
	t.Run("bn254", func(t *testing.T) { testTampered[fr.Element, fr.Element](t, 3) })
	t.Run("gf64", func(t *testing.T) { testTampered[gf64.Element, gf128.Element](t, 5) })
}

// The quotient's Columns over the LDE against the verifier's expression of
// it at every LDE point embedded in X, and the successors' LDEs against the
// committed polynomials evaluated at N_m(x_i) (prover.Evaluate).
func testQuotient[E fri.Element, X fri.Challenge](t *testing.T, logRows, logBlowup int) {
	p, err := newTestProver[E, X](t, logBlowup)
	require.NoError(t, err)
	defer p.Close()
	a, err := newAIR[E, X](logRows, logBlowup)
	require.NoError(t, err)
	f, d := a.f, a.d
	trace, output := a.fibonacci()
	T := d.rows()
	trace[1][T/2] = f.add(trace[1][T/2], f.fromUint(5)) // any trace: the identity holds off the trace domain
	committed := d.place(trace)
	c, err := p.enc.Commit(committed)
	require.NoError(t, err)
	defer c.Close()
	lde, err := c.LDE()
	require.NoError(t, err)
	N := c.Rows()
	require.Equal(t, 1<<(logRows+p.cfg.LogBlowup), N)
	xs := make([]E, N)
	require.NoError(t, c.CodewordPoints(xs, 0))

	next := make([][][]E, d.pieces())
	rows := []int{0, 1, 2, N/2 + 3, N - 1}
	for m := range next {
		next[m], err = d.nextLDE(m, committed, lde, xs)
		require.NoError(t, err)
		points := make([]X, len(rows))
		for i, r := range rows {
			points[i] = d.next(m, f.xembed(xs[r]))
		}
		want, err := prover.Evaluate(c, points)
		require.NoError(t, err)
		for i, r := range rows {
			for col := range Columns {
				require.True(t, f.xequal(want[i][col], f.xembed(next[m][col][r])), "piece %d, column %d at N(x_%d)", m, col, r)
			}
		}
	}

	var alpha X
	for j := range f.degree() {
		f.coords(&alpha)[j] = f.fromUint(uint64(3 + 7*j))
	}
	ap := powers(f, alpha, a.constraints())
	q := quotientLDE(a, lde, next, xs, output, ap)
	require.Len(t, q, f.degree())
	for i := range N {
		at := []X{f.xembed(lde[0][i]), f.xembed(lde[1][i])}
		nextAt := make([][]X, d.pieces())
		for m := range nextAt {
			nextAt[m] = []X{f.xembed(next[m][0][i]), f.xembed(next[m][1][i])}
		}
		qAt := make([]X, f.degree())
		for j := range qAt {
			qAt[j] = f.xembed(q[j][i])
		}
		require.True(t, f.xequal(constraintsAt(a, f.xembed(xs[i]), at, nextAt, output, ap), recombine(f, qAt)), "row %d", i)
	}
}

func TestQuotient(t *testing.T) {
	t.Run("babybear", func(t *testing.T) { testQuotient[babybear.Element, bbext.E4](t, 5, 2) })
	t.Run("koalabear", func(t *testing.T) { testQuotient[koalabear.Element, kbext.E4](t, 4, 2) })
	t.Run("goldilocks", func(t *testing.T) { testQuotient[goldilocks.Element, glext.E2](t, 4, 2) })
	t.Run("bn254", func(t *testing.T) { testQuotient[fr.Element, fr.Element](t, 3, 2) })
	t.Run("gf64", func(t *testing.T) { testQuotient[gf64.Element, gf128.Element](t, 5, 2) })
	for _, logBlowup := range []int{1, 3, 4} {
		t.Run(fmt.Sprintf("babybear/blowup%d", 1<<logBlowup), func(t *testing.T) { testQuotient[babybear.Element, bbext.E4](t, 4, logBlowup) })
		t.Run(fmt.Sprintf("gf64/blowup%d", 1<<logBlowup), func(t *testing.T) { testQuotient[gf64.Element, gf128.Element](t, 4, logBlowup) })
	}
}

// The coordinates are the types' fields in their order, and recombine
// inverts them.
func TestCoords(t *testing.T) {
	f, err := arithOf[babybear.Element, bbext.E4]()
	require.NoError(t, err)
	var x bbext.E4
	for j := range f.degree() {
		f.coords(&x)[j] = f.fromUint(uint64(j + 1))
	}
	assert.Equal(t, uint64(1), x.B0.A0.Uint64())
	assert.Equal(t, uint64(2), x.B0.A1.Uint64())
	assert.Equal(t, uint64(3), x.B1.A0.Uint64())
	assert.Equal(t, uint64(4), x.B1.A1.Uint64())
	parts := make([]bbext.E4, 4)
	for j := range parts {
		parts[j] = f.xembed(f.coords(&x)[j])
	}
	assert.True(t, f.xequal(recombine(f, parts), x))

	g, err := arithOf[goldilocks.Element, glext.E2]()
	require.NoError(t, err)
	var y glext.E2
	y.A0.SetUint64(5)
	y.A1.SetUint64(6)
	assert.Equal(t, []goldilocks.Element{y.A0, y.A1}, g.coords(&y))
	assert.True(t, g.xequal(recombine(g, []glext.E2{g.xembed(y.A0), g.xembed(y.A1)}), y))

	assert.Equal(t, 4, degreeOf[koalabear.Element, kbext.E4](t))
	assert.Equal(t, 2, g.degree())
	assert.Equal(t, 1, degreeOf[fr.Element, fr.Element](t))
	h, err := arithOf[gf64.Element, gf128.Element]()
	require.NoError(t, err)
	z := gf128.Element{A0: 5, A1: 6}
	assert.Equal(t, []gf64.Element{5, 6}, h.coords(&z))
	assert.True(t, h.xequal(recombine(h, []gf128.Element{gf128.Embed(5), gf128.Embed(6)}), z))
	_, err = arithOf[babybear.Element, kbext.E4]()
	assert.Error(t, err, "KoalaBear's E4 over BabyBear")
}

func degreeOf[E fri.Element, X fri.Challenge](t *testing.T) int {
	f, err := arithOf[E, X]()
	require.NoError(t, err)
	return f.degree()
}

func benchmarkProve[E fri.Element, X fri.Challenge](b *testing.B, logRows int) {
	p, err := newTestProver[E, X](b, 2)
	require.NoError(b, err)
	defer p.Close()
	require.NoError(b, p.Prepare(logRows))
	a, err := newAIR[E, X](logRows, 2)
	require.NoError(b, err)
	trace, output := a.fibonacci()
	b.SetBytes(int64(Columns*len(trace[0])) * int64(unsafe.Sizeof(output))) // trace bytes
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Prove(trace, output); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProve(b *testing.B) {
	for _, k := range []int{10, 16} {
		b.Run(fmt.Sprintf("babybear/2^%d", k), func(b *testing.B) { benchmarkProve[babybear.Element, bbext.E4](b, k) })
		b.Run(fmt.Sprintf("goldilocks/2^%d", k), func(b *testing.B) { benchmarkProve[goldilocks.Element, glext.E2](b, k) })
		b.Run(fmt.Sprintf("gf64/2^%d", k), func(b *testing.B) { benchmarkProve[gf64.Element, gf128.Element](b, k) })
	}
}
