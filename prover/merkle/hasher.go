package merkle

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"sync"
)

// Domain-separation tags: a leaf digest is H(LeafTag ‖ enc(row)), an
// internal node H(NodeTag ‖ left ‖ right), so that no leaf can pass for a
// node. A device that hashes rows is given them (gpu/rowhash).
const (
	LeafTag byte = 0x00
	NodeTag byte = 0x01
)

// Bounds on the digest size of a caller's hash: below 16 bytes a tree binds
// nothing worth the name (collisions in 2^64 work), above 128 no hash in use
// gives more.
const (
	minHashSize = 16
	maxHashSize = 128
)

// Hasher is how a tree hashes, one value for byte hashes and field hashes.
//
// A byte hash is made by NewHasher from a caller's hash.Hash constructor,
// or nil for SHA-256 through the one-shot sha256.Sum256 (no hash.Hash
// interface calls on the hot path, and the 16-lane AVX-512 kernel where the
// CPU has it); it hashes the tagged byte strings of the package
// documentation, "Leaves and nodes", and serves rows of every field. A
// caller's hash is checked at every use (Write's error and count, the
// length of what Sum appends, panics) and probed once per message length a
// tree feeds it. The zero Hasher is SHA-256.
//
// A field hash is made by Poseidon2 (or FieldHasher from a sponge and a
// compression of package poseidon2): it hashes rows of elements of one
// field (BabyBear, KoalaBear or Goldilocks) with no byte packing and no
// tags, as the package documentation, "Field trees", says, and refuses rows
// of another field with an error wrapping ErrField (CheckField).
//
// Either way a digest is Size() bytes, and every tree, opening and
// verification takes the Hasher the same way (Build, VerifyWith,
// VerifyMultiWith). A Hasher may be copied and used from several
// goroutines at once.
type Hasher struct {
	newHash func() hash.Hash
	size    int
	probed  *sync.Map // message lengths the caller's hash has passed probe on
	fh      fieldHash // a field hash; nil for byte hashes
}

// NewHasher checks a caller's hash constructor (nil: SHA-256): one instance
// must come out and say a digest size from 16 to 128 bytes. A hash that
// fails is an error wrapping ErrHash. The hash must take any byte string:
// Write takes all of it without error, Sum appends Size() bytes, Reset
// starts over, and equal messages give equal digests on every instance;
// hashes over field elements (MiMC, gnark-crypto's hashers) need an adapter
// that packs the tree's bytes into elements. Poseidon2 makes trees over the
// rows' own elements instead.
func NewHasher(h func() hash.Hash) (Hasher, error) {
	if h == nil {
		return Hasher{size: sha256.Size}, nil
	}
	hs := Hasher{newHash: h, size: -1, probed: new(sync.Map)}
	x, err := hs.instance()
	if err != nil {
		return Hasher{}, err
	}
	size, err := callSize(x)
	if err != nil {
		return Hasher{}, err
	}
	if size < minHashSize || size > maxHashSize {
		return Hasher{}, fmt.Errorf("merkle: the hash says its digests are %d bytes, want %d to %d: %w", size, minHashSize, maxHashSize, ErrHash)
	}
	hs.size = size
	return hs, nil
}

// Size returns the digest size in bytes.
func (hs Hasher) Size() int { return hs.norm().size }

// Default reports whether hs is the default SHA-256 (NewHasher(nil)), the
// hash that the 16-lane kernel and the GPU's row hashing compute. A
// caller's sha256.New is not the default: it is used through hash.Hash;
// nor is a field hash.
func (hs Hasher) Default() bool { return hs.newHash == nil && hs.fh == nil }

// String names the hash: "SHA-256", "a hash.Hash of 64-byte digests", or
// the field hash (its permutation, field and digest length).
func (hs Hasher) String() string {
	switch {
	case hs.fh != nil:
		return hs.fh.String()
	case hs.newHash != nil:
		return fmt.Sprintf("a hash.Hash of %d-byte digests", hs.size)
	}
	return "SHA-256"
}

// Probe checks that the hash serves a tree's node messages and the leaf
// messages of rows of rowBytes bytes (rowBytes ≥ 1; see probe). Build,
// Verify and the other entry points probe what they hash; Probe lets a
// caller refuse a hash early, before any tree. A hash that fails is an
// error wrapping ErrHash.
func (hs Hasher) Probe(rowBytes int) error {
	hs = hs.norm()
	if rowBytes < 1 {
		return fmt.Errorf("merkle: Probe: rows of %d bytes: %w", rowBytes, ErrShape)
	}
	if err := hs.probe(NodeTag, 1+2*hs.size); err != nil {
		return err
	}
	return hs.probe(LeafTag, 1+rowBytes)
}

// norm gives the zero Hasher its size.
func (hs Hasher) norm() Hasher {
	if hs.Default() {
		hs.size = sha256.Size
	}
	return hs
}

// callSize returns x.Size(), a panic in it as an error.
func callSize(x hash.Hash) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("merkle: the hash panicked in Size: %v: %w", r, ErrHash)
		}
	}()
	return x.Size(), nil
}

// instance returns a new instance of the caller's hash, checked to be
// there and to say the digest size of the first (size −1: not known yet).
func (hs Hasher) instance() (x hash.Hash, err error) {
	defer func() {
		if r := recover(); r != nil {
			x, err = nil, fmt.Errorf("merkle: the hash constructor panicked: %v: %w", r, ErrHash)
		}
	}()
	if x = hs.newHash(); x == nil {
		return nil, fmt.Errorf("merkle: the hash constructor returned nil: %w", ErrHash)
	}
	if hs.size >= 0 {
		if n := x.Size(); n != hs.size {
			return nil, fmt.Errorf("merkle: a new hash instance says Size() = %d, the first said %d: %w", n, hs.size, ErrHash)
		}
	}
	return x, nil
}

// digest writes x(msg) into dst (hs.size bytes) through the hash.Hash
// contract, checked: Reset, Write taking all of msg without error, Sum
// appending exactly hs.size bytes. A violation or a panic is an error
// wrapping ErrHash; dst then holds no digest.
func (hs Hasher) digest(x hash.Hash, dst, msg []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("merkle: the hash panicked on a %d-byte message: %v: %w", len(msg), r, ErrHash)
		}
	}()
	x.Reset()
	n, werr := x.Write(msg)
	if werr != nil {
		return fmt.Errorf("merkle: the hash refused a %d-byte message: %v: %w", len(msg), werr, ErrHash)
	}
	if n != len(msg) {
		return fmt.Errorf("merkle: the hash's Write took %d of a %d-byte message: %w", n, len(msg), ErrHash)
	}
	// The capacity is limited so that a Sum that appends too much cannot
	// write past dst.
	out := x.Sum(dst[:0:hs.size])
	if len(out) != hs.size {
		return fmt.Errorf("merkle: the hash's Sum gave %d bytes, its Size() says %d: %w", len(out), hs.size, ErrHash)
	}
	if &out[0] != &dst[0] {
		copy(dst, out)
	}
	return nil
}

// probe checks, once per message length n, that the caller's hash serves
// the tree's messages of n bytes (tag first): it takes them, digests the
// same message alike after Reset and from a new instance, and digests
// messages that differ in their first byte after the tag, or in their last,
// differently. The default SHA-256 and the field hashes need no probe.
func (hs Hasher) probe(tag byte, n int) error {
	if hs.newHash == nil {
		return nil
	}
	if _, ok := hs.probed.Load(n); ok {
		return nil
	}
	what := "leaf"
	if tag == NodeTag {
		what = "node"
	}
	msg := make([]byte, n)
	msg[0] = tag
	for i := 1; i < n; i++ {
		msg[i] = byte(i*131 + 7)
	}
	x, err := hs.instance()
	if err != nil {
		return err
	}
	d := make([][]byte, 5)
	for i := range d {
		d[i] = make([]byte, hs.size)
	}
	fail := func(err error) error {
		return fmt.Errorf("merkle: the hash cannot serve %d-byte %s messages: %w", n, what, err)
	}
	if err := hs.digest(x, d[0], msg); err != nil {
		return fail(err)
	}
	if err := hs.digest(x, d[1], msg); err != nil {
		return fail(err)
	}
	y, err := hs.instance()
	if err != nil {
		return err
	}
	if err := hs.digest(y, d[2], msg); err != nil {
		return fail(err)
	}
	msg[n-1] ^= 1
	if err := hs.digest(x, d[3], msg); err != nil {
		return fail(err)
	}
	msg[n-1] ^= 1
	msg[1] ^= 1
	if err := hs.digest(x, d[4], msg); err != nil {
		return fail(err)
	}
	switch {
	case !bytes.Equal(d[0], d[1]):
		return fail(fmt.Errorf("the same message digests differently after Reset: %w", ErrHash))
	case !bytes.Equal(d[0], d[2]):
		return fail(fmt.Errorf("two instances digest the same message differently: %w", ErrHash))
	case bytes.Equal(d[0], d[3]):
		return fail(fmt.Errorf("messages that differ in their last byte have the same digest: %w", ErrHash))
	case bytes.Equal(d[0], d[4]):
		return fail(fmt.Errorf("messages that differ in their second byte have the same digest: %w", ErrHash))
	}
	hs.probed.Store(n, true)
	return nil
}

// hstate is one goroutine's hashing state. The first fault of the caller's
// hash is kept in err; nothing is hashed after it, and whoever runs the
// state checks err once its work is done.
type hstate struct {
	hs  Hasher
	h   hash.Hash
	buf []byte
	x16 []byte // 16 padded node messages for the 16-lane path
	err error
}

func newHState(hs Hasher) *hstate {
	s := &hstate{hs: hs, buf: make([]byte, 1+2*hs.size)}
	if hs.newHash != nil {
		s.h, s.err = hs.instance()
	}
	return s
}

// sum writes H(msg) into dst[:size].
func (s *hstate) sum(dst, msg []byte) {
	if s.err != nil {
		return
	}
	if s.hs.newHash == nil {
		d := sha256.Sum256(msg)
		copy(dst, d[:])
		return
	}
	s.err = s.hs.digest(s.h, dst, msg)
}

// node writes H(0x01 ‖ l ‖ r) into dst; with a field hash, the compression
// of l and r.
func (s *hstate) node(dst, l, r []byte) {
	if s.hs.fh != nil {
		if s.err == nil {
			s.err = s.hs.fh.compress(dst, l, r)
		}
		return
	}
	n := s.hs.size
	s.buf[0] = NodeTag
	copy(s.buf[1:1+n], l)
	copy(s.buf[1+n:1+2*n], r)
	s.sum(dst, s.buf[:1+2*n])
}

// leafDigest writes H(0x00 ‖ enc(row i)) of row i of cols into dst; with
// a field hash, the sponge over the row.
func leafDigest[E Element](s *hstate, cols [][]E, i int, dst []byte) {
	if s.hs.fh != nil {
		row := make([]E, len(cols))
		for c, col := range cols {
			row[c] = col[i]
		}
		rowDigest(s, row, dst)
		return
	}
	rb := rowBytes(cols)
	if cap(s.buf) < 1+rb {
		s.buf = make([]byte, 1+max(rb, 2*s.hs.size))
	}
	b := s.buf[:1+rb]
	b[0] = LeafTag
	putRows(cols, i, i+1, b[1:], rb)
	s.sum(dst, b)
}

// rowDigest writes H(0x00 ‖ enc(row)) into dst; with a field hash, the
// sponge over the row.
func rowDigest[E Element](s *hstate, row []E, dst []byte) {
	if s.hs.fh != nil {
		if s.err == nil {
			s.err = fieldRow(s.hs.fh, row, dst)
		}
		return
	}
	rb := len(row) * ElementBytes[E]()
	if cap(s.buf) < 1+rb {
		s.buf = make([]byte, 1+max(rb, 2*s.hs.size))
	}
	b := s.buf[:1+rb]
	b[0] = LeafTag
	putElements(b[1:], row)
	s.sum(dst, b)
}

// rowBytes is the size of one row of cols in the leaf encoding.
func rowBytes[E Element](cols [][]E) int {
	return len(cols) * ElementBytes[E]()
}
