package gpu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// rhEncode appends e's bytes as a RowHasher leaf holds them, written with
// each type's own method.
func rhEncode[E Hashable](b []byte, e E) []byte {
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

// rhReference returns the nodes of the tree over the rows of cols (level 1
// first, root last), computed with crypto/sha256.
func rhReference[E Hashable](cols [][]E, leafTag, nodeTag byte) []byte {
	rows := len(cols[0])
	level := make([][]byte, rows)
	for i := range rows {
		msg := []byte{leafTag}
		for _, c := range cols {
			msg = rhEncode(msg, c[i])
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

// rhRandom returns cols random columns of rows elements: full-range values
// (canonical field elements for the prime fields) with some edge values.
func rhRandom[E Hashable](r *rand.Rand, rows, cols int) [][]E {
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

func testRowHasher[E Hashable](t *testing.T, d *Device) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, sh := range []struct{ rows, cols int }{{2, 1}, {4, 3}, {8, 17}, {1024, 5}, {1 << 14, 9}, {64, 40}} {
		cols := rhRandom[E](r, sh.rows, sh.cols)
		want := rhReference(cols, 0x00, 0x01)
		flat := make([]E, 0, sh.rows*sh.cols)
		for _, c := range cols {
			flat = append(flat, c...)
		}
		buf, err := Alloc[E](d, len(flat))
		if err != nil {
			t.Fatal(err)
		}
		if err := buf.Upload(flat); err != nil {
			t.Fatal(err)
		}
		h, err := NewRowHasher[E](d, sh.rows, 0x00, 0x01)
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := Alloc[byte](d, (sh.rows-1)*DigestSize)
		if err != nil {
			t.Fatal(err)
		}
		// Every split into groups gives the same tree.
		for _, g := range []int{sh.cols, 1, 2, 3} {
			h.Reset()
			for c0 := 0; c0 < sh.cols; c0 += g {
				nc := min(g, sh.cols-c0)
				v, err := buf.View(c0*sh.rows, nc*sh.rows)
				if err != nil {
					t.Fatal(err)
				}
				if err := h.Absorb(nil, v); err != nil {
					t.Fatal(err)
				}
			}
			if h.Columns() != sh.cols {
				t.Fatalf("Columns() = %d, want %d", h.Columns(), sh.cols)
			}
			if err := h.Tree(nil, nodes); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, nodes.Len())
			if err := nodes.Download(got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for got[i] == want[i] {
					i++
				}
				t.Fatalf("%d rows × %d columns, groups of %d: node %d differs from crypto/sha256", sh.rows, sh.cols, g, i/DigestSize)
			}
		}
		// Other tags change the tree.
		h2, err := NewRowHasher[E](d, sh.rows, 0x07, 0x09)
		if err != nil {
			t.Fatal(err)
		}
		if err := h2.Absorb(nil, buf); err != nil {
			t.Fatal(err)
		}
		if err := h2.Tree(nil, nodes); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, nodes.Len())
		if err := nodes.Download(got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, rhReference(cols, 0x07, 0x09)) {
			t.Fatalf("%d rows × %d columns, tags 7 and 9: tree differs from crypto/sha256", sh.rows, sh.cols)
		}
		for _, c := range []interface{ Close() error }{h, h2} {
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
		}
		nodes.Free()
		buf.Free()
	}
}

func TestRowHasher(t *testing.T) {
	d := testDevice(t)
	t.Run("gf64", func(t *testing.T) { testRowHasher[gf64.Element](t, d) })
	t.Run("goldilocks", func(t *testing.T) { testRowHasher[goldilocks.Element](t, d) })
	t.Run("babybear", func(t *testing.T) { testRowHasher[babybear.Element](t, d) })
	t.Run("koalabear", func(t *testing.T) { testRowHasher[koalabear.Element](t, d) })
	t.Run("bn254", func(t *testing.T) { testRowHasher[fr.Element](t, d) })
}

// TestRowHasherArgs checks the argument errors that need no device.
func TestRowHasherArgs(t *testing.T) {
	for _, rows := range []int{-2, 0, 1, 3, 6, 1000} {
		if _, err := NewRowHasher[gf64.Element](nil, rows, 0, 1); !errors.Is(err, ErrLength) {
			t.Errorf("NewRowHasher(%d rows): %v, want ErrLength", rows, err)
		}
	}
	if _, err := NewRowHasher[gf64.Element](nil, 4, 0, 1); !errors.Is(err, ErrNoDevice) {
		t.Errorf("NewRowHasher(nil device): %v, want ErrNoDevice", err)
	}
	if got, want := RowHasherBytes(1<<20), 96<<20; got != want {
		t.Errorf("RowHasherBytes(2^20) = %d, want %d", got, want)
	}
}

// TestRowHasherErrors checks the misuse errors on a device.
func TestRowHasherErrors(t *testing.T) {
	d := testDevice(t)
	h, err := NewRowHasher[babybear.Element](d, 8, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := Alloc[byte](d, 7*DigestSize)
	defer nodes.Free()
	if err := h.Tree(nil, nodes); !errors.Is(err, ErrLength) {
		t.Errorf("Tree before any Absorb: %v, want ErrLength", err)
	}
	odd, _ := Alloc[babybear.Element](d, 12)
	defer odd.Free()
	if err := h.Absorb(nil, odd); !errors.Is(err, ErrLength) {
		t.Errorf("Absorb of 12 elements for 8 rows: %v, want ErrLength", err)
	}
	if err := h.Absorb(nil, nil); !errors.Is(err, ErrLength) {
		t.Errorf("Absorb(nil): %v, want ErrLength", err)
	}
	good, _ := Alloc[babybear.Element](d, 16)
	defer good.Free()
	if err := h.Absorb(nil, good); err != nil {
		t.Fatal(err)
	}
	short, _ := Alloc[byte](d, 6*DigestSize)
	defer short.Free()
	if err := h.Tree(nil, short); !errors.Is(err, ErrLength) {
		t.Errorf("Tree into 6 digests for 8 rows: %v, want ErrLength", err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Absorb(nil, good); !errors.Is(err, ErrClosed) {
		t.Errorf("Absorb after Close: %v, want ErrClosed", err)
	}
	if err := h.Tree(nil, nodes); !errors.Is(err, ErrClosed) {
		t.Errorf("Tree after Close: %v, want ErrClosed", err)
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

var rhReport = flag.Bool("gpu.rhreport", false, "run TestRowHasherReport: RowHasher times for BENCHMARKS.md")

// TestRowHasherReport prints the device time of a Merkle tree over 2^22 rows
// × 32 columns of each field: all columns absorbed at once, in groups of 8,
// and the tree alone (device events, warm-up, median of 5).
func TestRowHasherReport(t *testing.T) {
	if !*rhReport {
		t.Skip("run with -gpu.rhreport")
	}
	d := testDevice(t)
	fmt.Printf("\ndevice: %s\n\n| field | rows × cols | absorb all + tree | groups of 8 + tree | tree alone | SHA-256 compressions | G compressions/s | input GB/s |\n|---|---|---|---|---|---|---|---|\n", d.Info())
	rowHasherReport[gf64.Element](t, d, "GF(2^64)")
	rowHasherReport[goldilocks.Element](t, d, "Goldilocks")
	rowHasherReport[babybear.Element](t, d, "BabyBear")
	rowHasherReport[koalabear.Element](t, d, "KoalaBear")
	rowHasherReport[fr.Element](t, d, "BN254")
}

func rowHasherReport[E Hashable](t *testing.T, d *Device, name string) {
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
	buf := mustAlloc[E](t, d, len(flat))
	defer buf.Free()
	must(t, buf.Upload(flat))
	h, err := NewRowHasher[E](d, rows, 0, 1)
	must(t, err)
	defer h.Close()
	nodes := mustAlloc[byte](t, d, (rows-1)*DigestSize)
	defer nodes.Free()
	st, err := d.NewStream()
	must(t, err)
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
	all := deviceTime(t, d, st, 1, 5, 1, run(cols))
	g8 := deviceTime(t, d, st, 1, 5, 1, run(8))
	tree := deviceTime(t, d, st, 1, 5, 1, func() error { return h.Tree(st, nodes) })
	var z E
	eb := int(unsafe.Sizeof(z))
	L := 1 + cols*eb
	comps := rows*((L+9+63)/64) + 2*(rows-1)
	fmt.Printf("| %s | 2^%d × %d | %.3f ms | %.3f ms | %.3f ms | %.1f M | %.1f | %.0f |\n", name, logRows, cols,
		all.Seconds()*1e3, g8.Seconds()*1e3, tree.Seconds()*1e3, float64(comps)/1e6,
		float64(comps)/all.Seconds()/1e9, float64(rows*cols*eb)/all.Seconds()/1e9)
}

// BenchmarkRowHasher is the tree over rows × 32 GF(2^64) columns on the
// device (all columns absorbed in one call, then Tree), synchronous.
func BenchmarkRowHasher(b *testing.B) {
	for _, logRows := range []int{16, 20, 22} {
		b.Run(fmt.Sprintf("gf64/rows=2^%d/cols=32", logRows), func(b *testing.B) {
			d := testDevice(b)
			rows, cols := 1<<logRows, 32
			buf := mustAlloc[gf64.Element](b, d, rows*cols)
			defer buf.Free()
			must(b, buf.Upload(randomWords[gf64.Element](rows*cols, 9)))
			h, err := NewRowHasher[gf64.Element](d, rows, 0, 1)
			must(b, err)
			defer h.Close()
			nodes := mustAlloc[byte](b, d, (rows-1)*DigestSize)
			defer nodes.Free()
			b.SetBytes(int64(8 * rows * cols))
			b.ReportAllocs()
			for b.Loop() {
				h.Reset()
				must(b, h.Absorb(nil, buf))
				must(b, h.Tree(nil, nodes))
			}
			b.ReportMetric(mib(RowHasherBytes(rows)+nodes.Len()+buf.Bytes()), "peak-MiB")
		})
	}
}
