package fri

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Sizes is the size in bytes of each part of a proof's encoding.
type Sizes struct {
	Values int // the claimed values
	Trace  int // the commitments' openings
	Layers int // the layers' roots and openings
	Final  int // the final polynomial and the nonce
	Total  int // MarshalBinary's length: the parts and the headers
}

// elemBytes returns the encoded size of one E.
func elemBytes[E Element]() int {
	var e E
	switch any(e).(type) {
	case gf64.Element, goldilocks.Element:
		return 8
	case babybear.Element, koalabear.Element:
		return 4
	}
	return fr.Bytes
}

// Sizes returns the size of each part of p's encoding.
func (p *Proof[E, X]) Sizes() Sizes {
	var s Sizes
	if p == nil {
		return s
	}
	xb := xBytes[E, X]()
	s.Total = 3 + 4
	for _, v := range p.Values {
		s.Total += 8
		for _, w := range v {
			s.Values += len(w) * xb
		}
	}
	for _, mo := range p.Trace {
		s.Trace += 4 + mo.Size()
	}
	s.Layers = 4
	for _, r := range p.Roots {
		s.Layers += len(r)
	}
	for _, mo := range p.Layers {
		s.Layers += 4 + mo.Size()
	}
	s.Final = 4 + len(p.Final)*xb + 8
	s.Total += s.Values + s.Trace + s.Layers + s.Final
	return s
}

func xBytes[E Element, X Challenge]() int {
	var x X
	return elemBytes[E]() * len(coordsOf[X, E](&x))
}

// MarshalBinary encodes the proof. The encoding, version 1, integers
// big-endian, elements in the leaf encoding of package merkle (GF(2^64): 8
// bytes little-endian; prime fields: the canonical value big-endian, 4, 8
// or 32 bytes), a challenge element as its coordinates in the type's order:
//
//	size        field
//	1           version, 1
//	1           field: 0 gf64, 1 Goldilocks, 2 BabyBear, 3 KoalaBear, 4 BN254
//	1           s, the size of a layer root (0 when there is no layer)
//	4           B, the number of commitments
//	8·B         for each commitment: its number of points P_b, its columns C_b (4 bytes each)
//	Σ P_b·C_b·x the values, commitment by commitment, point by point, column by column
//	4           R, the number of layers
//	R·s         the layer roots
//	4           D, the final polynomial's coefficients
//	D·x         the coefficients, constant first
//	8           the grinding nonce
//	B times     4-byte length ‖ the commitment's MultiOpening (merkle's encoding)
//	R times     4-byte length ‖ the layer's MultiOpening
//
// with x the size of a challenge element, and nothing after it.
func (p *Proof[E, X]) MarshalBinary() ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("fri: Proof.MarshalBinary: nil proof: %w", ErrProof)
	}
	o := algFor[E, X]()
	if o == nil {
		return nil, fmt.Errorf("fri: Proof.MarshalBinary: %w", ErrField)
	}
	if len(p.Trace) != len(p.Values) || len(p.Layers) != len(p.Roots) {
		return nil, fmt.Errorf("fri: Proof.MarshalBinary: %d commitments' values, %d openings; %d roots, %d layer openings: %w", len(p.Values), len(p.Trace), len(p.Roots), len(p.Layers), ErrProof)
	}
	s := 0
	if len(p.Roots) > 0 {
		s = len(p.Roots[0])
	}
	for _, r := range p.Roots {
		if len(r) != s || s > 255 {
			return nil, fmt.Errorf("fri: Proof.MarshalBinary: layer roots of different sizes: %w", ErrProof)
		}
	}
	b := make([]byte, 0, p.Sizes().Total)
	b = append(b, protocolVersion, byte(o.field()), byte(s))
	b = binary.BigEndian.AppendUint32(b, uint32(len(p.Values)))
	for _, v := range p.Values {
		c := 0
		if len(v) > 0 {
			c = len(v[0])
		}
		for _, w := range v {
			if len(w) != c {
				return nil, fmt.Errorf("fri: Proof.MarshalBinary: values of different widths in one commitment: %w", ErrProof)
			}
		}
		b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		b = binary.BigEndian.AppendUint32(b, uint32(c))
	}
	for _, v := range p.Values {
		for _, w := range v {
			b = appendX[E](b, w)
		}
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(p.Roots)))
	for _, r := range p.Roots {
		b = append(b, r...)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(p.Final)))
	b = appendX[E](b, p.Final)
	b = binary.BigEndian.AppendUint64(b, p.Nonce)
	for _, list := range [][]*merkle.MultiOpening[E]{p.Trace, p.Layers} {
		for _, mo := range list {
			m, err := mo.MarshalBinary()
			if err != nil {
				return nil, fmt.Errorf("fri: Proof.MarshalBinary: %w: %w", err, ErrProof)
			}
			b = binary.BigEndian.AppendUint32(b, uint32(len(m)))
			b = append(b, m...)
		}
	}
	return b, nil
}

// UnmarshalBinary decodes a proof written by MarshalBinary into p,
// replacing what it held. Anything else (another version or field, counts
// the bytes cannot hold, non-canonical elements, bytes missing or left
// over, an opening that does not parse) is an error wrapping ErrProof, and
// p is left unchanged. It allocates at most a small multiple of len(data).
func (p *Proof[E, X]) UnmarshalBinary(data []byte) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("fri: Proof.UnmarshalBinary: "+format+": %w", append(args, ErrProof)...)
	}
	o := algFor[E, X]()
	if o == nil {
		return fmt.Errorf("fri: Proof.UnmarshalBinary: %w", ErrField)
	}
	r := reader{b: data}
	ver, f, s := r.u8(), r.u8(), int(r.u8())
	switch {
	case r.short:
		return bad("%d bytes, shorter than the header", len(data))
	case ver != protocolVersion:
		return bad("version %d, want %d", ver, protocolVersion)
	case f != byte(o.field()):
		return bad("field %d, want %d (%v)", f, byte(o.field()), o.field())
	}
	xb := xBytes[E, X]()
	nb := r.count(8)
	if r.short {
		return bad("%d commitments in %d bytes", nb, len(data))
	}
	shape := make([][2]int, nb)
	total := 0
	for b := range shape {
		pp, cc := r.count(1), r.count(1)
		if r.short || (pp > 0 && cc > r.left()/(pp*xb)) || total > r.left()/xb-pp*cc {
			return bad("commitment %d: values of %d points × %d columns in %d bytes", b, pp, cc, r.left())
		}
		shape[b] = [2]int{pp, cc}
		total += pp * cc
	}
	vals := make([][][]X, nb)
	for b, sh := range shape {
		vals[b] = make([][]X, sh[0])
		for k := range vals[b] {
			vals[b][k] = make([]X, sh[1])
			if err := readX[E](&r, vals[b][k]); err != nil {
				return bad("commitment %d, point %d: %v", b, k, err)
			}
		}
	}
	nr := r.count(max(s, 1))
	if r.short || (nr > 0) != (s > 0) {
		return bad("%d layer roots of %d bytes", nr, s)
	}
	roots := make([][]byte, nr)
	for k := range roots {
		roots[k] = append([]byte(nil), r.take(s)...)
	}
	nd := r.count(xb)
	if r.short {
		return bad("final polynomial of %d coefficients", nd)
	}
	final := make([]X, nd)
	if err := readX[E](&r, final); err != nil {
		return bad("final polynomial: %v", err)
	}
	nonce := r.u64()
	opens := func(n int, what string) ([]*merkle.MultiOpening[E], error) {
		out := make([]*merkle.MultiOpening[E], n)
		for k := range out {
			m := r.count(1)
			body := r.take(m)
			if r.short {
				return nil, bad("%s %d: opening of %d bytes past the end", what, k, m)
			}
			out[k] = new(merkle.MultiOpening[E])
			if err := out[k].UnmarshalBinary(body); err != nil {
				return nil, bad("%s %d: %v", what, k, err)
			}
		}
		return out, nil
	}
	tr, err := opens(nb, "commitment")
	if err != nil {
		return err
	}
	ly, err := opens(nr, "layer")
	if err != nil {
		return err
	}
	if r.short || r.left() != 0 {
		return bad("%d bytes left over", r.left())
	}
	*p = Proof[E, X]{Values: vals, Roots: roots, Final: final, Nonce: nonce, Trace: tr, Layers: ly}
	return nil
}

// appendX appends challenge elements in the encoding of MarshalBinary.
func appendX[E Element, X any](b []byte, xs []X) []byte {
	for i := range xs {
		for _, e := range coordsOf[X, E](&xs[i]) {
			switch v := any(e).(type) {
			case gf64.Element:
				b = binary.LittleEndian.AppendUint64(b, uint64(v))
			case goldilocks.Element:
				w := v.Bytes()
				b = append(b, w[:]...)
			case babybear.Element:
				w := v.Bytes()
				b = append(b, w[:]...)
			case koalabear.Element:
				w := v.Bytes()
				b = append(b, w[:]...)
			case fr.Element:
				w := v.Bytes()
				b = append(b, w[:]...)
			}
		}
	}
	return b
}

// reader reads big-endian integers and elements, noting a short read.
type reader struct {
	b     []byte
	short bool
}

func (r *reader) left() int { return len(r.b) }
func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.short, r.b = true, nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}
func (r *reader) u8() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}
func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

// count reads a 4-byte count of items of at least unit bytes each, and
// marks the read short when the rest cannot hold them.
func (r *reader) count(unit int) int {
	b := r.take(4)
	if b == nil {
		return 0
	}
	n := uint64(binary.BigEndian.Uint32(b))
	if n > math.MaxInt32 || n*uint64(unit) > uint64(len(r.b)) {
		r.short = true
		return 0
	}
	return int(n)
}

// readX decodes len(dst) challenge elements; a prime-field coordinate
// must be canonical (below the modulus).
func readX[E Element, X any](r *reader, dst []X) error {
	eb := elemBytes[E]()
	for i := range dst {
		for k := range coordsOf[X, E](&dst[i]) {
			b := r.take(eb)
			if b == nil {
				return fmt.Errorf("elements past the end")
			}
			c := &coordsOf[X, E](&dst[i])[k]
			var err error
			switch v := any(c).(type) {
			case *gf64.Element:
				*v = gf64.Element(binary.LittleEndian.Uint64(b))
			case *goldilocks.Element:
				*v, err = goldilocks.BigEndian.Element((*[goldilocks.Bytes]byte)(b))
			case *babybear.Element:
				*v, err = babybear.BigEndian.Element((*[babybear.Bytes]byte)(b))
			case *koalabear.Element:
				*v, err = koalabear.BigEndian.Element((*[koalabear.Bytes]byte)(b))
			case *fr.Element:
				*v, err = fr.BigEndian.Element((*[fr.Bytes]byte)(b))
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
