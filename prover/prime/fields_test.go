package prime

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/consensys/gnark-crypto/utils"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// testElem is the element API the tests' references use.
type testElem[E any] interface {
	*E
	Mul(x, y *E) *E
	Add(x, y *E) *E
	Sub(x, y *E) *E
	Inverse(x *E) *E
	Exp(x E, k *big.Int) *E
	SetUint64(v uint64) *E
	SetOne() *E
	SetBytes(b []byte) *E
	Equal(x *E) bool
	String() string
}

// field bundles what the tests need for one field: how to build a domain,
// gnark-crypto's transforms called directly (the reference), and the
// domain's public elements.
type field[E Element] struct {
	name   string
	maxLog int // the field's 2-adicity
	bytes  int // bytes of a random element before reduction
	// newDomain returns fft.NewDomain(n, opts) (precompute=false adds
	// fft.WithoutPrecompute()), shift, if non-nil, adds fft.WithShift.
	newDomain func(n uint64, precompute bool, shift *E) any
	// gnark runs gnark-crypto's own transform with its default options (all
	// cores); gnarkOne adds fft.WithNbTasks(1) (one core).
	gnark, gnarkOne func(d any, a []E, o Order, inverse, coset bool)
	// gen and shift return the domain's Generator and FrMultiplicativeGen.
	gen, shift func(d any) E
}

// gnarkFFT runs one gnark-crypto transform with its default options, given
// the fft package's own functions and values: the tests' reference.
func gnarkFFT[E, Dec, Opt any](a []E, fft, fftInv func([]E, Dec, ...Opt), dif, dit Dec, onCoset Opt,
	o Order, inverse, coset bool, extra ...Opt) {
	dec := dif
	if o == DIT {
		dec = dit
	}
	opts := append([]Opt(nil), extra...)
	if coset {
		opts = append(opts, onCoset)
	}
	if inverse {
		fftInv(a, dec, opts...)
	} else {
		fft(a, dec, opts...)
	}
	if o == Natural {
		utils.BitReverse(a)
	}
}

func bn254Field() field[fr.Element] {
	return field[fr.Element]{
		name: "bn254", maxLog: 28, bytes: 32,
		newDomain: func(n uint64, pre bool, s *fr.Element) any {
			var o []bn254fft.DomainOption
			if !pre {
				o = append(o, bn254fft.WithoutPrecompute())
			}
			if s != nil {
				o = append(o, bn254fft.WithShift(*s))
			}
			return bn254fft.NewDomain(n, o...)
		},
		gnark: func(d any, a []fr.Element, o Order, inverse, coset bool) {
			dom := d.(*bn254fft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, bn254fft.DIF, bn254fft.DIT, bn254fft.OnCoset(), o, inverse, coset)
		},
		gnarkOne: func(d any, a []fr.Element, o Order, inverse, coset bool) {
			dom := d.(*bn254fft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, bn254fft.DIF, bn254fft.DIT, bn254fft.OnCoset(), o, inverse, coset, bn254fft.WithNbTasks(1))
		},
		gen:   func(d any) fr.Element { return d.(*bn254fft.Domain).Generator },
		shift: func(d any) fr.Element { return d.(*bn254fft.Domain).FrMultiplicativeGen },
	}
}

func goldilocksField() field[goldilocks.Element] {
	return field[goldilocks.Element]{
		name: "goldilocks", maxLog: 32, bytes: 8,
		newDomain: func(n uint64, pre bool, s *goldilocks.Element) any {
			var o []goldilocksfft.DomainOption
			if !pre {
				o = append(o, goldilocksfft.WithoutPrecompute())
			}
			if s != nil {
				o = append(o, goldilocksfft.WithShift(*s))
			}
			return goldilocksfft.NewDomain(n, o...)
		},
		gnark: func(d any, a []goldilocks.Element, o Order, inverse, coset bool) {
			dom := d.(*goldilocksfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, goldilocksfft.DIF, goldilocksfft.DIT, goldilocksfft.OnCoset(), o, inverse, coset)
		},
		gnarkOne: func(d any, a []goldilocks.Element, o Order, inverse, coset bool) {
			dom := d.(*goldilocksfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, goldilocksfft.DIF, goldilocksfft.DIT, goldilocksfft.OnCoset(), o, inverse, coset, goldilocksfft.WithNbTasks(1))
		},
		gen:   func(d any) goldilocks.Element { return d.(*goldilocksfft.Domain).Generator },
		shift: func(d any) goldilocks.Element { return d.(*goldilocksfft.Domain).FrMultiplicativeGen },
	}
}

func babyBearField() field[babybear.Element] {
	return field[babybear.Element]{
		name: "babybear", maxLog: 27, bytes: 4,
		newDomain: func(n uint64, pre bool, s *babybear.Element) any {
			var o []babybearfft.DomainOption
			if !pre {
				o = append(o, babybearfft.WithoutPrecompute())
			}
			if s != nil {
				o = append(o, babybearfft.WithShift(*s))
			}
			return babybearfft.NewDomain(n, o...)
		},
		gnark: func(d any, a []babybear.Element, o Order, inverse, coset bool) {
			dom := d.(*babybearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, babybearfft.DIF, babybearfft.DIT, babybearfft.OnCoset(), o, inverse, coset)
		},
		gnarkOne: func(d any, a []babybear.Element, o Order, inverse, coset bool) {
			dom := d.(*babybearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, babybearfft.DIF, babybearfft.DIT, babybearfft.OnCoset(), o, inverse, coset, babybearfft.WithNbTasks(1))
		},
		gen:   func(d any) babybear.Element { return d.(*babybearfft.Domain).Generator },
		shift: func(d any) babybear.Element { return d.(*babybearfft.Domain).FrMultiplicativeGen },
	}
}

func koalaBearField() field[koalabear.Element] {
	return field[koalabear.Element]{
		name: "koalabear", maxLog: 24, bytes: 4,
		newDomain: func(n uint64, pre bool, s *koalabear.Element) any {
			var o []koalabearfft.DomainOption
			if !pre {
				o = append(o, koalabearfft.WithoutPrecompute())
			}
			if s != nil {
				o = append(o, koalabearfft.WithShift(*s))
			}
			return koalabearfft.NewDomain(n, o...)
		},
		gnark: func(d any, a []koalabear.Element, o Order, inverse, coset bool) {
			dom := d.(*koalabearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, koalabearfft.DIF, koalabearfft.DIT, koalabearfft.OnCoset(), o, inverse, coset)
		},
		gnarkOne: func(d any, a []koalabear.Element, o Order, inverse, coset bool) {
			dom := d.(*koalabearfft.Domain)
			gnarkFFT(a, dom.FFT, dom.FFTInverse, koalabearfft.DIF, koalabearfft.DIT, koalabearfft.OnCoset(), o, inverse, coset, koalabearfft.WithNbTasks(1))
		},
		gen:   func(d any) koalabear.Element { return d.(*koalabearfft.Domain).Generator },
		shift: func(d any) koalabear.Element { return d.(*koalabearfft.Domain).FrMultiplicativeGen },
	}
}

// randomVec fills a column with random elements, weighted toward 0, 1 and
// -1, from a seeded generator (tests are deterministic).
func randomVec[E Element, P testElem[E]](rng *rand.Rand, f field[E], n int) []E {
	v := make([]E, n)
	buf := make([]byte, f.bytes)
	for i := range v {
		switch rng.IntN(16) {
		case 0: // zero
		case 1:
			P(&v[i]).SetOne()
		case 2:
			var one E
			P(&one).SetOne()
			P(&v[i]).Sub(&v[i], &one)
		default:
			for j := range buf {
				buf[j] = byte(rng.Uint32())
			}
			P(&v[i]).SetBytes(buf)
		}
	}
	return v
}

func randomCols[E Element, P testElem[E]](rng *rand.Rand, f field[E], cols, n int) [][]E {
	c := make([][]E, cols)
	for i := range c {
		c[i] = randomVec[E, P](rng, f, n)
	}
	return c
}

func cloneCols[E any](c [][]E) [][]E {
	o := make([][]E, len(c))
	for i := range c {
		o[i] = append([]E(nil), c[i]...)
	}
	return o
}

// bitrev returns the bit-reversal of i over logN bits.
func bitrev(i, logN int) int {
	r := 0
	for range logN {
		r = r<<1 | i&1
		i >>= 1
	}
	return r
}

// naiveEval returns p(x) for coefficients c, by Horner's rule.
func naiveEval[E Element, P testElem[E]](c []E, x *E) E {
	var acc E
	for j := len(c) - 1; j >= 0; j-- {
		P(&acc).Mul(&acc, x)
		P(&acc).Add(&acc, &c[j])
	}
	return acc
}

// naiveNTT is the definition: out[i] = p(s·ω^i), i in natural order, for the
// polynomial with coefficients c (natural order), s = 1 or the coset shift.
func naiveNTT[E Element, P testElem[E]](c []E, omega, s E) []E {
	out := make([]E, len(c))
	x := s
	for i := range out {
		out[i] = naiveEval[E, P](c, &x)
		P(&x).Mul(&x, &omega)
	}
	return out
}

// naiveINTT is the definition of the inverse: the coefficients c (natural
// order) of the polynomial of degree < n with c's evaluations v[i] = p(s·ω^i),
// computed as c_j = s^-j/n · Σ_i v_i ω^-ij.
func naiveINTT[E Element, P testElem[E]](v []E, omega, s E) []E {
	n := len(v)
	var omegaInv, sInv, nInv E
	P(&omegaInv).Inverse(&omega)
	P(&sInv).Inverse(&s)
	P(&nInv).SetUint64(uint64(n))
	P(&nInv).Inverse(&nInv)
	c := make([]E, n)
	var wj E // ω^-j
	P(&wj).SetOne()
	var sj E // s^-j / n
	sj = nInv
	for j := range c {
		e := naiveEval[E, P](v, &wj) // Σ_i v_i (ω^-j)^i
		P(&c[j]).Mul(&e, &sj)
		P(&wj).Mul(&wj, &omegaInv)
		P(&sj).Mul(&sj, &sInv)
	}
	return c
}

// permute returns v in bit-reversed order.
func permute[E any](v []E) []E {
	o := append([]E(nil), v...)
	utils.BitReverse(o)
	return o
}

// equalCols requires got to hold want's columns. The elements are compared
// with ==, which for gnark-crypto's reduced Montgomery limbs is their Equal;
// a failure names the first differing index of each differing column.
func equalCols[E Element](t *testing.T, what string, got, want [][]E) {
	t.Helper()
	testutil.RequireEqualColumns(t, want, got, what)
}
