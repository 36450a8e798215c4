package poseidon2

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
	p2 "github.com/gfpoly/gfpoly/prover/poseidon2"
)

var throughput = flag.Bool("p2.throughput", false, "measure the permutations' throughput on the device (TestThroughput)")

func TestMain(m *testing.M) {
	flag.Parse()
	gputest.Main(m)
}

// randomElems returns n random canonical elements of E.
func randomElems[E p2.Element](n int, seed uint64) []E {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]E, n)
	for i := range out {
		switch z := any(&out[i]).(type) {
		case *babybear.Element:
			z.SetUint64(r.Uint64())
		case *koalabear.Element:
			z.SetUint64(r.Uint64())
		case *goldilocks.Element:
			z.SetUint64(r.Uint64())
		}
	}
	return out
}

// perms returns every preset permutation of E's field, and one of random
// parameters per width.
func perms[E p2.Element](t testing.TB) []*p2.Permutation[E] {
	var out []*p2.Permutation[E]
	f := FieldOf[E]()
	for _, w := range f.widths() {
		for _, pr := range []p2.Preset{p2.Plonky3, p2.Gnark} {
			p, err := p2.New[E](pr, w)
			require.NoError(t, err)
			out = append(out, p)
		}
		// Random constants and diagonal, the other matrix: the kernels
		// take any parameters within their bounds.
		prm, err := p2.PresetParams[E](p2.Plonky3, w)
		require.NoError(t, err)
		prm.FullRounds, prm.PartialRounds = 6, 9
		prm.ExternalConstants = nil
		for r := range 6 {
			prm.ExternalConstants = append(prm.ExternalConstants, randomElems[E](w, uint64(100+r)))
		}
		prm.InternalConstants = randomElems[E](9, 7)
		prm.InternalDiag = randomElems[E](w, 8)
		if prm.MDS == p2.MDSMat4 {
			prm.MDS = p2.HLMDSMat4
		} else {
			prm.MDS = p2.MDSMat4
		}
		p, err := p2.NewWithParams(prm)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// TestSpecLayout checks the parameter block against the parameters, word
// for word, without a device.
func TestSpecLayout(t *testing.T) {
	testSpecLayout[babybear.Element](t)
	testSpecLayout[koalabear.Element](t)
	testSpecLayout[goldilocks.Element](t)
}

func testSpecLayout[E p2.Element](t *testing.T) {
	for _, p := range perms[E](t) {
		s, err := SpecOf(p)
		require.NoError(t, err)
		prm := p.Params()
		w := prm.Width
		eb := s.Field.elemBytes()
		b := s.KernelParams()
		require.Len(t, b, 16+eb*(maxFullRounds*w+maxPartialRounds+w))
		assert.Equal(t, uint32(prm.FullRounds), binary.LittleEndian.Uint32(b[0:]))
		assert.Equal(t, uint32(prm.PartialRounds), binary.LittleEndian.Uint32(b[4:]))
		assert.Equal(t, prm.MDS == p2.HLMDSMat4, binary.LittleEndian.Uint32(b[8:]) == 1)
		word := func(at int) uint64 {
			if eb == 4 {
				return uint64(binary.LittleEndian.Uint32(b[16+4*at:]))
			}
			return binary.LittleEndian.Uint64(b[16+8*at:])
		}
		// The kernels' form: Montgomery words (31-bit), canonical values
		// (Goldilocks).
		form := func(e E) uint64 {
			if eb == 4 {
				return uint64(*(*uint32)(unsafe.Pointer(&e)))
			}
			return (*goldilocks.Element)(unsafe.Pointer(&e)).Uint64()
		}
		for r, row := range prm.ExternalConstants {
			for k, e := range row {
				require.Equal(t, form(e), word(r*w+k))
			}
		}
		for r, e := range prm.InternalConstants {
			require.Equal(t, form(e), word(maxFullRounds*w+r))
		}
		for k, e := range prm.InternalDiag {
			require.Equal(t, form(e), word(maxFullRounds*w+maxPartialRounds+k))
		}
	}
}

// TestSpecUnsupported checks what the kernels refuse.
func TestSpecUnsupported(t *testing.T) {
	prm, err := p2.PresetParams[babybear.Element](p2.Plonky3, 16)
	require.NoError(t, err)
	// A width without kernels.
	w8 := prm
	w8.Width = 8
	w8.InternalDiag = prm.InternalDiag[:8]
	w8.ExternalConstants = nil
	for _, row := range prm.ExternalConstants {
		w8.ExternalConstants = append(w8.ExternalConstants, row[:8])
	}
	p, err := p2.NewWithParams(w8)
	require.NoError(t, err)
	_, err = SpecOf(p)
	require.ErrorIs(t, err, ErrUnsupported)
	assert.ErrorContains(t, err, "width 8")
	// More partial rounds than the block holds.
	long := prm
	long.PartialRounds = maxPartialRounds + 1
	long.InternalConstants = randomElems[babybear.Element](long.PartialRounds, 3)
	p, err = p2.NewWithParams(long)
	require.NoError(t, err)
	_, err = SpecOf(p)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = SpecOf[babybear.Element](nil)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = TreeSpecOf[babybear.Element](nil, nil)
	require.ErrorIs(t, err, ErrUnsupported)
	// A tree whose sponge runs on the unsupported width.
	_, err = TreeSpecOf(p.Sponge(), p.Compression())
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = New[babybear.Element](nil, p)
	require.ErrorIs(t, err, ErrUnsupported)
	good, err := p2.New[babybear.Element](p2.Plonky3, 16)
	require.NoError(t, err)
	_, err = New[babybear.Element](nil, good)
	require.ErrorIs(t, err, gpu.ErrNoDevice)
}

// TestPermuteBatch checks the device's permutations against the CPU's on
// random states: every preset and width of every field, random parameters,
// batch sizes around the block size.
func TestPermuteBatch(t *testing.T) {
	d := gputest.Device(t)
	testPermuteBatch[babybear.Element](t, d)
	testPermuteBatch[koalabear.Element](t, d)
	testPermuteBatch[goldilocks.Element](t, d)
}

func testPermuteBatch[E p2.Element](t *testing.T, d *gpu.Device) {
	for i, p := range perms[E](t) {
		g, err := New(d, p)
		require.NoError(t, err)
		for _, n := range []int{1, 127, 128, 129, 1000, 1 << 14} {
			name := fmt.Sprintf("%v/w%d/%d/n%d", FieldOf[E](), p.Width(), i, n)
			states := randomElems[E](n*p.Width(), uint64(n+i))
			if n == 1 {
				// The all-zero state.
				states = make([]E, p.Width())
			}
			buf := gputest.Upload(t, d, states)
			require.NoError(t, g.PermuteBatch(nil, buf), name)
			got := gputest.Download(t, buf)
			require.NoError(t, buf.Free())
			require.NoError(t, p.PermuteBatch(states), name)
			testutil.RequireEqualSlices(t, states, got, name)
		}
	}
}

// TestPermuteBatchErrors checks the errors of bad batches.
func TestPermuteBatchErrors(t *testing.T) {
	d := gputest.Device(t)
	p, err := p2.New[koalabear.Element](p2.Plonky3, 16)
	require.NoError(t, err)
	g, err := New(d, p)
	require.NoError(t, err)
	buf := gputest.Alloc[koalabear.Element](t, d, 17)
	require.ErrorIs(t, g.PermuteBatch(nil, buf), gpu.ErrLength)
	require.ErrorIs(t, g.PermuteBatch(nil, nil), gpu.ErrLength)
	require.NoError(t, buf.Free())
	buf = gputest.Alloc[koalabear.Element](t, d, 32)
	require.NoError(t, buf.Free())
	require.ErrorIs(t, g.PermuteBatch(nil, buf), gpu.ErrClosed)
}

// TestThroughput measures permutations per second with the states on the
// device (-p2.throughput): 2^22 states of every preset and width.
func TestThroughput(t *testing.T) {
	if !*throughput {
		t.Skip("a measurement: run with -p2.throughput")
	}
	d := gputest.Device(t)
	measure[babybear.Element](t, d)
	measure[koalabear.Element](t, d)
	measure[goldilocks.Element](t, d)
}

func measure[E p2.Element](t *testing.T, d *gpu.Device) {
	const n = 1 << 22
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	f := FieldOf[E]()
	// The module as shipped, and variants with a floor on the blocks per
	// multiprocessor (fewer registers a thread), for comparison.
	src, err := cuda.Program(cuda.Poseidon2Program(f.program()))
	require.NoError(t, err)
	mods := map[string]*gpu.Module{}
	mods["shipped"], err = Module(d, f)
	require.NoError(t, err)
	for _, mb := range []int{4, 8} {
		v := strings.ReplaceAll(src, "__launch_bounds__(P2_BLOCK)", fmt.Sprintf("__launch_bounds__(P2_BLOCK, %d)", mb))
		mods[fmt.Sprintf("minblocks=%d", mb)], err = d.LoadModule(fmt.Sprintf("p2-%v-minblocks-%d", f, mb), v)
		require.NoError(t, err)
	}
	for _, w := range f.widths() {
		for _, pr := range []p2.Preset{p2.Plonky3, p2.Gnark} {
			p, err := p2.New[E](pr, w)
			require.NoError(t, err)
			g, err := New(d, p)
			require.NoError(t, err)
			buf := gputest.Upload(t, d, randomElems[E](n*w, 1))
			for _, name := range []string{"shipped", "minblocks=4", "minblocks=8"} {
				fn, err := mods[name].Function(fmt.Sprintf("p2_permute_w%d", w))
				require.NoError(t, err)
				occ, err := fn.MaxActiveBlocksPerSM(block, 0)
				require.NoError(t, err)
				v := &Permutation[E]{d: d, spec: g.spec, fn: fn}
				dt := gputest.DeviceTime(t, d, s, 2, 5, 4, func() error { return v.PermuteBatch(s, buf) })
				t.Logf("%-10v w%-2d %-12v %2d+%2d rounds %-12s %2d blocks/SM: %7.3f ms for 2^22 states, %.2f G permutations/s",
					f, w, pr, p.Params().FullRounds, p.Params().PartialRounds, name, occ,
					float64(dt)/float64(time.Millisecond), float64(n)/dt.Seconds()/1e9)
			}
			require.NoError(t, buf.Free())
		}
	}
}
