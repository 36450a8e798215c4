package prover_test

import (
	"crypto/sha256"
	"errors"
	"hash"
	"math"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

func TestBinaryDomainsOnlyForGF64(t *testing.T) {
	opt := prover.WithBinaryDomains(prover.DefaultBinaryDomains)
	_, err := prover.New[gf64.Element](opt)
	require.NoError(t, err)
	_, err = prover.New[goldilocks.Element](opt)
	require.ErrorIs(t, err, prover.ErrConfig)
	_, err = prover.New[fr.Element](opt)
	require.ErrorIs(t, err, prover.ErrConfig)
	// WithHash(nil) is the default hash, SHA-256.
	a, err := prover.New[gf64.Element](prover.WithHash(nil))
	require.NoError(t, err)
	b, err := prover.New[gf64.Element](prover.WithHash(sha256.New))
	require.NoError(t, err)
	tr, err := prover.RandomTrace[gf64.Element](3, 2, 9)
	require.NoError(t, err)
	ca, err := a.Commit(tr)
	require.NoError(t, err)
	cb, err := b.Commit(tr)
	require.NoError(t, err)
	assert.Equal(t, ca.Root(), cb.Root())
}

// failingSource fails in Shape or in ReadColumns with its own error.
type failingSource struct {
	inShape bool
}

var errMine = errors.New("my source broke")

func (s failingSource) Shape() (int, int, error) {
	if s.inShape {
		return 0, 0, errMine
	}
	return 3, 4, nil
}

func (s failingSource) ReadColumns(first int, dst [][]gf64.Element) error { return errMine }

func TestSourceErrorsWrapBoth(t *testing.T) {
	for name, opts := range backends(t) { // a GPU's Commit reads through its staging
		enc, err := prover.New[gf64.Element](opts...)
		require.NoError(t, err)
		for _, src := range []failingSource{{inShape: true}, {}} {
			_, err := enc.Commit(src)
			require.ErrorIs(t, err, prover.ErrSource, name)
			require.ErrorIs(t, err, errMine, name)
			_, err = enc.Encode(src)
			require.ErrorIs(t, err, prover.ErrSource, name)
			require.ErrorIs(t, err, errMine, name)
		}
		require.NoError(t, enc.Close())
	}
}

func TestPrimeDomains(t *testing.T) {
	testPrimeDomains[goldilocks.Element, *goldilocks.Element, goldilocksfft.Domain](t, func(d *goldilocksfft.Domain) (uint64, goldilocks.Element, goldilocks.Element) {
		return d.Cardinality, d.Generator, d.FrMultiplicativeGen
	})
	testPrimeDomains[babybear.Element, *babybear.Element, babybearfft.Domain](t, func(d *babybearfft.Domain) (uint64, babybear.Element, babybear.Element) {
		return d.Cardinality, d.Generator, d.FrMultiplicativeGen
	})
	testPrimeDomains[koalabear.Element, *koalabear.Element, koalabearfft.Domain](t, func(d *koalabearfft.Domain) (uint64, koalabear.Element, koalabear.Element) {
		return d.Cardinality, d.Generator, d.FrMultiplicativeGen
	})
	testPrimeDomains[fr.Element, *fr.Element, bn254fft.Domain](t, func(d *bn254fft.Domain) (uint64, fr.Element, fr.Element) {
		return d.Cardinality, d.Generator, d.FrMultiplicativeGen
	})

	// The domains of the sizes used last are kept: a trace size that comes
	// back gets the same domains, not new ones; more sizes than the
	// encoder keeps build new ones.
	bbc, err := prover.New[babybear.Element](prover.WithBlowup(2))
	require.NoError(t, err)
	m5, c5, _, err := prover.PrimeDomains[babybearfft.Domain](bbc, 5)
	require.NoError(t, err)
	m7, _, _, err := prover.PrimeDomains[babybearfft.Domain](bbc, 7)
	require.NoError(t, err)
	again, c5again, _, err := prover.PrimeDomains[babybearfft.Domain](bbc, 5)
	require.NoError(t, err)
	assert.True(t, m5 == again, "the message domain of a size seen before")
	assert.True(t, c5 == c5again, "the codeword domain of a size seen before")
	m6, _, _, err := prover.PrimeDomains[babybearfft.Domain](bbc, 6)
	require.NoError(t, err)
	assert.True(t, c5 == m6, "2^6 points at blowup 2 after 2^5: one domain serves both")
	for k := 8; k <= 13; k++ { // domains of 2^8 … 2^14 points push 2^7's out
		_, _, _, err = prover.PrimeDomains[babybearfft.Domain](bbc, k)
		require.NoError(t, err)
	}
	m7again, _, _, err := prover.PrimeDomains[babybearfft.Domain](bbc, 7)
	require.NoError(t, err)
	assert.True(t, m7 != m7again, "a size dropped from the cache is built again")
	assert.Equal(t, m7.Generator, m7again.Generator)

	// Not a prime encoder, or the wrong domain type.
	g, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	_, _, _, err = prover.PrimeDomains[goldilocksfft.Domain](g, 4)
	require.ErrorIs(t, err, prover.ErrConfig)
	bb, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	_, _, _, err = prover.PrimeDomains[goldilocksfft.Domain](bb, 4)
	require.ErrorIs(t, err, prover.ErrConfig)
	// No domain that large: KoalaBear's 2-adicity is 24.
	kb, err := prover.New[koalabear.Element]()
	require.NoError(t, err)
	_, _, _, err = prover.PrimeDomains[koalabearfft.Domain](kb, 23)
	require.ErrorIs(t, err, prover.ErrShape)
	_, _, _, err = prover.PrimeDomains[koalabearfft.Domain](kb, -1)
	require.ErrorIs(t, err, prover.ErrShape)
}

// testPrimeDomains checks that the domains PrimeDomains gives are the ones
// the LDE is evaluated over: row i of the LDE of a trace equals the
// trace's interpolant, evaluated naively at shift·ω'^i from its evaluations
// at ω^j (Lagrange form over the message domain).
func testPrimeDomains[E prover.Element, P primeField[E], D any](t *testing.T, get func(*D) (card uint64, gen, shift E)) {
	t.Run(prover.FieldOf[E]().String(), func(t *testing.T) {
		enc, err := prover.New[E](prover.WithBlowup(4))
		require.NoError(t, err)
		const logRows = 3
		msg, cw, shift, err := prover.PrimeDomains[D](enc, logRows)
		require.NoError(t, err)
		n, w, _ := get(msg)
		bigN, wBig, g := get(cw)
		require.EqualValues(t, 1<<logRows, n)
		require.EqualValues(t, 4<<logRows, bigN)
		assert.Equal(t, g, shift)
		// The same domains again, not rebuilt.
		msg2, cw2, _, err := prover.PrimeDomains[D](enc, logRows)
		require.NoError(t, err)
		assert.Same(t, msg, msg2)
		assert.Same(t, cw, cw2)

		tr, err := prover.RandomTrace[E](logRows, 1, 4)
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		lde := mustLDE(t, c)[0]
		xs := make([]E, n) // ω^j
		P(&xs[0]).SetOne()
		for j := 1; j < int(n); j++ {
			P(&xs[j]).Mul(&xs[j-1], &w)
		}
		x := shift // shift·ω'^i
		for i := range int(bigN) {
			assert.Equal(t, lagrange[E, P](xs, tr[0], x), lde[i], "row %d", i)
			P(&x).Mul(&x, &wBig)
		}
	})
}

// primeField is what the naive evaluation needs of gnark-crypto's elements.
type primeField[E any] interface {
	*E
	Mul(x, y *E) *E
	Sub(x, y *E) *E
	Add(x, y *E) *E
	Inverse(x *E) *E
	SetOne() *E
}

// lagrange evaluates at x the polynomial of degree < len(xs) that takes the
// values ys at the points xs.
func lagrange[E any, P primeField[E]](xs, ys []E, x E) E {
	var sum E
	for j := range xs {
		var num, den, t E
		P(&num).SetOne()
		P(&den).SetOne()
		for k := range xs {
			if k == j {
				continue
			}
			P(&t).Sub(&x, &xs[k])
			P(&num).Mul(&num, &t)
			P(&t).Sub(&xs[j], &xs[k])
			P(&den).Mul(&den, &t)
		}
		P(&den).Inverse(&den)
		P(&num).Mul(&num, &den)
		P(&num).Mul(&num, &ys[j])
		P(&sum).Add(&sum, &num)
	}
	return sum
}

// FuzzCommitHash commits random traces with a hash chosen among good and
// broken ones, breaking at a chosen write: a good hash (or a broken one that
// has not broken yet) gives a root every opening of which verifies and that
// a tampered row fails; once a broken hash has broken, every call that uses
// it returns an error wrapping ErrHash.
func FuzzCommitHash(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(2), uint8(0), uint16(0))
	f.Add(uint64(2), uint8(5), uint8(3), uint8(2), uint16(7))
	f.Add(uint64(3), uint8(0), uint8(1), uint8(5), uint16(0))
	f.Add(uint64(4), uint8(6), uint8(4), uint8(9), uint16(40))
	f.Add(uint64(5), uint8(4), uint8(2), uint8(12), uint16(500))
	f.Fuzz(func(t *testing.T, seed uint64, logRows, cols, choice uint8, breakAt uint16) {
		logRows %= 7
		cols = 1 + cols%5
		trig := newTrigger(int64(breakAt))
		var h func() hash.Hash
		k := int(choice) % (len(goodHashes) + int(nFaults))
		if k < len(goodHashes) {
			h = goodHashes[k].h
			trig.left.Store(math.MaxInt64)
		} else {
			h = brokenHash(fault(k-len(goodHashes)), trig)
		}
		tr, err := prover.RandomTrace[gf64.Element](int(logRows), int(cols), seed)
		require.NoError(t, err)
		// checked asserts that a call either succeeded with the hash
		// intact or failed with ErrHash after it broke.
		checked := func(what string, err error) bool {
			if trig.fired.Load() {
				require.ErrorIs(t, err, prover.ErrHash, what)
				return false
			}
			require.NoError(t, err, what)
			return true
		}
		require.NotPanics(t, func() {
			enc, err := prover.New[gf64.Element](prover.WithHash(h), prover.WithBlowup(2), prover.WithWorkers(3))
			if !checked("New", err) {
				return
			}
			c, err := enc.Commit(tr)
			if !checked("Commit", err) {
				require.Nil(t, c)
				return
			}
			idx := []int{0, c.Rows() - 1, int(seed % uint64(c.Rows()))}
			o, err := c.Open(idx)
			if !checked("Open", err) {
				return
			}
			err = o.Verify(c.Root(), c.Rows(), h)
			if !checked("Verify", err) {
				return
			}
			o.Rows[2][0] ^= 1
			err = o.Verify(c.Root(), c.Rows(), h)
			if trig.fired.Load() {
				require.ErrorIs(t, err, prover.ErrHash)
			} else {
				require.ErrorIs(t, err, prover.ErrVerify)
			}
		})
	})
}
