package prover_test

import (
	"crypto/sha256"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// TestDomainPoints checks TracePoint, CodewordPoint and CodewordPoints
// against the encoders' own domains (PrimeDomains, BinaryDomainsOf).
func TestDomainPoints(t *testing.T) {
	t.Run("goldilocks", func(t *testing.T) {
		testPrimePoints[goldilocksfft.Domain, goldilocks.Element](t, func(d *goldilocksfft.Domain) (goldilocks.Element, goldilocks.Element) {
			return d.Generator, d.FrMultiplicativeGen
		}, kitGoldilocks.mulE)
	})
	t.Run("babybear", func(t *testing.T) {
		testPrimePoints[babybearfft.Domain, babybear.Element](t, func(d *babybearfft.Domain) (babybear.Element, babybear.Element) {
			return d.Generator, d.FrMultiplicativeGen
		}, kitBabyBear.mulE)
	})
	t.Run("koalabear", func(t *testing.T) {
		testPrimePoints[koalabearfft.Domain, koalabear.Element](t, func(d *koalabearfft.Domain) (koalabear.Element, koalabear.Element) {
			return d.Generator, d.FrMultiplicativeGen
		}, kitKoalaBear.mulE)
	})
	t.Run("bn254", func(t *testing.T) {
		testPrimePoints[bn254fft.Domain, fr.Element](t, func(d *bn254fft.Domain) (fr.Element, fr.Element) {
			return d.Generator, d.FrMultiplicativeGen
		}, kitBN254.mulE)
	})
	t.Run("gf64", func(t *testing.T) {
		// A custom pair of domains too.
		custom := func(logRows, logBlowup int) (*domain.Subspace, *domain.Subspace, error) {
			msg, cw, err := prover.DefaultBinaryDomains(logRows, logBlowup)
			if err != nil {
				return nil, nil, err
			}
			cw, err = cw.WithShift(0x1234_5678_9abc_def0)
			return msg, cw, err
		}
		for _, opt := range []prover.Option{nil, prover.WithBinaryDomains(custom)} {
			enc, err := prover.New[gf64.Element](prover.WithBlowup(4), opt)
			require.NoError(t, err)
			tr, err := prover.RandomTrace[gf64.Element](5, 2, 3)
			require.NoError(t, err)
			c, err := enc.Commit(tr)
			require.NoError(t, err)
			msg, cw, err := prover.BinaryDomainsOf(enc, 5)
			require.NoError(t, err)
			for i := range 32 {
				p, err := c.TracePoint(i)
				require.NoError(t, err)
				require.Equal(t, msg.Element(i), p)
			}
			all := make([]gf64.Element, c.Rows()-3)
			require.NoError(t, c.CodewordPoints(all, 3))
			for i := range c.Rows() {
				p, err := c.CodewordPoint(i)
				require.NoError(t, err)
				require.Equal(t, cw.Element(i), p)
				if i >= 3 {
					require.Equal(t, p, all[i-3])
				}
			}
			_, err = c.TracePoint(32)
			require.ErrorIs(t, err, prover.ErrIndex)
			_, err = c.CodewordPoint(-1)
			require.ErrorIs(t, err, prover.ErrIndex)
			require.ErrorIs(t, c.CodewordPoints(make([]gf64.Element, 2), c.Rows()-1), prover.ErrIndex)
		}
		_, _, err := prover.BinaryDomainsOf(nil, 3)
		require.ErrorIs(t, err, prover.ErrConfig)
	})
}

func testPrimePoints[D any, E prover.Element](t *testing.T, roots func(*D) (gen, shift E), mul func(a, b E) E) {
	enc, err := prover.New[E](prover.WithBlowup(8))
	require.NoError(t, err)
	for _, logRows := range []int{0, 1, 4} {
		tr, err := prover.RandomTrace[E](logRows, 2, 3)
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		msg, cw, shift, err := prover.PrimeDomains[D](enc, logRows)
		require.NoError(t, err)
		w, _ := roots(msg)
		wc, g := roots(cw)
		require.Equal(t, g, shift)
		x := oneOf[E]()
		for i := range 1 << logRows {
			p, err := c.TracePoint(i)
			require.NoError(t, err)
			require.Equal(t, x, p, "trace point %d", i)
			x = mul(x, w)
		}
		all := make([]E, c.Rows())
		require.NoError(t, c.CodewordPoints(all, 0))
		x = g
		for i := range c.Rows() {
			p, err := c.CodewordPoint(i)
			require.NoError(t, err)
			require.Equal(t, x, p, "codeword point %d", i)
			require.Equal(t, x, all[i])
			x = mul(x, wc)
		}
		_, err = c.TracePoint(1 << logRows)
		require.ErrorIs(t, err, prover.ErrIndex)
		_, err = c.CodewordPoint(c.Rows())
		require.ErrorIs(t, err, prover.ErrIndex)
	}
}

// TestCommitLDEOneRow commits a one-row matrix (N = 1: the root is the
// leaf), opens it and verifies the opening; Evaluate refuses it (it is
// not a codeword of blowup 4).
func TestCommitLDEOneRow(t *testing.T) {
	enc, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	lde := [][]babybear.Element{{babybear.NewElement(1)}, {babybear.NewElement(3)}, {babybear.NewElement(5)}}
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	leaf := sha256.Sum256([]byte{0x00, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 5})
	require.Equal(t, leaf[:], c.Root())
	o, err := c.Open([]int{0})
	require.NoError(t, err)
	require.Empty(t, o.Paths[0])
	require.NoError(t, o.Verify(c.Root(), 1, nil))
	o.Rows[0][1] = babybear.NewElement(4)
	require.ErrorIs(t, o.Verify(c.Root(), 1, nil), prover.ErrVerify)
	_, err = c.Open([]int{1})
	require.ErrorIs(t, err, prover.ErrIndex)
	_, err = prover.Evaluate(c, []bbext.E4{{}})
	require.ErrorIs(t, err, prover.ErrShape)

	genc, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	gc, err := genc.CommitLDE([][]gf64.Element{{7}})
	require.NoError(t, err)
	leaf = sha256.Sum256([]byte{0x00, 7, 0, 0, 0, 0, 0, 0, 0})
	require.Equal(t, leaf[:], gc.Root())
	o2, err := gc.Open([]int{0})
	require.NoError(t, err)
	require.NoError(t, o2.Verify(gc.Root(), 1, nil))
}
