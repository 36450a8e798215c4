package fermat

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	field "github.com/gfpoly/gfpoly/field/fermat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestKernelsOnHost runs the shipped cuda/fermat.cu on the host, where
// there is no GPU: g++ compiles it as C++ behind testdata/hostkernels.cpp
// (the CUDA keywords as plain C++, a block's threads as fibers that take
// turns between barriers), which runs the launch sequences of FFT, IFFT and
// MulBig; the results must equal field/fermat's and math/big's. It skips
// without g++.
func TestKernelsOnHost(t *testing.T) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile cuda/fermat.cu for the host")
	}
	dir := t.TempDir()
	src, err := cuda.Program(cuda.FermatProgram)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fermat.cu"), []byte(src), 0o644))
	harness, err := os.ReadFile(filepath.Join("testdata", "hostkernels.cpp"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hostkernels.cpp"), harness, 0o644))
	// The compile is most of the test's time: -O1 (a faster run of the
	// kernels, another code generation of them) under GFPOLY_LONG, -O0
	// otherwise.
	opt := "-O0"
	if testutil.Long() {
		opt = "-O1"
	}
	t0 := time.Now()
	out, err := exec.Command(gxx, "-std=c++20", opt, "-w", "-I", dir,
		"-o", filepath.Join(dir, "hostkernels"), filepath.Join(dir, "hostkernels.cpp")).CombinedOutput()
	require.NoError(t, err, "g++: %s", out)
	t.Logf("compiled cuda/fermat.cu for the host in %v", time.Since(t0).Round(time.Millisecond))

	put := func(name string, w []uint64) {
		b := make([]byte, 8*len(w))
		for i, v := range w {
			binary.LittleEndian.PutUint64(b[8*i:], v)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	get := func(name string) []uint64 {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		w := make([]uint64, len(b)/8)
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		return w
	}
	elems := func(v []field.Element) []uint64 {
		w := make([]uint64, 0, 8*len(v))
		for _, e := range v {
			w = append(w, e[:]...)
		}
		return w
	}
	tables := func(prefix string, k int) {
		tw := []field.Element{{1}}
		if k > 4 {
			tw = twiddles(k)
		}
		var inv field.Element
		inv.SetBig(new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), uint(k)), field.Modulus()))
		put(prefix+"tw_"+fmt.Sprint(k)+".bin", elems(tw))
		put(prefix+"inv_"+fmt.Sprint(k)+".bin", elems([]field.Element{inv}))
	}

	// 2^12 is the first length whose radix-16 passes take several blocks
	// from the first pass on; 2^13 (a radix-2 first pass on 16 blocks) under
	// GFPOLY_LONG.
	top := testutil.Sweep(10, 12, 13)
	cfg := []uint64{uint64(top + 1)}
	ins := map[int][]field.Element{}
	for k := 0; k <= top; k++ {
		cfg = append(cfg, uint64(k))
		ins[k] = randVec(1<<k, uint64(300+k))
		put(fmt.Sprintf("in_%d.bin", k), elems(ins[k]))
		tables("", k)
	}
	r := rand.New(rand.NewPCG(15, 16))
	type pcase struct{ x, y *big.Int }
	var pcs []pcase
	for _, sz := range [][2]int{{1, 1}, {64, 64}, {1000, 300}, {240 * 16, 240 * 16}, {100000, 99999}, {300000, 5000}} {
		pcs = append(pcs, pcase{randBig(r, sz[0]), randBig(r, sz[1])})
	}
	ones := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 20000), big.NewInt(1))
	pcs = append(pcs, pcase{ones, ones})
	cfg = append(cfg, uint64(len(pcs)))
	shapes := make([]shape, len(pcs))
	for c, pc := range pcs {
		xw, yw := words(pc.x), words(pc.y)
		sh, err := newShape(pc.x.BitLen(), pc.y.BitLen(), len(xw), len(yw))
		require.NoError(t, err)
		shapes[c] = sh
		put(fmt.Sprintf("mb_%d.bin", c), []uint64{uint64(sh.b), uint64(sh.na), uint64(sh.nb), uint64(sh.k)})
		put(fmt.Sprintf("mbx_%d.bin", c), xw)
		put(fmt.Sprintf("mby_%d.bin", c), yw)
		tables(fmt.Sprintf("mb%d", c), sh.k)
		require.NoError(t, os.Rename(filepath.Join(dir, fmt.Sprintf("mb%dtw_%d.bin", c, sh.k)), filepath.Join(dir, fmt.Sprintf("mbtw_%d.bin", c))))
		require.NoError(t, os.Rename(filepath.Join(dir, fmt.Sprintf("mb%dinv_%d.bin", c, sh.k)), filepath.Join(dir, fmt.Sprintf("mbinv_%d.bin", c))))
	}
	put("config.bin", cfg)

	t0 = time.Now()
	out, err = exec.Command(filepath.Join(dir, "hostkernels"), dir).CombinedOutput()
	require.NoError(t, err, "hostkernels: %s", out)
	t.Logf("ran the kernels on the host in %v", time.Since(t0).Round(time.Millisecond))

	for k := 0; k <= top; k++ {
		want := append([]field.Element(nil), ins[k]...)
		require.NoError(t, field.FFT(want))
		assert.Equal(t, elems(want), get(fmt.Sprintf("fft_%d.bin", k)), "FFT 2^%d", k)
		want = append(want[:0], ins[k]...)
		require.NoError(t, field.IFFT(want))
		assert.Equal(t, elems(want), get(fmt.Sprintf("ifft_%d.bin", k)), "IFFT 2^%d", k)
	}
	for c, pc := range pcs {
		lh := get(fmt.Sprintf("mbz_%d.bin", c))
		nz := shapes[c].nz
		require.Len(t, lh, 2*nz)
		zb, z := newWords(nz)
		require.Zero(t, carryPass(z, lh[:nz], lh[nz:]))
		assert.Zero(t, new(big.Int).Mul(pc.x, pc.y).Cmp(fromWords(zb, z)), "product %d: %d × %d bits", c, pc.x.BitLen(), pc.y.BitLen())
	}
	t.Logf("cuda/fermat.cu on the host = field/fermat at 2^0 … 2^%d (FFT, IFFT), = math/big on %d products", top, len(pcs))
}
