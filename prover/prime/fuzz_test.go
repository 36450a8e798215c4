package prime

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
)

// fromBytes turns fuzz data into n elements of f (SetBytes reduces modulo
// the field's prime), reusing data cyclically.
func fromBytes[E Element, P testElem[E]](f field[E], data []byte, n int) []E {
	v := make([]E, n)
	if len(data) == 0 {
		return v
	}
	buf := make([]byte, f.bytes)
	k := 0
	for i := range v {
		for j := range buf {
			buf[j] = data[k%len(data)]
			k++
		}
		P(&v[i]).SetBytes(buf)
	}
	return v
}

func fuzzNTT[E Element, P testElem[E]](t *testing.T, f field[E], data []byte, logN, sel uint8) {
	logN %= 11
	n := 1 << logN
	d := f.newDomain(uint64(n), sel&16 == 0, nil)
	e, err := New[E](d)
	require.NoError(t, err)
	o := ops[sel%4]
	ord := orders[(sel/4)%3]
	ncols := 1 + int(sel>>5)%3
	in := make([][]E, ncols)
	for c := range in {
		in[c] = fromBytes[E, P](f, append([]byte{byte(c)}, data...), n)
	}
	got := cloneCols(in)
	require.NoError(t, run(t, e, o, got, ord))
	for c := range in {
		f.gnark(d, in[c], ord, o.inverse, o.coset)
	}
	equalCols(t, o.name, got, in)

	// A column one element short is an error and is left alone.
	if n > 1 {
		short := append([]E(nil), got[0][:n-1]...)
		keep := append([]E(nil), short...)
		require.ErrorIs(t, run(t, e, o, [][]E{got[0], short}, ord), ErrSize, "short column")
		equalCols(t, "short column", [][]E{short}, [][]E{keep})
	}
}

func FuzzFFT(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint8(3), uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint8(5), uint8(7))
	f.Add([]byte{}, uint8(0), uint8(255))
	f.Add([]byte("gfpoly prime-field NTT"), uint8(10), uint8(90))
	f.Fuzz(func(t *testing.T, data []byte, logN, sel uint8) {
		switch sel % 128 % 4 {
		case 0:
			fuzzNTT(t, bn254Field(), data, logN, sel)
		case 1:
			cpufeat.Each("ntt64", func(string) { fuzzNTT(t, goldilocksField(), data, logN, sel) })
		case 2:
			fuzzNTT(t, babyBearField(), data, logN, sel)
		default:
			fuzzNTT(t, koalaBearField(), data, logN, sel)
		}
	})
}

func fuzzLDE[E Element, P testElem[E]](t *testing.T, f field[E], data []byte, logN, sel uint8) {
	logN %= 9
	n := 1 << logN
	blowup := 2 << (sel % 4)
	ord := orders[(sel/4)%3]
	small := f.newDomain(uint64(n), true, nil)
	large := f.newDomain(uint64(n*blowup), sel&64 == 0, nil)
	l, err := NewLDE[E](small, large)
	require.NoError(t, err)
	src := fromBytes[E, P](f, data, n)
	keep := append([]E(nil), src...)
	dst := make([]E, n*blowup)
	require.NoError(t, l.Encode([][]E{dst}, [][]E{src}, ord))
	equalCols(t, "src", [][]E{src}, [][]E{keep})
	// Reference: INTT in the input's order, coefficients to natural order,
	// zero-pad, coset NTT.
	coef := append([]E(nil), src...)
	if ord == DIT {
		f.gnark(small, coef, DIT, true, false)
	} else {
		f.gnark(small, coef, Natural, true, false)
	}
	want := make([]E, n*blowup)
	copy(want, coef)
	outOrd := Natural
	if ord == DIF {
		outOrd = DIF
	}
	f.gnark(large, want, outOrd, false, true)
	equalCols(t, "LDE", [][]E{dst}, [][]E{want})
}

func FuzzLDE(f *testing.F) {
	f.Add([]byte{9, 8, 7}, uint8(4), uint8(0))
	f.Add([]byte{0xff, 0, 0xff, 0, 1}, uint8(0), uint8(3))
	f.Add([]byte("low-degree extension"), uint8(8), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, logN, sel uint8) {
		switch (sel >> 4) % 4 {
		case 0:
			fuzzLDE(t, bn254Field(), data, logN, sel)
		case 1:
			cpufeat.Each("ntt64", func(string) { fuzzLDE(t, goldilocksField(), data, logN, sel) })
		case 2:
			fuzzLDE(t, babyBearField(), data, logN, sel)
		default:
			fuzzLDE(t, koalaBearField(), data, logN, sel)
		}
	})
}
