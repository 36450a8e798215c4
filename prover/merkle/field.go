package merkle

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/prover/poseidon2"
)

// fieldHash is the hash of a field tree, behind a Hasher: a
// *fieldHasher[F] for one of poseidon2's fields. The tree code reaches its
// typed methods through the type switches of this file; what it calls
// through the interface works on digests in their byte form.
type fieldHash interface {
	field() byte // the field byte of F (fieldOf)
	// compress writes the digest bytes of the node over the digest bytes
	// left and right; a digest that holds a value not below the modulus is
	// an error wrapping ErrVerify.
	compress(dst, left, right []byte) error
	String() string
}

// fieldHasher hashes leaves with a sponge and nodes with a compression, on
// elements of F; its digests are out elements.
type fieldHasher[F poseidon2.Element] struct {
	leaf *poseidon2.Sponge[F]
	node *poseidon2.Compression[F]
	out  int
	name string
}

// maxDigestElems bounds the elements of a digest: a compression's chunk is
// at most half of a width of 32.
const maxDigestElems = 16

// Poseidon2 returns the Hasher of a field tree over rows of E with the
// Poseidon2 permutations of preset (poseidon2.Plonky3 or poseidon2.Gnark):
// a leaf is the standard sponge of the permutation of the given width over
// the row (Plonky3's PaddingFreeSponge<_, width, width − d, d>), a node the
// standard compression of the two children by the narrowest permutation
// that holds them (Plonky3's TruncatedPermutation<_, 2, d, 2d>), with d the
// digest length: widths 16 or 24 for BabyBear and KoalaBear (d = 8, the
// nodes on width 16), 8 or 12 for Goldilocks (d = 4, the nodes on width 8).
// Digests are 32 bytes. This is the shape of Plonky3's own configurations
// (Poseidon2MerkleMmcs in its examples: the sponge on width 24, the
// compression on width 16), and with poseidon2.Plonky3 the tree is
// Plonky3's MerkleTreeMmcs over the same matrix, root for root; see the
// package documentation, "Field trees". FieldHasher makes other
// combinations. A preset or width that poseidon2 does not know is an error
// wrapping ErrHash and poseidon2's own error (poseidon2.ErrWidth,
// poseidon2.ErrPreset).
//
// The permutations run on the tree's workers, 16 rows (or nodes) at a time
// per core on the 16-lane AVX-512 kernels for BabyBear and KoalaBear, 8 for
// Goldilocks, where the CPU has them (package poseidon2).
func Poseidon2[E poseidon2.Element](preset poseidon2.Preset, width int) (Hasher, error) {
	d := poseidon2.DigestSize[E]()
	// One worker each: the tree spreads its blocks over its own workers.
	leaf, err := poseidon2.New[E](preset, width, poseidon2.WithWorkers(1))
	if err != nil {
		return Hasher{}, fmt.Errorf("merkle: Poseidon2: %w: %w", err, ErrHash)
	}
	node := leaf
	if width != 2*d {
		if node, err = poseidon2.New[E](preset, 2*d, poseidon2.WithWorkers(1)); err != nil {
			return Hasher{}, fmt.Errorf("merkle: Poseidon2: %w: %w", err, ErrHash)
		}
	}
	name := fmt.Sprintf("Poseidon2 (%v, %s, width %d", preset, fieldName(fieldOf[E]()), width)
	if width != 2*d {
		name += fmt.Sprintf(", nodes on width %d", 2*d)
	}
	return newFieldHasher(leaf.Sponge(), node.Compression(), name+")")
}

// FieldHasher returns the Hasher of a field tree whose leaves are leaf's
// digests of the rows and whose nodes are node's compressions of the two
// children, for other sponges and compressions than Poseidon2's standard
// ones (gnark-crypto's feed-forward compression, another rate). They must
// make digests of one length (leaf.Out() = node.Chunk()) of 16 to 128
// bytes (4 to 16 elements of BabyBear or KoalaBear, 2 to 16 of
// Goldilocks), or the error wraps ErrHash. Their permutations may have any
// number of workers: the tree hands them 64 rows or pairs at a time, which
// they hash on the calling goroutine.
func FieldHasher[E poseidon2.Element](leaf *poseidon2.Sponge[E], node *poseidon2.Compression[E]) (Hasher, error) {
	if leaf == nil || node == nil {
		return Hasher{}, fmt.Errorf("merkle: FieldHasher: a nil sponge or compression: %w", ErrHash)
	}
	name := fmt.Sprintf("a %s sponge (rate %d) and compression", fieldName(fieldOf[E]()), leaf.Rate())
	return newFieldHasher(leaf, node, name)
}

func newFieldHasher[E poseidon2.Element](leaf *poseidon2.Sponge[E], node *poseidon2.Compression[E], name string) (Hasher, error) {
	out := leaf.Out()
	if node.Chunk() != out {
		return Hasher{}, fmt.Errorf("merkle: the sponge makes digests of %d elements, the compression takes %d: %w", out, node.Chunk(), ErrHash)
	}
	size := out * ElementBytes[E]()
	if out > maxDigestElems || size < minHashSize || size > maxHashSize {
		return Hasher{}, fmt.Errorf("merkle: digests of %d elements (%d bytes), want %d to %d bytes: %w", out, size, minHashSize, maxHashSize, ErrHash)
	}
	fh := &fieldHasher[E]{leaf: leaf, node: node, out: out, name: fmt.Sprintf("%s, %d-element digests", name, out)}
	return Hasher{fh: fh, size: size}, nil
}

func (f *fieldHasher[F]) field() byte    { return fieldOf[F]() }
func (f *fieldHasher[F]) String() string { return f.name }

func (f *fieldHasher[F]) compress(dst, left, right []byte) error {
	var kids [2 * maxDigestElems]F
	l, r := kids[:f.out], kids[f.out:2*f.out]
	if getElements(l, left) != nil || getElements(r, right) != nil {
		return fmt.Errorf("merkle: a digest holds a value not below the modulus of %s: %w", fieldName(f.field()), ErrVerify)
	}
	if err := f.node.Compress(l, l, r); err != nil {
		return fmt.Errorf("merkle: %v: %w", err, ErrHash)
	}
	putElements(dst, l)
	return nil
}

// leafOf writes the digest bytes of row into dst.
func (f *fieldHasher[F]) leafOf(dst []byte, row []F) error {
	var d [maxDigestElems]F
	if err := f.leaf.Hash(d[:f.out], row); err != nil {
		return fmt.Errorf("merkle: %v: %w", err, ErrHash)
	}
	putElements(dst, d[:f.out])
	return nil
}

// FieldParts returns the sponge and the compression of a field hash over
// E (Poseidon2, FieldHasher); ok is false for a byte hash and for a field
// hash over another field. A GPU builds the same tree from them
// (gpu/rowhash.NewField).
func FieldParts[E poseidon2.Element](hs Hasher) (leaf *poseidon2.Sponge[E], node *poseidon2.Compression[E], ok bool) {
	f, ok := hs.fh.(*fieldHasher[E])
	if !ok {
		return nil, nil, false
	}
	return f.leaf, f.node, true
}

// CheckField reports whether hs can hash rows of E: nil for a byte hash
// (any field) and for a field hash over E's field, an error wrapping
// ErrField for a field hash over another field. Every entry point that
// takes rows checks it; CheckField lets a caller refuse a Hasher early
// (package prover's New does).
func CheckField[E Element](hs Hasher) error {
	if err := checkField[E](hs); err != nil {
		return fmt.Errorf("merkle: %w", err)
	}
	return nil
}

// checkField is CheckField without the package's name, for the entry
// points to wrap.
func checkField[E Element](hs Hasher) error {
	if hs.fh == nil || hs.fh.field() == fieldOf[E]() {
		return nil
	}
	return fmt.Errorf("the hash is %v; the rows are %s: %w", hs.fh, fieldName(fieldOf[E]()), ErrField)
}

// fieldRow writes the digest bytes of row, hashed with fh, into dst.
func fieldRow[E Element](fh fieldHash, row []E, dst []byte) error {
	switch r := any(row).(type) {
	case []babybear.Element:
		if f, ok := fh.(*fieldHasher[babybear.Element]); ok {
			return f.leafOf(dst, r)
		}
	case []koalabear.Element:
		if f, ok := fh.(*fieldHasher[koalabear.Element]); ok {
			return f.leafOf(dst, r)
		}
	case []goldilocks.Element:
		if f, ok := fh.(*fieldHasher[goldilocks.Element]); ok {
			return f.leafOf(dst, r)
		}
	}
	if err := checkField[E](Hasher{fh: fh}); err != nil {
		return fmt.Errorf("merkle: %w", err)
	}
	panic("merkle: a field hash of a type the tree does not know")
}

// buildField is Build for a field hash: the levels of the tree over cols
// (checked: at least one column, all of 2^height rows).
func buildField[E Element](cols [][]E, hs Hasher, height, workers int, progress func(done, total int)) (*Tree[E], error) {
	if err := checkField[E](hs); err != nil {
		return nil, fmt.Errorf("merkle: Build: %w", err)
	}
	t := &Tree[E]{cols: cols, hs: hs, height: height}
	var err error
	switch c := any(cols).(type) {
	case [][]babybear.Element:
		t.nodes, t.root, err = fieldLevels(c, hs.fh.(*fieldHasher[babybear.Element]), height, workers, progress)
	case [][]koalabear.Element:
		t.nodes, t.root, err = fieldLevels(c, hs.fh.(*fieldHasher[koalabear.Element]), height, workers, progress)
	case [][]goldilocks.Element:
		t.nodes, t.root, err = fieldLevels(c, hs.fh.(*fieldHasher[goldilocks.Element]), height, workers, progress)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// fieldLevels hashes the rows of cols and the levels above them with f, on
// up to workers goroutines, and returns the levels 1 … height in their byte
// form (as Tree.nodes) and the root.
//
// Each worker takes blocks of leafBlock rows: it hashes the block's rows
// (the sponge on 16 rows at a time), then compresses the block's subtree
// up to its root, in elements, writing each level's bytes as it goes.
// The levels above the blocks' roots are compressed from the roots'
// elements, split among the workers while they are large. Nothing is
// decoded from bytes.
func fieldLevels[F poseidon2.Element](cols [][]F, f *fieldHasher[F], height, workers int, progress func(done, total int)) ([][]byte, []byte, error) {
	n, out := len(cols[0]), f.out
	size := out * ElementBytes[F]()
	if height == 0 {
		row := make([]F, len(cols))
		for c, col := range cols {
			row[c] = col[0]
		}
		root := make([]byte, size)
		if err := f.leafOf(root, row); err != nil {
			return nil, nil, err
		}
		if progress != nil {
			var fail firstErr
			func() {
				defer fail.recover()
				progress(1, 1)
			}()
			if fail.err != nil {
				return nil, nil, fail.err
			}
		}
		return nil, root, nil
	}
	nodes := make([][]byte, height)
	for j := range nodes {
		nodes[j] = make([]byte, (n>>(j+1))*size)
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	block := min(leafBlock, n)
	bh := log2(block) // the height of a block's subtree
	nBlocks := n / block
	tops := make([]F, nBlocks*out) // the blocks' roots, level bh
	var fail firstErr
	var next, done atomic.Int64
	rep := newReporter(progress, n)
	var wg sync.WaitGroup
	for range min(workers, nBlocks) {
		wg.Go(func() {
			defer fail.recover()
			sub := make([][]F, len(cols))
			buf := make([]F, block*out)
			for !fail.bad.Load() {
				b := int(next.Add(1) - 1)
				if b >= nBlocks {
					return
				}
				lo := b * block
				for c, col := range cols {
					sub[c] = col[lo : lo+block]
				}
				if err := f.leaf.HashColumns(buf, sub); err != nil {
					fail.put(fmt.Errorf("merkle: Build: %v: %w", err, ErrHash))
					return
				}
				cur := buf
				for j := 1; j <= bh; j++ {
					m := len(cur) / 2
					if err := f.node.CompressLayer(cur[:m], cur); err != nil {
						fail.put(fmt.Errorf("merkle: Build: %v: %w", err, ErrHash))
						return
					}
					cur = cur[:m]
					at := (lo >> j) * size
					putElements(nodes[j-1][at:at+len(cur)/out*size], cur)
				}
				copy(tops[b*out:(b+1)*out], cur)
				rep.report(int(done.Add(int64(block))))
			}
		})
	}
	wg.Wait()
	if fail.err != nil {
		return nil, nil, fail.err
	}

	// The levels above the blocks' roots.
	cur := tops
	for j := bh + 1; j <= height; j++ {
		count := len(cur) / out / 2
		up := make([]F, count*out)
		level := nodes[j-1]
		compress := func(lo, hi int) {
			if err := f.node.CompressLayer(up[lo*out:hi*out], cur[2*lo*out:2*hi*out]); err != nil {
				fail.put(fmt.Errorf("merkle: Build: %v: %w", err, ErrHash))
				return
			}
			putElements(level[lo*size:hi*size], up[lo*out:hi*out])
		}
		if count < 4096 || workers == 1 {
			for lo := 0; lo < count; lo += leafBlock {
				compress(lo, min(lo+leafBlock, count))
			}
		} else {
			var piece atomic.Int64
			for range workers {
				wg.Go(func() {
					for {
						lo := int(piece.Add(1)-1) * leafBlock
						if lo >= count {
							return
						}
						compress(lo, min(lo+leafBlock, count))
					}
				})
			}
			wg.Wait()
		}
		if fail.err != nil {
			return nil, nil, fail.err
		}
		cur = up
	}
	return nodes, nodes[height-1], nil
}
