package merkle

import (
	"fmt"
	"hash"
	"runtime"
	"sync"
	"sync/atomic"
)

// leafBlock is the number of rows one worker encodes and hashes at a time;
// it is even, so that a block's leaves pair up into level-1 nodes.
const leafBlock = 64

// Tree is a Merkle tree over the rows of column-major data (see the package
// documentation for its leaves and nodes). It keeps the columns it was
// built over, without copying them: they must not change while the tree is
// in use. Leaf digests are not stored: an opening recomputes the ones it
// needs from the rows, so the tree costs (rows − 1) digests of memory. A
// Tree is read-only once built and safe for concurrent use.
type Tree[E Element] struct {
	cols   [][]E
	hs     Hasher
	height int      // log2 of the number of leaves
	nodes  [][]byte // nodes[j] holds level j+1: 2^(height−j−1) digests end to end, nodes[height−1] the root
	root   []byte
}

// Commit builds the tree over the rows of cols (column-major: cols[c][r] is
// row r of column c; every column of the same length, a power of two ≥ 1,
// and at least one column), hashed with h (nil: SHA-256, in 16 lanes where
// the CPU has AVX-512) on up to workers goroutines (≤ 0: GOMAXPROCS). The
// tree keeps cols. A bad shape is an error wrapping ErrShape; a hash that
// fails, on any goroutine, one wrapping ErrHash, and no tree comes out.
func Commit[E Element](cols [][]E, h func() hash.Hash, workers int) (*Tree[E], error) {
	hs, err := NewHasher(h)
	if err != nil {
		return nil, fmt.Errorf("merkle: Commit: %w", err)
	}
	return Build(cols, hs, workers, nil)
}

// Build is Commit with a Hasher, a byte hash that the caller keeps (it
// remembers the message lengths its hash has been probed on) or a field
// hash (Poseidon2, FieldHasher: rows of another field are an error wrapping
// ErrField), and a progress function:
// progress, when not nil, receives the number of rows hashed so far and the
// number of rows, a few hundred times at most, one call at a time, from the
// tree's goroutines, the last with done = total. It must return quickly; a
// panic in it is recovered and returned as an error.
func Build[E Element](cols [][]E, hs Hasher, workers int, progress func(done, total int)) (*Tree[E], error) {
	height, err := checkColumns("Build", cols)
	if err != nil {
		return nil, err
	}
	if hs.fh != nil {
		return buildField(cols, hs, height, workers, progress)
	}
	hs = hs.norm()
	n := len(cols[0])
	rb := rowBytes(cols)
	if err := hs.probe(LeafTag, 1+rb); err != nil {
		return nil, err
	}
	t := &Tree[E]{cols: cols, hs: hs, height: height}
	size := hs.size
	var fail firstErr
	if height == 0 {
		t.root = make([]byte, size)
		s := newHState(hs)
		leafDigest(s, cols, 0, t.root)
		if s.err != nil {
			return nil, s.err
		}
		if progress != nil {
			func() {
				defer fail.recover()
				progress(1, 1)
			}()
		}
		if fail.err != nil {
			return nil, fail.err
		}
		return t, nil
	}
	if err := hs.probe(NodeTag, 1+2*size); err != nil {
		return nil, err
	}
	t.nodes = make([][]byte, height)
	for j := range t.nodes {
		t.nodes[j] = make([]byte, (n>>(j+1))*size)
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}

	// Leaves and level 1, block by block.
	stride := 1 + rb
	block := min(leafBlock, n)
	nBlocks := n / block
	var next atomic.Int64
	var done atomic.Int64
	rep := newReporter(progress, n)
	level1 := t.nodes[0]
	// With the 16-lane SHA-256, each row slot carries its padding.
	x16 := hs.Default() && useX16 && block >= 16
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
							rows[(r+l)*stride] = LeafTag
						}
						sha256x16(leaves[r*size:(r+16)*size], rows[r*stride:], stride, stride/64)
					}
				} else {
					for r := range block {
						msg := rows[r*stride : (r+1)*stride]
						msg[0] = LeafTag
						s.sum(leaves[r*size:(r+1)*size], msg)
					}
				}
				s.nodes(level1[lo/2*size:(lo+block)/2*size], leaves, block/2)
				if s.err != nil {
					fail.put(s.err)
					return
				}
				rep.report(int(done.Add(int64(block))))
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

// FromDigests returns the tree over the rows of cols (the shape of Commit)
// whose digests above the leaves were computed elsewhere, on a device that
// hashed the rows with hs: nodes holds the rows − 1 digests of levels 1 and
// up, level by level from level 1, each level's nodes left to right, the
// root last (as gpu/rowhash's Tree writes them). They are taken as they are,
// not recomputed; the tree keeps nodes and cols. For one row, nodes is empty
// and the root, the leaf, is hashed here. A length of nodes other than
// (rows − 1)·hs.Size() is an error wrapping ErrShape.
func FromDigests[E Element](cols [][]E, hs Hasher, nodes []byte) (*Tree[E], error) {
	height, err := checkColumns("FromDigests", cols)
	if err != nil {
		return nil, err
	}
	if err := checkField[E](hs); err != nil {
		return nil, fmt.Errorf("merkle: FromDigests: %w", err)
	}
	hs = hs.norm()
	n, size := len(cols[0]), hs.size
	if len(nodes) != (n-1)*size {
		return nil, fmt.Errorf("merkle: FromDigests: %d bytes of digests for %d rows, want %d: %w", len(nodes), n, (n-1)*size, ErrShape)
	}
	if height == 0 {
		return Build(cols, hs, 1, nil)
	}
	if err := hs.probe(LeafTag, 1+rowBytes(cols)); err != nil {
		return nil, err
	}
	t := &Tree[E]{cols: cols, hs: hs, height: height, nodes: make([][]byte, height)}
	off := 0
	for j := range t.nodes {
		m := (n >> (j + 1)) * size
		t.nodes[j] = nodes[off : off+m : off+m]
		off += m
	}
	t.root = t.nodes[height-1]
	return t, nil
}

// Root returns a copy of the root.
func (t *Tree[E]) Root() []byte { return append([]byte(nil), t.root...) }

// Rows returns the number of rows, the leaves.
func (t *Tree[E]) Rows() int { return len(t.cols[0]) }

// Columns returns the number of columns, the elements of a row.
func (t *Tree[E]) Columns() int { return len(t.cols) }

// Height returns the number of levels above the leaves, log2(Rows()): the
// length of an authentication path.
func (t *Tree[E]) Height() int { return t.height }

// Level returns the digests of level j, 1 ≤ j ≤ Height() (level Height() is
// the root), end to end, node p at [p·Size, (p+1)·Size): 2^(Height()−j) of
// them. They are the tree's own; the caller must not modify them. The leaf
// digests (level 0) are not stored; any other j returns nil.
func (t *Tree[E]) Level(j int) []byte {
	if j < 1 || j > t.height {
		return nil
	}
	return t.nodes[j-1]
}

// checkColumns checks the shape of a tree's columns and returns the
// tree's height.
func checkColumns[E Element](op string, cols [][]E) (int, error) {
	if len(cols) == 0 {
		return 0, fmt.Errorf("merkle: %s: no columns: %w", op, ErrShape)
	}
	n := len(cols[0])
	for c, col := range cols {
		if len(col) != n {
			return 0, fmt.Errorf("merkle: %s: column %d has %d rows, column 0 has %d: %w", op, c, len(col), n, ErrShape)
		}
	}
	if n == 0 || n&(n-1) != 0 {
		return 0, fmt.Errorf("merkle: %s: %d rows is not a power of two: %w", op, n, ErrShape)
	}
	return log2(n), nil
}

// defaultWorkers is the number of goroutines a tree uses when the caller
// says none.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// reporter passes a tree's progress on to the caller's function (nil: none)
// a few hundred times at most, one call at a time, the last with done =
// total.
type reporter struct {
	progress func(done, total int)
	total    int
	mu       sync.Mutex
	last     int
}

func newReporter(progress func(done, total int), total int) *reporter {
	return &reporter{progress: progress, total: total}
}

// report says that done rows are hashed.
func (r *reporter) report(done int) {
	if r.progress == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if (done == r.total || done-r.last >= max(r.total/128, 1)) && done > r.last {
		r.last = done
		r.progress(done, r.total)
	}
}

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
		f.put(fmt.Errorf("merkle: the progress function panicked: %v", r))
	}
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
