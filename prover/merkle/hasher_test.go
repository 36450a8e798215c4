package merkle_test

import (
	"crypto/sha256"
	"crypto/sha3"
	"errors"
	"hash"
	"math"
	"sync/atomic"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254poseidon2 "github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	xsha3 "golang.org/x/crypto/sha3"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Tests of a caller's hash: byte hashes commit and bind; hashes that break
// the hash.Hash contract give an error at every entry point, never a root,
// an opening or a verdict, and never crash.

// fault is how a broken hash breaks.
type fault int

const (
	writeError fault = iota // Write returns an error
	shortWrite              // Write takes one byte less than given
	longWrite               // Write says it took one byte more
	shortSum                // Sum appends Size()−1 bytes
	longSum                 // Sum appends Size()+1 bytes
	panicWrite              // Write panics
	panicSum                // Sum panics
	panicReset              // Reset panics once the trigger has run out
	nFaults
)

func (f fault) String() string {
	return [...]string{"write-error", "short-write", "long-write", "short-sum", "long-sum", "panic-write", "panic-sum", "panic-reset"}[f]
}

// trigger counts down the writes a family of broken hashes serve before they
// break; every instance of the family shares it.
type trigger struct{ left atomic.Int64 }

func newTrigger(uses int64) *trigger {
	t := &trigger{}
	t.left.Store(uses)
	return t
}

// broken is SHA-256 until its trigger runs out, then breaks as f says.
type broken struct {
	hash.Hash
	f   fault
	t   *trigger
	bad bool // this instance's current message was written after the trigger
}

func brokenHash(f fault, t *trigger) func() hash.Hash {
	return func() hash.Hash { return &broken{Hash: sha256.New(), f: f, t: t} }
}

func (b *broken) Write(p []byte) (int, error) {
	if b.t.left.Add(-1) >= 0 {
		return b.Hash.Write(p)
	}
	b.bad = true
	switch b.f {
	case writeError:
		return 0, errors.New("broken: message refused")
	case shortWrite:
		return b.Hash.Write(p[:max(len(p)-1, 0)])
	case longWrite:
		n, err := b.Hash.Write(p)
		return n + 1, err
	case panicWrite:
		panic("broken: Write")
	}
	return b.Hash.Write(p)
}

func (b *broken) Sum(in []byte) []byte {
	if !b.bad {
		return b.Hash.Sum(in)
	}
	d := b.Hash.Sum(nil)
	switch b.f {
	case shortSum:
		return append(in, d[:len(d)-1]...)
	case longSum:
		return append(in, append(d, 0)...)
	case panicSum:
		panic("broken: Sum")
	}
	return append(in, d...)
}

func (b *broken) Reset() {
	if b.f == panicReset && b.t.left.Load() <= 0 {
		panic("broken: Reset")
	}
	b.bad = false
	b.Hash.Reset()
}

// constant gives every message the same digest.
type constant struct{ hash.Hash }

func (constant) Sum(in []byte) []byte { return append(in, make([]byte, 32)...) }

// sized says its digests are n bytes (n < 0: Size panics).
type sized struct {
	hash.Hash
	n int
}

func (s *sized) Size() int {
	if s.n < 0 {
		panic("sized: Size")
	}
	return s.n
}

// drifting makes hashes whose Size() alternates between 32 and 64 from one
// instance to the next.
func drifting() func() hash.Hash {
	var k atomic.Int64
	return func() hash.Hash {
		if k.Add(1)%2 == 1 {
			return sha256.New()
		}
		return sha512Like{sha256.New()}
	}
}

type sha512Like struct{ hash.Hash }

func (sha512Like) Size() int { return 64 }

func TestGoodHashesBind(t *testing.T) {
	for name, h := range map[string]func() hash.Hash{
		"sha256-default": nil,
		"sha256":         sha256.New,
		"keccak256":      xsha3.NewLegacyKeccak256,
		"sha3-256":       func() hash.Hash { return sha3.New256() },
	} {
		t.Run(name, func(t *testing.T) {
			a := randomCols[babybear.Element](4, 3, 1)
			b := randomCols[babybear.Element](4, 3, 1)
			b[1][5] = a[1][6]
			ta, err := merkle.Commit(a, h, 2)
			require.NoError(t, err)
			tb, err := merkle.Commit(b, h, 2)
			require.NoError(t, err)
			assert.NotEqual(t, ta.Root(), tb.Root(), "different columns, one root")
			ob, err := tb.Open([]int{5})
			require.NoError(t, err)
			require.NoError(t, ob.Verify(tb.Root(), tb.Rows(), h))
			require.ErrorIs(t, ob.Verify(ta.Root(), ta.Rows(), h), merkle.ErrVerify, "row 5 of b against a's root")
		})
	}
}

func TestBrokenHashRefused(t *testing.T) {
	sha := sha256.New
	ctors := map[string]func() hash.Hash{
		"nil instance":      func() hash.Hash { return nil },
		"panicking ctor":    func() hash.Hash { panic("ctor") },
		"constant":          func() hash.Hash { return constant{sha()} },
		"digest of 8 bytes": func() hash.Hash { return &sized{sha(), 8} },
		"digest of 4096":    func() hash.Hash { return &sized{sha(), 4096} },
		"panicking Size":    func() hash.Hash { return &sized{sha(), -1} },
		"size drifts":       drifting(),
		"bn254 poseidon2":   func() hash.Hash { return bn254poseidon2.NewMerkleDamgardHasher() },
	}
	for f := range nFaults {
		ctors[f.String()] = brokenHash(f, newTrigger(0))
	}
	cols := [][]gf64.Element{{1, 2}, {3, 4}}
	for name, h := range ctors {
		t.Run(name, func(t *testing.T) {
			require.NotPanics(t, func() {
				hs, err := merkle.NewHasher(h)
				if err == nil {
					// Some faults show only on the tree's messages.
					err = hs.Probe(16)
				}
				require.ErrorIs(t, err, merkle.ErrHash, "NewHasher and Probe")
				_, err = merkle.Commit(cols, h, 0)
				require.ErrorIs(t, err, merkle.ErrHash, "Commit")
				root := make([]byte, 32)
				err = merkle.Verify(root, 2, []int{0}, [][]gf64.Element{{1, 3}}, [][][]byte{{make([]byte, 32)}}, h)
				require.ErrorIs(t, err, merkle.ErrHash, "Verify")
				m := &merkle.MultiOpening[gf64.Element]{Indices: []int{0}, Rows: [][]gf64.Element{{1, 3}}, Nodes: [][]byte{make([]byte, 32)}}
				require.ErrorIs(t, merkle.VerifyMulti(root, 2, m, h), merkle.ErrHash, "VerifyMulti")
			})
		})
	}
	_, err := merkle.NewHasher(nil)
	require.NoError(t, err)
	require.ErrorIs(t, merkle.Hasher{}.Probe(0), merkle.ErrShape)
}

// TestBrokenHashEveryEntryPoint lets a hash pass its probes and break
// later, at a chosen number of writes, inside Build (on the tree's
// goroutines), Open, OpenMulti, LeafDigests, JoinRoots, Verify and
// VerifyMulti: each returns an error wrapping ErrHash and no result.
func TestBrokenHashEveryEntryPoint(t *testing.T) {
	for f := range nFaults {
		t.Run(f.String(), func(t *testing.T) {
			t.Run("gf64", func(t *testing.T) { testBrokenEntryPoints[gf64.Element](t, f) })
			t.Run("babybear", func(t *testing.T) { testBrokenEntryPoints[babybear.Element](t, f) })
			t.Run("bn254", func(t *testing.T) { testBrokenEntryPoints[fr.Element](t, f) })
		})
	}
}

func testBrokenEntryPoints[E merkle.Element](t *testing.T, f fault) {
	trig := newTrigger(math.MaxInt64)
	h := brokenHash(f, trig)
	hs, err := merkle.NewHasher(h)
	require.NoError(t, err)
	cols := randomCols[E](9, 3, 2) // 512 rows: the tree spreads over goroutines
	good, err := merkle.Build(cols, hs, 4, nil)
	require.NoError(t, err)
	root, n := good.Root(), good.Rows()
	op, err := good.Open([]int{1, 300})
	require.NoError(t, err)
	mo, err := good.OpenMulti([]int{1, 300})
	require.NoError(t, err)
	require.NoError(t, op.Verify(root, n, h))
	// Break after some of the tree's writes, early and late.
	for _, after := range []int64{0, 1, 100, 900} {
		require.NotPanics(t, func() {
			trig.left.Store(after)
			tr, err := merkle.Build(cols, hs, 4, nil)
			require.ErrorIs(t, err, merkle.ErrHash, "Build, breaking after %d writes", after)
			require.Nil(t, tr)
		})
	}
	for _, after := range []int64{0, 1} {
		require.NotPanics(t, func() {
			trig.left.Store(after)
			o, err := good.Open([]int{1, 300})
			require.ErrorIs(t, err, merkle.ErrHash, "Open, breaking after %d writes", after)
			require.Nil(t, o)
			trig.left.Store(after)
			m, err := good.OpenMulti([]int{1, 300})
			require.ErrorIs(t, err, merkle.ErrHash, "OpenMulti, breaking after %d writes", after)
			require.Nil(t, m)
			trig.left.Store(after)
			d, err := merkle.LeafDigests(hs, op.Rows)
			require.ErrorIs(t, err, merkle.ErrHash, "LeafDigests, breaking after %d writes", after)
			require.Nil(t, d)
			trig.left.Store(after)
			top, err := merkle.JoinRoots(hs, op.Paths[0][:4]) // three nodes
			require.ErrorIs(t, err, merkle.ErrHash, "JoinRoots, breaking after %d writes", after)
			require.Nil(t, top)
		})
	}
	for _, after := range []int64{0, 3} {
		require.NotPanics(t, func() {
			trig.left.Store(after)
			require.ErrorIs(t, op.Verify(root, n, h), merkle.ErrHash, "Verify, breaking after %d writes", after)
			trig.left.Store(after)
			require.ErrorIs(t, mo.Verify(root, n, h), merkle.ErrHash, "VerifyMulti, breaking after %d writes", after)
		})
	}
	// Repaired, the same hash builds the same tree again.
	trig.left.Store(math.MaxInt64)
	again, err := merkle.Build(cols, hs, 4, nil)
	require.NoError(t, err)
	assert.Equal(t, root, again.Root())
}
