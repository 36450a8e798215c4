package transcript

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"

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

// Version is the protocol version byte hashed into every transcript's
// initial state. A change of the byte format below changes it.
const Version = 1

// protocol is the fixed name hashed before the version and the label.
const protocol = "gfpoly transcript"

// The domain bytes: the first byte of every hash input (see the package
// documentation, "Byte format").
const (
	domInit    = 0x00
	domAbsorb  = 0x01
	domStream  = 0x02
	domRatchet = 0x03
	domGrind   = 0x04
	domNonce   = 0x05
)

// The kind bytes: what an absorb's message or a draw's output is.
const (
	kindBytes      = 0x00
	kindRoot       = 0x01
	kindGF64       = 0x10
	kindGoldilocks = 0x11
	kindBabyBear   = 0x12
	kindKoalaBear  = 0x13
	kindBN254      = 0x14
	kindGF128      = 0x20
	kindGoldE2     = 0x21
	kindBabyE4     = 0x22
	kindKoalaE4    = 0x23
	kindIndices    = 0x30
)

// Field is the set of element types a transcript absorbs and draws: the
// trace fields (GF(2^64), Goldilocks, BabyBear, KoalaBear, BN254) and their
// challenge fields (GF(2^128), Goldilocks E2, BabyBear E4, KoalaBear E4;
// BN254 is its own), gnark-crypto's types as they are.
type Field interface {
	gf64.Element | goldilocks.Element | babybear.Element | koalabear.Element | fr.Element |
		gf128.Element | glext.E2 | bbext.E4 | kbext.E4
}

// Errors callers branch on.
var (
	// ErrHash is wrapped when the configured hash is unfit (a Size outside
	// 16..64, a failing Write, outputs that differ for equal inputs) or
	// panicked; once a transcript's hash has failed, every later draw and
	// grind returns the error (see Err).
	ErrHash = errors.New("transcript: unfit hash")
	// ErrParam is wrapped when an argument is out of range (grinding bits
	// above 32, an index range n < 1, a negative count).
	ErrParam = errors.New("transcript: argument out of range")
	// ErrDraw is wrapped when the squeezed stream gave maxRejects words in
	// a row outside the range drawn from (a uniform stream does so with
	// probability below 2^−128): the hash is not fit for sampling.
	ErrDraw = errors.New("transcript: byte stream unfit for drawing")
	// ErrGrind is wrapped by CheckGrind's error for a nonce that does not
	// meet the proof-of-work condition.
	ErrGrind = errors.New("transcript: grinding nonce rejected")
	// ErrGrindLimit is wrapped by Grind's error when no nonce below the
	// grinding limit (WithGrindLimit) meets the condition.
	ErrGrindLimit = errors.New("transcript: no grinding nonce below the limit")
)

// Limits on the arguments of the draws.
const (
	// MaxBits is the largest proof-of-work difficulty Grind and CheckGrind take.
	MaxBits = 32
	// MaxIndices is the largest count DrawIndices takes.
	MaxIndices = 1 << 24
	// MaxDrawBytes is the largest length DrawBytes takes.
	MaxDrawBytes = 1 << 26
	// DefaultGrindLimit is the number of nonces Grind tries before it gives
	// up: 2^40, 256 times the expected work at 32 bits (failing then has
	// probability e^−256).
	DefaultGrindLimit = 1 << 40
)

// maxRejects bounds the rejected words of one draw, so that no hash makes a
// draw loop forever (prover.DrawExt's bound).
const maxRejects = 128

// Option configures New.
type Option func(*config)

type config struct {
	newHash    func() hash.Hash
	grindLimit uint64
	sha256     bool // no WithHash: crypto/sha256
}

// WithHash makes the transcript hash with h (default crypto/sha256's New).
// New calls h and checks what it returns: a non-nil hash.Hash whose Size is
// 16 to 64 bytes, whose Write takes every byte without error, and whose
// outputs are equal for equal inputs (across instances and after Reset) and
// differ for different ones. h is called only from the goroutine that calls
// the transcript's methods (Grind hands the instances it makes to its
// workers, one each), so it need not be safe for concurrent use.
func WithHash(h func() hash.Hash) Option {
	return func(c *config) { c.newHash, c.sha256 = h, false }
}

// WithGrindLimit sets how many nonces (0 .. limit−1) Grind tries before it
// returns ErrGrindLimit (default DefaultGrindLimit). The limit binds only
// the prover: CheckGrind accepts any nonce that meets the condition.
func WithGrindLimit(limit uint64) Option { return func(c *config) { c.grindLimit = limit } }

// Transcript is a Fiat–Shamir transcript: a state of one hash output,
// updated by every absorb, draw and grind (see the package documentation).
// A Transcript is not safe for concurrent use; Clone gives an independent
// copy.
type Transcript struct {
	newHash    func() hash.Hash
	h          hash.Hash
	size       int
	grindLimit uint64
	sha256     bool // the default hash (GrindSearch)
	state      []byte
	msg        []byte // scratch: an absorb's encoded elements
	pre        []byte // scratch: a draw's dom ‖ state ‖ header
	s          stream
	err        error
	w8         [8]byte
}

// New returns a transcript whose initial state is
// H(0x00 ‖ "gfpoly transcript" ‖ Version ‖ le64(len(label)) ‖ label),
// label naming the protocol and its instance. It returns an error wrapping
// ErrHash when the hash (WithHash) is unfit or panics, and one wrapping
// ErrParam for a zero grinding limit.
func New(label string, opts ...Option) (*Transcript, error) {
	c := config{newHash: sha256.New, grindLimit: DefaultGrindLimit, sha256: true}
	for _, o := range opts {
		o(&c)
	}
	if c.grindLimit == 0 {
		return nil, fmt.Errorf("transcript: New: grinding limit 0: %w", ErrParam)
	}
	h, err := checkHash(c.newHash)
	if err != nil {
		return nil, err
	}
	t := &Transcript{newHash: c.newHash, h: h, size: h.Size(), grindLimit: c.grindLimit, sha256: c.sha256}
	t.hashInit(label)
	if t.err != nil {
		return nil, t.err
	}
	return t, nil
}

// checkHash calls f and checks the hash it returns, recovering its panics.
func checkHash(f func() hash.Hash) (h hash.Hash, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("transcript: New: the hash panicked: %v: %w", r, ErrHash)
		}
	}()
	if f == nil {
		return nil, fmt.Errorf("transcript: New: nil hash constructor: %w", ErrHash)
	}
	h = f()
	if h == nil {
		return nil, fmt.Errorf("transcript: New: the hash constructor returned nil: %w", ErrHash)
	}
	size := h.Size()
	if size < 16 || size > 64 {
		return nil, fmt.Errorf("transcript: New: hash size %d bytes, not 16..64: %w", size, ErrHash)
	}
	sum := func(h hash.Hash, msg string) ([]byte, error) {
		h.Reset()
		n, err := h.Write([]byte(msg))
		if err != nil || n != len(msg) {
			return nil, fmt.Errorf("transcript: New: hash Write took %d of %d bytes (error %v): %w", n, len(msg), err, ErrHash)
		}
		d := h.Sum(nil)
		if len(d) != size {
			return nil, fmt.Errorf("transcript: New: hash Sum gave %d bytes, Size says %d: %w", len(d), size, ErrHash)
		}
		if e := h.Sum(nil); string(e) != string(d) {
			return nil, fmt.Errorf("transcript: New: hash Sum changed the hash's state: %w", ErrHash)
		}
		return d, nil
	}
	const m1, m2 = "gfpoly transcript hash check", "gfpoly transcript hash check."
	a, err := sum(h, m1)
	if err != nil {
		return nil, err
	}
	b, err := sum(h, m2)
	if err != nil {
		return nil, err
	}
	c, err := sum(h, m1) // after Reset
	if err != nil {
		return nil, err
	}
	h2 := f()
	if h2 == nil {
		return nil, fmt.Errorf("transcript: New: the hash constructor returned nil: %w", ErrHash)
	}
	d, err := sum(h2, m1) // another instance
	if err != nil {
		return nil, err
	}
	if string(a) != string(c) || string(a) != string(d) {
		return nil, fmt.Errorf("transcript: New: the hash gave different outputs for equal inputs: %w", ErrHash)
	}
	if string(a) == string(b) {
		return nil, fmt.Errorf("transcript: New: the hash gave equal outputs for different inputs: %w", ErrHash)
	}
	return h, nil
}

// guard turns a panic of the hash into the transcript's error; deferred by
// every method that hashes.
func (t *Transcript) guard() {
	if r := recover(); r != nil {
		t.fail(fmt.Errorf("transcript: the hash panicked: %v: %w", r, ErrHash))
	}
}

func (t *Transcript) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// write feeds b to t.h, recording a short or failed Write.
func (t *Transcript) write(b []byte) {
	if n, err := t.h.Write(b); err != nil || n != len(b) {
		t.fail(fmt.Errorf("transcript: hash Write took %d of %d bytes (error %v): %w", n, len(b), err, ErrHash))
	}
}

func (t *Transcript) writeByte(b byte) {
	t.w8[0] = b
	t.write(t.w8[:1])
}

func (t *Transcript) writeLen(n uint64) {
	binary.LittleEndian.PutUint64(t.w8[:], n)
	t.write(t.w8[:])
}

// sum ends a hash into dst (reusing its memory), checking its length.
func (t *Transcript) sum(dst []byte) []byte {
	d := t.h.Sum(dst[:0])
	if len(d) != t.size {
		t.fail(fmt.Errorf("transcript: hash Sum gave %d bytes, not %d: %w", len(d), t.size, ErrHash))
		return append(dst[:0], make([]byte, t.size)...)
	}
	return d
}

func (t *Transcript) hashInit(label string) {
	defer t.guard()
	t.h.Reset()
	t.writeByte(domInit)
	t.write([]byte(protocol))
	t.writeByte(Version)
	t.writeLen(uint64(len(label)))
	t.write([]byte(label))
	t.state = t.sum(make([]byte, 0, t.size))
}

// absorb sets state = H(0x01 ‖ state ‖ kind ‖ le64(len(tag)) ‖ tag ‖
// le64(len(msg)) ‖ msg).
func (t *Transcript) absorb(kind byte, tag string, msg []byte) {
	if t.err != nil {
		return
	}
	defer t.guard()
	p := append(t.pre[:0], domAbsorb)
	p = append(p, t.state...)
	p = append(p, kind)
	p = binary.LittleEndian.AppendUint64(p, uint64(len(tag)))
	p = append(p, tag...)
	p = binary.LittleEndian.AppendUint64(p, uint64(len(msg)))
	t.pre = p
	t.h.Reset()
	t.write(p)
	t.write(msg)
	t.state = t.sum(t.state)
}

// AbsorbBytes absorbs the message b under tag, the name of what b is (a
// claimed value, a parameter, a proof part). b is not modified or kept.
func (t *Transcript) AbsorbBytes(tag string, b []byte) { t.absorb(kindBytes, tag, b) }

// AbsorbRoot absorbs a commitment (a Merkle root) under tag. It differs
// from AbsorbBytes of the same bytes in its kind byte only.
func (t *Transcript) AbsorbRoot(tag string, root []byte) { t.absorb(kindRoot, tag, root) }

// Absorb absorbs the elements v under tag, as one message: their canonical
// encodings end to end (GF(2^64): 8 bytes little-endian; GF(2^128): A0 ‖ A1,
// each 8 bytes little-endian; prime fields: gnark-crypto's Bytes, the
// regular value big-endian, 4, 8 or 32 bytes; extensions coordinate by
// coordinate in the type's order), under the kind byte of T. Absorbing no
// element still absorbs the tag.
func Absorb[T Field](t *Transcript, tag string, v ...T) {
	if t.err != nil {
		return
	}
	m := t.msg[:0]
	var kind byte
	switch s := any(v).(type) {
	case []gf64.Element:
		kind = kindGF64
		for _, e := range s {
			m = binary.LittleEndian.AppendUint64(m, uint64(e))
		}
	case []goldilocks.Element:
		kind = kindGoldilocks
		for i := range s {
			b := s[i].Bytes()
			m = append(m, b[:]...)
		}
	case []babybear.Element:
		kind = kindBabyBear
		for i := range s {
			b := s[i].Bytes()
			m = append(m, b[:]...)
		}
	case []koalabear.Element:
		kind = kindKoalaBear
		for i := range s {
			b := s[i].Bytes()
			m = append(m, b[:]...)
		}
	case []fr.Element:
		kind = kindBN254
		for i := range s {
			b := s[i].Bytes()
			m = append(m, b[:]...)
		}
	case []gf128.Element:
		kind = kindGF128
		for _, e := range s {
			m = binary.LittleEndian.AppendUint64(m, uint64(e.A0))
			m = binary.LittleEndian.AppendUint64(m, uint64(e.A1))
		}
	case []glext.E2:
		kind = kindGoldE2
		for i := range s {
			for _, c := range [2]*goldilocks.Element{&s[i].A0, &s[i].A1} {
				b := c.Bytes()
				m = append(m, b[:]...)
			}
		}
	case []bbext.E4:
		kind = kindBabyE4
		for i := range s {
			for _, c := range [4]*babybear.Element{&s[i].B0.A0, &s[i].B0.A1, &s[i].B1.A0, &s[i].B1.A1} {
				b := c.Bytes()
				m = append(m, b[:]...)
			}
		}
	case []kbext.E4:
		kind = kindKoalaE4
		for i := range s {
			for _, c := range [4]*koalabear.Element{&s[i].B0.A0, &s[i].B0.A1, &s[i].B1.A0, &s[i].B1.A1} {
				b := c.Bytes()
				m = append(m, b[:]...)
			}
		}
	}
	t.msg = m
	t.absorb(kind, tag, m)
}

// State returns a copy of the current state, one hash output: for tests,
// and for binding the transcript into a proof.
func (t *Transcript) State() []byte { return append([]byte(nil), t.state...) }

// Err returns the first failure of the hash (a panic, a failed Write),
// wrapping ErrHash, or nil. After a failure absorbs do nothing and draws
// and grinds return the error.
func (t *Transcript) Err() error { return t.err }

// Size returns the size of the hash's output in bytes, the state's size.
func (t *Transcript) Size() int { return t.size }

// Clone returns an independent copy of t, with its own hash instance: both
// continue from the same state, for a prover that branches. A panic of the
// hash constructor becomes the copy's Err.
func (t *Transcript) Clone() *Transcript {
	c := &Transcript{newHash: t.newHash, size: t.size, grindLimit: t.grindLimit, sha256: t.sha256,
		state: t.State(), err: t.err}
	func() {
		defer c.guard()
		c.h = t.newHash()
		if c.h == nil {
			c.fail(fmt.Errorf("transcript: Clone: the hash constructor returned nil: %w", ErrHash))
		}
	}()
	return c
}
