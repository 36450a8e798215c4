package gpu

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestBufferRoundTrip(t *testing.T) {
	d := testDevice(t)
	for _, n := range []int{0, 1, 33, 1 << 16} {
		b, err := Alloc[uint64](d, n)
		if err != nil {
			t.Fatalf("Alloc(%d): %v", n, err)
		}
		src := randomWords[uint64](n, uint64(n))
		if err := b.Upload(src); err != nil {
			t.Fatalf("Upload: %v", err)
		}
		got := make([]uint64, n)
		if err := b.Download(got); err != nil {
			t.Fatalf("Download: %v", err)
		}
		for i := range src {
			if got[i] != src[i] {
				t.Fatalf("n=%d: element %d = %#x, want %#x", n, i, got[i], src[i])
			}
		}
		if err := b.Upload(make([]uint64, n+1)); !errors.Is(err, ErrLength) {
			t.Errorf("Upload of n+1 values: %v", err)
		}
		if err := b.Download(make([]uint64, n+1)); !errors.Is(err, ErrLength) {
			t.Errorf("Download into n+1 values: %v", err)
		}
		if err := b.Free(); err != nil {
			t.Fatalf("Free: %v", err)
		}
		if err := b.Free(); err != nil {
			t.Errorf("second Free: %v", err)
		}
		if n > 0 {
			if err := b.Download(got); !errors.Is(err, ErrClosed) {
				t.Errorf("Download after Free: %v", err)
			}
		}
	}
}

func TestBufferViewAndCopy(t *testing.T) {
	d := testDevice(t)
	const n = 1000
	a, err := Alloc[uint32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	src := randomWords[uint32](n, 1)
	if err := a.Upload(src); err != nil {
		t.Fatal(err)
	}
	v, err := a.View(100, 50)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, 50)
	if err := v.Download(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != src[100+i] {
			t.Fatalf("view element %d = %#x, want %#x", i, got[i], src[100+i])
		}
	}
	if _, err := a.View(990, 11); !errors.Is(err, ErrLength) {
		t.Errorf("out-of-range view: %v", err)
	}
	c, err := Alloc[uint32](d, 50)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	if err := c.CopyFrom(nil, v); err != nil {
		t.Fatal(err)
	}
	got2 := make([]uint32, 50)
	if err := c.Download(got2); err != nil {
		t.Fatal(err)
	}
	if got2[49] != src[149] || got2[0] != src[100] {
		t.Error("CopyFrom copied the wrong values")
	}
	if err := c.CopyFrom(nil, a); !errors.Is(err, ErrLength) {
		t.Errorf("CopyFrom of another length: %v", err)
	}
	if err := v.Free(); err != nil {
		t.Errorf("freeing a view: %v", err)
	}
}

func TestPinnedAsync(t *testing.T) {
	d := testDevice(t)
	const n = 1 << 20
	h, err := AllocHost[uint64](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Free()
	out, err := AllocHost[uint64](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	copy(h.Slice(), randomWords[uint64](n, 7))
	b, err := Alloc[uint64](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start, _ := d.NewEvent()
	end, _ := d.NewEvent()
	defer start.Close()
	defer end.Close()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := b.UploadAsync(s, h); err != nil {
		t.Fatal(err)
	}
	if err := b.DownloadAsync(s, out); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	el, err := end.Since(start)
	if err != nil || el <= 0 {
		t.Errorf("elapsed = %v, %v", el, err)
	}
	hs, os := h.Slice(), out.Slice()
	for i := range hs {
		if hs[i] != os[i] {
			t.Fatalf("element %d: %#x != %#x", i, os[i], hs[i])
		}
	}
	small, _ := AllocHost[uint64](d, 3)
	defer small.Free()
	if err := b.UploadAsync(s, small); !errors.Is(err, ErrLength) {
		t.Errorf("UploadAsync of 3 values: %v", err)
	}
	hv, err := h.View(10, 20)
	if err != nil || hv.Len() != 20 || hv.Slice()[0] != h.Slice()[10] {
		t.Errorf("host view: %v", err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Function("addc")
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	b, err := Alloc[uint32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	src := randomWords[uint32](n, 3)
	b.Upload(src)
	if err := f.Launch(LaunchConfig{Grid: Dim3{X: (n + 127) / 128}, Block: Dim3{X: 128}}, b, uint32(5), uint64(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, n)
	b.Download(got)
	for i := range got {
		if got[i] != src[i]+5 {
			t.Fatalf("x[%d] = %d, want %d", i, got[i], src[i]+5)
		}
	}
	if err := f.Launch(LaunchConfig{Grid: Dim3{X: 1}, Block: Dim3{X: 1}}, b, 5, uint64(n)); err == nil {
		t.Error("Go int argument accepted")
	}
	if err := f.Launch(LaunchConfig{Grid: Dim3{X: 1}, Block: Dim3{X: 4096}}, b, uint32(5), uint64(n)); err == nil {
		t.Error("block of 4096 threads accepted")
	}
	if _, err := m.Function("nosuch"); err == nil {
		t.Error("missing kernel found")
	}
	// The device still works after a refused launch.
	if err := d.Synchronize(); err != nil {
		t.Errorf("Synchronize after refused launch: %v", err)
	}
	if nb, err := f.MaxActiveBlocksPerSM(128, 0); err != nil || nb <= 0 {
		t.Errorf("MaxActiveBlocksPerSM = %d, %v", nb, err)
	}
}

func TestCompileError(t *testing.T) {
	d := testDevice(t)
	_, err := d.LoadModule("bad.cu", "extern \"C\" __global__ void k() { undefined_thing(); }")
	if !errors.Is(err, ErrCompile) || !strings.Contains(err.Error(), "undefined_thing") {
		t.Errorf("compile error = %v", err)
	}
	if _, err := d.Module("nosuch.cu"); err == nil {
		t.Error("missing embedded source loaded")
	}
}

func TestOutOfMemory(t *testing.T) {
	d := testDevice(t)
	_, err := Alloc[uint64](d, 1<<42) // 32 TiB
	if !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("Alloc of 32 TiB: %v", err)
	}
	// The device still works.
	b, err := Alloc[uint64](d, 10)
	if err != nil {
		t.Fatalf("Alloc after OOM: %v", err)
	}
	b.Free()
}

func TestClosedDevice(t *testing.T) {
	testDevice(t)
	d, err := Open(WithoutCache())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Alloc[uint64](d, 100)
	if err != nil {
		t.Fatal(err)
	}
	h, err := AllocHost[uint32](d, 100)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := b.Upload(make([]uint64, 100)); !errors.Is(err, ErrClosed) {
		t.Errorf("Upload on closed device: %v", err)
	}
	if _, err := Alloc[uint64](d, 1); !errors.Is(err, ErrClosed) {
		t.Errorf("Alloc on closed device: %v", err)
	}
	if _, err := d.Module("gf64.cu"); !errors.Is(err, ErrClosed) {
		t.Errorf("Module on closed device: %v", err)
	}
	if err := b.Free(); err != nil {
		t.Errorf("Free after Close: %v", err)
	}
	if h.Slice() != nil {
		t.Error("pinned slice still returned after Close")
	}
	if err := h.Free(); err != nil {
		t.Errorf("host Free after Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("stream Close after Close: %v", err)
	}
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
		t.Error(err)
	}
}
