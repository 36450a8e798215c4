package prover

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// ErrDraw is wrapped by DrawExt's error when the byte stream gave
// maxRejects words in a row outside the field (a uniform stream does so
// with probability below 2^−250): the stream is not random.
var ErrDraw = errors.New("prover: byte stream unfit for drawing challenges")

// maxRejects bounds the rejected words of one coordinate, so that no stream
// makes DrawExt loop forever.
const maxRejects = 128

// DrawExt draws a uniformly distributed element of the challenge field X
// from r, a stream of uniformly random bytes (a Fiat–Shamir transcript's
// output), the same element for the same bytes on every machine. The
// element's coordinates over the trace field are drawn one after another,
// in the type's order (E4: B0.A0, B0.A1, B1.A0, B1.A1; E2 and GF(2^128):
// A0, A1), each by rejection sampling of fixed-size little-endian words:
//
//	field        word       accepted when            value
//	BabyBear,    4 bytes    w & (2^31−1) < p          w & (2^31−1)
//	KoalaBear
//	Goldilocks   8 bytes    w < p                     w
//	BN254        32 bytes   w & (2^254−1) < r         w & (2^254−1)
//	GF(2^64)     8 bytes    always                    w (bit i: x^i)
//
// A rejected word is dropped and the next one read. The value is the
// coordinate's canonical (regular, non-Montgomery) integer; GF(2^128)'s
// two coordinates are the 16 bytes A0 ‖ A1. So a BabyBear E4 element
// usually takes 16 bytes, a Goldilocks E2 16, a GF(2^128) element 16 and a
// BN254 element 32 (more after rejections: 6% of BabyBear words, 0.8% of
// KoalaBear's, 2^−32 of Goldilocks', 24% of BN254's). The package
// documentation, "Challenges, combinations and evaluations", has test
// vectors.
//
// Errors: r's (io.ReadFull's: io.EOF when r ends before a word,
// io.ErrUnexpectedEOF inside one), or ErrDraw after maxRejects (128)
// rejected words in a row.
func DrawExt[X Ext](r io.Reader) (X, error) {
	var z X
	var out any
	var err error
	switch any(z).(type) {
	case gf128.Element:
		var c [2]gf64.Element
		for i := range c {
			var w uint64
			if w, err = drawWord(r, 8, ^uint64(0), 0); err != nil {
				break
			}
			c[i] = gf64.Element(w)
		}
		out = gf128.Element{A0: c[0], A1: c[1]}
	case glext.E2:
		var c [2]goldilocks.Element
		err = drawPrime(r, c[:], 8, ^uint64(0), goldilocks.Modulus().Uint64())
		out = glext.E2{A0: c[0], A1: c[1]}
	case bbext.E4:
		var c [4]babybear.Element
		err = drawPrime(r, c[:], 4, 1<<31-1, babybear.Modulus().Uint64())
		out = bbext.E4{B0: bbext.E2{A0: c[0], A1: c[1]}, B1: bbext.E2{A0: c[2], A1: c[3]}}
	case kbext.E4:
		var c [4]koalabear.Element
		err = drawPrime(r, c[:], 4, 1<<31-1, koalabear.Modulus().Uint64())
		out = kbext.E4{B0: kbext.E2{A0: c[0], A1: c[1]}, B1: kbext.E2{A0: c[2], A1: c[3]}}
	case fr.Element:
		out, err = drawBN254(r)
	}
	if err != nil {
		return z, fmt.Errorf("prover: DrawExt %T: %w", z, err)
	}
	return out.(X), nil
}

// drawPrime draws the coordinates dst of a 31- or 64-bit prime field.
func drawPrime[F any, P interface {
	*F
	SetUint64(uint64) *F
}](r io.Reader, dst []F, size int, mask, q uint64) error {
	for i := range dst {
		w, err := drawWord(r, size, mask, q)
		if err != nil {
			return err
		}
		P(&dst[i]).SetUint64(w)
	}
	return nil
}

// drawWord is the rejection sampler, generic over the modulus: it reads
// words of size bytes (1 to 8) little-endian, keeps the bits of mask, and
// returns the first value below q (q = 0: every value).
func drawWord(r io.Reader, size int, mask, q uint64) (uint64, error) {
	var b [8]byte
	for range maxRejects {
		if _, err := io.ReadFull(r, b[:size]); err != nil {
			return 0, err
		}
		w := binary.LittleEndian.Uint64(b[:]) & mask
		if q == 0 || w < q {
			return w, nil
		}
	}
	return 0, fmt.Errorf("%d words in a row out of range: %w", maxRejects, ErrDraw)
}

// drawBN254 draws an element of BN254's scalar field: 32 bytes
// little-endian, the top two bits cleared, accepted below r.
func drawBN254(r io.Reader) (fr.Element, error) {
	var b [fr.Bytes]byte
	for range maxRejects {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return fr.Element{}, err
		}
		b[fr.Bytes-1] &= 0x3f
		if e, err := fr.LittleEndian.Element(&b); err == nil {
			return e, nil
		}
	}
	return fr.Element{}, fmt.Errorf("%d words in a row out of range: %w", maxRejects, ErrDraw)
}
