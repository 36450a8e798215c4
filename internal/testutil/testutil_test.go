package testutil

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a TestingT that records what the assertions report.
type recorder struct {
	errors  []string
	failNow int
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) FailNow() { r.failNow++ }

// hexElem has a String method on the value, like gf64.Element.
type hexElem uint64

func (e hexElem) String() string { return fmt.Sprintf("0x%04x", uint64(e)) }

// ptrElem has a String method on the pointer, like gnark-crypto's elements.
type ptrElem [2]uint64

func (e *ptrElem) String() string { return fmt.Sprintf("<%d>", e[0]+e[1]) }

func TestEqualSlicesEqual(t *testing.T) {
	for _, tc := range []struct{ want, got []int }{
		{nil, nil}, {nil, []int{}}, {[]int{}, nil}, {[]int{1, 2, 3}, []int{1, 2, 3}},
	} {
		r := new(recorder)
		assert.True(t, EqualSlices(r, tc.want, tc.got), "%v vs %v", tc.want, tc.got)
		RequireEqualSlices(r, tc.want, tc.got)
		assert.Empty(t, r.errors)
		assert.Zero(t, r.failNow)
	}
}

func TestEqualSlicesReportsFirstAndLast(t *testing.T) {
	want := make([]hexElem, 1000)
	got := make([]hexElem, 1000)
	for i := range want {
		want[i] = hexElem(i)
		got[i] = hexElem(i)
	}
	got[17], got[500], got[901] = 0xaaaa, 0xbbbb, 0xcccc
	r := new(recorder)
	assert.False(t, EqualSlices(r, want, got, "column %d", 4))
	require.Len(t, r.errors, 1)
	msg := r.errors[0]
	for _, s := range []string{
		"3 of 1000 elements differ",
		"first at index 17: want 0x0011, got 0xaaaa",
		"last at index 901: want 0x0385, got 0xcccc",
		"column 4",
	} {
		assert.Contains(t, msg, s)
	}
	assert.NotContains(t, msg, "0x0100", "the equal elements are not printed")
	assert.Zero(t, r.failNow, "EqualSlices does not stop the test")

	RequireEqualSlices(r, want, got)
	assert.Len(t, r.errors, 2)
	assert.Equal(t, 1, r.failNow, "RequireEqualSlices stops the test")
}

func TestEqualSlicesOneDifference(t *testing.T) {
	r := new(recorder)
	EqualSlices(r, []int{1, 2, 3}, []int{1, 5, 3})
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "1 of 3 elements differ; first at index 1: want 2, got 5")
	assert.NotContains(t, r.errors[0], "last")
}

func TestEqualSlicesLengths(t *testing.T) {
	r := new(recorder)
	assert.False(t, EqualSlices(r, []int{1, 2, 3}, []int{1, 2}))
	assert.False(t, EqualSlices(r, []int{1, 2, 3}, []int{1, 9, 3, 4}))
	assert.False(t, EqualSlices(r, nil, []int{0}))
	require.Len(t, r.errors, 3)
	assert.Contains(t, r.errors[0], "lengths differ: want 3 elements, got 2; the first 2 are equal")
	assert.Contains(t, r.errors[1], "lengths differ: want 3 elements, got 4; first difference at index 1: want 2, got 9")
	assert.Contains(t, r.errors[2], "lengths differ: want 0 elements, got 1")
}

func TestPointerStringer(t *testing.T) {
	r := new(recorder)
	EqualSlices(r, []ptrElem{{1, 2}, {3, 4}}, []ptrElem{{1, 2}, {3, 5}})
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "want <7>, got <8>")
}

func TestEqualColumns(t *testing.T) {
	want := [][]int{{1, 2}, {3, 4}, {5, 6}}
	r := new(recorder)
	assert.True(t, EqualColumns(r, want, [][]int{{1, 2}, {3, 4}, {5, 6}}))
	assert.Empty(t, r.errors)

	assert.False(t, EqualColumns(r, want, [][]int{{1, 2}, {3, 0}, {0, 6}}, "LDE %s", "x4"))
	require.Len(t, r.errors, 2, "every differing column is reported")
	assert.Contains(t, r.errors[0], "column 1: 1 of 2 elements differ; first at index 1: want 4, got 0")
	assert.Contains(t, r.errors[1], "column 2: 1 of 2 elements differ; first at index 0: want 5, got 0")
	assert.Contains(t, r.errors[1], "LDE x4")

	r = new(recorder)
	assert.False(t, EqualColumns(r, want, want[:2]))
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "numbers of columns differ: want 3, got 2")

	r = new(recorder)
	RequireEqualColumns(r, want, want)
	assert.Zero(t, r.failNow)
	RequireEqualColumns(r, want, [][]int{{1, 2}, {3, 4}, {5, 7}})
	assert.Equal(t, 1, r.failNow)
}

func TestPanicMessage(t *testing.T) {
	r := new(recorder)
	msg := PanicMessage(r, func() { panic("pkg: bad length 3") })
	assert.Equal(t, "pkg: bad length 3", msg)
	assert.Empty(t, r.errors)
	assert.Zero(t, r.failNow)

	PanicMessage(r, func() {}, "calling %s", "f")
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "did not panic")
	assert.Contains(t, r.errors[0], "calling f")
	assert.Equal(t, 1, r.failNow)

	PanicMessage(r, func() { panic(fmt.Errorf("an error")) })
	require.Len(t, r.errors, 2)
	assert.True(t, strings.Contains(r.errors[1], "is not a string"), r.errors[1])
	assert.Equal(t, 2, r.failNow)
}

func TestSweep(t *testing.T) {
	for _, tc := range []struct {
		env  string
		long bool
	}{{"", false}, {"0", false}, {"false", false}, {"junk", false}, {"1", true}, {"true", true}} {
		t.Setenv(LongEnv, tc.env)
		want, wantLong := 2, tc.long
		if testing.Short() {
			want, wantLong = 1, false
		} else if tc.long {
			want = 3
		}
		assert.Equal(t, wantLong, Long(), "%s=%q", LongEnv, tc.env)
		assert.Equal(t, want, Sweep(1, 2, 3), "%s=%q", LongEnv, tc.env)
	}
}
