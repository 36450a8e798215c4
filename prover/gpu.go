package prover

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/gpu"
)

// WithGPU runs the transforms on dev, an open device (gpu.Open); the caller
// keeps ownership and closes it after the encoder. New returns an error
// wrapping ErrUnavailable when this build has no GPU backend for the field.
// The commitment (hashing) runs on the CPU either way.
func WithGPU(dev *gpu.Device) Option {
	return func(c *config) error {
		if dev == nil {
			return fmt.Errorf("prover: WithGPU(nil): %w", ErrConfig)
		}
		c.gpu = dev
		return nil
	}
}

// gpuBackend returns the GPU encoder for E's field, or an error wrapping
// ErrUnavailable when there is none.
func gpuBackend[E Element](cfg config) (Encoder[E], error) {
	var z E
	var enc any
	switch any(z).(type) {
	case goldilocks.Element:
		enc = newPrimeGPU[goldilocks.Element](cfg)
	case babybear.Element:
		enc = newPrimeGPU[babybear.Element](cfg)
	case koalabear.Element:
		enc = newPrimeGPU[koalabear.Element](cfg)
	case fr.Element:
		enc = newPrimeGPU[fr.Element](cfg)
	default:
		// The GF(2^64) LDE kernels are not in the gpu package yet.
		return nil, fmt.Errorf("prover: no GPU backend for %v in this build (the CPU backend is available): %w", FieldOf[E](), ErrUnavailable)
	}
	return enc.(Encoder[E]), nil
}
