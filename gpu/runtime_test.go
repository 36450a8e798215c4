package gpu

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestBufferRoundTrip(t *testing.T) {
	d := testDevice(t)
	for _, n := range []int{0, 1, 33, 1 << 16} {
		b, err := Alloc[uint64](d, n)
		require.NoError(t, err, "Alloc(%d)", n)
		src := randomWords[uint64](n, uint64(n))
		require.NoError(t, b.Upload(src))
		got := make([]uint64, n)
		require.NoError(t, b.Download(got))
		testutil.RequireEqualSlices(t, src, got, "n=%d: round trip", n)
		assert.ErrorIs(t, b.Upload(make([]uint64, n+1)), ErrLength, "Upload of n+1 values")
		assert.ErrorIs(t, b.Download(make([]uint64, n+1)), ErrLength, "Download into n+1 values")
		require.NoError(t, b.Free())
		assert.NoError(t, b.Free(), "second Free")
		if n > 0 {
			assert.True(t, b.Freed())
			assert.ErrorIs(t, b.Download(got), ErrClosed, "Download after Free")
		}
	}
}

func TestBufferViewAndCopy(t *testing.T) {
	d := testDevice(t)
	const n = 1000
	a, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	defer a.Free()
	src := randomWords[uint32](n, 1)
	require.NoError(t, a.Upload(src))
	v, err := a.View(100, 50)
	require.NoError(t, err)
	got := make([]uint32, 50)
	require.NoError(t, v.Download(got))
	testutil.RequireEqualSlices(t, src[100:150], got, "view")
	_, err = a.View(990, 11)
	assert.ErrorIs(t, err, ErrLength, "out-of-range view")
	c, err := Alloc[uint32](d, 50)
	require.NoError(t, err)
	defer c.Free()
	require.NoError(t, c.CopyFrom(nil, v))
	got2 := make([]uint32, 50)
	require.NoError(t, c.Download(got2))
	assert.Equal(t, src[149], got2[49], "CopyFrom: last value")
	assert.Equal(t, src[100], got2[0], "CopyFrom: first value")
	assert.ErrorIs(t, c.CopyFrom(nil, a), ErrLength, "CopyFrom of another length")
	assert.NoError(t, v.Free(), "freeing a view")
	assert.False(t, a.Freed(), "freeing a view frees its buffer")
}

// TestViewAs reads a buffer of uint32 as pairs and as uint64, and refuses
// a size that is not a whole number of the new element.
func TestViewAs(t *testing.T) {
	d := testDevice(t)
	a, err := Alloc[uint32](d, 10)
	require.NoError(t, err)
	defer a.Free()
	src := randomWords[uint32](10, 4)
	require.NoError(t, a.Upload(src))
	p, err := ViewAs[[2]uint32](a)
	require.NoError(t, err)
	require.Equal(t, 5, p.Len())
	got := make([][2]uint32, 5)
	require.NoError(t, p.Download(got))
	assert.Equal(t, [2]uint32{src[8], src[9]}, got[4])
	w, err := ViewAs[uint64](a)
	require.NoError(t, err)
	require.NoError(t, w.Upload([]uint64{1, 2, 3, 4, 5}))
	back := make([]uint32, 10)
	require.NoError(t, a.Download(back))
	assert.Equal(t, []uint32{1, 0, 2, 0, 3, 0, 4, 0, 5, 0}, back)
	_, err = ViewAs[[3]uint32](a)
	assert.ErrorIs(t, err, ErrLength)
	require.NoError(t, w.Free(), "freeing a view")
	assert.False(t, a.Freed())
	require.NoError(t, a.Free())
	assert.True(t, p.Freed(), "a view of a freed buffer")
}

// TestBufferReclaim: the memory moves to a new buffer with its contents,
// the old buffer and its views act as freed, and a view or a freed buffer
// cannot be reclaimed.
func TestBufferReclaim(t *testing.T) {
	d := testDevice(t)
	const n = 1 << 12
	a, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	src := randomWords[uint32](n, 3)
	require.NoError(t, a.Upload(src))
	v, err := a.View(8, 16)
	require.NoError(t, err)
	_, err = v.Reclaim()
	require.ErrorIs(t, err, ErrClosed, "Reclaim of a view")
	b, err := a.Reclaim()
	require.NoError(t, err)
	defer b.Free()
	assert.Equal(t, a.Ptr(), b.Ptr(), "the same memory")
	assert.Equal(t, n, b.Len())
	assert.True(t, a.Freed(), "the old buffer acts as freed")
	assert.True(t, v.Freed(), "and its views")
	got := make([]uint32, n)
	assert.ErrorIs(t, a.Download(got), ErrClosed)
	assert.ErrorIs(t, v.Download(got[:16]), ErrClosed)
	require.NoError(t, a.Free(), "Free of the old buffer frees nothing")
	require.NoError(t, b.Download(got))
	testutil.RequireEqualSlices(t, src, got, "contents kept")
	_, err = a.Reclaim()
	require.ErrorIs(t, err, ErrClosed, "Reclaim of a freed buffer")
	require.NoError(t, b.Free())
	assert.True(t, b.Freed())
}

func TestPinnedAsync(t *testing.T) {
	d := testDevice(t)
	const n = 1 << 20
	h, err := AllocHost[uint64](d, n)
	require.NoError(t, err)
	defer h.Free()
	out, err := AllocHost[uint64](d, n)
	require.NoError(t, err)
	defer out.Free()
	copy(h.Slice(), randomWords[uint64](n, 7))
	b, err := Alloc[uint64](d, n)
	require.NoError(t, err)
	defer b.Free()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	start, err := d.NewEvent()
	require.NoError(t, err)
	end, err := d.NewEvent()
	require.NoError(t, err)
	defer start.Close()
	defer end.Close()
	require.NoError(t, start.Record(s))
	require.NoError(t, b.UploadAsync(s, h))
	require.NoError(t, b.DownloadAsync(s, out))
	require.NoError(t, end.Record(s))
	require.NoError(t, s.Synchronize())
	el, err := end.Since(start)
	require.NoError(t, err)
	assert.Positive(t, el, "elapsed")
	testutil.RequireEqualSlices(t, h.Slice(), out.Slice(), "pinned round trip")
	small, err := AllocHost[uint64](d, 3)
	require.NoError(t, err)
	defer small.Free()
	assert.ErrorIs(t, b.UploadAsync(s, small), ErrLength, "UploadAsync of 3 values")
	hv, err := h.View(10, 20)
	require.NoError(t, err, "host view")
	assert.Equal(t, 20, hv.Len(), "host view length")
	assert.Equal(t, h.Slice()[10], hv.Slice()[0], "host view's first value")
}

const testKernel = `
extern "C" __global__ void addc(unsigned int *x, unsigned int c, unsigned long long n) {
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] += c;
}
`

func TestLaunchCustomKernel(t *testing.T) {
	d := testDevice(t)
	m, err := d.LoadModule("addc.cu", testKernel)
	require.NoError(t, err)
	f, err := m.Function("addc")
	require.NoError(t, err)
	const n = 1000
	b, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	defer b.Free()
	src := randomWords[uint32](n, 3)
	require.NoError(t, b.Upload(src))
	require.NoError(t, f.Launch(LaunchConfig{Grid: Dim3{X: (n + 127) / 128}, Block: Dim3{X: 128}}, b, uint32(5), uint64(n)))
	got := make([]uint32, n)
	require.NoError(t, b.Download(got))
	want := make([]uint32, n)
	for i := range want {
		want[i] = src[i] + 5
	}
	testutil.RequireEqualSlices(t, want, got, "x[i] + 5")
	assert.Error(t, f.Launch(LaunchConfig{Grid: Dim3{X: 1}, Block: Dim3{X: 1}}, b, 5, uint64(n)), "Go int argument accepted")
	assert.Error(t, f.Launch(LaunchConfig{Grid: Dim3{X: 1}, Block: Dim3{X: 4096}}, b, uint32(5), uint64(n)), "block of 4096 threads accepted")
	_, err = m.Function("nosuch")
	assert.Error(t, err, "missing kernel found")
	// The device still works after a refused launch.
	assert.NoError(t, d.Synchronize(), "Synchronize after refused launch")
	nb, err := f.MaxActiveBlocksPerSM(128, 0)
	require.NoError(t, err)
	assert.Positive(t, nb, "MaxActiveBlocksPerSM")
}

// TestQueue runs a sequence through Device.Do: a copy into scratch memory,
// two launches on it, a copy back, on a stream and on the default stream.
func TestQueue(t *testing.T) {
	d := testDevice(t)
	m, err := d.LoadModule("addc.cu", testKernel)
	require.NoError(t, err)
	f, err := m.Function("addc")
	require.NoError(t, err)
	const n = 5000
	b, err := Alloc[uint32](d, n)
	require.NoError(t, err)
	defer b.Free()
	src := randomWords[uint32](n, 4)
	want := make([]uint32, n)
	for i := range want {
		want[i] = src[i] + 7 + 9
	}
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for _, st := range []*Stream{s, nil} {
		require.NoError(t, b.Upload(src))
		err := d.Do(st, func(q *Queue) error {
			assert.Same(t, d, q.Device())
			return q.Scratch(4*n, func(p DevicePtr) error {
				if err := q.Copy(p, b.Ptr(), 4*n); err != nil {
					return err
				}
				grid, block := Dim3{X: (n + 255) / 256}, Dim3{X: 256}
				if err := q.Launch(f, grid, block, 0, p, uint32(7), uint64(n)); err != nil {
					return err
				}
				if err := q.Launch(f, grid, block, 0, p, uint32(9), uint64(n)); err != nil {
					return err
				}
				return q.Copy(b.Ptr(), p, 4*n)
			})
		})
		require.NoError(t, err)
		if st != nil {
			require.NoError(t, st.Synchronize())
		}
		got := make([]uint32, n)
		require.NoError(t, b.Download(got))
		testutil.RequireEqualSlices(t, want, got, "x[i] + 7 + 9 through a Queue (stream %v)", st != nil)
	}
	err = d.Do(nil, func(q *Queue) error { return q.Launch(f, Dim3{X: 1}, Dim3{X: 1}, 0, b, 5, uint64(n)) })
	assert.ErrorContains(t, err, "int32 or int64", "Go int argument")
	err = d.Do(nil, func(q *Queue) error { return q.Scratch(0, func(DevicePtr) error { return nil }) })
	assert.Error(t, err, "scratch of 0 bytes")
	err = d.Do(nil, func(q *Queue) error { return q.Copy(b.Ptr(), b.Ptr(), -1) })
	assert.Error(t, err, "copy of -1 bytes")
	sentinel := errors.New("mine")
	assert.ErrorIs(t, d.Do(nil, func(q *Queue) error { return sentinel }), sentinel, "Do returns f's error")
	err = d.Do(nil, func(q *Queue) error {
		return q.Scratch(1<<45, func(DevicePtr) error { return nil }) // 32 TiB
	})
	assert.ErrorIs(t, err, ErrOutOfMemory, "scratch of 32 TiB")
}

func TestCompileError(t *testing.T) {
	d := testDevice(t)
	_, err := d.LoadModule("bad.cu", "extern \"C\" __global__ void k() { undefined_thing(); }")
	assert.ErrorIs(t, err, ErrCompile)
	assert.ErrorContains(t, err, "undefined_thing")
	_, err = d.Module("nosuch.cu")
	assert.Error(t, err, "a program that does not exist loaded")
}

func TestOutOfMemory(t *testing.T) {
	d := testDevice(t)
	_, err := Alloc[uint64](d, 1<<42) // 32 TiB
	assert.ErrorIs(t, err, ErrOutOfMemory, "Alloc of 32 TiB")
	// The device still works.
	b, err := Alloc[uint64](d, 10)
	require.NoError(t, err, "Alloc after OOM")
	require.NoError(t, b.Free())
}

func TestClosedDevice(t *testing.T) {
	testDevice(t)
	d, err := Open(WithoutCache())
	require.NoError(t, err)
	b, err := Alloc[uint64](d, 100)
	require.NoError(t, err)
	h, err := AllocHost[uint32](d, 100)
	require.NoError(t, err)
	s, err := d.NewStream()
	require.NoError(t, err)
	require.NoError(t, d.Close(), "Close")
	assert.NoError(t, d.Close(), "second Close")
	assert.ErrorIs(t, b.Upload(make([]uint64, 100)), ErrClosed, "Upload on closed device")
	_, err = Alloc[uint64](d, 1)
	assert.ErrorIs(t, err, ErrClosed, "Alloc on closed device")
	_, err = d.Module("gf64.cu")
	assert.ErrorIs(t, err, ErrClosed, "Module on closed device")
	assert.ErrorIs(t, d.Do(nil, func(*Queue) error { return nil }), ErrClosed, "Do on closed device")
	assert.NoError(t, b.Free(), "Free after Close")
	assert.Nil(t, h.Slice(), "pinned slice still returned after Close")
	assert.NoError(t, h.Free(), "host Free after Close")
	assert.NoError(t, s.Close(), "stream Close after Close")
}

func TestConcurrentUse(t *testing.T) {
	d := testDevice(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			b, err := Alloc[uint32](d, 1000+g)
			if err != nil {
				errs <- err
				return
			}
			defer b.Free()
			src := randomWords[uint32](1000+g, uint64(g))
			got := make([]uint32, len(src))
			if err := b.Upload(src); err != nil {
				errs <- err
				return
			}
			if err := b.Download(got); err != nil {
				errs <- err
				return
			}
			for i := range got {
				if got[i] != src[i] {
					errs <- errors.New("data mixed between goroutines")
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

// TestCopyFromPeer copies between two Device values: on one ordinal (one
// context, a device-to-device copy), and between ordinals 0 and 1 (the
// driver's peer copy) where the machine has two GPUs.
func TestCopyFromPeer(t *testing.T) {
	d := testDevice(t)
	require.ErrorIs(t, d.EnablePeerAccess(nil), ErrNoDevice)
	check := func(t *testing.T, other *Device) {
		const n = 1 << 12
		src := randomWords[uint32](n, 7)
		a := mustAlloc[uint32](t, d, n)
		defer a.Free()
		require.NoError(t, a.Upload(src))
		b := mustAlloc[uint32](t, other, n)
		defer b.Free()
		s, err := other.NewStream()
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, b.CopyFrom(s, a), "into the other device")
		require.NoError(t, s.Synchronize())
		got := make([]uint32, n)
		require.NoError(t, b.Download(got))
		testutil.RequireEqualSlices(t, src, got, "copied to the other device")
		c := mustAlloc[uint32](t, d, n)
		defer c.Free()
		require.NoError(t, c.CopyFrom(nil, b), "back from the other device")
		require.NoError(t, c.Download(got))
		testutil.RequireEqualSlices(t, src, got, "copied back")
	}
	t.Run("same ordinal", func(t *testing.T) {
		other, err := Open(WithOrdinal(d.Info().Ordinal))
		require.NoError(t, err)
		require.NoError(t, d.EnablePeerAccess(other), "one context needs nothing")
		check(t, other)
		b := mustAlloc[uint32](t, other, 4)
		require.NoError(t, other.Close())
		require.ErrorIs(t, d.EnablePeerAccess(other), ErrClosed)
		a := mustAlloc[uint32](t, d, 4)
		defer a.Free()
		assert.ErrorIs(t, a.CopyFrom(nil, b), ErrClosed, "from a buffer of a closed device")
	})
	t.Run("two ordinals", func(t *testing.T) {
		other, err := Open(WithOrdinal(1 - min(d.Info().Ordinal, 1)))
		if errors.Is(err, ErrNoDevice) {
			t.Skipf("one GPU on this machine: %v", err)
		}
		require.NoError(t, err)
		defer other.Close()
		if err := d.EnablePeerAccess(other); err != nil {
			require.ErrorIs(t, err, ErrNoPeerAccess)
			t.Logf("no peer access (copies are staged): %v", err)
		} else {
			require.NoError(t, other.EnablePeerAccess(d))
			require.NoError(t, d.EnablePeerAccess(other), "enabled twice")
		}
		check(t, other)
	})
}

const mixKernel = `
extern "C" __global__ void mix(unsigned int *dst, const unsigned int *src, unsigned int c, unsigned long long n) {
#if __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) dst[i] = src[(i * 7 + 1) % n] * 3u + c;
}
`

// TestLaunchDependent chains kernels by programmatic dependent launches,
// each reading what the one before wrote at other blocks' positions (two
// buffers in turn), on a stream, on the default stream and in a captured
// graph: the result equals the same chain on the host.
func TestLaunchDependent(t *testing.T) {
	d := testDevice(t)
	m, err := d.LoadModule("mix.cu", mixKernel)
	require.NoError(t, err)
	f, err := m.Function("mix")
	require.NoError(t, err)
	const n, steps = 1 << 20, 40
	bufs := [2]*Buffer[uint32]{}
	for i := range bufs {
		bufs[i], err = Alloc[uint32](d, n)
		require.NoError(t, err)
		defer bufs[i].Free()
	}
	src := randomWords[uint32](n, 8)
	want := slices.Clone(src)
	tmp := make([]uint32, n)
	for k := range steps {
		for i := range tmp {
			tmp[i] = want[(i*7+1)%n]*3 + uint32(k)
		}
		want, tmp = tmp, want
	}
	chain := func(q *Queue) error {
		for k := range steps {
			if err := q.LaunchDependent(f, Dim3{X: n / 256}, Dim3{X: 256}, 0, bufs[(k+1)%2], bufs[k%2], uint32(k), uint64(n)); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	got := make([]uint32, n)
	for _, st := range []*Stream{s, nil} {
		require.NoError(t, bufs[0].Upload(src))
		require.NoError(t, d.Do(st, chain))
		require.NoError(t, d.Synchronize())
		require.NoError(t, bufs[steps%2].Download(got))
		testutil.RequireEqualSlices(t, want, got, "dependent launches (stream %v)", st != nil)
	}
	var g *Graph
	err = d.Do(s, func(q *Queue) error {
		g, err = q.Capture(chain)
		return err
	})
	if errors.Is(err, ErrNoGraphs) {
		t.Log("no graphs on this device: the captured chain is not checked")
		return
	}
	require.NoError(t, err)
	defer g.Close()
	for range 2 {
		require.NoError(t, bufs[0].Upload(src))
		require.NoError(t, d.Do(s, func(q *Queue) error { return q.LaunchGraph(g) }))
		require.NoError(t, s.Synchronize())
		require.NoError(t, bufs[steps%2].Download(got))
		testutil.RequireEqualSlices(t, want, got, "dependent launches in a graph")
	}
	assert.Error(t, d.Do(nil, func(q *Queue) error {
		return q.LaunchDependent(f, Dim3{X: 1}, Dim3{X: 1}, 0, bufs[0], bufs[1], 5, uint64(n))
	}), "Go int argument accepted")
}
