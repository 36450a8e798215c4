package prover

import (
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/hugepage"
)

// CombineExt returns the random linear combination of the committed columns
// with coefficients in the challenge field X of the trace field (see Ext):
// element i is Σ_j alpha[j]·col_j[i], col_j the j-th committed column
// (LDE()[j]) embedded in X. With alpha drawn at random from X, two
// different sets of columns give the same combination with probability at
// most about #columns/|X| (Schwartz–Zippel): 2^−124 + log2(#columns) for
// BabyBear and KoalaBear, where Combine's base-field coefficients give only
// about 31 − log2(#columns) bits.
//
// The combination is one pass over the LDE on all cores, a block of rows
// at a time: for BabyBear and KoalaBear each coordinate of X is a
// base-field combination (gnark-crypto's vector kernels, AVX-512 where the
// CPU has them); for Goldilocks the 128-bit products are summed in three
// words and reduced once a coordinate; for GF(2^64) it is
// gf128.CombineBase (the carry-less products of a row summed unreduced,
// one reduction an output coordinate); for BN254 it is Combine. The elements equal gnark-crypto's own arithmetic
// (gf128's for GF(2^128)) done term by term, exactly.
//
// Errors wrap ErrField when X is not E's challenge field, ErrShape when
// len(alpha) ≠ Columns(), ErrClosed after Close. A commitment kept on the
// device is combined there (gpu/gfvec's GF128.CombineBase, gpu/primentt's
// CombineExt; each device its own columns, for one spread over several)
// and only the result comes back; CombineExtDevice leaves it there.
func CombineExt[E Element, X Ext](c *Commitment[E], alpha []X) ([]X, error) {
	if err := checkExt[E, X]("CombineExt"); err != nil {
		return nil, err
	}
	dst := hugepage.Make[X](c.Rows())
	if err := CombineExtInto(c, dst, alpha); err != nil {
		return nil, err
	}
	return dst, nil
}

// CombineExtInto is CombineExt into dst, which must hold Rows() elements
// (ErrShape); it allocates nothing but a few blocks of scratch in steady
// state.
func CombineExtInto[E Element, X Ext](c *Commitment[E], dst, alpha []X) error {
	if err := checkExt[E, X]("CombineExtInto"); err != nil {
		return err
	}
	if len(alpha) != c.cols {
		return fmt.Errorf("prover: CombineExt: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if len(dst) != c.rows {
		return fmt.Errorf("prover: CombineExt: destination of %d elements for %d rows: %w", len(dst), c.rows, ErrShape)
	}
	lde, err := c.hostLDE("CombineExt")
	if err != nil {
		return err
	}
	if lde == nil {
		return combineExtDevice(c, dst, alpha)
	}
	cols := lde
	switch FieldOf[E]() {
	case BN254:
		return combineInto(any(dst).([]E), cols, any(alpha).([]E))
	case GF64:
		combineGF128(any(dst).([]gf128.Element), any(cols).([][]gf64.Element), any(alpha).([]gf128.Element))
		return nil
	case Goldilocks:
		combineGoldilocks(any(dst).([]glext.E2), any(cols).([][]goldilocks.Element), any(alpha).([]glext.E2))
		return nil
	}
	combineExt(opsOf[E, X](), dst, cols, alpha)
	return nil
}

// CombinePowers returns the combination of the committed columns with the
// powers of one challenge, Σ_j alpha^j·col_j (column 0 with 1), as
// Plonky3's batched openings combine their matrices: CombineExt with
// alpha[j] = alpha^j, with the soundness of a single X element drawn for
// all columns (about log2|X| − log2(#columns) bits). Errors as CombineExt's.
func CombinePowers[E Element, X Ext](c *Commitment[E], alpha X) ([]X, error) {
	if err := checkExt[E, X]("CombinePowers"); err != nil {
		return nil, err
	}
	dst := hugepage.Make[X](c.Rows())
	if err := CombinePowersInto(c, dst, alpha); err != nil {
		return nil, err
	}
	return dst, nil
}

// CombinePowersInto is CombinePowers into dst, which must hold Rows()
// elements.
func CombinePowersInto[E Element, X Ext](c *Commitment[E], dst []X, alpha X) error {
	if err := checkExt[E, X]("CombinePowersInto"); err != nil {
		return err
	}
	return CombineExtInto(c, dst, powers(alpha, c.cols))
}

// powers returns 1, x, x², …, x^(n−1) in the challenge field X.
func powers[X Ext](x X, n int) []X {
	out := make([]X, max(n, 0))
	if n == 0 {
		return out
	}
	mul, one := extArith[X]()
	out[0] = one
	for i := 1; i < n; i++ {
		out[i] = mul(out[i-1], x)
	}
	return out
}

// extBlock is the rows a goroutine combines at a time in the extension:
// deg accumulators and a scratch block of the base field stay in L1/L2
// while every column is folded in.
const extBlock = 1024

// scratchPool keeps the extension kernels' per-block scratch, by type.
var scratchPool sync.Map // key: a nil *F of the element type; value: *sync.Pool

// scratch returns a pooled slice of n elements of F (contents undefined)
// and the function that gives it back.
func scratch[F any](n int) ([]F, func()) {
	var key *F
	p, _ := scratchPool.LoadOrStore(key, &sync.Pool{})
	pool := p.(*sync.Pool)
	if v, ok := pool.Get().(*[]F); ok && cap(*v) >= n {
		s := (*v)[:n]
		return s, func() { pool.Put(v) }
	}
	s := make([]F, n)
	return s, func() { pool.Put(&s) }
}

// combineExt sets dst[i] = Σ_j alpha[j]·cols[j][i], coordinate by
// coordinate: coordinate c of the sum is the base-field combination of
// the columns with the c-th coordinates of the alphas.
func combineExt[F, X any](p fieldPair[F, X], dst []X, cols [][]F, alpha []X) {
	d := p.x.deg()
	ac := make([]F, d*len(alpha))
	for j, a := range alpha {
		p.x.coords(a, ac[j*d:(j+1)*d])
	}
	n := len(dst)
	blocks := (n + extBlock - 1) / extBlock
	parallelFor(blocks, func(b int) {
		lo, hi := b*extBlock, min((b+1)*extBlock, n)
		m := hi - lo
		buf, done := scratch[F]((d + 1) * extBlock)
		defer done()
		var accs [4][]F
		for k := range d {
			accs[k] = buf[k*extBlock : k*extBlock+m]
		}
		tmp := buf[d*extBlock : d*extBlock+m]
		for j, col := range cols {
			f := col[lo:hi]
			for k := range d {
				if j == 0 {
					p.b.scaleVec(accs[k], f, &ac[k])
				} else {
					p.b.mulAddVec(accs[k], f, &ac[j*d+k], tmp)
				}
			}
		}
		p.x.interleave(dst[lo:hi], accs[:d])
	})
}

// combineGF128 is combineExt for GF(2^64) columns: gf128.CombineBase on
// blocks of rows over all cores (the carry-less products of a row summed
// unreduced, one reduction per output coordinate).
func combineGF128(dst []gf128.Element, cols [][]gf64.Element, alpha []gf128.Element) {
	n := len(dst)
	blocks := (n + extBlock - 1) / extBlock
	parallelFor(blocks, func(b int) {
		lo, hi := b*extBlock, min((b+1)*extBlock, n)
		sub, done := scratch[[]gf64.Element](len(cols))
		defer done()
		for j, c := range cols {
			sub[j] = c[lo:hi]
		}
		gf128.CombineBase(dst[lo:hi], sub, alpha)
		clear(sub) // no references kept in the pool
	})
}
