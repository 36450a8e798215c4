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
// keeps ownership and closes it after the encoder. Every field has a GPU
// backend: GF(2^64) on gpu/additive's Transforms (the additive-FFT LDE), the prime
// fields on gpu/primentt's LDE; both are bit-identical to the CPU backends. New
// returns an error wrapping ErrUnavailable when the kernels cannot be built
// on the device. With the default hash (SHA-256) the commitment is hashed on
// the device too (gpu/rowhash): Commit absorbs each group of columns into
// the rows' hash states while its LDE is on the device, CommitLDE uploads
// the LDE it is given; the tree is the CPU backends', digest for digest. A
// custom hash (WithHash), or a device without memory for the hashing (128
// bytes of device memory and 32 of pinned host memory per LDE row, which the
// encoder keeps for its next commitment of as many rows), hashes on the CPU.
func WithGPU(dev *gpu.Device) Option {
	return func(c *config) error {
		if dev == nil {
			return fmt.Errorf("prover: WithGPU(nil): %w", ErrConfig)
		}
		c.gpu = dev
		return nil
	}
}

// gpuBackend returns the GPU encoder for E's field.
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
		b, err := newBinaryGPU(cfg)
		if err != nil {
			return nil, err
		}
		enc = b
	}
	return enc.(Encoder[E]), nil
}
