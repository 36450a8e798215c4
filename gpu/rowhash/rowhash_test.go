package rowhash

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

// encode appends e's bytes as a leaf holds them, written with each type's
// own method.
func encode[E Element](b []byte, e E) []byte {
	switch v := any(e).(type) {
	case gf64.Element:
		return binary.LittleEndian.AppendUint64(b, uint64(v))
	case goldilocks.Element:
		x := v.Bytes()
		return append(b, x[:]...)
	case babybear.Element:
		x := v.Bytes()
		return append(b, x[:]...)
	case koalabear.Element:
		x := v.Bytes()
		return append(b, x[:]...)
	case fr.Element:
		x := v.Bytes()
		return append(b, x[:]...)
	}
	panic("unreachable")
}

// reference returns the nodes of the tree over the rows of cols (level 1
// first, root last), computed with crypto/sha256.
func reference[E Element](cols [][]E, leafTag, nodeTag byte) []byte {
	rows := len(cols[0])
	level := make([][]byte, rows)
	for i := range rows {
		msg := []byte{leafTag}
		for _, c := range cols {
			msg = encode(msg, c[i])
		}
		d := sha256.Sum256(msg)
		level[i] = d[:]
	}
	var out []byte
	for len(level) > 1 {
		next := make([][]byte, len(level)/2)
		for i := range next {
			msg := append(append([]byte{nodeTag}, level[2*i]...), level[2*i+1]...)
			d := sha256.Sum256(msg)
			next[i] = d[:]
			out = append(out, d[:]...)
		}
		level = next
	}
	return out
}

// random returns cols random columns of rows elements: full-range values
// (canonical field elements for the prime fields) with some edge values.
func random[E Element](r *rand.Rand, rows, cols int) [][]E {
	out := make([][]E, cols)
	for c := range out {
		out[c] = make([]E, rows)
		for i := range out[c] {
			p := &out[c][i]
			switch v := any(p).(type) {
			case *gf64.Element:
				*v = gf64.Element(r.Uint64())
				if i%7 == 3 {
					*v = ^gf64.Element(0)
				}
			case *goldilocks.Element:
				v.SetUint64(r.Uint64())
				if i%7 == 3 {
					v.SetInt64(-1)
				}
			case *babybear.Element:
				v.SetUint64(r.Uint64())
				if i%7 == 3 {
					v.SetInt64(-1)
				}
			case *koalabear.Element:
				v.SetUint64(r.Uint64())
				if i%7 == 3 {
					v.SetInt64(-1)
				}
			case *fr.Element:
				v.MustSetRandom()
				if i%7 == 3 {
					v.SetInt64(-1)
				}
			}
		}
	}
	return out
}

// nodesEqual asserts that the device's nodes equal crypto/sha256's,
// naming the first differing digest.
func nodesEqual(t *testing.T, want, got []byte, msg string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want), msg)
	digests := func(b []byte) [][DigestSize]byte {
		out := make([][DigestSize]byte, len(b)/DigestSize)
		for i := range out {
			copy(out[i][:], b[i*DigestSize:])
		}
		return out
	}
	testutil.RequireEqualSlices(t, digests(want), digests(got), append([]any{msg}, args...)...)
}

func testHasher[E Element](t *testing.T, d *gpu.Device) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, sh := range []struct{ rows, cols int }{{2, 1}, {4, 3}, {8, 17}, {1024, 5}, {1 << 14, 9}, {64, 40}} {
		cols := random[E](r, sh.rows, sh.cols)
		want := reference(cols, 0x00, 0x01)
		flat := make([]E, 0, sh.rows*sh.cols)
		for _, c := range cols {
			flat = append(flat, c...)
		}
		buf := gputest.Upload(t, d, flat)
		h, err := New[E](d, sh.rows, 0x00, 0x01)
		require.NoError(t, err)
		nodes := gputest.Alloc[byte](t, d, (sh.rows-1)*DigestSize)
		// Every split into groups gives the same tree.
		for _, g := range []int{sh.cols, 1, 2, 3} {
			h.Reset()
			for c0 := 0; c0 < sh.cols; c0 += g {
				nc := min(g, sh.cols-c0)
				v, err := buf.View(c0*sh.rows, nc*sh.rows)
				require.NoError(t, err)
				require.NoError(t, h.Absorb(nil, v))
			}
			require.Equal(t, sh.cols, h.Columns())
			require.NoError(t, h.Tree(nil, nodes))
			nodesEqual(t, want, gputest.Download(t, nodes), "%d rows × %d columns, groups of %d: nodes (digests) against crypto/sha256", sh.rows, sh.cols, g)
		}
		// Other tags change the tree.
		h2, err := New[E](d, sh.rows, 0x07, 0x09)
		require.NoError(t, err)
		require.NoError(t, h2.Absorb(nil, buf))
		require.NoError(t, h2.Tree(nil, nodes))
		nodesEqual(t, reference(cols, 0x07, 0x09), gputest.Download(t, nodes), "%d rows × %d columns, tags 7 and 9", sh.rows, sh.cols)
		require.NoError(t, h.Close())
		require.NoError(t, h2.Close())
	}
}

func TestHasher(t *testing.T) {
	d := gputest.Device(t)
	t.Run("gf64", func(t *testing.T) { testHasher[gf64.Element](t, d) })
	t.Run("goldilocks", func(t *testing.T) { testHasher[goldilocks.Element](t, d) })
	t.Run("babybear", func(t *testing.T) { testHasher[babybear.Element](t, d) })
	t.Run("koalabear", func(t *testing.T) { testHasher[koalabear.Element](t, d) })
	t.Run("bn254", func(t *testing.T) { testHasher[fr.Element](t, d) })
}

// TestArgs checks the argument errors that need no device.
func TestArgs(t *testing.T) {
	for _, rows := range []int{-2, 0, 1, 3, 6, 1000} {
		_, err := New[gf64.Element](nil, rows, 0, 1)
		assert.ErrorIs(t, err, gpu.ErrLength, "New(%d rows)", rows)
	}
	_, err := New[gf64.Element](nil, 4, 0, 1)
	assert.ErrorIs(t, err, gpu.ErrNoDevice, "New(nil device)")
	assert.Equal(t, 96<<20, StateBytes(1<<20))
}

// TestErrors checks the misuse errors on a device.
func TestErrors(t *testing.T) {
	d := gputest.Device(t)
	h, err := New[babybear.Element](d, 8, 0, 1)
	require.NoError(t, err)
	nodes := gputest.Alloc[byte](t, d, 7*DigestSize)
	assert.ErrorIs(t, h.Tree(nil, nodes), gpu.ErrLength, "Tree before any Absorb")
	odd := gputest.Alloc[babybear.Element](t, d, 12)
	assert.ErrorIs(t, h.Absorb(nil, odd), gpu.ErrLength, "Absorb of 12 elements for 8 rows")
	assert.ErrorIs(t, h.Absorb(nil, nil), gpu.ErrLength, "Absorb(nil)")
	good := gputest.Alloc[babybear.Element](t, d, 16)
	require.NoError(t, h.Absorb(nil, good))
	short := gputest.Alloc[byte](t, d, 6*DigestSize)
	assert.ErrorIs(t, h.Tree(nil, short), gpu.ErrLength, "Tree into 6 digests for 8 rows")
	freed, err := gpu.Alloc[babybear.Element](d, 8)
	require.NoError(t, err)
	require.NoError(t, freed.Free())
	assert.ErrorIs(t, h.Absorb(nil, freed), gpu.ErrClosed, "Absorb of a freed buffer")
	require.NoError(t, h.Close())
	assert.ErrorIs(t, h.Absorb(nil, good), gpu.ErrClosed, "Absorb after Close")
	assert.ErrorIs(t, h.Tree(nil, nodes), gpu.ErrClosed, "Tree after Close")
	assert.NoError(t, h.Close(), "second Close")
}

var report = flag.Bool("gpu.rhreport", false, "run TestReport: row-hasher times for BENCHMARKS.md")

// TestReport prints the device time of a Merkle tree over 2^22 rows × 32
// columns of each field: all columns absorbed at once, in groups of 8, and
// the tree alone (device events, warm-up, median of 5).
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -gpu.rhreport")
	}
	d := gputest.Device(t)
	fmt.Printf("\ndevice: %s\n\n| field | rows × cols | absorb all + tree | groups of 8 + tree | tree alone | SHA-256 compressions | G compressions/s | input GB/s |\n|---|---|---|---|---|---|---|---|\n", d.Info())
	reportField[gf64.Element](t, d, "GF(2^64)")
	reportField[goldilocks.Element](t, d, "Goldilocks")
	reportField[babybear.Element](t, d, "BabyBear")
	reportField[koalabear.Element](t, d, "KoalaBear")
	reportField[fr.Element](t, d, "BN254")
}

func reportField[E Element](t *testing.T, d *gpu.Device, name string) {
	const logRows, cols = 22, 32
	rows := 1 << logRows
	r := rand.New(rand.NewPCG(3, 4))
	flat := make([]E, rows*cols)
	for i := range flat {
		switch v := any(&flat[i]).(type) {
		case *gf64.Element:
			*v = gf64.Element(r.Uint64())
		case *goldilocks.Element:
			v.SetUint64(r.Uint64())
		case *babybear.Element:
			v.SetUint64(r.Uint64())
		case *koalabear.Element:
			v.SetUint64(r.Uint64())
		case *fr.Element:
			v.SetUint64(r.Uint64())
		}
	}
	buf := gputest.Upload(t, d, flat)
	h, err := New[E](d, rows, 0, 1)
	require.NoError(t, err)
	defer h.Close()
	nodes := gputest.Alloc[byte](t, d, (rows-1)*DigestSize)
	st, err := d.NewStream()
	require.NoError(t, err)
	defer st.Close()
	run := func(group int) func() error {
		return func() error {
			h.Reset()
			for c0 := 0; c0 < cols; c0 += group {
				v, err := buf.View(c0*rows, min(group, cols-c0)*rows)
				if err != nil {
					return err
				}
				if err := h.Absorb(st, v); err != nil {
					return err
				}
			}
			return h.Tree(st, nodes)
		}
	}
	all := gputest.DeviceTime(t, d, st, 1, 5, 1, run(cols))
	g8 := gputest.DeviceTime(t, d, st, 1, 5, 1, run(8))
	tree := gputest.DeviceTime(t, d, st, 1, 5, 1, func() error { return h.Tree(st, nodes) })
	var z E
	eb := int(unsafe.Sizeof(z))
	L := 1 + cols*eb
	comps := rows*((L+9+63)/64) + 2*(rows-1)
	fmt.Printf("| %s | 2^%d × %d | %.3f ms | %.3f ms | %.3f ms | %.1f M | %.1f | %.0f |\n", name, logRows, cols,
		all.Seconds()*1e3, g8.Seconds()*1e3, tree.Seconds()*1e3, float64(comps)/1e6,
		float64(comps)/all.Seconds()/1e9, float64(rows*cols*eb)/all.Seconds()/1e9)
}

// BenchmarkHasher is the tree over rows × 32 GF(2^64) columns on the device
// (all columns absorbed in one call, then Tree), synchronous.
func BenchmarkHasher(b *testing.B) {
	for _, logRows := range []int{16, 20, 22} {
		b.Run(fmt.Sprintf("gf64/rows=2^%d/cols=32", logRows), func(b *testing.B) {
			d := gputest.Device(b)
			rows, cols := 1<<logRows, 32
			buf := gputest.Upload(b, d, gputest.Words[gf64.Element](rows*cols, 9))
			h, err := New[gf64.Element](d, rows, 0, 1)
			require.NoError(b, err)
			defer h.Close()
			nodes := gputest.Alloc[byte](b, d, (rows-1)*DigestSize)
			b.SetBytes(int64(8 * rows * cols))
			b.ReportAllocs()
			for b.Loop() {
				h.Reset()
				require.NoError(b, h.Absorb(nil, buf))
				require.NoError(b, h.Tree(nil, nodes))
			}
			b.ReportMetric(gputest.MiB(StateBytes(rows)+nodes.Len()+buf.Bytes()), "peak-MiB")
		})
	}
}
