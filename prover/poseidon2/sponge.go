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
	if n := len(rows) / rowLen; s.perm.pieces(n) > 1 {
		spread(n, batchGrain, s.perm.workers(), func(lo, hi int) {
			s.hashRows(dst[lo*s.out:hi*s.out], rows[lo*rowLen:hi*rowLen], rowLen)
		})
		return nil
	}
	s.hashRows(dst, rows, rowLen)
	return nil
}

func (s *Sponge[E]) hashRows(dst, rows []E, rowLen int) {
	if k := s.perm.f31; k != nil && k.lanes() {
		k.hashRowsLanes(asU32(dst), asU32(rows), rowLen, s.rate, s.out)
		return
	}
	w := s.perm.Width()
	st := make([]E, group*w)
	for base := 0; base < len(dst)/s.out; base += group {
		m := min(group, len(dst)/s.out-base)
		clear(st)
		for off := 0; off < rowLen; off += s.rate {
			c := min(s.rate, rowLen-off)
			for l := range m {
				copy(st[l*w:l*w+c], rows[(base+l)*rowLen+off:])
			}
			s.perm.permuteMany(st[:m*w])
		}
		for l := range m {
			copy(dst[(base+l)*s.out:(base+l+1)*s.out], st[l*w:])
		}
	}
}

// group is the number of states the batch methods' Go code gives
// permuteMany at a time (the kernels' lanes, 16 or 8).
const group = 16

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
	if s.perm.pieces(n) > 1 {
		spread(n, batchGrain, s.perm.workers(), func(lo, hi int) { s.hashColumns(dst[lo*s.out:hi*s.out], cols, lo) })
		return nil
	}
	s.hashColumns(dst, cols, 0)
	return nil
}

// hashColumns hashes rows lo, lo+1, … of cols into dst.
func (s *Sponge[E]) hashColumns(dst []E, cols [][]E, lo int) {
	if k := s.perm.f31; k != nil && k.lanes() {
		hashColumnsLanes(k, asU32(dst), cols, lo, s.rate, s.out)
		return
	}
	w := s.perm.Width()
	st := make([]E, group*w)
	for base := 0; base < len(dst)/s.out; base += group {
		m := min(group, len(dst)/s.out-base)
		clear(st)
		for off := 0; off < len(cols); off += s.rate {
			for j, col := range cols[off:min(off+s.rate, len(cols))] {
				for l, v := range col[lo+base : lo+base+m] {
					st[l*w+j] = v
				}
			}
			s.perm.permuteMany(st[:m*w])
		}
		for l := range m {
			copy(dst[(base+l)*s.out:(base+l+1)*s.out], st[l*w:])
		}
	}
}

// hashRowsLanes is hashRows on the kernel's lanes, 16 rows at a time.
func (k *perm31) hashRowsLanes(dst, rows []uint32, rowLen, rate, out int) {
	var st lanes
	for base := 0; base < len(dst)/out; base += 16 {
		m := min(16, len(dst)/out-base)
		st = lanes{}
		for off := 0; off < rowLen; off += rate {
			st.gather(rows[base*rowLen+off:], rowLen, 0, min(rate, rowLen-off), m)
			k.permute16(&st)
		}
		st.scatter(dst[base*out:], out, 0, out, m)
	}
}

// hashColumnsLanes is hashColumns on the kernel's lanes: each column gives
// 16 consecutive words to one row of the lanes.
func hashColumnsLanes[E Element](k *perm31, dst []uint32, cols [][]E, lo, rate, out int) {
	var st lanes
	for base := 0; base < len(dst)/out; base += 16 {
		m := min(16, len(dst)/out-base)
		st = lanes{}
		for off := 0; off < len(cols); off += rate {
			for j, col := range cols[off:min(off+rate, len(cols))] {
				copy(st[j][:m], asU32(col[lo+base:lo+base+m]))
			}
			k.permute16(&st)
		}
		st.scatter(dst[base*out:], out, 0, out, m)
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
	if n := len(dst) / ch; n > 1 && &dst[0] == &children[0] && c.perm.pieces(n) > 1 {
		// In place, one worker's parents would overwrite another's children
		// before they are read (one worker writes parent i after reading
		// children 2i and 2i+1, so it may work in place).
		children = append([]E(nil), children...)
	}
	if n := len(dst) / ch; c.perm.pieces(n) > 1 {
		spread(n, batchGrain, c.perm.workers(), func(lo, hi int) {
			c.compressLayer(dst[lo*ch:hi*ch], children[2*lo*ch:2*hi*ch])
		})
		return nil
	}
	c.compressLayer(dst, children)
	return nil
}

func (c *Compression[E]) compressLayer(dst, kids []E) {
	ch := c.chunk
	if k := c.perm.f31; k != nil && k.lanes() {
		k.compressLanes(asU32(dst), asU32(kids), ch, c.mode == FeedForward)
		return
	}
	w := c.perm.Width()
	st := make([]E, group*w)
	for base := 0; base < len(dst)/ch; base += group {
		m := min(group, len(dst)/ch-base)
		clear(st)
		for l := range m {
			copy(st[l*w:l*w+2*ch], kids[2*(base+l)*ch:])
		}
		c.perm.permuteMany(st[:m*w])
		for l := range m {
			d := dst[(base+l)*ch : (base+l+1)*ch]
			if c.mode == Truncate {
				copy(d, st[l*w:])
			} else {
				add(d, st[l*w+ch:l*w+2*ch], kids[(2*(base+l)+1)*ch:(2*(base+l)+2)*ch])
			}
		}
	}
}

// compressLanes is CompressLayer on the kernel's lanes.
func (k *perm31) compressLanes(dst, kids []uint32, ch int, ff bool) {
	n := len(dst) / ch
	var st lanes
	var right [16][16]uint32
	for base := 0; base < n; base += 16 {
		m := min(16, n-base)
		st = lanes{}
		st.gather(kids[2*base*ch:], 2*ch, 0, 2*ch, m)
		if ff {
			copy(right[:ch], st[ch:2*ch])
		}
		k.permute16(&st)
		if ff {
			for j := range ch {
				for l := range 16 {
					st[j][l] = add31(st[ch+j][l], right[j][l], k.p)
				}
			}
		}
		st.scatter(dst[base*ch:], ch, 0, ch, m)
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
