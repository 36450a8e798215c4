package prover

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"runtime"
	"sync"
	"sync/atomic"
)

// Domain-separation tags: a leaf digest is H(0x00 ‖ row bytes), an internal
// node is H(0x01 ‖ left ‖ right), so that no leaf can pass for a node.
const (
	leafTag byte = 0x00
	nodeTag byte = 0x01
)

// leafBlock is the number of rows one worker encodes and hashes at a time;
// it is even, so that a block's leaves pair up into level-1 nodes.
const leafBlock = 64

// Bounds on the digest size of a caller's hash (WithHash): below 16 bytes a
// tree binds nothing worth the name (collisions in 2^64 work), above 128 no
// hash in use gives more.
const (
	minHashSize = 16
	maxHashSize = 128
)

// hasher is the Merkle hash: newHash nil means SHA-256 through the one-shot
// sha256.Sum256 (no hash.Hash interface calls on the hot path). A caller's
// hash is checked at every use (Write's error and count, the length of what
// Sum appends, panics) and probed once per message length the tree feeds it.
type hasher struct {
	newHash func() hash.Hash
	size    int
	probed  *sync.Map // message lengths the caller's hash has passed probe on
}

// makeHasher checks a caller's hash constructor (nil: SHA-256): one
// instance must come out and say a digest size within bounds.
func makeHasher(h func() hash.Hash) (hasher, error) {
	if h == nil {
		return hasher{size: sha256.Size}, nil
	}
	hs := hasher{newHash: h, size: -1, probed: new(sync.Map)}
	x, err := hs.instance()
	if err != nil {
		return hasher{}, err
	}
	size, err := callSize(x)
	if err != nil {
		return hasher{}, err
	}
	if size < minHashSize || size > maxHashSize {
		return hasher{}, fmt.Errorf("prover: the Merkle hash says its digests are %d bytes, want %d to %d: %w", size, minHashSize, maxHashSize, ErrHash)
	}
	hs.size = size
	return hs, nil
}

// callSize returns x.Size(), a panic in it as an error.
func callSize(x hash.Hash) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("prover: the Merkle hash panicked in Size: %v: %w", r, ErrHash)
		}
	}()
	return x.Size(), nil
}

// instance returns a new instance of the caller's hash, checked to be
// there and to say the digest size of the first (size −1: not known yet).
func (hs hasher) instance() (x hash.Hash, err error) {
	defer func() {
		if r := recover(); r != nil {
			x, err = nil, fmt.Errorf("prover: the Merkle hash constructor panicked: %v: %w", r, ErrHash)
		}
	}()
	if x = hs.newHash(); x == nil {
		return nil, fmt.Errorf("prover: the Merkle hash constructor returned nil: %w", ErrHash)
	}
	if hs.size >= 0 {
		if n := x.Size(); n != hs.size {
			return nil, fmt.Errorf("prover: a new Merkle hash says Size() = %d, the first said %d: %w", n, hs.size, ErrHash)
		}
	}
	return x, nil
}

// digest writes x(msg) into dst (hs.size bytes) through the hash.Hash
// contract, checked: Reset, Write taking all of msg without error, Sum
// appending exactly hs.size bytes. A violation or a panic is an error
// wrapping ErrHash; dst then holds no digest.
func (hs hasher) digest(x hash.Hash, dst, msg []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("prover: the Merkle hash panicked on a %d-byte message: %v: %w", len(msg), r, ErrHash)
		}
	}()
	x.Reset()
	n, werr := x.Write(msg)
	if werr != nil {
		return fmt.Errorf("prover: the Merkle hash refused a %d-byte message: %v: %w", len(msg), werr, ErrHash)
	}
	if n != len(msg) {
		return fmt.Errorf("prover: the Merkle hash's Write took %d of a %d-byte message: %w", n, len(msg), ErrHash)
	}
	// The capacity is limited so that a Sum that appends too much cannot
	// write past dst.
	out := x.Sum(dst[:0:hs.size])
	if len(out) != hs.size {
		return fmt.Errorf("prover: the Merkle hash's Sum gave %d bytes, its Size() says %d: %w", len(out), hs.size, ErrHash)
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
// differently. The default SHA-256 needs no probe.
func (hs hasher) probe(tag byte, n int) error {
	if hs.newHash == nil {
		return nil
	}
	if _, ok := hs.probed.Load(n); ok {
		return nil
	}
	what := "leaf"
	if tag == nodeTag {
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
		return fmt.Errorf("prover: the Merkle hash cannot serve %d-byte %s messages: %w", n, what, err)
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
	hs  hasher
	h   hash.Hash
	buf []byte
	x16 []byte // 16 padded node messages for the 16-lane path
	err error
}

func newHState(hs hasher) *hstate {
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

// node writes H(0x01 ‖ l ‖ r) into dst.
func (s *hstate) node(dst, l, r []byte) {
	n := s.hs.size
	s.buf[0] = nodeTag
	copy(s.buf[1:1+n], l)
	copy(s.buf[1+n:1+2*n], r)
	s.sum(dst, s.buf[:1+2*n])
}

// leaf writes H(0x00 ‖ row bytes) of row i of cols into dst.
func leafDigest[E Element](s *hstate, cols [][]E, i int, dst []byte) {
	rb := rowBytes(cols)
	if cap(s.buf) < 1+rb {
		s.buf = make([]byte, 1+max(rb, 2*s.hs.size))
	}
	b := s.buf[:1+rb]
	b[0] = leafTag
	putRows(cols, i, i+1, b[1:], rb)
	s.sum(dst, b)
}

// rowBytes is the size of one row in the leaf encoding.
func rowBytes[E Element](cols [][]E) int {
	return len(cols) * FieldOf[E]().ElementBytes()
}

// tree is a Merkle tree over the rows of column-major data. Leaf digests are
// not stored: an opening recomputes the one it needs from the rows, so the
// tree costs (rows − 1) digests of memory.
type tree struct {
	hs     hasher
	height int      // log2 of the number of leaves
	nodes  [][]byte // nodes[j] holds level j+1: 2^(height−j−1) digests, nodes[height−1] the root
	root   []byte
}

// progressFunc receives the number of units done so far; calls are serialized.
type progressFunc func(done, total int)

// firstErr keeps the first error of several goroutines.
type firstErr struct {
	mu  sync.Mutex
	err error
	bad atomic.Bool
}

func (f *firstErr) put(err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	if f.err == nil {
		f.err = err
		f.bad.Store(true)
	}
	f.mu.Unlock()
}

// recover records a panic of the calling goroutine (a caller's progress
// function; the hash's own panics are caught where it is called) as an
// error; deferred at the top of every goroutine that runs caller code.
func (f *firstErr) recover() {
	if r := recover(); r != nil {
		f.put(fmt.Errorf("prover: the WithProgress function panicked: %v: %w", r, ErrConfig))
	}
}

// buildTree hashes the rows of cols (equal lengths, a power of two) and builds
// the tree above them on up to workers goroutines. A fault of the hash, on any
// of them, is returned and no tree comes out.
func buildTree[E Element](cols [][]E, hs hasher, workers int, progress progressFunc) (*tree, error) {
	n := len(cols[0])
	height := log2(n)
	rb := rowBytes(cols)
	if err := hs.probe(leafTag, 1+rb); err != nil {
		return nil, err
	}
	t := &tree{hs: hs, height: height}
	size := hs.size
	if height == 0 {
		t.root = make([]byte, size)
		s := newHState(hs)
		leafDigest(s, cols, 0, t.root)
		if s.err != nil {
			return nil, s.err
		}
		if progress != nil {
			progress(1, 1)
		}
		return t, nil
	}
	if err := hs.probe(nodeTag, 1+2*size); err != nil {
		return nil, err
	}
	t.nodes = make([][]byte, height)
	for j := range t.nodes {
		t.nodes[j] = make([]byte, (n>>(j+1))*size)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	// Leaves and level 1, block by block.
	stride := 1 + rb
	block := min(leafBlock, n)
	nBlocks := n / block
	var next atomic.Int64
	var done atomic.Int64
	var pmu sync.Mutex
	var fail firstErr
	lastReported := 0
	report := func(d int) {
		if progress == nil {
			return
		}
		pmu.Lock()
		defer pmu.Unlock()
		if d == n || d-lastReported >= max(n/128, 1) {
			if d > lastReported {
				lastReported = d
				progress(d, n)
			}
		}
	}
	level1 := t.nodes[0]
	// With the 16-lane SHA-256, each row slot carries its padding.
	x16 := hs.newHash == nil && useX16 && block >= 16
	if x16 {
		stride = paddedLen(1 + rb)
	}
	var wg sync.WaitGroup
	for range min(workers, nBlocks) {
		wg.Go(func() {
			defer fail.recover()
			s := newHState(hs)
			rows := make([]byte, block*stride)
			leaves := make([]byte, block*size)
			if x16 {
				for r := range block {
					padSlot(rows[r*stride:(r+1)*stride], 1+rb)
				}
			}
			for !fail.bad.Load() {
				b := int(next.Add(1) - 1)
				if b >= nBlocks {
					return
				}
				lo := b * block
				putRows(cols, lo, lo+block, rows[1:], stride)
				if x16 {
					for r := 0; r < block; r += 16 {
						for l := range 16 {
							rows[(r+l)*stride] = leafTag
						}
						sha256x16(leaves[r*size:(r+16)*size], rows[r*stride:], stride, stride/64)
					}
				} else {
					for r := range block {
						msg := rows[r*stride : (r+1)*stride]
						msg[0] = leafTag
						s.sum(leaves[r*size:(r+1)*size], msg)
					}
				}
				s.nodes(level1[lo/2*size:(lo+block)/2*size], leaves, block/2)
				if s.err != nil {
					fail.put(s.err)
					return
				}
				report(int(done.Add(int64(block))))
			}
		})
	}
	wg.Wait()
	if fail.err != nil {
		return nil, fail.err
	}

	// Upper levels: split a level among the workers while it is large.
	for j := 1; j < height; j++ {
		below, here := t.nodes[j-1], t.nodes[j]
		count := n >> (j + 1)
		hashRange := func(lo, hi int) {
			s := newHState(hs)
			s.nodes(here[lo*size:hi*size], below[2*lo*size:2*hi*size], hi-lo)
			fail.put(s.err)
		}
		if count < 4096 || workers == 1 {
			hashRange(0, count)
		} else {
			per := (count + workers - 1) / workers
			for lo := 0; lo < count; lo += per {
				hi := min(lo+per, count)
				wg.Go(func() { hashRange(lo, hi) })
			}
			wg.Wait()
		}
		if fail.err != nil {
			return nil, fail.err
		}
	}
	t.root = t.nodes[height-1]
	return t, nil
}

// treePath returns the authentication path of leaf i: the sibling leaf's
// digest, then the sibling at each level up to (not including) the root.
func treePath[E Element](t *tree, cols [][]E, i int) ([][]byte, error) {
	size := t.hs.size
	p := make([][]byte, t.height)
	if t.height == 0 {
		return p, nil
	}
	p[0] = make([]byte, size)
	s := newHState(t.hs)
	leafDigest(s, cols, i^1, p[0])
	if s.err != nil {
		return nil, s.err
	}
	for j := 1; j < t.height; j++ {
		k := (i >> j) ^ 1
		p[j] = append([]byte(nil), t.nodes[j-1][k*size:(k+1)*size]...)
	}
	return p, nil
}

// climb recomputes the root from leaf i's digest and its path; it reports
// whether the path has the right shape and the result equals root. A fault
// of the hash leaves s.err set and the result false.
func climb(s *hstate, root, leaf []byte, i int, path [][]byte) bool {
	size := s.hs.size
	cur := append([]byte(nil), leaf...)
	for _, sib := range path {
		if len(sib) != size {
			return false
		}
		if i&1 == 0 {
			s.node(cur, cur, sib)
		} else {
			s.node(cur, sib, cur)
		}
		i >>= 1
	}
	return s.err == nil && i == 0 && string(cur) == string(root)
}

// log2 returns log2(n) for a power of two n ≥ 1.
func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}
