package domain

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// elems decodes data as little-endian elements (a trailing partial word is
// dropped).
func elems(data []byte) []gf64.Element {
	out := make([]gf64.Element, len(data)/8)
	for i := range out {
		out[i] = gf64.Element(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out
}

func FuzzNew(f *testing.F) {
	f.Add(uint64(0), []byte{})
	f.Add(uint64(7), []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(7), []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(1), []byte{3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, shift uint64, data []byte) {
		basis := elems(data)
		s, err := New(gf64.Element(shift), basis...)
		if err != nil {
			require.True(t, errors.Is(err, ErrDependent) || errors.Is(err, ErrDim), "want ErrDependent or ErrDim, got %v", err)
			return
		}
		require.Equal(t, len(basis), s.Dim(), "dimension")
		// Every element is found at its index.
		for i := 0; i < min(s.Size(), 64); i++ {
			j, ok := s.Index(s.Element(i))
			require.True(t, ok, "Index(Element(%d)) not found", i)
			require.Equal(t, i, j, "Index(Element(%d))", i)
		}
	})
}

// fuzzSubspace builds a subspace of dimension ≤ 6 from data, skipping
// dependent basis elements.
func fuzzSubspace(shift uint64, data []byte, maxDim int) *Subspace {
	s, _ := New(gf64.Element(shift))
	for _, b := range elems(data) {
		if s.Dim() == maxDim {
			break
		}
		if e, err := s.Extend(b); err == nil {
			s = e
		}
	}
	return s
}

func FuzzFFT(f *testing.F) {
	f.Add(uint64(3), []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, []byte{9, 9, 9, 9, 9, 9, 9, 9})
	f.Add(uint64(0), []byte{}, []byte{})
	f.Add(uint64(1<<63), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 4, 0, 0, 0, 0, 0, 0, 0},
		[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, shift uint64, basis, coeffs []byte) {
		s := fuzzSubspace(shift, basis, 6)
		c := elems(coeffs)
		a := make([]gf64.Element, s.Size())
		copy(a, c)
		if len(c) != s.Size() {
			require.ErrorIs(t, s.FFT(c), ErrLength, "FFT of %d elements over size %d", len(c), s.Size())
		}
		orig := slices.Clone(a)
		require.NoError(t, s.FFT(a))
		want := make([]gf64.Element, len(a))
		for i := range want {
			want[i] = horner(orig, s.Element(i))
		}
		testutil.RequireEqualSlices(t, want, a, "FFT against Horner's rule")
		require.NoError(t, s.IFFT(a))
		testutil.RequireEqualSlices(t, orig, a, "IFFT(FFT(a))")
	})
}

func FuzzLDE(f *testing.F) {
	f.Add(uint64(3), uint64(5), []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, uint8(1), []byte{9, 9, 9, 9, 9, 9, 9, 9})
	f.Add(uint64(0), uint64(0), []byte{}, uint8(0), []byte{})
	f.Add(uint64(1), uint64(2), []byte{7, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}, uint8(2),
		[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, shiftS, shiftT uint64, basis []byte, k uint8, vals []byte) {
		to := fuzzSubspace(shiftT, basis, 6)
		kk := int(k) % (to.Dim() + 1)
		from, err := New(gf64.Element(shiftS), to.Basis()[:kk]...)
		require.NoError(t, err)
		src := make([]gf64.Element, from.Size())
		copy(src, elems(vals))
		for _, target := range []*Subspace{to, fuzzSubspace(shiftS^shiftT, append(slices.Clone(basis[min(8, len(basis)):]), basis...), to.Dim())} {
			if target.Dim() < from.Dim() {
				continue
			}
			dst := make([]gf64.Element, target.Size())
			require.NoError(t, LDE(dst, src, from, target))
			want := make([]gf64.Element, target.Size())
			copy(want, src)
			require.NoError(t, from.IFFT(want[:from.Size()]))
			require.NoError(t, target.FFT(want))
			testutil.RequireEqualSlices(t, want, dst, "LDE against FFT∘IFFT")
		}
		require.ErrorIs(t, LDE(make([]gf64.Element, to.Size()+1), src, from, to), ErrLength, "bad dst length")
	})
}
