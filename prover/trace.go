package prover

import (
	"errors"
	"fmt"

	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Errors callers can branch on (with errors.Is); every error the package
// returns wraps one of them and says what was wrong. ErrShape, ErrIndex,
// ErrVerify and ErrHash are package merkle's own values: the errors of its
// trees, openings and verifiers, which this package returns as they are,
// are these.
var (
	// ErrShape: an empty trace, ragged columns, a length that is not a power
	// of two or is over 2^MaxLogRows, a wrong row width, an opening or an
	// encoding of the wrong shape (merkle.ErrShape).
	ErrShape = merkle.ErrShape
	// ErrConfig: an unsupported blowup, a bad option value, a backend that
	// does not exist for the field.
	ErrConfig = errors.New("prover: bad configuration")
	// ErrIndex: an opening index outside the codeword, a column or point
	// outside the trace (merkle.ErrIndex).
	ErrIndex = merkle.ErrIndex
	// ErrVerify: an opening that does not match the root (merkle.ErrVerify).
	ErrVerify = merkle.ErrVerify
	// ErrUnavailable: a backend that this build or machine cannot run (no
	// GPU, or no GPU kernels for the field yet).
	ErrUnavailable = errors.New("prover: backend unavailable")
	// ErrHash: the Merkle hash (WithHash) broke the hash.Hash contract or
	// cannot serve the tree's messages: its constructor returned nil or
	// panicked, Write failed or took fewer bytes than given, Sum appended
	// other than Size() bytes, it panicked, or the probe of New found it
	// unfit (see WithHash). No root, path or verdict comes out of a failed
	// hash. At New the error wraps ErrConfig too (merkle.ErrHash).
	ErrHash = merkle.ErrHash
	// ErrSource: a caller's Source failed (its Shape or ReadColumns returned
	// an error, which the returned error wraps too).
	ErrSource = errors.New("prover: trace source failed")
)

// MaxLogRows is the largest supported log2 of the number of trace rows.
const MaxLogRows = 26

// Trace is an execution trace in column-major order: t[c][r] is row r of
// column c. Every column has the same length, a power of two 2^k with
// 0 ≤ k ≤ MaxLogRows, and every element is of one field. A Trace is a Source
// whose columns the encoder reads in place, without copying them.
type Trace[E Element] [][]E

// Shape returns log2 of the number of rows and the number of columns, or an
// error wrapping ErrShape when the trace is empty, ragged, or its length is
// not a power of two in range.
func (t Trace[E]) Shape() (logRows, cols int, err error) {
	if len(t) == 0 {
		return 0, 0, fmt.Errorf("prover: empty trace (no columns): %w", ErrShape)
	}
	n := len(t[0])
	for c, col := range t {
		if len(col) != n {
			return 0, 0, fmt.Errorf("prover: ragged trace: column %d has %d rows, column 0 has %d: %w", c, len(col), n, ErrShape)
		}
	}
	k, err := checkRows(n)
	if err != nil {
		return 0, 0, err
	}
	return k, len(t), nil
}

// ReadColumns copies columns first..first+len(dst)−1 into dst.
func (t Trace[E]) ReadColumns(first int, dst [][]E) error {
	if first < 0 || first+len(dst) > len(t) {
		return fmt.Errorf("prover: columns %d..%d of a %d-column trace: %w", first, first+len(dst)-1, len(t), ErrIndex)
	}
	for j := range dst {
		if len(dst[j]) != len(t[first+j]) {
			return fmt.Errorf("prover: ReadColumns: destination %d has %d elements, want %d: %w", j, len(dst[j]), len(t[first+j]), ErrShape)
		}
		copy(dst[j], t[first+j])
	}
	return nil
}

// Source is a trace the encoder reads a chunk of columns at a time, so that a
// trace that is not in memory (a file, a generator) never is in full: the
// encoder holds the LDE plus one chunk of trace columns.
type Source[E Element] interface {
	// Shape returns log2 of the number of rows and the number of columns.
	Shape() (logRows, cols int, err error)
	// ReadColumns fills dst[j] (2^logRows elements each) with column first+j.
	ReadColumns(first int, dst [][]E) error
}

// checkRows returns log2(n) for a power of two 1 ≤ n ≤ 2^MaxLogRows.
func checkRows(n int) (int, error) {
	if n == 0 {
		return 0, fmt.Errorf("prover: empty trace (columns of length 0): %w", ErrShape)
	}
	if n&(n-1) != 0 {
		return 0, fmt.Errorf("prover: %d rows is not a power of two: %w", n, ErrShape)
	}
	k := log2(n)
	if k > MaxLogRows {
		return 0, fmt.Errorf("prover: 2^%d rows is more than 2^%d: %w", k, MaxLogRows, ErrShape)
	}
	return k, nil
}

// log2 returns log2(n) for a power of two n ≥ 1.
func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}
