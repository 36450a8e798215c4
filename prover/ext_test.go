package prover_test

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// kit is a field pair's arithmetic done the obvious way, with
// gnark-crypto's (or gf128's) own operations, for the references.
type kit[E prover.Element, X prover.Ext] struct {
	lift  func(E) X
	addX  func(a, b X) X
	mulX  func(a, b X) X
	mulE  func(a, b E) E
	addE  func(a, b E) E
	deg   int
	mk    func(c []E) X // from coordinates
	coord func(x X) []E
	// traceGen returns the generator of the trace domain of n points
	// (prime fields); the binary kit reads the message space instead.
	traceGen func(n int) E
	// fft evaluates coefficients over the trace domain of len(a) points in
	// place, natural order (prime fields: gnark-crypto's FFT).
	fft func(a []E)
}

func (k kit[E, X]) randX(seed uint64, n int) []X {
	tr, err := prover.RandomTrace[E](0, k.deg*n, seed)
	if err != nil {
		panic(err)
	}
	out := make([]X, n)
	for i := range out {
		c := make([]E, k.deg)
		for j := range c {
			c[j] = tr[i*k.deg+j][0]
		}
		out[i] = k.mk(c)
	}
	return out
}

// horner evaluates the polynomial of coefficients a (constant first) at z.
func (k kit[E, X]) horner(a []E, z X) X {
	var acc X
	for i := len(a) - 1; i >= 0; i-- {
		acc = k.addX(k.mulX(acc, z), k.lift(a[i]))
	}
	return acc
}

func (k kit[E, X]) hornerE(a []E, x E) E {
	var acc E
	for i := len(a) - 1; i >= 0; i-- {
		acc = k.addE(k.mulE(acc, x), a[i])
	}
	return acc
}

func gnarkMul[E any, P interface {
	*E
	Mul(x, y *E) *E
}](a, b E) E {
	P(&a).Mul(&a, &b)
	return a
}

func gnarkAdd[E any, P interface {
	*E
	Add(x, y *E) *E
}](a, b E) E {
	P(&a).Add(&a, &b)
	return a
}

var (
	kitGF64 = kit[gf64.Element, gf128.Element]{
		lift: gf128.Embed, addX: gf128.Add, mulX: gf128.Mul, mulE: gf64.Mul,
		addE: func(a, b gf64.Element) gf64.Element { return a ^ b }, deg: 2,
		mk:    func(c []gf64.Element) gf128.Element { return gf128.Element{A0: c[0], A1: c[1]} },
		coord: func(x gf128.Element) []gf64.Element { return []gf64.Element{x.A0, x.A1} },
	}
	kitGoldilocks = kit[goldilocks.Element, glext.E2]{
		lift: func(a goldilocks.Element) glext.E2 { return glext.E2{A0: a} },
		addX: gnarkAdd[glext.E2], mulX: gnarkMul[glext.E2],
		mulE: gnarkMul[goldilocks.Element], addE: gnarkAdd[goldilocks.Element], deg: 2,
		mk:       func(c []goldilocks.Element) glext.E2 { return glext.E2{A0: c[0], A1: c[1]} },
		coord:    func(x glext.E2) []goldilocks.Element { return []goldilocks.Element{x.A0, x.A1} },
		traceGen: func(n int) goldilocks.Element { return goldilocksfft.NewDomain(uint64(n)).Generator },
		fft: func(a []goldilocks.Element) {
			goldilocksfft.NewDomain(uint64(len(a))).FFT(a, goldilocksfft.DIF)
			goldilocksfft.BitReverse(a)
		},
	}
	kitBabyBear = kit[babybear.Element, bbext.E4]{
		lift: func(a babybear.Element) bbext.E4 { return bbext.E4{B0: bbext.E2{A0: a}} },
		addX: gnarkAdd[bbext.E4], mulX: gnarkMul[bbext.E4],
		mulE: gnarkMul[babybear.Element], addE: gnarkAdd[babybear.Element], deg: 4,
		mk: func(c []babybear.Element) bbext.E4 {
			return bbext.E4{B0: bbext.E2{A0: c[0], A1: c[1]}, B1: bbext.E2{A0: c[2], A1: c[3]}}
		},
		coord:    func(x bbext.E4) []babybear.Element { return []babybear.Element{x.B0.A0, x.B0.A1, x.B1.A0, x.B1.A1} },
		traceGen: func(n int) babybear.Element { return babybearfft.NewDomain(uint64(n)).Generator },
		fft: func(a []babybear.Element) {
			babybearfft.NewDomain(uint64(len(a))).FFT(a, babybearfft.DIF)
			babybearfft.BitReverse(a)
		},
	}
	kitKoalaBear = kit[koalabear.Element, kbext.E4]{
		lift: func(a koalabear.Element) kbext.E4 { return kbext.E4{B0: kbext.E2{A0: a}} },
		addX: gnarkAdd[kbext.E4], mulX: gnarkMul[kbext.E4],
		mulE: gnarkMul[koalabear.Element], addE: gnarkAdd[koalabear.Element], deg: 4,
		mk: func(c []koalabear.Element) kbext.E4 {
			return kbext.E4{B0: kbext.E2{A0: c[0], A1: c[1]}, B1: kbext.E2{A0: c[2], A1: c[3]}}
		},
		coord:    func(x kbext.E4) []koalabear.Element { return []koalabear.Element{x.B0.A0, x.B0.A1, x.B1.A0, x.B1.A1} },
		traceGen: func(n int) koalabear.Element { return koalabearfft.NewDomain(uint64(n)).Generator },
		fft: func(a []koalabear.Element) {
			koalabearfft.NewDomain(uint64(len(a))).FFT(a, koalabearfft.DIF)
			koalabearfft.BitReverse(a)
		},
	}
	kitBN254 = kit[fr.Element, fr.Element]{
		lift: func(a fr.Element) fr.Element { return a },
		addX: gnarkAdd[fr.Element], mulX: gnarkMul[fr.Element],
		mulE: gnarkMul[fr.Element], addE: gnarkAdd[fr.Element], deg: 1,
		mk:       func(c []fr.Element) fr.Element { return c[0] },
		coord:    func(x fr.Element) []fr.Element { return []fr.Element{x} },
		traceGen: func(n int) fr.Element { return bn254fft.NewDomain(uint64(n)).Generator },
		fft:      func(a []fr.Element) { bn254fft.NewDomain(uint64(len(a))).FFT(a, bn254fft.DIF); bn254fft.BitReverse(a) },
	}
)

func TestCombineExt(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testCombineExt(t, kitGF64) })
	t.Run("goldilocks", func(t *testing.T) { testCombineExt(t, kitGoldilocks) })
	t.Run("babybear", func(t *testing.T) { testCombineExt(t, kitBabyBear) })
	t.Run("koalabear", func(t *testing.T) { testCombineExt(t, kitKoalaBear) })
	t.Run("bn254", func(t *testing.T) { testCombineExt(t, kitBN254) })
}

// testCombineExt checks CombineExt against Σ alpha_j·lift(col_j[i]) done
// term by term, for 1 to 65 columns and rows spanning several blocks, and
// CombinePowers against CombineExt with the explicit powers.
func testCombineExt[E prover.Element, X prover.Ext](t *testing.T, k kit[E, X]) {
	enc, err := prover.New[E](prover.WithBlowup(2))
	require.NoError(t, err)
	shapes := [][2]int{{0, 1}, {2, 2}, {3, 3}, {1, 17}, {11, 5}, {4, 65}}
	for si, sh := range shapes {
		tr, err := prover.RandomTrace[E](sh[0], sh[1], uint64(10+si))
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		alpha := k.randX(uint64(20+si), sh[1])
		got, err := prover.CombineExt(c, alpha)
		require.NoError(t, err)
		lde := mustLDE(t, c)
		want := make([]X, c.Rows())
		for i := range want {
			for j := range lde {
				want[i] = k.addX(want[i], k.mulX(alpha[j], k.lift(lde[j][i])))
			}
		}
		require.Equal(t, want, got, "2^%d × %d", sh[0], sh[1])

		// Powers of one challenge.
		a := k.randX(uint64(30+si), 1)[0]
		pw := make([]X, sh[1])
		pw[0] = k.lift(oneOf[E]())
		for j := 1; j < len(pw); j++ {
			pw[j] = k.mulX(pw[j-1], a)
		}
		gotP, err := prover.CombinePowers(c, a)
		require.NoError(t, err)
		wantP, err := prover.CombineExt(c, pw)
		require.NoError(t, err)
		require.Equal(t, wantP, gotP, "powers, 2^%d × %d", sh[0], sh[1])

		// Bad input.
		_, err = prover.CombineExt(c, alpha[1:])
		require.ErrorIs(t, err, prover.ErrShape)
		require.ErrorIs(t, prover.CombineExtInto(c, make([]X, c.Rows()+1), alpha), prover.ErrShape)
		require.ErrorIs(t, prover.CombinePowersInto(c, make([]X, c.Rows()-1), a), prover.ErrShape)
		require.NoError(t, c.Close())
		_, err = prover.CombineExt(c, alpha)
		require.ErrorIs(t, err, prover.ErrClosed)
	}
	// The extremes: 65 columns of the largest representation, p − 1, with
	// every coefficient's coordinates p − 1: the largest sums the lazy
	// kernels see.
	m1 := negOne[E]()
	lde := make([][]E, 65)
	for j := range lde {
		lde[j] = []E{m1, m1, m1, m1}
	}
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	co := make([]E, k.deg)
	for i := range co {
		co[i] = m1
	}
	alpha := make([]X, len(lde))
	for j := range alpha {
		alpha[j] = k.mk(co)
	}
	got, err := prover.CombineExt(c, alpha)
	require.NoError(t, err)
	var want X
	for range lde {
		want = k.addX(want, k.mulX(alpha[0], k.lift(m1)))
	}
	for i := range got {
		require.Equal(t, want, got[i], "extremes, row %d", i)
	}
}

// negOne returns the element of E's field whose internal (Montgomery)
// representation is the largest, p − 1 (GF(2^64): all ones; BN254: −1):
// the largest words the lazy kernels add up.
func negOne[E prover.Element]() E {
	var z E
	var o any
	switch any(z).(type) {
	case gf64.Element:
		o = ^gf64.Element(0)
	case goldilocks.Element:
		o = goldilocks.Element{goldilocks.Modulus().Uint64() - 1}
	case babybear.Element:
		o = babybear.Element{uint32(babybear.Modulus().Uint64() - 1)}
	case koalabear.Element:
		o = koalabear.Element{uint32(koalabear.Modulus().Uint64() - 1)}
	case fr.Element:
		var v fr.Element
		v.SetOne()
		v.Neg(&v)
		o = v
	}
	return o.(E)
}

func oneOf[E prover.Element]() E {
	var z E
	var o any
	switch any(z).(type) {
	case gf64.Element:
		o = gf64.Element(1)
	case goldilocks.Element:
		o = goldilocks.One()
	case babybear.Element:
		o = babybear.One()
	case koalabear.Element:
		o = koalabear.One()
	case fr.Element:
		o = fr.One()
	}
	return o.(E)
}

// TestExtWrongField checks that a challenge of another field is refused
// with ErrField by every entry point.
func TestExtWrongField(t *testing.T) {
	enc, err := prover.New[babybear.Element](prover.WithBlowup(2))
	require.NoError(t, err)
	tr, err := prover.RandomTrace[babybear.Element](2, 2, 1)
	require.NoError(t, err)
	c, err := enc.Commit(tr)
	require.NoError(t, err)
	_, err = prover.CombineExt(c, make([]kbext.E4, 2))
	require.ErrorIs(t, err, prover.ErrField)
	_, err = prover.CombineExt(c, make([]gf128.Element, 2))
	require.ErrorIs(t, err, prover.ErrField)
	_, err = prover.CombinePowers(c, glext.E2{})
	require.ErrorIs(t, err, prover.ErrField)
	_, err = prover.Evaluate(c, []fr.Element{{}})
	require.ErrorIs(t, err, prover.ErrField)
	require.ErrorIs(t, prover.EvaluateInto(c, [][]kbext.E4{make([]kbext.E4, 2)}, make([]kbext.E4, 1)), prover.ErrField)
	// The right field passes.
	_, err = prover.CombineExt(c, make([]bbext.E4, 2))
	require.NoError(t, err)
}

func TestEvaluate(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testEvaluate(t, kitGF64) })
	t.Run("goldilocks", func(t *testing.T) { testEvaluate(t, kitGoldilocks) })
	t.Run("babybear", func(t *testing.T) { testEvaluate(t, kitBabyBear) })
	t.Run("koalabear", func(t *testing.T) { testEvaluate(t, kitKoalaBear) })
	t.Run("bn254", func(t *testing.T) { testEvaluate(t, kitBN254) })
}

// testEvaluate builds traces from random coefficients, commits them, and
// compares Evaluate with Horner's rule in the extension: at random points,
// at base-field points that are codeword points (the stored rows), trace
// points and other base-field points, one and several points a call, for
// blowups 2, 4 and 8 and 1 to 2^12 rows.
func testEvaluate[E prover.Element, X prover.Ext](t *testing.T, k kit[E, X]) {
	sizes := []int{0, 1, 3, 6}
	if !testing.Short() {
		sizes = append(sizes, 12)
	}
	for _, blowup := range []int{2, 4, 8} {
		enc, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		for _, logRows := range sizes {
			name := fmt.Sprintf("blowup %d, 2^%d rows", blowup, logRows)
			n := 1 << logRows
			cols := 3
			coeffs, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*10+blowup))
			require.NoError(t, err)
			// The trace: each column's polynomial at the trace points.
			tr := make(prover.Trace[E], cols)
			tp := tracePoints[E](t, k, enc, logRows)
			for j := range tr {
				tr[j] = make([]E, n)
				if n <= 64 {
					for i := range n {
						tr[j][i] = k.hornerE(coeffs[j], tp[i])
					}
					continue
				}
				// Larger: the transform, checked at one point.
				copy(tr[j], coeffs[j])
				if k.fft == nil {
					be := any(enc).(prover.Encoder[gf64.Element])
					msg, _, err := prover.BinaryDomainsOf(be, logRows)
					require.NoError(t, err)
					require.NoError(t, msg.FFT(any(tr[j]).([]gf64.Element)))
				} else {
					k.fft(tr[j])
				}
				require.Equal(t, k.hornerE(coeffs[j], tp[n-3]), tr[j][n-3])
			}
			c, err := enc.Commit(tr)
			require.NoError(t, err)
			// Points: random ones, a codeword point, a trace point, a base-field point.
			pts := k.randX(uint64(logRows+100*blowup), 5)
			cw, err := c.CodewordPoint(c.Rows() - 1)
			require.NoError(t, err)
			pts = append(pts, k.lift(cw), k.lift(tp[n-1]), k.lift(k.addE(tp[0], oneOf[E]())))
			cw0, err := c.CodewordPoint(0)
			require.NoError(t, err)
			pts = append(pts, k.lift(cw0))
			got, err := prover.Evaluate(c, pts)
			require.NoError(t, err, name)
			for p, z := range pts {
				for j := range cols {
					require.Equal(t, k.horner(coeffs[j], z), got[p][j], "%s: point %d, column %d", name, p, j)
				}
			}
			// One, two and three points at a time give the same.
			for p := range pts {
				for w := 1; w <= 3 && p+w <= len(pts); w++ {
					part, err := prover.Evaluate(c, pts[p:p+w])
					require.NoError(t, err)
					assert.Equal(t, got[p:p+w], part, "%s: points %d..%d", name, p, p+w-1)
				}
			}
			// Bad input.
			_, err = prover.Evaluate[E, X](c, nil)
			require.ErrorIs(t, err, prover.ErrShape)
			require.ErrorIs(t, prover.EvaluateInto(c, make([][]X, 1), pts[:2]), prover.ErrShape)
			require.ErrorIs(t, prover.EvaluateInto(c, [][]X{make([]X, cols+1)}, pts[:1]), prover.ErrShape)
			require.NoError(t, c.Close())
			_, err = prover.Evaluate(c, pts)
			require.ErrorIs(t, err, prover.ErrClosed)
		}
	}
}

// tracePoints returns the points of the trace domain of 2^logRows rows:
// gnark-crypto's domain (prime fields), the encoder's message space
// (BinaryDomainsOf, GF(2^64), checked against DefaultBinaryDomains).
func tracePoints[E prover.Element, X prover.Ext](t *testing.T, k kit[E, X], enc prover.Encoder[E], logRows int) []E {
	n := 1 << logRows
	out := make([]E, n)
	if be, ok := any(enc).(prover.Encoder[gf64.Element]); ok {
		msg, cw, err := prover.BinaryDomainsOf(be, logRows)
		require.NoError(t, err)
		dm, dc, err := prover.DefaultBinaryDomains(logRows, log2(enc.Blowup()))
		require.NoError(t, err)
		require.Equal(t, dm.Elements(), msg.Elements())
		require.Equal(t, dc.Shift(), cw.Shift())
		require.Equal(t, dc.Basis(), cw.Basis())
		for i := range out {
			out[i] = any(msg.Element(i)).(E)
		}
		return out
	}
	w := k.traceGen(n)
	out[0] = oneOf[E]()
	for i := 1; i < n; i++ {
		out[i] = k.mulE(out[i-1], w)
	}
	return out
}

// TestEvaluateBinaryDomains evaluates GF(2^64) commitments over domains
// of WithBinaryDomains whose codeword basis is not the message space's.
func TestEvaluateBinaryDomains(t *testing.T) {
	custom := func(logRows, logBlowup int) (*domain.Subspace, *domain.Subspace, error) {
		msg, _, err := prover.DefaultBinaryDomains(logRows, logBlowup)
		if err != nil {
			return nil, nil, err
		}
		basis := make([]gf64.Element, logRows+logBlowup)
		for j := range basis {
			basis[j] = gf64.Element(3) << (2 * j) // x^2j + x^(2j+1)
		}
		cw, err := domain.New(0xdead_beef_0000_0001, basis...)
		return msg, cw, err
	}
	enc, err := prover.New[gf64.Element](prover.WithBlowup(4), prover.WithBinaryDomains(custom))
	require.NoError(t, err)
	for _, logRows := range []int{0, 2, 12} {
		n := 1 << logRows
		coeffs, err := prover.RandomTrace[gf64.Element](logRows, 2, 5)
		require.NoError(t, err)
		msg, _, err := prover.BinaryDomainsOf(enc, logRows)
		require.NoError(t, err)
		tr := make(prover.Trace[gf64.Element], 2)
		for j := range tr {
			tr[j] = append([]gf64.Element(nil), coeffs[j]...)
			require.NoError(t, msg.FFT(tr[j]))
		}
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		x, err := c.CodewordPoint(c.Rows() / 2)
		require.NoError(t, err)
		pts := append(kitGF64.randX(uint64(n), 2), gf128.Embed(x))
		for w := 1; w <= len(pts); w++ {
			got, err := prover.Evaluate(c, pts[:w])
			require.NoError(t, err)
			for p, z := range pts[:w] {
				for j := range tr {
					require.Equal(t, kitGF64.horner(coeffs[j], z), got[p][j], "2^%d rows, point %d of %d", logRows, p, w)
				}
			}
		}
	}
}
