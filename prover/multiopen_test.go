package prover_test

import (
	"crypto/sha256"
	"crypto/sha3"
	"errors"
	"fmt"
	"hash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Tests of a commitment's multi-path openings, on every backend: they
// verify and carry exactly the nodes the single paths imply (each once, in
// the documented order). The openings themselves, their encoding and their
// verifier are package merkle's, tested there.

func sha3New() hash.Hash { return sha3.New256() }

// moIndexSets are index sets for a commitment of n rows: one index, the
// first and last, all of them, adjacent pairs, duplicates in no order, and
// random ones.
func moIndexSets(n int, r *rand.Rand) [][]int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	sets := [][]int{{0}, {n - 1}, {0, n - 1}, all}
	if n >= 4 {
		sets = append(sets, []int{2, 3}, []int{n - 2, n - 1, 0, 1}, []int{3, 1, 3, 3, 1}, []int{1, 2})
	}
	for range 4 {
		q := 1 + r.IntN(min(n, 40))
		s := make([]int, q)
		for k := range s {
			s[k] = r.IntN(n)
		}
		sets = append(sets, s)
	}
	return sets
}

// moRef returns what the single paths of c imply for the distinct sorted
// indices idx: for each level from the leaves up, the siblings of the known
// positions that are not known, left to right, each once, taken from the
// paths of Open (which must agree where they meet).
func moRef[E prover.Element](t testing.TB, c *prover.Commitment[E], idx []int) (rows [][]E, nodes [][]byte) {
	t.Helper()
	o, err := c.Open(idx)
	require.NoError(t, err)
	height := log2(c.Rows())
	at := map[[2]int][]byte{}
	for k, i := range idx {
		require.Len(t, o.Paths[k], height)
		for j, d := range o.Paths[k] {
			key := [2]int{j, (i >> j) ^ 1}
			if prev, ok := at[key]; ok {
				require.Equal(t, prev, d, "paths disagree on node %d of level %d", key[1], j)
			}
			at[key] = d
		}
	}
	known := map[int]bool{}
	for _, i := range idx {
		known[i] = true
	}
	for j := range height {
		var need []int
		for p := range known {
			if !known[p^1] {
				need = append(need, p^1)
			}
		}
		slices.Sort(need)
		for _, p := range need {
			nodes = append(nodes, at[[2]int{j, p}])
		}
		up := map[int]bool{}
		for p := range known {
			up[p>>1] = true
		}
		known = up
	}
	return o.Rows, nodes
}

func sortedUnique(idx []int) []int {
	s := slices.Clone(idx)
	slices.Sort(s)
	return slices.Compact(s)
}

func TestOpenMulti(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testOpenMulti[gf64.Element](t) })
	t.Run("goldilocks", func(t *testing.T) { testOpenMulti[goldilocks.Element](t) })
	t.Run("babybear", func(t *testing.T) { testOpenMulti[babybear.Element](t) })
	t.Run("koalabear", func(t *testing.T) { testOpenMulti[koalabear.Element](t) })
	t.Run("bn254", func(t *testing.T) { testOpenMulti[fr.Element](t) })
}

func testOpenMulti[E prover.Element](t *testing.T) {
	logs := []int{0, 1, 2, 3, 5, 8, 12}
	for _, h := range []struct {
		name string
		h    func() hash.Hash
	}{{"sha256", nil}, {"sha3", sha3New}} {
		enc, err := prover.New[E](prover.WithHash(h.h))
		require.NoError(t, err)
		for _, lg := range logs {
			cols := 1 + lg%4
			lde, err := prover.RandomTrace[E](lg, cols, uint64(lg))
			require.NoError(t, err)
			c, err := enc.CommitLDE(lde)
			require.NoError(t, err)
			n, root := c.Rows(), c.Root()
			r := rand.New(rand.NewPCG(uint64(lg), 7))
			for _, idx := range moIndexSets(n, r) {
				name := fmt.Sprintf("%s 2^%d×%d %v", h.name, lg, cols, idx)
				if len(idx) > 8 {
					name = fmt.Sprintf("%s 2^%d×%d %d indices", h.name, lg, cols, len(idx))
				}
				m, err := c.OpenMulti(idx)
				require.NoError(t, err, name)
				u := sortedUnique(idx)
				wantRows, wantNodes := moRef(t, c, u)
				require.Equal(t, u, m.Indices, name)
				require.Equal(t, wantRows, m.Rows, name)
				require.Equal(t, wantNodes, m.Nodes, name)
				if len(u) == 1 {
					assert.Len(t, m.Nodes, lg, "%s: one index sends a whole path", name)
				}
				if len(u) == n {
					assert.Empty(t, m.Nodes, "%s: all indices send no node", name)
				}
				require.NoError(t, m.Verify(root, n, h.h), name)
				require.NoError(t, prover.VerifyMulti(root, n, m, h.h), name)
				b, err := m.MarshalBinary()
				require.NoError(t, err, name)
				assert.Len(t, b, m.Size(), name)
				var back prover.MultiOpening[E]
				require.NoError(t, back.UnmarshalBinary(b), name)
				require.Equal(t, m.Indices, back.Indices, name)
				require.Equal(t, m.Rows, back.Rows, name)
				require.Equal(t, len(m.Nodes), len(back.Nodes), name)
				for k := range m.Nodes {
					require.Equal(t, m.Nodes[k], back.Nodes[k], name)
				}
				require.NoError(t, back.Verify(root, n, h.h), name)
				// The other hash, and the tree seen as twice its size, reject it.
				other := sha3New
				if h.h != nil {
					other = nil
				}
				require.ErrorIs(t, m.Verify(root, n, other), prover.ErrVerify, name)
				require.Error(t, m.Verify(root, 2*n, h.h), name)
			}
			_, err = c.OpenMulti(nil)
			require.ErrorIs(t, err, prover.ErrShape)
			_, err = c.OpenMulti([]int{0, n})
			require.ErrorIs(t, err, prover.ErrIndex)
			_, err = c.OpenMulti([]int{-1})
			require.ErrorIs(t, err, prover.ErrIndex)
		}
	}
}

func TestOpenMultiGPU(t *testing.T) {
	t.Run("resident", func(t *testing.T) {
		devs := []*gpu.Device{openDevice(t)}
		t.Run("gf64", func(t *testing.T) { testOpenMultiGPU[gf64.Element](t, devs) })
		t.Run("babybear", func(t *testing.T) { testOpenMultiGPU[babybear.Element](t, devs) })
		t.Run("goldilocks", func(t *testing.T) { testOpenMultiGPU[goldilocks.Element](t, devs) })
		t.Run("koalabear", func(t *testing.T) { testOpenMultiGPU[koalabear.Element](t, devs) })
		t.Run("bn254", func(t *testing.T) { testOpenMultiGPU[fr.Element](t, devs) })
	})
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d devices", n), func(t *testing.T) {
			devs := openDevices(t, n)
			t.Run("gf64", func(t *testing.T) { testOpenMultiGPU[gf64.Element](t, devs) })
			t.Run("babybear", func(t *testing.T) { testOpenMultiGPU[babybear.Element](t, devs) })
			t.Run("bn254", func(t *testing.T) { testOpenMultiGPU[fr.Element](t, devs) })
		})
	}
}

// testOpenMultiGPU checks that multi-openings of commitments kept on the
// devices (one: WithGPU; several: WithGPUs) equal the CPU commitment's.
func testOpenMultiGPU[E prover.Element](t *testing.T, devs []*gpu.Device) {
	for _, sh := range [][3]int{{0, 1, 2}, {1, 3, 4}, {3, 5, 2}, {6, 7, 4}, {9, 4, 2}, {12, 3, 4}} {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("%d devices, 2^%d×%d, blowup %d", len(devs), logRows, cols, blowup)
		cpu, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		opts := []prover.Option{prover.WithBlowup(blowup), prover.WithGPU(devs[0])}
		if len(devs) > 1 {
			opts = []prover.Option{prover.WithBlowup(blowup), prover.WithGPUs(devs...), prover.WithChunkColumns(2)}
		}
		g, err := prover.New[E](opts...)
		require.NoError(t, err, name)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*10+cols))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		got, err := g.Commit(tr)
		require.NoError(t, err, name)
		on, why := got.Resident()
		require.True(t, on, "%s: not on the device: %s", name, why)
		require.Equal(t, want.Root(), got.Root(), name)
		r := rand.New(rand.NewPCG(uint64(logRows), uint64(cols)))
		for _, idx := range moIndexSets(got.Rows(), r) {
			wm, err := want.OpenMulti(idx)
			require.NoError(t, err, name)
			gm, err := got.OpenMulti(idx)
			require.NoError(t, err, name)
			require.Equal(t, wm.Indices, gm.Indices, name)
			require.Equal(t, wm.Rows, gm.Rows, name)
			require.Equal(t, wm.Nodes, gm.Nodes, "%s: %d indices", name, len(idx))
			require.NoError(t, gm.Verify(got.Root(), got.Rows(), nil), name)
		}
		require.NoError(t, got.Close())
		_, err = got.OpenMulti([]int{0})
		require.ErrorIs(t, err, prover.ErrClosed)
		require.NoError(t, want.Close())
		require.NoError(t, g.Close())
		require.NoError(t, cpu.Close())
	}
}

// TestMultiOpeningPackage: prover's MultiOpening, VerifyMulti and errors
// are package merkle's: the field byte of the encoding is the Field
// constant, and the errors of the opening's methods are prover's sentinels.
func TestMultiOpeningPackage(t *testing.T) {
	t.Run("gf64", func(t *testing.T) { testMultiOpeningPackage[gf64.Element](t) })
	t.Run("goldilocks", func(t *testing.T) { testMultiOpeningPackage[goldilocks.Element](t) })
	t.Run("babybear", func(t *testing.T) { testMultiOpeningPackage[babybear.Element](t) })
	t.Run("koalabear", func(t *testing.T) { testMultiOpeningPackage[koalabear.Element](t) })
	t.Run("bn254", func(t *testing.T) { testMultiOpeningPackage[fr.Element](t) })
}

func testMultiOpeningPackage[E prover.Element](t *testing.T) {
	enc, err := prover.New[E]()
	require.NoError(t, err)
	lde, err := prover.RandomTrace[E](5, 3, 9)
	require.NoError(t, err)
	c, err := enc.CommitLDE(lde)
	require.NoError(t, err)
	root, n := c.Root(), c.Rows()
	m, err := c.OpenMulti([]int{20, 3, 4})
	require.NoError(t, err)
	var _ *merkle.MultiOpening[E] = m
	b, err := m.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, byte(prover.FieldOf[E]()), b[1], "the field byte is the Field constant")
	var back prover.MultiOpening[E]
	require.NoError(t, back.UnmarshalBinary(b))
	require.NoError(t, prover.VerifyMulti(root, n, &back, nil))
	require.ErrorIs(t, back.UnmarshalBinary(b[:len(b)-1]), prover.ErrShape)
	bad := slices.Clone(b)
	copy(bad[15:19], bad[19:23]) // the second index over the first
	require.ErrorIs(t, back.UnmarshalBinary(bad), prover.ErrIndex)
	back.Rows[0] = slices.Clone(back.Rows[1])
	require.ErrorIs(t, prover.VerifyMulti(root, n, &back, nil), prover.ErrVerify)
	require.ErrorIs(t, prover.VerifyMulti(root, n/2, m, nil), prover.ErrIndex)
	require.ErrorIs(t, m.Verify(root, n, func() hash.Hash { return failingWrite{sha256.New()} }), prover.ErrHash)
	_, err = (&prover.MultiOpening[E]{}).MarshalBinary()
	require.ErrorIs(t, err, prover.ErrShape)
}

// failingWrite is a hash whose Write always fails.
type failingWrite struct{ hash.Hash }

func (failingWrite) Write([]byte) (int, error) { return 0, errors.New("no") }
