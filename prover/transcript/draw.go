package transcript

import (
	"encoding/binary"
	"fmt"
	"math/bits"

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

// stream is the squeezed byte stream of one draw: blocks
// H(0x02 ‖ state ‖ header ‖ le64(i)), i = 0, 1, …, end to end.
type stream struct {
	t     *Transcript
	ctr   uint64
	block []byte
	off   int
}

// begin starts a draw: it sets t.pre = 0x02 ‖ state ‖ header, header =
// kind ‖ le64(len(tag)) ‖ tag ‖ le64(len(params)) ‖ params, and returns
// the draw's stream.
func (t *Transcript) begin(kind byte, tag string, params ...uint64) *stream {
	p := append(t.pre[:0], domStream)
	p = append(p, t.state...)
	p = append(p, kind)
	p = binary.LittleEndian.AppendUint64(p, uint64(len(tag)))
	p = append(p, tag...)
	p = binary.LittleEndian.AppendUint64(p, uint64(8*len(params)))
	for _, v := range params {
		p = binary.LittleEndian.AppendUint64(p, v)
	}
	t.pre = p
	t.s = stream{t: t, block: t.s.block[:0]}
	return &t.s
}

// end finishes a draw: state = H(0x03 ‖ state ‖ header).
func (t *Transcript) end() {
	if t.err != nil {
		return
	}
	defer t.guard()
	t.pre[0] = domRatchet
	t.h.Reset()
	t.write(t.pre)
	t.state = t.sum(t.state)
}

// read fills p with the stream's next bytes; false when the hash failed.
func (s *stream) read(p []byte) bool {
	for len(p) > 0 {
		if s.off == len(s.block) {
			if !s.next() {
				return false
			}
		}
		n := copy(p, s.block[s.off:])
		s.off += n
		p = p[n:]
	}
	return true
}

func (s *stream) next() (ok bool) {
	t := s.t
	defer t.guard()
	t.h.Reset()
	t.write(t.pre)
	t.writeLen(s.ctr)
	s.ctr++
	s.block = t.sum(s.block)
	s.off = 0
	return t.err == nil
}

// word reads size bytes (1..8) little-endian, keeps the bits of mask and
// returns the first value below q (q = 0: every value), as prover.DrawExt.
func (s *stream) word(size int, mask, q uint64) (uint64, error) {
	var b [8]byte
	for range maxRejects {
		if !s.read(b[:size]) {
			return 0, s.t.err
		}
		w := binary.LittleEndian.Uint64(b[:]) & mask
		if q == 0 || w < q {
			return w, nil
		}
	}
	return 0, fmt.Errorf("transcript: %d words in a row out of range: %w", maxRejects, ErrDraw)
}

func (s *stream) bn254() (fr.Element, error) {
	var b [fr.Bytes]byte
	for range maxRejects {
		if !s.read(b[:]) {
			return fr.Element{}, s.t.err
		}
		b[fr.Bytes-1] &= 0x3f
		if e, err := fr.LittleEndian.Element(&b); err == nil {
			return e, nil
		}
	}
	return fr.Element{}, fmt.Errorf("transcript: %d words in a row out of range: %w", maxRejects, ErrDraw)
}

var (
	qGoldilocks = goldilocks.Modulus().Uint64()
	qBabyBear   = babybear.Modulus().Uint64()
	qKoalaBear  = koalabear.Modulus().Uint64()
)

// coords draws n coordinates of a 31- or 64-bit prime field.
func (s *stream) coords(c []uint64, size int, mask, q uint64) error {
	for i := range c {
		w, err := s.word(size, mask, q)
		if err != nil {
			return err
		}
		c[i] = w
	}
	return nil
}

func kindOf[X Field]() byte {
	var z X
	switch any(z).(type) {
	case gf64.Element:
		return kindGF64
	case goldilocks.Element:
		return kindGoldilocks
	case babybear.Element:
		return kindBabyBear
	case koalabear.Element:
		return kindKoalaBear
	case fr.Element:
		return kindBN254
	case gf128.Element:
		return kindGF128
	case glext.E2:
		return kindGoldE2
	case bbext.E4:
		return kindBabyE4
	default:
		return kindKoalaE4
	}
}

// Draw draws a uniformly distributed element of X under tag. Its
// coordinates over the trace field are read from the draw's stream one
// after another, in the type's order, by rejection sampling of
// little-endian words exactly as prover.DrawExt reads its io.Reader
// (BabyBear, KoalaBear: 4 bytes, low 31 bits, accepted below p;
// Goldilocks: 8 bytes, accepted below p; BN254: 32 bytes, low 254 bits,
// accepted below r; GF(2^64): 8 bytes, always accepted), so a challenge
// field's element equals prover.DrawExt's on the same bytes. A trace
// field's element is one such coordinate.
//
// Errors: the transcript's hash failure (Err), or one wrapping ErrDraw
// after 128 rejected words in a row.
func Draw[X Field](t *Transcript, tag string) (X, error) {
	var z X
	if t.err != nil {
		return z, t.err
	}
	s := t.begin(kindOf[X](), tag)
	var out any
	var err error
	var c [4]uint64
	switch any(z).(type) {
	case gf64.Element:
		err = s.coords(c[:1], 8, ^uint64(0), 0)
		out = gf64.Element(c[0])
	case gf128.Element:
		err = s.coords(c[:2], 8, ^uint64(0), 0)
		out = gf128.Element{A0: gf64.Element(c[0]), A1: gf64.Element(c[1])}
	case goldilocks.Element:
		err = s.coords(c[:1], 8, ^uint64(0), qGoldilocks)
		out = goldilocks.NewElement(c[0])
	case glext.E2:
		err = s.coords(c[:2], 8, ^uint64(0), qGoldilocks)
		out = glext.E2{A0: goldilocks.NewElement(c[0]), A1: goldilocks.NewElement(c[1])}
	case babybear.Element:
		err = s.coords(c[:1], 4, 1<<31-1, qBabyBear)
		out = babybear.NewElement(c[0])
	case bbext.E4:
		err = s.coords(c[:4], 4, 1<<31-1, qBabyBear)
		out = bbext.E4{
			B0: bbext.E2{A0: babybear.NewElement(c[0]), A1: babybear.NewElement(c[1])},
			B1: bbext.E2{A0: babybear.NewElement(c[2]), A1: babybear.NewElement(c[3])}}
	case koalabear.Element:
		err = s.coords(c[:1], 4, 1<<31-1, qKoalaBear)
		out = koalabear.NewElement(c[0])
	case kbext.E4:
		err = s.coords(c[:4], 4, 1<<31-1, qKoalaBear)
		out = kbext.E4{
			B0: kbext.E2{A0: koalabear.NewElement(c[0]), A1: koalabear.NewElement(c[1])},
			B1: kbext.E2{A0: koalabear.NewElement(c[2]), A1: koalabear.NewElement(c[3])}}
	case fr.Element:
		out, err = s.bn254()
	}
	if err != nil {
		t.fail(fmt.Errorf("transcript: Draw %T %q: %w", z, tag, err))
		return z, t.err
	}
	t.end()
	if t.err != nil {
		return z, t.err
	}
	return out.(X), nil
}

// DrawIndices draws count indices, each uniform in [0, n), under tag; n is
// any integer from 1 up (a power of two never rejects). Each index reads
// 8-byte little-endian words from the draw's stream, keeps their low k
// bits, k = bitlen(n−1), and takes the first value below n, so there is no
// modulo bias. The indices are independent: duplicates are kept, in draw
// order; a caller that wants distinct query positions removes them. n and
// count are part of the draw's header, so draws of different ranges or
// counts are unrelated.
//
// Errors: one wrapping ErrParam for n < 1 or count outside 0..MaxIndices,
// the transcript's hash failure, or one wrapping ErrDraw after 128
// rejected words in a row.
func (t *Transcript) DrawIndices(tag string, n, count int) ([]int, error) {
	if n < 1 || count < 0 || count > MaxIndices {
		return nil, fmt.Errorf("transcript: DrawIndices %q: n = %d, count = %d: need n ≥ 1 and 0 ≤ count ≤ %d: %w",
			tag, n, count, MaxIndices, ErrParam)
	}
	if t.err != nil {
		return nil, t.err
	}
	s := t.begin(kindIndices, tag, uint64(n), uint64(count))
	mask := uint64(1)<<bits.Len64(uint64(n-1)) - 1
	out := make([]int, count)
	for i := range out {
		w, err := s.word(8, mask, uint64(n))
		if err != nil {
			t.fail(fmt.Errorf("transcript: DrawIndices %q: %w", tag, err))
			return nil, t.err
		}
		out[i] = int(w)
	}
	t.end()
	if t.err != nil {
		return nil, t.err
	}
	return out, nil
}

// DrawBytes draws n bytes under tag: the first n bytes of the draw's
// stream. n is part of the draw's header.
//
// Errors: one wrapping ErrParam for n outside 0..MaxDrawBytes, or the
// transcript's hash failure.
func (t *Transcript) DrawBytes(tag string, n int) ([]byte, error) {
	if n < 0 || n > MaxDrawBytes {
		return nil, fmt.Errorf("transcript: DrawBytes %q: n = %d outside 0..%d: %w", tag, n, MaxDrawBytes, ErrParam)
	}
	if t.err != nil {
		return nil, t.err
	}
	s := t.begin(kindBytes, tag, uint64(n))
	out := make([]byte, n)
	if !s.read(out) {
		return nil, t.err
	}
	t.end()
	if t.err != nil {
		return nil, t.err
	}
	return out, nil
}
