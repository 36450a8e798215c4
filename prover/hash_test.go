package prover_test

import (
	"crypto/sha256"
	"crypto/sha3"
	"errors"
	"fmt"
	"hash"
	"math"
	"sync/atomic"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254poseidon2 "github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearposeidon2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	xsha3 "golang.org/x/crypto/sha3"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

// Tests of the Merkle hash a caller plugs in (WithHash): byte hashes and a
// packing adapter around a field hash commit and bind; hashes that break the
// hash.Hash contract give an error at every entry point, on the CPU and GPU
// backends, never a root, an opening or a verdict, and never crash.

// goodHashes are the hashes that must commit and bind.
var goodHashes = []struct {
	name string
	h    func() hash.Hash
}{
	{"sha256-default", nil},
	{"keccak256", xsha3.NewLegacyKeccak256},
	{"sha3-256", func() hash.Hash { return sha3.New256() }},
	{"poseidon2-bn254-packed", poseidon2BN254},
	{"poseidon2-babybear-packed", poseidon2BabyBear},
}

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
type trigger struct {
	left  atomic.Int64
	fired atomic.Bool
}

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
	b.t.fired.Store(true)
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
		b.t.fired.Store(true)
		panic("broken: Reset")
	}
	b.bad = false
	b.Hash.Reset()
}

// constant gives every message the same digest.
type constant struct{ hash.Hash }

func (constant) Sum(in []byte) []byte { return append(in, make([]byte, 32)...) }

// backends returns the encoders' options for every backend this machine has:
// the CPU, and the GPU when there is one (the caller closes the device).
func backends(t *testing.T) map[string][]prover.Option {
	b := map[string][]prover.Option{"cpu": {prover.WithWorkers(4)}}
	dev, err := gpu.Open()
	if err != nil {
		t.Logf("CPU backend only: %v", err)
		return b
	}
	t.Cleanup(func() { dev.Close() })
	b["gpu"] = []prover.Option{prover.WithGPU(dev), prover.WithChunkColumns(2)}
	return b
}

func TestGoodHashesBind(t *testing.T) {
	for bname, bopts := range backends(t) {
		for _, gh := range goodHashes {
			t.Run(bname+"/"+gh.name, func(t *testing.T) {
				t.Run("gf64", func(t *testing.T) { testBinds[gf64.Element](t, gh.h, bopts) })
				t.Run("goldilocks", func(t *testing.T) { testBinds[goldilocks.Element](t, gh.h, bopts) })
				t.Run("babybear", func(t *testing.T) { testBinds[babybear.Element](t, gh.h, bopts) })
				t.Run("koalabear", func(t *testing.T) { testBinds[koalabear.Element](t, gh.h, bopts) })
				t.Run("bn254", func(t *testing.T) { testBinds[fr.Element](t, gh.h, bopts) })
			})
		}
	}
}

// testBinds commits two traces that differ in one element: the roots
// differ, every opening verifies against its own root and not the other's,
// and a tampered row fails.
func testBinds[E prover.Element](t *testing.T, h func() hash.Hash, bopts []prover.Option) {
	enc, err := prover.New[E](append([]prover.Option{prover.WithHash(h), prover.WithBlowup(2)}, bopts...)...)
	if errors.Is(err, prover.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer enc.Close()
	a, err := prover.RandomTrace[E](4, 3, 1)
	require.NoError(t, err)
	b, err := prover.RandomTrace[E](4, 3, 1)
	require.NoError(t, err)
	b[1][5] = a[1][6]
	require.NotEqual(t, a[1][5], b[1][5])
	ca, err := enc.Commit(a)
	require.NoError(t, err)
	cb, err := enc.Commit(b)
	require.NoError(t, err)
	assert.NotEqual(t, ca.Root(), cb.Root(), "different traces, one root")

	all := make([]int, ca.Rows())
	for i := range all {
		all[i] = i
	}
	oa, err := ca.Open(all)
	require.NoError(t, err)
	require.NoError(t, oa.Verify(ca.Root(), ca.Rows(), h))
	ob, err := cb.Open(all)
	require.NoError(t, err)
	require.NoError(t, ob.Verify(cb.Root(), cb.Rows(), h))
	// The rows of b that differ from a's do not verify against a's root.
	differ := 0
	for k := range all {
		if fmt.Sprint(oa.Rows[k]) == fmt.Sprint(ob.Rows[k]) {
			continue
		}
		differ++
		err := prover.Verify(ca.Root(), ca.Rows(), all[k:k+1], ob.Rows[k:k+1], ob.Paths[k:k+1], h)
		require.ErrorIs(t, err, prover.ErrVerify, "row %d of trace b against a's root", k)
	}
	require.NotZero(t, differ)
	// A row with one element changed fails.
	row := append([]E(nil), oa.Rows[3]...)
	row[2] = oa.Rows[4][2]
	if fmt.Sprint(row) != fmt.Sprint(oa.Rows[3]) {
		err := prover.Verify(ca.Root(), ca.Rows(), []int{3}, [][]E{row}, oa.Paths[3:4], h)
		require.ErrorIs(t, err, prover.ErrVerify)
	}
}

func TestBrokenHashRefusedAtNew(t *testing.T) {
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
		"babybear poseidon2": func() hash.Hash {
			return babybearposeidon2.NewMerkleDamgardHasher()
		},
	}
	for f := range nFaults {
		ctors[f.String()] = brokenHash(f, newTrigger(0))
	}
	for name, h := range ctors {
		t.Run(name, func(t *testing.T) {
			require.NotPanics(t, func() {
				_, err := prover.New[gf64.Element](prover.WithHash(h))
				require.ErrorIs(t, err, prover.ErrConfig)
				require.ErrorIs(t, err, prover.ErrHash)
				_, err = prover.New[babybear.Element](prover.WithHash(h))
				require.ErrorIs(t, err, prover.ErrHash)
				// Verify refuses the hash too: never a verdict from it.
				root := make([]byte, 32)
				err = prover.Verify(root, 2, []int{0}, [][]gf64.Element{{1}}, [][][]byte{{make([]byte, 32)}}, h)
				require.ErrorIs(t, err, prover.ErrHash)
			})
		})
	}
}

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

// TestBrokenHashEveryEntryPoint lets a hash pass New's probe and break later,
// at a chosen number of writes, inside Commit (on the tree's goroutines),
// CommitInto, CommitLDE, Open and Verify: each returns an error wrapping
// ErrHash and no result.
func TestBrokenHashEveryEntryPoint(t *testing.T) {
	for bname, bopts := range backends(t) {
		for f := range nFaults {
			t.Run(bname+"/"+f.String(), func(t *testing.T) {
				t.Run("gf64", func(t *testing.T) { testBrokenEntryPoints[gf64.Element](t, f, bopts) })
				t.Run("babybear", func(t *testing.T) { testBrokenEntryPoints[babybear.Element](t, f, bopts) })
				t.Run("bn254", func(t *testing.T) { testBrokenEntryPoints[fr.Element](t, f, bopts) })
			})
		}
	}
}

func testBrokenEntryPoints[E prover.Element](t *testing.T, f fault, bopts []prover.Option) {
	trig := newTrigger(math.MaxInt64)
	h := brokenHash(f, trig)
	enc, err := prover.New[E](append([]prover.Option{prover.WithHash(h), prover.WithBlowup(4)}, bopts...)...)
	if errors.Is(err, prover.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer enc.Close()
	tr, err := prover.RandomTrace[E](7, 3, 2) // 512 LDE rows: the tree spreads over goroutines
	require.NoError(t, err)
	good, err := enc.Commit(tr)
	require.NoError(t, err)
	op, err := good.Open([]int{1, 300})
	require.NoError(t, err)
	require.NoError(t, op.Verify(good.Root(), good.Rows(), h))

	// Break after some of the tree's writes, early and late.
	for _, after := range []int64{0, 1, 100, 900} {
		require.NotPanics(t, func() {
			trig.left.Store(after)
			c, err := enc.Commit(tr)
			require.ErrorIs(t, err, prover.ErrHash, "Commit, breaking after %d writes", after)
			require.Nil(t, c)

			trig.left.Store(after)
			dst := make([][]E, len(tr))
			for j := range dst {
				dst[j] = make([]E, good.Rows())
			}
			c, err = enc.CommitInto(dst, tr)
			require.ErrorIs(t, err, prover.ErrHash, "CommitInto")
			require.Nil(t, c)

			trig.left.Store(after)
			c, err = enc.CommitLDE(mustLDE(t, good))
			require.ErrorIs(t, err, prover.ErrHash, "CommitLDE")
			require.Nil(t, c)
		})
	}
	for _, after := range []int64{0, 3} {
		require.NotPanics(t, func() {
			trig.left.Store(after)
			o, err := good.Open([]int{1, 300})
			if after == 0 {
				require.ErrorIs(t, err, prover.ErrHash, "Open")
				require.Nil(t, o)
			}
			trig.left.Store(after)
			err = op.Verify(good.Root(), good.Rows(), h)
			require.ErrorIs(t, err, prover.ErrHash, "Verify, breaking after %d writes", after)
		})
	}
	// Repaired, the same encoder commits again to the same root.
	trig.left.Store(math.MaxInt64)
	again, err := enc.Commit(tr)
	require.NoError(t, err)
	assert.Equal(t, good.Root(), again.Root())
}

// TestProgressPanic: a WithProgress function that panics on the tree's
// goroutines makes Commit return an error instead of killing the process.
func TestProgressPanic(t *testing.T) {
	enc, err := prover.New[gf64.Element](prover.WithWorkers(4), prover.WithHash(sha256.New),
		prover.WithProgress(func(p prover.Progress) {
			if p.Phase == "commit" {
				panic("progress")
			}
		}))
	require.NoError(t, err)
	tr, err := prover.RandomTrace[gf64.Element](8, 2, 3)
	require.NoError(t, err)
	require.NotPanics(t, func() {
		c, err := enc.Commit(tr)
		require.ErrorIs(t, err, prover.ErrConfig)
		require.Nil(t, c)
	})
}
