package transcript_test

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/prover/transcript"
)

// GrindSearch describes Grind's search: the smallest nonce whose
// SHA-256(Message ‖ le64(nonce)) has bits leading zeros, found here by
// brute force, is Grind's nonce, and CheckGrind takes it.
func TestGrindSearch(t *testing.T) {
	for _, nb := range []int{0, 1, 6, 12} {
		tr, err := transcript.New("grind search")
		require.NoError(t, err)
		tr.AbsorbBytes("x", []byte{byte(nb)})
		gs, err := tr.GrindSearch(nb)
		require.NoError(t, err)
		assert.True(t, gs.SHA256)
		assert.Equal(t, uint64(transcript.DefaultGrindLimit), gs.Limit)
		assert.Len(t, gs.Message, 1+32+1)
		var nonce uint64
		for ; ; nonce++ {
			m := binary.LittleEndian.AppendUint64(append([]byte(nil), gs.Message...), nonce)
			d := sha256.Sum256(m)
			if nb == 0 || bits.LeadingZeros32(binary.BigEndian.Uint32(d[:])) >= nb {
				break
			}
		}
		want, err := tr.Clone().Grind(nb)
		require.NoError(t, err)
		assert.Equal(t, want, nonce, "%d bits", nb)
		require.NoError(t, tr.CheckGrind(nb, nonce))
	}
	tr, err := transcript.New("other", transcript.WithHash(sha256.New), transcript.WithGrindLimit(77))
	require.NoError(t, err)
	gs, err := tr.GrindSearch(3)
	require.NoError(t, err)
	assert.False(t, gs.SHA256, "WithHash: the hash is the caller's")
	assert.Equal(t, uint64(77), gs.Limit)
	_, err = tr.GrindSearch(transcript.MaxBits + 1)
	assert.ErrorIs(t, err, transcript.ErrParam)
}
