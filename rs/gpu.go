package rs

import (
	"fmt"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Accelerator runs low-degree extensions somewhere other than this
// process's CPU cores, such as a GPU. LDEBatch must set dst[i] to
// domain.LDE of src[i] from from to to, bit for bit, leave src untouched,
// and check shapes before writing. Package gpu/additive's *Transforms
// implements it (package rs cannot import it: it sits below it).
type Accelerator interface {
	LDEBatch(dst, src [][]gf64.Element, from, to *domain.Subspace) error
}

// WithAccelerator makes Encode and EncodeBatch run on a (the other methods
// stay on the CPU). An error from a is returned wrapped; the Code does not
// fall back to the CPU by itself. The usual way in, with the fallback the
// caller owns:
//
//	var opts []rs.Option
//	if tr, err := additive.Open(); err != nil {
//		log.Printf("no GPU (%v): encoding on the CPU", err)
//	} else {
//		defer tr.Close()
//		opts = append(opts, rs.WithAccelerator(tr))
//	}
//	code, err := rs.New(msgSpace, cwSpace, opts...)
func WithAccelerator(a Accelerator) Option {
	return func(c *config) error {
		if a == nil {
			return fmt.Errorf("rs: WithAccelerator(nil)")
		}
		c.acc = a
		return nil
	}
}

// Accelerated reports whether the Code encodes on an Accelerator.
func (c *Code) Accelerated() bool { return c.acc != nil }

// accEncode runs an encoding, already checked, on the accelerator.
func (c *Code) accEncode(op string, dst, msgs [][]gf64.Element) error {
	if err := c.acc.LDEBatch(dst, msgs, c.msg, c.cw); err != nil {
		return fmt.Errorf("rs: %s on the accelerator: %w", op, err)
	}
	return nil
}
