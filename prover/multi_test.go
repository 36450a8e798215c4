package prover_test

import (
	"crypto/sha3"
	"errors"
	"flag"
	"fmt"
	"hash"
	"math/rand/v2"
	"strings"
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

// Tests of WithGPUs on 1 to 4 devices: on a machine of one GPU the devices
// are Device values opened on its ordinal (logical devices: the same code,
// with plain device-to-device copies where GPUs would use peer copies);
// with -prover.gpus.ordinals the test runs on that many GPUs. Every result
// equals the CPU backend's and WithGPU's, bit for bit.

var multiOrdinals = flag.Bool("prover.gpus.ordinals", false, "open the multi-GPU tests' devices on ordinals 0, 1, … (physical GPUs) instead of all on the first GPU")

// openDevices opens n devices, or skips the test without a GPU (or without
// n GPUs under -prover.gpus.ordinals).
func openDevices(t testing.TB, n int) []*gpu.Device {
	t.Helper()
	devs := make([]*gpu.Device, n)
	for i := range devs {
		ord := 0
		if *multiOrdinals {
			ord = i
		}
		d, err := gpu.Open(gpu.WithOrdinal(ord))
		if errors.Is(err, gpu.ErrNoDevice) {
			t.Skipf("no GPU for device %d (ordinal %d): %v", i, ord, err)
		}
		require.NoError(t, err)
		t.Cleanup(func() { d.Close() })
		devs[i] = d
	}
	return devs
}

// multiShapes are (log2 rows, columns, blowup): every blowup, columns that
// 2, 3 and 4 devices do not divide and fewer columns than devices, LDEs of
// 2 rows (one block) to 2^20 (32 blocks).
func multiShapes(short bool) [][3]int {
	s := [][3]int{{0, 1, 2}, {0, 3, 16}, {1, 2, 4}, {2, 5, 2}, {3, 7, 8}, {6, 11, 2}, {9, 13, 4}, {12, 6, 16}}
	if !short {
		s = append(s, [3]int{16, 9, 4}, [3]int{18, 5, 4})
	}
	return s
}

func TestMultiGPU(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprintf("%d devices", n), func(t *testing.T) {
			devs := openDevices(t, n)
			t.Run("gf64", func(t *testing.T) { testMulti[gf64.Element](t, devs) })
			t.Run("goldilocks", func(t *testing.T) { testMulti[goldilocks.Element](t, devs) })
			t.Run("babybear", func(t *testing.T) { testMulti[babybear.Element](t, devs) })
			t.Run("koalabear", func(t *testing.T) { testMulti[koalabear.Element](t, devs) })
			t.Run("bn254", func(t *testing.T) { testMulti[fr.Element](t, devs) })
		})
	}
}

func testMulti[E prover.Element](t *testing.T, devs []*gpu.Device) {
	for _, sh := range multiShapes(testing.Short()) {
		logRows, cols, blowup := sh[0], sh[1], sh[2]
		name := fmt.Sprintf("%d devices, 2^%d×%d, blowup %d", len(devs), logRows, cols, blowup)
		cpu, err := prover.New[E](prover.WithBlowup(blowup))
		require.NoError(t, err)
		one, err := prover.New[E](prover.WithBlowup(blowup), prover.WithGPU(devs[0]))
		require.NoError(t, err)
		m, err := prover.New[E](prover.WithBlowup(blowup), prover.WithGPUs(devs...), prover.WithChunkColumns(2))
		require.NoError(t, err, name)
		tr, err := prover.RandomTrace[E](logRows, cols, uint64(logRows*1000+cols))
		require.NoError(t, err)

		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		wantLDE := mustLDE(t, want)
		single, err := one.Commit(tr)
		require.NoError(t, err)
		require.Equal(t, want.Root(), single.Root(), "%s: WithGPU's root", name)
		require.NoError(t, single.Close())

		got, err := m.Commit(tr)
		require.NoError(t, err, name)
		on, why := got.Resident()
		require.True(t, on, "%s: not on the devices: %s", name, why)
		require.Equal(t, want.Root(), got.Root(), "%s: root against the CPU", name)
		assert.Equal(t, blowup<<logRows, got.Rows())
		assert.Equal(t, cols, got.Columns())
		testutil.RequireEqualColumns(t, wantLDE, mustLDE(t, got), "%s: LDE", name)
		lde := make([][]E, cols)
		for j := range lde {
			lde[j] = make([]E, got.Rows())
		}
		require.NoError(t, got.LDEInto(lde))
		testutil.RequireEqualColumns(t, wantLDE, lde, "%s: LDEInto", name)

		// Openings: the first and last rows, both rows of a pair, rows of
		// every block, random rows.
		n := got.Rows()
		r := rand.New(rand.NewPCG(uint64(n), uint64(cols)))
		idx := []int{0, n - 1, n / 2, (n/2 + 1) % n}
		for range 12 {
			idx = append(idx, r.IntN(n))
		}
		wo, err := want.Open(idx)
		require.NoError(t, err)
		o, err := got.Open(idx)
		require.NoError(t, err, name)
		assert.Equal(t, wo, o, "%s: opening against the CPU", name)
		require.NoError(t, o.Verify(want.Root(), n, nil), name)

		// Combinations: on the devices, added on the first.
		alpha := coeffs[E](t, cols)
		wc, err := want.Combine(alpha)
		require.NoError(t, err)
		gc, err := got.Combine(alpha)
		require.NoError(t, err, name)
		testutil.RequireEqualSlices(t, wc, gc, "%s: Combine", name)
		buf, err := got.CombineDevice(alpha)
		require.NoError(t, err)
		assert.Same(t, devs[0], buf.Device(), "CombineDevice's buffer is on the first device")
		dc := make([]E, n)
		require.NoError(t, buf.Download(dc))
		testutil.RequireEqualSlices(t, wc, dc, "%s: CombineDevice", name)
		require.NoError(t, buf.Free())
		_, err = got.Combine(alpha[1:])
		require.ErrorIs(t, err, prover.ErrShape)

		// Where the LDE is.
		parts, err := got.DeviceParts()
		require.NoError(t, err)
		require.Len(t, parts, min(cols, len(devs)), "%s: one run of columns per device", name)
		next := 0
		for i, p := range parts {
			assert.Equal(t, next, p.First, "%s: part %d", name, i)
			assert.Same(t, devs[i], p.Columns.Device(), "%s: part %d's device", name, i)
			next += p.Columns.Len() / n
		}
		assert.Equal(t, cols, next)
		if len(parts) == 1 {
			_, err = got.DeviceLDE()
			require.NoError(t, err)
		} else {
			_, err = got.DeviceLDE()
			require.ErrorIs(t, err, prover.ErrUnavailable, "%s: DeviceLDE of a spread LDE", name)
		}
		assert.Positive(t, m.DeviceMemory().InUse)
		require.NoError(t, got.Close())
		assert.Zero(t, m.DeviceMemory().InUse, "%s: device memory held after Close", name)
		_, err = got.Open(idx)
		require.ErrorIs(t, err, prover.ErrClosed)
		_, err = got.Combine(alpha)
		require.ErrorIs(t, err, prover.ErrClosed)
		_, err = got.DeviceParts()
		require.ErrorIs(t, err, prover.ErrClosed)

		// A second commitment reuses the hashing states.
		again, err := m.Commit(tr)
		require.NoError(t, err)
		require.Equal(t, want.Root(), again.Root(), "%s: second commitment", name)
		require.NoError(t, again.Close())

		// Host LDEs.
		enc, err := m.Encode(tr)
		require.NoError(t, err)
		testutil.RequireEqualColumns(t, wantLDE, enc, "%s: Encode", name)
		into, err := m.CommitInto(lde, tr)
		require.NoError(t, err)
		require.Equal(t, want.Root(), into.Root(), "%s: CommitInto", name)
		testutil.RequireEqualColumns(t, wantLDE, lde, "%s: CommitInto's LDE", name)
		fromLDE, err := m.CommitLDE(wantLDE)
		require.NoError(t, err)
		require.Equal(t, want.Root(), fromLDE.Root(), "%s: CommitLDE", name)

		// A source that is not a Trace (read one device at a time) and a
		// trace on the first device (the others read it through the host).
		st, err := m.Commit(streamed[E]{tr})
		require.NoError(t, err)
		require.Equal(t, want.Root(), st.Root(), "%s: a streamed source", name)
		require.NoError(t, st.Close())
		flat := make([]E, 0, cols<<logRows)
		for _, c := range tr {
			flat = append(flat, c...)
		}
		db, err := gpu.Alloc[E](devs[0], len(flat))
		require.NoError(t, err)
		require.NoError(t, db.Upload(flat))
		dt, err := m.Commit(prover.DeviceTrace[E]{Columns: db, LogRows: logRows})
		require.NoError(t, err)
		require.Equal(t, want.Root(), dt.Root(), "%s: a DeviceTrace", name)
		require.NoError(t, dt.Close())
		require.NoError(t, db.Free())

		require.NoError(t, m.Close())
		require.NoError(t, one.Close())
		require.NoError(t, cpu.Close())
	}
}

// TestMultiGPUFallback: a hash other than SHA-256 and a budget too small
// commit from a host LDE, with the CPU's root, and say why.
func TestMultiGPUFallback(t *testing.T) {
	devs := openDevices(t, 3)
	tr, err := prover.RandomTrace[babybear.Element](7, 5, 3)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		h    func() hash.Hash
		opts []prover.Option
		why  string
	}{
		{"sha3", func() hash.Hash { return sha3.New256() }, nil, "hash"},
		{"budget", nil, []prover.Option{prover.WithDeviceBudget(1 << 10)}, "budget"},
	} {
		cpu, err := prover.New[babybear.Element](prover.WithHash(c.h))
		require.NoError(t, err)
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		var phases []string
		var mu sync.Mutex
		opts := append([]prover.Option{prover.WithHash(c.h), prover.WithGPUs(devs...),
			prover.WithProgress(func(p prover.Progress) { mu.Lock(); phases = append(phases, p.Phase); mu.Unlock() })}, c.opts...)
		m, err := prover.New[babybear.Element](opts...)
		require.NoError(t, err)
		got, err := m.Commit(tr)
		require.NoError(t, err, c.name)
		on, why := got.Resident()
		assert.False(t, on, c.name)
		assert.Contains(t, why, c.why, c.name)
		require.Equal(t, want.Root(), got.Root(), "%s: root", c.name)
		testutil.RequireEqualColumns(t, mustLDE(t, want), mustLDE(t, got), "%s: LDE", c.name)
		assert.Contains(t, phases, "encode")
		assert.Contains(t, phases, "commit")
		require.NoError(t, m.Close())
	}
}

// TestMultiGPUErrors: devices that cannot take part are named.
func TestMultiGPUErrors(t *testing.T) {
	devs := openDevices(t, 3)
	_, err := prover.New[gf64.Element](prover.WithGPUs(devs[0], devs[1], devs[0]))
	require.ErrorIs(t, err, prover.ErrConfig, "the same device twice")
	assert.Contains(t, err.Error(), "device 2 is device 0")
	_, err = prover.New[gf64.Element](prover.WithGPUs(devs[0], nil))
	require.ErrorIs(t, err, prover.ErrConfig)
	_, err = prover.New[gf64.Element](prover.WithGPU(devs[0]), prover.WithGPUs(devs[1]))
	require.ErrorIs(t, err, prover.ErrConfig, "WithGPU and WithGPUs")
	// A device closed before New.
	require.NoError(t, devs[2].Close())
	for _, f := range prover.Fields {
		_, err = newOf(f, prover.WithGPUs(devs...))
		require.ErrorIs(t, err, prover.ErrUnavailable, "%v: a closed device", f)
		require.ErrorIs(t, err, gpu.ErrClosed, "%v", f)
		assert.Contains(t, err.Error(), "device 2", "%v: the error names the device", f)
	}
	// A device closed after New: Commit fails with a clear error and
	// nothing is left held.
	d3, err := gpu.Open()
	require.NoError(t, err)
	m, err := prover.New[goldilocks.Element](prover.WithGPUs(devs[0], devs[1], d3))
	require.NoError(t, err)
	defer m.Close()
	tr, err := prover.RandomTrace[goldilocks.Element](6, 4, 1)
	require.NoError(t, err)
	c, err := m.Commit(tr)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.NoError(t, d3.Close())
	_, err = m.Commit(tr)
	require.ErrorIs(t, err, gpu.ErrClosed)
	assert.Zero(t, m.DeviceMemory().InUse, "budget after a failed commitment")

	// WithDeviceLoss: the caller goes on with the devices left, the
	// commitment the CPU's.
	cpu, err := prover.New[goldilocks.Element]()
	require.NoError(t, err)
	defer cpu.Close()
	want, err := cpu.Commit(tr)
	require.NoError(t, err)
	defer want.Close()
	var lost []int
	notice := func(i int, err error) {
		assert.ErrorIs(t, err, gpu.ErrClosed, "device %d", i)
		lost = append(lost, i)
	}
	m2, err := prover.New[goldilocks.Element](prover.WithGPUs(devs[0], d3, devs[1], devs[2]), prover.WithDeviceLoss(notice))
	require.NoError(t, err)
	defer m2.Close()
	assert.Equal(t, []int{1, 3}, lost, "the closed devices, by their index in WithGPUs")
	assert.True(t, strings.HasPrefix(m2.Device(), "2 GPUs"), m2.Device())
	c, err = m2.Commit(tr)
	require.NoError(t, err)
	onDev, why := c.Resident()
	assert.True(t, onDev, "kept on the devices left: %s", why)
	assert.Equal(t, want.Root(), c.Root())
	require.NoError(t, c.Close())
	_, err = prover.New[goldilocks.Element](prover.WithGPUs(d3, devs[2]), prover.WithDeviceLoss(func(int, error) {}))
	require.ErrorIs(t, err, prover.ErrUnavailable, "no device left")
	_, err = prover.New[goldilocks.Element](prover.WithGPUs(devs[0], d3), prover.WithDeviceLoss(func(int, error) { panic("notice") }))
	require.ErrorIs(t, err, prover.ErrConfig, "a notice that panics")
	_, err = prover.New[goldilocks.Element](prover.WithGPUs(devs[0]), prover.WithDeviceLoss(nil))
	require.ErrorIs(t, err, prover.ErrConfig, "a nil notice")
}

// newOf makes an encoder of field f through the Backend interface.
func newOf(f prover.Field, opts ...prover.Option) (prover.Backend, error) {
	switch f {
	case prover.GF64:
		return prover.New[gf64.Element](opts...)
	case prover.Goldilocks:
		return prover.New[goldilocks.Element](opts...)
	case prover.BabyBear:
		return prover.New[babybear.Element](opts...)
	case prover.KoalaBear:
		return prover.New[koalabear.Element](opts...)
	}
	return prover.New[fr.Element](opts...)
}

// TestMultiGPUConcurrent opens and combines one commitment on several
// devices from several goroutines while another closes it (run with
// -race): every call gives the CPU's answer or ErrClosed.
func TestMultiGPUConcurrent(t *testing.T) {
	devs := openDevices(t, 3)
	tr, err := prover.RandomTrace[koalabear.Element](9, 7, 21)
	require.NoError(t, err)
	cpu, err := prover.New[koalabear.Element]()
	require.NoError(t, err)
	want, err := cpu.Commit(tr)
	require.NoError(t, err)
	alpha := coeffs[koalabear.Element](t, 7)
	wc, err := want.Combine(alpha)
	require.NoError(t, err)
	m, err := prover.New[koalabear.Element](prover.WithGPUs(devs...))
	require.NoError(t, err)
	defer m.Close()
	c, err := m.Commit(tr)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for k := range 20 {
				idx := []int{(g*131 + k*17) % c.Rows(), k}
				if g%2 == 0 {
					o, err := c.Open(idx)
					if errors.Is(err, prover.ErrClosed) {
						return
					}
					if assert.NoError(t, err) {
						wo, _ := want.Open(idx)
						assert.Equal(t, wo, o)
					}
				} else {
					got, err := c.Combine(alpha)
					if errors.Is(err, prover.ErrClosed) {
						return
					}
					if assert.NoError(t, err) {
						assert.Equal(t, wc, got, "Combine")
					}
				}
			}
		})
	}
	wg.Go(func() { assert.NoError(t, c.Close()) })
	wg.Wait()
	assert.Zero(t, m.DeviceMemory().InUse)
}

// coeffs returns n random elements.
func coeffs[E prover.Element](t testing.TB, n int) []E {
	k := 0
	for 1<<k < n {
		k++
	}
	tr, err := prover.RandomTrace[E](k, 1, uint64(n)*7)
	require.NoError(t, err)
	return tr[0][:n]
}

var (
	multiShape = flag.String("prover.multi.shape", "", "BenchmarkMultiGPUCommit's only shape, LOGROWSxCOLUMNS (22x64: the 2^22 rows × 64 columns of the scaling table), instead of its defaults")
	multiMax   = flag.Int("prover.gpus.max", 4, "the most devices the multi-GPU benchmarks use: 1, 2, 4, 8 … up to this many, as many as open (under -prover.gpus.ordinals, the machine's GPUs)")
)

// openUpTo opens up to n devices for a benchmark: n logical devices on one
// GPU, or under -prover.gpus.ordinals the first n GPUs that exist (at least
// one, else the benchmark skips).
func openUpTo(b *testing.B, n int) []*gpu.Device {
	b.Helper()
	if !*multiOrdinals {
		return openDevices(b, n)
	}
	var devs []*gpu.Device
	for ord := range n {
		d, err := gpu.Open(gpu.WithOrdinal(ord))
		if errors.Is(err, gpu.ErrNoDevice) && ord > 0 {
			break
		}
		if errors.Is(err, gpu.ErrNoDevice) {
			b.Skipf("no GPU: %v", err)
		}
		require.NoError(b, err)
		b.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	}
	return devs
}

// deviceCounts are 1, 2, 4, … up to the devices open.
func deviceCounts(devs []*gpu.Device) []int {
	var n []int
	for k := 1; k <= len(devs); k *= 2 {
		n = append(n, k)
	}
	return n
}

// BenchmarkMultiGPUCommit measures Commit on 1, 2, 4 … devices against
// WithGPU, trace in Go memory, blowup 4. On one GPU opened as several
// logical devices it measures the multi-device path's overhead (the split,
// the hash states' copies, the pipeline's extra launches), not a speed-up:
// the devices share one GPU. -prover.gpus.ordinals opens physical GPUs;
// -prover.multi.shape 22x64 runs the scaling table's shape alone.
func BenchmarkMultiGPUCommit(b *testing.B) {
	shapes := [][2]int{{16, 16}, {20, 16}}
	if !testing.Short() {
		shapes = append(shapes, [2]int{20, 64})
	}
	if *multiShape != "" {
		var logRows, cols int
		if _, err := fmt.Sscanf(*multiShape, "%dx%d", &logRows, &cols); err != nil {
			b.Fatalf("-prover.multi.shape %q: want LOGROWSxCOLUMNS: %v", *multiShape, err)
		}
		shapes = [][2]int{{logRows, cols}}
	}
	for _, sh := range shapes {
		logRows, cols := sh[0], sh[1]
		b.Run(fmt.Sprintf("gf64/2^%d×%d", logRows, cols), func(b *testing.B) {
			benchMulti[gf64.Element](b, logRows, cols)
		})
		b.Run(fmt.Sprintf("babybear/2^%d×%d", logRows, cols), func(b *testing.B) {
			benchMulti[babybear.Element](b, logRows, cols)
		})
	}
}

// benchMulti times Commit of a trace in Go memory ("go") and of the same
// trace in pinned host memory ("pinned", no copy into staging first), and
// reports the encode (source to LDE on the devices) and hashing (rows'
// states, subtrees, root) parts of each call.
func benchMulti[E prover.Element](b *testing.B, logRows, cols int) {
	devs := openUpTo(b, *multiMax)
	tr, err := prover.RandomTrace[E](logRows, cols, 5)
	require.NoError(b, err)
	rows := 1 << logRows
	pin, err := gpu.AllocHost[E](devs[0], cols*rows)
	require.NoError(b, err)
	defer pin.Free()
	for j, c := range tr {
		copy(pin.Slice()[j*rows:], c)
	}
	sources := []struct {
		name string
		src  prover.Source[E]
	}{{"go", tr}, {"pinned", prover.PinnedTrace[E]{Columns: pin, LogRows: logRows}}}
	bytes := int64(cols) * int64(rows) * int64(prover.FieldOf[E]().ElementBytes())
	run := func(b *testing.B, src prover.Source[E], opt prover.Option) {
		enc, err := prover.New[E](opt)
		require.NoError(b, err)
		defer enc.Close()
		require.NoError(b, enc.Prepare(logRows, cols))
		b.SetBytes(bytes)
		b.ReportAllocs()
		var encode, hash time.Duration
		for b.Loop() {
			c, err := enc.Commit(src)
			require.NoError(b, err)
			encode += c.Timings.Encode
			hash += c.Timings.Commit
			require.NoError(b, c.Close())
		}
		b.ReportMetric(float64(encode.Microseconds())/1e3/float64(b.N), "encode-ms/op")
		b.ReportMetric(float64(hash.Microseconds())/1e3/float64(b.N), "hash-ms/op")
	}
	for _, s := range sources {
		b.Run(s.name+"/WithGPU", func(b *testing.B) { run(b, s.src, prover.WithGPU(devs[0])) })
		for _, n := range deviceCounts(devs) {
			b.Run(fmt.Sprintf("%s/WithGPUs/%d", s.name, n), func(b *testing.B) { run(b, s.src, prover.WithGPUs(devs[:n]...)) })
		}
	}
}
