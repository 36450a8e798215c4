package fri

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

func isFriErr(err error) bool {
	for _, s := range []error{ErrArity, ErrLength, ErrDomain, ErrField} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzFoldCoset folds caller-shaped BabyBear E4 codewords: any length,
// arity, destination length, shift and generator; either an error wrapping
// a sentinel or a fold that FoldCosetAt agrees with.
func FuzzFoldCoset(f *testing.F) {
	f.Add(uint8(4), uint8(2), int8(0), uint32(7), uint8(0), uint16(3), uint64(1))
	f.Add(uint8(5), uint8(16), int8(0), uint32(1), uint8(0), uint16(1), uint64(2))
	f.Add(uint8(3), uint8(3), int8(0), uint32(7), uint8(0), uint16(0), uint64(3))
	f.Add(uint8(4), uint8(4), int8(1), uint32(0), uint8(1), uint16(0), uint64(4))
	f.Add(uint8(130), uint8(8), int8(-1), uint32(9), uint8(2), uint16(9), uint64(5))
	f.Fuzz(func(t *testing.T, logN, arity uint8, dstDelta int8, shiftV uint32, omegaPick uint8, j uint16, seed uint64) {
		n := 1 << (logN % 9)
		if logN&0x80 != 0 {
			n += int(logN % 5) // not a power of two
		}
		r := rand.New(rand.NewPCG(seed, 1))
		src := make([]bbext.E4, n)
		for i := range src {
			src[i].B0.A0.SetUint64(r.Uint64())
			src[i].B1.A1.SetUint64(r.Uint64())
		}
		var shift, omega babybear.Element
		shift.SetUint64(uint64(shiftV))
		switch omegaPick % 3 {
		case 0:
			omega, _ = babybear.Generator(uint64(max(n, 1)))
		case 1:
			omega, _ = babybear.Generator(uint64(2 * max(n, 1)))
		default:
			omega.SetUint64(uint64(omegaPick))
		}
		a := int(arity)
		var beta bbext.E4
		beta.B0.A1.SetUint64(seed)
		m := 0
		if a > 0 {
			m = n / a
		}
		dst := make([]bbext.E4, max(0, m+int(dstDelta%3)))
		// The verifier's side on its own, with caller n and j.
		if _, err := FoldCosetAt(src[:min(a, len(src))], shift, omega, int(int16(j))<<(logN%7), int(j)-3, beta); err != nil && !isFriErr(err) {
			t.Fatalf("FoldCosetAt: error without a sentinel: %v", err)
		}
		err := FoldCoset(dst, src, shift, omega, a, beta)
		if err != nil {
			if !isFriErr(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		jj := int(j) % m
		leaf := make([]bbext.E4, a)
		for u := range leaf {
			leaf[u] = src[jj+u*m]
		}
		got, err := FoldCosetAt(leaf, shift, omega, n, jj, beta)
		if err != nil {
			t.Fatalf("FoldCoset accepted what FoldCosetAt refuses: %v", err)
		}
		if got != dst[jj] {
			t.Fatalf("leaf %d: FoldCosetAt differs from FoldCoset", jj)
		}
	})
}

// FuzzFoldSubspace folds caller-shaped GF(2^128) codewords over subspaces
// built from caller bytes.
func FuzzFoldSubspace(f *testing.F) {
	f.Add([]byte("0123456789abcdef0123456789abcdef"), uint8(2), int8(0), int16(0), uint16(1))
	f.Add([]byte("0123456789abcdef0123456789abcdefghijklmnopqrstuv"), uint8(16), int8(0), int16(0), uint16(0))
	f.Add([]byte("01234567"), uint8(4), int8(1), int16(-1), uint16(0))
	f.Fuzz(func(t *testing.T, basisBytes []byte, arity uint8, dstDelta int8, srcDelta int16, j uint16) {
		var basis []gf64.Element
		for len(basisBytes) >= 8 && len(basis) < 9 {
			basis = append(basis, gf64.Element(binary.LittleEndian.Uint64(basisBytes)))
			basisBytes = basisBytes[8:]
		}
		s, err := domain.New(gf64.Element(len(basisBytes)), basis...)
		if err != nil {
			return // dependent basis: not a domain
		}
		n := max(0, s.Size()+int(srcDelta%3))
		src := make([]gf128.Element, n)
		for i := range src {
			src[i] = gf128.Element{A0: gf64.Element(i*7 + 1), A1: gf64.Element(i)}
		}
		a := int(arity)
		m := 0
		if a > 0 {
			m = n / a
		}
		dst := make([]gf128.Element, max(0, m+int(dstDelta%3)))
		beta := gf128.Element{A0: 3, A1: gf64.Element(j)}
		if _, err := FoldSubspaceAt(src[:min(a, len(src))], s, int(j)-3, beta); err != nil && !isFriErr(err) {
			t.Fatalf("FoldSubspaceAt: error without a sentinel: %v", err)
		}
		if err := FoldSubspace(dst, src, s, a, beta); err != nil {
			if !isFriErr(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		jj := int(j) % m
		got, err := FoldSubspaceAt(src[jj*a:(jj+1)*a], s, jj, beta)
		if err != nil {
			t.Fatalf("FoldSubspace accepted what FoldSubspaceAt refuses: %v", err)
		}
		if !got.Equal(dst[jj]) {
			t.Fatalf("leaf %d: FoldSubspaceAt differs from FoldSubspace", jj)
		}
	})
}
