package merkle

import (
	"fmt"
	"hash"
)

// Opening is a set of opened rows with their authentication paths, each
// path on its own (MultiOpening shares the nodes that paths have in
// common).
type Opening[E Element] struct {
	Indices []int      // the opened row indices
	Rows    [][]E      // Rows[k]: row Indices[k], its elements in column order
	Paths   [][][]byte // Paths[k]: the path of Rows[k], sibling leaf digest first, root excluded
}

// Open returns the rows at the given indices (in their order, repeats
// kept) and their authentication paths. An index outside 0..Rows()−1 is an
// error wrapping ErrIndex; a fault of the hash (the sibling leaves are
// hashed again) one wrapping ErrHash.
func (t *Tree[E]) Open(indices []int) (*Opening[E], error) {
	n := t.Rows()
	for _, i := range indices {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("merkle: Open: row %d of %d: %w", i, n, ErrIndex)
		}
	}
	o := &Opening[E]{
		Indices: append([]int(nil), indices...),
		Rows:    make([][]E, len(indices)),
		Paths:   make([][][]byte, len(indices)),
	}
	s := newHState(t.hs)
	w := len(t.cols)
	backing := make([]E, len(indices)*w)
	for k, i := range indices {
		row := backing[k*w : (k+1)*w : (k+1)*w]
		for j, col := range t.cols {
			row[j] = col[i]
		}
		o.Rows[k] = row
		o.Paths[k] = t.path(s, i)
		if s.err != nil {
			return nil, fmt.Errorf("merkle: Open: row %d: %w", i, s.err)
		}
	}
	return o, nil
}

// path returns the authentication path of leaf i: the sibling leaf's
// digest, then the sibling at each level up to (not including) the root.
// A fault of the hash leaves s.err set.
func (t *Tree[E]) path(s *hstate, i int) [][]byte {
	size := t.hs.size
	p := make([][]byte, t.height)
	if t.height == 0 {
		return p
	}
	buf := make([]byte, t.height*size)
	p[0] = buf[:size:size]
	leafDigest(s, t.cols, i^1, p[0])
	for j := 1; j < t.height; j++ {
		k := (i >> j) ^ 1
		p[j] = buf[j*size : (j+1)*size : (j+1)*size]
		copy(p[j], t.nodes[j-1][k*size:(k+1)*size])
	}
	return p
}

// climb recomputes the root from leaf i's digest and its path; it reports
// whether the path has the right shape and the result equals root. A fault
// of the hash leaves s.err set and the result false.
func climb(s *hstate, root, leaf []byte, i int, path [][]byte) bool {
	size := s.hs.size
	cur := append([]byte(nil), leaf...)
	for _, sib := range path {
		if len(sib) != size {
			return false
		}
		if i&1 == 0 {
			s.node(cur, cur, sib)
		} else {
			s.node(cur, sib, cur)
		}
		i >>= 1
	}
	return s.err == nil && i == 0 && string(cur) == string(root)
}

// Verify checks the opening against root for a tree of numRows rows, with
// the hash the tree used (nil: SHA-256). See the function Verify.
func (o *Opening[E]) Verify(root []byte, numRows int, h func() hash.Hash) error {
	if o == nil {
		return fmt.Errorf("merkle: Verify: nil opening: %w", ErrVerify)
	}
	return Verify(root, numRows, o.Indices, o.Rows, o.Paths, h)
}

// VerifyWith is Verify with the Hasher the tree was built with (a byte
// hash or a field hash). See the function VerifyWith.
func (o *Opening[E]) VerifyWith(root []byte, numRows int, hs Hasher) error {
	if o == nil {
		return fmt.Errorf("merkle: Verify: nil opening: %w", ErrVerify)
	}
	return VerifyWith(root, numRows, o.Indices, o.Rows, o.Paths, hs)
}

// Verify checks that rows[k] is row indices[k] of a tree with the given root
// over numRows rows (a power of two), using paths[k], with the hash h (nil:
// SHA-256). It returns nil when every row checks out and there is at least
// one; an error wrapping ErrVerify when one does not (naming the first) or
// when there is none to check; an error wrapping ErrIndex or ErrShape for
// indices out of range or mismatched lengths; and an error wrapping ErrHash
// when h fails (see NewHasher), never nil then. It does not modify its
// arguments.
func Verify[E Element](root []byte, numRows int, indices []int, rows [][]E, paths [][][]byte, h func() hash.Hash) error {
	hs, err := NewHasher(h)
	if err != nil {
		return fmt.Errorf("merkle: Verify: %w", err)
	}
	return VerifyWith(root, numRows, indices, rows, paths, hs)
}

// VerifyWith is Verify with a Hasher: the byte hash or the field hash the
// tree was built with (Build). Its errors are Verify's, and one wrapping
// ErrField for a field hash over another field than E's. With a field hash,
// a digest of a path that holds a value not below the modulus does not
// match (ErrVerify). A field hash's leaves are not tagged and its sponge
// does not pad, so the verifier must know the width of the rows it checks
// (see the package documentation, "Field trees").
func VerifyWith[E Element](root []byte, numRows int, indices []int, rows [][]E, paths [][][]byte, hs Hasher) error {
	hs = hs.norm()
	err := checkField[E](hs)
	if err == nil {
		err = hs.probe(NodeTag, 1+2*hs.size)
	}
	if err != nil {
		return fmt.Errorf("merkle: Verify: %w", err)
	}
	if numRows <= 0 || numRows&(numRows-1) != 0 {
		return fmt.Errorf("merkle: Verify: %d rows is not a power of two: %w", numRows, ErrShape)
	}
	if len(rows) != len(indices) || len(paths) != len(indices) {
		return fmt.Errorf("merkle: Verify: %d indices, %d rows, %d paths: %w", len(indices), len(rows), len(paths), ErrShape)
	}
	if len(indices) == 0 {
		return fmt.Errorf("merkle: Verify: no rows to verify: %w", ErrVerify)
	}
	if len(root) != hs.size {
		return fmt.Errorf("merkle: Verify: root of %d bytes, the hash gives %d: %w", len(root), hs.size, ErrVerify)
	}
	height := log2(numRows)
	s := newHState(hs)
	leaf := make([]byte, hs.size)
	width := -1
	for k, i := range indices {
		if i < 0 || i >= numRows {
			return fmt.Errorf("merkle: Verify: row index %d of %d: %w", i, numRows, ErrIndex)
		}
		if len(rows[k]) == 0 {
			return fmt.Errorf("merkle: Verify: row %d is empty: %w", i, ErrShape)
		}
		if width >= 0 && len(rows[k]) != width {
			return fmt.Errorf("merkle: Verify: row %d has %d elements, the first %d: %w", i, len(rows[k]), width, ErrShape)
		}
		width = len(rows[k])
		if len(paths[k]) != height {
			return fmt.Errorf("merkle: Verify: path of row %d has %d digests, want %d: %w", i, len(paths[k]), height, ErrVerify)
		}
		if k == 0 {
			if err := hs.probe(LeafTag, 1+width*ElementBytes[E]()); err != nil {
				return fmt.Errorf("merkle: Verify: %w", err)
			}
		}
		rowDigest(s, rows[k], leaf)
		ok := climb(s, root, leaf, i, paths[k])
		if s.err != nil {
			return fmt.Errorf("merkle: Verify: row %d: %w", i, s.err)
		}
		if !ok {
			return fmt.Errorf("merkle: Verify: row %d does not match the root: %w", i, ErrVerify)
		}
	}
	return nil
}

// LeafDigests returns the leaf digests H(0x00 ‖ enc(row)) of rows (each
// row its elements in column order, all of one width ≥ 1), hashed with hs:
// for a tree whose nodes are elsewhere (on a device) and whose openings
// need the sibling leaves' digests. Rows of different or zero widths are
// an error wrapping ErrShape, a fault of the hash one wrapping ErrHash.
func LeafDigests[E Element](hs Hasher, rows [][]E) ([][]byte, error) {
	hs = hs.norm()
	if err := checkField[E](hs); err != nil {
		return nil, fmt.Errorf("merkle: LeafDigests: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	w := len(rows[0])
	for k, r := range rows {
		if len(r) == 0 || len(r) != w {
			return nil, fmt.Errorf("merkle: LeafDigests: row %d has %d elements, the first %d: %w", k, len(r), w, ErrShape)
		}
	}
	if err := hs.probe(LeafTag, 1+w*ElementBytes[E]()); err != nil {
		return nil, fmt.Errorf("merkle: LeafDigests: %w", err)
	}
	s := newHState(hs)
	buf := make([]byte, len(rows)*hs.size)
	out := make([][]byte, len(rows))
	for k, r := range rows {
		out[k] = buf[k*hs.size : (k+1)*hs.size : (k+1)*hs.size]
		rowDigest(s, r, out[k])
	}
	if s.err != nil {
		return nil, fmt.Errorf("merkle: LeafDigests: %w", s.err)
	}
	return out, nil
}

// Top is the top of a tree whose subtrees were built apart (on several
// devices): the levels from the subtrees' roots up to the tree's root.
type Top struct {
	levels [][][]byte // levels[0]: the subtrees' roots; levels[k]: level k above them; the last, the root
}

// JoinRoots hashes the roots of 2^k subtrees of one height, left to right,
// pairwise up to the root of the tree they form, with hs. A count that is
// not a power of two, or a digest of other than hs.Size() bytes, is an
// error wrapping ErrShape; a fault of the hash one wrapping ErrHash.
func JoinRoots(hs Hasher, roots [][]byte) (*Top, error) {
	hs = hs.norm()
	if n := len(roots); n == 0 || n&(n-1) != 0 {
		return nil, fmt.Errorf("merkle: JoinRoots: %d roots is not a power of two: %w", n, ErrShape)
	}
	for b, r := range roots {
		if len(r) != hs.size {
			return nil, fmt.Errorf("merkle: JoinRoots: root %d has %d bytes, the hash gives %d: %w", b, len(r), hs.size, ErrShape)
		}
	}
	if len(roots) > 1 {
		if err := hs.probe(NodeTag, 1+2*hs.size); err != nil {
			return nil, fmt.Errorf("merkle: JoinRoots: %w", err)
		}
	}
	s := newHState(hs)
	levels := [][][]byte{roots}
	for cur := roots; len(cur) > 1; {
		next := make([][]byte, len(cur)/2)
		for i := range next {
			next[i] = make([]byte, hs.size)
			s.node(next[i], cur[2*i], cur[2*i+1])
		}
		levels = append(levels, next)
		cur = next
	}
	if s.err != nil {
		return nil, fmt.Errorf("merkle: JoinRoots: %w", s.err)
	}
	return &Top{levels: levels}, nil
}

// Root returns the root of the tree (a copy).
func (t *Top) Root() []byte { return append([]byte(nil), t.levels[len(t.levels)-1][0]...) }

// Path returns the digests of the path of subtree b's root above it: its
// sibling among the roots, then the sibling at each level up to the root
// (excluded). A leaf's path in the whole tree is its path in subtree b
// followed by these. The digests are the Top's own. A b outside the roots
// returns nil.
func (t *Top) Path(b int) [][]byte {
	if b < 0 || b >= len(t.levels[0]) {
		return nil
	}
	p := make([][]byte, 0, len(t.levels)-1)
	for k := range len(t.levels) - 1 {
		p = append(p, t.levels[k][(b>>k)^1])
	}
	return p
}
