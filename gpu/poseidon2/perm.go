package poseidon2

import (
	"fmt"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
	p2 "github.com/gfpoly/gfpoly/prover/poseidon2"
)

// block is the kernels' block size (cuda/poseidon2.cu's P2_BLOCK).
const block = 128

// Permutation is a Poseidon2 permutation over E loaded on one device. It is
// immutable once made and its methods may be called from several
// goroutines (on different streams, or on one stream in the order they are
// queued).
type Permutation[E p2.Element] struct {
	d    *gpu.Device
	spec Spec
	fn   *gpu.Function
}

// Module loads the field's module on d (compiled on first use where the
// binary has no prebuilt image for the device).
func Module(d *gpu.Device, f Field) (*gpu.Module, error) {
	if d == nil {
		return nil, fmt.Errorf("poseidon2: nil device: %w", gpu.ErrNoDevice)
	}
	return d.Module(cuda.Poseidon2Program(f.program()))
}

// New loads p onto d. A permutation the kernels do not run is an error
// wrapping ErrUnsupported (SpecOf), a nil device gpu.ErrNoDevice.
func New[E p2.Element](d *gpu.Device, p *p2.Permutation[E]) (*Permutation[E], error) {
	spec, err := SpecOf(p)
	if err != nil {
		return nil, err
	}
	m, err := Module(d, spec.Field)
	if err != nil {
		return nil, err
	}
	fn, err := m.Function(fmt.Sprintf("p2_permute_w%d", spec.Width))
	if err != nil {
		return nil, err
	}
	return &Permutation[E]{d: d, spec: spec, fn: fn}, nil
}

// Width returns the width.
func (p *Permutation[E]) Width() int { return p.spec.Width }

// Grid returns a launch grid of grid-stride loops over n threads on d: at
// most 16 blocks per multiprocessor.
func Grid(d *gpu.Device, n int) gpu.Dim3 {
	g := (n + block - 1) / block
	if lim := 16 * d.Info().Multiprocessors; lim > 0 && g > lim {
		g = lim
	}
	return gpu.Dim3{X: max(g, 1)}
}

// PermuteBatch permutes in place the states laid end to end in states
// (state i at [i·Width, (i+1)·Width), as the CPU's PermuteBatch takes
// them), on stream s (nil: the default stream, and PermuteBatch waits). The
// states must be canonical elements, as gnark-crypto makes them.
func (p *Permutation[E]) PermuteBatch(s *gpu.Stream, states *gpu.Buffer[E]) error {
	if states == nil || states.Len()%p.spec.Width != 0 {
		n := 0
		if states != nil {
			n = states.Len()
		}
		return fmt.Errorf("poseidon2: PermuteBatch: %d elements are not whole states of width %d: %w", n, p.spec.Width, gpu.ErrLength)
	}
	if states.Device() != p.d {
		return fmt.Errorf("poseidon2: PermuteBatch: the states are on another device: %w", gpu.ErrLength)
	}
	if states.Freed() {
		return fmt.Errorf("poseidon2: PermuteBatch: the states were freed: %w", gpu.ErrClosed)
	}
	n := states.Len() / p.spec.Width
	if n == 0 {
		return nil
	}
	err := p.fn.Launch(gpu.LaunchConfig{Grid: Grid(p.d, n), Block: gpu.Dim3{X: block}, Stream: s},
		states, uint64(n), p.spec.params)
	if err != nil {
		return fmt.Errorf("poseidon2: PermuteBatch: %w", err)
	}
	return nil
}
