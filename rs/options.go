package rs

import "fmt"

// Option configures a Code at construction. Options that get a bad value make
// New return an error.
type Option func(*config) error

type config struct {
	systematic bool
	workers    int
	acc        Accelerator // WithAccelerator (gpu.go)
}

// WithSystematic requires the systematic layout: the message space must lie
// inside the codeword space, so that every message symbol appears unchanged in
// the codeword. New fails with ErrNotNested when it does not.
func WithSystematic() Option {
	return func(c *config) error {
		c.systematic = true
		return nil
	}
}

// WithWorkers sets how many goroutines EncodeBatch spreads its columns over
// (the calling goroutine included); n must be at least 1. WithWorkers(1) also
// keeps Encode and the decoder on the calling goroutine. Without it a Code
// uses runtime.GOMAXPROCS(0), read at each call. A single large transform
// (Encode, EncodeCoeffs, Verify, parts of decoding) is split by package
// domain over GOMAXPROCS goroutines whatever this says, except under
// WithWorkers(1) for Encode.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("rs: WithWorkers(%d): need at least 1 worker", n)
		}
		c.workers = n
		return nil
	}
}
