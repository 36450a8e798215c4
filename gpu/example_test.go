package gpu_test

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/gpu"
)

// addSrc is a kernel of the caller's own: x[i] += c.
const addSrc = `
extern "C" __global__ void add(unsigned int *x, unsigned int c, unsigned long long n) {
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += c;
}
`

// addOnGPU adds c to every x[i] on the GPU: compile a kernel, copy the data
// to the device, launch, copy back.
func addOnGPU(x []uint32, c uint32) error {
	d, err := gpu.Open()
	if err != nil {
		return err
	}
	defer d.Close()
	m, err := d.LoadModule("add.cu", addSrc)
	if err != nil {
		return err
	}
	add, err := m.Function("add")
	if err != nil {
		return err
	}
	buf, err := gpu.Alloc[uint32](d, len(x))
	if err != nil {
		return err
	}
	defer buf.Free()
	if err := buf.Upload(x); err != nil {
		return err
	}
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: (len(x) + 255) / 256}, Block: gpu.Dim3{X: 256}}
	if err := add.Launch(cfg, buf, c, uint64(len(x))); err != nil { // nil stream: waits
		return err
	}
	return buf.Download(x)
}

func Example() {
	x := []uint32{1, 2, 3, 4}
	if err := addOnGPU(x, 10); err != nil {
		if !errors.Is(err, gpu.ErrNoDevice) {
			fmt.Println(err)
			return
		}
		for i := range x { // no GPU here: the same on the CPU
			x[i] += 10
		}
	}
	fmt.Println(x)
	// Output: [11 12 13 14]
}
