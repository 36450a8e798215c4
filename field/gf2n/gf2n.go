package gf2n

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Errors returned (wrapped, with details) by the functions of this package.
var (
	// ErrSize: New was asked for a field size this package does not support.
	ErrSize = errors.New("gf2n: unsupported field size")
	// ErrLength: a slice's length is not what the call needs (not a multiple
	// of Words, or different from the other slices' lengths).
	ErrLength = errors.New("gf2n: bad slice length")
	// ErrZero: zero has no inverse.
	ErrZero = errors.New("gf2n: zero has no inverse")
)

// sizes lists the supported degrees and the middle exponents of their
// reduction polynomials x^n + x^a + x^b + x^c + 1, highest first. Each is the
// irreducible pentanomial with the lexicographically smallest (a, b, c): the
// entry of Seroussi's "Table of Low-Weight Binary Irreducible Polynomials"
// (HPL-98-135) and what NTL's BuildSparseIrred returns. No trinomial of these
// degrees is irreducible (Swan's theorem: every trinomial of degree 8k is
// reducible). TestPolyIrreducible and TestPolyLowestWeight check both claims.
var sizes = []struct {
	n    int
	exps []int
}{
	{128, []int{7, 2, 1}},
	{256, []int{10, 5, 2}},
	{512, []int{8, 5, 2}},
	{1024, []int{19, 6, 1}},
	{2048, []int{19, 14, 13}},
}

// Sizes returns the field sizes n that New accepts, smallest first.
func Sizes() []int {
	out := make([]int, len(sizes))
	for i, s := range sizes {
		out[i] = s.n
	}
	return out
}

// Field is the binary field GF(2^n) = GF(2)[x] / (f), f the sparse
// irreducible polynomial that Poly returns. It holds no mutable state: a
// Field is safe for concurrent use, and New returns the same *Field for the
// same n.
type Field struct {
	n     int    // degree of f
	words int    // n/64, the words of one element
	exps  []int  // exponents of f between n and 0, highest first
	r     uint64 // f − x^n: the bits of the exponents in exps, and bit 0
}

var (
	fieldsOnce sync.Once
	fields     map[int]*Field
)

// New returns GF(2^n) for n in 128, 256, 512, 1024, 2048. Any other n is an
// error wrapping ErrSize.
func New(n int) (*Field, error) {
	fieldsOnce.Do(func() {
		fields = make(map[int]*Field, len(sizes))
		for _, s := range sizes {
			fields[s.n] = newField(s.n, s.exps)
		}
	})
	f, ok := fields[n]
	if !ok {
		return nil, fmt.Errorf("%w: n = %d; supported sizes are %v", ErrSize, n, Sizes())
	}
	return f, nil
}

// newField builds GF(2)[x] / (x^n + Σ x^e + 1) for the exponents exps. n must
// be one of the supported sizes (the kernels are per size) and every exponent
// must lie in 1..63; the tests also build fields over reducible polynomials
// this way, which is why irreducibility is not checked here.
func newField(n int, exps []int) *Field {
	if !slices.Contains(Sizes(), n) {
		panic(fmt.Sprintf("gf2n: newField: no kernels for n = %d", n))
	}
	r := uint64(1)
	for _, e := range exps {
		if e < 1 || e > 63 {
			panic(fmt.Sprintf("gf2n: newField: exponent %d outside 1..63", e))
		}
		r |= 1 << e
	}
	return &Field{n: n, words: n / 64, exps: slices.Clone(exps), r: r}
}

// N returns the degree n: the field has 2^n elements.
func (f *Field) N() int { return f.n }

// Words returns the number of uint64 words of one element, n/64.
func (f *Field) Words() int { return f.words }

// Poly returns the exponents of the reduction polynomial, highest first: for
// GF(2^128), [128 7 2 1 0], which is x^128 + x^7 + x^2 + x + 1. The slice is
// the caller's to keep.
func (f *Field) Poly() []int {
	p := make([]int, 0, len(f.exps)+2)
	p = append(p, f.n)
	p = append(p, f.exps...)
	return append(p, 0)
}

// String names the field and its polynomial, e.g. "GF(2^128) mod x^128+x^7+x^2+x+1".
func (f *Field) String() string {
	s := fmt.Sprintf("GF(2^%d) mod x^%d", f.n, f.n)
	for _, e := range f.exps {
		if e == 1 {
			s += "+x"
		} else {
			s += fmt.Sprintf("+x^%d", e)
		}
	}
	return s + "+1"
}

// checkElem panics unless every slice holds exactly one element. The
// single-element functions treat a wrong length as a programming error.
func (f *Field) checkElem(op string, s ...[]uint64) {
	for i, v := range s {
		if len(v) != f.words {
			panic(fmt.Sprintf("gf2n: %s: operand %d has %d words, want %d (one element of GF(2^%d))", op, i, len(v), f.words, f.n))
		}
	}
}

// checkVec returns an error wrapping ErrLength unless all slices have the
// same length and it is a multiple of Words.
func (f *Field) checkVec(op string, z []uint64, in ...[]uint64) error {
	for i, v := range in {
		if len(v) != len(z) {
			return fmt.Errorf("%w: %s: operand %d has %d words, the destination %d", ErrLength, op, i+1, len(v), len(z))
		}
	}
	if len(z)%f.words != 0 {
		return fmt.Errorf("%w: %s: %d words is not a whole number of elements of GF(2^%d) (%d words each)", ErrLength, op, len(z), f.n, f.words)
	}
	return nil
}

// Add sets z = x + y (XOR). Each slice must hold one element (Words words);
// any other length panics. z may alias x or y exactly.
func (f *Field) Add(z, x, y []uint64) {
	f.checkElem("Add", z, x, y)
	for i := range z {
		z[i] = x[i] ^ y[i]
	}
}

// Mul sets z = x·y. Each slice must hold one element (Words words); any other
// length panics. z may alias x or y exactly.
func (f *Field) Mul(z, x, y []uint64) {
	f.checkElem("Mul", z, x, y)
	f.mulVec(z, x, y, 1)
}

// Square sets z = x². Each slice must hold one element; any other length
// panics. z may alias x exactly.
func (f *Field) Square(z, x []uint64) {
	f.checkElem("Square", z, x)
	f.square(z, x)
}

// Inverse sets z = x⁻¹. It returns an error wrapping ErrZero, and leaves z
// unchanged, when x = 0, and one wrapping ErrLength when a slice does not
// hold exactly one element. z may alias x exactly.
//
// The inverse is x^(2^n − 2), computed by the Itoh–Tsujii chain: n − 1
// squarings and 2·log2(n) − 2 multiplications.
func (f *Field) Inverse(z, x []uint64) error {
	for i, v := range [][]uint64{z, x} {
		if len(v) != f.words {
			return fmt.Errorf("%w: Inverse: operand %d has %d words, want %d", ErrLength, i, len(v), f.words)
		}
	}
	if IsZero(x) {
		return fmt.Errorf("%w (GF(2^%d))", ErrZero, f.n)
	}
	// b holds x^(2^e − 1). From e to 2e: b·b^(2^e); from 2e to 2e+1:
	// b^2·x. n − 1 is 2^k − 1, all ones, so every step is both.
	var buf [2 * maxWords]uint64
	b, t := buf[:f.words], buf[maxWords:maxWords+f.words]
	copy(b, x)
	for e := 1; e < f.n-1; {
		copy(t, b)
		for range e {
			f.square(t, t)
		}
		f.mulVec(b, b, t, 1)
		e *= 2
		f.square(b, b)
		f.mulVec(b, b, x, 1)
		e++
	}
	f.square(z, b) // (x^(2^(n−1) − 1))² = x^(2^n − 2)
	return nil
}

// IsZero reports whether every word of x is zero.
func IsZero(x []uint64) bool {
	var acc uint64
	for _, v := range x {
		acc |= v
	}
	return acc == 0
}

// One returns a new element equal to 1.
func (f *Field) One() []uint64 {
	z := make([]uint64, f.words)
	z[0] = 1
	return z
}

// AddVec sets z = x + y for every element (XOR of the whole slices). The
// three slices must have the same length, a multiple of Words, else it
// returns an error wrapping ErrLength. z may alias x or y exactly.
func (f *Field) AddVec(z, x, y []uint64) error {
	if err := f.checkVec("AddVec", z, x, y); err != nil {
		return err
	}
	for i := range z {
		z[i] = x[i] ^ y[i]
	}
	return nil
}

// parallelWords is the batch size, in words, from which MulVec spreads the
// work over all cores: below it the cost of starting goroutines shows.
const parallelWords = 1 << 14

// MulVec sets z[i] = x[i]·y[i] for every element i of the batch: element i
// is the words [i·Words, (i+1)·Words) of each slice. The three slices must
// have the same length, a multiple of Words, else it returns an error
// wrapping ErrLength and writes nothing. z may alias x or y exactly.
// Batches of 2^14 words or more are split over GOMAXPROCS goroutines.
// MulVec allocates nothing on batches below that size.
func (f *Field) MulVec(z, x, y []uint64) error {
	if err := f.checkVec("MulVec", z, x, y); err != nil {
		return err
	}
	count := len(z) / f.words
	procs := runtime.GOMAXPROCS(0)
	if len(z) < parallelWords || procs == 1 {
		if count > 0 {
			f.mulVec(z, x, y, count)
		}
		return nil
	}
	// Parts are whole blocks of 8 elements so that every part but the last
	// runs on the widest kernels without a tail.
	per := (count + procs - 1) / procs
	per = (per + 7) &^ 7
	var wg sync.WaitGroup
	for lo := 0; lo < count; lo += per {
		hi := min(lo+per, count)
		a, b := lo*f.words, hi*f.words
		wg.Go(func() { f.mulVec(z[a:b], x[a:b], y[a:b], hi-lo) })
	}
	wg.Wait()
	return nil
}
