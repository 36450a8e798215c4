package merkle_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Tests of multi-path openings: they verify, carry exactly the nodes the
// single paths imply (each once, in the documented order), and every
// tampered or malformed opening is rejected with an error.

func sha3New() hash.Hash { return sha3.New256() }

// moIndexSets are index sets for a tree of n rows: one index, the first and
// last, all of them, adjacent pairs, duplicates in no order, and random
// ones.
func moIndexSets(n int, r *rand.Rand) [][]int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	sets := [][]int{{0}, {n - 1}, {0, n - 1}, all}
	if n >= 4 {
		sets = append(sets, []int{2, 3}, []int{n - 2, n - 1, 0, 1}, []int{3, 1, 3, 3, 1}, []int{1, 2})
	}
	for range 4 {
		q := 1 + r.IntN(min(n, 40))
		s := make([]int, q)
		for k := range s {
			s[k] = r.IntN(n)
		}
		sets = append(sets, s)
	}
	return sets
}

// moRef returns what the single paths of tr imply for the distinct sorted
// indices idx: for each level from the leaves up, the siblings of the known
// positions that are not known, left to right, each once, taken from the
// paths of Open (which must agree where they meet).
func moRef[E merkle.Element](t testing.TB, tr *merkle.Tree[E], idx []int) (rows [][]E, nodes [][]byte) {
	t.Helper()
	o, err := tr.Open(idx)
	require.NoError(t, err)
	height := tr.Height()
	at := map[[2]int][]byte{}
	for k, i := range idx {
		require.Len(t, o.Paths[k], height)
		for j, d := range o.Paths[k] {
			key := [2]int{j, (i >> j) ^ 1}
			if prev, ok := at[key]; ok {
				require.Equal(t, prev, d, "paths disagree on node %d of level %d", key[1], j)
			}
			at[key] = d
		}
	}
	known := map[int]bool{}
	for _, i := range idx {
		known[i] = true
	}
	for j := range height {
		var need []int
		for p := range known {
			if !known[p^1] {
				need = append(need, p^1)
			}
		}
		slices.Sort(need)
		for _, p := range need {
			nodes = append(nodes, at[[2]int{j, p}])
		}
		up := map[int]bool{}
		for p := range known {
			up[p>>1] = true
		}
		known = up
	}
	return o.Rows, nodes
}

func sortedUnique(idx []int) []int {
	s := slices.Clone(idx)
	slices.Sort(s)
	return slices.Compact(s)
}

func TestOpenMulti(t *testing.T) {
	t.Run("gf64", testOpenMulti[gf64.Element])
	t.Run("goldilocks", testOpenMulti[goldilocks.Element])
	t.Run("babybear", testOpenMulti[babybear.Element])
	t.Run("koalabear", testOpenMulti[koalabear.Element])
	t.Run("bn254", testOpenMulti[fr.Element])
}

func testOpenMulti[E merkle.Element](t *testing.T) {
	for _, h := range []struct {
		name string
		h    func() hash.Hash
	}{{"sha256", nil}, {"sha3", sha3New}} {
		for _, lg := range []int{0, 1, 2, 3, 5, 8, 12} {
			cols := 1 + lg%4
			tr, err := merkle.Commit(randomCols[E](lg, cols, uint64(lg)), h.h, 2)
			require.NoError(t, err)
			n, root := tr.Rows(), tr.Root()
			r := rand.New(rand.NewPCG(uint64(lg), 7))
			for _, idx := range moIndexSets(n, r) {
				name := fmt.Sprintf("%s 2^%d×%d %v", h.name, lg, cols, idx)
				if len(idx) > 8 {
					name = fmt.Sprintf("%s 2^%d×%d %d indices", h.name, lg, cols, len(idx))
				}
				m, err := tr.OpenMulti(idx)
				require.NoError(t, err, name)
				u := sortedUnique(idx)
				wantRows, wantNodes := moRef(t, tr, u)
				require.Equal(t, u, m.Indices, name)
				require.Equal(t, wantRows, m.Rows, name)
				require.Equal(t, wantNodes, m.Nodes, name)
				if len(u) == 1 {
					assert.Len(t, m.Nodes, lg, "%s: one index sends a whole path", name)
				}
				if len(u) == n {
					assert.Empty(t, m.Nodes, "%s: all indices send no node", name)
				}
				// The single paths merged give the same opening.
				o, err := tr.Open(u)
				require.NoError(t, err, name)
				mm, err := o.Merge()
				require.NoError(t, err, name)
				require.Equal(t, m.Indices, mm.Indices, name)
				require.Equal(t, m.Rows, mm.Rows, name)
				require.Equal(t, m.Nodes, mm.Nodes, name)
				require.NoError(t, m.Verify(root, n, h.h), name)
				require.NoError(t, merkle.VerifyMulti(root, n, m, h.h), name)
				b, err := m.MarshalBinary()
				require.NoError(t, err, name)
				assert.Len(t, b, m.Size(), name)
				var back merkle.MultiOpening[E]
				require.NoError(t, back.UnmarshalBinary(b), name)
				require.Equal(t, m.Indices, back.Indices, name)
				require.Equal(t, m.Rows, back.Rows, name)
				require.Equal(t, len(m.Nodes), len(back.Nodes), name)
				for k := range m.Nodes {
					require.Equal(t, m.Nodes[k], back.Nodes[k], name)
				}
				require.NoError(t, back.Verify(root, n, h.h), name)
				// The other hash, and the tree seen as twice its size, reject it.
				other := sha3New
				if h.h != nil {
					other = nil
				}
				require.ErrorIs(t, m.Verify(root, n, other), merkle.ErrVerify, name)
				require.Error(t, m.Verify(root, 2*n, h.h), name)
			}
		}
	}
}

func TestMergeRejects(t *testing.T) {
	tr, err := merkle.Commit(randomCols[babybear.Element](4, 2, 1), nil, 0)
	require.NoError(t, err)
	o, err := tr.Open([]int{1, 5, 9})
	require.NoError(t, err)
	var nilOpening *merkle.Opening[babybear.Element]
	for name, tc := range map[string]struct {
		o    *merkle.Opening[babybear.Element]
		want error
	}{
		"nil":            {nilOpening, merkle.ErrShape},
		"no rows":        {&merkle.Opening[babybear.Element]{}, merkle.ErrShape},
		"unsorted":       {&merkle.Opening[babybear.Element]{Indices: []int{5, 1, 9}, Rows: o.Rows, Paths: o.Paths}, merkle.ErrIndex},
		"repeated":       {&merkle.Opening[babybear.Element]{Indices: []int{1, 1, 9}, Rows: o.Rows, Paths: o.Paths}, merkle.ErrIndex},
		"past the tree":  {&merkle.Opening[babybear.Element]{Indices: []int{1, 5, 16}, Rows: o.Rows, Paths: o.Paths}, merkle.ErrIndex},
		"a short path":   {&merkle.Opening[babybear.Element]{Indices: o.Indices, Rows: o.Rows, Paths: [][][]byte{o.Paths[0], o.Paths[1][:3], o.Paths[2]}}, merkle.ErrShape},
		"a row missing":  {&merkle.Opening[babybear.Element]{Indices: o.Indices, Rows: o.Rows[:2], Paths: o.Paths}, merkle.ErrShape},
		"a path missing": {&merkle.Opening[babybear.Element]{Indices: o.Indices, Rows: o.Rows, Paths: o.Paths[:2]}, merkle.ErrShape},
	} {
		_, err := tc.o.Merge()
		require.ErrorIs(t, err, tc.want, name)
	}
}

// failingWrite is a hash whose Write always fails.
type failingWrite struct{ hash.Hash }

func (failingWrite) Write([]byte) (int, error) { return 0, errors.New("no") }

func TestVerifyMultiRejects(t *testing.T) {
	lde := randomCols[babybear.Element](6, 3, 9)
	tr, err := merkle.Commit(lde, nil, 0)
	require.NoError(t, err)
	root, n := tr.Root(), tr.Rows()
	m, err := tr.OpenMulti([]int{40, 3, 17, 18})
	require.NoError(t, err)
	require.NoError(t, m.Verify(root, n, nil))
	clone := func() *merkle.MultiOpening[babybear.Element] {
		o := &merkle.MultiOpening[babybear.Element]{Indices: slices.Clone(m.Indices)}
		for _, r := range m.Rows {
			o.Rows = append(o.Rows, slices.Clone(r))
		}
		for _, d := range m.Nodes {
			o.Nodes = append(o.Nodes, slices.Clone(d))
		}
		return o
	}
	var one babybear.Element
	one.SetOne()
	type mo = merkle.MultiOpening[babybear.Element]
	for _, tc := range []struct {
		name   string
		change func(o *mo) ([]byte, int)
		want   error
	}{
		{"a row element", func(o *mo) ([]byte, int) {
			o.Rows[2][1].Add(&o.Rows[2][1], &one)
			return root, n
		}, merkle.ErrVerify},
		{"two rows swapped", func(o *mo) ([]byte, int) {
			o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
			return root, n
		}, merkle.ErrVerify},
		{"a node byte", func(o *mo) ([]byte, int) {
			o.Nodes[len(o.Nodes)-1][5] ^= 1
			return root, n
		}, merkle.ErrVerify},
		{"two nodes swapped", func(o *mo) ([]byte, int) {
			o.Nodes[0], o.Nodes[1] = o.Nodes[1], o.Nodes[0]
			return root, n
		}, merkle.ErrVerify},
		{"the root", func(o *mo) ([]byte, int) {
			r := slices.Clone(root)
			r[0] ^= 0x80
			return r, n
		}, merkle.ErrVerify},
		{"a short root", func(o *mo) ([]byte, int) { return root[:31], n }, merkle.ErrVerify},
		{"an index", func(o *mo) ([]byte, int) {
			o.Indices[0] = 2
			return root, n
		}, merkle.ErrVerify},
		{"one node too few", func(o *mo) ([]byte, int) {
			o.Nodes = o.Nodes[:len(o.Nodes)-1]
			return root, n
		}, merkle.ErrShape},
		{"one node too many", func(o *mo) ([]byte, int) {
			o.Nodes = append(o.Nodes, make([]byte, 32))
			return root, n
		}, merkle.ErrShape},
		{"no nodes", func(o *mo) ([]byte, int) {
			o.Nodes = nil
			return root, n
		}, merkle.ErrShape},
		{"a short node", func(o *mo) ([]byte, int) {
			o.Nodes[2] = o.Nodes[2][:31]
			return root, n
		}, merkle.ErrShape},
		{"a row too short", func(o *mo) ([]byte, int) {
			o.Rows[1] = o.Rows[1][:2]
			return root, n
		}, merkle.ErrShape},
		{"an empty row", func(o *mo) ([]byte, int) {
			for k := range o.Rows {
				o.Rows[k] = nil
			}
			return root, n
		}, merkle.ErrShape},
		{"a row missing", func(o *mo) ([]byte, int) {
			o.Rows = o.Rows[:3]
			return root, n
		}, merkle.ErrShape},
		{"unsorted indices", func(o *mo) ([]byte, int) {
			o.Indices[1], o.Indices[2] = o.Indices[2], o.Indices[1]
			return root, n
		}, merkle.ErrIndex},
		{"a duplicate index", func(o *mo) ([]byte, int) {
			o.Indices[2] = o.Indices[1]
			return root, n
		}, merkle.ErrIndex},
		{"an index out of range", func(o *mo) ([]byte, int) {
			o.Indices[3] = n
			return root, n
		}, merkle.ErrIndex},
		{"a negative index", func(o *mo) ([]byte, int) {
			o.Indices[0] = -1
			return root, n
		}, merkle.ErrIndex},
		{"rows not a power of two", func(o *mo) ([]byte, int) { return root, n - 1 }, merkle.ErrShape},
		{"no rows", func(o *mo) ([]byte, int) { return root, 0 }, merkle.ErrShape},
		{"half the rows", func(o *mo) ([]byte, int) { return root, n / 2 }, merkle.ErrIndex},
		{"nothing opened", func(o *mo) ([]byte, int) {
			*o = mo{}
			return root, n
		}, merkle.ErrVerify},
	} {
		o := clone()
		r, rows := tc.change(o)
		require.ErrorIs(t, o.Verify(r, rows, nil), tc.want, tc.name)
		require.ErrorIs(t, merkle.VerifyMulti(r, rows, o, nil), tc.want, tc.name)
	}
	require.NoError(t, m.Verify(root, n, nil), "the opening after the changes to its copies")
	require.ErrorIs(t, merkle.VerifyMulti[babybear.Element](root, n, nil, nil), merkle.ErrVerify)
	bad := func() hash.Hash { return failingWrite{sha256.New()} }
	require.ErrorIs(t, m.Verify(root, n, bad), merkle.ErrHash)
}

// moVector: the test vector of MultiOpening's doc.
const (
	moVectorRoot  = "82565165d8d41d00a3977ec87ffc0fe17907404cb0496a4f91eda2bac17cc33b"
	moVectorLeaf0 = "95bbeafea690f98d7a1606fa8b27976479bad60a0fa6c9c36fe935e7d4424b2b"
	moVectorLeaf3 = "fd1b450e326b98cf376114899076490a733ffa5fafcdf9e37cafe747d932190e"
	moVectorLeaf7 = "24223b1710a9ac27a3a3310d4ad81912efb985c492e5994f9a9e42018220c52c"
	moVectorNode  = "9228decd8d22ce8758194c2c94be9316f724d06712a704ef1d7c4e95ef0d51b5"
)

func TestMultiOpeningVector(t *testing.T) {
	// From the description alone, with crypto/sha256.
	leaf := func(i int) []byte {
		var b []byte
		b = append(b, 0x00)
		b = binary.BigEndian.AppendUint32(b, uint32(i+1))
		b = binary.BigEndian.AppendUint32(b, uint32(i+9))
		d := sha256.Sum256(b)
		return d[:]
	}
	node := func(l, r []byte) []byte {
		d := sha256.Sum256(append(append([]byte{0x01}, l...), r...))
		return d[:]
	}
	var l1 [4][]byte
	for p := range l1 {
		l1[p] = node(leaf(2*p), leaf(2*p+1))
	}
	root := node(node(l1[0], l1[1]), node(l1[2], l1[3]))
	hex := func(b []byte) string { return fmt.Sprintf("%x", b) }
	assert.Equal(t, moVectorRoot, hex(root))
	want := []string{moVectorLeaf0, moVectorLeaf3, moVectorLeaf7, moVectorNode}
	assert.Equal(t, want, []string{hex(leaf(0)), hex(leaf(3)), hex(leaf(7)), hex(l1[2])})

	cols := [][]babybear.Element{make([]babybear.Element, 8), make([]babybear.Element, 8)}
	for i := range 8 {
		cols[0][i].SetUint64(uint64(i + 1))
		cols[1][i].SetUint64(uint64(i + 9))
	}
	tr, err := merkle.Commit(cols, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, moVectorRoot, hex(tr.Root()))
	m, err := tr.OpenMulti([]int{6, 1, 2})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 6}, m.Indices)
	got := make([]string, len(m.Nodes))
	for k, d := range m.Nodes {
		got[k] = hex(d)
	}
	assert.Equal(t, want, got)
	require.NoError(t, merkle.VerifyMulti(root, 8, m, nil))
	b, err := m.MarshalBinary()
	require.NoError(t, err)
	// 15-byte header, 3 indices, 3 rows of 2 BabyBear elements, 4 nodes.
	assert.Equal(t, "01"+"02"+"20"+"00000003"+"00000002"+"00000004"+"00000001"+"00000002"+"00000006", hex(b[:27]))
	assert.Equal(t, "00000002"+"0000000a"+"00000003"+"0000000b"+"00000007"+"0000000f", hex(b[27:51]))
	assert.Len(t, b, 15+3*4+3*2*4+4*32)
}

// moEncodings returns the encodings of multi-openings of a 2^6-row tree of
// E (3 columns) at a few index sets, with its root.
func moEncodings[E merkle.Element](t testing.TB) (root []byte, encs [][]byte) {
	tr, err := merkle.Commit(randomCols[E](6, 3, 11), nil, 0)
	require.NoError(t, err)
	for _, idx := range [][]int{{3, 17, 18, 40}, {0}, {62, 63}} {
		m, err := tr.OpenMulti(idx)
		require.NoError(t, err)
		b, err := m.MarshalBinary()
		require.NoError(t, err)
		encs = append(encs, b)
	}
	return tr.Root(), encs
}

func TestMultiOpeningEncoding(t *testing.T) {
	// The field byte is package prover's Field numbering.
	t.Run("gf64", func(t *testing.T) { testMultiEncoding[gf64.Element](t, 0) })
	t.Run("goldilocks", func(t *testing.T) { testMultiEncoding[goldilocks.Element](t, 1) })
	t.Run("babybear", func(t *testing.T) { testMultiEncoding[babybear.Element](t, 2) })
	t.Run("koalabear", func(t *testing.T) { testMultiEncoding[koalabear.Element](t, 3) })
	t.Run("bn254", func(t *testing.T) { testMultiEncoding[fr.Element](t, 4) })
}

func testMultiEncoding[E merkle.Element](t *testing.T, field byte) {
	root, encs := moEncodings[E](t)
	b := encs[0]
	assert.Equal(t, []byte{1, field, 32}, b[:3], "version, field, digest size")
	var o merkle.MultiOpening[E]
	require.NoError(t, o.UnmarshalBinary(b))
	require.NoError(t, o.Verify(root, 64, nil))
	// Every byte flipped, in one bit or all: the decoder or the verifier
	// says no, and nothing panics.
	for i := range b {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			c := slices.Clone(b)
			c[i] ^= mask
			var o merkle.MultiOpening[E]
			if err := o.UnmarshalBinary(c); err != nil {
				require.ErrorIs(t, err, errAnyOf(err, merkle.ErrShape, merkle.ErrIndex), "byte %d ^ %#x", i, mask)
				continue
			}
			require.Error(t, o.Verify(root, 64, nil), "byte %d ^ %#x decodes and verifies", i, mask)
		}
	}
	// Truncated and extended encodings.
	for n := range len(b) {
		require.Error(t, o.UnmarshalBinary(b[:n]), "the first %d of %d bytes", n, len(b))
	}
	for _, tail := range [][]byte{{0}, make([]byte, 32), b} {
		require.ErrorIs(t, o.UnmarshalBinary(append(slices.Clone(b), tail...)), merkle.ErrShape, "%d bytes more", len(tail))
	}
	// A failed decode leaves the opening as it was.
	require.NoError(t, o.UnmarshalBinary(b))
	require.Error(t, o.UnmarshalBinary(b[:20]))
	require.NoError(t, o.Verify(root, 64, nil))
	// Another field's encoding.
	if field != 0 {
		var other merkle.MultiOpening[gf64.Element]
		require.ErrorIs(t, other.UnmarshalBinary(b), merkle.ErrShape)
	}
	// Hostile counts: no huge allocation, an error.
	for _, h := range [][3]uint32{{1 << 31, 1, 0}, {1, 1 << 31, 0}, {1, 1, 1 << 31}, {0xffffffff, 0xffffffff, 0xffffffff}, {0, 1, 0}, {1, 0, 0}} {
		c := slices.Clone(b)
		binary.BigEndian.PutUint32(c[3:], h[0])
		binary.BigEndian.PutUint32(c[7:], h[1])
		binary.BigEndian.PutUint32(c[11:], h[2])
		require.ErrorIs(t, o.UnmarshalBinary(c), merkle.ErrShape, "counts %v", h)
	}
	// Openings that the encoding cannot hold.
	for _, bad := range []func(*merkle.MultiOpening[E]){
		func(o *merkle.MultiOpening[E]) { o.Indices = nil; o.Rows = nil },
		func(o *merkle.MultiOpening[E]) { o.Indices[0], o.Indices[1] = o.Indices[1], o.Indices[0] },
		func(o *merkle.MultiOpening[E]) { o.Rows[1] = o.Rows[1][:1] },
		func(o *merkle.MultiOpening[E]) { o.Nodes[1] = o.Nodes[1][:20] },
		func(o *merkle.MultiOpening[E]) { o.Nodes[1] = o.Nodes[1][:8] },
		func(o *merkle.MultiOpening[E]) { o.Indices[0] = -1 },
		func(o *merkle.MultiOpening[E]) { o.Rows = o.Rows[:1] },
	} {
		var o merkle.MultiOpening[E]
		require.NoError(t, o.UnmarshalBinary(b))
		bad(&o)
		_, err := o.MarshalBinary()
		require.ErrorIs(t, err, merkle.ErrShape)
	}
	var nilOpening *merkle.MultiOpening[E]
	_, err := nilOpening.MarshalBinary()
	require.ErrorIs(t, err, merkle.ErrShape)
	assert.Zero(t, nilOpening.Size())
}

// errAnyOf returns the first of the targets that err wraps, or the first
// target (so that ErrorIs fails and names it).
func errAnyOf(err error, targets ...error) error {
	for _, t := range targets {
		if errors.Is(err, t) {
			return t
		}
	}
	return targets[0]
}

// TestMultiOpeningSize compares the size of multi-openings of 50 and 100
// random queries on 2^22 rows (BENCHMARKS.md's figures; 2^16 without
// GFPOLY_LONG) with the single paths of the same rows.
func TestMultiOpeningSize(t *testing.T) {
	if testing.Short() {
		t.Skip("a tree of 2^16 or 2^22 rows: not in -short")
	}
	logRows := testutil.Sweep(16, 16, 22)
	tr, err := merkle.Commit(randomCols[babybear.Element](logRows, 1, 3), nil, 0)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(22, 45))
	for _, q := range []int{50, 100} {
		idx := make([]int, q)
		for k := range idx {
			idx[k] = r.IntN(tr.Rows())
		}
		m, err := tr.OpenMulti(idx)
		require.NoError(t, err)
		require.NoError(t, m.Verify(tr.Root(), tr.Rows(), nil))
		u := len(m.Indices)
		single := u * logRows // digests of the single paths of the same rows
		// The proof sizes for rows of 32 BabyBear columns: the same
		// header, indices and rows, and the digests.
		rowBytes := u * (4 + 32*4)
		multiSize := 15 + rowBytes + 32*len(m.Nodes)
		singleSize := 15 + rowBytes + 32*single
		assert.Less(t, len(m.Nodes), single)
		t.Logf("2^%d rows, %d queries (%d distinct): %d nodes against %d in single paths (%.2f×); with rows of 32 BabyBear columns %d against %d bytes (%.2f×)",
			logRows, q, u, len(m.Nodes), single, float64(single)/float64(len(m.Nodes)), multiSize, singleSize, float64(singleSize)/float64(multiSize))
	}
}

func FuzzUnmarshalMulti(f *testing.F) {
	_, encs := moEncodings[babybear.Element](f)
	for _, b := range encs {
		f.Add(b)
	}
	_, encs = moEncodings[gf64.Element](f)
	for _, b := range encs {
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 2, 32, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		moRoundTrip[babybear.Element](t, data)
		moRoundTrip[gf64.Element](t, data)
		moRoundTrip[fr.Element](t, data)
	})
}

// moRoundTrip decodes data; what decodes must encode back to data, byte
// for byte (the encoding is canonical).
func moRoundTrip[E merkle.Element](t *testing.T, data []byte) {
	var o merkle.MultiOpening[E]
	if err := o.UnmarshalBinary(data); err != nil {
		require.True(t, errors.Is(err, merkle.ErrShape) || errors.Is(err, merkle.ErrIndex), "%v", err)
		return
	}
	b, err := o.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, data, b)
	require.Equal(t, len(data), o.Size())
}

func FuzzVerifyMulti(f *testing.F) {
	lde := randomCols[babybear.Element](5, 2, 13)
	tr, err := merkle.Commit(lde, nil, 0)
	require.NoError(f, err)
	root, n := tr.Root(), tr.Rows()
	for _, idx := range [][]int{{0}, {5, 6}, {1, 2, 30}, {0, 31}, {4, 5, 6, 7}} {
		m, err := tr.OpenMulti(idx)
		require.NoError(f, err)
		b, err := m.MarshalBinary()
		require.NoError(f, err)
		f.Add(b, n)
		f.Add(b, n/2)
	}
	f.Add([]byte{1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2}, 1)
	f.Fuzz(func(t *testing.T, data []byte, rows int) {
		var o merkle.MultiOpening[babybear.Element]
		if o.UnmarshalBinary(data) != nil {
			return
		}
		if err := o.Verify(root, rows, nil); err != nil {
			return
		}
		// Only the genuine opening of some rows verifies.
		require.Equal(t, n, rows)
		for k, i := range o.Indices {
			for j := range lde {
				require.Equal(t, lde[j][i], o.Rows[k][j], "row %d column %d", i, j)
			}
		}
		m, err := tr.OpenMulti(o.Indices)
		require.NoError(t, err)
		require.Len(t, o.Nodes, len(m.Nodes))
		for k := range m.Nodes {
			require.True(t, bytes.Equal(m.Nodes[k], o.Nodes[k]), "node %d", k)
		}
	})
}

// BenchmarkOpenMulti opens and verifies 100 random rows of a tree of 2^22
// rows of 32 BabyBear columns (the commitment to a 2^20×32 trace at blowup
// 4); -short takes 2^16 rows.
func BenchmarkOpenMulti(b *testing.B) {
	logRows, q := 22, 100
	if testing.Short() {
		logRows = 16
	}
	tr, err := merkle.Commit(randomCols[babybear.Element](logRows, 32, 1), nil, 0)
	require.NoError(b, err)
	r := rand.New(rand.NewPCG(1, 2))
	idx := make([]int, q)
	for k := range idx {
		idx[k] = r.IntN(tr.Rows())
	}
	root, n := tr.Root(), tr.Rows()
	m, err := tr.OpenMulti(idx)
	require.NoError(b, err)
	single := len(m.Indices) * logRows
	b.Run(fmt.Sprintf("2^%d×32/q=%d", logRows, q), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m, err := tr.OpenMulti(idx)
			if err != nil {
				b.Fatal(err)
			}
			if err := merkle.VerifyMulti(root, n, m, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(m.Size()), "proof-bytes")
		b.ReportMetric(float64(single)/float64(len(m.Nodes)), "node-saving-×")
	})
	b.Run(fmt.Sprintf("2^%d×32/q=%d/verify", logRows, q), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := merkle.VerifyMulti(root, n, m, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
