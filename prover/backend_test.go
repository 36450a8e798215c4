package prover

import (
	"errors"
	"fmt"
	"math/rand/v2"
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
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := RandomTrace[gf64.Element](k, cols, uint64(k))
		lde, err := enc.Encode(tr)
		if err != nil {
			t.Fatalf("2^%d×%d blowup %d: %v", k, cols, b, err)
		}
		S, T, err := DefaultBinaryDomains(k, log2(b))
		if err != nil {
			t.Fatal(err)
		}
		code, err := rs.New(S, T)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]gf64.Element, T.Size())
		for c := range tr {
			if err := code.Encode(want, tr[c]); err != nil {
				t.Fatal(err)
			}
			if !equal(lde[c], want) {
				t.Fatalf("2^%d×%d blowup %d: column %d differs from rs", k, cols, b, c)
			}
			if c == 0 {
				coeffs := append([]gf64.Element(nil), tr[c]...)
				if err := S.IFFT(coeffs); err != nil {
					t.Fatal(err)
				}
				ref := make([]gf64.Element, T.Size())
				copy(ref, coeffs)
				if err := T.FFT(ref); err != nil {
					t.Fatal(err)
				}
				if !equal(lde[c], ref) {
					t.Fatalf("2^%d blowup %d: column 0 differs from T.FFT(S.IFFT(·))", k, b)
				}
			}
		}
		// The codeword space is disjoint from the message space, so a
		// codeword is not a copy of its message.
		if k > 2 && equal(lde[0][:1<<k], tr[0]) {
			t.Fatal("codeword starts with its message")
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
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := RandomTrace[gf64.Element](6, 2, 3)
	lde, err := enc.Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(lde[1][:64], tr[1]) {
		t.Fatal("systematic codeword does not start with its message")
	}
	bad := func(k, lb int) (*domain.Subspace, *domain.Subspace, error) { return sys(k, lb+1) }
	enc, _ = New[gf64.Element](WithBinaryDomains(bad))
	if _, err := enc.Encode(tr); !errors.Is(err, ErrConfig) {
		t.Fatalf("wrong dimensions: %v", err)
	}
	if _, err := New[gf64.Element](WithBinaryDomains(nil)); !errors.Is(err, ErrConfig) {
		t.Fatalf("nil domains: %v", err)
	}
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
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := RandomTrace[E](k, cols, uint64(k))
		lde, err := enc.Encode(tr)
		if err != nil {
			t.Fatalf("%v 2^%d×%d blowup %d: %v", FieldOf[E](), k, cols, b, err)
		}
		if k == 0 { // a constant: its extension repeats it
			for c := range cols {
				for _, v := range lde[c] {
					if v != tr[c][0] {
						t.Fatalf("%v: extension of a constant column %d is not constant", FieldOf[E](), c)
					}
				}
			}
			continue
		}
		for _, c := range []int{0, cols / 2, cols - 1} {
			if want := primeRef(tr[c], b); !equal(lde[c], want) {
				t.Fatalf("%v 2^%d blowup %d: column %d differs from gnark-crypto", FieldOf[E](), k, b, c)
			}
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
	enc, _ := New[koalabear.Element](WithBlowup(4))
	p := enc.(*primeCPU[koalabear.Element])
	if _, err := p.plan(23); !errors.Is(err, ErrShape) {
		t.Fatalf("2^23 × 4 KoalaBear: %v", err)
	}
}

// testOpenVerify commits a random trace on a backend, opens random rows and
// verifies them, and checks that a changed element fails.
func testOpenVerify[E Element](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes(t) {
		k, cols, b := sh[0], sh[1], sh[2]
		enc, err := New[E](WithBlowup(b))
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := RandomTrace[E](k, cols, 42)
		c, err := enc.Commit(tr)
		if err != nil {
			t.Fatalf("%s: %v", enc.Name(), err)
		}
		idx := make([]int, 8)
		for i := range idx {
			idx[i] = r.IntN(c.Rows())
		}
		o, err := c.Open(idx)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(c.Root(), c.Rows(), o.Indices, o.Rows, o.Paths, nil); err != nil {
			t.Fatalf("%s 2^%d×%d blowup %d: %v", enc.Name(), k, cols, b, err)
		}
		for i, row := range o.Rows {
			if want := c.LDE()[cols-1][idx[i]]; row[cols-1] != want {
				t.Fatalf("%s: opened row %d is not the LDE's", enc.Name(), idx[i])
			}
		}
		o.Rows[3][cols/2] = tr[0][0]
		if o.Rows[3][cols/2] != c.LDE()[cols/2][idx[3]] {
			if err := o.Verify(c.Root(), c.Rows(), nil); !errors.Is(err, ErrVerify) {
				t.Fatalf("%s: changed row: %v", enc.Name(), err)
			}
		}
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
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
		if b.Field() != f || b.Name() != f.String()+"/cpu" || b.Blowup() != 8 || b.Device() == "" {
			t.Errorf("%s: field %v blowup %d device %q", b.Name(), b.Field(), b.Blowup(), b.Device())
		}
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
		if err != nil {
			t.Fatal(err)
		}
		check(b, f)
		if g, err := ParseField(f.String()); err != nil || g != f {
			t.Errorf("ParseField(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseField("gf32"); err == nil {
		t.Error("ParseField(gf32) accepted")
	}
}

func equal[E comparable](a, b []E) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
