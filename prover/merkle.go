package prover

import (
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

// hasher is the Merkle hash: newHash nil means SHA-256 through the one-shot
// sha256.Sum256 (no hash.Hash interface calls on the hot path).
type hasher struct {
	newHash func() hash.Hash
	size    int
}

// makeHasher checks a caller's hash constructor (nil: SHA-256).
func makeHasher(h func() hash.Hash) (hasher, error) {
	if h == nil {
		return hasher{size: sha256.Size}, nil
	}
	x := h()
	if x == nil {
		return hasher{}, fmt.Errorf("prover: the hash constructor returned nil: %w", ErrConfig)
	}
	if x.Size() <= 0 {
		return hasher{}, fmt.Errorf("prover: hash digest size %d: %w", x.Size(), ErrConfig)
	}
	return hasher{newHash: h, size: x.Size()}, nil
}

// hstate is one goroutine's hashing state.
type hstate struct {
	hs  hasher
	h   hash.Hash
	buf []byte
	x16 []byte // 16 padded node messages for the 16-lane path
}

func newHState(hs hasher) *hstate {
	s := &hstate{hs: hs, buf: make([]byte, 1+2*hs.size)}
	if hs.newHash != nil {
		s.h = hs.newHash()
	}
	return s
}

// sum writes H(msg) into dst[:size].
func (s *hstate) sum(dst, msg []byte) {
	if s.h == nil {
		d := sha256.Sum256(msg)
		copy(dst, d[:])
		return
	}
	s.h.Reset()
	s.h.Write(msg)
	// Sum appends; dst[:0] has room for the digest, so nothing allocates.
	s.h.Sum(dst[:0])
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

// buildTree hashes the rows of cols (equal lengths, a power of two) and builds
// the tree above them on up to workers goroutines.
func buildTree[E Element](cols [][]E, hs hasher, workers int, progress progressFunc) *tree {
	n := len(cols[0])
	height := log2(n)
	t := &tree{hs: hs, height: height}
	size := hs.size
	if height == 0 {
		t.root = make([]byte, size)
		leafDigest(newHState(hs), cols, 0, t.root)
		if progress != nil {
			progress(1, 1)
		}
		return t
	}
	t.nodes = make([][]byte, height)
	for j := range t.nodes {
		t.nodes[j] = make([]byte, (n>>(j+1))*size)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	// Leaves and level 1, block by block.
	rb := rowBytes(cols)
	stride := 1 + rb
	block := min(leafBlock, n)
	nBlocks := n / block
	var next atomic.Int64
	var done atomic.Int64
	var pmu sync.Mutex
	lastReported := 0
	report := func(d int) {
		if progress == nil {
			return
		}
		pmu.Lock()
		if d == n || d-lastReported >= max(n/128, 1) {
			if d > lastReported {
				lastReported = d
				progress(d, n)
			}
		}
		pmu.Unlock()
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
			s := newHState(hs)
			rows := make([]byte, block*stride)
			leaves := make([]byte, block*size)
			if x16 {
				for r := range block {
					padSlot(rows[r*stride:(r+1)*stride], 1+rb)
				}
			}
			for {
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
				report(int(done.Add(int64(block))))
			}
		})
	}
	wg.Wait()

	// Upper levels: split a level among the workers while it is large.
	for j := 1; j < height; j++ {
		below, here := t.nodes[j-1], t.nodes[j]
		count := n >> (j + 1)
		hashRange := func(s *hstate, lo, hi int) {
			s.nodes(here[lo*size:hi*size], below[2*lo*size:2*hi*size], hi-lo)
		}
		if count < 4096 || workers == 1 {
			hashRange(newHState(hs), 0, count)
			continue
		}
		per := (count + workers - 1) / workers
		for lo := 0; lo < count; lo += per {
			hi := min(lo+per, count)
			wg.Go(func() { hashRange(newHState(hs), lo, hi) })
		}
		wg.Wait()
	}
	t.root = t.nodes[height-1]
	return t
}

// path returns the authentication path of leaf i: the sibling leaf's digest,
// then the sibling at each level up to (not including) the root.
func treePath[E Element](t *tree, cols [][]E, i int) [][]byte {
	size := t.hs.size
	p := make([][]byte, t.height)
	if t.height == 0 {
		return p
	}
	p[0] = make([]byte, size)
	leafDigest(newHState(t.hs), cols, i^1, p[0])
	for j := 1; j < t.height; j++ {
		k := (i >> j) ^ 1
		p[j] = append([]byte(nil), t.nodes[j-1][k*size:(k+1)*size]...)
	}
	return p
}

// climb recomputes the root from leaf i's digest and its path; it reports
// whether the path has the right shape and the result equals root.
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
	return i == 0 && string(cur) == string(root)
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
