package prover

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"
	"github.com/consensys/gnark-crypto/utils"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/rs"
)

// shapes are the (log2 rows, columns, blowup) the backend tests run.
func shapes(t *testing.T) [][3]int {
	s := [][3]int{{0, 1, 2}, {1, 2, 16}, {2, 3, 4}, {5, 17, 2}, {7, 4, 8}, {9, 33, 4}, {10, 2, 16}}
	if !testing.Short() {
		s = append(s, [3]int{13, 5, 4})
	}
	return s
}

// TestBinaryLDEMatchesRS checks the GF(2^64) backend column by column against
// rs.Code.Encode and against T.FFT(S.IFFT(column)).
func TestBinaryLDEMatchesRS(t *testing.T) {
	for _, sh := range shapes(t) {
		k, cols, b := sh[0], sh[1], sh[2]
		enc, err := New[gf64.Element](WithBlowup(b), WithChunkColumns(3))
		require.NoError(t, err)
		tr, err := RandomTrace[gf64.Element](k, cols, uint64(k))
		require.NoError(t, err)
		lde, err := enc.Encode(tr)
		require.NoError(t, err, "2^%d×%d blowup %d", k, cols, b)
		require.Len(t, lde, cols, "2^%d×%d blowup %d: LDE columns", k, cols, b)
		S, T, err := DefaultBinaryDomains(k, log2(b))
		require.NoError(t, err)
		code, err := rs.New(S, T)
		require.NoError(t, err)
		want := make([]gf64.Element, T.Size())
		for c := range tr {
			require.NoError(t, code.Encode(want, tr[c]))
			equalColumn(t, want, lde[c], "2^%d×%d blowup %d: column %d against rs", k, cols, b, c)
			if c == 0 {
				coeffs := append([]gf64.Element(nil), tr[c]...)
				require.NoError(t, S.IFFT(coeffs))
				ref := make([]gf64.Element, T.Size())
				copy(ref, coeffs)
				require.NoError(t, T.FFT(ref))
				equalColumn(t, ref, lde[c], "2^%d blowup %d: column 0 against T.FFT(S.IFFT(·))", k, b)
			}
		}
		// The codeword space is disjoint from the message space, so a
		// codeword is not a copy of its message.
		if k > 2 {
			assert.False(t, slices.Equal(lde[0][:1<<k], tr[0]), "2^%d blowup %d: codeword starts with its message", k, b)
		}
	}
}

// TestBinaryDomainsOption checks a systematic layout chosen by the caller.
func TestBinaryDomainsOption(t *testing.T) {
	sys := func(k, lb int) (*domain.Subspace, *domain.Subspace, error) {
		basis := make([]gf64.Element, k+lb)
		for j := range basis {
			basis[j] = gf64.Element(3) << j
		}
		s, err := domain.New(5, basis[:k]...)
		if err != nil {
			return nil, nil, err
		}
		c, err := domain.New(5, basis...)
		return s, c, err
	}
	enc, err := New[gf64.Element](WithBinaryDomains(sys))
	require.NoError(t, err)
	tr, err := RandomTrace[gf64.Element](6, 2, 3)
	require.NoError(t, err)
	lde, err := enc.Encode(tr)
	require.NoError(t, err)
	require.Len(t, lde, 2)
	require.Len(t, lde[1], 4<<6)
	equalColumn(t, tr[1], lde[1][:64], "the systematic codeword's first rows against its message")
	bad := func(k, lb int) (*domain.Subspace, *domain.Subspace, error) { return sys(k, lb+1) }
	enc, err = New[gf64.Element](WithBinaryDomains(bad))
	require.NoError(t, err)
	_, err = enc.Encode(tr)
	require.ErrorIs(t, err, ErrConfig, "wrong dimensions")
	_, err = New[gf64.Element](WithBinaryDomains(nil))
	require.ErrorIs(t, err, ErrConfig, "nil domains")
}

// primeRef is the LDE through gnark-crypto directly: FFTInverse on the small
// domain, zero-pad, FFT on the coset of the large domain, natural order.
func primeRef[E primeElement](col []E, blowup int) []E {
	n := uint64(len(col))
	out := make([]E, int(n)*blowup)
	copy(out, col)
	switch o := any(out).(type) {
	case []goldilocks.Element:
		s, l := goldilocksfft.NewDomain(n), goldilocksfft.NewDomain(n*uint64(blowup))
		s.FFTInverse(o[:n], goldilocksfft.DIF)
		utils.BitReverse(o[:n])
		l.FFT(o, goldilocksfft.DIF, goldilocksfft.OnCoset())
		utils.BitReverse(o)
	case []babybear.Element:
		s, l := babybearfft.NewDomain(n), babybearfft.NewDomain(n*uint64(blowup))
		s.FFTInverse(o[:n], babybearfft.DIF)
		utils.BitReverse(o[:n])
		l.FFT(o, babybearfft.DIF, babybearfft.OnCoset())
		utils.BitReverse(o)
	case []koalabear.Element:
		s, l := koalabearfft.NewDomain(n), koalabearfft.NewDomain(n*uint64(blowup))
		s.FFTInverse(o[:n], koalabearfft.DIF)
		utils.BitReverse(o[:n])
		l.FFT(o, koalabearfft.DIF, koalabearfft.OnCoset())
		utils.BitReverse(o)
	case []fr.Element:
		s, l := bn254fft.NewDomain(n), bn254fft.NewDomain(n*uint64(blowup))
		s.FFTInverse(o[:n], bn254fft.DIF)
		utils.BitReverse(o[:n])
		l.FFT(o, bn254fft.DIF, bn254fft.OnCoset())
		utils.BitReverse(o)
	}
	return out
}

func testPrimeLDE[E primeElement](t *testing.T) {
	for _, sh := range shapes(t) {
		k, cols, b := sh[0], sh[1], sh[2]
		enc, err := New[E](WithBlowup(b), WithChunkColumns(5))
		require.NoError(t, err)
		tr, err := RandomTrace[E](k, cols, uint64(k))
		require.NoError(t, err)
		lde, err := enc.Encode(tr)
		require.NoError(t, err, "%v 2^%d×%d blowup %d", FieldOf[E](), k, cols, b)
		require.Len(t, lde, cols, "%v 2^%d×%d blowup %d: LDE columns", FieldOf[E](), k, cols, b)
		if k == 0 { // a constant: its extension repeats it
			for c := range cols {
				equalColumn(t, slices.Repeat(tr[c][:1], b), lde[c], "%v: extension of the constant column %d", FieldOf[E](), c)
			}
			continue
		}
		for _, c := range []int{0, cols / 2, cols - 1} {
			equalColumn(t, primeRef(tr[c], b), lde[c], "%v 2^%d blowup %d: column %d against gnark-crypto", FieldOf[E](), k, b, c)
		}
	}
}

func TestPrimeLDEMatchesGnark(t *testing.T) {
	t.Run("goldilocks", testPrimeLDE[goldilocks.Element])
	t.Run("babybear", testPrimeLDE[babybear.Element])
	t.Run("koalabear", testPrimeLDE[koalabear.Element])
	t.Run("bn254", testPrimeLDE[fr.Element])
}

func TestPrimeTooLarge(t *testing.T) {
	// KoalaBear has 2-adicity 24: 2^23 rows with blowup 4 needs 2^25.
	enc, err := New[koalabear.Element](WithBlowup(4))
	require.NoError(t, err)
	p, ok := enc.(*primeCPU[koalabear.Element])
	require.True(t, ok, "the KoalaBear backend is %T", enc)
	_, err = p.plan(23)
	require.ErrorIs(t, err, ErrShape, "2^23 × 4 KoalaBear")
}

// testOpenVerify commits a random trace on a backend, opens random rows and
// verifies them, and checks that a changed element fails.
func testOpenVerify[E Element](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes(t) {
		k, cols, b := sh[0], sh[1], sh[2]
		enc, err := New[E](WithBlowup(b))
		require.NoError(t, err)
		tr, err := RandomTrace[E](k, cols, 42)
		require.NoError(t, err)
		c, err := enc.Commit(tr)
		require.NoError(t, err, "%s 2^%d×%d blowup %d", enc.Name(), k, cols, b)
		idx := make([]int, 8)
		for i := range idx {
			idx[i] = r.IntN(c.Rows())
		}
		o, err := c.Open(idx)
		require.NoError(t, err)
		require.NoError(t, Verify(c.Root(), c.Rows(), o.Indices, o.Rows, o.Paths, nil), "%s 2^%d×%d blowup %d", enc.Name(), k, cols, b)
		require.Len(t, o.Rows, len(idx))
		for i, row := range o.Rows {
			assert.Equal(t, mustLDE(t, c)[cols-1][idx[i]], row[cols-1], "%s: opened row %d against the LDE's", enc.Name(), idx[i])
		}
		o.Rows[3][cols/2] = tr[0][0]
		if o.Rows[3][cols/2] != mustLDE(t, c)[cols/2][idx[3]] {
			require.ErrorIs(t, o.Verify(c.Root(), c.Rows(), nil), ErrVerify, "%s: changed row", enc.Name())
		}
		require.NoError(t, enc.Close())
	}
}

func TestOpenVerify(t *testing.T) {
	t.Run("gf64", testOpenVerify[gf64.Element])
	t.Run("goldilocks", testOpenVerify[goldilocks.Element])
	t.Run("babybear", testOpenVerify[babybear.Element])
	t.Run("koalabear", testOpenVerify[koalabear.Element])
	t.Run("bn254", testOpenVerify[fr.Element])
}

func TestBackendInfo(t *testing.T) {
	check := func(b Backend, f Field) {
		t.Helper()
		assert.Equal(t, f, b.Field(), "%s: field", b.Name())
		assert.Equal(t, f.String()+"/cpu", b.Name(), "%v: name", f)
		assert.Equal(t, 8, b.Blowup(), "%s: blowup", b.Name())
		assert.NotEmpty(t, b.Device(), "%s: device", b.Name())
	}
	for _, f := range Fields {
		var b Backend
		var err error
		switch f {
		case GF64:
			b, err = New[gf64.Element](WithBlowup(8))
		case Goldilocks:
			b, err = New[goldilocks.Element](WithBlowup(8))
		case BabyBear:
			b, err = New[babybear.Element](WithBlowup(8))
		case KoalaBear:
			b, err = New[koalabear.Element](WithBlowup(8))
		case BN254:
			b, err = New[fr.Element](WithBlowup(8))
		}
		require.NoError(t, err, "%v", f)
		check(b, f)
		g, err := ParseField(f.String())
		require.NoError(t, err, "ParseField(%q)", f)
		assert.Equal(t, f, g, "ParseField(%q)", f)
	}
	_, err := ParseField("gf32")
	assert.ErrorContains(t, err, "prover: unknown field \"gf32\"", "ParseField(gf32)")
}

func benchmarkCommit[E Element](b *testing.B, logRows, cols, blowup int) {
	enc, err := New[E](WithBlowup(blowup))
	if err != nil {
		b.Fatal(err)
	}
	tr, _ := RandomTrace[E](logRows, cols, 1)
	if _, err := enc.Commit(tr); err != nil { // warm-up: plans, pools
		b.Fatal(err)
	}
	b.SetBytes(int64(cols) << logRows * int64(FieldOf[E]().ElementBytes()))
	b.ReportAllocs()
	var enc1, com time.Duration
	b.ResetTimer()
	cpu0 := processCPU()
	for range b.N {
		c, err := enc.Commit(tr)
		if err != nil {
			b.Fatal(err)
		}
		enc1 += c.Timings.Encode
		com += c.Timings.Commit
	}
	b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(enc1.Milliseconds())/float64(b.N), "encode-ms/op")
	b.ReportMetric(float64(com.Milliseconds())/float64(b.N), "commit-ms/op")
}

// BenchmarkCommitReuse is BenchmarkCommit with the LDE buffers reused from
// one trace to the next (EncodeInto + CommitLDE), as a prover does.
func BenchmarkCommitReuse(b *testing.B) {
	for _, sh := range [][2]int{{16, 16}, {20, 32}} {
		b.Run(fmt.Sprintf("gf64/rows=2^%d/cols=%d/blowup=4", sh[0], sh[1]), func(b *testing.B) {
			enc, _ := New[gf64.Element]()
			tr, _ := RandomTrace[gf64.Element](sh[0], sh[1], 1)
			lde, _ := RandomTrace[gf64.Element](sh[0]+2, sh[1], 2)
			if err := enc.EncodeInto(lde, tr); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(sh[1]) << sh[0] * 8)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			var te, tc time.Duration
			for range b.N {
				t0 := time.Now()
				if err := enc.EncodeInto(lde, tr); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := enc.CommitLDE(lde); err != nil {
					b.Fatal(err)
				}
				te += t1.Sub(t0)
				tc += time.Since(t1)
			}
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(te.Milliseconds())/float64(b.N), "encode-ms/op")
			b.ReportMetric(float64(tc.Milliseconds())/float64(b.N), "commit-ms/op")
		})
	}
}

// BenchmarkCommit is encode + commit of 2^logRows rows × cols columns at
// blowup 4 (the target: GF(2^64), 2^20 × 32 in ≤ 1.5 s on 2 cores).
func BenchmarkCommit(b *testing.B) {
	for _, sh := range [][2]int{{16, 16}, {20, 32}} {
		name := fmt.Sprintf("rows=2^%d/cols=%d/blowup=4", sh[0], sh[1])
		b.Run("gf64/"+name, func(b *testing.B) { benchmarkCommit[gf64.Element](b, sh[0], sh[1], 4) })
		b.Run("goldilocks/"+name, func(b *testing.B) { benchmarkCommit[goldilocks.Element](b, sh[0], sh[1], 4) })
		b.Run("babybear/"+name, func(b *testing.B) { benchmarkCommit[babybear.Element](b, sh[0], sh[1], 4) })
		b.Run("koalabear/"+name, func(b *testing.B) { benchmarkCommit[koalabear.Element](b, sh[0], sh[1], 4) })
		b.Run("bn254/"+name, func(b *testing.B) { benchmarkCommit[fr.Element](b, sh[0], sh[1], 4) })
	}
}

// BenchmarkCommitLDE is the commitment alone (hash the rows, build the tree)
// over an LDE of 2^logRows rows × cols columns.
func BenchmarkCommitLDE(b *testing.B) {
	for _, sh := range [][2]int{{18, 16}, {22, 32}} {
		b.Run(fmt.Sprintf("gf64/rows=2^%d/cols=%d", sh[0], sh[1]), func(b *testing.B) {
			lde, _ := RandomTrace[gf64.Element](sh[0], sh[1], 1)
			enc, _ := New[gf64.Element]()
			b.SetBytes(int64(sh[1]) << sh[0] * 8)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			for range b.N {
				if _, err := enc.CommitLDE(lde); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// TestPrimeDomainsLazy checks the GPU encoder's domains (built without
// gnark-crypto's precomputed tables) against the CPU encoder's: the same
// sizes, roots, shifts and inverses, and no tables.
func TestPrimeDomainsLazy(t *testing.T) {
	testLazyDomains[goldilocks.Element](t)
	testLazyDomains[babybear.Element](t)
	testLazyDomains[koalabear.Element](t)
	testLazyDomains[fr.Element](t)
}

func testLazyDomains[E primeElement](t *testing.T) {
	// the fields every field's *fft.Domain has, and whether Twiddles errs
	fields := func(d any) ([]any, error) {
		v := reflect.ValueOf(d).Elem()
		var out []any
		for _, f := range []string{"Cardinality", "CardinalityInv", "Generator", "GeneratorInv", "FrMultiplicativeGen", "FrMultiplicativeGenInv"} {
			out = append(out, v.FieldByName(f).Interface())
		}
		err, _ := reflect.ValueOf(d).MethodByName("Twiddles").Call(nil)[1].Interface().(error)
		return out, err
	}
	var lazy, eager primeDomains[E]
	lazy.lazy = true
	for _, logRows := range []int{0, 3, 9} {
		ls, ll, err := lazy.get(logRows, 4)
		require.NoError(t, err)
		es, el, err := eager.get(logRows, 4)
		require.NoError(t, err)
		for i, pair := range [][2]any{{ls, es}, {ll, el}} {
			lf, lerr := fields(pair[0])
			ef, eerr := fields(pair[1])
			assert.Equal(t, ef, lf, "%v 2^%d domain %d: sizes, roots, shifts", FieldOf[E](), logRows, i)
			assert.NoError(t, eerr, "%v 2^%d domain %d: the CPU encoder's has its tables", FieldOf[E](), logRows, i)
			assert.Error(t, lerr, "%v 2^%d domain %d: the GPU encoder's has none", FieldOf[E](), logRows, i)
		}
	}
}
