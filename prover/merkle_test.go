package prover

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// newRepeatEncoder is a test encoder whose "LDE" repeats each column blowup
// times: enough to exercise chunking, streaming and the commitment.
func newRepeatEncoder[E Element](t testing.TB, opts ...Option) *core[E] {
	t.Helper()
	cfg, err := newConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
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
	b := []byte{leafTag}
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
			h.Write([]byte{nodeTag})
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
		if err != nil {
			t.Fatal(err)
		}
		enc := newRepeatEncoder[E](t, WithBlowup(tc.blowup), WithHash(tc.h), WithChunkColumns(2))
		c, err := enc.Commit(tr)
		if err != nil {
			t.Fatal(err)
		}
		h := tc.h
		if h == nil {
			h = sha256.New
		}
		if want := refRoot(c.LDE(), h); !bytes.Equal(c.Root(), want) {
			t.Fatalf("%v 2^%d×%d blowup %d: root %x, reference %x", FieldOf[E](), tc.logRows, tc.cols, tc.blowup, c.Root(), want)
		}
		// Every row opens and verifies.
		idx := make([]int, c.Rows())
		for i := range idx {
			idx[i] = i
		}
		if len(idx) > 64 {
			idx = []int{0, 1, 2, len(idx) / 2, len(idx) - 2, len(idx) - 1}
		}
		o, err := c.Open(idx)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Verify(c.Root(), c.Rows(), tc.h); err != nil {
			t.Fatalf("%v: %v", FieldOf[E](), err)
		}
	}
}

func TestRootAgainstReference(t *testing.T) {
	t.Run("gf64", testRootAgainstReference[gf64.Element])
	t.Run("goldilocks", testRootAgainstReference[goldilocks.Element])
	t.Run("babybear", testRootAgainstReference[babybear.Element])
	t.Run("koalabear", testRootAgainstReference[koalabear.Element])
	t.Run("bn254", testRootAgainstReference[fr.Element])
}

// tamperRows changes each byte of each opened row's leaf encoding in turn
// (through the element's own byte encoding) and checks that Verify fails.
func testTamper[E Element](t *testing.T) {
	tr, err := RandomTrace[E](4, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	enc := newRepeatEncoder[E](t, WithBlowup(2))
	c, err := enc.Commit(tr)
	if err != nil {
		t.Fatal(err)
	}
	root := c.Root()
	o, err := c.Open([]int{5, 0, 31})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Verify(root, c.Rows(), nil); err != nil {
		t.Fatal(err)
	}
	// Rows: change one element to every other value that differs in one bit of
	// its canonical encoding.
	for k := range o.Rows {
		for j := range o.Rows[k] {
			orig := o.Rows[k][j]
			for _, v := range neighbours(orig) {
				o.Rows[k][j] = v
				if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
					t.Fatalf("row %d col %d changed to %v: Verify gave %v", o.Indices[k], j, v, err)
				}
			}
			o.Rows[k][j] = orig
		}
	}
	// Paths: flip every bit of every digest.
	for k := range o.Paths {
		for l := range o.Paths[k] {
			for b := range o.Paths[k][l] {
				for bit := range 8 {
					o.Paths[k][l][b] ^= 1 << bit
					if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
						t.Fatalf("path %d digest %d byte %d bit %d: Verify gave %v", k, l, b, bit, err)
					}
					o.Paths[k][l][b] ^= 1 << bit
				}
			}
		}
	}
	// Root, indices, swapped rows, truncated and extended paths.
	for b := range root {
		r2 := append([]byte(nil), root...)
		r2[b] ^= 0x80
		if err := o.Verify(r2, c.Rows(), nil); !errors.Is(err, ErrVerify) {
			t.Fatalf("root byte %d: %v", b, err)
		}
	}
	o.Indices[0] ^= 1
	if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
		t.Fatalf("wrong index: %v", err)
	}
	o.Indices[0] ^= 1
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
		t.Fatalf("swapped rows: %v", err)
	}
	o.Rows[0], o.Rows[1] = o.Rows[1], o.Rows[0]
	p := o.Paths[0]
	o.Paths[0] = p[:len(p)-1]
	if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
		t.Fatalf("short path: %v", err)
	}
	o.Paths[0] = append(append([][]byte(nil), p...), make([]byte, 32))
	if err := o.Verify(root, c.Rows(), nil); !errors.Is(err, ErrVerify) {
		t.Fatalf("long path: %v", err)
	}
	o.Paths[0] = p
	o.Rows[0] = o.Rows[0][:2]
	if err := o.Verify(root, c.Rows(), nil); err == nil {
		t.Fatalf("short row accepted")
	}
	// A different hash rejects.
	if err := o.Verify(root, c.Rows(), sha512.New); err == nil {
		t.Fatalf("wrong hash accepted")
	}
}

// neighbours returns elements whose canonical encodings differ from v's in
// one bit each (every bit for which the result is still a field element).
func neighbours[E Element](v E) []E {
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
	enc := newRepeatEncoder[gf64.Element](t)
	for name, tr := range map[string]Trace[gf64.Element]{
		"empty":     nil,
		"no rows":   {{}},
		"ragged":    {make([]gf64.Element, 4), make([]gf64.Element, 2)},
		"not pow 2": {make([]gf64.Element, 6)},
	} {
		if _, err := enc.Commit(tr); !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := enc.Encode(tr); !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := enc.Commit(nil); !errors.Is(err, ErrShape) {
		t.Errorf("nil source: %v", err)
	}
	for _, b := range []int{0, 1, 3, 32, -4} {
		if _, err := newConfig([]Option{WithBlowup(b)}); !errors.Is(err, ErrConfig) {
			t.Errorf("blowup %d: %v", b, err)
		}
	}
	if _, err := newConfig([]Option{WithHash(func() hash.Hash { return nil })}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil hash: %v", err)
	}
	if _, err := newConfig([]Option{WithChunkColumns(0)}); !errors.Is(err, ErrConfig) {
		t.Errorf("chunk 0: %v", err)
	}
	tr, _ := RandomTrace[gf64.Element](3, 2, 1)
	c, err := enc.Commit(tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range [][]int{{-1}, {32}, {0, 1 << 40}} {
		if _, err := c.Open(idx); !errors.Is(err, ErrIndex) {
			t.Errorf("Open(%v): %v", idx, err)
		}
	}
	o, _ := c.Open([]int{3})
	if err := Verify(c.Root(), c.Rows(), []int{32}, o.Rows, o.Paths, nil); !errors.Is(err, ErrIndex) {
		t.Errorf("Verify index 32: %v", err)
	}
	if err := Verify(c.Root(), 24, o.Indices, o.Rows, o.Paths, nil); !errors.Is(err, ErrShape) {
		t.Errorf("Verify 24 rows: %v", err)
	}
	if err := Verify[gf64.Element](c.Root(), c.Rows(), o.Indices, nil, o.Paths, nil); !errors.Is(err, ErrShape) {
		t.Errorf("Verify no rows: %v", err)
	}
	if err := Verify(c.Root(), c.Rows(), o.Indices, o.Rows, o.Paths, nil); err != nil {
		t.Errorf("Verify: %v", err)
	}
	// Opening nothing is fine, but verifying nothing is not: a verifier
	// that forgets its openings must not pass.
	o, err = c.Open(nil)
	if err != nil {
		t.Errorf("empty opening: %v", err)
	}
	if err := o.Verify(c.Root(), c.Rows(), nil); !errors.Is(err, ErrVerify) {
		t.Errorf("Verify of no rows: %v", err)
	}
}

func TestProgress(t *testing.T) {
	var got []Progress
	enc := newRepeatEncoder[gf64.Element](t, WithChunkColumns(3), WithProgress(func(p Progress) { got = append(got, p) }))
	tr, _ := RandomTrace[gf64.Element](12, 7, 1)
	if _, err := enc.Commit(tr); err != nil {
		t.Fatal(err)
	}
	var lastEnc, lastCommit Progress
	for _, p := range got {
		switch p.Phase {
		case "encode":
			if p.Done < lastEnc.Done {
				t.Fatalf("encode progress went back: %+v", got)
			}
			lastEnc = p
		case "commit":
			if p.Done < lastCommit.Done {
				t.Fatalf("commit progress went back: %+v", got)
			}
			lastCommit = p
		}
	}
	if lastEnc != (Progress{"encode", 7, 7}) || lastCommit != (Progress{"commit", 1 << 14, 1 << 14}) {
		t.Fatalf("last reports %+v %+v", lastEnc, lastCommit)
	}
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
	src := &streamSource{logRows: 6, cols: 10}
	enc := newRepeatEncoder[gf64.Element](t, WithChunkColumns(4))
	c, err := enc.Commit(src)
	if err != nil {
		t.Fatal(err)
	}
	if src.reads != 3 {
		t.Fatalf("%d reads, want 3", src.reads)
	}
	tr := make(Trace[gf64.Element], 10)
	for j := range tr {
		tr[j] = make([]gf64.Element, 64)
	}
	if err := (&streamSource{logRows: 6, cols: 10}).ReadColumns(0, tr); err != nil {
		t.Fatal(err)
	}
	c2, err := enc.Commit(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.Root(), c2.Root()) {
		t.Fatal("streamed and in-memory roots differ")
	}
}

func FuzzVerify(f *testing.F) {
	tr, _ := RandomTrace[gf64.Element](3, 2, 5)
	cfg, _ := newConfig(nil)
	// The stand-in LDE tags each row with its index so that no two rows are
	// equal: with repeated rows, a genuine opening of one row would also be a
	// valid opening of its copies, and the oracle below would misjudge it.
	enc := &core[gf64.Element]{cfg: cfg, lde: func(_ int, dst, msgs [][]gf64.Element) error {
		for j := range dst {
			for i := range dst[j] {
				dst[j][i] = msgs[j][i%len(msgs[j])] ^ gf64.Element(i)<<32
			}
		}
		return nil
	}}
	c, err := enc.Commit(tr)
	if err != nil {
		f.Fatal(err)
	}
	root := c.Root()
	o, _ := c.Open([]int{6})
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
		err := Verify(root, rows, []int{idx}, [][]gf64.Element{row}, [][][]byte{path}, nil)
		genuine := idx == 6 && rows == 32 && row[0] == o.Rows[0][0] && row[1] == o.Rows[0][1] &&
			bytes.Equal(flat(path), flat(o.Paths[0]))
		if genuine != (err == nil) {
			t.Fatalf("idx %d rows %d: genuine %v, Verify %v", idx, rows, genuine, err)
		}
	})
}

func TestEncodeInto(t *testing.T) {
	enc, _ := New[gf64.Element](WithBlowup(2))
	tr, _ := RandomTrace[gf64.Element](5, 3, 4)
	want, err := enc.Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := RandomTrace[gf64.Element](6, 3, 5)
	if err := enc.EncodeInto(dst, tr); err != nil {
		t.Fatal(err)
	}
	for c := range dst {
		if !equal(dst[c], want[c]) {
			t.Fatalf("column %d differs from Encode", c)
		}
	}
	for name, d := range map[string]Trace[gf64.Element]{
		"too few columns": dst[:2],
		"short column":    {dst[0], dst[1], dst[2][:63]},
	} {
		if err := enc.EncodeInto(d, tr); !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := enc.EncodeInto(dst, nil); !errors.Is(err, ErrShape) {
		t.Errorf("nil source: %v", err)
	}
}

func TestCommitInto(t *testing.T) {
	enc, _ := New[gf64.Element](WithBlowup(2))
	tr, _ := RandomTrace[gf64.Element](5, 3, 4)
	want, err := enc.Commit(tr)
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := RandomTrace[gf64.Element](6, 3, 5)
	got, err := enc.CommitInto(dst, tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Root(), want.Root()) {
		t.Fatal("CommitInto's root differs from Commit's")
	}
	for c := range dst {
		if !equal(dst[c], want.LDE()[c]) || &got.LDE()[c][0] != &dst[c][0] {
			t.Fatalf("column %d: not Commit's LDE in the caller's memory", c)
		}
	}
	if got.Timings.Encode <= 0 || got.Timings.Commit <= 0 {
		t.Errorf("timings %+v", got.Timings)
	}
	for name, d := range map[string]Trace[gf64.Element]{
		"too few columns": dst[:2],
		"short column":    {dst[0], dst[1], dst[2][:63]},
	} {
		if _, err := enc.CommitInto(d, tr); !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := enc.CommitInto(dst, nil); !errors.Is(err, ErrShape) {
		t.Errorf("nil source: %v", err)
	}
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
		if err != nil {
			t.Fatal(err)
		}
		c, err := enc.Commit(tr)
		if err != nil {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("Commit: %v", err)
			}
			return
		}
		// CommitInto into buffers of the LDE's shape gives the same root.
		dst := make([][]gf64.Element, len(tr))
		for j := range dst {
			dst[j] = make([]gf64.Element, c.Rows())
		}
		c2, err := enc.CommitInto(dst, tr)
		if err != nil {
			t.Fatalf("CommitInto: %v", err)
		}
		if !bytes.Equal(c2.Root(), c.Root()) {
			t.Fatal("CommitInto's root differs from Commit's")
		}
		o, err := c.Open([]int{open})
		if open < 0 || open >= c.Rows() {
			if !errors.Is(err, ErrIndex) {
				t.Fatalf("Open(%d) of %d rows: %v", open, c.Rows(), err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Verify(c.Root(), c.Rows(), nil); err != nil {
			t.Fatal(err)
		}
	})
}
