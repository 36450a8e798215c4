package merkle

import (
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"slices"
)

// multiVersion is the version byte of the encoding of a MultiOpening.
const multiVersion = 1

// multiHeader is the size of the fixed header of the encoding.
const multiHeader = 15

// MultiOpening is a set of opened rows of one tree with the tree
// nodes that, together with the rows, recompute its root. Where the rows'
// authentication paths meet, the nodes they share are sent once, and a
// node that the verifier recomputes from the opened rows themselves (the
// sibling of an opened row that is opened too, or a node above two opened
// rows) is not sent at all.
//
// Node order. The tree is the one of the package documentation:
// N = 2^n leaves, level 0 the leaf digests, level n the root, node p of level j+1 the hash
// of nodes 2p and 2p+1 of level j. Given the opened indices, sorted and
// without duplicates, K_0 = {indices} is the set of known positions of
// level 0 and K_{j+1} = {p >> 1 : p ∈ K_j}. For j = 0, 1, …, n−1 in turn,
// and within level j for the positions p ∈ K_j in increasing order, the
// node at position p XOR 1 of level j is sent when p XOR 1 ∉ K_j. Nodes
// lists these digests in exactly that order: the missing leaf digests
// first, left to right, then the missing nodes of level 1, and so on up to
// level n−1. Their number depends on the indices and n only (the Nodes
// count a verifier expects); for one index it is n, the length of a
// single path; for all N indices it is 0.
//
// Verification. Walk the same levels: start from the leaf digests of the
// opened rows (H(0x00 ‖ enc(row))) at their positions; at level j, for
// each known position p in increasing order, take its sibling's digest
// from the known set when p XOR 1 is known (the pair is then done), else
// the next digest of Nodes; the parent p >> 1 is H(0x01 ‖ even child ‖ odd
// child). After level n−1 the one known node must equal the root, and
// every digest of Nodes must have been used, none missing.
//
// Test vector. With SHA-256: the 8-row BabyBear LDE of two columns
// (1, 2, …, 8) and (9, 10, …, 16) (row i is the elements i+1 and i+9;
// leaf 0 is H(0x00 ‖ 00000001 00000009)) has the root
//
//	82565165d8d41d00a3977ec87ffc0fe17907404cb0496a4f91eda2bac17cc33b
//
// and its multi-opening at indices {1, 2, 6} sends 4 nodes: the leaf
// digests of rows 0, 3 and 7, then node 2 of level 1 (H(0x01 ‖ leaf 4 ‖
// leaf 5)):
//
//	leaf 0    95bbeafea690f98d7a1606fa8b27976479bad60a0fa6c9c36fe935e7d4424b2b
//	leaf 3    fd1b450e326b98cf376114899076490a733ffa5fafcdf9e37cafe747d932190e
//	leaf 7    24223b1710a9ac27a3a3310d4ad81912efb985c492e5994f9a9e42018220c52c
//	node 1,2  9228decd8d22ce8758194c2c94be9316f724d06712a704ef1d7c4e95ef0d51b5
//
// (TestMultiOpeningVector recomputes them with crypto/sha256 from this
// description.) MarshalBinary says how an opening is encoded.
type MultiOpening[E Element] struct {
	Indices []int    // the opened row indices, strictly increasing
	Rows    [][]E    // Rows[k]: row Indices[k], its elements in column order
	Nodes   [][]byte // the digests the rows do not determine, in the canonical order
}

// OpenMulti returns the rows at the given indices and the tree nodes that
// authenticate them together. The indices may come in any order and
// repeat: the opening holds each row once, in increasing index order. An
// index outside 0..Rows()−1 is an error wrapping ErrIndex, no index at all
// one wrapping ErrShape, a fault of the hash (the missing leaf digests are
// hashed from their rows) one wrapping ErrHash. The nodes above the leaves
// are copied from the tree.
func (t *Tree[E]) OpenMulti(indices []int) (*MultiOpening[E], error) {
	n := t.Rows()
	if len(indices) == 0 {
		return nil, fmt.Errorf("merkle: OpenMulti: no indices: %w", ErrShape)
	}
	for _, i := range indices {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("merkle: OpenMulti: row %d of %d: %w", i, n, ErrIndex)
		}
	}
	idx := slices.Clone(indices)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	w := len(t.cols)
	backing := make([]E, len(idx)*w)
	m := &MultiOpening[E]{Indices: idx, Rows: make([][]E, len(idx))}
	for k, i := range idx {
		row := backing[k*w : (k+1)*w : (k+1)*w]
		for j, col := range t.cols {
			row[j] = col[i]
		}
		m.Rows[k] = row
	}
	size := t.hs.size
	count := multiNodes(idx, t.height)
	if count == 0 {
		return m, nil // all rows opened, or a tree of one leaf
	}
	buf := make([]byte, count*size)
	m.Nodes = make([][]byte, 0, count)
	s := newHState(t.hs)
	walkMulti(idx, t.height, func(level, pos, _ int) {
		d := buf[len(m.Nodes)*size : (len(m.Nodes)+1)*size : (len(m.Nodes)+1)*size]
		if level == 0 {
			leafDigest(s, t.cols, pos, d)
		} else {
			copy(d, t.nodes[level-1][pos*size:(pos+1)*size])
		}
		m.Nodes = append(m.Nodes, d)
	})
	if s.err != nil {
		return nil, fmt.Errorf("merkle: OpenMulti: %w", s.err)
	}
	return m, nil
}

// Merge returns the multi-opening of o's rows, for a tree whose single
// paths are what there is (its nodes on a device, gathered path by path):
// o's indices must increase strictly (ErrIndex) and its paths all have one
// length, the tree's height, with Rows and Paths one per index (ErrShape).
// The nodes are taken from the paths, each once, in MultiOpening's order;
// where two paths hold the same node, the first one's is taken, unchecked
// (VerifyMulti checks the result). The rows and digests are o's, not
// copied.
func (o *Opening[E]) Merge() (*MultiOpening[E], error) {
	if o == nil || len(o.Indices) == 0 {
		return nil, fmt.Errorf("merkle: Merge: no rows: %w", ErrShape)
	}
	if len(o.Rows) != len(o.Indices) || len(o.Paths) != len(o.Indices) {
		return nil, fmt.Errorf("merkle: Merge: %d indices, %d rows, %d paths: %w", len(o.Indices), len(o.Rows), len(o.Paths), ErrShape)
	}
	height := len(o.Paths[0])
	for k, i := range o.Indices {
		if i < 0 || i>>height != 0 || (k > 0 && i <= o.Indices[k-1]) {
			return nil, fmt.Errorf("merkle: Merge: index %d: want strictly increasing indices below 2^%d: %w", i, height, ErrIndex)
		}
		if len(o.Paths[k]) != height {
			return nil, fmt.Errorf("merkle: Merge: path of row %d has %d digests, the first %d: %w", i, len(o.Paths[k]), height, ErrShape)
		}
	}
	m := &MultiOpening[E]{Indices: o.Indices, Rows: o.Rows}
	walkMulti(o.Indices, height, func(level, _, k int) {
		m.Nodes = append(m.Nodes, o.Paths[k][level])
	})
	return m, nil
}

// walkMulti walks the levels of a tree of the given height from the
// sorted, distinct leaf positions idx and calls need for every node the
// positions do not determine, in the canonical order: its level, its
// position in the level, and the index into idx of one opened row below
// its sibling (whose path holds the node at that level).
func walkMulti(idx []int, height int, need func(level, pos, k int)) {
	type known struct{ pos, k int }
	cur := make([]known, len(idx))
	for k, i := range idx {
		cur[k] = known{i, k}
	}
	for j := range height {
		next := cur[:0]
		for a := 0; a < len(cur); {
			p, k := cur[a].pos, cur[a].k
			if p&1 == 0 && a+1 < len(cur) && cur[a+1].pos == p+1 {
				a += 2
			} else {
				need(j, p^1, k)
				a++
			}
			next = append(next, known{p >> 1, k})
		}
		cur = next
	}
}

// multiNodes returns the number of nodes a multi-opening of the sorted,
// distinct positions idx in a tree of the given height sends.
func multiNodes(idx []int, height int) int {
	n := 0
	walkMulti(idx, height, func(int, int, int) { n++ })
	return n
}

// Verify checks the multi-opening against root for a tree of numRows rows,
// with the hash the tree used (nil: SHA-256). See VerifyMulti.
func (o *MultiOpening[E]) Verify(root []byte, numRows int, h func() hash.Hash) error {
	return VerifyMulti(root, numRows, o, h)
}

// VerifyWith is Verify with the Hasher the tree was built with (a byte
// hash or a field hash). See VerifyMultiWith.
func (o *MultiOpening[E]) VerifyWith(root []byte, numRows int, hs Hasher) error {
	return VerifyMultiWith(root, numRows, o, hs)
}

// VerifyMulti checks that o.Rows[k] is row o.Indices[k] of a tree with
// the given root over numRows rows (a power of two), using o.Nodes, with
// the hash h (nil: SHA-256). It needs no tree. It returns nil when
// the rows and nodes recompute the root; an error wrapping ErrVerify when
// they do not, when o is nil or opens no row, or when the root has the
// wrong size; one wrapping ErrIndex for an index out of range or indices
// that do not increase strictly; one wrapping ErrShape for rows of
// different or zero widths, a number of rows other than of indices, or a
// number of nodes other than the indices need (too few or too many), or a
// node of the wrong size; and one wrapping ErrHash when h fails (see
// NewHasher), never nil then. It does not modify o.
func VerifyMulti[E Element](root []byte, numRows int, o *MultiOpening[E], h func() hash.Hash) error {
	hs, err := NewHasher(h)
	if err != nil {
		return fmt.Errorf("merkle: VerifyMulti: %w", err)
	}
	return VerifyMultiWith(root, numRows, o, hs)
}

// VerifyMultiWith is VerifyMulti with a Hasher: the byte hash or the field
// hash the tree was built with (Build). Its errors are VerifyMulti's, and
// one wrapping ErrField for a field hash over another field than E's. With
// a field hash, a node that holds a value not below the modulus does not
// match (ErrVerify). A field hash's leaves are not tagged and its sponge
// does not pad, so the verifier must know the width of the rows it checks
// (see the package documentation, "Field trees").
func VerifyMultiWith[E Element](root []byte, numRows int, o *MultiOpening[E], hs Hasher) error {
	hs = hs.norm()
	err := checkField[E](hs)
	if err == nil {
		err = hs.probe(NodeTag, 1+2*hs.size)
	}
	if err != nil {
		return fmt.Errorf("merkle: VerifyMulti: %w", err)
	}
	if o == nil {
		return fmt.Errorf("merkle: VerifyMulti: nil opening: %w", ErrVerify)
	}
	if numRows <= 0 || numRows&(numRows-1) != 0 {
		return fmt.Errorf("merkle: VerifyMulti: %d rows is not a power of two: %w", numRows, ErrShape)
	}
	if len(o.Rows) != len(o.Indices) {
		return fmt.Errorf("merkle: VerifyMulti: %d indices, %d rows: %w", len(o.Indices), len(o.Rows), ErrShape)
	}
	if len(o.Indices) == 0 {
		return fmt.Errorf("merkle: VerifyMulti: no rows to verify: %w", ErrVerify)
	}
	if len(root) != hs.size {
		return fmt.Errorf("merkle: VerifyMulti: root of %d bytes, the hash gives %d: %w", len(root), hs.size, ErrVerify)
	}
	width := len(o.Rows[0])
	for k, i := range o.Indices {
		if i < 0 || i >= numRows {
			return fmt.Errorf("merkle: VerifyMulti: row index %d of %d: %w", i, numRows, ErrIndex)
		}
		if k > 0 && i <= o.Indices[k-1] {
			return fmt.Errorf("merkle: VerifyMulti: index %d after %d: indices must increase strictly: %w", i, o.Indices[k-1], ErrIndex)
		}
		if len(o.Rows[k]) == 0 {
			return fmt.Errorf("merkle: VerifyMulti: row %d is empty: %w", i, ErrShape)
		}
		if len(o.Rows[k]) != width {
			return fmt.Errorf("merkle: VerifyMulti: row %d has %d elements, the first %d: %w", i, len(o.Rows[k]), width, ErrShape)
		}
	}
	height := log2(numRows)
	if want := multiNodes(o.Indices, height); len(o.Nodes) != want {
		return fmt.Errorf("merkle: VerifyMulti: %d nodes, the indices need %d: %w", len(o.Nodes), want, ErrShape)
	}
	for k, d := range o.Nodes {
		if len(d) != hs.size {
			return fmt.Errorf("merkle: VerifyMulti: node %d has %d bytes, the hash gives %d: %w", k, len(d), hs.size, ErrShape)
		}
	}
	if err := hs.probe(LeafTag, 1+width*ElementBytes[E]()); err != nil {
		return fmt.Errorf("merkle: VerifyMulti: %w", err)
	}

	// The known nodes of the current level, by increasing position; the
	// digests live in one buffer, rewritten level by level in place (a
	// parent's slot is at most its left child's).
	s := newHState(hs)
	size := hs.size
	q := len(o.Indices)
	pos := slices.Clone(o.Indices)
	dig := make([]byte, q*size)
	for k := range q {
		rowDigest(s, o.Rows[k], dig[k*size:(k+1)*size])
	}
	next := 0 // the next node of o.Nodes
	for range height {
		w := 0
		for a := 0; a < q; {
			p := pos[a]
			cur := dig[a*size : (a+1)*size]
			out := dig[w*size : (w+1)*size]
			switch {
			case p&1 == 0 && a+1 < q && pos[a+1] == p+1:
				s.node(out, cur, dig[(a+1)*size:(a+2)*size])
				a += 2
			case p&1 == 0:
				s.node(out, cur, o.Nodes[next])
				next++
				a++
			default:
				s.node(out, o.Nodes[next], cur)
				next++
				a++
			}
			pos[w] = p >> 1
			w++
		}
		q = w
	}
	if s.err != nil {
		return fmt.Errorf("merkle: VerifyMulti: %w", s.err)
	}
	if q != 1 || next != len(o.Nodes) || string(dig[:size]) != string(root) {
		return fmt.Errorf("merkle: VerifyMulti: the %d rows do not match the root: %w", len(o.Indices), ErrVerify)
	}
	return nil
}

// Size returns the size in bytes of the opening's encoding (MarshalBinary):
// 15 + 4q + q·w·b + m·d for q rows of w elements of b bytes and m nodes of
// d bytes.
func (o *MultiOpening[E]) Size() int {
	if o == nil {
		return 0
	}
	w, d := 0, 0
	if len(o.Rows) > 0 {
		w = len(o.Rows[0])
	}
	if len(o.Nodes) > 0 {
		d = len(o.Nodes[0])
	}
	return multiHeader + len(o.Indices)*(4+w*ElementBytes[E]()) + len(o.Nodes)*d
}

// MarshalBinary encodes the opening.
//
// The encoding, version 1, integers big-endian:
//
//	offset     size      field
//	0          1         version, 1
//	1          1         field: 0 gf64, 1 Goldilocks, 2 BabyBear, 3 KoalaBear, 4 BN254 (package prover's Field constants)
//	2          1         d, the digest size in bytes: 16 to 128, or 0 when m = 0
//	3          4         q, the number of opened rows, at least 1
//	7          4         w, the row width in elements, at least 1
//	11         4         m, the number of nodes
//	15         4·q       the indices, each a uint32, strictly increasing
//	15+4q      q·w·b     the rows, in the order of the indices, each in the leaf encoding
//	                     (w elements of b bytes: gf64 8 bytes little-endian, Goldilocks 8,
//	                     BabyBear and KoalaBear 4, BN254 32, prime fields canonical big-endian)
//	…          m·d       the nodes, in the order of MultiOpening
//
// and nothing after them: the encoding is exactly 15 + 4q + q·w·b + m·d
// bytes (Size). UnmarshalBinary accepts exactly that and nothing else: the
// version and field are checked, each count is bounded by the bytes that
// remain before anything is allocated, indices must increase strictly,
// prime-field elements must be canonical (below the modulus), and the
// length must match to the byte. The number of rows of the tree is
// not in the encoding: the verifier knows it (VerifyMulti's numRows), and
// checks m against it.
//
// An opening that the encoding cannot hold (no rows, rows of different or
// zero widths, indices outside 0..2^32−1 or not strictly increasing, nodes
// of different sizes or a size outside 16..128) is an error wrapping
// ErrShape.
func (o *MultiOpening[E]) MarshalBinary() ([]byte, error) {
	if o == nil {
		return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: nil opening: %w", ErrShape)
	}
	q := len(o.Indices)
	if q == 0 || len(o.Rows) != q {
		return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: %d indices, %d rows: %w", q, len(o.Rows), ErrShape)
	}
	w := len(o.Rows[0])
	if w == 0 || uint64(w) > math.MaxUint32 {
		return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: rows of %d elements: %w", w, ErrShape)
	}
	d := hashSizeOf(o.Nodes)
	if d < 0 {
		return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: nodes of different sizes, or a size outside %d..%d: %w", minHashSize, maxHashSize, ErrShape)
	}
	if uint64(q) > math.MaxUint32 || uint64(len(o.Nodes)) > math.MaxUint32 {
		return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: %d rows, %d nodes: %w", q, len(o.Nodes), ErrShape)
	}
	for k, i := range o.Indices {
		if i < 0 || uint64(i) > math.MaxUint32 || (k > 0 && i <= o.Indices[k-1]) {
			return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: index %d: want strictly increasing indices in 0..2^32−1: %w", i, ErrShape)
		}
		if len(o.Rows[k]) != w {
			return nil, fmt.Errorf("merkle: MultiOpening.MarshalBinary: row %d has %d elements, the first %d: %w", i, len(o.Rows[k]), w, ErrShape)
		}
	}
	f := fieldOf[E]()
	b := make([]byte, multiHeader, o.Size())
	b[0] = multiVersion
	b[1] = f
	b[2] = byte(d)
	binary.BigEndian.PutUint32(b[3:], uint32(q))
	binary.BigEndian.PutUint32(b[7:], uint32(w))
	binary.BigEndian.PutUint32(b[11:], uint32(len(o.Nodes)))
	for _, i := range o.Indices {
		b = binary.BigEndian.AppendUint32(b, uint32(i))
	}
	for _, row := range o.Rows {
		b = AppendRow(b, row)
	}
	for _, n := range o.Nodes {
		b = append(b, n...)
	}
	return b, nil
}

// hashSizeOf returns the common size of the digests, 0 for none, or −1
// when they differ or the size is outside the bounds of a hash.
func hashSizeOf(nodes [][]byte) int {
	if len(nodes) == 0 {
		return 0
	}
	d := len(nodes[0])
	if d < minHashSize || d > maxHashSize {
		return -1
	}
	for _, n := range nodes {
		if len(n) != d {
			return -1
		}
	}
	return d
}

// UnmarshalBinary decodes an opening written by MarshalBinary (see
// MarshalBinary) into o, replacing what it held; o's Nodes then share one
// new buffer. Anything else — another version or field, counts the bytes
// cannot hold, indices that do not increase strictly, non-canonical
// elements, bytes missing or left over — is an error wrapping ErrShape
// (ErrIndex for the indices), and o is left unchanged. It allocates at
// most a small multiple of len(data).
func (o *MultiOpening[E]) UnmarshalBinary(data []byte) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("merkle: MultiOpening.UnmarshalBinary: "+format+": %w", append(args, ErrShape)...)
	}
	if len(data) < multiHeader {
		return bad("%d bytes, the header alone is %d", len(data), multiHeader)
	}
	f := fieldOf[E]()
	switch {
	case data[0] != multiVersion:
		return bad("version %d, want %d", data[0], multiVersion)
	case data[1] != f:
		return bad("field %d, want %d (%s)", data[1], f, fieldName(f))
	}
	d := uint64(data[2])
	q := uint64(binary.BigEndian.Uint32(data[3:]))
	w := uint64(binary.BigEndian.Uint32(data[7:]))
	m := uint64(binary.BigEndian.Uint32(data[11:]))
	eb := uint64(ElementBytes[E]())
	rest := uint64(len(data) - multiHeader)
	switch {
	case (m == 0) != (d == 0), d != 0 && (d < minHashSize || d > maxHashSize):
		return bad("%d digests of %d bytes, want %d to %d bytes, or 0 for none", m, d, minHashSize, maxHashSize)
	case q == 0 || w == 0:
		return bad("%d rows of %d elements", q, w)
	case q > rest/4:
		return bad("%d indices in %d bytes", q, rest)
	}
	rest -= 4 * q
	if w > rest/(q*eb) {
		return bad("%d rows of %d elements in %d bytes", q, w, rest)
	}
	rb := w * eb
	rest -= q * rb
	if (d == 0 && rest != 0) || (d != 0 && (rest%d != 0 || rest/d != m)) {
		return bad("%d nodes of %d bytes, %d bytes left", m, d, rest)
	}
	idx := make([]int, q)
	at := data[multiHeader:]
	for k := range idx {
		idx[k] = int(binary.BigEndian.Uint32(at[4*k:]))
		if k > 0 && idx[k] <= idx[k-1] {
			return fmt.Errorf("merkle: MultiOpening.UnmarshalBinary: index %d after %d: indices must increase strictly: %w", idx[k], idx[k-1], ErrIndex)
		}
	}
	at = at[4*q:]
	backing := make([]E, q*w)
	rows := make([][]E, q)
	for k := range rows {
		rows[k] = backing[uint64(k)*w : uint64(k+1)*w : uint64(k+1)*w]
		if err := getElements(rows[k], at[uint64(k)*rb:uint64(k+1)*rb]); err != nil {
			return bad("row %d: %v", idx[k], err)
		}
	}
	at = at[q*rb:]
	buf := append([]byte(nil), at...)
	var nodes [][]byte // nil for none, as OpenMulti gives
	if m > 0 {
		nodes = make([][]byte, m)
	}
	for k := range nodes {
		nodes[k] = buf[uint64(k)*d : uint64(k+1)*d : uint64(k+1)*d]
	}
	*o = MultiOpening[E]{Indices: idx, Rows: rows, Nodes: nodes}
	return nil
}
