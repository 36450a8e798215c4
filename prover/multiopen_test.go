package prover_test

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
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

// Tests of multi-path openings: they verify, carry exactly the nodes the
// single paths imply (each once, in the documented order), and every
// tampered or malformed opening is rejected with an error.

func sha3New() hash.Hash { return sha3.New256() }

// moIndexSets are index sets for a commitment of n rows: one index, the
// first and last, all of them, adjacent pairs, duplicates in no order, and
// random ones.
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

// moRef returns what the single paths of c imply for the distinct sorted
// indices idx: for each level from the leaves up, the siblings of the known
// positions that are not known, left to right, each once, taken from the
// paths of Open (which must agree where they meet).
func moRef[E prover.Element](t testing.TB, c *prover.Commitment[E], idx []int) (rows [][]E, nodes [][]byte) {
	t.Helper()
	o, err := c.Open(idx)
	require.NoError(t, err)
	height := log2(c.Rows())
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
	t.Run("gf64", func(t *testing.T) { testOpenMulti[gf64.Element](t) })
	t.Run("goldilocks", func(t *testing.T) { testOpenMulti[goldilocks.Element](t) })
	t.Run("babybear", func(t *testing.T) { testOpenMulti[babybear.Element](t) })
	t.Run("koalabear", func(t *testing.T) { testOpenMulti[koalabear.Element](t) })
	t.Run("bn254", func(t *testing.T) { testOpenMulti[fr.Element](t) })
}

func testOpenMulti[E prover.Element](t *testing.T) {
	logs := []int{0, 1, 2, 3, 5, 8, 12}
	for _, h := range []struct {
		name string
		h    func() hash.Hash
	}{{"sha256", nil}, {"sha3", sha3New}} {
		enc, err := prover.New[E](prover.WithHash(h.h))
		require.NoError(t, err)
		for _, lg := range logs {
			cols := 1 + lg%4
			lde, err := prover.RandomTrace[E](lg, cols, uint64(lg))
			require.NoError(t, err)
			c, err := enc.CommitLDE(lde)
			require.NoError(t, err)
			n, root := c.Rows(), c.Root()
			r := rand.New(rand.NewPCG(uint64(lg), 7))
			for _, idx := range moIndexSets(n, r) {
				name := fmt.Sprintf("%s 2^%d×%d %v", h.name, lg, cols, idx)
				if len(idx) > 8 {
					name = fmt.Sprintf("%s 2^%d×%d %d indices", h.name, lg, cols, len(idx))
				}
				m, err := c.OpenMulti(idx)
				require.NoError(t, err, name)
				u := sortedUnique(idx)
				wantRows, wantNodes := moRef(t, c, u)
				require.Equal(t, u, m.Indices, name)
				require.Equal(t, wantRows, m.Rows, name)
				require.Equal(t, wantNodes, m.Nodes, name)
				if len(u) == 1 {
					assert.Len(t, m.Nodes, lg, "%s: one index sends a whole path", name)
				}
				if len(u) == n {
					assert.Empty(t, m.Nodes, "%s: all indices send no node", name)
				}
				require.NoError(t, m.Verify(root, n, h.h), name)
				require.NoError(t, prover.VerifyMulti(root, n, m, h.h), name)
				b, err := m.MarshalBinary()
				require.NoError(t, err, name)
				assert.Len(t, b, m.Size(), name)
				var back prover.MultiOpening[E]
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
				require.ErrorIs(t, m.Verify(root, n, other), prover.ErrVerify, name)
				require.Error(t, m.Verify(root, 2*n, h.h), name)
			}
			_, err = c.OpenMulti(nil)
			require.ErrorIs(t, err, prover.ErrShape)
			_, err = c.OpenMulti([]int{0, n})
			require.ErrorIs(t, err, prover.ErrIndex)
			_, err = c.OpenMulti([]int{-1})
			require.ErrorIs(t, err, prover.ErrIndex)
		}
	}
}

// failingWrite is a hash whose Write always fails.
type failingWrite struct{ hash.Hash }

func (failingWrite) Write([]byte) (int, error) { return 0, errors.New("no") }

func TestVerifyMultiRejects(t *testing.T) {
	enc, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	lde, err := prover.RandomTrace[babybear.Element](6, 3, 9)
	require.NoError(t, err)
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	root, n := c.Root(), c.Rows()
	m, err := c.OpenMulti([]int{40, 3, 17, 18})
	require.NoError(t, err)
	require.NoError(t, m.Verify(root, n, nil))
	clone := func() *prover.MultiOpening[babybear.Element] {
		o := &prover.MultiOpening[babybear.Element]{Indices: slices.Clone(m.Indices)}
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
	for _, tc := range []struct {
		name   string
		change func(o *prover.MultiOpening[babybear.Element]) ([]byte, int)
		want   error
	}{
		{"a row element", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Rows[2][1].Add(&o.Rows[2][1], &one)
			return root, n
		}, prover.ErrVerify},
		{"two rows swapped", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
			return root, n
		}, prover.ErrVerify},
		{"a node byte", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes[len(o.Nodes)-1][5] ^= 1
			return root, n
		}, prover.ErrVerify},
		{"two nodes swapped", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes[0], o.Nodes[1] = o.Nodes[1], o.Nodes[0]
			return root, n
		}, prover.ErrVerify},
		{"the root", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			r := slices.Clone(root)
			r[0] ^= 0x80
			return r, n
		}, prover.ErrVerify},
		{"a short root", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) { return root[:31], n }, prover.ErrVerify},
		{"an index", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Indices[0] = 2
			return root, n
		}, prover.ErrVerify},
		{"one node too few", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes = o.Nodes[:len(o.Nodes)-1]
			return root, n
		}, prover.ErrShape},
		{"one node too many", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes = append(o.Nodes, make([]byte, 32))
			return root, n
		}, prover.ErrShape},
		{"no nodes", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes = nil
			return root, n
		}, prover.ErrShape},
		{"a short node", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Nodes[2] = o.Nodes[2][:31]
			return root, n
		}, prover.ErrShape},
		{"a row too short", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Rows[1] = o.Rows[1][:2]
			return root, n
		}, prover.ErrShape},
		{"an empty row", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			for k := range o.Rows {
				o.Rows[k] = nil
			}
			return root, n
		}, prover.ErrShape},
		{"a row missing", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Rows = o.Rows[:3]
			return root, n
		}, prover.ErrShape},
		{"unsorted indices", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Indices[1], o.Indices[2] = o.Indices[2], o.Indices[1]
			return root, n
		}, prover.ErrIndex},
		{"a duplicate index", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Indices[2] = o.Indices[1]
			return root, n
		}, prover.ErrIndex},
		{"an index out of range", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Indices[3] = n
			return root, n
		}, prover.ErrIndex},
		{"a negative index", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			o.Indices[0] = -1
			return root, n
		}, prover.ErrIndex},
		{"rows not a power of two", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) { return root, n - 1 }, prover.ErrShape},
		{"no rows", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) { return root, 0 }, prover.ErrShape},
		{"half the rows", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) { return root, n / 2 }, prover.ErrIndex},
		{"nothing opened", func(o *prover.MultiOpening[babybear.Element]) ([]byte, int) {
			*o = prover.MultiOpening[babybear.Element]{}
			return root, n
		}, prover.ErrVerify},
	} {
		o := clone()
		r, rows := tc.change(o)
		require.ErrorIs(t, o.Verify(r, rows, nil), tc.want, tc.name)
		require.ErrorIs(t, prover.VerifyMulti(r, rows, o, nil), tc.want, tc.name)
	}
	require.NoError(t, m.Verify(root, n, nil), "the opening after the changes to its copies")
	require.ErrorIs(t, prover.VerifyMulti[babybear.Element](root, n, nil, nil), prover.ErrVerify)
	bad := func() hash.Hash { return failingWrite{sha256.New()} }
	require.ErrorIs(t, m.Verify(root, n, bad), prover.ErrHash)
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
	enc, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	c, err := enc.CommitLDE(cols)
	require.NoError(t, err)
	assert.Equal(t, moVectorRoot, hex(c.Root()))
	m, err := c.OpenMulti([]int{6, 1, 2})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 6}, m.Indices)
	got := make([]string, len(m.Nodes))
	for k, d := range m.Nodes {
		got[k] = hex(d)
	}
	assert.Equal(t, want, got)
	require.NoError(t, prover.VerifyMulti(root, 8, m, nil))
	b, err := m.MarshalBinary()
	require.NoError(t, err)
	// 15-byte header, 3 indices, 3 rows of 2 BabyBear elements, 4 nodes.
	assert.Equal(t, "01"+"02"+"20"+"00000003"+"00000002"+"00000004"+"00000001"+"00000002"+"00000006", hex(b[:27]))
	assert.Equal(t, "00000002"+"0000000a"+"00000003"+"0000000b"+"00000007"+"0000000f", hex(b[27:51]))
	assert.Len(t, b, 15+3*4+3*2*4+4*32)
}

// moEncodings returns the encodings of multi-openings of a 2^6-row
// commitment of E (3 columns) at a few index sets, with its root.
func moEncodings[E prover.Element](t testing.TB) (root []byte, encs [][]byte) {
	enc, err := prover.New[E]()
	require.NoError(t, err)
	lde, err := prover.RandomTrace[E](6, 3, 11)
	require.NoError(t, err)
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	for _, idx := range [][]int{{3, 17, 18, 40}, {0}, {62, 63}} {
		m, err := c.OpenMulti(idx)
		require.NoError(t, err)
		b, err := m.MarshalBinary()
		require.NoError(t, err)
		encs = append(encs, b)
	}
	return c.Root(), encs
}

func TestMultiOpeningEncoding(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testMultiEncoding[gf64.Element](t) })
	t.Run("goldilocks", func(t *testing.T) { testMultiEncoding[goldilocks.Element](t) })
	t.Run("babybear", func(t *testing.T) { testMultiEncoding[babybear.Element](t) })
	t.Run("koalabear", func(t *testing.T) { testMultiEncoding[koalabear.Element](t) })
	t.Run("bn254", func(t *testing.T) { testMultiEncoding[fr.Element](t) })
}

func testMultiEncoding[E prover.Element](t *testing.T) {
	root, encs := moEncodings[E](t)
	b := encs[0]
	var o prover.MultiOpening[E]
	require.NoError(t, o.UnmarshalBinary(b))
	require.NoError(t, o.Verify(root, 64, nil))
	// Every byte flipped, in one bit or all: the decoder or the verifier
	// says no, and nothing panics.
	for i := range b {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			c := slices.Clone(b)
			c[i] ^= mask
			var o prover.MultiOpening[E]
			if err := o.UnmarshalBinary(c); err != nil {
				require.ErrorIs(t, err, errAnyOf(err, prover.ErrShape, prover.ErrIndex), "byte %d ^ %#x", i, mask)
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
		require.ErrorIs(t, o.UnmarshalBinary(append(slices.Clone(b), tail...)), prover.ErrShape, "%d bytes more", len(tail))
	}
	// A failed decode leaves the opening as it was.
	require.NoError(t, o.UnmarshalBinary(b))
	require.Error(t, o.UnmarshalBinary(b[:20]))
	require.NoError(t, o.Verify(root, 64, nil))
	// Another field's encoding.
	var other prover.MultiOpening[gf64.Element]
	if prover.FieldOf[E]() != prover.GF64 {
		require.ErrorIs(t, other.UnmarshalBinary(b), prover.ErrShape)
	}
	// Hostile counts: no huge allocation, an error.
	for _, h := range [][3]uint32{{1 << 31, 1, 0}, {1, 1 << 31, 0}, {1, 1, 1 << 31}, {0xffffffff, 0xffffffff, 0xffffffff}, {0, 1, 0}, {1, 0, 0}} {
		c := slices.Clone(b)
		binary.BigEndian.PutUint32(c[3:], h[0])
		binary.BigEndian.PutUint32(c[7:], h[1])
		binary.BigEndian.PutUint32(c[11:], h[2])
		require.ErrorIs(t, o.UnmarshalBinary(c), prover.ErrShape, "counts %v", h)
	}
	// Openings that the encoding cannot hold.
	for _, bad := range []func(*prover.MultiOpening[E]){
		func(o *prover.MultiOpening[E]) { o.Indices = nil; o.Rows = nil },
		func(o *prover.MultiOpening[E]) { o.Indices[0], o.Indices[1] = o.Indices[1], o.Indices[0] },
		func(o *prover.MultiOpening[E]) { o.Rows[1] = o.Rows[1][:1] },
		func(o *prover.MultiOpening[E]) { o.Nodes[1] = o.Nodes[1][:20] },
		func(o *prover.MultiOpening[E]) { o.Nodes[1] = o.Nodes[1][:8] },
		func(o *prover.MultiOpening[E]) { o.Indices[0] = -1 },
		func(o *prover.MultiOpening[E]) { o.Rows = o.Rows[:1] },
	} {
		var o prover.MultiOpening[E]
		require.NoError(t, o.UnmarshalBinary(b))
		bad(&o)
		_, err := o.MarshalBinary()
		require.ErrorIs(t, err, prover.ErrShape)
	}
	var nilOpening *prover.MultiOpening[E]
	_, err := nilOpening.MarshalBinary()
	require.ErrorIs(t, err, prover.ErrShape)
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
// random queries on 2^22 rows with the single paths of the same rows.
func TestMultiOpeningSize(t *testing.T) {
	if testing.Short() {
		t.Skip("a tree of 2^22 rows: not in -short")
	}
	const logRows = 22
	enc, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	lde, err := prover.RandomTrace[babybear.Element](logRows, 1, 3)
	require.NoError(t, err)
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(22, 45))
	for _, q := range []int{50, 100} {
		idx := make([]int, q)
		for k := range idx {
			idx[k] = r.IntN(c.Rows())
		}
		m, err := c.OpenMulti(idx)
		require.NoError(t, err)
		require.NoError(t, m.Verify(c.Root(), c.Rows(), nil))
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

func TestOpenMultiGPU(t *testing.T) {
	t.Run("resident", func(t *testing.T) {
		devs := []*gpu.Device{openDevice(t)}
		t.Run("gf64", func(t *testing.T) { testOpenMultiGPU[gf64.Element](t, devs) })
		t.Run("babybear", func(t *testing.T) { testOpenMultiGPU[babybear.Element](t, devs) })
		t.Run("goldilocks", func(t *testing.T) { testOpenMultiGPU[goldilocks.Element](t, devs) })
		t.Run("koalabear", func(t *testing.T) { testOpenMultiGPU[koalabear.Element](t, devs) })
		t.Run("bn254", func(t *testing.T) { testOpenMultiGPU[fr.Element](t, devs) })
	})
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d devices", n), func(t *testing.T) {
			devs := openDevices(t, n)
			t.Run("gf64", func(t *testing.T) { testOpenMultiGPU[gf64.Element](t, devs) })
			t.Run("babybear", func(t *testing.T) { testOpenMultiGPU[babybear.Element](t, devs) })
			t.Run("bn254", func(t *testing.T) { testOpenMultiGPU[fr.Element](t, devs) })
		})
	}
}

// testOpenMultiGPU checks that multi-openings of commitments kept on the
// devices (one: WithGPU; several: WithGPUs) equal the CPU commitment's.
func testOpenMultiGPU[E prover.Element](t *testing.T, devs []*gpu.Device) {
	for _, sh := range [][3]int{{0, 1, 2}, {1, 3, 4}, {3, 5, 2}, {6, 7, 4}, {9, 4, 2}, {12, 3, 4}} {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("%d devices, 2^%d×%d, blowup %d", len(devs), logRows, cols, blowup)
		cpu, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		opts := []prover.Option{prover.WithBlowup(blowup), prover.WithGPU(devs[0])}
		if len(devs) > 1 {
			opts = []prover.Option{prover.WithBlowup(blowup), prover.WithGPUs(devs...), prover.WithChunkColumns(2)}
		}
		g, err := prover.New[E](opts...)
		require.NoError(t, err, name)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*10+cols))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		got, err := g.Commit(tr)
		require.NoError(t, err, name)
		on, why := got.Resident()
		require.True(t, on, "%s: not on the device: %s", name, why)
		require.Equal(t, want.Root(), got.Root(), name)
		r := rand.New(rand.NewPCG(uint64(logRows), uint64(cols)))
		for _, idx := range moIndexSets(got.Rows(), r) {
			wm, err := want.OpenMulti(idx)
			require.NoError(t, err, name)
			gm, err := got.OpenMulti(idx)
			require.NoError(t, err, name)
			require.Equal(t, wm.Indices, gm.Indices, name)
			require.Equal(t, wm.Rows, gm.Rows, name)
			require.Equal(t, wm.Nodes, gm.Nodes, "%s: %d indices", name, len(idx))
			require.NoError(t, gm.Verify(got.Root(), got.Rows(), nil), name)
		}
		require.NoError(t, got.Close())
		_, err = got.OpenMulti([]int{0})
		require.ErrorIs(t, err, prover.ErrClosed)
		require.NoError(t, want.Close())
		require.NoError(t, g.Close())
		require.NoError(t, cpu.Close())
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
func moRoundTrip[E prover.Element](t *testing.T, data []byte) {
	var o prover.MultiOpening[E]
	if err := o.UnmarshalBinary(data); err != nil {
		require.True(t, errors.Is(err, prover.ErrShape) || errors.Is(err, prover.ErrIndex), "%v", err)
		return
	}
	b, err := o.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, data, b)
	require.Equal(t, len(data), o.Size())
}

func FuzzVerifyMulti(f *testing.F) {
	enc, err := prover.New[babybear.Element]()
	require.NoError(f, err)
	lde, err := prover.RandomTrace[babybear.Element](5, 2, 13)
	require.NoError(f, err)
	c, err := enc.CommitLDE(lde)
	require.NoError(f, err)
	root, n := c.Root(), c.Rows()
	for _, idx := range [][]int{{0}, {5, 6}, {1, 2, 30}, {0, 31}, {4, 5, 6, 7}} {
		m, err := c.OpenMulti(idx)
		require.NoError(f, err)
		b, err := m.MarshalBinary()
		require.NoError(f, err)
		f.Add(b, n)
		f.Add(b, n/2)
	}
	f.Add([]byte{1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2}, 1)
	f.Fuzz(func(t *testing.T, data []byte, rows int) {
		var o prover.MultiOpening[babybear.Element]
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
		m, err := c.OpenMulti(o.Indices)
		require.NoError(t, err)
		require.Len(t, o.Nodes, len(m.Nodes))
		for k := range m.Nodes {
			require.True(t, bytes.Equal(m.Nodes[k], o.Nodes[k]), "node %d", k)
		}
	})
}

// BenchmarkOpenMulti opens and verifies 100 random rows of the commitment
// to a 2^20×32 BabyBear trace at blowup 4 (2^22 rows) on the CPU; -short
// takes a 2^14×32 trace.
func BenchmarkOpenMulti(b *testing.B) {
	logRows, q := 20, 100
	if testing.Short() {
		logRows = 14
	}
	enc, err := prover.New[babybear.Element](prover.WithBlowup(4))
	require.NoError(b, err)
	defer enc.Close()
	tr, err := prover.RandomTrace[babybear.Element](logRows, 32, 1)
	require.NoError(b, err)
	c, err := enc.Commit(tr)
	require.NoError(b, err)
	defer c.Close()
	r := rand.New(rand.NewPCG(1, 2))
	idx := make([]int, q)
	for k := range idx {
		idx[k] = r.IntN(c.Rows())
	}
	root, n := c.Root(), c.Rows()
	m, err := c.OpenMulti(idx)
	require.NoError(b, err)
	single := len(m.Indices) * log2(n)
	b.Run(fmt.Sprintf("2^%d×32/blowup=4/q=%d", logRows, q), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m, err := c.OpenMulti(idx)
			if err != nil {
				b.Fatal(err)
			}
			if err := prover.VerifyMulti(root, n, m, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(m.Size()), "proof-bytes")
		b.ReportMetric(float64(single)/float64(len(m.Nodes)), "node-saving-×")
	})
	b.Run(fmt.Sprintf("2^%d×32/blowup=4/q=%d/verify", logRows, q), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := prover.VerifyMulti(root, n, m, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
