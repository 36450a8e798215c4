package transcript_test

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// FuzzAbsorbDraw absorbs caller data under caller tags and draws from the
// result: nothing panics, the package agrees with ref, and a clone taken
// before the calls repeats them exactly.
func FuzzAbsorbDraw(f *testing.F) {
	f.Add("label", "tag", []byte("message"), []byte{}, uint8(0))
	f.Add("", "", []byte{}, []byte{0xff}, uint8(7))
	f.Add("a\x00b", "root", make([]byte, 32), make([]byte, 100), uint8(200))
	f.Fuzz(func(t *testing.T, label, tag string, m1, m2 []byte, op uint8) {
		tr, err := transcript.New(label)
		require.NoError(t, err)
		rf := newRef(sha256.New, label)
		c := tr.Clone()
		run := func(tr *transcript.Transcript) (gf128.Element, []byte) {
			if op&1 == 0 {
				tr.AbsorbBytes(tag, m1)
			} else {
				tr.AbsorbRoot(tag, m1)
			}
			tr.AbsorbBytes(string(m2), []byte(tag))
			x, err := transcript.Draw[gf128.Element](tr, tag)
			require.NoError(t, err)
			b, err := tr.DrawBytes(tag, int(op))
			require.NoError(t, err)
			return x, b
		}
		x, b := run(tr)
		y, d := run(c)
		require.Equal(t, x, y)
		require.Equal(t, b, d)
		require.Equal(t, tr.State(), c.State())
		rf.absorb(op&1, tag, m1)
		rf.absorb(0, string(m2), []byte(tag))
		rf.ratchet(header(0x20, tag))
		rf.ratchet(header(0x00, tag, uint64(op)))
		require.Equal(t, rf.state, tr.State())
	})
}

// FuzzDrawIndices draws caller-sized index sets: every call returns in
// range indices or an ErrParam error, and agrees with ref.
func FuzzDrawIndices(f *testing.F) {
	f.Add("q", 1, 0)
	f.Add("q", 6, 50)
	f.Add("q", 1<<20, 100)
	f.Add("", -3, 5)
	f.Add("x", 1<<62+1, 3)
	f.Fuzz(func(t *testing.T, tag string, n, count int) {
		tr, err := transcript.New("fuzz indices")
		require.NoError(t, err)
		if count > 4096 {
			count %= 4096
		}
		idx, err := tr.DrawIndices(tag, n, count)
		if n < 1 || count < 0 {
			require.ErrorIs(t, err, transcript.ErrParam)
			return
		}
		require.NoError(t, err)
		require.Len(t, idx, count)
		for _, i := range idx {
			require.True(t, 0 <= i && i < n)
		}
		rf := newRef(sha256.New, "fuzz indices")
		require.Equal(t, rf.indices(tag, n, count), idx)
		require.Equal(t, rf.state, tr.State())
	})
}

// FuzzCheckGrind checks caller nonces: a wrong one is refused with
// ErrGrind and leaves the state, a right one is absorbed as ref does.
func FuzzCheckGrind(f *testing.F) {
	f.Add(8, uint64(0))
	f.Add(0, uint64(5))
	f.Add(40, uint64(1))
	f.Add(2, uint64(1<<63))
	f.Fuzz(func(t *testing.T, bits int, nonce uint64) {
		tr, err := transcript.New("fuzz grind")
		require.NoError(t, err)
		rf := newRef(sha256.New, "fuzz grind")
		err = tr.CheckGrind(bits, nonce)
		switch {
		case bits < 0 || bits > transcript.MaxBits:
			require.ErrorIs(t, err, transcript.ErrParam)
		case rf.grindOK(bits, nonce):
			require.NoError(t, err)
			rf.absorbNonce(bits, nonce)
		default:
			require.ErrorIs(t, err, transcript.ErrGrind)
		}
		require.Equal(t, rf.state, tr.State())
	})
}
