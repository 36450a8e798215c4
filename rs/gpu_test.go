package rs

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// cpuAccel is an Accelerator on domain: what a GPU must match.
type cpuAccel struct {
	calls int
	fail  error
}

func (a *cpuAccel) LDEBatch(dst, src [][]gf64.Element, from, to *domain.Subspace) error {
	a.calls++
	if a.fail != nil {
		return a.fail
	}
	return domain.LDEBatch(dst, src, from, to)
}

var _ Accelerator = (*cpuAccel)(nil)

func TestWithAccelerator(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	elems := func(n int) []gf64.Element {
		v := make([]gf64.Element, n)
		for i := range v {
			v[i] = gf64.Element(r.Uint64())
		}
		return v
	}
	msgSpace, err := domain.New(gf64.Element(r.Uint64()), elems(6)...)
	if err != nil {
		t.Skip("dependent random basis")
	}
	cwSpace, err := msgSpace.Extend(elems(2)...)
	if err != nil {
		t.Skip("dependent random basis")
	}
	_, err = New(msgSpace, cwSpace, WithAccelerator(nil))
	require.Error(t, err, "WithAccelerator(nil)")
	assert.Regexp(t, "^rs: ", err.Error())
	acc := &cpuAccel{}
	code, err := New(msgSpace, cwSpace, WithAccelerator(acc))
	require.NoError(t, err)
	plain, err := New(msgSpace, cwSpace)
	require.NoError(t, err)
	require.True(t, code.Accelerated(), "Accelerated() with an accelerator")
	require.False(t, plain.Accelerated(), "Accelerated() without one")
	msgs := [][]gf64.Element{elems(64), elems(64), elems(64)}
	got := [][]gf64.Element{make([]gf64.Element, 256), make([]gf64.Element, 256), make([]gf64.Element, 256)}
	want := [][]gf64.Element{make([]gf64.Element, 256), make([]gf64.Element, 256), make([]gf64.Element, 256)}
	require.NoError(t, code.EncodeBatch(got, msgs))
	require.NoError(t, code.Encode(got[0], msgs[0]))
	require.NoError(t, plain.EncodeBatch(want, msgs))
	testutil.RequireEqualColumns(t, want, got, "accelerated encoding against the CPU's")
	require.Equal(t, 2, acc.calls, "accelerator calls")
	require.ErrorIs(t, code.Encode(got[0], msgs[0][:63]), ErrLength, "short message")
	require.Equal(t, 2, acc.calls, "accelerator called on a bad shape")
	acc.fail = errors.New("device lost")
	require.ErrorIs(t, code.Encode(got[0], msgs[0]), acc.fail, "the accelerator's error is returned")
}
