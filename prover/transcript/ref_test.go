package transcript_test

import (
	"encoding/binary"
	"hash"
	"io"
)

// ref is the transcript rewritten from the package documentation's byte
// format alone, hash input by hash input: the tests compare the package
// with it.
type ref struct {
	h     func() hash.Hash
	state []byte
}

func (r *ref) hash(parts ...[]byte) []byte {
	h := r.h()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

func le64(n uint64) []byte { return binary.LittleEndian.AppendUint64(nil, n) }

func newRef(h func() hash.Hash, label string) *ref {
	r := &ref{h: h}
	r.state = r.hash([]byte{0x00}, []byte("gfpoly transcript"), []byte{1}, le64(uint64(len(label))), []byte(label))
	return r
}

func (r *ref) absorb(kind byte, tag string, msg []byte) {
	r.state = r.hash([]byte{0x01}, r.state, []byte{kind}, le64(uint64(len(tag))), []byte(tag), le64(uint64(len(msg))), msg)
}

// header is kind ‖ le64(len(tag)) ‖ tag ‖ le64(len(params)) ‖ params.
func header(kind byte, tag string, params ...uint64) []byte {
	b := append([]byte{kind}, le64(uint64(len(tag)))...)
	b = append(b, tag...)
	b = append(b, le64(uint64(8*len(params)))...)
	for _, p := range params {
		b = append(b, le64(p)...)
	}
	return b
}

// refStream is a draw's stream: H(0x02 ‖ state ‖ header ‖ le64(i)).
type refStream struct {
	r      *ref
	state  []byte
	header []byte
	ctr    uint64
	buf    []byte
	n      int // bytes read
}

func (r *ref) stream(header []byte) *refStream {
	return &refStream{r: r, state: append([]byte(nil), r.state...), header: header}
}

func (s *refStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(s.buf) == 0 {
			s.buf = s.r.hash([]byte{0x02}, s.state, s.header, le64(s.ctr))
			s.ctr++
		}
		k := copy(p[n:], s.buf)
		s.buf = s.buf[k:]
		n += k
	}
	s.n += n
	return n, nil
}

var _ io.Reader = (*refStream)(nil)

// ratchet ends a draw: state = H(0x03 ‖ state ‖ header).
func (r *ref) ratchet(header []byte) {
	r.state = r.hash([]byte{0x03}, r.state, header)
}

// indices draws count indices below n, as the documentation says.
func (r *ref) indices(tag string, n, count int) []int {
	h := header(0x30, tag, uint64(n), uint64(count))
	s := r.stream(h)
	k := 0
	for (n-1)>>k != 0 {
		k++
	}
	out := make([]int, 0, count)
	for len(out) < count {
		var b [8]byte
		s.Read(b[:])
		w := binary.LittleEndian.Uint64(b[:]) & (1<<k - 1)
		if w < uint64(n) {
			out = append(out, int(w))
		}
	}
	r.ratchet(h)
	return out
}

// grindOK reports whether nonce meets the condition for bits.
func (r *ref) grindOK(bits int, nonce uint64) bool {
	d := r.hash([]byte{0x04}, r.state, []byte{byte(bits)}, le64(nonce))
	return bits == 0 || binary.BigEndian.Uint32(d)>>(32-bits) == 0
}

func (r *ref) absorbNonce(bits int, nonce uint64) {
	r.state = r.hash([]byte{0x05}, r.state, []byte{byte(bits)}, le64(nonce))
}
