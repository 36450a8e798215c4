package rs

import "errors"

// Sentinel errors, returned wrapped (with %w) in errors that say what was
// wrong; test for them with errors.Is.
var (
	// ErrDimension: the codeword space is not larger than the message space,
	// or a space is missing.
	ErrDimension = errors.New("rs: codeword space must have a larger dimension than the message space")
	// ErrNotNested: WithSystematic was asked for but the message space is
	// not contained in the codeword space.
	ErrNotNested = errors.New("rs: message space is not contained in the codeword space")
	// ErrLength: a slice has the wrong length, or a batch has mismatched
	// shapes, or a required slice is nil.
	ErrLength = errors.New("rs: wrong length")
	// ErrTooFewSymbols: fewer present positions than the message length; the
	// error says how many are present and how many are needed.
	ErrTooFewSymbols = errors.New("rs: too few symbols present to decode")
	// ErrNotCodeword: the present symbols do not lie on one polynomial of
	// degree below the message length, so no codeword agrees with them.
	ErrNotCodeword = errors.New("rs: present symbols do not lie on a codeword")
	// ErrPosition: a codeword position given to ReconstructAt or DecodeAt
	// is outside [0, 2^n) or repeats an earlier one.
	ErrPosition = errors.New("rs: bad codeword position")
)
