package fri

import (
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bnfft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	bbfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	glfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	kbfft "github.com/consensys/gnark-crypto/field/koalabear/fft"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// layer is the evaluation domain of one codeword of the protocol, in the
// codeword's order, with the fold that maps it to the next one.
//
// Prime fields: the coset shift·⟨ω⟩ of n points, entry i at shift·ω^i; a
// fold by a keeps the leaf j = {j + t·n/a : t < a} together (strided).
// GF(2^64): an affine subspace S in subspace order; a fold by a keeps the
// leaf j = {j·a + t : t < a} together (contiguous).
type layer[E, X any] interface {
	size() int
	point(i int) E
	// points writes the points of entries first … first+len(dst)−1.
	points(dst []E, first int)
	fold(arity int) (layer[E, X], error)
	foldAll(dst, src []X, arity int, beta X) error
	// leafFolder returns the verifier's fold of one leaf by len(values)
	// with beta, what it needs prepared once for all the queries of a round.
	leafFolder(arity int, beta X) (func(values []X, j int) (X, error), error)
	// strided reports the prime fields' leaf layout.
	strided() bool
	// equal reports whether two domains have the same points in order.
	equal(o layer[E, X]) bool
	// devPoints is the point table of cuda/fri.cu's kernels, devPow
	// entries as stored: x_0 then ω^(2^b) (cosets; with inverse, 1/x_0
	// and ω^(−2^b)), or the shift then the basis vectors (subspaces).
	devPoints(inverse bool) []byte
	// devFold is the constants of cuda/fri.cu's fold by arity with beta.
	devFold(arity int, beta X) []byte
}

// devPow is FRI_POW of cuda/fri.cu: the entries of a point table.
const devPow = 36

// devBinNext is FRI_BIN_NEXT of cuda/fri.cu: the basis vectors of a
// binary fold level.
const devBinNext = 40

// rawBytes returns a copy of the memory of s.
func rawBytes[T any](s ...T) []byte {
	var z T
	n := len(s) * int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return slices.Clone(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n))
}

// primeLayer is a coset of a 2-adic subgroup.
type primeLayer[F Base, X Ext] struct {
	o            primeOps[F, X]
	shift, omega F
	n            int
}

func (l *primeLayer[F, X]) size() int     { return l.n }
func (l *primeLayer[F, X]) strided() bool { return true }
func (l *primeLayer[F, X]) point(i int) F {
	return l.o.mul(l.shift, l.o.exp(l.omega, uint64(i)))
}
func (l *primeLayer[F, X]) points(dst []F, first int) {
	if len(dst) == 0 {
		return
	}
	dst[0] = l.point(first)
	for i := 1; i < len(dst); i++ {
		dst[i] = l.o.mul(dst[i-1], l.omega)
	}
}
func (l *primeLayer[F, X]) fold(a int) (layer[F, X], error) {
	if err := checkArity(a, l.n); err != nil {
		return nil, err
	}
	e := uint64(a)
	return &primeLayer[F, X]{l.o, l.o.exp(l.shift, e), l.o.exp(l.omega, e), l.n / a}, nil
}
func (l *primeLayer[F, X]) foldAll(dst, src []X, a int, beta X) error {
	return FoldCoset(dst, src, l.shift, l.omega, a, beta)
}
func (l *primeLayer[F, X]) leafFolder(_ int, beta X) (func([]X, int) (X, error), error) {
	return func(values []X, j int) (X, error) { return FoldCosetAt(values, l.shift, l.omega, l.n, j, beta) }, nil
}
func (l *primeLayer[F, X]) equal(o layer[F, X]) bool {
	p, ok := o.(*primeLayer[F, X])
	return ok && p.n == l.n && p.shift == l.shift && p.omega == l.omega
}

func (l *primeLayer[F, X]) devPoints(inverse bool) []byte {
	x, w := l.shift, l.omega
	if inverse {
		x, w = l.o.inv(x), l.o.inv(w)
	}
	t := make([]F, devPow)
	t[0] = x
	for b := 1; b < devPow; b++ {
		t[b] = w
		w = l.o.mul(w, w)
	}
	return rawBytes(t...)
}

// devFold lays out FriFoldP: β, the inverse points' table, the inverse
// DFT's twiddles (8 entries), 1/a and three of padding.
func (l *primeLayer[F, X]) devFold(a int, beta X) []byte {
	zetaInv := l.o.exp(l.o.inv(l.omega), uint64(l.n/a))
	lf := newLeafFolder(l.o, a, zetaInv, beta)
	tw := make([]F, 12)
	copy(tw, lf.tw[:a/2])
	tw[8] = lf.ainv
	b := rawBytes(beta)
	b = append(b, l.devPoints(true)...)
	return append(b, rawBytes(tw...)...)
}

// binLayer is an affine subspace of GF(2^64).
type binLayer struct{ s *domain.Subspace }

func (l *binLayer) size() int                { return l.s.Size() }
func (l *binLayer) strided() bool            { return false }
func (l *binLayer) point(i int) gf64.Element { return l.s.Element(i) }
func (l *binLayer) points(dst []gf64.Element, first int) {
	if len(dst) == 0 {
		return
	}
	b := l.s.Basis()
	dst[0] = l.s.Element(first)
	for k := 1; k < len(dst); k++ {
		// element first+k differs from first+k−1 in the bits that the
		// increment flips: XOR the basis vectors of those bits.
		i := first + k
		flip := uint(i ^ (i - 1))
		x := dst[k-1]
		for ; flip != 0; flip &= flip - 1 {
			x ^= b[bits.TrailingZeros(flip)]
		}
		dst[k] = x
	}
}
func (l *binLayer) fold(a int) (layer[gf64.Element, gf128.Element], error) {
	if err := checkArity(a, l.s.Size()); err != nil {
		return nil, err
	}
	s, err := l.s.Fold(bits.TrailingZeros(uint(a)))
	if err != nil {
		return nil, fmt.Errorf("fri: %w: %w", err, ErrDomain)
	}
	return &binLayer{s}, nil
}
func (l *binLayer) foldAll(dst, src []gf128.Element, a int, beta gf128.Element) error {
	return FoldSubspace(dst, src, l.s, a, beta)
}
func (l *binLayer) leafFolder(arity int, beta gf128.Element) (func([]gf128.Element, int) (gf128.Element, error), error) {
	if err := checkArity(arity, l.s.Size()); err != nil {
		return nil, err
	}
	lv, err := binLevels(l.s, bits.TrailingZeros(uint(arity)), beta)
	if err != nil {
		return nil, err
	}
	sc := new(binScratch)
	m := l.s.Size() / arity
	return func(values []gf128.Element, j int) (gf128.Element, error) {
		if len(values) != arity || j < 0 || j >= m {
			return gf128.Zero, fmt.Errorf("fri: leaf %d of %d values of a fold by %d (%d leaves): %w", j, len(values), arity, m, ErrDomain)
		}
		var out [1]gf128.Element
		foldLeaves(out[:], values, lv, j, sc)
		return out[0], nil
	}, nil
}

func (l *binLayer) devPoints(bool) []byte {
	t := make([]gf64.Element, devPow)
	t[0] = l.s.Shift()
	copy(t[1:], l.s.Basis())
	return rawBytes(t...)
}

// devFold lays out FriFoldB: each level's challenge, shift and basis
// (binLevels), four levels of devBinNext vectors.
func (l *binLayer) devFold(a int, beta gf128.Element) []byte {
	lv, err := binLevels(l.s, bits.TrailingZeros(uint(a)), beta)
	if err != nil {
		return nil
	}
	var bt [4]gf128.Element
	var sh [4]gf64.Element
	next := make([]gf64.Element, 4*devBinNext)
	for r, v := range lv {
		bt[r], sh[r] = v.beta, v.shift
		copy(next[r*devBinNext:(r+1)*devBinNext], v.next)
	}
	b := rawBytes(bt[:]...)
	b = append(b, rawBytes(sh[:]...)...)
	return append(b, rawBytes(next...)...)
}

func (l *binLayer) equal(o layer[gf64.Element, gf128.Element]) bool {
	p, ok := o.(*binLayer)
	if !ok || p.s.Dim() != l.s.Dim() || p.s.Shift() != l.s.Shift() {
		return false
	}
	a, b := l.s.Basis(), p.s.Basis()
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// DefaultCodeword returns the codeword subspace of package prover's default
// binary domains (prover.DefaultBinaryDomains) for 2^logSize entries:
// x^63 + span(1, x, …, x^(logSize−1)).
func DefaultCodeword(logSize int) (*domain.Subspace, error) {
	if logSize < 0 || logSize > 62 {
		return nil, fmt.Errorf("fri: codeword subspace of 2^%d entries: %w", logSize, ErrDomain)
	}
	basis := make([]gf64.Element, logSize)
	for j := range basis {
		basis[j] = gf64.Element(1) << j
	}
	s, err := domain.New(gf64.Element(1)<<63, basis...)
	if err != nil {
		return nil, fmt.Errorf("fri: %w: %w", err, ErrDomain)
	}
	return s, nil
}

// topLayer returns the codeword domain of a commitment of 2^logRows trace
// rows at blowup 2^logBlowup: for a prime field gnark-crypto's coset g·⟨ω⟩
// (g the field's GeneratorFullMultiplicativeGroup, ω of order 2^(logRows +
// logBlowup), as package prover encodes), for GF(2^64) the codeword
// subspace of cfg's BinaryDomains (DefaultCodeword when nil).
func topLayer[E Element, X Challenge](cfg *Config, logRows int) (layer[E, X], error) {
	logN := logRows + cfg.LogBlowup
	if logRows < 0 || logN > 40 {
		return nil, fmt.Errorf("fri: 2^%d trace rows at blowup 2^%d: %w", logRows, cfg.LogBlowup, ErrDomain)
	}
	n := uint64(1) << logN
	var e E
	var l any
	var err error
	switch any(e).(type) {
	case gf64.Element:
		var s *domain.Subspace
		if cfg.BinaryDomains != nil {
			_, s, err = cfg.BinaryDomains(logRows, cfg.LogBlowup)
		} else {
			s, err = DefaultCodeword(logN)
		}
		if err != nil {
			return nil, fmt.Errorf("fri: binary domains for 2^%d rows: %w: %w", logRows, err, ErrDomain)
		}
		if s == nil || s.Dim() != logN {
			return nil, fmt.Errorf("fri: binary domains for 2^%d rows at blowup 2^%d give no subspace of dimension %d: %w", logRows, cfg.LogBlowup, logN, ErrDomain)
		}
		l = &binLayer{s}
	case babybear.Element:
		var w babybear.Element
		w, err = babybear.Generator(n)
		l = &primeLayer[babybear.Element, bbext.E4]{bbOps{}, bbfft.GeneratorFullMultiplicativeGroup(), w, int(n)}
	case koalabear.Element:
		var w koalabear.Element
		w, err = koalabear.Generator(n)
		l = &primeLayer[koalabear.Element, kbext.E4]{kbOps{}, kbfft.GeneratorFullMultiplicativeGroup(), w, int(n)}
	case goldilocks.Element:
		var w goldilocks.Element
		w, err = goldilocks.Generator(n)
		l = &primeLayer[goldilocks.Element, glext.E2]{glOps{}, glfft.GeneratorFullMultiplicativeGroup(), w, int(n)}
	case fr.Element:
		var w fr.Element
		w, err = fr.Generator(n)
		l = &primeLayer[fr.Element, fr.Element]{bnOps{}, bnfft.GeneratorFullMultiplicativeGroup(), w, int(n)}
	}
	if err != nil {
		return nil, fmt.Errorf("fri: no subgroup of order 2^%d: %w: %w", logN, err, ErrDomain)
	}
	t, ok := l.(layer[E, X])
	if !ok {
		var x X
		return nil, fmt.Errorf("fri: %T values do not belong to %T traces: %w", x, e, ErrField)
	}
	return t, nil
}

// NestedBinaryDomains returns binary domains (the signature of
// prover.BinaryDomains and Config.BinaryDomains) under which GF(2^64)
// commitments of different heights, up to 2^maxLogRows rows, open in one
// proof: the domains of 2^k rows are those of prover.DefaultBinaryDomains
// for 2^maxLogRows rows folded maxLogRows − k times (domain.Subspace.Fold),
// so that the codeword subspace of every smaller commitment is a layer of
// the largest one's FRI. With q = L_V, V = span(1, x, …, x^(s−1)), s =
// maxLogRows − k, the message subspace is q(span(1, …, x^(maxLogRows−1)))
// and the codeword subspace q(x^63) + q(span(1, …, x^(maxLogRows+logBlowup−1))):
// disjoint (x^63 is not in span(1, …, x^61)), and the codeword basis
// starts with the message basis (package domain's fast LDE). For k =
// maxLogRows they are the default domains.
func NestedBinaryDomains(maxLogRows int) func(logRows, logBlowup int) (message, codeword *domain.Subspace, err error) {
	return func(logRows, logBlowup int) (message, codeword *domain.Subspace, err error) {
		if logRows < 0 || logRows > maxLogRows || logBlowup < 1 || maxLogRows+logBlowup > 62 {
			return nil, nil, fmt.Errorf("fri: nested binary domains of at most 2^%d rows: 2^%d rows at blowup 2^%d: %w", maxLogRows, logRows, logBlowup, ErrDomain)
		}
		basis := make([]gf64.Element, maxLogRows)
		for j := range basis {
			basis[j] = gf64.Element(1) << j
		}
		top, err := domain.New(0, basis...)
		if err != nil {
			return nil, nil, fmt.Errorf("fri: %w: %w", err, ErrDomain)
		}
		cw, err := DefaultCodeword(maxLogRows + logBlowup)
		if err != nil {
			return nil, nil, err
		}
		s := maxLogRows - logRows
		if message, err = top.Fold(s); err == nil {
			codeword, err = cw.Fold(s)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("fri: %w: %w", err, ErrDomain)
		}
		return message, codeword, nil
	}
}
