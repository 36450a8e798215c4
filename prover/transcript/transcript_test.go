package transcript_test

import (
	"context"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

func mustNew(t testing.TB, label string, opts ...transcript.Option) *transcript.Transcript {
	t.Helper()
	tr, err := transcript.New(label, opts...)
	require.NoError(t, err)
	return tr
}

// show prints an element's coordinates as canonical integers (GF(2^64)
// coordinates in hexadecimal).
func show(x any) string {
	switch v := x.(type) {
	case bbext.E4:
		return fmt.Sprint(v.B0.A0.String(), " ", v.B0.A1.String(), " ", v.B1.A0.String(), " ", v.B1.A1.String())
	case kbext.E4:
		return fmt.Sprint(v.B0.A0.String(), " ", v.B0.A1.String(), " ", v.B1.A0.String(), " ", v.B1.A1.String())
	case glext.E2:
		return fmt.Sprint(v.A0.String(), " ", v.A1.String())
	case gf128.Element:
		return fmt.Sprintf("%#016x %#016x", uint64(v.A0), uint64(v.A1))
	case fr.Element:
		return v.String()
	}
	return fmt.Sprint(x)
}

// katAbsorbs is the fixed sequence of absorbs of the known-answer vectors.
func katAbsorbs(tr *transcript.Transcript) {
	root := make([]byte, 32)
	for i := range root {
		root[i] = byte(i)
	}
	tr.AbsorbRoot("trace root", root)
	tr.AbsorbBytes("claim", []byte("hello"))
	transcript.Absorb(tr, "gf64", gf64.Element(1), gf64.Element(2), gf64.Element(3))
	transcript.Absorb(tr, "babybear", babybear.NewElement(5))
}

func drawShow[X transcript.Field](t *testing.T, tr *transcript.Transcript, tag string) string {
	x, err := transcript.Draw[X](tr, tag)
	require.NoError(t, err)
	return show(x)
}

// TestKnownAnswers pins the vectors of the package documentation: after
// katAbsorbs on New("gfpoly KAT") with SHA-256, the state, one draw of
// each challenge field, 4 indices below 1000, a grinding nonce at 8 bits
// and the final state.
func TestKnownAnswers(t *testing.T) {
	tr := mustNew(t, "gfpoly KAT")
	assert.Equal(t, "27bc75149018aacda8fed35a97a53db572d3981194cab7e19070b3fd49ed4f18", hex.EncodeToString(tr.State()), "initial state")
	katAbsorbs(tr)
	assert.Equal(t, "318c15083a9cd8bc9cbdd9a2df4c28fe67c5cbdd6d15df154113f56393a6bab1", hex.EncodeToString(tr.State()), "state after the absorbs")
	got := map[string]string{
		"gf128":      drawShow[gf128.Element](t, tr, "alpha"),
		"goldilocks": drawShow[glext.E2](t, tr, "alpha"),
		"babybear":   drawShow[bbext.E4](t, tr, "alpha"),
		"koalabear":  drawShow[kbext.E4](t, tr, "alpha"),
		"bn254":      drawShow[fr.Element](t, tr, "alpha"),
	}
	idx, err := tr.DrawIndices("queries", 1000, 4)
	require.NoError(t, err)
	got["indices"] = fmt.Sprint(idx)
	nonce, err := tr.Grind(8)
	require.NoError(t, err)
	got["nonce"] = fmt.Sprint(nonce)
	got["state"] = hex.EncodeToString(tr.State())
	want := map[string]string{
		"gf128":      "0xef7827eb839909cc 0xf1580d2925701465",
		"goldilocks": "16582380096717179018 3214980837159197580",
		"babybear":   "1265977768 664058037 1932410255 706642597",
		"koalabear":  "827005630 635467015 1362440131 1008477350",
		"bn254":      "8304884579479090951473610760167607946058841969468502969941600644408275291502",
		"indices":    "[18 242 540 812]",
		"nonce":      "187",
		"state":      "a46681458f2367078bbf4a669102df64956e80949eb9c97bd66fa6d3bf4e63b7",
	}
	assert.Equal(t, want, got)
}

// TestReference replays random sequences of absorbs and draws on the
// package and on ref, the byte format rewritten from the documentation,
// and compares every state and every draw (prover.DrawExt reading ref's
// stream for the challenge fields).
func TestReference(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for _, hc := range []struct {
		name string
		h    func() hash.Hash
	}{{"sha256", sha256.New}, {"md5", md5.New}, {"sha512", sha512.New}, {"sha3-256", func() hash.Hash { return sha3.New256() }}} {
		t.Run(hc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			tr := mustNew(t, "ref "+hc.name, transcript.WithHash(hc.h))
			rf := newRef(hc.h, "ref "+hc.name)
			require.Equal(t, rf.state, tr.State())
			for i := range rounds {
				tag := strings.Repeat("t", r.IntN(3))
				msg := make([]byte, r.IntN(80))
				for j := range msg {
					msg[j] = byte(r.Uint32())
				}
				switch op := r.IntN(12); op {
				case 0:
					tr.AbsorbBytes(tag, msg)
					rf.absorb(0x00, tag, msg)
				case 1:
					tr.AbsorbRoot(tag, msg)
					rf.absorb(0x01, tag, msg)
				case 2:
					v := make([]gf64.Element, r.IntN(4))
					var m []byte
					for j := range v {
						v[j] = gf64.Element(r.Uint64())
						m = binary.LittleEndian.AppendUint64(m, uint64(v[j]))
					}
					transcript.Absorb(tr, tag, v...)
					rf.absorb(0x10, tag, m)
				case 3:
					v := make([]goldilocks.Element, r.IntN(4))
					var m []byte
					for j := range v {
						v[j] = goldilocks.NewElement(r.Uint64())
						m = binary.BigEndian.AppendUint64(m, v[j].Uint64())
					}
					transcript.Absorb(tr, tag, v...)
					rf.absorb(0x11, tag, m)
				case 4:
					v := make([]bbext.E4, r.IntN(3))
					var m []byte
					for j := range v {
						c := [4]uint32{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}
						v[j].B0.A0.SetUint64(uint64(c[0]))
						v[j].B0.A1.SetUint64(uint64(c[1]))
						v[j].B1.A0.SetUint64(uint64(c[2]))
						v[j].B1.A1.SetUint64(uint64(c[3]))
						for _, x := range []babybear.Element{v[j].B0.A0, v[j].B0.A1, v[j].B1.A0, v[j].B1.A1} {
							m = binary.BigEndian.AppendUint32(m, uint32(x.Uint64()))
						}
					}
					transcript.Absorb(tr, tag, v...)
					rf.absorb(0x22, tag, m)
				case 5:
					var v fr.Element
					v.SetRandom()
					b := v.Bytes()
					transcript.Absorb(tr, tag, v)
					rf.absorb(0x14, tag, b[:])
				case 6:
					v := gf128.Element{A0: gf64.Element(r.Uint64()), A1: gf64.Element(r.Uint64())}
					b := v.Bytes()
					transcript.Absorb(tr, tag, v)
					rf.absorb(0x20, tag, b[:])
				case 7:
					checkDraw[gf128.Element](t, tr, rf, 0x20, tag)
					checkDraw[glext.E2](t, tr, rf, 0x21, tag)
				case 8:
					checkDraw[bbext.E4](t, tr, rf, 0x22, tag)
					checkDraw[kbext.E4](t, tr, rf, 0x23, tag)
				case 9:
					checkDraw[fr.Element](t, tr, rf, 0x14, tag)
				case 10:
					n, count := 1+r.IntN(1000), r.IntN(20)
					got, err := tr.DrawIndices(tag, n, count)
					require.NoError(t, err)
					require.Equal(t, rf.indices(tag, n, count), got)
				case 11:
					n := r.IntN(100)
					got, err := tr.DrawBytes(tag, n)
					require.NoError(t, err)
					h := header(0x00, tag, uint64(n))
					want := make([]byte, n)
					rf.stream(h).Read(want)
					rf.ratchet(h)
					require.Equal(t, want, got)
				}
				require.Equal(t, rf.state, tr.State(), "round %d", i)
			}
			nonce, err := tr.Grind(6)
			require.NoError(t, err)
			for n := range nonce {
				require.False(t, rf.grindOK(6, n))
			}
			require.True(t, rf.grindOK(6, nonce))
			rf.absorbNonce(6, nonce)
			require.Equal(t, rf.state, tr.State())
		})
	}
}

// checkDraw compares Draw[X] with prover.DrawExt[X] reading ref's stream
// for the same draw.
func checkDraw[X interface {
	transcript.Field
	prover.Ext
}](t *testing.T, tr *transcript.Transcript, rf *ref, kind byte, tag string) {
	t.Helper()
	h := header(kind, tag)
	want, err := prover.DrawExt[X](rf.stream(h))
	require.NoError(t, err)
	rf.ratchet(h)
	got, err := transcript.Draw[X](tr, tag)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// skewed is SHA-256 with the first 8 bytes of every other output set to
// 0xff and byte 8's top bits set, so that every field's sampler rejects
// words (Goldilocks' once in 2^32 otherwise).
type skewed struct{ hash.Hash }

func (s skewed) Sum(b []byte) []byte {
	d := s.Hash.Sum(nil)
	if d[31]&1 == 0 {
		for i := range 8 {
			d[i] = 0xff
		}
		d[8] |= 0xc0
	}
	return append(b, d...)
}

// TestDrawExtEquality draws each challenge field from many transcripts,
// with SHA-256 and with a hash that forces rejections, and compares with
// prover.DrawExt on the same stream.
func TestDrawExtEquality(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, hc := range []struct {
		name string
		h    func() hash.Hash
	}{{"sha256", sha256.New}, {"skewed", func() hash.Hash { return skewed{sha256.New()} }}} {
		t.Run(hc.name, func(t *testing.T) {
			for i := range n {
				label := fmt.Sprint("equality ", i)
				tr := mustNew(t, label, transcript.WithHash(hc.h))
				rf := newRef(hc.h, label)
				tag := fmt.Sprint(i % 7)
				checkDraw[gf128.Element](t, tr, rf, 0x20, tag)
				checkDraw[glext.E2](t, tr, rf, 0x21, tag)
				checkDraw[bbext.E4](t, tr, rf, 0x22, tag)
				checkDraw[kbext.E4](t, tr, rf, 0x23, tag)
				checkDraw[fr.Element](t, tr, rf, 0x14, tag)
				require.Equal(t, rf.state, tr.State())
			}
		})
	}
}

// TestDrawTraceFields: a trace field's draw is the first coordinate of the
// challenge field's sampler, under its own kind byte.
func TestDrawTraceFields(t *testing.T) {
	tr := mustNew(t, "trace fields")
	rf := newRef(sha256.New, "trace fields")
	one := func(kind byte, size int, mask, q uint64) uint64 {
		h := header(kind, "x")
		s := rf.stream(h)
		for {
			var b [8]byte
			s.Read(b[:size])
			w := binary.LittleEndian.Uint64(b[:]) & mask
			if q == 0 || w < q {
				rf.ratchet(h)
				return w
			}
		}
	}
	a, err := transcript.Draw[gf64.Element](tr, "x")
	require.NoError(t, err)
	assert.Equal(t, one(0x10, 8, ^uint64(0), 0), uint64(a))
	b, err := transcript.Draw[goldilocks.Element](tr, "x")
	require.NoError(t, err)
	assert.Equal(t, one(0x11, 8, ^uint64(0), goldilocks.Modulus().Uint64()), b.Uint64())
	c, err := transcript.Draw[babybear.Element](tr, "x")
	require.NoError(t, err)
	assert.Equal(t, one(0x12, 4, 1<<31-1, babybear.Modulus().Uint64()), c.Uint64())
	d, err := transcript.Draw[koalabear.Element](tr, "x")
	require.NoError(t, err)
	assert.Equal(t, one(0x13, 4, 1<<31-1, koalabear.Modulus().Uint64()), d.Uint64())
	require.Equal(t, rf.state, tr.State())
}

// TestDomainSeparation runs a table of call sequences, each different from
// the others in one absorb, tag, length, kind or draw, and requires all
// final states and all next draws to differ.
func TestDomainSeparation(t *testing.T) {
	type seq struct {
		name  string
		label string
		calls func(tr *transcript.Transcript)
	}
	bb := func(v ...uint64) []babybear.Element {
		out := make([]babybear.Element, len(v))
		for i := range v {
			out[i].SetUint64(v[i])
		}
		return out
	}
	kb := func(v ...uint64) []koalabear.Element {
		out := make([]koalabear.Element, len(v))
		for i := range v {
			out[i].SetUint64(v[i])
		}
		return out
	}
	var e4 bbext.E4
	e4.B0.A0.SetUint64(1)
	e4.B0.A1.SetUint64(2)
	e4.B1.A0.SetUint64(3)
	e4.B1.A1.SetUint64(4)
	seqs := []seq{
		{"nothing", "L", func(tr *transcript.Transcript) {}},
		{"other label", "M", func(tr *transcript.Transcript) {}},
		{"label ‖ tag moved", "", func(tr *transcript.Transcript) { tr.AbsorbBytes("L", nil) }},
		{"bytes a:nil", "L", func(tr *transcript.Transcript) { tr.AbsorbBytes("a", nil) }},
		{"bytes :a", "L", func(tr *transcript.Transcript) { tr.AbsorbBytes("", []byte("a")) }},
		{"bytes a:b", "L", func(tr *transcript.Transcript) { tr.AbsorbBytes("a", []byte("b")) }},
		{"bytes ab:", "L", func(tr *transcript.Transcript) { tr.AbsorbBytes("ab", nil) }},
		{"bytes a:b twice", "L", func(tr *transcript.Transcript) {
			tr.AbsorbBytes("a", []byte("b"))
			tr.AbsorbBytes("a", []byte("b"))
		}},
		{"bytes a:bb", "L", func(tr *transcript.Transcript) { tr.AbsorbBytes("a", []byte("bb")) }},
		{"bytes a:b, :b", "L", func(tr *transcript.Transcript) {
			tr.AbsorbBytes("a", []byte("b"))
			tr.AbsorbBytes("", []byte("b"))
		}},
		{"root a:b", "L", func(tr *transcript.Transcript) { tr.AbsorbRoot("a", []byte("b")) }},
		{"gf64 a:0x62", "L", func(tr *transcript.Transcript) { transcript.Absorb(tr, "a", gf64.Element(0x62)) }},
		{"bytes a:le(0x62)", "L", func(tr *transcript.Transcript) {
			tr.AbsorbBytes("a", binary.LittleEndian.AppendUint64(nil, 0x62))
		}},
		{"gf64 a:()", "L", func(tr *transcript.Transcript) { transcript.Absorb[gf64.Element](tr, "a") }},
		{"goldilocks a:0x62", "L", func(tr *transcript.Transcript) {
			transcript.Absorb(tr, "a", goldilocks.NewElement(0x62))
		}},
		{"babybear a:1,2", "L", func(tr *transcript.Transcript) { transcript.Absorb(tr, "a", bb(1, 2)...) }},
		{"koalabear a:1,2", "L", func(tr *transcript.Transcript) { transcript.Absorb(tr, "a", kb(1, 2)...) }},
		{"babybear a:1,2,3,4", "L", func(tr *transcript.Transcript) { transcript.Absorb(tr, "a", bb(1, 2, 3, 4)...) }},
		{"babybear a:1,2 a:3,4", "L", func(tr *transcript.Transcript) {
			transcript.Absorb(tr, "a", bb(1, 2)...)
			transcript.Absorb(tr, "a", bb(3, 4)...)
		}},
		{"babybear E4 a:(1,2,3,4)", "L", func(tr *transcript.Transcript) { transcript.Absorb(tr, "a", e4) }},
		{"draw gf128 a", "L", func(tr *transcript.Transcript) { _, _ = transcript.Draw[gf128.Element](tr, "a") }},
		{"draw gf128 b", "L", func(tr *transcript.Transcript) { _, _ = transcript.Draw[gf128.Element](tr, "b") }},
		{"draw goldilocks E2 a", "L", func(tr *transcript.Transcript) { _, _ = transcript.Draw[glext.E2](tr, "a") }},
		{"draw gf128 a twice", "L", func(tr *transcript.Transcript) {
			_, _ = transcript.Draw[gf128.Element](tr, "a")
			_, _ = transcript.Draw[gf128.Element](tr, "a")
		}},
		{"indices a 8,1", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawIndices("a", 8, 1) }},
		{"indices a 16,1", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawIndices("a", 16, 1) }},
		{"indices a 8,2", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawIndices("a", 8, 2) }},
		{"indices a 8,0", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawIndices("a", 8, 0) }},
		{"draw bytes a 0", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawBytes("a", 0) }},
		{"draw bytes a 16", "L", func(tr *transcript.Transcript) { _, _ = tr.DrawBytes("a", 16) }},
		{"grind 0", "L", func(tr *transcript.Transcript) { _, _ = tr.Grind(0) }},
		{"grind 1", "L", func(tr *transcript.Transcript) { _, _ = tr.Grind(1) }},
		{"grind 0 nonce 1", "L", func(tr *transcript.Transcript) { _ = tr.CheckGrind(0, 1) }},
		{"absorb then draw", "L", func(tr *transcript.Transcript) {
			tr.AbsorbBytes("a", []byte("b"))
			_, _ = transcript.Draw[gf128.Element](tr, "a")
		}},
		{"draw then absorb", "L", func(tr *transcript.Transcript) {
			_, _ = transcript.Draw[gf128.Element](tr, "a")
			tr.AbsorbBytes("a", []byte("b"))
		}},
	}
	states := map[string]string{}
	draws := map[string]string{}
	for _, s := range seqs {
		tr := mustNew(t, s.label)
		s.calls(tr)
		require.NoError(t, tr.Err(), s.name)
		st := hex.EncodeToString(tr.State())
		x, err := transcript.Draw[gf128.Element](tr, "next")
		require.NoError(t, err)
		d := show(x)
		if prev, ok := states[st]; ok {
			t.Errorf("%q and %q give the same state", prev, s.name)
		}
		if prev, ok := draws[d]; ok {
			t.Errorf("%q and %q give the same draw", prev, s.name)
		}
		states[st], draws[d] = s.name, s.name
	}
	// Absorbing nil and an empty message is the same call.
	a, b := mustNew(t, "L"), mustNew(t, "L")
	a.AbsorbBytes("a", nil)
	b.AbsorbBytes("a", []byte{})
	assert.Equal(t, a.State(), b.State())
}

// chiSquare returns Σ (observed − expected)² / expected over the counts.
func chiSquare(counts []int, total int) float64 {
	e := float64(total) / float64(len(counts))
	var s float64
	for _, c := range counts {
		d := float64(c) - e
		s += d * d / e
	}
	return s
}

// TestDrawIndicesUniform is a chi-square test of DrawIndices for small n,
// powers of two and not (n = 6 rejects a quarter of the words, n = 5
// three eighths): a sampler that reduced the masked word mod n would put
// twice the weight on 0 and 1 for n = 6 and fail by far. The bound is the
// 0.1% quantile of χ² with n−1 degrees of freedom; the transcript is fixed,
// so the test is deterministic.
func TestDrawIndicesUniform(t *testing.T) {
	quantile := map[int]float64{2: 10.83, 3: 13.82, 5: 18.47, 6: 20.52, 7: 22.46, 8: 24.32, 12: 31.26, 16: 37.70}
	total := 96000
	if testing.Short() {
		total = 24000
	}
	tr := mustNew(t, "uniformity")
	for n, q := range quantile {
		idx, err := tr.DrawIndices("q", n, total)
		require.NoError(t, err)
		counts := make([]int, n)
		for _, i := range idx {
			require.True(t, 0 <= i && i < n)
			counts[i]++
		}
		x := chiSquare(counts, total)
		assert.Less(t, x, q, "n = %d: χ² = %.2f, counts %v", n, x, counts)
	}
	// A single index below n = 1 is always 0, and a large n reaches the
	// whole range's top half.
	idx, err := tr.DrawIndices("one", 1, 10)
	require.NoError(t, err)
	assert.Equal(t, make([]int, 10), idx)
	big := 3 << 40
	idx, err = tr.DrawIndices("big", big, 200)
	require.NoError(t, err)
	top := 0
	for _, i := range idx {
		require.True(t, 0 <= i && i < big)
		if i >= big/2 {
			top++
		}
	}
	assert.InDelta(t, 100, top, 40)
}

func TestDrawArguments(t *testing.T) {
	tr := mustNew(t, "args")
	st := tr.State()
	_, err := tr.DrawIndices("a", 0, 1)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.DrawIndices("a", 8, -1)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.DrawIndices("a", 8, transcript.MaxIndices+1)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.DrawBytes("a", -1)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.DrawBytes("a", transcript.MaxDrawBytes+1)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.Grind(33)
	require.ErrorIs(t, err, transcript.ErrParam)
	_, err = tr.Grind(-1)
	require.ErrorIs(t, err, transcript.ErrParam)
	require.ErrorIs(t, tr.CheckGrind(33, 0), transcript.ErrParam)
	assert.Equal(t, st, tr.State(), "refused arguments leave the state")
	require.NoError(t, tr.Err())
	_, err = transcript.New("a", transcript.WithGrindLimit(0))
	require.ErrorIs(t, err, transcript.ErrParam)
}

// TestGrind: the nonce is the smallest that meets the condition, the same
// for every GOMAXPROCS, and CheckGrind accepts it and continues alike.
func TestGrind(t *testing.T) {
	bits := 14
	if testing.Short() {
		bits = 10
	}
	base := mustNew(t, "grind")
	base.AbsorbBytes("x", []byte("y"))
	rf := newRef(sha256.New, "grind")
	rf.absorb(0x00, "x", []byte("y"))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var nonce uint64
	var state []byte
	for _, procs := range []int{1, 2, 3, 8, 16} {
		runtime.GOMAXPROCS(procs)
		tr := base.Clone()
		n, err := tr.Grind(bits)
		require.NoError(t, err)
		if state == nil {
			nonce, state = n, tr.State()
		}
		require.Equal(t, nonce, n, "GOMAXPROCS %d", procs)
		require.Equal(t, state, tr.State(), "GOMAXPROCS %d", procs)
	}
	require.True(t, rf.grindOK(bits, nonce))
	for n := range nonce {
		if rf.grindOK(bits, n) {
			t.Fatalf("nonce %d < %d also meets %d bits", n, nonce, bits)
		}
	}
	// The verifier.
	v := base.Clone()
	before := v.State()
	require.ErrorIs(t, v.CheckGrind(bits, nonce+1), transcript.ErrGrind)
	if nonce > 0 {
		require.ErrorIs(t, v.CheckGrind(bits, nonce-1), transcript.ErrGrind)
	}
	require.ErrorIs(t, v.CheckGrind(bits+1, nonce), transcript.ErrGrind) // the bits are hashed too (with odds 2^−14 the test would need another nonce)
	assert.Equal(t, before, v.State(), "a rejected nonce leaves the state")
	require.NoError(t, v.CheckGrind(bits, nonce))
	assert.Equal(t, state, v.State())
	x, err := transcript.Draw[gf128.Element](v, "after")
	require.NoError(t, err)
	p := base.Clone()
	_, err = p.Grind(bits)
	require.NoError(t, err)
	y, err := transcript.Draw[gf128.Element](p, "after")
	require.NoError(t, err)
	assert.Equal(t, x, y)
}

func TestGrindLimitAndCancel(t *testing.T) {
	tr := mustNew(t, "limit", transcript.WithGrindLimit(100))
	st := tr.State()
	_, err := tr.Grind(24)
	require.ErrorIs(t, err, transcript.ErrGrindLimit)
	assert.Equal(t, st, tr.State())
	// A verifier with the same limit still accepts any valid nonce.
	n, err := mustNew(t, "limit").Grind(4)
	require.NoError(t, err)
	require.NoError(t, tr.CheckGrind(4, n))

	tr = mustNew(t, "cancel")
	st = tr.State()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = tr.GrindContext(ctx, 32)
	if err == nil {
		t.Skip("a 32-bit nonce was found within 20ms (odds about 2^−14)")
	}
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, st, tr.State())
	require.NoError(t, tr.Err())
}

func TestClone(t *testing.T) {
	a := mustNew(t, "clone")
	a.AbsorbBytes("x", []byte("y"))
	b := a.Clone()
	require.Equal(t, a.State(), b.State())
	x1, err := transcript.Draw[bbext.E4](a, "c")
	require.NoError(t, err)
	b.AbsorbBytes("z", nil) // diverge
	x2, err := transcript.Draw[bbext.E4](b, "c")
	require.NoError(t, err)
	assert.NotEqual(t, x1, x2)
	c := a.Clone()
	y1, _ := transcript.Draw[bbext.E4](a, "c")
	y2, _ := transcript.Draw[bbext.E4](c, "c")
	assert.Equal(t, y1, y2)
	s := a.State()
	s[0] ^= 1
	assert.NotEqual(t, s, a.State(), "State returns a copy")
	assert.Equal(t, 32, a.Size())
}

// Hashes unfit for a transcript.
type (
	sizeHash struct {
		hash.Hash
		size int
	}
	failWrite struct{ hash.Hash }
	counting  struct {
		hash.Hash
		n *int
	}
	constant struct{ hash.Hash }
	panicOn  struct {
		hash.Hash
		word string
	}
	shortSum struct{ hash.Hash }
)

func (h sizeHash) Size() int { return h.size }
func (h failWrite) Write(p []byte) (int, error) {
	return 0, errors.New("disk full")
}
func (h counting) Sum(b []byte) []byte {
	*h.n++
	d := h.Hash.Sum(nil)
	d[0] ^= byte(*h.n)
	return append(b, d...)
}
func (h counting) Size() int           { return 32 }
func (h constant) Sum(b []byte) []byte { return append(b, make([]byte, 32)...) }
func (h panicOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), h.word) {
		panic("boom")
	}
	return h.Hash.Write(p)
}

// panicAfter panics on its 5000th Write counted over all its instances.
type panicAfter struct {
	hash.Hash
	n *atomic.Int64
}

func (h panicAfter) Write(p []byte) (int, error) {
	if h.n.Add(1) == 5000 {
		panic("worn out")
	}
	return h.Hash.Write(p)
}

func (h shortSum) Sum(b []byte) []byte { return h.Hash.Sum(b)[:len(b)+8] }

func TestBadHash(t *testing.T) {
	n := 0
	bad := map[string]func() hash.Hash{
		"nil":           nil,
		"returns nil":   func() hash.Hash { return nil },
		"size 8":        func() hash.Hash { return sizeHash{sha256.New(), 8} },
		"size 65":       func() hash.Hash { return sizeHash{sha256.New(), 65} },
		"size ≠ sum":    func() hash.Hash { return sizeHash{sha256.New(), 20} },
		"write fails":   func() hash.Hash { return failWrite{sha256.New()} },
		"not equal":     func() hash.Hash { return counting{sha256.New(), &n} },
		"constant":      func() hash.Hash { return constant{sha256.New()} },
		"short sum":     func() hash.Hash { return shortSum{sha256.New()} },
		"panics":        func() hash.Hash { panic("no hash today") },
		"panics inside": func() hash.Hash { return panicOn{sha256.New(), "check"} },
	}
	for name, h := range bad {
		_, err := transcript.New("bad", transcript.WithHash(h))
		require.ErrorIs(t, err, transcript.ErrHash, name)
	}
	for name, h := range map[string]func() hash.Hash{
		"md5": md5.New, "sha512": sha512.New, "sha3-256": func() hash.Hash { return sha3.New256() },
	} {
		_, err := transcript.New("good", transcript.WithHash(h))
		require.NoError(t, err, name)
	}
}

// TestHashPanics: a hash that panics on some input later makes the
// transcript fail with ErrHash, never crash.
func TestHashPanics(t *testing.T) {
	h := func() hash.Hash { return panicOn{sha256.New(), "boom"} }
	tr := mustNew(t, "panics", transcript.WithHash(h))
	tr.AbsorbBytes("x", []byte("fine"))
	require.NoError(t, tr.Err())
	tr.AbsorbBytes("x", []byte("a boom here"))
	require.ErrorIs(t, tr.Err(), transcript.ErrHash)
	_, err := transcript.Draw[gf128.Element](tr, "a")
	require.ErrorIs(t, err, transcript.ErrHash)
	_, err = tr.DrawIndices("a", 8, 2)
	require.ErrorIs(t, err, transcript.ErrHash)
	_, err = tr.DrawBytes("a", 2)
	require.ErrorIs(t, err, transcript.ErrHash)
	_, err = tr.Grind(4)
	require.ErrorIs(t, err, transcript.ErrHash)
	require.ErrorIs(t, tr.CheckGrind(4, 0), transcript.ErrHash)
	require.ErrorIs(t, tr.Clone().Err(), transcript.ErrHash)

	// A panic in a draw's stream, and in the grinding workers.
	tr = mustNew(t, "panics", transcript.WithHash(h))
	_, err = transcript.Draw[gf128.Element](tr, "boom")
	require.ErrorIs(t, err, transcript.ErrHash)
	calls := 0
	tr = mustNew(t, "panics", transcript.WithHash(func() hash.Hash {
		calls++
		if calls > 3 {
			panic("no more hashes")
		}
		return sha256.New()
	}))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	_, err = tr.Grind(20)
	require.ErrorIs(t, err, transcript.ErrHash)
	// A Write that panics inside the grinding workers.
	var writes atomic.Int64
	tr = mustNew(t, "panics", transcript.WithHash(func() hash.Hash { return panicAfter{sha256.New(), &writes} }))
	writes.Store(0)
	_, err = tr.Grind(24)
	require.ErrorIs(t, err, transcript.ErrHash)
	require.ErrorIs(t, tr.Err(), transcript.ErrHash)
	calls = 0
	c := mustNew(t, "clone", transcript.WithHash(func() hash.Hash {
		calls++
		if calls > 2 {
			panic("no more hashes")
		}
		return sha256.New()
	}))
	require.ErrorIs(t, c.Clone().Err(), transcript.ErrHash)
}
