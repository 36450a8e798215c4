package rowhash

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// Grind finds the nonce the transcript's own Grind finds (the smallest),
// for every bit count to 20 and several transcripts, and reports none
// below a limit where Grind fails with ErrGrindLimit.
func TestGrind(t *testing.T) {
	d := gputest.Device(t)
	for _, bits := range []int{1, 2, 5, 8, 11, 14, 17, 20} {
		for k := range 6 {
			tr, err := transcript.New(fmt.Sprintf("grind %d %d", bits, k))
			require.NoError(t, err)
			gs, err := tr.GrindSearch(bits)
			require.NoError(t, err)
			require.True(t, gs.SHA256)
			want, err := tr.Clone().Grind(bits)
			require.NoError(t, err)
			got, found, err := Grind(d, gs.Message, bits, gs.Limit)
			require.NoError(t, err)
			require.True(t, found, "%d bits, transcript %d", bits, k)
			assert.Equal(t, want, got, "%d bits, transcript %d", bits, k)
			require.NoError(t, tr.CheckGrind(bits, got))
		}
	}
	tr, err := transcript.New("grind limit", transcript.WithGrindLimit(3))
	require.NoError(t, err)
	gs, err := tr.GrindSearch(24)
	require.NoError(t, err)
	_, cpuErr := tr.Clone().Grind(24)
	_, found, err := Grind(d, gs.Message, 24, gs.Limit)
	require.NoError(t, err)
	assert.Equal(t, cpuErr == nil, found, "a nonce below 3 for 24 bits on one side only")
}

func TestGrindArgs(t *testing.T) {
	_, _, err := Grind(nil, make([]byte, 33), 8, 100)
	assert.ErrorIs(t, err, gpu.ErrLength)
	_, _, err = Grind(nil, make([]byte, GrindMessageSize), 0, 100)
	assert.ErrorIs(t, err, gpu.ErrLength)
	_, _, err = Grind(nil, make([]byte, GrindMessageSize), 33, 100)
	assert.ErrorIs(t, err, gpu.ErrLength)
	_, _, err = Grind(nil, make([]byte, GrindMessageSize), 8, 100)
	assert.ErrorIs(t, err, gpu.ErrNoDevice)
}
