package poseidon2

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
)

// Sponge hashes a sequence of elements to a digest: Plonky3's
// PaddingFreeSponge<P, Width, Rate, Out> (overwrite mode, no padding). From
// the all-zero state, each block of Rate input elements overwrites
// state[0:Rate] and the state is permuted; a last, shorter block overwrites
// only its own prefix (the rest of the rate keeps the previous output) and
// is permuted too; the digest is state[0:Out]. An empty input hashes to
// Out zeros. Without padding, inputs of different lengths can collide: use
// it where the protocol fixes the length (the rows of a matrix).
type Sponge[E Element] struct {
	perm      *Permutation[E]
	rate, out int
}

// NewSponge returns the sponge of perm with the given rate and output
// length, 0 < out ≤ rate < Width.
func NewSponge[E Element](perm *Permutation[E], rate, out int) (*Sponge[E], error) {
	if rate <= 0 || rate >= perm.Width() || out <= 0 || out > rate {
		return nil, fmt.Errorf("%w: sponge of rate %d and output %d over width %d", ErrParams, rate, out, perm.Width())
	}
	return &Sponge[E]{perm: perm, rate: rate, out: out}, nil
}

// Sponge returns the standard sponge of p: Out = DigestSize, Rate = Width −
// Out (Plonky3's PaddingFreeSponge<_, 16, 8, 8>, <_, 24, 16, 8>,
// <_, 8, 4, 4> and <_, 12, 8, 4>).
func (p *Permutation[E]) Sponge() *Sponge[E] {
	d := DigestSize[E]()
	if d >= p.Width() {
		d = p.Width() / 2
	}
	return &Sponge[E]{perm: p, rate: p.Width() - d, out: d}
}

// Rate returns the number of elements absorbed per permutation.
func (s *Sponge[E]) Rate() int { return s.rate }

// Out returns the number of elements of a digest.
func (s *Sponge[E]) Out() int { return s.out }

// Hash writes the digest of in to dst, which must hold Out elements.
func (s *Sponge[E]) Hash(dst, in []E) error {
	if len(dst) != s.out {
		return fmt.Errorf("%w: digest of %d elements for output %d", ErrLength, len(dst), s.out)
	}
	st := make([]E, s.perm.Width())
	s.absorb(st, in)
	copy(dst, st[:s.out])
	return nil
}

// absorb hashes in from the zero state st.
func (s *Sponge[E]) absorb(st, in []E) {
	for len(in) > 0 {
		c := copy(st[:s.rate], in)
		in = in[c:]
		s.perm.permuteOne(st)
	}
}

// HashRows writes to dst the digests of the rows of rows, a matrix of
// rowLen ≥ 1 columns stored row after row: dst holds Out elements per row,
// row i's at dst[i·Out:].
func (s *Sponge[E]) HashRows(dst, rows []E, rowLen int) error {
	if rowLen < 1 || len(rows)%rowLen != 0 || len(dst) != len(rows)/rowLen*s.out {
		return fmt.Errorf("%w: %d digest elements for %d elements in rows of %d (output %d)",
			ErrLength, len(dst), len(rows), rowLen, s.out)
	}
	n := len(rows) / rowLen
	spread(n, batchGrain, s.perm.nworkers(), func(lo, hi int) {
		d, r := dst[lo*s.out:hi*s.out], rows[lo*rowLen:hi*rowLen]
		if k := s.perm.f31; k != nil && k.lanes() {
			k.hashLanes(asU32(d), s.rate, s.out, rowLen, func(j, base, m int, dst []uint32) {
				v := asU32(r)
				for l := range m {
					dst[l] = v[(base+l)*rowLen+j]
				}
			})
			return
		}
		st := make([]E, s.perm.Width())
		for i := range hi - lo {
			clear(st)
			s.absorb(st, r[i*rowLen:(i+1)*rowLen])
			copy(d[i*s.out:], st[:s.out])
		}
	})
	return nil
}

// HashColumns writes to dst the digests of the rows of a matrix stored as
// columns (row i is cols[0][i], cols[1][i], …; every column of the same
// length n): dst holds n·Out elements, row i's digest at dst[i·Out:]. With
// no columns, every row is empty and hashes to zeros (n = len(dst)/Out).
func (s *Sponge[E]) HashColumns(dst []E, cols [][]E) error {
	n := len(dst) / s.out
	if len(dst)%s.out != 0 {
		return fmt.Errorf("%w: %d digest elements for output %d", ErrLength, len(dst), s.out)
	}
	for c, col := range cols {
		if len(col) != n {
			return fmt.Errorf("%w: column %d has %d rows, the digests %d", ErrLength, c, len(col), n)
		}
	}
	spread(n, batchGrain, s.perm.nworkers(), func(lo, hi int) {
		d := dst[lo*s.out : hi*s.out]
		if k := s.perm.f31; k != nil && k.lanes() {
			k.hashLanes(asU32(d), s.rate, s.out, len(cols), func(j, base, m int, dst []uint32) {
				copy(dst[:m], asU32(cols[j][lo+base:lo+base+m]))
			})
			return
		}
		st := make([]E, s.perm.Width())
		row := make([]E, len(cols))
		for i := lo; i < hi; i++ {
			for c, col := range cols {
				row[c] = col[i]
			}
			clear(st)
			s.absorb(st, row)
			copy(d[(i-lo)*s.out:], st[:s.out])
		}
	})
	return nil
}

// hashLanes runs the sponge over len(dst)/out rows of rowLen elements, 16
// at a time in the lanes of the kernel; load(j, base, m, v) writes element
// j of rows base … base+m−1 (relative to dst's first row) to v[0:m].
func (k *perm31) hashLanes(dst []uint32, rate, out, rowLen int, load func(j, base, m int, v []uint32)) {
	n := len(dst) / out
	var st lanes
	for base := 0; base < n; base += 16 {
		m := min(16, n-base)
		st = lanes{}
		for off := 0; off < rowLen; off += rate {
			for j := off; j < min(off+rate, rowLen); j++ {
				load(j, base, m, st[j-off][:])
			}
			k.permute16(&st)
		}
		for l := range m {
			for j := range out {
				dst[(base+l)*out+j] = st[j][l]
			}
		}
	}
}

// Mode is how a Compression makes a digest of two.
type Mode int

const (
	// Truncate is Plonky3's TruncatedPermutation<P, 2, Chunk, Width>:
	// the state left ‖ right ‖ 0…0 is permuted and its first Chunk
	// elements are the digest.
	Truncate Mode = iota + 1
	// FeedForward is gnark-crypto's Permutation.Compress (Chunk =
	// Width/2): the digest is P(left ‖ right)[Chunk:2·Chunk] + right.
	FeedForward
)

// Compression makes one digest of two, the node of a Merkle tree.
type Compression[E Element] struct {
	perm  *Permutation[E]
	chunk int
	mode  Mode
}

// NewCompression returns the compression of perm on digests of chunk
// elements: 2·chunk ≤ Width for Truncate, 2·chunk = Width for FeedForward.
func NewCompression[E Element](perm *Permutation[E], chunk int, mode Mode) (*Compression[E], error) {
	w := perm.Width()
	if chunk < 1 || (mode == Truncate && 2*chunk > w) || (mode == FeedForward && 2*chunk != w) ||
		(mode != Truncate && mode != FeedForward) {
		return nil, fmt.Errorf("%w: compression of chunk %d, mode %d, over width %d", ErrParams, chunk, mode, w)
	}
	return &Compression[E]{perm: perm, chunk: chunk, mode: mode}, nil
}

// Compression returns the standard compression of p: Truncate with
// Chunk = DigestSize (Plonky3's TruncatedPermutation<_, 2, 8, 16>,
// <_, 2, 8, 24>, <_, 2, 4, 8> and <_, 2, 4, 12>).
func (p *Permutation[E]) Compression() *Compression[E] {
	return &Compression[E]{perm: p, chunk: min(DigestSize[E](), p.Width()/2), mode: Truncate}
}

// Chunk returns the number of elements of a digest.
func (c *Compression[E]) Chunk() int { return c.chunk }

// Compress writes the digest of left and right (Chunk elements each) to
// dst (Chunk elements). dst may alias left or right.
func (c *Compression[E]) Compress(dst, left, right []E) error {
	if len(dst) != c.chunk || len(left) != c.chunk || len(right) != c.chunk {
		return fmt.Errorf("%w: %d, %d and %d elements for chunk %d", ErrLength, len(dst), len(left), len(right), c.chunk)
	}
	st := make([]E, c.perm.Width())
	copy(st, left)
	copy(st[c.chunk:], right)
	c.finish(dst, st, right)
	return nil
}

// finish permutes st (left ‖ right ‖ 0…) and writes the digest to dst.
func (c *Compression[E]) finish(dst, st, right []E) {
	var r [16]E
	copy(r[:], right)
	c.perm.permuteOne(st)
	if c.mode == Truncate {
		copy(dst, st[:c.chunk])
		return
	}
	add(dst, st[c.chunk:2*c.chunk], r[:c.chunk])
}

// CompressLayer compresses pairs: children holds 2·n digests of Chunk
// elements (left, right, left, right, …, a layer of a Merkle tree) and dst
// receives the n parents, parent i from children 2i and 2i+1. dst may be
// the first half of children.
func (c *Compression[E]) CompressLayer(dst, children []E) error {
	ch := c.chunk
	if len(dst)%ch != 0 || len(children) != 2*len(dst) {
		return fmt.Errorf("%w: %d parent and %d child elements for chunk %d", ErrLength, len(dst), len(children), ch)
	}
	n := len(dst) / ch
	if n > 1 && &dst[0] == &children[0] {
		// In place: parent i would overwrite the children of i/2 before
		// they are read, unless each worker's piece is copied first.
		cp := append([]E(nil), children...)
		children = cp
	}
	spread(n, batchGrain, c.perm.nworkers(), func(lo, hi int) {
		d, kids := dst[lo*ch:hi*ch], children[2*lo*ch:2*hi*ch]
		if k := c.perm.f31; k != nil && k.lanes() {
			k.compressLanes(asU32(d), asU32(kids), ch, c.mode == FeedForward)
			return
		}
		st := make([]E, c.perm.Width())
		for i := range hi - lo {
			clear(st)
			copy(st, kids[2*i*ch:(2*i+2)*ch])
			c.finish(d[i*ch:(i+1)*ch], st, kids[(2*i+1)*ch:(2*i+2)*ch])
		}
	})
	return nil
}

// compressLanes is CompressLayer on the kernel's lanes.
func (k *perm31) compressLanes(dst, kids []uint32, ch int, ff bool) {
	n := len(dst) / ch
	var st lanes
	for base := 0; base < n; base += 16 {
		m := min(16, n-base)
		st = lanes{}
		for l := range m {
			for j, v := range kids[2*(base+l)*ch : 2*(base+l+1)*ch] {
				st[j][l] = v
			}
		}
		k.permute16(&st)
		for l := range m {
			for j := range ch {
				v := st[j][l]
				if ff {
					v = add31(st[ch+j][l], kids[(2*(base+l)+1)*ch+j], k.p)
				}
				dst[(base+l)*ch+j] = v
			}
		}
	}
}

// Chain is the Merkle–Damgård hash over the compression, gnark-crypto's
// NewMerkleDamgardHasher on element-aligned input: from h = 0…0 (Chunk
// elements), h = Compress(h, block) for each block of Chunk elements of in,
// the last one, if shorter, padded with zeros on the left; dst (Chunk
// elements) receives h. With FeedForward over gnark-crypto's preset, this
// is gnark-crypto's hasher fed the elements' big-endian bytes.
func (c *Compression[E]) Chain(dst, in []E) error {
	if len(dst) != c.chunk {
		return fmt.Errorf("%w: digest of %d elements for chunk %d", ErrLength, len(dst), c.chunk)
	}
	h := make([]E, c.chunk)
	block := make([]E, c.chunk)
	st := make([]E, c.perm.Width())
	for len(in) > 0 {
		clear(block)
		k := min(len(in), c.chunk)
		copy(block[c.chunk-k:], in[:k])
		in = in[k:]
		clear(st)
		copy(st, h)
		copy(st[c.chunk:], block)
		c.finish(h, st, block)
	}
	copy(dst, h)
	return nil
}

// add sets dst = a + b elementwise.
func add[E Element](dst, a, b []E) {
	for i := range dst {
		switch d := any(&dst[i]).(type) {
		case *babybear.Element:
			d.Add(any(&a[i]).(*babybear.Element), any(&b[i]).(*babybear.Element))
		case *koalabear.Element:
			d.Add(any(&a[i]).(*koalabear.Element), any(&b[i]).(*koalabear.Element))
		case *goldilocks.Element:
			d.Add(any(&a[i]).(*goldilocks.Element), any(&b[i]).(*goldilocks.Element))
		}
	}
}
