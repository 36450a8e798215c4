package fri

import (
	"fmt"
	"math/bits"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// binLevel is one fold by 2 of a codeword over the subspace S_r: pairs
// (2J, 2J+1) of S_r's elements, x_{2J} = shift + Σ_i bit_i(J)·β_{i+1},
// x_{2J+1} = x_{2J} + β_0. It keeps everything divided by β_0: x/β_0 is
// GF(2)-linear in the bits of J, so the points come by XORs.
type binLevel struct {
	shift gf64.Element   // shift/β_0
	next  []gf64.Element // β_1/β_0, β_2/β_0, …
	gray  []gf64.Element // gray[t] = (β_1 + … + β_{t+1})/β_0 (capped at the last)
	beta  gf128.Element  // this level's challenge β^(2^r), divided by β_0
}

// binLevels returns the k levels of a fold of s by 2^k with challenge beta.
func binLevels(s *domain.Subspace, k int, beta gf128.Element) ([]binLevel, error) {
	lv := make([]binLevel, k)
	cur := s
	for r := range lv {
		b := cur.Basis()
		l := &lv[r]
		inv := gf64.Inverse(b[0])
		l.shift, l.beta = gf64.Mul(cur.Shift(), inv), gf128.MulByBase(beta, inv)
		l.next = make([]gf64.Element, len(b)-1)
		for i := range l.next {
			l.next[i] = gf64.Mul(b[i+1], inv)
		}
		l.gray = make([]gf64.Element, len(b))
		var acc gf64.Element
		for t := range l.gray {
			if t < len(l.next) {
				acc ^= l.next[t]
			}
			l.gray[t] = acc
		}
		beta = gf128.Square(beta)
		var err error
		if cur, err = cur.Fold(1); err != nil {
			return nil, fmt.Errorf("fri: %w", err)
		}
	}
	return lv, nil
}

// point returns x_{2J}/β_0.
func (l *binLevel) point(J int) gf64.Element {
	x := l.shift
	for u := uint(J); u != 0; u &= u - 1 {
		x ^= l.next[bits.TrailingZeros(u)]
	}
	return x
}

// binChunk is the number of pairs fold2 multiplies as one vector.
const binChunk = 128

// binScratch is one goroutine's scratch: fold2's two vectors, and the
// levels' buffer (at least half a block).
type binScratch struct {
	s, t [binChunk]gf128.Element
	buf  [binBlock / 2]gf128.Element
}

// fold2 folds the pairs J0 … J0+len(dst)−1 of the level: with v = src[2p],
// w = src[2p+1] = f(x), f(x + β_0) for x = x_{2(J0+p)}, f(X) = g(q(X)) +
// X·h(q(X)), h = (v + w)/β_0, g = v + x·h, and
//
//	dst[p] = g + β·h = v + ((x + β)/β_0)·(v + w),
//
// one GF(2^128) product per pair, done as vector products (gf128.MulVec)
// over chunks of binChunk pairs. dst may be src[:len(dst)].
func (l *binLevel) fold2(dst, src []gf128.Element, J0 int, sc *binScratch) {
	x := l.point(J0)
	src = src[:2*len(dst)]
	s, t := sc.s[:], sc.t[:]
	for p0 := 0; p0 < len(dst); p0 += binChunk {
		n := min(binChunk, len(dst)-p0)
		for i := 0; i < n; i++ {
			p := p0 + i
			s[i] = gf128.Add(src[2*p], src[2*p+1])
			t[i] = gf128.Element{A0: x ^ l.beta.A0, A1: l.beta.A1}
			x ^= l.gray[bits.TrailingZeros(uint(J0+p+1))]
		}
		gf128.MulVec(s[:n], s[:n], t[:n])
		for i := 0; i < n; i++ {
			p := p0 + i
			dst[p] = gf128.Add(src[2*p], s[i])
		}
	}
}

// checkSubspace checks a subspace codeword of n entries and an arity.
func checkSubspace(s *domain.Subspace, n, arity int) error {
	if s == nil {
		return fmt.Errorf("fri: nil subspace: %w", ErrDomain)
	}
	if n != s.Size() {
		return fmt.Errorf("fri: codeword of %d entries over a subspace of %d: %w", n, s.Size(), ErrLength)
	}
	return checkArity(arity, n)
}

// binBlock is the number of source entries a goroutine folds at a time
// through its scratch buffer (16 KiB).
const binBlock = 1 << 10

// FoldSubspace folds a codeword over the affine subspace s by arity with
// the challenge beta, writing the codeword over s.Fold(log2(arity)).
//
// src[i] = f(s.Element(i)) for i < s.Size(); arity ∈ {2, 4, 8, 16}, at most
// s.Size(); len(dst) = s.Size()/arity. A fold by 2 writes, for the pair
// x = s.Element(2j), x + β_0 = s.Element(2j+1) and f(X) = g(q(X)) +
// X·h(q(X)) with q(X) = X·(X + β_0),
//
//	dst[j] = g(q(x)) + beta·h(q(x)),  h = (f(x) + f(x+β_0))/β_0,  g = f(x) + x·h;
//
// a fold by 2^k is k folds by 2 with the challenges beta, beta², beta⁴, …,
// each over the domain the previous one produced, done leaf by leaf: entry
// j depends on src[j·arity … j·arity + arity − 1] only (package doc).
//
// dst must not overlap src (leaf j reads entries up to j·arity + arity − 1,
// so an in-place fold would overwrite entries other goroutines still
// read). Large codewords are split over GOMAXPROCS goroutines. Bad arguments return an
// error wrapping ErrArity, ErrLength or ErrDomain, and dst is untouched.
func FoldSubspace(dst, src []gf128.Element, s *domain.Subspace, arity int, beta gf128.Element) error {
	return foldSubspace(dst, src, s, arity, beta, defaultSplit())
}

func foldSubspace(dst, src []gf128.Element, s *domain.Subspace, arity int, beta gf128.Element, sp split) error {
	if err := checkSubspace(s, len(src), arity); err != nil {
		return err
	}
	m := len(src) / arity
	if len(dst) != m {
		return fmt.Errorf("fri: destination of %d entries, a fold by %d of %d entries has %d: %w", len(dst), arity, len(src), m, ErrLength)
	}
	k := bits.TrailingZeros(uint(arity))
	lv, err := binLevels(s, k, beta)
	if err != nil {
		return err
	}
	leaves := max(1, binBlock/arity) // leaves per block
	sp.run(m, func(lo, hi int) {
		sc := new(binScratch)
		for j0 := lo; j0 < hi; j0 += leaves {
			j1 := min(hi, j0+leaves)
			foldLeaves(dst[j0:j1], src[j0*arity:j1*arity], lv, j0, sc)
		}
	})
	return nil
}

// foldLeaves folds the leaves j0 … j0+len(dst)−1 (src holds their
// len(dst)·2^k entries, at most binBlock) through the k levels, using
// sc.buf between levels.
func foldLeaves(dst, src []gf128.Element, lv []binLevel, j0 int, sc *binScratch) {
	k := len(lv)
	if k == 1 {
		lv[0].fold2(dst, src, j0, sc)
		return
	}
	buf := sc.buf[:]
	cnt := len(src) / 2
	lv[0].fold2(buf[:cnt], src, j0<<(k-1), sc)
	for r := 1; r < k-1; r++ {
		cnt /= 2
		lv[r].fold2(buf[:cnt], buf[:2*cnt], j0<<(k-1-r), sc)
	}
	lv[k-1].fold2(dst, buf[:2*len(dst)], j0, sc)
}

// FoldSubspaceAt folds one leaf: the verifier's side of FoldSubspace, with
// the same arithmetic. values[t] = f(s.Element(j·arity + t)) for t < arity
// = len(values); it returns entry j of FoldSubspace's output, the value at
// element j of s.Fold(log2(arity)). values is not modified.
func FoldSubspaceAt(values []gf128.Element, s *domain.Subspace, j int, beta gf128.Element) (gf128.Element, error) {
	arity := len(values)
	if s == nil {
		return gf128.Zero, fmt.Errorf("fri: nil subspace: %w", ErrDomain)
	}
	if err := checkArity(arity, s.Size()); err != nil {
		return gf128.Zero, err
	}
	if m := s.Size() / arity; j < 0 || j >= m {
		return gf128.Zero, fmt.Errorf("fri: leaf %d of a fold by %d of %d entries (%d leaves): %w", j, arity, s.Size(), m, ErrDomain)
	}
	lv, err := binLevels(s, bits.TrailingZeros(uint(arity)), beta)
	if err != nil {
		return gf128.Zero, err
	}
	var out [1]gf128.Element
	foldLeaves(out[:], values, lv, j, new(binScratch))
	return out[0], nil
}
