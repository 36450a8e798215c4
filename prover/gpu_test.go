package prover

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/additive"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

func openGPU(t *testing.T) *gpu.Device {
	t.Helper()
	dev, err := gpu.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

// testGPUSameRoot checks that the GPU backend gives the CPU backend's LDE and
// root, with chunks that do not divide the columns.
func testGPUSameRoot[E Element](t *testing.T, dev *gpu.Device) {
	g, err := New[E](WithGPU(dev), WithChunkColumns(3))
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("%v", err)
	}
	require.NoError(t, err)
	defer g.Close()
	t.Logf("%s on %s", g.Name(), g.Device())
	for _, sh := range [][3]int{{1, 1, 2}, {4, 7, 4}, {10, 5, 16}, {12, 3, 8}, {16, 4, 4}} {
		k, cols, b := sh[0], sh[1], sh[2]
		cpu, _ := New[E](WithBlowup(b))
		gg, err := New[E](WithGPU(dev), WithBlowup(b), WithChunkColumns(3))
		require.NoError(t, err)
		tr, _ := RandomTrace[E](k, cols, uint64(k))
		want, err := cpu.Commit(tr)
		require.NoError(t, err)
		got, err := gg.Commit(tr)
		require.NoError(t, err, "%s 2^%d×%d blowup %d", gg.Name(), k, cols, b)
		gl, wl := mustLDE(t, got), mustLDE(t, want)
		testutil.RequireEqualColumns(t, wl, gl, "%s 2^%d×%d blowup %d: LDE against the CPU", gg.Name(), k, cols, b)
		require.Equal(t, want.Root(), got.Root(), "%s: roots", gg.Name())
		// The tree hashed on the device during Commit and CommitInto, and
		// the one CommitLDE hashes after uploading the LDE, are the CPU's,
		// digest for digest.
		fromLDE, err := gg.CommitLDE(mustLDE(t, want))
		require.NoError(t, err)
		into := make([][]E, cols)
		for c := range into {
			into[c] = make([]E, len(wl[c]))
		}
		intoCm, err := gg.CommitInto(into, tr)
		require.NoError(t, err)
		testutil.RequireEqualColumns(t, wl, into, "%s 2^%d×%d blowup %d: CommitInto against the CPU", gg.Name(), k, cols, b)
		// Commit keeps its tree on the device: its openings are checked
		// below and in resident_test.go.
		on, why := got.Resident()
		require.True(t, on, "%s: Commit not kept on the device: %s", gg.Name(), why)
		for _, cm := range []*Commitment[E]{fromLDE, intoCm} {
			require.Equal(t, want.tree.Height(), cm.tree.Height(), "%s: tree levels", gg.Name())
			for j := 1; j <= want.tree.Height(); j++ {
				require.True(t, bytes.Equal(cm.tree.Level(j), want.tree.Level(j)), "%s 2^%d×%d blowup %d: tree level %d differs from the CPU", gg.Name(), k, cols, b, j)
			}
		}
		n := got.Rows()
		op, err := got.Open([]int{0, n - 1, n / 2, 1})
		require.NoError(t, err)
		require.NoError(t, op.Verify(want.Root(), n, nil), "%s: opening of a GPU commitment", gg.Name())
		gg.Close()
	}
	// A custom hash runs on the CPU and gives the CPU backend's root.
	tr, _ := RandomTrace[E](6, 3, 9)
	cpu, _ := New[E](WithHash(sha512.New))
	gg, err := New[E](WithGPU(dev), WithHash(sha512.New))
	require.NoError(t, err)
	defer gg.Close()
	want, err1 := cpu.Commit(tr)
	got, err2 := gg.Commit(tr)
	require.NoError(t, errors.Join(err1, err2))
	require.Len(t, got.Root(), sha512.Size, "%s with SHA-512: root size", gg.Name())
	require.Equal(t, want.Root(), got.Root(), "%s with SHA-512: roots", gg.Name())
}

func TestGPUSameRoot(t *testing.T) {
	dev := openGPU(t)
	t.Logf("GPU: %s", dev.Info())
	t.Run("gf64", func(t *testing.T) { testGPUSameRoot[gf64.Element](t, dev) })
	t.Run("goldilocks", func(t *testing.T) { testGPUSameRoot[goldilocks.Element](t, dev) })
	t.Run("babybear", func(t *testing.T) { testGPUSameRoot[babybear.Element](t, dev) })
	t.Run("koalabear", func(t *testing.T) { testGPUSameRoot[koalabear.Element](t, dev) })
	t.Run("bn254", func(t *testing.T) { testGPUSameRoot[fr.Element](t, dev) })
}

func TestWithGPUNil(t *testing.T) {
	_, err := New[gf64.Element](WithGPU(nil))
	require.ErrorIs(t, err, ErrConfig, "WithGPU(nil)")
}

var gpuReport = flag.Bool("prover.report", false, "print where the time of a GPU encode goes (GPU machine only)")

// TestGPUReport breaks a GF(2^64) GPU encode + commit of 2^20 rows × 32
// columns, blowup 4, into its parts: pinned upload, device LDE, pinned
// download, the host copies, and the whole backend: Commit (fresh LDE
// memory), EncodeInto + CommitLDE and CommitInto (reused LDE memory), and
// the CPU backend's CommitLDE of the same LDE. Run with -prover.report on
// the GPU machine.
func TestGPUReport(t *testing.T) {
	if !*gpuReport {
		t.Skip("run with -prover.report")
	}
	dev := openGPU(t)
	const k, lb, cols = 20, 2, 32
	n, bigN := 1<<k, 1<<(k+lb)
	tr, _ := RandomTrace[gf64.Element](k, cols, 1)
	S, T, _ := DefaultBinaryDomains(k, lb)
	tf, err := additive.New(dev)
	require.NoError(t, err)
	defer tf.Close()
	hin, err1 := gpu.AllocHost[gf64.Element](dev, cols*n)
	hout, err2 := gpu.AllocHost[gf64.Element](dev, cols*bigN)
	din, err3 := gpu.Alloc[gf64.Element](dev, cols*n)
	dout, err4 := gpu.Alloc[gf64.Element](dev, cols*bigN)
	require.NoError(t, errors.Join(err1, err2, err3, err4))
	for c := range tr {
		copy(hin.Slice()[c*n:], tr[c])
	}
	stage := func() (up, lde, down time.Duration) {
		t0 := time.Now()
		require.NoError(t, din.UploadAsync(nil, hin))
		t1 := time.Now()
		require.NoError(t, tf.LDE(nil, dout, din, S, T))
		require.NoError(t, dev.Synchronize())
		t2 := time.Now()
		require.NoError(t, dout.DownloadAsync(nil, hout))
		return t1.Sub(t0), t2.Sub(t1), time.Since(t2)
	}
	stage() // warm-up: kernels, tables
	best := [3]time.Duration{time.Hour, time.Hour, time.Hour}
	for range 5 {
		u, l, d := stage()
		best = [3]time.Duration{min(best[0], u), min(best[1], l), min(best[2], d)}
	}
	t.Logf("device pieces (best of 5): upload %d MiB pinned %v, LDE on the device %v, download %d MiB pinned %v",
		cols*n*8>>20, best[0], best[1], cols*bigN*8>>20, best[2])

	fresh := func() time.Duration {
		t0 := time.Now()
		lde := make([][]gf64.Element, cols)
		for c := range lde {
			lde[c] = make([]gf64.Element, bigN)
		}
		parallelFor(cols, func(c int) { copy(lde[c], hout.Slice()[c*bigN:(c+1)*bigN]) })
		return time.Since(t0)
	}
	fresh()
	t.Logf("host copy pinned -> new Go memory (1 GiB, all cores): %v", fresh())

	enc, err := New[gf64.Element](WithGPU(dev))
	require.NoError(t, err)
	defer enc.Close()
	_, err = enc.Commit(tr)
	require.NoError(t, err)
	for range 2 {
		c, err := enc.Commit(tr)
		require.NoError(t, err)
		t.Logf("Commit (new LDE memory): encode %v, commit %v, total %v", c.Timings.Encode, c.Timings.Commit, c.Timings.Encode+c.Timings.Commit)
	}
	lde, _ := RandomTrace[gf64.Element](k+lb, cols, 2)
	for range 2 {
		t0 := time.Now()
		require.NoError(t, enc.EncodeInto(lde, tr))
		t1 := time.Now()
		_, err = enc.CommitLDE(lde)
		require.NoError(t, err)
		t.Logf("EncodeInto + CommitLDE (reused LDE memory): encode %v, commit %v, total %v", t1.Sub(t0), time.Since(t1), time.Since(t0))
	}
	for range 2 {
		t0 := time.Now()
		c, err := enc.CommitInto(lde, tr)
		require.NoError(t, err)
		t.Logf("CommitInto (reused LDE memory): encode %v, commit %v, total %v", c.Timings.Encode, c.Timings.Commit, time.Since(t0))
	}
	cpu, _ := New[gf64.Element]()
	for range 2 {
		t0 := time.Now()
		_, err = cpu.CommitLDE(lde)
		require.NoError(t, err)
		t.Logf("CPU CommitLDE, for comparison: %v", time.Since(t0))
	}
}

// BenchmarkGPUCommit is a GF(2^64) commitment of 2^logRows rows × 32
// columns at blowup 4 on the GPU backend, host to host: Commit (a new LDE
// each time) and CommitInto (the LDE memory reused), the rows hashed on the
// device.
func BenchmarkGPUCommit(b *testing.B) {
	dev, err := gpu.Open()
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer dev.Close()
	for _, k := range []int{16, 20} {
		enc, err := New[gf64.Element](WithGPU(dev))
		require.NoError(b, err)
		tr, _ := RandomTrace[gf64.Element](k, 32, 1)
		lde, _ := RandomTrace[gf64.Element](k+2, 32, 2)
		for _, into := range []bool{false, true} {
			name := "Commit"
			if into {
				name = "CommitInto"
			}
			b.Run(fmt.Sprintf("%s/gf64/rows=2^%d/cols=32/blowup=4", name, k), func(b *testing.B) {
				commit := func() *Commitment[gf64.Element] {
					var c *Commitment[gf64.Element]
					var err error
					if into {
						c, err = enc.CommitInto(lde, tr)
					} else {
						c, err = enc.Commit(tr)
					}
					require.NoError(b, err)
					return c
				}
				commit().Close() // plans, kernels, device hashing state
				b.SetBytes(int64(32) << k * 8)
				var te, tc time.Duration
				for b.Loop() {
					c := commit()
					te += c.Timings.Encode
					tc += c.Timings.Commit
					c.Close()
				}
				b.ReportMetric(float64(te.Microseconds())/1e3/float64(b.N), "encode-ms/op")
				b.ReportMetric(float64(tc.Microseconds())/1e3/float64(b.N), "commit-ms/op")
			})
		}
		enc.Close()
	}
}
