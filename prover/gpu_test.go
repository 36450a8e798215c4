package prover

import (
	"bytes"
	"errors"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
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
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	t.Logf("%s on %s", g.Name(), g.Device())
	for _, sh := range [][3]int{{1, 1, 2}, {4, 7, 4}, {10, 5, 16}, {12, 3, 8}, {16, 4, 4}} {
		k, cols, b := sh[0], sh[1], sh[2]
		cpu, _ := New[E](WithBlowup(b))
		gg, err := New[E](WithGPU(dev), WithBlowup(b), WithChunkColumns(3))
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := RandomTrace[E](k, cols, uint64(k))
		want, err := cpu.Commit(tr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := gg.Commit(tr)
		if err != nil {
			t.Fatalf("%s 2^%d×%d blowup %d: %v", gg.Name(), k, cols, b, err)
		}
		for c := range cols {
			if !equal(got.LDE()[c], want.LDE()[c]) {
				t.Fatalf("%s 2^%d×%d blowup %d: column %d differs from the CPU", gg.Name(), k, cols, b, c)
			}
		}
		if !bytes.Equal(got.Root(), want.Root()) {
			t.Fatalf("%s: roots differ", gg.Name())
		}
		gg.Close()
	}
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
	if _, err := New[gf64.Element](WithGPU(nil)); !errors.Is(err, ErrConfig) {
		t.Fatalf("WithGPU(nil): %v", err)
	}
}
