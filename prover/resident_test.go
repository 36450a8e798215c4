package prover_test

import (
	"crypto/sha3"
	"errors"
	"flag"
	"fmt"
	"hash"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/prover"
)

// Tests of commitments kept on the device: every result equals the CPU
// backend's, device memory comes back at Close, and what cannot be kept
// on the device falls back and says why.

// mustLDE returns the commitment's LDE, failing the test on an error.
func mustLDE[E prover.Element](t testing.TB, c *prover.Commitment[E]) [][]E {
	t.Helper()
	lde, err := c.LDE()
	require.NoError(t, err, "the commitment's LDE")
	return lde
}

// openDevice opens the device or skips the test.
func openDevice(t *testing.T) *gpu.Device {
	t.Helper()
	dev, err := gpu.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

func TestDeviceTraceShape(t *testing.T) {
	_, _, err := prover.DeviceTrace[gf64.Element]{}.Shape()
	require.ErrorIs(t, err, prover.ErrShape)
	_, _, err = prover.PinnedTrace[gf64.Element]{}.Shape()
	require.ErrorIs(t, err, prover.ErrShape)
	_, err = prover.New[gf64.Element](prover.WithDeviceBudget(-1))
	require.ErrorIs(t, err, prover.ErrConfig)
}

func TestCPUCommitmentNotResident(t *testing.T) {
	enc, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	defer enc.Close()
	assert.Equal(t, prover.DeviceMemory{}, enc.DeviceMemory())
	tr, err := prover.RandomTrace[gf64.Element](4, 3, 1)
	require.NoError(t, err)
	c, err := enc.Commit(tr)
	require.NoError(t, err)
	on, why := c.Resident()
	assert.False(t, on)
	assert.Empty(t, why)
	_, err = c.DeviceLDE()
	require.ErrorIs(t, err, prover.ErrUnavailable)
	_, err = c.CombineDevice(make([]gf64.Element, 3))
	require.ErrorIs(t, err, prover.ErrUnavailable)
	root := c.Root()
	require.NoError(t, c.Close())
	require.NoError(t, c.Close(), "closing twice")
	assert.Equal(t, root, c.Root(), "the root after Close")
	_, err = c.Open([]int{1})
	require.ErrorIs(t, err, prover.ErrClosed)
	_, err = c.LDE()
	require.ErrorIs(t, err, prover.ErrClosed)
	_, err = c.Combine(make([]gf64.Element, 3))
	require.ErrorIs(t, err, prover.ErrClosed)
}

func TestResident(t *testing.T) {
	dev := openDevice(t)
	t.Run("gf64", func(t *testing.T) { testResident[gf64.Element](t, dev) })
	t.Run("goldilocks", func(t *testing.T) { testResident[goldilocks.Element](t, dev) })
	t.Run("babybear", func(t *testing.T) { testResident[babybear.Element](t, dev) })
	t.Run("koalabear", func(t *testing.T) { testResident[koalabear.Element](t, dev) })
	t.Run("bn254", func(t *testing.T) { testResident[fr.Element](t, dev) })
}

// residentShapes are (log2 rows, columns, blowup) of TestResident: every
// blowup, one row to 2^22 rows, one to 65 columns (Combine takes 32 and 64
// coefficients a launch).
func residentShapes(short bool) [][3]int {
	s := [][3]int{{0, 1, 2}, {0, 3, 16}, {1, 2, 4}, {3, 5, 8}, {6, 33, 2}, {10, 65, 4}, {12, 7, 16}, {16, 4, 2}}
	if !short {
		s = append(s, [3]int{18, 32, 4}, [3]int{20, 3, 2}, [3]int{22, 1, 2})
	}
	return s
}

func testResident[E prover.Element](t *testing.T, dev *gpu.Device) {
	cpu, err := prover.New[E](prover.WithBlowup(2))
	require.NoError(t, err)
	defer cpu.Close()
	for _, sh := range residentShapes(testing.Short()) {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("2^%d×%d/blowup=%d", logRows, cols, blowup)
		cpu, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		g, err := prover.New[E](prover.WithBlowup(blowup), prover.WithGPU(dev))
		require.NoError(t, err)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*100+cols))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		got, err := g.Commit(tr)
		require.NoError(t, err)
		on, why := got.Resident()
		require.True(t, on, "%s: not kept on the device: %s", name, why)
		assert.Equal(t, want.Root(), got.Root(), "%s: root", name)
		assert.Equal(t, want.Rows(), got.Rows(), name)
		assert.Equal(t, cols, got.Columns(), name)
		assert.Positive(t, g.DeviceMemory().InUse, name)

		// Openings: rows and paths equal the CPU's and verify.
		rng := rand.New(rand.NewPCG(uint64(logRows), uint64(cols)))
		idx := []int{0, got.Rows() - 1}
		for range 6 {
			idx = append(idx, rng.IntN(got.Rows()))
		}
		wo, err := want.Open(idx)
		require.NoError(t, err)
		o, err := got.Open(idx)
		require.NoError(t, err)
		assert.Equal(t, wo.Rows, o.Rows, "%s: opened rows", name)
		assert.Equal(t, wo.Paths, o.Paths, "%s: paths", name)
		require.NoError(t, o.Verify(got.Root(), got.Rows(), nil), name)
		_, err = got.Open([]int{got.Rows()})
		require.ErrorIs(t, err, prover.ErrIndex)

		// The LDE on request, and the device's view of it.
		wl := mustLDE(t, want)
		testutil.EqualColumns(t, wl, mustLDE(t, got), name+": LDE")
		into := make([][]E, cols)
		for j := range into {
			into[j] = make([]E, got.Rows())
		}
		require.NoError(t, got.LDEInto(into))
		testutil.EqualColumns(t, wl, into, name+": LDEInto")
		view, err := got.DeviceLDE()
		require.NoError(t, err)
		flat := make([]E, view.Len())
		require.NoError(t, view.Download(flat))
		for j := range cols {
			testutil.EqualColumns(t, wl[j:j+1], [][]E{flat[j*got.Rows() : (j+1)*got.Rows()]}, name+": DeviceLDE column %d", j)
		}

		// The random linear combination, on the device.
		alphaTr, err := prover.RandomTrace[E](0, cols, 7)
		require.NoError(t, err)
		alpha := make([]E, cols)
		for j := range alpha {
			alpha[j] = alphaTr[j][0]
		}
		wc, err := want.Combine(alpha)
		require.NoError(t, err)
		gc, err := got.Combine(alpha)
		require.NoError(t, err)
		testutil.EqualColumns(t, [][]E{wc}, [][]E{gc}, name+": Combine")
		db, err := got.CombineDevice(alpha)
		require.NoError(t, err)
		dc := make([]E, db.Len())
		require.NoError(t, db.Download(dc))
		require.NoError(t, db.Free())
		testutil.EqualColumns(t, [][]E{wc}, [][]E{dc}, name+": CombineDevice")
		db, err = gpu.Alloc[E](dev, got.Rows())
		require.NoError(t, err)
		require.NoError(t, got.CombineDeviceInto(db, alpha))
		require.NoError(t, db.Download(dc))
		testutil.EqualColumns(t, [][]E{wc}, [][]E{dc}, name+": CombineDeviceInto")
		short, err := db.View(0, db.Len()-1)
		require.NoError(t, err)
		require.ErrorIs(t, got.CombineDeviceInto(short, alpha), prover.ErrShape)
		require.NoError(t, db.Free())
		_, err = got.Combine(alpha[1:])
		require.ErrorIs(t, err, prover.ErrShape)

		root := got.Root()
		require.NoError(t, got.Close())
		assert.Zero(t, g.DeviceMemory().InUse, "%s: budget in use after Close", name)
		assert.Equal(t, root, got.Root(), "%s: root after Close", name)
		_, err = got.Open(idx)
		require.ErrorIs(t, err, prover.ErrClosed)
		_, err = got.DeviceLDE()
		require.ErrorIs(t, err, prover.ErrClosed)
		_, err = got.Combine(alpha)
		require.ErrorIs(t, err, prover.ErrClosed)
		require.NoError(t, got.Close(), "closing twice")
		require.NoError(t, g.Close())
		require.NoError(t, cpu.Close())
	}
}

// TestResidentSources commits the same trace from Go memory, a streaming
// Source, pinned memory and device memory: one root, each on the device.
func TestResidentSources(t *testing.T) {
	dev := openDevice(t)
	const logRows, cols = 12, 9
	tr, err := prover.RandomTrace[babybear.Element](logRows, cols, 5)
	require.NoError(t, err)
	cpu, err := prover.New[babybear.Element]()
	require.NoError(t, err)
	want, err := cpu.Commit(tr)
	require.NoError(t, err)

	pin, err := gpu.AllocHost[babybear.Element](dev, cols<<logRows)
	require.NoError(t, err)
	defer pin.Free()
	db, err := gpu.Alloc[babybear.Element](dev, cols<<logRows)
	require.NoError(t, err)
	defer db.Free()
	for j := range tr {
		copy(pin.Slice()[j<<logRows:], tr[j])
	}
	require.NoError(t, db.Upload(pin.Slice()))

	g, err := prover.New[babybear.Element](prover.WithGPU(dev), prover.WithChunkColumns(2))
	require.NoError(t, err)
	defer g.Close()
	for name, src := range map[string]prover.Source[babybear.Element]{
		"trace":  tr,
		"source": streamed[babybear.Element]{tr},
		"pinned": prover.PinnedTrace[babybear.Element]{Columns: pin, LogRows: logRows},
		"device": prover.DeviceTrace[babybear.Element]{Columns: db, LogRows: logRows},
	} {
		c, err := g.Commit(src)
		require.NoError(t, err, name)
		on, why := c.Resident()
		assert.True(t, on, "%s: %s", name, why)
		assert.Equal(t, want.Root(), c.Root(), name)
		require.NoError(t, c.Close())
		// The CPU backend reads the same sources through the host.
		cc, err := cpu.Commit(src)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), cc.Root(), "%s on the CPU", name)
	}
}

// streamed hides a Trace behind the Source interface.
type streamed[E prover.Element] struct{ t prover.Trace[E] }

func (s streamed[E]) Shape() (int, int, error)               { return s.t.Shape() }
func (s streamed[E]) ReadColumns(first int, dst [][]E) error { return s.t.ReadColumns(first, dst) }

// TestResidentFallback: over the budget, or with a custom hash, a GPU
// Commit makes its LDE in host memory, says why, and commits to the same
// root.
func TestResidentFallback(t *testing.T) {
	dev := openDevice(t)
	tr, err := prover.RandomTrace[gf64.Element](10, 4, 3) // a 128 KiB LDE
	require.NoError(t, err)
	cpu, err := prover.New[gf64.Element]()
	require.NoError(t, err)
	want, err := cpu.Commit(tr)
	require.NoError(t, err)

	var phases []string
	g, err := prover.New[gf64.Element](prover.WithGPU(dev), prover.WithDeviceBudget(64<<10),
		prover.WithProgress(func(p prover.Progress) { phases = append(phases, p.Phase) }))
	require.NoError(t, err)
	defer g.Close()
	assert.Equal(t, int64(64<<10), g.DeviceMemory().Budget)
	c, err := g.Commit(tr)
	require.NoError(t, err)
	on, why := c.Resident()
	assert.False(t, on)
	assert.Contains(t, why, "budget")
	assert.Contains(t, phases, "fallback")
	assert.Equal(t, want.Root(), c.Root())
	o, err := c.Open([]int{5, 77})
	require.NoError(t, err)
	require.NoError(t, o.Verify(c.Root(), c.Rows(), nil))

	h := func() hash.Hash { return sha3.New256() }
	gh, err := prover.New[gf64.Element](prover.WithGPU(dev), prover.WithHash(h))
	require.NoError(t, err)
	defer gh.Close()
	ch, err := gh.Commit(tr)
	require.NoError(t, err)
	on, why = ch.Resident()
	assert.False(t, on)
	assert.Contains(t, why, "hash")
	o, err = ch.Open([]int{9})
	require.NoError(t, err)
	require.NoError(t, o.Verify(ch.Root(), ch.Rows(), h))
}

// TestResidentMemory: a commitment's LDE and tree are in device memory
// until its Close; the encoder keeps them for its next commitment of the
// same shape, which allocates nothing, and frees them for a commitment of
// another shape and at its own Close.
func TestResidentMemory(t *testing.T) {
	dev := openDevice(t)
	const logRows, cols = 16, 32 // a 64 MiB LDE at blowup 4
	const slack = 4 << 20
	tr, err := prover.RandomTrace[gf64.Element](logRows, cols, 11)
	require.NoError(t, err)
	g, err := prover.New[gf64.Element](prover.WithGPU(dev))
	require.NoError(t, err)
	defer g.Close()
	free := func() int64 {
		require.NoError(t, dev.Synchronize())
		f, _, err := dev.MemInfo()
		require.NoError(t, err)
		return int64(f)
	}
	// The encoder's working memory (staging, hash states, tables) is made
	// by the first commitment and kept, and so are its buffers once closed.
	c, err := g.Commit(tr)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	kept := free()
	held := int64(4*cols) << logRows * 8
	c, err = g.Commit(tr)
	require.NoError(t, err)
	assert.InDelta(t, float64(kept), float64(free()), slack, "the same shape reuses the last commitment's buffers")
	assert.GreaterOrEqual(t, g.DeviceMemory().InUse, held)
	v, err := c.DeviceLDE()
	require.NoError(t, err)
	require.NoError(t, c.Close())
	assert.True(t, v.Freed(), "a view of a closed commitment's LDE acts as freed")
	assert.InDelta(t, float64(kept), float64(free()), slack, "device memory after Close")
	assert.Zero(t, g.DeviceMemory().InUse)

	// Another shape: the kept buffers go first.
	c, err = g.Commit(tr[:cols/2])
	require.NoError(t, err)
	assert.GreaterOrEqual(t, free(), kept+held/2-slack, "a commitment of half the columns after the kept buffers were freed")
	require.NoError(t, c.Close())
	require.NoError(t, g.Close())
	assert.GreaterOrEqual(t, free(), kept+held-slack, "the encoder's Close frees what it kept")
}

// TestResidentConcurrentOpen opens rows of one commitment from several
// goroutines (run with -race).
func TestResidentConcurrentOpen(t *testing.T) {
	dev := openDevice(t)
	tr, err := prover.RandomTrace[goldilocks.Element](11, 6, 13)
	require.NoError(t, err)
	g, err := prover.New[goldilocks.Element](prover.WithGPU(dev))
	require.NoError(t, err)
	defer g.Close()
	c, err := g.Commit(tr)
	require.NoError(t, err)
	defer c.Close()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for w := range errs {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range 20 {
				o, err := c.Open([]int{rng.IntN(c.Rows()), rng.IntN(c.Rows())})
				if err == nil {
					err = o.Verify(c.Root(), c.Rows(), nil)
				}
				if err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for w, err := range errs {
		assert.NoError(t, err, "goroutine %d", w)
	}
}

// BenchmarkResident is what a prover waits for: a trace in Go memory
// committed, and 8 rows opened on the host, the commitment then closed; on
// the GPU (LDE and tree kept on the device) and on the CPU backend.
func BenchmarkResident(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	b.Run("gf64", func(b *testing.B) { benchResident[gf64.Element](b, dev) })
	b.Run("goldilocks", func(b *testing.B) { benchResident[goldilocks.Element](b, dev) })
	b.Run("babybear", func(b *testing.B) { benchResident[babybear.Element](b, dev) })
	b.Run("koalabear", func(b *testing.B) { benchResident[koalabear.Element](b, dev) })
	b.Run("bn254", func(b *testing.B) { benchResident[fr.Element](b, dev) })
}

// benchResident measures both backends, each with the options extra (a
// Merkle hash) before its own.
func benchResident[E prover.Element](b *testing.B, dev *gpu.Device, extra ...prover.Option) {
	const logRows, cols = 20, 32
	tr, err := prover.RandomTrace[E](logRows, cols, 1)
	require.NoError(b, err)
	for _, backend := range []string{"gpu", "cpu"} {
		opts := append([]prover.Option(nil), extra...)
		if backend == "gpu" {
			opts = append(opts, prover.WithGPU(dev))
		}
		enc, err := prover.New[E](opts...)
		require.NoError(b, err)
		b.Run(fmt.Sprintf("%s/rows=2^%d/cols=%d/blowup=4", backend, logRows, cols), func(b *testing.B) {
			idx := []int{1, 100, 1000, 10000, 100000, 1 << 20, 3 << 20, 4<<20 - 1}
			var te, tc, to time.Duration
			run := func() {
				c, err := enc.Commit(tr)
				require.NoError(b, err)
				t := time.Now()
				_, err = c.Open(idx)
				require.NoError(b, err)
				to += time.Since(t)
				te += c.Timings.Encode
				tc += c.Timings.Commit
				require.NoError(b, c.Close())
			}
			run() // tables, kernels, staging, hash states
			te, tc, to = 0, 0, 0
			b.SetBytes(int64(cols) << logRows * int64(prover.FieldOf[E]().ElementBytes()))
			for b.Loop() {
				run()
			}
			n := float64(b.N) * 1e6
			b.ReportMetric(float64(te.Nanoseconds())/n, "encode-ms/op")
			b.ReportMetric(float64(tc.Nanoseconds())/n, "commit-ms/op")
			b.ReportMetric(float64(to.Nanoseconds())/n, "open-ms/op")
		})
		require.NoError(b, enc.Close())
	}
}

// BenchmarkResidentCombine is the random linear combination of the 32
// columns of a 2^22-row LDE kept on the device, the result left there.
func BenchmarkResidentCombine(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	b.Run("gf64", func(b *testing.B) { benchCombine[gf64.Element](b, dev) })
	b.Run("goldilocks", func(b *testing.B) { benchCombine[goldilocks.Element](b, dev) })
	b.Run("babybear", func(b *testing.B) { benchCombine[babybear.Element](b, dev) })
	b.Run("bn254", func(b *testing.B) { benchCombine[fr.Element](b, dev) })
}

func benchCombine[E prover.Element](b *testing.B, dev *gpu.Device) {
	const logRows, cols = 20, 32
	tr, err := prover.RandomTrace[E](logRows, cols, 1)
	require.NoError(b, err)
	enc, err := prover.New[E](prover.WithGPU(dev))
	require.NoError(b, err)
	defer enc.Close()
	c, err := enc.Commit(tr)
	require.NoError(b, err)
	defer c.Close()
	alpha := make([]E, cols)
	for j := range alpha {
		alpha[j] = tr[j][0]
	}
	d, err := gpu.Alloc[E](dev, c.Rows())
	require.NoError(b, err)
	defer d.Free()
	b.Run(fmt.Sprintf("rows=2^%d/cols=%d", logRows+2, cols), func(b *testing.B) {
		b.SetBytes(int64(c.Rows()) * int64(cols) * int64(prover.FieldOf[E]().ElementBytes()))
		for b.Loop() {
			require.NoError(b, c.CombineDeviceInto(d, alpha))
		}
	})
}

// TestResidentFirstCommit reports what the first commitments of a fresh
// encoder cost against later ones, at one size and after a change of size
// (run with -prover.report on a GPU machine, in a fresh process).
func TestResidentFirstCommit(t *testing.T) {
	if f := flag.Lookup("prover.report"); f == nil || f.Value.String() != "true" {
		t.Skip("run with -prover.report")
	}
	dev := openDevice(t)
	t.Run("gf64", func(t *testing.T) { reportFirst[gf64.Element](t, dev) })
	t.Run("babybear", func(t *testing.T) { reportFirst[babybear.Element](t, dev) })
	t.Run("goldilocks", func(t *testing.T) { reportFirst[goldilocks.Element](t, dev) })
	t.Run("bn254", func(t *testing.T) { reportFirst[fr.Element](t, dev) })
}

func reportFirst[E prover.Element](t *testing.T, dev *gpu.Device, opts ...prover.Option) {
	tr20, err := prover.RandomTrace[E](20, 32, 1)
	require.NoError(t, err)
	tr19, err := prover.RandomTrace[E](19, 32, 1)
	require.NoError(t, err)
	t0 := time.Now()
	enc, err := prover.New[E](append(opts, prover.WithGPU(dev))...)
	require.NoError(t, err)
	defer enc.Close()
	t.Logf("New: %v", time.Since(t0))
	t0 = time.Now()
	require.NoError(t, enc.Prepare(20, 32))
	t.Logf("Prepare(20, 32): %v", time.Since(t0))
	for i, tr := range []prover.Trace[E]{tr20, tr20, tr20, tr19, tr19, tr20} {
		t0 := time.Now()
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		d := time.Since(t0)
		require.NoError(t, c.Close())
		t.Logf("commit %d (2^%d rows): %v (encode %v, commit %v)", i+1, log2(len(tr[0])), d, c.Timings.Encode, c.Timings.Commit)
	}
}

func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// TestPrepare: Prepare checks its shape, and a prepared encoder commits as
// an unprepared one does, on every backend.
func TestPrepare(t *testing.T) {
	tr, err := prover.RandomTrace[koalabear.Element](9, 5, 2)
	require.NoError(t, err)
	ref, err := prover.New[koalabear.Element]()
	require.NoError(t, err)
	want, err := ref.Commit(tr)
	require.NoError(t, err)
	for name, opts := range backends(t) {
		enc, err := prover.New[koalabear.Element](opts...)
		require.NoError(t, err, name)
		require.ErrorIs(t, enc.Prepare(-1, 3), prover.ErrShape, name)
		require.ErrorIs(t, enc.Prepare(4, 0), prover.ErrShape, name)
		require.NoError(t, enc.Prepare(9, 5), name)
		assert.Zero(t, enc.DeviceMemory().InUse, "%s: Prepare keeps no commitment", name)
		c, err := enc.Commit(tr)
		require.NoError(t, err, name)
		assert.Equal(t, want.Root(), c.Root(), name)
		require.NoError(t, c.Close())
		require.NoError(t, enc.Close())
	}
}

// TestCloseWhileInUse closes a commitment while other goroutines open,
// combine and copy it, on every backend (run with -race): each call either
// succeeds with the right answer or returns ErrClosed.
func TestCloseWhileInUse(t *testing.T) {
	tr, err := prover.RandomTrace[babybear.Element](8, 3, 4)
	require.NoError(t, err)
	alpha := []babybear.Element{tr[0][1], tr[1][2], tr[2][3]}
	for name, opts := range backends(t) {
		enc, err := prover.New[babybear.Element](opts...)
		require.NoError(t, err, name)
		c, err := enc.Commit(tr)
		require.NoError(t, err, name)
		want, err := c.Combine(alpha)
		require.NoError(t, err, name)
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for w := range errs {
			wg.Go(func() {
				for i := range 30 {
					var err error
					switch (w + i) % 3 {
					case 0:
						var o *prover.Opening[babybear.Element]
						if o, err = c.Open([]int{i, 1023 - i}); err == nil {
							err = o.Verify(c.Root(), c.Rows(), nil)
						}
					case 1:
						var got []babybear.Element
						if got, err = c.Combine(alpha); err == nil && fmt.Sprint(got) != fmt.Sprint(want) {
							err = fmt.Errorf("combination differs")
						}
					default:
						_, err = c.LDE()
					}
					if err != nil && !errors.Is(err, prover.ErrClosed) {
						errs[w] = err
						return
					}
				}
			})
		}
		require.NoError(t, c.Close(), name)
		wg.Wait()
		for w, err := range errs {
			assert.NoError(t, err, "%s: goroutine %d", name, w)
		}
		_, err = c.Open([]int{1})
		require.ErrorIs(t, err, prover.ErrClosed, name)
		require.NoError(t, enc.Close())
	}
}
