package rs

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
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
	if _, err := New(msgSpace, cwSpace, WithAccelerator(nil)); err == nil {
		t.Fatal("WithAccelerator(nil): no error")
	}
	acc := &cpuAccel{}
	code, err := New(msgSpace, cwSpace, WithAccelerator(acc))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(msgSpace, cwSpace)
	if err != nil {
		t.Fatal(err)
	}
	if !code.Accelerated() || plain.Accelerated() {
		t.Fatal("Accelerated() wrong")
	}
	msgs := [][]gf64.Element{elems(64), elems(64), elems(64)}
	got := [][]gf64.Element{make([]gf64.Element, 256), make([]gf64.Element, 256), make([]gf64.Element, 256)}
	want := [][]gf64.Element{make([]gf64.Element, 256), make([]gf64.Element, 256), make([]gf64.Element, 256)}
	if err := code.EncodeBatch(got, msgs); err != nil {
		t.Fatal(err)
	}
	if err := code.Encode(got[0], msgs[0]); err != nil {
		t.Fatal(err)
	}
	if err := plain.EncodeBatch(want, msgs); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("column %d: accelerated encoding differs from the CPU's", i)
		}
	}
	if acc.calls != 2 {
		t.Fatalf("accelerator called %d times, want 2", acc.calls)
	}
	if err := code.Encode(got[0], msgs[0][:63]); !errors.Is(err, ErrLength) {
		t.Fatalf("short message: got %v, want ErrLength", err)
	}
	if acc.calls != 2 {
		t.Fatal("accelerator called on a bad shape")
	}
	acc.fail = errors.New("device lost")
	if err := code.Encode(got[0], msgs[0]); !errors.Is(err, acc.fail) {
		t.Fatalf("accelerator error: got %v", err)
	}
}
