package prover

import (
	"crypto/sha256"
	"crypto/sha512"
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

// newRepeatEncoder is a test encoder whose "LDE" repeats each column blowup
// times: enough to exercise chunking, streaming and the commitment.
func newRepeatEncoder[E Element](t testing.TB, opts ...Option) *core[E] {
	t.Helper()
	cfg, err := newConfig(opts)
	require.NoError(t, err)
	return &core[E]{cfg: cfg, name: "repeat", device: "test", lde: func(logRows int, dst, msgs [][]E) error {
		for j := range dst {
			for i := range dst[j] {
				dst[j][i] = msgs[j][i%len(msgs[j])]
			}
		}
		return nil
	}}
}

// refLeaf is the leaf encoding written out element by element with each
// type's own byte method.
func refLeaf[E Element](row []E) []byte {
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

// refRoot is a plain recursive Merkle root over the rows of cols.
func refRoot[E Element](cols [][]E, newHash func() hash.Hash) []byte {
	n := len(cols[0])
	level := make([][]byte, n)
	for i := range n {
		row := make([]E, len(cols))
		for j := range cols {
			row[j] = cols[j][i]
		}
		h := newHash()
		h.Write(refLeaf(row))
		level[i] = h.Sum(nil)
	}
	for len(level) > 1 {
		next := make([][]byte, len(level)/2)
		for i := range next {
			h := newHash()
			h.Write([]byte{merkle.NodeTag})
			h.Write(level[2*i])
			h.Write(level[2*i+1])
			next[i] = h.Sum(nil)
		}
		level = next
	}
	return level[0]
}

func testRootAgainstReference[E Element](t *testing.T) {
	for _, tc := range []struct {
		logRows, cols, blowup int
		h                     func() hash.Hash
	}{
		{0, 1, 2, nil}, {1, 3, 2, nil}, {3, 1, 16, nil}, {5, 7, 4, nil}, {6, 2, 8, sha512.New},
		{10, 5, 4, nil}, {11, 3, 2, sha256.New},
	} {
		tr, err := RandomTrace[E](tc.logRows, tc.cols, uint64(tc.logRows*100+tc.cols))
		require.NoError(t, err)
		enc := newRepeatEncoder[E](t, WithBlowup(tc.blowup), WithHash(tc.h), WithChunkColumns(2))
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		h := tc.h
		if h == nil {
			h = sha256.New
		}
		assert.Equal(t, refRoot(mustLDE(t, c), h), c.Root(), "%v 2^%d×%d blowup %d: root against the reference", FieldOf[E](), tc.logRows, tc.cols, tc.blowup)
		// Every row opens and verifies.
		idx := make([]int, c.Rows())
		for i := range idx {
			idx[i] = i
		}
		if len(idx) > 64 {
			idx = []int{0, 1, 2, len(idx) / 2, len(idx) - 2, len(idx) - 1}
		}
		o, err := c.Open(idx)
		require.NoError(t, err)
		assert.NoError(t, o.Verify(c.Root(), c.Rows(), tc.h), "%v 2^%d×%d blowup %d", FieldOf[E](), tc.logRows, tc.cols, tc.blowup)
	}
}

func TestRootAgainstReference(t *testing.T) {
	t.Run("gf64", testRootAgainstReference[gf64.Element])
	t.Run("goldilocks", testRootAgainstReference[goldilocks.Element])
	t.Run("babybear", testRootAgainstReference[babybear.Element])
	t.Run("koalabear", testRootAgainstReference[koalabear.Element])
	t.Run("bn254", testRootAgainstReference[fr.Element])
}

func TestBadInput(t *testing.T) {
	enc := newRepeatEncoder[gf64.Element](t)
	for name, tr := range map[string]Trace[gf64.Element]{
		"empty":     nil,
		"no rows":   {{}},
		"ragged":    {make([]gf64.Element, 4), make([]gf64.Element, 2)},
		"not pow 2": {make([]gf64.Element, 6)},
	} {
		_, err := enc.Commit(tr)
		require.ErrorIs(t, err, ErrShape, "Commit %s", name)
		_, err = enc.Encode(tr)
		require.ErrorIs(t, err, ErrShape, "Encode %s", name)
	}
	_, err := enc.Commit(nil)
	require.ErrorIs(t, err, ErrShape, "nil source")
	for _, b := range []int{0, 1, 3, 32, -4} {
		_, err := newConfig([]Option{WithBlowup(b)})
		require.ErrorIs(t, err, ErrConfig, "blowup %d", b)
	}
	_, err = newConfig([]Option{WithHash(func() hash.Hash { return nil })})
	require.ErrorIs(t, err, ErrConfig, "nil hash")
	_, err = newConfig([]Option{WithChunkColumns(0)})
	require.ErrorIs(t, err, ErrConfig, "chunk 0")
	tr, err := RandomTrace[gf64.Element](3, 2, 1)
	require.NoError(t, err)
	c, err := enc.Commit(tr)
	require.NoError(t, err)
	for _, idx := range [][]int{{-1}, {32}, {0, 1 << 40}} {
		_, err := c.Open(idx)
		require.ErrorIs(t, err, ErrIndex, "Open(%v)", idx)
	}
	o, err := c.Open([]int{3})
	require.NoError(t, err)
	require.ErrorIs(t, Verify(c.Root(), c.Rows(), []int{32}, o.Rows, o.Paths, nil), ErrIndex, "Verify index 32")
	require.ErrorIs(t, Verify(c.Root(), 24, o.Indices, o.Rows, o.Paths, nil), ErrShape, "Verify 24 rows")
	require.ErrorIs(t, Verify[gf64.Element](c.Root(), c.Rows(), o.Indices, nil, o.Paths, nil), ErrShape, "Verify no rows")
	require.NoError(t, Verify(c.Root(), c.Rows(), o.Indices, o.Rows, o.Paths, nil), "Verify")
	// Opening nothing is fine, but verifying nothing is not: a verifier
	// that forgets its openings must not pass.
	o, err = c.Open(nil)
	require.NoError(t, err, "empty opening")
	require.ErrorIs(t, o.Verify(c.Root(), c.Rows(), nil), ErrVerify, "Verify of no rows")
}

func TestProgress(t *testing.T) {
	const logRows, cols, blowup = 12, 7, 4
	var got []Progress
	enc := newRepeatEncoder[gf64.Element](t, WithBlowup(blowup), WithChunkColumns(3), WithProgress(func(p Progress) { got = append(got, p) }))
	tr, err := RandomTrace[gf64.Element](logRows, cols, 1)
	require.NoError(t, err)
	_, err = enc.Commit(tr)
	require.NoError(t, err)
	var lastEnc, lastCommit Progress
	for _, p := range got {
		switch p.Phase {
		case "encode":
			require.GreaterOrEqual(t, p.Done, lastEnc.Done, "encode progress went back: %+v", got)
			lastEnc = p
		case "commit":
			require.GreaterOrEqual(t, p.Done, lastCommit.Done, "commit progress went back: %+v", got)
			lastCommit = p
		}
	}
	// Progress counts encoding in columns and the commitment in rows of the
	// LDE (Progress's documentation): both end at their totals.
	assert.Equal(t, Progress{"encode", cols, cols}, lastEnc, "last encode report")
	assert.Equal(t, Progress{"commit", blowup << logRows, blowup << logRows}, lastCommit, "last commit report")
}

// streamSource is a Source that generates columns on demand and counts reads.
type streamSource struct {
	logRows, cols int
	reads         int
}

func (s *streamSource) Shape() (int, int, error) { return s.logRows, s.cols, nil }

func (s *streamSource) ReadColumns(first int, dst [][]gf64.Element) error {
	s.reads++
	for j := range dst {
		r := rand.New(rand.NewPCG(uint64(first+j), 9))
		for i := range dst[j] {
			dst[j][i] = gf64.Element(r.Uint64())
		}
	}
	return nil
}

func TestStreamingSource(t *testing.T) {
	const logRows, cols, chunk = 6, 10, 4
	src := &streamSource{logRows: logRows, cols: cols}
	enc := newRepeatEncoder[gf64.Element](t, WithChunkColumns(chunk))
	c, err := enc.Commit(src)
	require.NoError(t, err)
	// One read per chunk of columns: ⌈10/4⌉ = 3.
	assert.Equal(t, (cols+chunk-1)/chunk, src.reads, "reads")
	tr := make(Trace[gf64.Element], cols)
	for j := range tr {
		tr[j] = make([]gf64.Element, 1<<logRows)
	}
	require.NoError(t, (&streamSource{logRows: logRows, cols: cols}).ReadColumns(0, tr))
	c2, err := enc.Commit(tr)
	require.NoError(t, err)
	assert.Equal(t, c2.Root(), c.Root(), "streamed and in-memory roots")
}

func TestEncodeInto(t *testing.T) {
	enc, err := New[gf64.Element](WithBlowup(2))
	require.NoError(t, err)
	tr, err := RandomTrace[gf64.Element](5, 3, 4)
	require.NoError(t, err)
	want, err := enc.Encode(tr)
	require.NoError(t, err)
	dst, err := RandomTrace[gf64.Element](6, 3, 5)
	require.NoError(t, err)
	require.NoError(t, enc.EncodeInto(dst, tr))
	equalColumns(t, want, dst, "EncodeInto against Encode")
	for name, d := range map[string]Trace[gf64.Element]{
		"too few columns": dst[:2],
		"short column":    {dst[0], dst[1], dst[2][:63]},
	} {
		require.ErrorIs(t, enc.EncodeInto(d, tr), ErrShape, name)
	}
	require.ErrorIs(t, enc.EncodeInto(dst, nil), ErrShape, "nil source")
}

func TestCommitInto(t *testing.T) {
	enc, err := New[gf64.Element](WithBlowup(2))
	require.NoError(t, err)
	tr, err := RandomTrace[gf64.Element](5, 3, 4)
	require.NoError(t, err)
	want, err := enc.Commit(tr)
	require.NoError(t, err)
	dst, err := RandomTrace[gf64.Element](6, 3, 5)
	require.NoError(t, err)
	got, err := enc.CommitInto(dst, tr)
	require.NoError(t, err)
	assert.Equal(t, want.Root(), got.Root(), "CommitInto's root against Commit's")
	equalColumns(t, mustLDE(t, want), dst, "CommitInto's LDE against Commit's")
	require.Len(t, mustLDE(t, got), len(dst))
	for c := range dst {
		assert.Same(t, &dst[c][0], &mustLDE(t, got)[c][0], "column %d: the commitment's LDE is not the caller's memory", c)
	}
	assert.Positive(t, got.Timings.Encode, "encode time")
	assert.Positive(t, got.Timings.Commit, "commit time")
	for name, d := range map[string]Trace[gf64.Element]{
		"too few columns": dst[:2],
		"short column":    {dst[0], dst[1], dst[2][:63]},
	} {
		_, err := enc.CommitInto(d, tr)
		require.ErrorIs(t, err, ErrShape, name)
	}
	_, err = enc.CommitInto(dst, nil)
	require.ErrorIs(t, err, ErrShape, "nil source")
}

// FuzzCommit builds a trace of caller-chosen column lengths and contents:
// Commit either rejects its shape or commits, and then every opened row
// verifies.
func FuzzCommit(f *testing.F) {
	f.Add([]byte{4, 4, 4}, []byte("some trace data"), uint8(1), 3)
	f.Add([]byte{8, 7}, []byte{}, uint8(2), 0)
	f.Add([]byte{}, []byte{1}, uint8(0), 0)
	f.Add([]byte{1}, []byte{9, 9, 9, 9, 9, 9, 9, 9}, uint8(3), 1)
	f.Add([]byte{16, 16, 0}, []byte{1, 2}, uint8(4), -5)
	f.Fuzz(func(t *testing.T, lens []byte, data []byte, lb uint8, open int) {
		if len(lens) > 8 {
			lens = lens[:8]
		}
		tr := make(Trace[gf64.Element], len(lens))
		for c, l := range lens {
			tr[c] = make([]gf64.Element, int(l)%64)
			for i := range tr[c] {
				if len(data) > 0 {
					tr[c][i] = gf64.Element(data[(c+i)%len(data)]) << (i % 57)
				}
			}
		}
		enc, err := New[gf64.Element](WithBlowup(1 << (1 + lb%4)))
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		if err != nil {
			require.ErrorIs(t, err, ErrShape, "Commit")
			return
		}
		// CommitInto into buffers of the LDE's shape gives the same root.
		dst := make([][]gf64.Element, len(tr))
		for j := range dst {
			dst[j] = make([]gf64.Element, c.Rows())
		}
		c2, err := enc.CommitInto(dst, tr)
		require.NoError(t, err, "CommitInto")
		require.Equal(t, c.Root(), c2.Root(), "CommitInto's root against Commit's")
		o, err := c.Open([]int{open})
		if open < 0 || open >= c.Rows() {
			require.ErrorIs(t, err, ErrIndex, "Open(%d) of %d rows", open, c.Rows())
			return
		}
		require.NoError(t, err, "Open(%d) of %d rows", open, c.Rows())
		require.NoError(t, o.Verify(c.Root(), c.Rows(), nil), "Verify row %d", open)
	})
}
