package merkle

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Element is the set of element types a tree's rows can hold: GF(2^64) and
// the gnark-crypto prime fields, as they are (the prime types in Montgomery
// form). Package prover's Element is this one.
type Element interface {
	gf64.Element | goldilocks.Element | babybear.Element | koalabear.Element | fr.Element
}

// The field byte of the MultiOpening encoding: package prover's Field
// constants, in their order.
const (
	fieldGF64 byte = iota
	fieldGoldilocks
	fieldBabyBear
	fieldKoalaBear
	fieldBN254
)

// fieldOf returns the field byte of the element type E.
func fieldOf[E Element]() byte {
	var z E
	switch any(z).(type) {
	case gf64.Element:
		return fieldGF64
	case goldilocks.Element:
		return fieldGoldilocks
	case babybear.Element:
		return fieldBabyBear
	case koalabear.Element:
		return fieldKoalaBear
	default:
		return fieldBN254
	}
}

// fieldName returns the short name of a field byte (package prover's
// Field.String).
func fieldName(f byte) string {
	switch f {
	case fieldGF64:
		return "gf64"
	case fieldGoldilocks:
		return "goldilocks"
	case fieldBabyBear:
		return "babybear"
	case fieldKoalaBear:
		return "koalabear"
	case fieldBN254:
		return "bn254"
	}
	return fmt.Sprintf("field %d", f)
}

// ElementBytes returns the size of one element of E in the leaf encoding,
// which is also its size in memory: 8 for gf64 and Goldilocks, 4 for
// BabyBear and KoalaBear, 32 for BN254.
func ElementBytes[E Element]() int {
	switch fieldOf[E]() {
	case fieldGF64, fieldGoldilocks:
		return 8
	case fieldBabyBear, fieldKoalaBear:
		return 4
	default:
		return fr.Bytes
	}
}

// AppendRow appends enc(row), the leaf encoding of a row (its elements in
// column order; see the package documentation), to dst and returns the
// extended slice. A leaf's message is 0x00 ‖ enc(row).
func AppendRow[E Element](dst []byte, row []E) []byte {
	rb := len(row) * ElementBytes[E]()
	dst = slices.Grow(dst, rb)
	off := len(dst)
	dst = dst[:off+rb]
	putElements(dst[off:], row)
	return dst
}

// putElements writes the elements of src in the leaf encoding into dst
// (exactly that many bytes).
func putElements[E Element](dst []byte, src []E) {
	switch s := any(src).(type) {
	case []gf64.Element:
		for i, v := range s {
			binary.LittleEndian.PutUint64(dst[8*i:], uint64(v))
		}
	case []goldilocks.Element:
		for i, v := range s {
			goldilocks.BigEndian.PutElement((*[goldilocks.Bytes]byte)(dst[goldilocks.Bytes*i:]), v)
		}
	case []babybear.Element:
		for i, v := range s {
			babybear.BigEndian.PutElement((*[babybear.Bytes]byte)(dst[babybear.Bytes*i:]), v)
		}
	case []koalabear.Element:
		for i, v := range s {
			koalabear.BigEndian.PutElement((*[koalabear.Bytes]byte)(dst[koalabear.Bytes*i:]), v)
		}
	case []fr.Element:
		for i, v := range s {
			fr.BigEndian.PutElement((*[fr.Bytes]byte)(dst[fr.Bytes*i:]), v)
		}
	}
}

// putRows writes rows lo..hi−1 of the columns into buf, row after row, each
// row its elements in column order, each element in the leaf encoding:
// gf64 as 8 bytes little-endian (gf64.Element.Bytes), prime fields as
// gnark-crypto's canonical big-endian bytes of the regular (non-Montgomery)
// value (the encoding of Element.Bytes and Marshal). Row r starts at
// buf[(r−lo)·stride]; stride is at least len(cols)·ElementBytes.
func putRows[E Element](cols [][]E, lo, hi int, buf []byte, stride int) {
	switch cs := any(cols).(type) {
	case [][]gf64.Element:
		for c, col := range cs {
			off := 8 * c
			for _, v := range col[lo:hi] {
				binary.LittleEndian.PutUint64(buf[off:off+8], uint64(v))
				off += stride
			}
		}
	case [][]goldilocks.Element:
		for c, col := range cs {
			off := goldilocks.Bytes * c
			for _, v := range col[lo:hi] {
				goldilocks.BigEndian.PutElement((*[goldilocks.Bytes]byte)(buf[off:off+goldilocks.Bytes]), v)
				off += stride
			}
		}
	case [][]babybear.Element:
		for c, col := range cs {
			off := babybear.Bytes * c
			for _, v := range col[lo:hi] {
				babybear.BigEndian.PutElement((*[babybear.Bytes]byte)(buf[off:off+babybear.Bytes]), v)
				off += stride
			}
		}
	case [][]koalabear.Element:
		for c, col := range cs {
			off := koalabear.Bytes * c
			for _, v := range col[lo:hi] {
				koalabear.BigEndian.PutElement((*[koalabear.Bytes]byte)(buf[off:off+koalabear.Bytes]), v)
				off += stride
			}
		}
	case [][]fr.Element:
		for c, col := range cs {
			off := fr.Bytes * c
			for _, v := range col[lo:hi] {
				fr.BigEndian.PutElement((*[fr.Bytes]byte)(buf[off:off+fr.Bytes]), v)
				off += stride
			}
		}
	}
}

// getElements decodes len(dst) elements in the leaf encoding from src
// (exactly that many bytes); a prime-field value not below the modulus is
// an error.
func getElements[E Element](dst []E, src []byte) error {
	switch d := any(dst).(type) {
	case []gf64.Element:
		for i := range d {
			d[i] = gf64.Element(binary.LittleEndian.Uint64(src[8*i:]))
		}
	case []goldilocks.Element:
		for i := range d {
			v, err := goldilocks.BigEndian.Element((*[goldilocks.Bytes]byte)(src[goldilocks.Bytes*i:]))
			if err != nil {
				return err
			}
			d[i] = v
		}
	case []babybear.Element:
		for i := range d {
			v, err := babybear.BigEndian.Element((*[babybear.Bytes]byte)(src[babybear.Bytes*i:]))
			if err != nil {
				return err
			}
			d[i] = v
		}
	case []koalabear.Element:
		for i := range d {
			v, err := koalabear.BigEndian.Element((*[koalabear.Bytes]byte)(src[koalabear.Bytes*i:]))
			if err != nil {
				return err
			}
			d[i] = v
		}
	case []fr.Element:
		for i := range d {
			v, err := fr.BigEndian.Element((*[fr.Bytes]byte)(src[fr.Bytes*i:]))
			if err != nil {
				return err
			}
			d[i] = v
		}
	}
	return nil
}
