package merkle_test

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"fmt"
	"math/rand/v2"
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
	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// Tests of the field trees (Poseidon2, FieldHasher): roots against a naive
// recursion and against Plonky3's MerkleTreeMmcs written out from its
// algorithm, both on the permutations alone (Permutation.Permute, not the
// package's sponge and compression); openings, tampering, other fields.

// fieldConfig is one field hash: the library's Hasher and the permutations
// the references recompute it from.
type fieldConfig[F poseidon2.Element] struct {
	name       string
	hs         merkle.Hasher
	leaf, node *poseidon2.Permutation[F] // the sponge's and the compression's
	d          int                       // digest elements
}

// fieldWidths are the sponge widths of F's presets.
func fieldWidths[F poseidon2.Element]() []int {
	if poseidon2.DigestSize[F]() == 4 {
		return []int{8, 12}
	}
	return []int{16, 24}
}

// fieldConfigs returns the Poseidon2 Hasher of every preset and width of F.
func fieldConfigs[F poseidon2.Element](t testing.TB) []fieldConfig[F] {
	var out []fieldConfig[F]
	d := poseidon2.DigestSize[F]()
	for _, preset := range []poseidon2.Preset{poseidon2.Plonky3, poseidon2.Gnark} {
		for _, w := range fieldWidths[F]() {
			out = append(out, newFieldConfig[F](t, preset, w, d))
		}
	}
	return out
}

func newFieldConfig[F poseidon2.Element](t testing.TB, preset poseidon2.Preset, w, d int) fieldConfig[F] {
	hs, err := merkle.Poseidon2[F](preset, w)
	require.NoError(t, err)
	leaf, err := poseidon2.New[F](preset, w)
	require.NoError(t, err)
	node, err := poseidon2.New[F](preset, 2*d)
	require.NoError(t, err)
	return fieldConfig[F]{name: fmt.Sprintf("%v/%d", preset, w), hs: hs, leaf: leaf, node: node, d: d}
}

// refSponge is Plonky3's PaddingFreeSponge<P, t, t − d, d> (symmetric/src/
// sponge.rs, hash_iter): from the zero state, each chunk of t − d input
// elements overwrites the front of the state, which is then permuted (a
// last, shorter chunk too); the digest is the first d elements.
func refSponge[F poseidon2.Element](t testing.TB, p *poseidon2.Permutation[F], in []F, d int) []F {
	st := make([]F, p.Width())
	rate := p.Width() - d
	for len(in) > 0 {
		k := copy(st[:rate], in)
		in = in[k:]
		require.NoError(t, p.Permute(st))
	}
	return st[:d:d]
}

// refCompress is Plonky3's TruncatedPermutation<P, 2, d, 2d>: the first d
// elements of P(left ‖ right).
func refCompress[F poseidon2.Element](t testing.TB, p *poseidon2.Permutation[F], left, right []F) []F {
	st := make([]F, p.Width())
	copy(st, left)
	copy(st[len(left):], right)
	require.NoError(t, p.Permute(st))
	return st[:len(left):len(left)]
}

// refRecursive is the root of the tree over rows lo..hi−1 of cols, by
// recursion: a row's digest, or the compression of the roots of the two
// halves.
func refRecursive[F poseidon2.Element](t testing.TB, c fieldConfig[F], cols [][]F, lo, hi int) []F {
	if hi-lo == 1 {
		return refSponge(t, c.leaf, rowOf(cols, lo), c.d)
	}
	mid := (lo + hi) / 2
	return refCompress(t, c.node, refRecursive(t, c, cols, lo, mid), refRecursive(t, c, cols, mid, hi))
}

// refMmcs is Plonky3's MerkleTreeMmcs commitment of one matrix of
// power-of-two height (merkle-tree/src/merkle_tree.rs, MerkleTree::new
// with arity 2): first_digest_layer hashes every row with the sponge, then
// each layer is compressed pairwise, digest 2i and 2i+1 into digest i of
// the next, until one digest is left, the root.
func refMmcs[F poseidon2.Element](t testing.TB, c fieldConfig[F], rows [][]F) []F {
	layer := make([][]F, len(rows))
	for i, row := range rows {
		layer[i] = refSponge(t, c.leaf, row, c.d)
	}
	for len(layer) > 1 {
		next := make([][]F, len(layer)/2)
		for i := range next {
			next[i] = refCompress(t, c.node, layer[2*i], layer[2*i+1])
		}
		layer = next
	}
	return layer[0]
}

// digestBytes is the byte form of a digest: its elements in the leaf
// encoding.
func digestBytes[F poseidon2.Element](d []F) []byte { return merkle.AppendRow(nil, d) }

func TestFieldRootAgainstRecursion(t *testing.T) {
	t.Run("babybear", testFieldRecursion[babybear.Element])
	t.Run("koalabear", testFieldRecursion[koalabear.Element])
	t.Run("goldilocks", testFieldRecursion[goldilocks.Element])
}

// testFieldRecursion: for 1 … 65 columns and 2^0 … 2^10 rows under
// GFPOLY_LONG (otherwise the column counts around the sponges' rates, to
// 2^8 rows: four blocks of leafBlock rows for up to three workers, and above
// 2^7 rows only the counts of 1 mod 4), every preset and width, the root of
// Build equals the recursion's, with 1 and 3 workers.
func testFieldRecursion[F poseidon2.Element](t *testing.T) {
	colCounts := make([]int, 65)
	for i := range colCounts {
		colCounts[i] = i + 1
	}
	if !testutil.Long() {
		colCounts = []int{1, 3, 4, 5, 8, 9, 12, 13, 16, 17, 24, 33, 65}
	}
	for _, c := range fieldConfigs[F](t) {
		t.Run(c.name, func(t *testing.T) {
			seed := uint64(0)
			for logRows := 0; logRows <= testutil.Sweep(8, 8, 10); logRows++ {
				for _, nc := range colCounts {
					if !testutil.Long() && logRows > 7 && nc%4 != 1 {
						continue
					}
					seed++
					cols := randomCols[F](logRows, nc, seed)
					want := digestBytes(refRecursive(t, c, cols, 0, 1<<logRows))
					tr, err := merkle.Build(cols, c.hs, 1+int(seed%3), nil)
					require.NoError(t, err)
					require.Equal(t, want, tr.Root(), "2^%d rows × %d columns", logRows, nc)
				}
			}
		})
	}
}

// TestFieldLevels: every stored level of a field tree is the layer of
// Plonky3's algorithm, computed here with the package poseidon2's batch
// sponge and compression, on 2^19 rows (whose upper levels are split among
// the workers; built with 2 workers, and also 1 and 5 under GFPOLY_LONG) and
// on small trees (1, 2 and 5 workers).
func TestFieldLevels(t *testing.T) {
	c := newFieldConfig[babybear.Element](t, poseidon2.Plonky3, 24, 8)
	for _, sh := range [][2]int{{1, 3}, {6, 5}, {7, 17}, {12, 2}, {19, 1}} {
		cols := randomCols[babybear.Element](sh[0], sh[1], uint64(sh[0]))
		n := 1 << sh[0]
		layer := make([]babybear.Element, n*8)
		require.NoError(t, c.leaf.Sponge().HashColumns(layer, cols))
		var trees []*merkle.Tree[babybear.Element]
		workers := []int{1, 2, 5}
		if sh[0] == 19 && !testutil.Long() {
			workers = []int{2}
		}
		for _, w := range workers {
			tr, err := merkle.Build(cols, c.hs, w, nil)
			require.NoError(t, err)
			trees = append(trees, tr)
		}
		for j := 1; j <= sh[0]; j++ {
			next := make([]babybear.Element, len(layer)/2)
			require.NoError(t, c.node.Compression().CompressLayer(next, layer))
			layer = next
			for k, tr := range trees {
				require.True(t, bytes.Equal(merkle.AppendRow(nil, layer), tr.Level(j)), "2^%d × %d, tree %d: level %d", sh[0], sh[1], k, j)
			}
		}
	}
}

// The test vectors of the package documentation: the matrix of 4 rows and
// 20 columns whose row r is 20r, 20r+1, …, 20r+19, committed with Plonky3's
// configurations (sponge width 24 or 12, compression width 16 or 8).
var plonky3Vectors = []struct {
	field string
	width int
	root  []uint64
}{
	{"babybear", 24, []uint64{477796801, 1855960366, 1422415754, 1551661697, 487309186, 1675881114, 708495938, 542049302}},
	{"koalabear", 24, []uint64{2019747491, 330375073, 884513381, 1802452703, 665150260, 1651631023, 1486502190, 410817345}},
	{"goldilocks", 12, []uint64{1436968587307003017, 3960283139444740970, 9863010735600264414, 13697743125710472293}},
}

// vectorMatrix is the test vectors' matrix, as columns and as rows.
func vectorMatrix[F poseidon2.Element]() (cols, rows [][]F) {
	cols = make([][]F, 20)
	rows = make([][]F, 4)
	for r := range rows {
		rows[r] = make([]F, 20)
	}
	for c := range cols {
		cols[c] = make([]F, 4)
		for r := range cols[c] {
			setUint(&cols[c][r], uint64(20*r+c))
			rows[r][c] = cols[c][r]
		}
	}
	return cols, rows
}

func setUint[F poseidon2.Element](z *F, v uint64) {
	switch p := any(z).(type) {
	case *babybear.Element:
		p.SetUint64(v)
	case *koalabear.Element:
		p.SetUint64(v)
	case *goldilocks.Element:
		p.SetUint64(v)
	}
}

func canonical[F poseidon2.Element](d []F) []uint64 {
	out := make([]uint64, len(d))
	for i := range d {
		switch v := any(d[i]).(type) {
		case babybear.Element:
			out[i] = v.Uint64()
		case koalabear.Element:
			out[i] = v.Uint64()
		case goldilocks.Element:
			out[i] = v.Uint64()
		}
	}
	return out
}

func TestPlonky3Vector(t *testing.T) {
	for _, v := range plonky3Vectors {
		t.Run(fmt.Sprintf("%s/%d", v.field, v.width), func(t *testing.T) {
			switch v.field {
			case "babybear":
				testPlonky3Vector[babybear.Element](t, v.width, v.root)
			case "koalabear":
				testPlonky3Vector[koalabear.Element](t, v.width, v.root)
			case "goldilocks":
				testPlonky3Vector[goldilocks.Element](t, v.width, v.root)
			}
		})
	}
	// One row of 0, 1, …, 9 with BabyBear width 16 is one leaf: its root is
	// the sponge's known answer of package poseidon2 (Plonky3's
	// PaddingFreeSponge<_, 16, 8, 8>).
	cols := make([][]babybear.Element, 10)
	for c := range cols {
		cols[c] = make([]babybear.Element, 1)
		cols[c][0].SetUint64(uint64(c))
	}
	hs, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	tr, err := merkle.Build(cols, hs, 0, nil)
	require.NoError(t, err)
	var want []babybear.Element
	for _, x := range []uint64{109871766, 1072162525, 734734822, 1779529182, 851455702, 1097548423, 803475089, 1040688773} {
		var e babybear.Element
		e.SetUint64(x)
		want = append(want, e)
	}
	assert.Equal(t, digestBytes(want), tr.Root(), "one row of 0…9: the sponge's known answer")
}

// testPlonky3Vector: the root of the package's Plonky3 preset, of Plonky3's
// algorithm written out (refMmcs) and of the documentation agree.
func testPlonky3Vector[F poseidon2.Element](t *testing.T, width int, want []uint64) {
	c := newFieldConfig[F](t, poseidon2.Plonky3, width, poseidon2.DigestSize[F]())
	cols, rows := vectorMatrix[F]()
	ref := refMmcs(t, c, rows)
	tr, err := merkle.Build(cols, c.hs, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, digestBytes(ref), tr.Root(), "the library against Plonky3's algorithm")
	assert.Equal(t, want, canonical(ref), "Plonky3's algorithm against the documented vector")
	t.Logf("root %v = %x", canonical(ref), tr.Root())
}

func TestFieldTamper(t *testing.T) {
	t.Run("babybear", testFieldTamperAll[babybear.Element])
	t.Run("koalabear", testFieldTamperAll[koalabear.Element])
	t.Run("goldilocks", testFieldTamperAll[goldilocks.Element])
}

func testFieldTamperAll[F poseidon2.Element](t *testing.T) {
	for k, c := range fieldConfigs[F](t) {
		if !testutil.Long() && k%3 != 0 {
			continue // but under GFPOLY_LONG: Plonky3's narrow width and gnark-crypto's wide one
		}
		t.Run(c.name, func(t *testing.T) { testFieldTamper(t, c) })
	}
}

// testFieldTamper: single and multi-path openings of a field tree verify
// (also through their encoding); a changed element, a flipped bit of any
// digest (the lowest and highest bits of each byte; every bit under
// GFPOLY_LONG) or of the root, another index, rows swapped, another Hasher and
// every byte of the encoded multi-opening flipped are rejected.
func testFieldTamper[F poseidon2.Element](t *testing.T, c fieldConfig[F]) {
	hs := c.hs
	cols := randomCols[F](5, 11, 3)
	tr, err := merkle.Build(cols, hs, 2, nil)
	require.NoError(t, err)
	root, n := tr.Root(), tr.Rows()
	require.Len(t, root, hs.Size())

	o, err := tr.Open([]int{5, 0, 31})
	require.NoError(t, err)
	require.NoError(t, o.VerifyWith(root, n, hs), "the untouched opening")
	for k := range o.Rows {
		for j := range o.Rows[k] {
			orig := o.Rows[k][j]
			for _, v := range neighbours(orig) {
				o.Rows[k][j] = v
				require.ErrorIs(t, o.VerifyWith(root, n, hs), merkle.ErrVerify, "row %d col %d changed to %v", o.Indices[k], j, v)
			}
			o.Rows[k][j] = orig
		}
	}
	flips := []int{0, 7} // every bit under GFPOLY_LONG
	if testutil.Long() {
		flips = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	for k := range o.Paths {
		for l := range o.Paths[k] {
			for b := range o.Paths[k][l] {
				for _, bit := range flips {
					o.Paths[k][l][b] ^= 1 << bit
					require.ErrorIs(t, o.VerifyWith(root, n, hs), merkle.ErrVerify, "path %d digest %d byte %d bit %d", k, l, b, bit)
					o.Paths[k][l][b] ^= 1 << bit
				}
			}
		}
	}
	for b := range root {
		r2 := append([]byte(nil), root...)
		r2[b] ^= 0x01
		require.ErrorIs(t, o.VerifyWith(r2, n, hs), merkle.ErrVerify, "root byte %d", b)
	}
	o.Indices[0] ^= 1
	require.ErrorIs(t, o.VerifyWith(root, n, hs), merkle.ErrVerify, "wrong index")
	o.Indices[0] ^= 1
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	require.ErrorIs(t, o.VerifyWith(root, n, hs), merkle.ErrVerify, "swapped rows")
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	require.NoError(t, merkle.VerifyWith(root, n, o.Indices, o.Rows, o.Paths, hs), "the opening put back together")
	require.ErrorIs(t, o.VerifyWith(root, n, merkle.Hasher{}), merkle.ErrVerify, "SHA-256")
	require.ErrorIs(t, o.Verify(root, n, sha512.New), merkle.ErrVerify, "SHA-512")
	require.ErrorIs(t, o.VerifyWith(root, 2*n, hs), merkle.ErrVerify, "a tree twice the size")
	for _, other := range fieldConfigs[F](t) {
		if other.name != c.name {
			require.ErrorIs(t, o.VerifyWith(root, n, other.hs), merkle.ErrVerify, "the hash %s", other.name)
		}
	}

	// Multi-openings, through their encoding.
	r := rand.New(rand.NewPCG(5, 6))
	for _, idx := range moIndexSets(n, r) {
		m, err := tr.OpenMulti(idx)
		require.NoError(t, err)
		require.NoError(t, merkle.VerifyMultiWith(root, n, m, hs), "indices %v", idx)
		enc, err := m.MarshalBinary()
		require.NoError(t, err)
		var back merkle.MultiOpening[F]
		require.NoError(t, back.UnmarshalBinary(enc))
		require.NoError(t, back.VerifyWith(root, n, hs), "indices %v, decoded", idx)
		if len(m.Nodes) > 0 {
			require.ErrorIs(t, m.VerifyWith(root, n, merkle.Hasher{}), merkle.ErrVerify, "indices %v with SHA-256", idx)
		}
	}
	m, err := tr.OpenMulti([]int{1, 2, 6, 20})
	require.NoError(t, err)
	enc, err := m.MarshalBinary()
	require.NoError(t, err)
	for b := range enc {
		for _, x := range []byte{0x01, 0x80} {
			bad := append([]byte(nil), enc...)
			bad[b] ^= x
			var o2 merkle.MultiOpening[F]
			if err := o2.UnmarshalBinary(bad); err != nil {
				continue
			}
			err := o2.VerifyWith(root, n, hs)
			require.Error(t, err, "byte %d ^ %#x verifies", b, x)
			require.True(t, errors.Is(err, merkle.ErrVerify) || errors.Is(err, merkle.ErrShape) || errors.Is(err, merkle.ErrIndex), "byte %d: %v", b, err)
		}
	}
	// A digest that is no field element (all ones) is refused, not reduced.
	saved := m.Nodes[0]
	m.Nodes[0] = bytes.Repeat([]byte{0xff}, len(saved))
	require.ErrorIs(t, m.VerifyWith(root, n, hs), merkle.ErrVerify, "a non-canonical node")
	m.Nodes[0] = saved
	require.NoError(t, m.VerifyWith(root, n, hs))
}

// TestFieldWrongField: a field Hasher refuses rows of every other field, at
// every entry point, with ErrField.
func TestFieldWrongField(t *testing.T) {
	bb, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	gl, err := merkle.Poseidon2[goldilocks.Element](poseidon2.Plonky3, 8)
	require.NoError(t, err)
	require.NoError(t, merkle.CheckField[babybear.Element](bb))
	require.NoError(t, merkle.CheckField[koalabear.Element](merkle.Hasher{}), "SHA-256 serves every field")
	testWrongField[koalabear.Element](t, bb)
	testWrongField[gf64.Element](t, bb)
	testWrongField[goldilocks.Element](t, bb)
	testWrongField[fr.Element](t, bb)
	testWrongField[babybear.Element](t, gl)
	_, err = merkle.Build(randomCols[koalabear.Element](3, 2, 1), bb, 1, nil)
	require.ErrorContains(t, err, "koalabear")
	require.ErrorContains(t, err, "babybear")
}

func testWrongField[E merkle.Element](t *testing.T, hs merkle.Hasher) {
	cols := randomCols[E](3, 2, 1)
	_, err := merkle.Build(cols, hs, 1, nil)
	require.ErrorIs(t, err, merkle.ErrField, "Build")
	require.ErrorIs(t, merkle.CheckField[E](hs), merkle.ErrField, "CheckField")
	_, err = merkle.FromDigests(cols, hs, make([]byte, 7*hs.Size()))
	require.ErrorIs(t, err, merkle.ErrField, "FromDigests")
	_, err = merkle.LeafDigests(hs, [][]E{rowOf(cols, 0)})
	require.ErrorIs(t, err, merkle.ErrField, "LeafDigests")
	// An honest SHA-256 opening presented with the field hash.
	tr, err := merkle.Commit(cols, nil, 1)
	require.NoError(t, err)
	o, err := tr.Open([]int{3})
	require.NoError(t, err)
	require.ErrorIs(t, o.VerifyWith(tr.Root(), 8, hs), merkle.ErrField, "VerifyWith")
	m, err := tr.OpenMulti([]int{3})
	require.NoError(t, err)
	require.ErrorIs(t, m.VerifyWith(tr.Root(), 8, hs), merkle.ErrField, "VerifyMultiWith")
}

func TestFieldHasherErrors(t *testing.T) {
	_, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 12)
	require.ErrorIs(t, err, merkle.ErrHash)
	require.ErrorIs(t, err, poseidon2.ErrWidth)
	_, err = merkle.Poseidon2[goldilocks.Element](poseidon2.Plonky3, 16)
	require.ErrorIs(t, err, poseidon2.ErrWidth)
	_, err = merkle.Poseidon2[koalabear.Element](poseidon2.Preset(9), 16)
	require.ErrorIs(t, err, merkle.ErrHash)
	require.ErrorIs(t, err, poseidon2.ErrPreset)

	p16, err := poseidon2.New[babybear.Element](poseidon2.Gnark, 16)
	require.NoError(t, err)
	p24, err := poseidon2.New[babybear.Element](poseidon2.Gnark, 24)
	require.NoError(t, err)
	_, err = merkle.FieldHasher[babybear.Element](nil, p16.Compression())
	require.ErrorIs(t, err, merkle.ErrHash, "nil sponge")
	short, err := poseidon2.NewSponge(p16, 8, 2)
	require.NoError(t, err)
	c2, err := poseidon2.NewCompression(p16, 2, poseidon2.Truncate)
	require.NoError(t, err)
	_, err = merkle.FieldHasher(short, c2)
	require.ErrorIs(t, err, merkle.ErrHash, "8-byte digests")
	_, err = merkle.FieldHasher(short, p16.Compression())
	require.ErrorIs(t, err, merkle.ErrHash, "digests of 2 and 8 elements")

	// Another combination: gnark-crypto's feed-forward compression on
	// width 16 under a width-24 sponge of rate 16.
	ff, err := poseidon2.NewCompression(p16, 8, poseidon2.FeedForward)
	require.NoError(t, err)
	hs, err := merkle.FieldHasher(p24.Sponge(), ff)
	require.NoError(t, err)
	assert.Equal(t, 32, hs.Size())
	assert.False(t, hs.Default())
	t.Logf("%v", hs)
	cols := randomCols[babybear.Element](6, 19, 4)
	tr, err := merkle.Build(cols, hs, 2, nil)
	require.NoError(t, err)
	var rec func(lo, hi int) []babybear.Element
	rec = func(lo, hi int) []babybear.Element {
		if hi-lo == 1 {
			return refSponge(t, p24, rowOf(cols, lo), 8)
		}
		l, r := rec(lo, (lo+hi)/2), rec((lo+hi)/2, hi)
		st := make([]babybear.Element, 16)
		copy(st, l)
		copy(st[8:], r)
		require.NoError(t, p16.Permute(st))
		out := make([]babybear.Element, 8)
		for i := range out {
			out[i].Add(&st[8+i], &r[i])
		}
		return out
	}
	assert.Equal(t, digestBytes(rec(0, 64)), tr.Root(), "feed-forward nodes")
	m, err := tr.OpenMulti([]int{0, 9, 63})
	require.NoError(t, err)
	require.NoError(t, m.VerifyWith(tr.Root(), 64, hs))
}

func TestFieldHasherInfo(t *testing.T) {
	for _, tc := range []struct {
		hs   func() (merkle.Hasher, error)
		name string
	}{
		{func() (merkle.Hasher, error) { return merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 24) }, "Poseidon2 (Plonky3, babybear, width 24, nodes on width 16), 8-element digests"},
		{func() (merkle.Hasher, error) { return merkle.Poseidon2[goldilocks.Element](poseidon2.Gnark, 8) }, "Poseidon2 (gnark-crypto, goldilocks, width 8), 4-element digests"},
		{func() (merkle.Hasher, error) { return merkle.Hasher{}, nil }, "SHA-256"},
		{func() (merkle.Hasher, error) { return merkle.NewHasher(sha512.New) }, "a hash.Hash of 64-byte digests"},
	} {
		hs, err := tc.hs()
		require.NoError(t, err)
		assert.Equal(t, tc.name, hs.String())
	}
}

// TestFieldProgress: Build reports a field tree's progress as a byte
// tree's, and a panic in the progress function is an error.
func TestFieldProgress(t *testing.T) {
	hs, err := merkle.Poseidon2[koalabear.Element](poseidon2.Plonky3, 16)
	require.NoError(t, err)
	for _, logRows := range []int{0, 3, 12} {
		cols := randomCols[koalabear.Element](logRows, 4, 2)
		var last, calls int
		_, err := merkle.Build(cols, hs, 3, func(done, total int) {
			assert.Greater(t, done, last)
			assert.Equal(t, 1<<logRows, total)
			last = done
			calls++
		})
		require.NoError(t, err)
		assert.Equal(t, 1<<logRows, last, "2^%d rows: the last report", logRows)
		assert.LessOrEqual(t, calls, 129)
		_, err = merkle.Build(cols, hs, 3, func(int, int) { panic("progress") })
		require.ErrorContains(t, err, "progress", "2^%d rows", logRows)
	}
}

func FuzzVerifyMultiField(f *testing.F) {
	hs, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(f, err)
	lde := randomCols[babybear.Element](5, 3, 13)
	tr, err := merkle.Build(lde, hs, 0, nil)
	require.NoError(f, err)
	root, n := tr.Root(), tr.Rows()
	for _, idx := range [][]int{{0}, {5, 6}, {1, 2, 30}, {4, 5, 6, 7}} {
		m, err := tr.OpenMulti(idx)
		require.NoError(f, err)
		b, err := m.MarshalBinary()
		require.NoError(f, err)
		f.Add(b, n)
	}
	f.Fuzz(func(t *testing.T, data []byte, rows int) {
		var o merkle.MultiOpening[babybear.Element]
		if o.UnmarshalBinary(data) != nil {
			return
		}
		if err := o.VerifyWith(root, rows, hs); err != nil {
			return
		}
		// Only the genuine opening of some rows of the committed width verifies.
		require.Equal(t, n, rows)
		if len(o.Rows[0]) != len(lde) {
			return // a width the verifier must refuse itself (see "Field trees")
		}
		for k, i := range o.Indices {
			for j := range lde {
				require.Equal(t, lde[j][i], o.Rows[k][j], "row %d column %d", i, j)
			}
		}
	})
}

// BenchmarkCommitField commits 2^16 rows of 32 BabyBear columns on every
// core with the Poseidon2 presets of Plonky3 (sponge width 16 and 24) and
// with SHA-256; SetBytes counts the matrix's bytes.
func BenchmarkCommitField(b *testing.B) {
	const logRows, nc = 16, 32
	cols := randomCols[babybear.Element](logRows, nc, 1)
	p16, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 16)
	require.NoError(b, err)
	p24, err := merkle.Poseidon2[babybear.Element](poseidon2.Plonky3, 24)
	require.NoError(b, err)
	for _, c := range []struct {
		name string
		hs   merkle.Hasher
	}{{"sha256", merkle.Hasher{}}, {"poseidon2-16", p16}, {"poseidon2-24", p24}} {
		b.Run(fmt.Sprintf("babybear/2^%d×%d/%s", logRows, nc, c.name), func(b *testing.B) {
			b.SetBytes(int64(nc << logRows * 4))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := merkle.Build(cols, c.hs, 0, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
