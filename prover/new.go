package prover

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// New returns an encoder for traces of E's field, configured by opts: on the
// CPU unless a GPU is given (WithGPU), blowup 4, SHA-256, the default
// evaluation domains. Bad option values return an error wrapping ErrConfig.
//
//	enc, err := prover.New[gf64.Element](prover.WithBlowup(8))
//	c, err := enc.Commit(prover.Trace[gf64.Element]{col0, col1, col2})
//	root := c.Root()
func New[E Element](opts ...Option) (Encoder[E], error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	f := FieldOf[E]()
	if cfg.domains != nil && f != GF64 {
		return nil, fmt.Errorf("prover: WithBinaryDomains applies to GF(2^64) traces, not %v: %w", f, ErrConfig)
	}
	// The tree's node message and a one-column leaf; wider leaves are
	// probed by the first commitment of their width.
	if err := cfg.hs.Probe(f.ElementBytes()); err != nil {
		return nil, fmt.Errorf("prover: WithHash: %w (%w)", err, ErrConfig)
	}
	if err := merkle.CheckField[E](cfg.hs); err != nil {
		return nil, fmt.Errorf("prover: WithMerkle: %w (%w)", err, ErrConfig)
	}
	if !cfg.hs.Default() && (cfg.gpu != nil || cfg.gpus != nil) {
		cfg.devTree, cfg.devTreeWhy = devTreeSpec[E](cfg.hs)
	}
	if cfg.gpus != nil {
		return newMultiGPU[E](cfg)
	}
	if cfg.gpu != nil {
		return gpuBackend[E](cfg)
	}
	var z E
	var enc any
	switch any(z).(type) {
	case gf64.Element:
		enc = newBinaryCPU(cfg)
	case goldilocks.Element:
		enc = newPrimeCPU[goldilocks.Element](cfg)
	case babybear.Element:
		enc = newPrimeCPU[babybear.Element](cfg)
	case koalabear.Element:
		enc = newPrimeCPU[koalabear.Element](cfg)
	case fr.Element:
		enc = newPrimeCPU[fr.Element](cfg)
	}
	return enc.(Encoder[E]), nil
}
