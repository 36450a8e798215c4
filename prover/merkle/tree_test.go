package merkle_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// randomCols returns cols columns of 2^logRows uniform elements of E's
// field from a ChaCha8 stream seeded with seed.
func randomCols[E merkle.Element](logRows, cols int, seed uint64) [][]E {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	r := rand.New(rand.NewChaCha8(s))
	out := make([][]E, cols)
	for c := range out {
		out[c] = make([]E, 1<<logRows)
		randomElements(out[c], r)
	}
	return out
}

// randomElements fills dst with uniform elements of E's field drawn from r.
func randomElements[E merkle.Element](dst []E, r *rand.Rand) {
	switch d := any(dst).(type) {
	case []gf64.Element:
		for i := range d {
			d[i] = gf64.Element(r.Uint64())
		}
	case []goldilocks.Element:
		for i := range d {
			d[i].SetUint64(r.Uint64N(goldilocks.Modulus().Uint64()))
		}
	case []babybear.Element:
		for i := range d {
			d[i].SetUint64(r.Uint64N(babybear.Modulus().Uint64()))
		}
	case []koalabear.Element:
		for i := range d {
			d[i].SetUint64(r.Uint64N(koalabear.Modulus().Uint64()))
		}
	case []fr.Element:
		var b [fr.Bytes]byte
		for i := range d {
			for {
				for j := 0; j < fr.Bytes; j += 8 {
					binary.BigEndian.PutUint64(b[j:], r.Uint64())
				}
				b[0] &= 0x3f // the modulus has 254 bits
				if e, err := fr.BigEndian.Element(&b); err == nil {
					d[i] = e
					break
				}
			}
		}
	}
}

// rowOf returns row i of cols.
func rowOf[E merkle.Element](cols [][]E, i int) []E {
	row := make([]E, len(cols))
	for j := range cols {
		row[j] = cols[j][i]
	}
	return row
}

// refLeaf is the leaf message written out element by element with each
// type's own byte method.
func refLeaf[E merkle.Element](row []E) []byte {
	b := []byte{merkle.LeafTag}
	for _, v := range row {
		switch x := any(v).(type) {
		case gf64.Element:
			bb := x.Bytes()
			b = append(b, bb[:]...)
		case goldilocks.Element:
			bb := x.Bytes()
			b = append(b, bb[:]...)
		case babybear.Element:
			bb := x.Bytes()
			b = append(b, bb[:]...)
		case koalabear.Element:
			bb := x.Bytes()
			b = append(b, bb[:]...)
		case fr.Element:
			bb := x.Bytes()
			b = append(b, bb[:]...)
		}
	}
	return b
}

// refLevels is a plain Merkle tree over the rows of cols: levels[0] the
// leaf digests, the last level the root.
func refLevels[E merkle.Element](cols [][]E, newHash func() hash.Hash) [][][]byte {
	if newHash == nil {
		newHash = sha256.New
	}
	n := len(cols[0])
	level := make([][]byte, n)
	for i := range n {
		h := newHash()
		h.Write(refLeaf(rowOf(cols, i)))
		level[i] = h.Sum(nil)
	}
	levels := [][][]byte{level}
	for len(level) > 1 {
		next := make([][]byte, len(level)/2)
		for i := range next {
			h := newHash()
			h.Write([]byte{merkle.NodeTag})
			h.Write(level[2*i])
			h.Write(level[2*i+1])
			next[i] = h.Sum(nil)
		}
		levels = append(levels, next)
		level = next
	}
	return levels
}

func refRoot[E merkle.Element](cols [][]E, newHash func() hash.Hash) []byte {
	l := refLevels(cols, newHash)
	return l[len(l)-1][0]
}

// log2 returns log2(n) for a power of two n ≥ 1.
func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

func TestRootAgainstReference(t *testing.T) {
	t.Run("gf64", testRootAgainstReference[gf64.Element])
	t.Run("goldilocks", testRootAgainstReference[goldilocks.Element])
	t.Run("babybear", testRootAgainstReference[babybear.Element])
	t.Run("koalabear", testRootAgainstReference[koalabear.Element])
	t.Run("bn254", testRootAgainstReference[fr.Element])
}

func testRootAgainstReference[E merkle.Element](t *testing.T) {
	shapes := []struct {
		logRows, cols, workers int
		h                      func() hash.Hash
	}{
		{0, 1, 1, nil}, {1, 3, 2, nil}, {4, 1, 3, nil}, {5, 7, 0, nil}, {6, 2, 2, sha512.New},
		{7, 4, 1, sha256.New}, {10, 5, 4, nil}, {12, 3, 2, sha256.New}, {13, 2, 3, nil},
	}
	for _, sh := range shapes {
		if testing.Short() && sh.logRows > 10 {
			continue
		}
		cols := randomCols[E](sh.logRows, sh.cols, uint64(sh.logRows*100+sh.cols))
		name := fmt.Sprintf("2^%d×%d, %d workers", sh.logRows, sh.cols, sh.workers)
		tr, err := merkle.Commit(cols, sh.h, sh.workers)
		require.NoError(t, err, name)
		levels := refLevels(cols, sh.h)
		assert.Equal(t, levels[len(levels)-1][0], tr.Root(), "%s: root against the reference", name)
		assert.Equal(t, 1<<sh.logRows, tr.Rows(), name)
		assert.Equal(t, sh.cols, tr.Columns(), name)
		assert.Equal(t, sh.logRows, tr.Height(), name)
		for j := 1; j <= tr.Height(); j++ {
			assert.Equal(t, bytes.Join(levels[j], nil), tr.Level(j), "%s: level %d", name, j)
		}
		assert.Nil(t, tr.Level(0), name)
		assert.Nil(t, tr.Level(tr.Height()+1), name)
		// Every row (or a few of the large trees') opens and verifies, and
		// its path is the reference's.
		idx := make([]int, tr.Rows())
		for i := range idx {
			idx[i] = i
		}
		if len(idx) > 64 {
			idx = []int{0, 1, 2, len(idx) / 2, len(idx) - 2, len(idx) - 1}
		}
		o, err := tr.Open(idx)
		require.NoError(t, err, name)
		for k, i := range idx {
			assert.Equal(t, rowOf(cols, i), o.Rows[k], "%s: row %d", name, i)
			require.Len(t, o.Paths[k], tr.Height(), name)
			for j, d := range o.Paths[k] {
				assert.Equal(t, levels[j][(i>>j)^1], d, "%s: row %d, path digest %d", name, i, j)
			}
		}
		assert.NoError(t, o.Verify(tr.Root(), tr.Rows(), sh.h), name)
		assert.NoError(t, merkle.Verify(tr.Root(), tr.Rows(), o.Indices, o.Rows, o.Paths, sh.h), name)
	}
}

// The root test vectors of the package documentation, recomputed here from
// that description alone with crypto/sha256.
const (
	vectorRootGF64     = "eb08e7ea2f5a542c7f51302872fd2e25f2eea29e58b9d5cb1e3da31984232d4d"
	vectorRootBabyBear = "9ff12627b8a623f6f0e57ec6ade7a0b1a6922120bd471eb70c5191d28076dbf3"
)

func TestRootVector(t *testing.T) {
	leaf := func(row []byte) []byte {
		d := sha256.Sum256(append([]byte{0x00}, row...))
		return d[:]
	}
	node := func(l, r []byte) []byte {
		d := sha256.Sum256(append(append([]byte{0x01}, l...), r...))
		return d[:]
	}
	le := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	be32 := func(vs ...uint32) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.BigEndian.AppendUint32(b, v)
		}
		return b
	}
	wantGF64 := node(node(leaf(le(1, 5)), leaf(le(2, 6))), node(leaf(le(3, 7)), leaf(le(4, 8))))
	wantBabyBear := node(leaf(be32(1, 3, 5)), leaf(be32(2, 4, 6)))
	assert.Equal(t, vectorRootGF64, fmt.Sprintf("%x", wantGF64), "the documented GF(2^64) vector")
	assert.Equal(t, vectorRootBabyBear, fmt.Sprintf("%x", wantBabyBear), "the documented BabyBear vector")

	tg, err := merkle.Commit([][]gf64.Element{{1, 2, 3, 4}, {5, 6, 7, 8}}, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, wantGF64, tg.Root())
	bb := func(vs ...uint32) []babybear.Element {
		out := make([]babybear.Element, len(vs))
		for i, v := range vs {
			out[i].SetUint64(uint64(v))
		}
		return out
	}
	tb, err := merkle.Commit([][]babybear.Element{bb(1, 2), bb(3, 4), bb(5, 6)}, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, wantBabyBear, tb.Root())
}

func TestAppendRow(t *testing.T) {
	t.Run("gf64", testAppendRow[gf64.Element])
	t.Run("goldilocks", testAppendRow[goldilocks.Element])
	t.Run("babybear", testAppendRow[babybear.Element])
	t.Run("koalabear", testAppendRow[koalabear.Element])
	t.Run("bn254", testAppendRow[fr.Element])
}

func testAppendRow[E merkle.Element](t *testing.T) {
	cols := randomCols[E](2, 5, 3)
	row := rowOf(cols, 1)
	prefix := []byte("abc")
	got := merkle.AppendRow(prefix, row)
	assert.Equal(t, append([]byte("abc"), refLeaf(row)[1:]...), got)
	assert.Len(t, got, 3+5*merkle.ElementBytes[E]())
	assert.Equal(t, []byte("abc"), merkle.AppendRow(prefix, []E{}), "an empty row")
	// LeafDigests hashes exactly the leaf message.
	d, err := merkle.LeafDigests(merkle.Hasher{}, [][]E{row, rowOf(cols, 2)})
	require.NoError(t, err)
	want := sha256.Sum256(refLeaf(row))
	assert.Equal(t, want[:], d[0])
	want = sha256.Sum256(refLeaf(rowOf(cols, 2)))
	assert.Equal(t, want[:], d[1])
	_, err = merkle.LeafDigests(merkle.Hasher{}, [][]E{row, row[:2]})
	require.ErrorIs(t, err, merkle.ErrShape)
	_, err = merkle.LeafDigests(merkle.Hasher{}, [][]E{{}})
	require.ErrorIs(t, err, merkle.ErrShape)
}

func TestElementBytes(t *testing.T) {
	assert.Equal(t, 8, merkle.ElementBytes[gf64.Element]())
	assert.Equal(t, 8, merkle.ElementBytes[goldilocks.Element]())
	assert.Equal(t, 4, merkle.ElementBytes[babybear.Element]())
	assert.Equal(t, 4, merkle.ElementBytes[koalabear.Element]())
	assert.Equal(t, 32, merkle.ElementBytes[fr.Element]())
}

// testTamper changes each opened row's elements in one bit of their
// encoding, every bit of every path digest, the root, the indices, and
// checks that Verify fails.
func testTamper[E merkle.Element](t *testing.T) {
	cols := randomCols[E](5, 3, 7)
	tr, err := merkle.Commit(cols, nil, 2)
	require.NoError(t, err)
	root, n := tr.Root(), tr.Rows()
	o, err := tr.Open([]int{5, 0, 31})
	require.NoError(t, err)
	require.NoError(t, o.Verify(root, n, nil), "the untouched opening")
	for k := range o.Rows {
		for j := range o.Rows[k] {
			orig := o.Rows[k][j]
			for _, v := range neighbours(orig) {
				o.Rows[k][j] = v
				require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "row %d col %d changed to %v", o.Indices[k], j, v)
			}
			o.Rows[k][j] = orig
		}
	}
	for k := range o.Paths {
		for l := range o.Paths[k] {
			for b := range o.Paths[k][l] {
				for bit := range 8 {
					o.Paths[k][l][b] ^= 1 << bit
					require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "path %d digest %d byte %d bit %d", k, l, b, bit)
					o.Paths[k][l][b] ^= 1 << bit
				}
			}
		}
	}
	for b := range root {
		r2 := append([]byte(nil), root...)
		r2[b] ^= 0x80
		require.ErrorIs(t, o.Verify(r2, n, nil), merkle.ErrVerify, "root byte %d", b)
	}
	o.Indices[0] ^= 1
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "wrong index")
	o.Indices[0] ^= 1
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "swapped rows")
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	p := o.Paths[0]
	o.Paths[0] = p[:len(p)-1]
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "short path")
	o.Paths[0] = append(append([][]byte(nil), p...), make([]byte, 32))
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "long path")
	o.Paths[0] = p
	// A short first row sets the width and then fails to hash to the root; a
	// later row of another width is a shape error.
	row := o.Rows[0]
	o.Rows[0] = row[:2]
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "short first row")
	o.Rows[0] = row
	row = o.Rows[1]
	o.Rows[1] = row[:2]
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrShape, "short second row")
	o.Rows[1] = row
	require.NoError(t, o.Verify(root, n, nil), "the opening put back together")
	require.ErrorIs(t, o.Verify(root, n, sha512.New), merkle.ErrVerify, "another hash")
	require.ErrorIs(t, o.Verify(root, 2*n, nil), merkle.ErrVerify, "a tree twice the size")
}

// neighbours returns elements whose canonical encodings differ from v's in
// one bit each (every bit for which the result is still a field element).
func neighbours[E merkle.Element](v E) []E {
	var out []E
	enc := refLeaf([]E{v})[1:]
	for b := range enc {
		for bit := range 8 {
			e := append([]byte(nil), enc...)
			e[b] ^= 1 << bit
			var w E
			ok := true
			switch p := any(&w).(type) {
			case *gf64.Element:
				ok = p.SetBytes(e) == nil
			case *goldilocks.Element:
				*p, ok = decodeOK(goldilocks.BigEndian.Element((*[goldilocks.Bytes]byte)(e)))
			case *babybear.Element:
				*p, ok = decodeOK(babybear.BigEndian.Element((*[babybear.Bytes]byte)(e)))
			case *koalabear.Element:
				*p, ok = decodeOK(koalabear.BigEndian.Element((*[koalabear.Bytes]byte)(e)))
			case *fr.Element:
				*p, ok = decodeOK(fr.BigEndian.Element((*[fr.Bytes]byte)(e)))
			}
			if ok {
				out = append(out, w)
			}
		}
	}
	return out
}

func decodeOK[T any](v T, err error) (T, bool) { return v, err == nil }

func TestTamper(t *testing.T) {
	t.Run("gf64", testTamper[gf64.Element])
	t.Run("goldilocks", testTamper[goldilocks.Element])
	t.Run("babybear", testTamper[babybear.Element])
	t.Run("koalabear", testTamper[koalabear.Element])
	t.Run("bn254", testTamper[fr.Element])
}

func TestBadInput(t *testing.T) {
	for name, cols := range map[string][][]gf64.Element{
		"no columns": nil,
		"no rows":    {{}},
		"ragged":     {make([]gf64.Element, 4), make([]gf64.Element, 2)},
		"not pow 2":  {make([]gf64.Element, 6)},
	} {
		_, err := merkle.Commit(cols, nil, 0)
		require.ErrorIs(t, err, merkle.ErrShape, "Commit %s", name)
		_, err = merkle.FromDigests(cols, merkle.Hasher{}, nil)
		require.ErrorIs(t, err, merkle.ErrShape, "FromDigests %s", name)
	}
	_, err := merkle.Commit([][]gf64.Element{{1}}, func() hash.Hash { return nil }, 0)
	require.ErrorIs(t, err, merkle.ErrHash, "a nil hash")
	cols := randomCols[gf64.Element](5, 2, 1)
	tr, err := merkle.Commit(cols, nil, 0)
	require.NoError(t, err)
	for _, idx := range [][]int{{-1}, {32}, {0, 1 << 40}} {
		_, err := tr.Open(idx)
		require.ErrorIs(t, err, merkle.ErrIndex, "Open(%v)", idx)
		_, err = tr.OpenMulti(idx)
		require.ErrorIs(t, err, merkle.ErrIndex, "OpenMulti(%v)", idx)
	}
	_, err = tr.OpenMulti(nil)
	require.ErrorIs(t, err, merkle.ErrShape, "OpenMulti of nothing")
	o, err := tr.Open([]int{3})
	require.NoError(t, err)
	root, n := tr.Root(), tr.Rows()
	require.ErrorIs(t, merkle.Verify(root, n, []int{32}, o.Rows, o.Paths, nil), merkle.ErrIndex, "Verify index 32")
	require.ErrorIs(t, merkle.Verify(root, 24, o.Indices, o.Rows, o.Paths, nil), merkle.ErrShape, "Verify 24 rows")
	require.ErrorIs(t, merkle.Verify[gf64.Element](root, n, o.Indices, nil, o.Paths, nil), merkle.ErrShape, "Verify no rows")
	require.ErrorIs(t, merkle.Verify(root[:31], n, o.Indices, o.Rows, o.Paths, nil), merkle.ErrVerify, "a short root")
	require.NoError(t, merkle.Verify(root, n, o.Indices, o.Rows, o.Paths, nil), "Verify")
	// Opening nothing is fine, but verifying nothing is not: a verifier
	// that forgets its openings must not pass.
	o, err = tr.Open(nil)
	require.NoError(t, err, "empty opening")
	require.ErrorIs(t, o.Verify(root, n, nil), merkle.ErrVerify, "Verify of no rows")
	var nilOpening *merkle.Opening[gf64.Element]
	require.ErrorIs(t, nilOpening.Verify(root, n, nil), merkle.ErrVerify, "Verify of a nil opening")
	// The tree keeps the caller's columns, and its root is a copy.
	r := tr.Root()
	r[0] ^= 1
	assert.NotEqual(t, r, tr.Root())
}

func TestProgress(t *testing.T) {
	for _, logRows := range []int{0, 3, 12} {
		cols := randomCols[babybear.Element](logRows, 3, 1)
		var got [][2]int
		tr, err := merkle.Build(cols, merkle.Hasher{}, 3, func(done, total int) { got = append(got, [2]int{done, total}) })
		require.NoError(t, err)
		require.NotEmpty(t, got, "2^%d rows", logRows)
		for k, p := range got {
			assert.Equal(t, tr.Rows(), p[1], "2^%d rows: total", logRows)
			if k > 0 {
				assert.Greater(t, p[0], got[k-1][0], "2^%d rows: progress went back: %v", logRows, got)
			}
		}
		assert.Equal(t, [2]int{tr.Rows(), tr.Rows()}, got[len(got)-1], "2^%d rows: the last report", logRows)
		assert.LessOrEqual(t, len(got), 129, "2^%d rows: reports", logRows)
		// A progress function that panics, on the tree's goroutines: an
		// error, no tree, no crash.
		require.NotPanics(t, func() {
			tr, err := merkle.Build(cols, merkle.Hasher{}, 3, func(int, int) { panic("progress") })
			require.Error(t, err, "2^%d rows", logRows)
			require.Nil(t, tr)
		})
	}
}

func TestFromDigests(t *testing.T) {
	t.Run("gf64", testFromDigests[gf64.Element])
	t.Run("goldilocks", testFromDigests[goldilocks.Element])
	t.Run("babybear", testFromDigests[babybear.Element])
	t.Run("koalabear", testFromDigests[koalabear.Element])
	t.Run("bn254", testFromDigests[fr.Element])
}

// testFromDigests commits to random columns and makes the tree again from
// its digests: the same root, levels and openings.
func testFromDigests[E merkle.Element](t *testing.T) {
	for _, logRows := range []int{0, 1, 2, 6} {
		cols := randomCols[E](logRows, 3, uint64(logRows))
		want, err := merkle.Commit(cols, nil, 2)
		require.NoError(t, err)
		var nodes []byte
		for j := 1; j <= want.Height(); j++ {
			nodes = append(nodes, want.Level(j)...)
		}
		got, err := merkle.FromDigests(cols, merkle.Hasher{}, nodes)
		require.NoError(t, err)
		assert.Equal(t, want.Root(), got.Root(), "2^%d rows", logRows)
		require.Equal(t, want.Height(), got.Height())
		for j := 1; j <= want.Height(); j++ {
			assert.Equal(t, want.Level(j), got.Level(j), "2^%d rows, level %d", logRows, j)
		}
		idx := []int{0, (1 << logRows) - 1}
		wm, err := want.OpenMulti(idx)
		require.NoError(t, err)
		gm, err := got.OpenMulti(idx)
		require.NoError(t, err)
		assert.Equal(t, wm, gm, "2^%d rows: multi-openings", logRows)
		wo, err := want.Open(idx)
		require.NoError(t, err)
		gop, err := got.Open(idx)
		require.NoError(t, err)
		assert.Equal(t, wo, gop, "2^%d rows: openings", logRows)
		_, err = merkle.FromDigests(cols, merkle.Hasher{}, append(nodes, 0))
		require.ErrorIs(t, err, merkle.ErrShape, "2^%d rows: one byte too many", logRows)
	}
}

// TestJoinRoots: the roots of a tree's subtrees, joined, give the tree's
// root, and a path made of a leaf's path in its subtree and the Top's path
// above it is the tree's path.
func TestJoinRoots(t *testing.T) {
	hs, err := merkle.NewHasher(nil)
	require.NoError(t, err)
	for _, logN := range []int{1, 2, 3, 5, 8} {
		n := 1 << logN
		cols := randomCols[babybear.Element](logN, 3, uint64(logN))
		tt, err := merkle.Commit(cols, nil, 2)
		require.NoError(t, err)
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		paths, err := tt.Open(all)
		require.NoError(t, err)
		for blocks := 1; blocks <= n/2; blocks *= 2 {
			per := n / blocks
			lvl := log2(per) // the level of the subtrees' roots
			roots := make([][]byte, blocks)
			for b := range roots {
				roots[b] = tt.Level(lvl)[b*hs.Size() : (b+1)*hs.Size()]
			}
			top, err := merkle.JoinRoots(hs, roots)
			require.NoError(t, err)
			assert.Equal(t, tt.Root(), top.Root(), "2^%d rows in %d blocks: root", logN, blocks)
			for i := range n {
				want := paths.Paths[i]
				got := append(append([][]byte(nil), want[:lvl]...), top.Path(i/per)...)
				require.Equal(t, want, got, "2^%d rows in %d blocks: path of row %d", logN, blocks, i)
			}
			assert.Nil(t, top.Path(blocks))
		}
	}
	_, err = merkle.JoinRoots(hs, make([][]byte, 3))
	require.ErrorIs(t, err, merkle.ErrShape)
	_, err = merkle.JoinRoots(hs, [][]byte{make([]byte, 32), make([]byte, 31)})
	require.ErrorIs(t, err, merkle.ErrShape)
}

func FuzzVerify(f *testing.F) {
	// Each row is tagged with its index, so that no two rows are equal: with
	// repeated rows, a genuine opening of one row would also be a valid
	// opening of its copies, and the oracle below would misjudge it.
	cols := randomCols[gf64.Element](5, 2, 5)
	for i := range cols[0] {
		cols[0][i] ^= gf64.Element(i) << 32
	}
	tr, err := merkle.Commit(cols, nil, 0)
	require.NoError(f, err)
	root := tr.Root()
	o, err := tr.Open([]int{6})
	require.NoError(f, err)
	flat := func(p [][]byte) []byte { return bytes.Join(p, nil) }
	f.Add(6, uint64(o.Rows[0][0]), uint64(o.Rows[0][1]), flat(o.Paths[0]), 32)
	f.Add(7, uint64(1), uint64(2), flat(o.Paths[0]), 32)
	f.Add(-1, uint64(0), uint64(0), []byte{}, 0)
	f.Add(1<<30, uint64(0), uint64(0), make([]byte, 31), 3)
	f.Fuzz(func(t *testing.T, idx int, a, b uint64, pathBytes []byte, rows int) {
		var path [][]byte
		for len(pathBytes) > 0 {
			n := min(32, len(pathBytes))
			path = append(path, pathBytes[:n])
			pathBytes = pathBytes[n:]
		}
		row := []gf64.Element{gf64.Element(a), gf64.Element(b)}
		err := merkle.Verify(root, rows, []int{idx}, [][]gf64.Element{row}, [][][]byte{path}, nil)
		genuine := idx == 6 && rows == 32 && row[0] == o.Rows[0][0] && row[1] == o.Rows[0][1] &&
			bytes.Equal(flat(path), flat(o.Paths[0]))
		if genuine {
			require.NoError(t, err, "the genuine opening")
		} else {
			require.Error(t, err, "idx %d rows %d: not the genuine opening", idx, rows)
		}
	})
}

// BenchmarkCommit is the tree over 2^16 rows of 32 BabyBear columns (2^20
// with -benchtime long runs: -short keeps 2^12); SetBytes counts the rows'
// bytes.
func BenchmarkCommit(b *testing.B) {
	logRows := 16
	if testing.Short() {
		logRows = 12
	}
	cols := randomCols[babybear.Element](logRows, 32, 1)
	b.SetBytes(int64(32 * 4 << logRows))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := merkle.Commit(cols, nil, 0); err != nil {
			b.Fatal(err)
		}
	}
}
